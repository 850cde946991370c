//! lrs-tourney: a tournament orchestrator for bot-programming contests in robot games.
//!
//! The crate is layered so that data flows one way. Each game lives in its own folder of
//! `games` (`games::lrs`, `games::robotgame`, `games::robots`) with its pure engine, boards
//! or arenas, scenarios and built-in AIs; `games` itself is the seam (the `games::Game`
//! trait and its registry, `games::ArenaRules` that plays, replays and shows a game of any
//! kind, and the game-neutral `Arena`, `GameSettings`, `BuiltinBot` and `GameOutcome`). The
//! orchestrator (`tourney`, `runner`, `store`, `report`, `bots`) reaches games only through
//! that seam and `play::series`, which `tests/architecture.rs` checks; `play` plays series
//! of games for the `play` command; `cli` parses arguments and prints.

pub mod bots;
pub mod cli;
pub mod games;
pub mod play;
pub mod report;
pub mod rng;
pub mod runner;
pub mod runtime;
pub mod store;
pub mod text;
pub mod tourney;

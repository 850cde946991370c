//! lrs-tourney: a tournament orchestrator for bot-programming contests in robot games.
//!
//! The crate is layered so that data flows one way. Each game lives in its own folder of
//! `games` (`games::lrs`, `games::robotgame`, `games::robots`) with its pure engine, boards
//! or arenas, scenarios and built-in AIs; `games` itself is the seam (the `games::Game`
//! trait, its registry, and the per-game `Arena`, `GameSettings` and `BuiltinBot`). The
//! orchestrator (`tourney`, `runner`, `store`, `report`, `bots`) reaches games only through
//! that seam and `play::contest`, which `tests/architecture.rs` checks; `play` plays
//! matches; `cli` parses arguments and prints.

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

//! lrs-tourney: a tournament orchestrator for the Last Robot Standing bot-programming contest.
//!
//! The crate is layered so that data flows one way: `engine` (the rules, pure) is used by
//! `boards` (board files), `scenario` (rule scenarios), `ai` (built-in players) and `play`
//! (many games, statistics); `cli` parses arguments and prints.
//! Game kinds other than LRS live in `games`, each with its own engine, scenarios and AIs.

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

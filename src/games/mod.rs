//! Game kinds other than Last Robot Standing, one module each.
//!
//! The orchestrator is meant to run several games (the game seam); each kind brings its own
//! pure engine, scenario format and built-in AIs here. Last Robot Standing still lives in
//! `crate::engine` and is to move here later, next to the others.

mod kind;
pub mod robotgame;
pub mod robots;

pub use kind::{GameKind, UnknownGame};

//! The game kinds behind the orchestrator (the game seam).
//!
//! [`GameKind`] is the one list of games, with what the orchestrator may ask of each: seats,
//! settings ([`GameSettings`]), built-in AIs ([`BuiltinBot`]), statistics ([`Stats`]) and
//! tie-break steps ([`TieStep`]). RobotGame and Robots live here; Last Robot Standing's
//! engine is still `crate::engine`, reached through the same types.

mod arena;
mod builtin;
pub mod bytes;
mod kind;
pub mod lrs;
pub mod robotgame;
pub mod robots;
mod settings;
mod stats;
pub mod view;

pub use arena::Arena;
pub use builtin::BuiltinBot;
pub use kind::{GameKind, UnknownGame};
pub use settings::{GameSettings, RobotsSettings, SettingsProblem};
pub use stats::{Better, MAX_STATS, NamedStats, Stats, TieStep};

//! The game kinds behind the orchestrator (the game seam).
//!
//! [`Game`] is what the orchestrator may ask of a game kind (seats, settings
//! ([`GameSettings`]), built-in AIs ([`BuiltinBot`]), statistics ([`Stats`]), tie-break
//! steps ([`TieStep`]), scenarios); each game implements it in its folder and [`REGISTRY`]
//! lists them; [`GameKind`] is a handle to one. Every game lives in its own folder here:
//! [`lrs`] (Last Robot Standing), [`robotgame`], [`robots`], [`roborally`], [`roborunner`] (Robo Runner).

pub mod arena;
mod builtin;
pub mod bytes;
pub mod jsonl;
mod kind;
pub mod lrs;
mod outcome;
pub mod roborally;
pub mod roborunner;
pub mod robotgame;
pub mod robots;
pub mod scenario;
pub(crate) mod settings;
pub mod shared;
mod stats;
mod typed;
pub mod view;

pub use arena::{Arena, ArenaRules, Decisions, Match, Played, StoredGame};
pub use builtin::BuiltinBot;
pub use jsonl::{BadLine, SeatLog};
pub use kind::{
    ArenaFlags, ArenaPool, Game, GameFacts, GameKind, REGISTRY, ShippedArena, UnknownGame, register,
};
pub use outcome::{GameOutcome, SeatBot, SeatOutcome, SeriesSeat};
pub use scenario::{ScenarioFailure, run_scenario_file};
pub use settings::{GameSettings, SettingsProblem};
pub use stats::{Better, MAX_STATS, NamedStats, Stats, TieStep};
pub use typed::{NoSettings, SettingsSeam, TypedGame};

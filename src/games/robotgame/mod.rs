//! RobotGame: up to 8 players command squads of robots in a round arena for 100 turns
//! (docs/robotgame.md has the rules, clauses RG1 to RG8).
//!
//! Layered like the LRS code: [`arena`] and [`types`] are the vocabulary, [`engine`] the pure
//! rules (with `movement` and the decision [`log`]), [`ai`] the built-in players and
//! [`scenario`] the TOML scenario format that pins each rule down.

pub mod ai;
pub mod arena;
pub mod engine;
pub mod kind;
pub mod log;
mod movement;
pub mod play;
pub mod protocol;
pub mod remote;
pub mod scenario;
pub mod text;
pub mod trace;
pub mod types;

pub use ai::{BuiltinAi, Player};
pub use arena::{ARENA, Arena, Sq};
pub use engine::{Game, GameError, Placement, Robot, SeatStats, Settings, Setup};
pub use log::{Decision, DecisionLog, FaultRecord, TurnDecisions};
pub use remote::run_game;
pub use types::{
    Action, Answer, Command, Dir, Event, EventKind, FaultKind, Order, Pos, RobotId, Seat, Silence,
};

/// Version of the RobotGame rules implementation, stored with every game so results and
/// replays can be matched to the engine that produced them. Bump it whenever a rule's
/// outcome or the order in which the generator is consumed changes.
pub const ENGINE_VERSION: u32 = 1;

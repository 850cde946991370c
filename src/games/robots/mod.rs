//! Robots: the classic game of a player alone against robots that step towards it, one
//! board per seat (docs/robots.md has the rules, clauses RB1 to RB7).
//!
//! Layered like RobotGame: [`types`] is the vocabulary, [`board`] the state of one seat's
//! game and its level layout, `turn` the rules of a turn (moves and the robots' step),
//! [`game`] the seats side by side with the decision [`log`], [`protocol`] the JSON-lines
//! payloads, [`ai`] the built-in players and [`scenario`] the TOML format that pins each
//! rule down.

pub mod ai;
pub mod board;
mod free;
pub mod game;
pub mod kind;
pub mod log;
pub mod play;
pub mod protocol;
pub mod remote;
pub mod scenario;
pub mod settings;
pub mod text;
pub mod trace;

mod turn;
pub mod types;

pub use ai::{BuiltinAi, Player};
pub use board::{Board, Cell, GameError, Position, Sq};
pub use game::{Game, SeatStats, Settings, Setup};
pub use log::{DecisionLog, TurnDecisions};
pub use remote::run_game;
pub use settings::RobotsSettings;
pub use turn::Consumed;
pub use types::{
    Answer, Dir, Event, EventKind, FaultKind, Illegal, KillCause, Move, Pos, Seat, Silence, Status,
};

/// Version of the Robots rules implementation, stored with every game so results and
/// replays can be matched to the engine that produced them.
pub const ENGINE_VERSION: u32 = 1;

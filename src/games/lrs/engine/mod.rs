//! The embedded Last Robot Standing engine: rules R1–R14 as a pure state machine.
//!
//! No I/O, no clocks, no threads, no global randomness: a game is a function of its board,
//! its seed and the players' answers. Players are asked through queries ([`StartQuery`],
//! [`TurnQuery`]) and answer with replies, so in-process AIs, subprocesses and TCP clients
//! all drive the same code.

pub mod board;
pub mod cards;
mod conveyors;
mod deal;
pub mod decisions;
pub mod event;
pub mod game;
pub mod geometry;
mod lasers;
mod movement;
pub mod player;
pub mod query;
mod reentry;
/// The shared generator (`crate::rng`), kept reachable where the rules always found it.
pub use crate::rng;
pub mod robot;
pub mod trace;
mod turn_end;

pub use board::{Board, BoardError, Laser, Square, Tile, Walls};
pub use cards::{Card, Hand, Move};
pub use event::{Cause, Event, EventKind};
pub use game::{Game, GameConfig, GameError, MAX_PLAYERS, MIN_PLAYERS, Pending};
pub use geometry::{Direction, Pos, Rotation};
pub use player::{Player, run_game};
pub use query::{
    Decision, Fault, PlayedCard, Scripted, StartQuery, StartReply, TurnQuery, TurnReply,
};
pub use robot::{Power, Robot, Seat, Status};
pub use trace::{Frame, Shot, Stage};

/// Version of the rules implementation, to be stored with every game result so that results
/// and replays can be matched to the engine that produced them. Bump it whenever any rule's outcome or
/// the order in which the generator is consumed changes.
///
/// Version 2: R13.5 (a robot destroyed while DOWN or ANNOUNCED is powered UP). Version 3:
/// R5.3 (an answer with no card and a power-down stays and powers down; it was a random card).
pub const ENGINE_VERSION: u32 = 3;

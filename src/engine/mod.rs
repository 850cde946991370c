//! The embedded Last Robot Standing engine: rules R1–R14 as a pure state machine.
//!
//! No I/O, no clocks, no threads, no global randomness: a game is a function of its board,
//! its seed and the players' answers. Players are asked through queries ([`StartQuery`],
//! [`TurnQuery`]) and answer with replies, so in-process AIs, subprocesses and TCP clients
//! all drive the same code.

pub mod board;
pub mod cards;
pub mod event;
pub mod geometry;
pub mod robot;

pub use board::{Board, BoardError, Laser, Square, Tile, Walls};
pub use cards::{Card, Hand, Move};
pub use event::{Cause, Event, EventKind};
pub use geometry::{Direction, Pos, Rotation};
pub use robot::{Power, Robot, Seat, Status};

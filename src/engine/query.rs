//! Queries the engine asks players and the replies it accepts (R2.2, R5, R13).
//!
//! These are plain data so that any transport (in-process AI, JSON-lines subprocess,
//! Windward TCP client) can carry them; the engine validates every reply itself.

use super::cards::{Card, Hand};
use super::event::EventKind;
use super::geometry::{Direction, Pos};
use super::robot::Seat;
use serde::{Deserialize, Serialize};

/// Why a player gave no usable answer (R5.2, R13.4). Invalid answers are detected by the
/// engine itself; transports report the other two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// No answer before the deadline.
    Timeout,
    /// Malformed or illegal answer.
    Invalid,
    /// The player is gone (crashed, exited, disconnected).
    Crash,
}

impl Fault {
    pub fn event_kind(self) -> EventKind {
        match self {
            Fault::Timeout => EventKind::Timeout,
            Fault::Invalid => EventKind::Invalid,
            Fault::Crash => EventKind::Crash,
        }
    }
}

/// "Where do you (re-)enter and which way do you face?" At game start and when the
/// archive square is free there is exactly one option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartQuery {
    pub seat: Seat,
    /// `false` at game start, `true` when re-entering after destruction.
    pub reentry: bool,
    pub options: Vec<Pos>,
}

/// A player's answer to a [`StartQuery`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartReply {
    Choose { pos: Pos, facing: Direction },
    Fault(Fault),
}

/// "Which card of this hand do you play, and do you power down?"
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnQuery {
    pub seat: Seat,
    pub hand: Hand,
    /// The hand is the single locked card of a robot at damage 9 (R4.3).
    pub locked: bool,
}

/// A player's answer to a [`TurnQuery`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnReply {
    /// Index into the hand.
    Play {
        card: usize,
        power_down: bool,
    },
    /// The player leaves the card to the game: a random card of the hand, as for a fault,
    /// but no fault, and the power-down it asked for. The 2012 Windward clients answer so,
    /// with no card at all, when every card they tried destroys their robot ("the game
    /// will randomly move one of your units").
    AnyCard {
        power_down: bool,
    },
    Fault(Fault),
}

/// A card as executed, after replies are resolved (or as given by a scenario).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedCard {
    pub card: Card,
    pub power_down: bool,
}

/// One reply, in the order the engine consumed it: with the seed, the full record needed
/// to replay a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Start { seat: Seat, reply: StartReply },
    Turn { seat: Seat, reply: TurnReply },
}

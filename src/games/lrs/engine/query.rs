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
    /// No card, and power down (R5.3): the robot plays no card this turn and is ANNOUNCED.
    /// A locked robot (R4.3) plays its locked card all the same, and powers down. The 2012
    /// Windward clients answer so when every card they tried destroys their robot.
    StayAndPowerDown,
    /// No card and no power-down, from a Windward client that sent an empty card list:
    /// the robot plays no card this turn and stays powered up; a locked robot plays its
    /// locked card all the same. The 2012 sample clients send `<cards/>` with the
    /// power-down flag they had chosen before (usually `false`) when every card they tried
    /// destroys their robot, so their "no move" is kept as one (docs/rules.md, R5.3).
    Stay,
    /// A random card of the hand, as for a fault, but no fault, and the power-down asked
    /// for. Engine version 2 read a Windward reply with no card so; no transport gives it
    /// now, and the engine still plays it as then, so that the decision logs of that
    /// version replay the games they record.
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

/// A scenario's answer for one robot in one turn. Scenarios deal no hands: the file gives
/// the card itself, or names none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scripted {
    /// Plays this card; a locked robot plays its locked move at this priority (R4.3).
    Card(PlayedCard),
    /// Names no card. With `power_down` the robot stays and powers down (R5.3); without, it
    /// is a fault (R5.2), and as there is no hand to draw a random card from, the robot
    /// plays none. A locked robot plays its locked move at `priority` either way (R4.3).
    NoCard { power_down: bool, priority: u16 },
}

/// One reply, in the order the engine consumed it: with the seed, the full record needed
/// to replay a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Start { seat: Seat, reply: StartReply },
    Turn { seat: Seat, reply: TurnReply },
}

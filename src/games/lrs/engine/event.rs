//! Events: every score change, fault and destruction, in the order it happened (R14).
//!
//! Replays, reports and tests read these; they are the engine's only output besides state.

use super::robot::Seat;
use serde::{Deserialize, Serialize};

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A robot laser hit another robot (R9.3): 1 point.
    Hit,
    /// Pushed a robot that survived the pushes (R6.8): 2 points.
    Push,
    /// Pushed a robot off the board or into a pit (R6.8): 7 points.
    PushKill,
    /// Ended a turn on the next flag (R11.1): 5 points.
    Flag,
    /// Last robot not dead (R12.2): the score is doubled; `points` is the amount added.
    SurvivorBonus,
    /// No answer before the deadline (R5.2).
    Timeout,
    /// An answer that is malformed or not legal (R5.2).
    Invalid,
    /// The bot is gone: crashed or exited (R5.2).
    Crash,
    /// The robot left the board (R10.1).
    Destroyed,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether this is one of the fault kinds of R5.2.
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            EventKind::Timeout | EventKind::Invalid | EventKind::Crash
        )
    }
}

/// Why a robot was destroyed (R10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    Laser,
    Pit,
    OffBoard,
}

impl Cause {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One event. `turn` 0 is the game start (the facing query before turn 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub turn: u16,
    pub kind: EventKind,
    pub robot: Seat,
    pub victim: Option<Seat>,
    pub points: i32,
    pub cause: Option<Cause>,
    /// The flag number, on `flag` events.
    pub flag: Option<u8>,
}

impl Event {
    pub fn new(turn: u16, kind: EventKind, robot: Seat) -> Event {
        Event {
            turn,
            kind,
            robot,
            victim: None,
            points: 0,
            cause: None,
            flag: None,
        }
    }
}

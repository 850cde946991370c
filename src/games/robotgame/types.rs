//! Defines the vocabulary of RobotGame: robot ids, seats, positions, directions, the actions
//! a seat answers, the orders robots carry out, faults and events.
//!
//! Everything here is a small `Copy` value so that the engine can keep per-turn buffers of
//! them without allocating, and so that rules are written against types rather than strings
//! (the scenario and protocol layers translate text at their edges).

use std::fmt;

/// A robot's id: unique in a game, assigned in spawn order from 0 (RG2.1). Also the index of
/// the robot in [`super::Game::robots`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RobotId(pub u16);

impl RobotId {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for RobotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A player's place in the game, from 0; up to 8 seats share an arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A position as players write it (coordinates wide enough to hold whatever a player
/// answered, on the grid or not: validity is the engine's decision, RG2.3), and one of the 4
/// orthogonal directions (RG1.3): the shared grid's.
pub use crate::games::shared::grid::{Direction as Dir, Pos};

/// An action as a seat answers it for one robot (RG2.2); targets may be invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Move(Pos),
    Attack(Pos),
    Guard,
    Suicide,
}

/// One robot's action in a seat's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Command {
    pub robot: RobotId,
    pub action: Action,
}

/// Why a seat answered nothing usable at all: every robot of it guards (RG2.3).
pub use crate::games::shared::silence::Silence;

/// One seat's answer for one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    /// Actions by robot; robots left out guard, and that is a fault.
    Actions(&'a [Command]),
    Silent(Silence),
}

/// What a robot actually does in a turn, after the engine checked the answer: always legal,
/// so move and attack targets are directions. This is what the decision log records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Order {
    Guard,
    Suicide,
    Move(Dir),
    Attack(Dir),
}

/// The first thing wrong with a seat's answer in a turn (RG2.3), named by its fault event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum FaultKind {
    /// A robot of the seat got no action.
    Missing,
    /// An action names a robot of another seat.
    NotOwnRobot,
    /// An action names a robot that is dead or does not exist.
    UnknownRobot,
    /// A move or attack target that is not adjacent, off the board or an obstacle.
    BadTarget,
    /// A second action for the same robot.
    Duplicate,
    Timeout,
    Crash,
    Malformed,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

crate::games::shared::silence::silence_faults!(FaultKind);

/// Something that happened in a turn, in the order the rules apply it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    pub turn: u8,
    pub kind: EventKind,
}

/// The kinds of events. Damage is the HP the victim lost (after guarding; 0 between robots
/// of one seat), so summing an event list gives the robots' HP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum EventKind {
    /// A seat's answer was invalid or missing in part or whole (one per seat and turn).
    Fault {
        seat: Seat,
        /// The first robot concerned, if the fault is about one.
        robot: Option<RobotId>,
        fault: FaultKind,
    },
    /// `robot` collided with `victim` (RG3.3); a collision gives two events, one per side.
    Collision {
        robot: RobotId,
        victim: RobotId,
        damage: i32,
    },
    /// `robot` attacked `target`; `victim` is whoever ended the turn there.
    Attack {
        robot: RobotId,
        target: Pos,
        victim: Option<RobotId>,
        damage: i32,
    },
    /// `robot` blew itself up; one event per robot next to it, or one with no victim.
    Suicide {
        robot: RobotId,
        victim: Option<RobotId>,
        damage: i32,
    },
    /// `robot` was removed at the end of the turn; `killer` dealt the killing blow (RG6.1).
    Death {
        robot: RobotId,
        killer: Option<RobotId>,
    },
    /// `robot` stood on a spawn square at a spawn turn and died (RG5.1).
    SpawnKill { robot: RobotId },
    /// `robot` was placed for `seat` at `pos` (RG5).
    Spawn {
        robot: RobotId,
        seat: Seat,
        pos: Pos,
    },
}

impl EventKind {
    /// The kind's name in scenario output.
    pub fn name(&self) -> &'static str {
        self.into()
    }
}

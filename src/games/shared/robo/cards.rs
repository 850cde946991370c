//! Defines [`Move`] and [`Card`]: the seven program moves of the RoboRally family and a
//! card (a move with its priority), with the short names files and protocols use.

use crate::games::shared::grid::Direction;
use serde::{Deserialize, Serialize};

/// What a card makes a robot do (R6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Move {
    UTurn,
    Left,
    Right,
    Back,
    Forward1,
    Forward2,
    Forward3,
}

impl Move {
    /// Every move, in deck order.
    pub const ALL: [Move; 7] = [
        Move::UTurn,
        Move::Left,
        Move::Right,
        Move::Back,
        Move::Forward1,
        Move::Forward2,
        Move::Forward3,
    ];

    /// The short name used in scenarios and the JSON-lines protocol: F1 F2 F3 B L R U.
    pub fn short(self) -> &'static str {
        match self {
            Move::UTurn => "U",
            Move::Left => "L",
            Move::Right => "R",
            Move::Back => "B",
            Move::Forward1 => "F1",
            Move::Forward2 => "F2",
            Move::Forward3 => "F3",
        }
    }

    /// Parses a short name (see [`Move::short`]).
    pub fn from_short(s: &str) -> Option<Move> {
        Move::ALL.into_iter().find(|m| m.short() == s)
    }

    /// How many cards of this move the deck holds (R4.1).
    pub fn copies(self) -> usize {
        match self {
            Move::UTurn => 6,
            Move::Left | Move::Right | Move::Forward1 => 18,
            Move::Forward2 => 12,
            Move::Back | Move::Forward3 => 6,
        }
    }
}

/// What a move does to a robot facing some way ([`Move::motion`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// It turns on its square to face this way.
    Turn(Direction),
    /// It steps this many times this way, each step pushing what is ahead, until a step
    /// fails.
    Steps(Direction, u8),
}

impl Move {
    /// What this move does to a robot facing `facing` (R6.2): turns change the facing,
    /// `Back` steps once backwards without turning, `F1`..`F3` step forwards.
    #[inline]
    pub fn motion(self, facing: Direction) -> Motion {
        match self {
            Move::Left => Motion::Turn(facing.left()),
            Move::Right => Motion::Turn(facing.right()),
            Move::UTurn => Motion::Turn(facing.opposite()),
            Move::Back => Motion::Steps(facing.opposite(), 1),
            Move::Forward1 => Motion::Steps(facing, 1),
            Move::Forward2 => Motion::Steps(facing, 2),
            Move::Forward3 => Motion::Steps(facing, 3),
        }
    }
}

/// A dealt card: a move and its unique priority for this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    pub mv: Move,
    pub priority: u16,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_round_trip() {
        for m in Move::ALL {
            assert_eq!(Move::from_short(m.short()), Some(m));
        }
        assert_eq!(Move::ALL.iter().map(|m| m.copies()).sum::<usize>(), 84);
    }
}

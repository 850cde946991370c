//! Defines [`Move`] and [`Card`]: the seven program moves of the RoboRally family and a
//! card (a move with its priority), with the short names files and protocols use.

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

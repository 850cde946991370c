//! Directions, positions and rotations on the board grid (rules R1.1, R1.2): the shared
//! grid's [`Direction`] (numbered as R1.2 numbers them) and [`Pos`] (NORTH is `y - 1`,
//! R1.1), with what only this game asks of them, and gear rotations.
//!
//! Kept tiny and `Copy` so the hot movement and laser loops never allocate.

use serde::{Deserialize, Serialize};

pub use crate::games::shared::grid::{Direction, Pos};

/// What only Last Robot Standing asks of a direction: the Windward words.
impl Direction {
    /// The upper-case word used by the Windward protocol (`NORTH`, ...).
    pub fn word(self) -> &'static str {
        match self {
            Direction::North => "NORTH",
            Direction::East => "EAST",
            Direction::South => "SOUTH",
            Direction::West => "WEST",
        }
    }

    /// Parses `NORTH`, `EAST`, `SOUTH` or `WEST` (case-insensitive).
    pub fn from_word(s: &str) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| d.word().eq_ignore_ascii_case(s))
    }
}

/// What only Last Robot Standing asks of a square: the AIs' distance. (Re-entry's ring of
/// squares is the RoboRally family's, in `games::shared::robo`.)
impl Pos {
    /// Manhattan distance, a cheap heuristic for the built-in AIs.
    pub fn manhattan(self, other: Pos) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

/// The sense of a gear (R8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    Clockwise,
    CounterClockwise,
}

impl Rotation {
    /// Applies this rotation (a quarter turn) to `dir`.
    pub fn apply(self, dir: Direction) -> Direction {
        match self {
            Rotation::Clockwise => dir.right(),
            Rotation::CounterClockwise => dir.left(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_2_turns_follow_the_rule_numbers() {
        assert_eq!(Direction::North.right(), Direction::East);
        assert_eq!(Direction::North.left(), Direction::West);
        assert_eq!(Direction::East.opposite(), Direction::West);
        assert_eq!(Direction::West.right(), Direction::North);
    }

    #[test]
    fn r1_1_north_is_y_minus_one() {
        assert_eq!(Pos::new(3, 3).step(Direction::North), Pos::new(3, 2));
        assert_eq!(Pos::new(3, 3).step(Direction::East), Pos::new(4, 3));
    }
}

//! Directions, positions and rotations on the board grid (rules R1.1, R1.2).
//!
//! Kept tiny and `Copy` so the hot movement and laser loops never allocate.

use serde::{Deserialize, Serialize};

/// One of the four compass directions; the discriminant is the rules' number (R1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Direction {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Direction {
    /// All directions in rule order (NORTH, EAST, SOUTH, WEST).
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The direction with rule number `n mod 4`.
    pub fn from_index(n: u8) -> Direction {
        Direction::ALL[(n % 4) as usize]
    }

    /// The rule number 0..=3.
    pub fn index(self) -> u8 {
        self as u8
    }

    /// Turning right adds 1 (mod 4).
    pub fn right(self) -> Direction {
        Direction::from_index(self.index() + 1)
    }

    /// Turning left subtracts 1 (mod 4).
    pub fn left(self) -> Direction {
        Direction::from_index(self.index() + 3)
    }

    /// A U-turn adds 2.
    pub fn opposite(self) -> Direction {
        Direction::from_index(self.index() + 2)
    }

    /// Bit used for this side in a [`super::board::Walls`] mask.
    pub fn bit(self) -> u8 {
        1 << self.index()
    }

    /// `(dx, dy)` of one step; NORTH is `y - 1` (R1.1).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::East => (1, 0),
            Direction::South => (0, 1),
            Direction::West => (-1, 0),
        }
    }

    /// The one-letter name used by board files, scenarios and the JSON-lines protocol.
    pub fn letter(self) -> char {
        match self {
            Direction::North => 'N',
            Direction::East => 'E',
            Direction::South => 'S',
            Direction::West => 'W',
        }
    }

    /// Parses `N`, `E`, `S` or `W`.
    pub fn from_letter(c: char) -> Option<Direction> {
        match c {
            'N' => Some(Direction::North),
            'E' => Some(Direction::East),
            'S' => Some(Direction::South),
            'W' => Some(Direction::West),
            _ => None,
        }
    }

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

/// A square's coordinates. Signed so that a step off the board is representable
/// (and detected by [`super::board::Board::contains`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring position one step in `dir` (may be off the board).
    pub fn step(self, dir: Direction) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The 8 squares around this one in re-entry order N, NE, E, SE, S, SW, W, NW (R13.3).
    pub fn ring(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x + 1, y),
            Pos::new(x + 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x - 1, y + 1),
            Pos::new(x - 1, y),
            Pos::new(x - 1, y - 1),
        ]
    }

    /// Manhattan distance, a cheap heuristic for the built-in AIs.
    pub fn manhattan(self, other: Pos) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
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

//! Squares and the four compass directions of a square grid, the same in every game drawn
//! on one: x grows eastwards and y southwards, so NORTH is `y - 1`.
//!
//! Kept tiny and `Copy` (and `const` where a game builds tables at compile time) so that
//! hot movement loops never allocate. A game adds the methods only its rules use in its
//! own folder (inherent impls may live anywhere in the crate).

use serde::{Deserialize, Serialize};

/// One of the four compass directions, numbered clockwise from NORTH.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Direction {
    North = 0,
    East = 1,
    South = 2,
    West = 3,
}

impl Direction {
    /// All directions, clockwise from NORTH.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The direction numbered `n mod 4`.
    pub const fn from_index(n: u8) -> Direction {
        Direction::ALL[(n % 4) as usize]
    }

    /// The number 0..=3.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Turning right adds 1 (mod 4).
    pub const fn right(self) -> Direction {
        Direction::from_index(self.index() + 1)
    }

    /// Turning left subtracts 1 (mod 4).
    pub const fn left(self) -> Direction {
        Direction::from_index(self.index() + 3)
    }

    /// A U-turn adds 2.
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self.index() + 2)
    }

    /// `(dx, dy)` of one step; NORTH is `y - 1`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, -1),
            Direction::East => (1, 0),
            Direction::South => (0, 1),
            Direction::West => (-1, 0),
        }
    }

    /// The one-letter name (`N`, `E`, `S`, `W`) of files and protocols.
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'N',
            Direction::East => 'E',
            Direction::South => 'S',
            Direction::West => 'W',
        }
    }

    /// Parses `N`, `E`, `S` or `W`.
    pub const fn from_letter(c: char) -> Option<Direction> {
        match c {
            'N' => Some(Direction::North),
            'E' => Some(Direction::East),
            'S' => Some(Direction::South),
            'W' => Some(Direction::West),
            _ => None,
        }
    }

    /// Parses a whole text that is `N`, `E`, `S` or `W`: a facing as answers and scenarios
    /// write it, where any other character, before or after, makes it no direction.
    pub fn from_text(text: &str) -> Option<Direction> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Direction::from_letter(c),
            _ => None,
        }
    }
}

/// A square's coordinates. Signed and unbounded so that a step off the board, or whatever
/// a player answered, is representable: whether it is on the board is the game's to decide.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The square one step away in `dir` (on the board or not).
    pub const fn step(self, dir: Direction) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x + dx, self.y + dy)
    }
}

/// `(x,y)`, as messages write a square.
impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

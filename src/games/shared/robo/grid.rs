//! Defines [`Square`], one square of a RoboRally-family board (a game's tile, walls, start
//! number, board laser), and [`Grid`]: the squares row by row, with the walls of every
//! square and of its neighbours precomputed into one "exit blocked" mask per square,
//! because the movement, belt and laser loops ask that question far more often than
//! anything else. Each game's board holds one and adds its own targets and tables.

use super::{Laser, Walls};
use crate::games::shared::grid::{Direction, Pos};
use serde::{Deserialize, Serialize};

/// One square of a board whose square types (its bases) are the game's `T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Square<T> {
    pub tile: T,
    /// Walls as written on this square (the neighbour may carry the same wall too).
    pub walls: Walls,
    /// Start number 1..=8 when this is a start square.
    pub start: Option<u8>,
    pub laser: Option<Laser>,
}

impl<T> Square<T> {
    /// A `tile` square with no wall, start or laser.
    pub const fn new(tile: T) -> Square<T> {
        Square {
            tile,
            walls: Walls::NONE,
            start: None,
            laser: None,
        }
    }
}

/// A board's squares, row by row (y = 0 first), and the sides a robot or a beam cannot
/// leave each one by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid<T> {
    width: i32,
    height: i32,
    squares: Vec<Square<T>>,
    /// Per square: bit set for each side a robot or beam cannot cross (own wall or neighbour's).
    blocked: Vec<u8>,
}

impl<T: Copy> Grid<T> {
    /// The grid of `width * height` `squares` listed row by row (the caller checked the
    /// count).
    pub fn new(width: i32, height: i32, squares: Vec<Square<T>>) -> Grid<T> {
        debug_assert_eq!(squares.len(), (width * height) as usize);
        let mut grid = Grid {
            width,
            height,
            squares,
            blocked: Vec::new(),
        };
        grid.blocked = (0..grid.squares.len())
            .map(|i| {
                let at = grid.pos(i);
                Direction::ALL
                    .into_iter()
                    .filter(|d| grid.wall_on(at, *d))
                    .fold(0u8, |mask, d| mask | d.bit())
            })
            .collect();
        grid
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    /// Number of squares (`width * height`).
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// Boards always have squares; provided for clippy's `len` convention.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Whether `p` lies on the board.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// Row-major index of an on-board position.
    #[inline]
    pub fn index(&self, p: Pos) -> usize {
        debug_assert!(self.contains(p));
        (p.y * self.width + p.x) as usize
    }

    /// Position of a row-major index.
    #[inline]
    pub fn pos(&self, index: usize) -> Pos {
        Pos::new(index as i32 % self.width, index as i32 / self.width)
    }

    /// The square at an on-board position.
    #[inline]
    pub fn square(&self, p: Pos) -> &Square<T> {
        &self.squares[self.index(p)]
    }

    /// The tile at `p`, or `None` off the board.
    #[inline]
    pub fn tile(&self, p: Pos) -> Option<T> {
        self.contains(p).then(|| self.squares[self.index(p)].tile)
    }

    /// All squares, row by row.
    pub fn squares(&self) -> &[Square<T>] {
        &self.squares
    }

    /// Whether a wall stands on side `dir` of the on-board square `p`, written on it or on
    /// the neighbour across that side (R1.5).
    pub fn wall_on(&self, p: Pos, dir: Direction) -> bool {
        if self.square(p).walls.has(dir) {
            return true;
        }
        let n = p.step(dir);
        self.contains(n) && self.square(n).walls.has(dir.opposite())
    }

    /// Whether leaving the on-board square `p` towards `dir` crosses a wall (R6.3). Leaving
    /// over the board edge is not blocked unless a wall stands on that side.
    #[inline]
    pub fn blocked(&self, p: Pos, dir: Direction) -> bool {
        self.blocked[self.index(p)] & dir.bit() != 0
    }
}

//! The board of classic RoboRally (RR1): the square types of the board files of
//! docs/boards.md plus the finish `H`, repair squares of 1 to 3 hit points, the 180° gear
//! `GU`, slow (`c`) and fast (`C`) belts and lasers whose strength is the hit points they
//! take; walls, start squares and lasers as in every board of the family.
//!
//! A [`Board`] is immutable once built and shared between games. Wall look-ups are
//! precomputed into one "exit blocked" mask per square, and the board distance of RR1.4 to
//! each target into one table per target, because the rules and the AIs ask both often.

use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::{Grid, Laser};
use std::collections::VecDeque;

/// Largest width or height of a board (that of every grid file).
pub use crate::games::shared::robo::file::MAX_SIDE;
/// Most flags (F1..F3) and start squares (S1..S8).
pub const MAX_FLAGS: usize = 3;
pub const MAX_STARTS: usize = 8;
/// A board distance meaning "unreachable".
pub const UNREACHABLE: u16 = u16::MAX;

/// The turn a gear gives (RR8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gear {
    Right,
    Left,
    UTurn,
}

impl Gear {
    pub fn apply(self, d: Direction) -> Direction {
        match self {
            Gear::Right => d.right(),
            Gear::Left => d.left(),
            Gear::UTurn => d.opposite(),
        }
    }
}

/// The type of a square (RR1.1). Start squares are floor with [`Square::start`] set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tile {
    Floor,
    Pit,
    /// Gives 1..=3 hp at the end of every register (RR9.2).
    Repair(u8),
    /// Flag 1..=3.
    Flag(u8),
    /// The finish, `H`.
    Finish,
    /// A belt towards `dir`; fast belts move twice a register (RR7.1).
    Belt {
        dir: Direction,
        fast: bool,
    },
    Gear(Gear),
}

/// One square of the grid.
pub type Square = crate::games::shared::robo::Square<Tile>;

impl Square {
    pub const FLOOR: Square = Square::new(Tile::Floor);
}

/// An immutable board: its [`Grid`] (what the board derefs to: squares, positions, walls),
/// its targets and precomputed distances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub name: String,
    pub description: String,
    cells: Grid<Tile>,
    /// The grid as written (its rows joined by newlines), for bots and `boards show`.
    pub grid: String,
    flags: Vec<Pos>,
    finish: Option<Pos>,
    starts: Vec<Pos>,
    /// Board lasers in row-major order of their mount squares (RR13's laser order).
    lasers: Vec<(Pos, Laser)>,
    /// Per target (flags, then the finish): each square's board distance to it.
    distances: Vec<Vec<u16>>,
}

impl Board {
    /// Builds a board from squares row by row; numbering is checked by the grid reader.
    pub(crate) fn build(
        name: &str,
        description: &str,
        width: usize,
        height: usize,
        squares: Vec<Square>,
        grid: String,
    ) -> Board {
        let (width, height) = (width as i32, height as i32);
        let mut flags = [None; MAX_FLAGS];
        let mut starts = [None; MAX_STARTS];
        let mut finish = None;
        let mut lasers = Vec::new();
        for (i, sq) in squares.iter().enumerate() {
            let at = Pos::new(i as i32 % width, i as i32 / width);
            match sq.tile {
                Tile::Flag(n) => flags[n as usize - 1] = Some(at),
                Tile::Finish => finish = Some(at),
                _ => {}
            }
            if let Some(n) = sq.start {
                starts[n as usize - 1] = Some(at);
            }
            if let Some(l) = sq.laser {
                lasers.push((at, l));
            }
        }
        let mut board = Board {
            name: name.to_string(),
            description: description.to_string(),
            cells: Grid::new(width, height, squares),
            grid,
            flags: flags.into_iter().map_while(|p| p).collect(),
            finish,
            starts: starts.into_iter().map_while(|p| p).collect(),
            lasers,
            distances: Vec::new(),
        };
        let targets: Vec<Pos> = board.flags.iter().copied().chain(board.finish).collect();
        board.distances = targets.iter().map(|t| board.distance_field(*t)).collect();
        board
    }

    pub fn flags(&self) -> &[Pos] {
        &self.flags
    }

    pub fn finish(&self) -> Option<Pos> {
        self.finish
    }

    pub fn starts(&self) -> &[Pos] {
        &self.starts
    }

    pub fn lasers(&self) -> &[(Pos, Laser)] {
        &self.lasers
    }

    /// The square of target `k` (0-based: flags, then the finish), if the board has it.
    pub fn target(&self, k: usize) -> Option<Pos> {
        match self.flags.get(k) {
            Some(p) => Some(*p),
            None if k == self.flags.len() => self.finish,
            None => None,
        }
    }

    /// RR1.4: the board distance from `from` to target `k`, `None` if it is missing or
    /// unreachable.
    pub fn distance(&self, k: usize, from: Pos) -> Option<u16> {
        let field = self.distances.get(k)?;
        let d = field[self.index(from)];
        (d != UNREACHABLE).then_some(d)
    }

    /// Breadth-first walk out from `target` over squares that are not pits, never across
    /// a wall (walls block both ways, so distances from and to a square are the same).
    fn distance_field(&self, target: Pos) -> Vec<u16> {
        let mut field = vec![UNREACHABLE; self.len()];
        if self.square(target).tile == Tile::Pit {
            return field;
        }
        field[self.index(target)] = 0;
        let mut queue = VecDeque::from([target]);
        while let Some(p) = queue.pop_front() {
            let d = field[self.index(p)];
            for dir in Direction::ALL {
                let n = p.step(dir);
                if self.blocked(p, dir) || !self.contains(n) {
                    continue;
                }
                let i = self.index(n);
                if field[i] == UNREACHABLE && self.squares()[i].tile != Tile::Pit {
                    field[i] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        field
    }

    /// Every target reachable on foot from every start square (RR1.5).
    pub fn targets_reachable(&self) -> bool {
        (0..self.distances.len())
            .all(|k| self.starts.iter().all(|s| self.distance(k, *s).is_some()))
    }
}

/// A board is its grid plus what the game adds: `board.contains(p)`, `board.blocked(p, d)`.
impl std::ops::Deref for Board {
    type Target = Grid<Tile>;

    #[inline]
    fn deref(&self) -> &Grid<Tile> {
        &self.cells
    }
}

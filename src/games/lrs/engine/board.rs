//! The board model of rule R1: squares, walls, board lasers, flags and start squares.
//!
//! A `Board` is immutable once built and shared between games (`Arc<Board>`). Wall look-ups
//! are precomputed into one "exit blocked" mask per square, because the movement, conveyor
//! and laser loops ask that question far more often than anything else.

use super::geometry::{Direction, Pos, Rotation};
use crate::games::shared::robo::Grid;
pub use crate::games::shared::robo::{Laser, Walls};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Largest width or height of a board (R1.1).
pub const MAX_SIDE: i32 = 64;
/// Smallest width or height of a board meant for games (docs/boards.md: at least 2x2).
pub const MIN_PLAYABLE_SIDE: i32 = 2;
/// Most start squares a board may carry (S1..S8).
pub const MAX_STARTS: usize = 8;
/// Most flags a board may carry (F1..F3).
pub const MAX_FLAGS: usize = 3;

/// The type of a square (R1.3). Start squares are `Floor` with [`Square::start`] set (R1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tile {
    Floor,
    Pit,
    Repair,
    /// Flag number 1..=3.
    Flag(u8),
    /// A belt moving robots towards `dir`; `express` belts have speed 2 (R7.1).
    Conveyor {
        dir: Direction,
        express: bool,
    },
    Gear(Rotation),
}

impl Tile {
    pub fn is_pit(self) -> bool {
        matches!(self, Tile::Pit)
    }

    /// The belt direction and speed flag, for conveyors.
    pub fn conveyor(self) -> Option<(Direction, bool)> {
        match self {
            Tile::Conveyor { dir, express } => Some((dir, express)),
            _ => None,
        }
    }
}

/// One cell of the grid.
pub type Square = crate::games::shared::robo::Square<Tile>;

impl Square {
    pub const FLOOR: Square = Square::new(Tile::Floor);
}

/// Why a grid is not a valid board. Format layers add the file, line and column.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardError {
    #[error("board is {width}x{height}; each side must be 1..=64")]
    Size { width: i32, height: i32 },
    #[error("board is {width}x{height}; a board for games must be at least 2x2")]
    TooSmall { width: i32, height: i32 },
    #[error("board has {got} squares, expected {expected} ({width}x{height})")]
    SquareCount {
        got: usize,
        expected: usize,
        width: i32,
        height: i32,
    },
    #[error("flag {flag} at {at} is out of range; flags are numbered 1..=3")]
    FlagNumber { flag: u8, at: Pos },
    #[error("flag {flag} appears twice, at {first} and {second}")]
    DuplicateFlag { flag: u8, first: Pos, second: Pos },
    #[error("flags must be F1..F{count} without gaps; F{missing} is missing")]
    MissingFlag { missing: u8, count: u8 },
    #[error("start {start} at {at} is out of range; starts are numbered 1..=8")]
    StartNumber { start: u8, at: Pos },
    #[error("start S{start} appears twice, at {first} and {second}")]
    DuplicateStart { start: u8, first: Pos, second: Pos },
    #[error("starts must be S1..S{count} without gaps; S{missing} is missing")]
    MissingStart { missing: u8, count: u8 },
    #[error("start S{start} at {at} is not on a plain floor square")]
    StartNotFloor { start: u8, at: Pos },
    #[error("laser at {at} is mounted on a pit")]
    LaserOnPit { at: Pos },
    #[error("laser at {at} has strength {strength}; expected 1..=3")]
    LaserStrength { at: Pos, strength: u8 },
    #[error("a playable board needs at least one flag (F1)")]
    NoFlags,
    #[error("a playable board needs at least two start squares (S1, S2), found {found}")]
    TooFewStarts { found: usize },
}

/// An immutable, validated board: its [`Grid`] (what the board derefs to: squares,
/// positions, walls) and what this game adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    name: String,
    description: String,
    cells: Grid<Tile>,
    /// Flag positions, index = flag number - 1.
    flags: Vec<Pos>,
    /// Start positions, index = start number - 1.
    starts: Vec<Pos>,
    /// Board lasers in row-major order of their mount squares.
    lasers: Vec<(Pos, Laser)>,
}

impl Board {
    /// Builds a board from squares listed row by row (y = 0 first), checking R1 and the
    /// numbering rules of docs/boards.md. Flags and starts may be absent (scenario grids); use
    /// [`Board::check_playable`] for boards meant for games.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        width: i32,
        height: i32,
        squares: Vec<Square>,
    ) -> Result<Board, BoardError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(BoardError::Size { width, height });
        }
        let expected = (width * height) as usize;
        if squares.len() != expected {
            return Err(BoardError::SquareCount {
                got: squares.len(),
                expected,
                width,
                height,
            });
        }
        let mut flag_at: [Option<Pos>; MAX_FLAGS] = [None; MAX_FLAGS];
        let mut start_at: [Option<Pos>; MAX_STARTS] = [None; MAX_STARTS];
        let mut lasers = Vec::new();
        for (i, sq) in squares.iter().enumerate() {
            let at = Pos::new(i as i32 % width, i as i32 / width);
            if let Tile::Flag(n) = sq.tile {
                if !(1..=MAX_FLAGS as u8).contains(&n) {
                    return Err(BoardError::FlagNumber { flag: n, at });
                }
                number_once(&mut flag_at, n, at).map_err(|first| BoardError::DuplicateFlag {
                    flag: n,
                    first,
                    second: at,
                })?;
            }
            if let Some(n) = sq.start {
                if !(1..=MAX_STARTS as u8).contains(&n) {
                    return Err(BoardError::StartNumber { start: n, at });
                }
                if sq.tile != Tile::Floor {
                    return Err(BoardError::StartNotFloor { start: n, at });
                }
                number_once(&mut start_at, n, at).map_err(|first| BoardError::DuplicateStart {
                    start: n,
                    first,
                    second: at,
                })?;
            }
            if let Some(laser) = sq.laser {
                if sq.tile.is_pit() {
                    return Err(BoardError::LaserOnPit { at });
                }
                if !(1..=3).contains(&laser.strength) {
                    return Err(BoardError::LaserStrength {
                        at,
                        strength: laser.strength,
                    });
                }
                lasers.push((at, laser));
            }
        }
        let flags = contiguous(&flag_at)
            .map_err(|(missing, count)| BoardError::MissingFlag { missing, count })?;
        let starts = contiguous(&start_at)
            .map_err(|(missing, count)| BoardError::MissingStart { missing, count })?;
        Ok(Board {
            name: name.into(),
            description: description.into(),
            cells: Grid::new(width, height, squares),
            flags,
            starts,
            lasers,
        })
    }

    /// Checks what a board used for games needs beyond [`Board::new`]: at least 2x2 squares,
    /// one flag and two start squares (docs/boards.md). Scenario grids skip this check, so a rule
    /// can be shown on a one-row corridor (R1.1 allows sides of 1).
    pub fn check_playable(&self) -> Result<(), BoardError> {
        if self.width() < MIN_PLAYABLE_SIDE || self.height() < MIN_PLAYABLE_SIDE {
            return Err(BoardError::TooSmall {
                width: self.width(),
                height: self.height(),
            });
        }
        if self.flags.is_empty() {
            return Err(BoardError::NoFlags);
        }
        if self.starts.len() < 2 {
            return Err(BoardError::TooFewStarts {
                found: self.starts.len(),
            });
        }
        Ok(())
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn description(&self) -> &str {
        &self.description
    }

    /// Flag positions in order (index 0 is F1).
    pub fn flags(&self) -> &[Pos] {
        &self.flags
    }

    /// Start square positions in order (index 0 is S1).
    pub fn starts(&self) -> &[Pos] {
        &self.starts
    }

    /// Board lasers and their mount squares.
    pub fn lasers(&self) -> &[(Pos, Laser)] {
        &self.lasers
    }

    /// The squares a board laser's beam covers, its own square included, until a wall or
    /// the edge (the Windward `num-squares`).
    pub fn beam_length(&self, from: Pos, dir: Direction) -> usize {
        let mut n = 1;
        let mut at = from;
        while !self.blocked(at, dir) && self.contains(at.step(dir)) {
            at = at.step(dir);
            n += 1;
        }
        n
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

/// Records `at` as the square numbered `n` (1-based, checked) in `slots`: flags and starts
/// are each numbered once. Returns the square that already holds the number.
fn number_once(slots: &mut [Option<Pos>], n: u8, at: Pos) -> Result<(), Pos> {
    let slot = &mut slots[n as usize - 1];
    match *slot {
        Some(first) => Err(first),
        None => {
            *slot = Some(at);
            Ok(())
        }
    }
}

/// Turns `[Some, Some, None, ...]` into positions, or reports the first gap.
fn contiguous(slots: &[Option<Pos>]) -> Result<Vec<Pos>, (u8, u8)> {
    let count = slots.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
    slots[..count]
        .iter()
        .enumerate()
        .map(|(i, p)| p.ok_or((i as u8 + 1, count as u8)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor(w: i32, h: i32) -> Vec<Square> {
        vec![Square::FLOOR; (w * h) as usize]
    }

    #[test]
    fn r1_5_a_wall_blocks_from_both_sides() {
        let mut sq = floor(3, 1);
        sq[0].walls = Walls::NONE.with(Direction::East);
        let b = Board::new("t", "", 3, 1, sq).unwrap();
        assert!(b.blocked(Pos::new(0, 0), Direction::East));
        assert!(b.blocked(Pos::new(1, 0), Direction::West));
        assert!(!b.blocked(Pos::new(1, 0), Direction::East));
        // The edge is not a wall.
        assert!(!b.blocked(Pos::new(0, 0), Direction::West));
    }

    #[test]
    fn flags_must_not_have_gaps() {
        let mut sq = floor(3, 1);
        sq[0].tile = Tile::Flag(2);
        let err = Board::new("t", "", 3, 1, sq).unwrap_err();
        assert_eq!(
            err,
            BoardError::MissingFlag {
                missing: 1,
                count: 2
            }
        );
    }

    #[test]
    fn beam_length_stops_at_walls_and_edges() {
        let mut sq = floor(5, 1);
        sq[3].walls = Walls::NONE.with(Direction::West);
        let b = Board::new("t", "", 5, 1, sq).unwrap();
        assert_eq!(b.beam_length(Pos::new(0, 0), Direction::East), 3);
        assert_eq!(b.beam_length(Pos::new(3, 0), Direction::East), 2);
        assert_eq!(b.beam_length(Pos::new(0, 0), Direction::West), 1);
    }
}

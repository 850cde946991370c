//! Reads a RoboRally grid (RR1): the cell tokens of docs/boards.md with the bases of
//! RoboRally (`H`, `R1`..`R3`, `GU`), every problem located at the cell that causes it, and
//! whole board files (`name`, `description`, `grid`).

use super::board::{Board, Gear, MAX_FLAGS, MAX_STARTS, Square, Tile};
use crate::games::shared::grid::Direction;
use crate::games::shared::robo::file::{FileProblem, GridFile, read_rows};
pub use crate::games::shared::robo::file::{GridAt, string_origin};
use crate::games::shared::robo::{SuffixProblem, parse_suffix};
use crate::games::shared::scenario::Located;
use thiserror::Error;

/// The cell syntax, for messages.
pub const CELL_SYNTAX: &str = "a base (. P R R1-R3 H F1-F3 S1-S8 cN cE cS cW CN CE CS CW G+ G- GU) \
optionally followed by [walls] and @dir[strength]";

/// What is wrong at a place of a RoboRally grid or board file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridProblem {
    #[error("unknown token {token:?}: expected {CELL_SYNTAX}")]
    UnknownToken { token: String },
    #[error("bad wall list in {token:?} ({found}): expected [ and one or more of N E S W and ]")]
    BadWall { token: String, found: String },
    #[error("duplicate wall {side:?} in {token:?}: expected each side at most once")]
    DuplicateWall { token: String, side: char },
    #[error("bad laser in {token:?} ({found}): expected @N, @E, @S or @W and a strength 1..3")]
    BadLaser { token: String, found: String },
    #[error("{token:?} appears twice: expected each flag, start and H at most once")]
    Twice { token: String },
    #[error("{token:?} is on a pit: expected lasers and starts on other squares")]
    OnPit { token: String },
    #[error("{what} {missing} is missing: expected {what}s numbered from 1 without gaps")]
    Gap { what: &'static str, missing: String },
    #[error("the board {lacks}: expected one H, flags F1..Fk (k 1..3) and starts S1..Sn (n >= 2)")]
    NotPlayable { lacks: String },
    /// The file's keys, or the shape of its grid.
    #[error(transparent)]
    File(#[from] FileProblem),
}

pub type GridError = Located<GridProblem>;

/// Parses one cell token.
pub fn parse_cell(token: &str) -> Result<Square, GridProblem> {
    let unknown = || GridProblem::UnknownToken {
        token: token.to_owned(),
    };
    let mut sq = Square::FLOOR;
    let bytes = token.as_bytes();
    let (tile, rest) = match bytes.first().copied() {
        Some(b'.') => (Tile::Floor, &token[1..]),
        Some(b'P') => (Tile::Pit, &token[1..]),
        Some(b'H') => (Tile::Finish, &token[1..]),
        Some(b'R') => match bytes.get(1) {
            Some(d @ b'1'..=b'3') => (Tile::Repair(d - b'0'), &token[2..]),
            _ => (Tile::Repair(1), &token[1..]),
        },
        Some(b @ (b'F' | b'S')) => {
            let max = if b == b'F' { MAX_FLAGS } else { MAX_STARTS };
            let n = bytes.get(1).map(|d| d.wrapping_sub(b'0')).unwrap_or(0);
            if !(1..=max as u8).contains(&n) {
                return Err(unknown());
            }
            if b == b'F' {
                (Tile::Flag(n), &token[2..])
            } else {
                sq.start = Some(n);
                (Tile::Floor, &token[2..])
            }
        }
        Some(b @ (b'c' | b'C')) => {
            let dir = token[1..]
                .chars()
                .next()
                .and_then(Direction::from_letter)
                .ok_or_else(unknown)?;
            (
                Tile::Belt {
                    dir,
                    fast: b == b'C',
                },
                &token[2..],
            )
        }
        Some(b'G') => {
            let gear = match bytes.get(1) {
                Some(b'+') => Gear::Right,
                Some(b'-') => Gear::Left,
                Some(b'U') => Gear::UTurn,
                _ => return Err(unknown()),
            };
            (Tile::Gear(gear), &token[2..])
        }
        _ => return Err(unknown()),
    };
    sq.tile = tile;
    let token = token.to_owned();
    let (walls, laser) = parse_suffix(rest).map_err(|p| match p {
        SuffixProblem::BadWall { found } => GridProblem::BadWall { token, found },
        SuffixProblem::DuplicateWall { side } => GridProblem::DuplicateWall { token, side },
        SuffixProblem::BadLaserDirection { found } | SuffixProblem::BadLaserStrength { found } => {
            GridProblem::BadLaser { token, found }
        }
        SuffixProblem::Trailing => GridProblem::UnknownToken { token },
    })?;
    sq.walls = walls;
    sq.laser = laser;
    Ok(sq)
}

/// Parses `grid` (rows north first, cells separated by spaces). A `playable` board needs
/// at least 2x2 squares, exactly one `H`, F1..Fk and S1..Sn with n >= 2; scenario grids
/// may lack them (and be one square wide).
pub fn parse_grid(
    at: GridAt<'_>,
    grid: &str,
    name: &str,
    description: &str,
    playable: bool,
) -> Result<Board, GridError> {
    let mut seen: Vec<(String, usize)> = Vec::new();
    let min = if playable { 2 } else { 1 };
    let rows = read_rows(at, grid, min, |token, offset| {
        let sq = parse_cell(token).map_err(|p| at.error(offset, p))?;
        let named = sq.start.map(|n| format!("S{n}")).or(match sq.tile {
            Tile::Flag(n) => Some(format!("F{n}")),
            Tile::Finish => Some("H".to_string()),
            _ => None,
        });
        if let Some(named) = named {
            if seen.iter().any(|(t, _)| *t == named) {
                return Err(at.error(offset, GridProblem::Twice { token: named }));
            }
            seen.push((named, offset));
        }
        if sq.tile == Tile::Pit && (sq.laser.is_some() || sq.start.is_some()) {
            let token = token.to_string();
            return Err(at.error(offset, GridProblem::OnPit { token }));
        }
        Ok(sq)
    })?;
    for (what, letter, max) in [("flag", 'F', MAX_FLAGS), ("start", 'S', MAX_STARTS)] {
        let numbers: Vec<usize> = (1..=max)
            .filter(|n| seen.iter().any(|(t, _)| *t == format!("{letter}{n}")))
            .collect();
        if let Some(last) = numbers.last()
            && numbers.len() != *last
        {
            let missing = (1..*last).find(|n| !numbers.contains(n)).unwrap_or(1);
            let problem = GridProblem::Gap {
                what,
                missing: format!("{letter}{missing}"),
            };
            let place = seen.iter().find(|(t, _)| *t == format!("{letter}{last}"));
            return Err(at.error(place.map_or(0, |p| p.1), problem));
        }
    }
    let board = Board::build(
        name,
        description,
        rows.width,
        rows.height,
        rows.cells,
        rows.text,
    );
    if playable {
        let lacks = if board.finish().is_none() {
            Some("has no H".to_string())
        } else if board.flags().is_empty() {
            Some("has no flag F1".to_string())
        } else if board.starts().len() < 2 {
            Some(format!("has {} start squares", board.starts().len()))
        } else {
            None
        };
        if let Some(lacks) = lacks {
            return Err(at.error(rows.first_row, GridProblem::NotPlayable { lacks }));
        }
    }
    Ok(board)
}

/// Parses a RoboRally board file: `name` (required), `description`, `grid` (required,
/// playable).
pub fn parse_board_file(text: &str, file: &str) -> Result<Board, GridError> {
    let f = GridFile::read(text, file)?;
    parse_grid(f.at, &f.grid, &f.name, &f.description, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roborally_bases_parse() {
        assert_eq!(parse_cell("R3").unwrap().tile, Tile::Repair(3));
        assert_eq!(parse_cell("R").unwrap().tile, Tile::Repair(1));
        assert_eq!(parse_cell("GU").unwrap().tile, Tile::Gear(Gear::UTurn));
        assert_eq!(parse_cell("H[N]").unwrap().tile, Tile::Finish);
        let belt = parse_cell("CE@S3").unwrap();
        assert_eq!(
            belt.tile,
            Tile::Belt {
                dir: Direction::East,
                fast: true
            }
        );
        assert_eq!(belt.laser.map(|l| l.strength), Some(3));
        for bad in ["R4x", "G*", "F4", "S9", "Q", ".@X", "c"] {
            assert!(parse_cell(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_board_file_is_located_and_checked() {
        let text = "name = \"t\"\ngrid = \"\"\"\nS1 . F1\nS2 H Q\n\"\"\"\n";
        let err = parse_board_file(text, "b.toml").unwrap_err().to_string();
        assert!(err.starts_with("b.toml:4:6: unknown token \"Q\""), "{err}");
        let ok = text.replace('Q', ".");
        let b = parse_board_file(&ok, "b.toml").unwrap();
        assert_eq!((b.width(), b.height()), (3, 2));
        assert_eq!(b.distance(0, b.starts()[1]), Some(3));
        assert!(b.targets_reachable());
        let no_h = ok.replace('H', ".");
        let err = parse_board_file(&no_h, "b.toml").unwrap_err().to_string();
        assert!(err.contains("has no H"), "{err}");
    }
}

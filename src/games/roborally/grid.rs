//! Reads a RoboRally grid (RR1): the cell tokens of docs/boards.md with the bases of
//! RoboRally (`H`, `R1`..`R3`, `GU`), every problem located at the cell that causes it, and
//! whole board files (`name`, `description`, `grid`).

use super::board::{Board, Gear, MAX_FLAGS, MAX_SIDE, MAX_STARTS, Square, Tile};
use crate::games::shared::grid::Direction;
use crate::games::shared::robo::{SuffixProblem, parse_suffix};
use crate::games::shared::scenario::Located;
use thiserror::Error;
use toml::de::{DeTable, DeValue};

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
    #[error("row {row} has {cells} cells: expected {expected} like row 1")]
    RaggedRow {
        row: usize,
        cells: usize,
        expected: usize,
    },
    #[error("the grid is {width}x{height}: expected {min} to {MAX_SIDE} cells a side")]
    Size {
        width: usize,
        height: usize,
        min: usize,
    },
    #[error("{token:?} appears twice: expected each flag, start and H at most once")]
    Twice { token: String },
    #[error("{token:?} is on a pit: expected lasers and starts on other squares")]
    OnPit { token: String },
    #[error("{what} {missing} is missing: expected {what}s numbered from 1 without gaps")]
    Gap { what: &'static str, missing: String },
    #[error("the board {lacks}: expected one H, flags F1..Fk (k 1..3) and starts S1..Sn (n >= 2)")]
    NotPlayable { lacks: String },
    #[error("{message}")]
    Toml { message: String },
    #[error("key {key:?}: expected only name, description and grid")]
    UnknownKey { key: String },
    #[error("missing {key:?}: expected {key} = \"...\"")]
    MissingKey { key: String },
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

/// Where a grid is: the file it is in, that file's text and the byte offset of the grid's
/// first character, so problems point at the cell.
#[derive(Debug, Clone, Copy)]
pub struct GridAt<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub origin: usize,
}

impl GridAt<'_> {
    fn error(&self, offset: usize, problem: GridProblem) -> GridError {
        Located::at(self.file, self.text, self.origin + offset, problem)
    }
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
    let mut squares = Vec::new();
    let mut width = 0;
    let mut rows: Vec<String> = Vec::new();
    let mut offset = 0;
    let mut seen: Vec<(String, usize)> = Vec::new();
    let mut first_row_at = None;
    for line in grid.split_inclusive('\n') {
        let line_at = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            continue;
        }
        first_row_at.get_or_insert(line_at);
        let mut cells = 0;
        for (i, token) in tokens(body) {
            let sq = parse_cell(token).map_err(|p| at.error(line_at + i, p))?;
            let named = sq.start.map(|n| format!("S{n}")).or(match sq.tile {
                Tile::Flag(n) => Some(format!("F{n}")),
                Tile::Finish => Some("H".to_string()),
                _ => None,
            });
            if let Some(named) = named {
                if seen.iter().any(|(t, _)| *t == named) {
                    return Err(at.error(line_at + i, GridProblem::Twice { token: named }));
                }
                seen.push((named, line_at + i));
            }
            if sq.tile == Tile::Pit && (sq.laser.is_some() || sq.start.is_some()) {
                let token = token.to_string();
                return Err(at.error(line_at + i, GridProblem::OnPit { token }));
            }
            squares.push(sq);
            cells += 1;
        }
        if rows.is_empty() {
            width = cells;
        } else if cells != width {
            let problem = GridProblem::RaggedRow {
                row: rows.len() + 1,
                cells,
                expected: width,
            };
            return Err(at.error(line_at, problem));
        }
        rows.push(tokens(body).map(|(_, t)| t).collect::<Vec<_>>().join(" "));
    }
    let height = rows.len();
    let min = if playable { 2 } else { 1 };
    if !(min..=MAX_SIDE).contains(&width) || !(min..=MAX_SIDE).contains(&height) {
        let problem = GridProblem::Size { width, height, min };
        return Err(at.error(first_row_at.unwrap_or(0), problem));
    }
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
    let board = Board::build(name, description, width, height, squares, rows.join("\n"));
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
            return Err(at.error(
                first_row_at.unwrap_or(0),
                GridProblem::NotPlayable { lacks },
            ));
        }
    }
    Ok(board)
}

/// The tokens of a row with their byte offsets in it.
fn tokens(row: &str) -> impl Iterator<Item = (usize, &str)> {
    row.split(' ')
        .scan(0, |at, t| {
            let here = *at;
            *at += t.len() + 1;
            Some((here, t))
        })
        .filter(|(_, t)| !t.is_empty())
}

/// Where a TOML string value's text starts (after its opening quotes and, for a
/// multi-line string, the newline TOML trims).
pub fn string_origin(text: &str, span_start: usize) -> usize {
    let rest = &text[span_start.min(text.len())..];
    let quotes = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
        3
    } else {
        1
    };
    let after = &rest[quotes.min(rest.len())..];
    let newline = if after.starts_with("\r\n") {
        2
    } else {
        usize::from(after.starts_with('\n'))
    };
    span_start + quotes + newline
}

/// Parses a RoboRally board file: `name` (required), `description`, `grid` (required,
/// playable).
pub fn parse_board_file(text: &str, file: &str) -> Result<Board, GridError> {
    let at = |offset: usize, problem| Located::at(file, text, offset, problem);
    let doc = DeTable::parse(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        let message = e.message().trim().to_string();
        at(offset, GridProblem::Toml { message })
    })?;
    let (mut name, mut description, mut grid) = (None, String::new(), None);
    for (key, value) in doc.get_ref() {
        let DeValue::String(s) = value.get_ref() else {
            let message = format!("{} must be a string", key.get_ref());
            return Err(at(value.span().start, GridProblem::Toml { message }));
        };
        match key.get_ref().as_ref() {
            "name" => name = Some(s.to_string()),
            "description" => description = s.to_string(),
            "grid" => grid = Some((s.to_string(), value.span().start)),
            other => {
                let key = other.to_string();
                return Err(at(key_span(text, &key), GridProblem::UnknownKey { key }));
            }
        }
    }
    let missing = |key: &str| {
        at(
            0,
            GridProblem::MissingKey {
                key: key.to_string(),
            },
        )
    };
    let name = name.ok_or_else(|| missing("name"))?;
    let (grid, start) = grid.ok_or_else(|| missing("grid"))?;
    let origin = string_origin(text, start);
    parse_grid(
        GridAt { file, text, origin },
        &grid,
        &name,
        &description,
        true,
    )
}

fn key_span(text: &str, key: &str) -> usize {
    text.find(key).unwrap_or(0)
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

//! The reading of a grid file (a RoboRally board, a Robo Runner ship) up to its cells:
//! the file's keys (`name`, `description`, `grid`), where the grid's text starts in the
//! file ([`GridAt`]) and its rows of cell tokens ([`read_rows`]), every problem located at
//! the key or the cell that causes it. Each game reads the cell tokens and checks what its
//! rules ask of a whole grid; what is here reads the same in every such file.

use crate::games::shared::scenario::Located;
use thiserror::Error;
use toml::de::{DeTable, DeValue};

/// Largest width or height of a grid.
pub const MAX_SIDE: usize = 64;

/// What is wrong with a grid file's keys or the shape of its grid, whatever its cells.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FileProblem {
    #[error("{message}")]
    Toml { message: String },
    #[error("key {key:?}: expected only name, description and grid")]
    UnknownKey { key: String },
    #[error("missing {key:?}: expected {key} = \"...\"")]
    MissingKey { key: String },
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
    /// `problem` at byte `offset` of the grid.
    pub fn error<P>(&self, offset: usize, problem: impl Into<P>) -> Located<P> {
        Located::at(self.file, self.text, self.origin + offset, problem.into())
    }
}

/// A grid file's keys: its `name`, `description` (empty when left out) and `grid`, with
/// where the grid starts in the file.
#[derive(Debug, Clone)]
pub struct GridFile<'a> {
    pub at: GridAt<'a>,
    pub name: String,
    pub description: String,
    pub grid: String,
}

impl<'a> GridFile<'a> {
    /// Reads the keys of the file `text` (named `file` in errors): string values only,
    /// `name` and `grid` required, no other key. `P` is the game's problem type.
    pub fn read<P: From<FileProblem>>(
        text: &'a str,
        file: &'a str,
    ) -> Result<GridFile<'a>, Located<P>> {
        let at = |offset: usize, problem: FileProblem| Located::at(file, text, offset, problem);
        let doc = DeTable::parse(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            let message = e.message().trim().to_string();
            at(offset, FileProblem::Toml { message })
        });
        let doc = doc.map_err(into_game)?;
        let (mut name, mut description, mut grid) = (None, String::new(), None);
        for (key, value) in doc.get_ref() {
            let DeValue::String(s) = value.get_ref() else {
                let message = format!("{} must be a string", key.get_ref());
                let problem = FileProblem::Toml { message };
                return Err(into_game(at(value.span().start, problem)));
            };
            match key.get_ref().as_ref() {
                "name" => name = Some(s.to_string()),
                "description" => description = s.to_string(),
                "grid" => grid = Some((s.to_string(), value.span().start)),
                other => {
                    let key = other.to_string();
                    let offset = text.find(&key).unwrap_or(0);
                    return Err(into_game(at(offset, FileProblem::UnknownKey { key })));
                }
            }
        }
        let missing = |key: &str| {
            let key = key.to_string();
            into_game(at(0, FileProblem::MissingKey { key }))
        };
        let name = name.ok_or_else(|| missing("name"))?;
        let (grid, start) = grid.ok_or_else(|| missing("grid"))?;
        let origin = string_origin(text, start);
        Ok(GridFile {
            at: GridAt { file, text, origin },
            name,
            description,
            grid,
        })
    }
}

/// A located file problem as the game's own.
fn into_game<P: From<FileProblem>>(e: Located<FileProblem>) -> Located<P> {
    Located {
        file: e.file,
        line: e.line,
        column: e.column,
        problem: e.problem.into(),
    }
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

/// A grid's cells row by row (y = 0 first) as the game read them, with where each stands.
#[derive(Debug, Clone)]
pub struct Rows<C> {
    pub cells: Vec<C>,
    /// Each cell's byte offset in the grid.
    pub offsets: Vec<usize>,
    pub width: usize,
    pub height: usize,
    /// The grid as written again: its rows joined by newlines, one space between cells.
    pub text: String,
    /// The byte offset of the first row, where problems of the whole grid point.
    pub first_row: usize,
}

/// Reads `grid` (rows north first, cells separated by spaces, blank lines skipped):
/// `cell(token, offset)` reads each cell in order, and may refuse it. Every row must have
/// as many cells as the first, and the grid `min` to [`MAX_SIDE`] cells a side.
pub fn read_rows<C, P: From<FileProblem>>(
    at: GridAt<'_>,
    grid: &str,
    min: usize,
    mut cell: impl FnMut(&str, usize) -> Result<C, Located<P>>,
) -> Result<Rows<C>, Located<P>> {
    let mut cells = Vec::new();
    let mut offsets = Vec::new();
    let mut width = 0;
    let mut rows: Vec<String> = Vec::new();
    let mut offset = 0;
    let mut first_row = None;
    for line in grid.split_inclusive('\n') {
        let line_at = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if body.trim().is_empty() {
            continue;
        }
        first_row.get_or_insert(line_at);
        let mut count = 0;
        for (i, token) in tokens(body) {
            cells.push(cell(token, line_at + i)?);
            offsets.push(line_at + i);
            count += 1;
        }
        if rows.is_empty() {
            width = count;
        } else if count != width {
            let problem = FileProblem::RaggedRow {
                row: rows.len() + 1,
                cells: count,
                expected: width,
            };
            return Err(at.error(line_at, problem));
        }
        rows.push(tokens(body).map(|(_, t)| t).collect::<Vec<_>>().join(" "));
    }
    let height = rows.len();
    let first_row = first_row.unwrap_or(0);
    if !(min..=MAX_SIDE).contains(&width) || !(min..=MAX_SIDE).contains(&height) {
        return Err(at.error(first_row, FileProblem::Size { width, height, min }));
    }
    Ok(Rows {
        cells,
        offsets,
        width,
        height,
        text: rows.join("\n"),
        first_row,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    type Error = Located<FileProblem>;

    #[test]
    fn keys_are_read_and_the_grid_is_located() {
        let text = "name = \"t\"\ngrid = \"\"\"\n. .\n. x\n\"\"\"\n";
        let f = GridFile::read::<FileProblem>(text, "t.toml").unwrap();
        assert_eq!((f.name.as_str(), f.description.as_str()), ("t", ""));
        let rows = read_rows(f.at, &f.grid, 2, |t, at| {
            if t == "x" {
                Err(f.at.error(
                    at,
                    FileProblem::Toml {
                        message: "x".into(),
                    },
                ))
            } else {
                Ok(t.len())
            }
        });
        let err: Error = rows.unwrap_err();
        assert_eq!(err.position(), (4, 3));
        let missing = GridFile::read::<FileProblem>("name = \"t\"\n", "t.toml").unwrap_err();
        assert_eq!(
            missing.to_string(),
            "t.toml:1:1: missing \"grid\": expected grid = \"...\""
        );
        let other = GridFile::read::<FileProblem>("nom = \"t\"\n", "t.toml").unwrap_err();
        assert!(other.to_string().contains("key \"nom\""), "{other}");
    }

    #[test]
    fn rows_must_be_even_and_the_grid_within_its_sides() {
        let at = GridAt {
            file: "g",
            text: ". .\n.\n",
            origin: 0,
        };
        let ok = |t: &str, _| Ok::<_, Error>(t.to_string());
        let err = read_rows(at, at.text, 1, ok).unwrap_err();
        assert_eq!(
            err.to_string(),
            "g:2:1: row 2 has 1 cells: expected 2 like row 1"
        );
        let one = GridAt { text: ".\n", ..at };
        let err = read_rows(one, one.text, 2, ok).unwrap_err();
        assert!(err.to_string().contains("the grid is 1x1"), "{err}");
        let rows = read_rows(one, one.text, 1, ok).unwrap();
        assert_eq!((rows.width, rows.height, rows.text.as_str()), (1, 1, "."));
    }
}

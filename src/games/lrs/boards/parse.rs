//! Defines the board file parser: [`parse_board`] for whole TOML board files and
//! [`parse_grid`] for a grid string embedded in any TOML file (scenarios reuse it).
//!
//! Both report every problem as a [`BoardFileError`] located at the file's line and column,
//! so the grid parser is told where its text starts in the enclosing file ([`GridOrigin`]),
//! and the model's [`BoardError`] (which carries a board position) is mapped back to the
//! cell that caused it.

use super::cell::parse_cell;
use super::error::{BoardFileError, Problem};
use super::origin::GridOrigin;
use crate::games::lrs::engine::board::MAX_SIDE;
use crate::games::lrs::engine::{Board, BoardError, Pos, Square, Tile};
use crate::games::shared::scenario::Located;
use std::ops::Range;
use toml::de::{DeTable, DeValue};

/// Smallest side of a playable board (docs/boards.md: at least 2 x 2).
const MIN_BOARD_SIDE: usize = 2;

/// Everything [`parse_grid`] needs besides the grid text.
#[derive(Debug, Clone)]
pub struct GridContext<'a> {
    /// File name used in error messages, e.g. `boards/x.toml`.
    pub file: &'a str,
    /// Name and description given to the board.
    pub name: &'a str,
    pub description: &'a str,
    /// Boards for games need at least 2x2 squares, one flag and two start squares;
    /// scenario grids do not.
    pub require_playable: bool,
    /// Where the grid text starts in `file`.
    pub origin: GridOrigin,
}

impl<'a> GridContext<'a> {
    /// A context for a grid that is the whole text of `file` (line 1, column 1).
    pub fn new(file: &'a str, require_playable: bool) -> GridContext<'a> {
        GridContext {
            file,
            name: "",
            description: "",
            require_playable,
            origin: GridOrigin::default(),
        }
    }
}

/// A TOML parse error, located in `text` and named after `file`.
pub fn toml_error(text: &str, file: &str, error: &toml::de::Error) -> BoardFileError {
    let span = error.span().unwrap_or(0..0);
    let offset = span.start;
    let problem = Problem::Toml {
        token: token_at(text, span),
        message: error.message().to_owned(),
    };
    Located::at(file, text, offset, problem).into()
}

/// The text of `span` (at least one character, at most one line and 24 characters).
fn token_at(text: &str, span: Range<usize>) -> String {
    let start = span.start.min(text.len());
    let Some(rest) = text.get(start..) else {
        return String::new();
    };
    let wanted = span.end.saturating_sub(start).max(1);
    let token: String = rest
        .char_indices()
        .take_while(|(i, c)| *i < wanted && *c != '\n' && *c != '\r')
        .map(|(_, c)| c)
        .take(24)
        .collect();
    if token.is_empty() && rest.is_empty() {
        "end of file".to_owned()
    } else if token.is_empty() {
        "end of line".to_owned()
    } else {
        token
    }
}

/// Parses a board file (docs/boards.md): keys `name` (required), `description` (optional) and
/// `grid` (required). The board must be playable (>= 2x2, >= 1 flag, >= 2 start squares).
/// `source` names the file in error messages.
pub fn parse_board(text: &str, source: &str) -> Result<Board, BoardFileError> {
    let at = |offset: usize, problem: Problem| -> BoardFileError {
        Located::at(source, text, offset, problem).into()
    };
    let table = DeTable::parse(text).map_err(|e| toml_error(text, source, &e))?;
    let mut entries: Vec<_> = table.get_ref().iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    let (mut name, mut description, mut grid) = (None, None, None);
    for (key, value) in entries {
        let slot = match key.get_ref().as_ref() {
            "name" => &mut name,
            "description" => &mut description,
            "grid" => &mut grid,
            other => {
                return Err(at(
                    key.span().start,
                    Problem::UnknownKey {
                        key: other.to_owned(),
                    },
                ));
            }
        };
        let DeValue::String(s) = value.get_ref() else {
            let span = value.span();
            return Err(at(
                span.start,
                Problem::NotAString {
                    key: key.get_ref().to_string(),
                    token: token_at(text, span),
                },
            ));
        };
        *slot = Some((s.as_ref(), value.span()));
    }
    let missing = |key: &str| {
        at(
            0,
            Problem::MissingKey {
                key: key.to_owned(),
            },
        )
    };
    let (name, _) = name.ok_or_else(|| missing("name"))?;
    let (grid, grid_span) = grid.ok_or_else(|| missing("grid"))?;
    let ctx = GridContext {
        file: source,
        name,
        description: description.map_or("", |(d, _)| d),
        require_playable: true,
        origin: GridOrigin::of_toml_string(text, grid_span, grid),
    };
    parse_grid(grid, &ctx)
}

/// One cell of the grid text and where it is in the file.
struct Cell<'g> {
    token: &'g str,
    line: usize,
    column: usize,
}

impl Cell<'_> {
    fn at(&self) -> (usize, usize) {
        (self.line, self.column)
    }
}

/// A located error in the file of `ctx`.
fn error_at(ctx: &GridContext, (line, column): (usize, usize), problem: Problem) -> BoardFileError {
    BoardFileError::At(Located {
        file: ctx.file.to_owned(),
        line,
        column,
        problem,
    })
}

/// Parses a grid (docs/boards.md "Grid") into a board named `ctx.name`. With
/// `ctx.require_playable` the board must also be playable; scenario grids may lack flags and
/// start squares and may be a single row or column.
pub fn parse_grid(grid: &str, ctx: &GridContext) -> Result<Board, BoardFileError> {
    let rows = split_rows(grid, ctx)?;
    check_shape(&rows, ctx)?;
    let (width, height) = (rows[0].len() as i32, rows.len() as i32);
    let cells: Vec<Cell> = rows.into_iter().flatten().collect();
    let squares = cells
        .iter()
        .map(|cell| parse_cell(cell.token).map_err(|p| error_at(ctx, cell.at(), p)))
        .collect::<Result<Vec<Square>, _>>()?;
    let located = |e| board_error(e, &cells, &squares, width, ctx);
    let board =
        Board::new(ctx.name, ctx.description, width, height, squares.clone()).map_err(located)?;
    if ctx.require_playable {
        board.check_playable().map_err(located)?;
    }
    Ok(board)
}

/// The non-blank rows of the grid (blank lines before and after are dropped, `#` comments
/// removed), each cell
/// located in the file.
fn split_rows<'g>(grid: &'g str, ctx: &GridContext) -> Result<Vec<Vec<Cell<'g>>>, BoardFileError> {
    let mut lines = Vec::new();
    let mut line_start = 0;
    for (line_idx, line) in grid.split('\n').enumerate() {
        let mut cells = Vec::new();
        let mut token_start: Option<(usize, usize)> = None;
        let chars = line
            .char_indices()
            .chain(std::iter::once((line.len(), ' ')));
        for (char_col, (i, c)) in chars.enumerate() {
            if matches!(c, ' ' | '\t' | '\r') {
                if let Some((start, col)) = token_start.take() {
                    let (file_line, column) = ctx.origin.locate(line_idx, col, line_start + start);
                    cells.push(Cell {
                        token: &line[start..i],
                        line: file_line,
                        column,
                    });
                }
            } else if token_start.is_none() {
                token_start = Some((i, char_col));
            }
        }
        // `#` starts a comment to the end of the line, as in TOML: no cell token contains it,
        // and a scenario's `grid = """   # note` puts such a note on the grid's first line.
        if let Some(k) = cells.iter().position(|c| c.token.starts_with('#')) {
            cells.truncate(k);
        }
        lines.push((cells, ctx.origin.locate(line_idx, 0, line_start)));
        line_start += line.len() + 1;
    }
    let first = lines.iter().position(|(cells, _)| !cells.is_empty());
    let last = lines.iter().rposition(|(cells, _)| !cells.is_empty());
    let (Some(first), Some(last)) = (first, last) else {
        return Err(error_at(
            ctx,
            ctx.origin.locate(0, 0, 0),
            Problem::EmptyGrid,
        ));
    };
    let mut rows = Vec::with_capacity(last + 1 - first);
    for (cells, at) in lines.drain(first..=last) {
        if cells.is_empty() {
            return Err(error_at(ctx, at, Problem::BlankRow));
        }
        rows.push(cells);
    }
    Ok(rows)
}

/// Checks that the rows (non-empty, each non-empty) form a rectangle of allowed size.
fn check_shape(rows: &[Vec<Cell>], ctx: &GridContext) -> Result<(), BoardFileError> {
    let width = rows[0].len();
    let height = rows.len();
    let max = MAX_SIDE as usize;
    let too_large = |cell: &Cell| {
        error_at(
            ctx,
            cell.at(),
            Problem::TooLarge {
                width,
                height,
                max,
                token: cell.token.to_owned(),
            },
        )
    };
    if let Some(extra) = rows[0].get(max) {
        return Err(too_large(extra));
    }
    for (r, row) in rows.iter().enumerate().skip(1) {
        if row.len() == width {
            continue;
        }
        let (cell, detail) = match row.get(width) {
            Some(extra) => (extra, format!("first extra cell {:?}", extra.token)),
            None => {
                let last = &row[row.len() - 1];
                (last, format!("the row ends with {:?}", last.token))
            }
        };
        let problem = Problem::RaggedRow {
            row: r + 1,
            cells: row.len(),
            expected: width,
            detail,
            token: cell.token.to_owned(),
        };
        return Err(error_at(ctx, cell.at(), problem));
    }
    if let Some(row) = rows.get(max) {
        return Err(too_large(&row[0]));
    }
    let min = if ctx.require_playable {
        MIN_BOARD_SIDE
    } else {
        1
    };
    if width < min || height < min {
        let problem = Problem::TooSmall { width, height, min };
        return Err(error_at(ctx, rows[0][0].at(), problem));
    }
    Ok(())
}

/// Locates a rule violation of the board model at the cell that caused it.
fn board_error(
    e: BoardError,
    cells: &[Cell],
    squares: &[Square],
    width: i32,
    ctx: &GridContext,
) -> BoardFileError {
    let cell_at = |p: Pos| cells.get((p.y * width + p.x) as usize);
    let find =
        |pred: &dyn Fn(&Square) -> bool| squares.iter().position(pred).and_then(|i| cells.get(i));
    let grid_start = ctx.origin.locate(0, 0, 0);
    let located = |cell: Option<&Cell>, problem: Problem| {
        error_at(ctx, cell.map_or(grid_start, Cell::at), problem)
    };
    let token = |cell: Option<&Cell>| cell.map_or_else(String::new, |c| c.token.to_owned());
    match e {
        BoardError::DuplicateFlag { first, second, .. }
        | BoardError::DuplicateStart { first, second, .. } => {
            let (first_line, first_column) = cell_at(first).map_or((0, 0), Cell::at);
            let token = token(cell_at(second));
            let problem = if matches!(e, BoardError::DuplicateFlag { .. }) {
                Problem::DuplicateFlag {
                    token,
                    first_line,
                    first_column,
                }
            } else {
                Problem::DuplicateStart {
                    token,
                    first_line,
                    first_column,
                }
            };
            located(cell_at(second), problem)
        }
        BoardError::MissingFlag { missing, count } => {
            let cell = find(&|s| s.tile == Tile::Flag(count));
            let token = token(cell);
            located(cell, Problem::MissingFlag { token, missing })
        }
        BoardError::MissingStart { missing, count } => {
            let cell = find(&|s| s.start == Some(count));
            let token = token(cell);
            located(cell, Problem::MissingStart { token, missing })
        }
        BoardError::StartNotFloor { at, .. } => {
            let token = token(cell_at(at));
            located(cell_at(at), Problem::StartNotFloor { token })
        }
        BoardError::LaserOnPit { at } => {
            let token = token(cell_at(at));
            located(cell_at(at), Problem::LaserOnPit { token })
        }
        BoardError::FlagNumber { at, .. } => {
            let token = token(cell_at(at));
            located(cell_at(at), Problem::FlagNumber { token })
        }
        BoardError::StartNumber { at, .. } => {
            let token = token(cell_at(at));
            located(cell_at(at), Problem::StartNumber { token })
        }
        BoardError::LaserStrength { at, strength } => {
            let token = token(cell_at(at));
            let found = strength.to_string();
            located(cell_at(at), Problem::BadLaserStrength { token, found })
        }
        BoardError::NoFlags => error_at(ctx, grid_start, Problem::NoFlags),
        BoardError::TooFewStarts { found } => {
            error_at(ctx, grid_start, Problem::TooFewStarts { found })
        }
        other => {
            let token = "grid".to_owned();
            error_at(
                ctx,
                grid_start,
                Problem::Board {
                    token,
                    error: other,
                },
            )
        }
    }
}

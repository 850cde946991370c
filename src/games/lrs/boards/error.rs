//! Defines the errors of the board formats: [`BoardFileError`] (TOML board files and grids)
//! and [`WindwardMapError`] (Windward `<map>` XML).
//!
//! Board files are written by hand, so every problem names the file, the 1-based line and
//! column, the offending token, what is wrong and what was expected: the message alone must
//! let an author fix the file.

use crate::games::lrs::engine::BoardError;
use crate::games::shared::scenario::Located;
use thiserror::Error;

/// What a board file may contain in a grid cell (used in "unknown token" messages).
pub const CELL_SYNTAX: &str = "a base (. P R F1-F3 S1-S8 cN cE cS cW CN CE CS CW G+ G-) \
optionally followed by [walls] and @dir[strength]";

/// An invalid board file, scenario grid or board name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoardFileError {
    /// A problem at a place in a file: `file:line:column: problem`.
    #[error(transparent)]
    At(#[from] Located<Problem>),
    /// The board is neither a shipped board nor a readable file.
    #[error("{path}: cannot read board file: {reason}")]
    Read { path: String, reason: String },
}

impl BoardFileError {
    /// The problem, for errors located in a file.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            BoardFileError::At(located) => Some(&located.problem),
            BoardFileError::Read { .. } => None,
        }
    }

    /// `(line, column)`, for errors located in a file.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            BoardFileError::At(located) => Some(located.position()),
            BoardFileError::Read { .. } => None,
        }
    }
}

/// What is wrong at a place of a board file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    #[error("invalid TOML at {token:?}: {message}")]
    Toml { token: String, message: String },
    #[error("unknown key {key:?}: expected only the keys name, description and grid")]
    UnknownKey { key: String },
    #[error("missing key {key:?}: expected {key} = \"...\"")]
    MissingKey { key: String },
    #[error("key {key:?} has the value {token}: expected a string")]
    NotAString { key: String, token: String },
    #[error("grid is empty: expected at least one row of cells")]
    EmptyGrid,
    #[error(
        "blank line inside the grid: expected a row of cells (blank lines are only allowed before and after the grid)"
    )]
    BlankRow,
    #[error("row {row} has {cells} cells, expected {expected} like row 1 ({detail})")]
    RaggedRow {
        row: usize,
        cells: usize,
        expected: usize,
        /// Names the offending token, e.g. `first extra cell "cE"`.
        detail: String,
        token: String,
    },
    #[error("grid is {width}x{height} at {token:?}: expected at most {max}x{max} cells")]
    TooLarge {
        width: usize,
        height: usize,
        max: usize,
        token: String,
    },
    #[error("grid is {width}x{height}: expected at least {min}x{min} cells for a board")]
    TooSmall {
        width: usize,
        height: usize,
        min: usize,
    },
    #[error("unknown token {token:?}: expected {CELL_SYNTAX}")]
    UnknownToken { token: String },
    #[error("flag number out of range in {token:?}: expected F1, F2 or F3")]
    FlagNumber { token: String },
    #[error("start number out of range in {token:?}: expected S1 to S8")]
    StartNumber { token: String },
    #[error(
        "bad wall list in {token:?} ({found}): expected [ followed by one or more of N E S W and ]"
    )]
    BadWall { token: String, found: String },
    #[error("duplicate wall {side:?} in {token:?}: expected each of N E S W at most once")]
    DuplicateWall { token: String, side: char },
    #[error("bad laser direction {found:?} in {token:?}: expected @N, @E, @S or @W")]
    BadLaserDirection { token: String, found: String },
    #[error(
        "bad laser strength {found:?} in {token:?}: expected 1, 2 or 3 after the laser direction"
    )]
    BadLaserStrength { token: String, found: String },
    #[error(
        "flag {token:?} appears twice (first at {first_line}:{first_column}): expected each of F1..Fk exactly once"
    )]
    DuplicateFlag {
        token: String,
        first_line: usize,
        first_column: usize,
    },
    #[error("{token:?} without F{missing}: expected flags F1..Fk without gaps (k in 1..=3)")]
    MissingFlag { token: String, missing: u8 },
    #[error(
        "start {token:?} appears twice (first at {first_line}:{first_column}): expected each of S1..Sn exactly once"
    )]
    DuplicateStart {
        token: String,
        first_line: usize,
        first_column: usize,
    },
    #[error("{token:?} without S{missing}: expected start squares S1..Sn without gaps")]
    MissingStart { token: String, missing: u8 },
    #[error(
        "start square on a non-floor tile in {token:?}: expected S1-S8 on its own (a NORMAL square)"
    )]
    StartNotFloor { token: String },
    #[error("laser on a pit in {token:?}: expected board lasers on non-pit squares")]
    LaserOnPit { token: String },
    #[error("board has no flag: expected at least F1 in the grid")]
    NoFlags,
    #[error("board has {found} start square(s): expected at least S1 and S2 in the grid")]
    TooFewStarts { found: usize },
    /// Any other rule of the board model (the message of [`BoardError`]).
    #[error("invalid board at {token:?}: {error}")]
    Board { token: String, error: BoardError },
}

impl Problem {
    /// The offending token, when the problem has one.
    pub fn token(&self) -> Option<&str> {
        use Problem::*;
        match self {
            Toml { token, .. }
            | NotAString { token, .. }
            | RaggedRow { token, .. }
            | TooLarge { token, .. }
            | UnknownToken { token }
            | FlagNumber { token }
            | StartNumber { token }
            | BadWall { token, .. }
            | DuplicateWall { token, .. }
            | BadLaserDirection { token, .. }
            | BadLaserStrength { token, .. }
            | DuplicateFlag { token, .. }
            | MissingFlag { token, .. }
            | DuplicateStart { token, .. }
            | MissingStart { token, .. }
            | StartNotFloor { token }
            | LaserOnPit { token }
            | Board { token, .. } => Some(token),
            UnknownKey { key } | MissingKey { key } => Some(key),
            EmptyGrid | BlankRow | TooSmall { .. } | NoFlags | TooFewStarts { .. } => None,
        }
    }
}

/// An invalid Windward `<map>` document.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WindwardMapError {
    #[error("map XML: malformed XML at byte {position}: {message}")]
    Xml { position: u64, message: String },
    #[error("map XML: no <map> element found")]
    NoMap,
    #[error("map XML: <{element}> at byte {position} lacks the attribute {attribute:?}")]
    MissingAttribute {
        element: String,
        attribute: String,
        position: u64,
    },
    #[error("map XML: <{element} {attribute}={value:?}> at byte {position}: expected {expected}")]
    BadAttribute {
        element: String,
        attribute: String,
        value: String,
        expected: String,
        position: u64,
    },
    #[error("map XML: square ({x},{y}) lies outside the {width}x{height} map")]
    OutOfRange {
        x: i32,
        y: i32,
        width: i32,
        height: i32,
    },
    #[error("map XML: square ({x},{y}) appears twice")]
    DuplicateSquare { x: i32, y: i32 },
    #[error("map XML: square ({x},{y}) is missing; expected one <square> per cell")]
    MissingSquare { x: i32, y: i32 },
    #[error("map XML: CONVEYOR_BELT square ({x},{y}) has no <conveyor> child")]
    MissingConveyor { x: i32, y: i32 },
    #[error("map XML: invalid board: {0}")]
    Board(#[from] BoardError),
}

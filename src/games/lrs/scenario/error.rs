//! Defines [`ScenarioError`] and [`Problem`]: every way a scenario file can be rejected.
//!
//! Scenario files are written by hand to pin down one rule, so each error names the file,
//! the 1-based line and column when there is a place to point at, what is wrong and what was
//! expected: the message alone must let the author fix the file.

use crate::games::lrs::boards::BoardFileError;
use crate::games::lrs::engine::GameError;
use crate::games::shared::scenario::{Located, TomlProblem};
use thiserror::Error;

/// An invalid scenario file, or one the engine could not run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScenarioError {
    /// A problem at a place in the file: `file:line:column: problem`.
    #[error(transparent)]
    At(#[from] Located<Problem>),
    /// The grid, or the board file named by `board = "..."`, is invalid (the board module's
    /// error names the file, line, column and token).
    #[error("{0}")]
    Board(#[from] BoardFileError),
    /// The engine refused a checked scenario: a bug in the checks, reported rather than hidden.
    #[error("{file}: the engine refused the scenario: {error}")]
    Engine { file: String, error: GameError },
}

impl ScenarioError {
    /// `(line, column)` for errors located in the scenario file itself.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            ScenarioError::At(located) => Some(located.position()),
            _ => None,
        }
    }

    /// The problem, for errors located in the scenario file itself.
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            ScenarioError::At(located) => Some(&located.problem),
            _ => None,
        }
    }
}

/// What is wrong at a place of a scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// Invalid TOML, or a key or value the format does not allow.
    #[error(transparent)]
    Toml(#[from] TomlProblem),
    #[error("unknown game {found:?}: expected {expected}")]
    UnknownGame { found: String, expected: String },
    #[error("both grid and board are given: expected exactly one of them")]
    GridAndBoard,
    #[error(
        "neither grid nor board is given: expected grid = \"\"\"...\"\"\" or board = \"path/to/board.toml\""
    )]
    NoBoard,
    #[error(
        "cannot read board file {path}: {reason}: expected a board file (docs/boards.md), its path relative to the scenario file"
    )]
    BoardFile { path: String, reason: String },
    #[error("no [[robot]] table: expected 1 to 8 robots")]
    NoRobots,
    #[error("{count} [[robot]] tables: expected at most 8 robots")]
    TooManyRobots { count: usize },
    #[error("empty robot name: expected a non-empty name")]
    EmptyName,
    #[error(
        "robot name {name:?} is used twice (first at {first_line}:{first_column}): expected unique names"
    )]
    DuplicateName {
        name: String,
        first_line: usize,
        first_column: usize,
    },
    #[error("unknown robot {name:?}: expected one of the [[robot]] names ({known})")]
    UnknownRobot { name: String, known: String },
    #[error("bad facing {found:?}: expected \"N\", \"E\", \"S\" or \"W\"")]
    BadFacing { found: String },
    #[error("bad move {found:?}: expected one of F1 F2 F3 B L R U")]
    BadMove { found: String },
    #[error(
        "bad card {found:?}: expected MOVE@PRIORITY with MOVE one of F1 F2 F3 B L R U and PRIORITY an integer 0..=65535, e.g. \"F2@500\""
    )]
    BadCard { found: String },
    #[error("bad power {found:?}: expected \"up\" or \"down:N\" with N in 1..=5")]
    BadPower { found: String },
    #[error(
        "priority {priority} is used twice in this turn (also by {other:?} at {other_line}:{other_column}): expected unique priorities within a turn"
    )]
    DuplicatePriority {
        priority: u16,
        other: String,
        other_line: usize,
        other_column: usize,
    },
    #[error(
        "a priority beside a card: a card gives its own (\"MOVE@PRIORITY\"); `priority` goes with no card, for a locked robot's card"
    )]
    PriorityWithCard,
    #[error(
        "robot {name:?} at ({x},{y}) is off the {width}x{height} board: expected 0 <= x < {width} and 0 <= y < {height}"
    )]
    OffBoard {
        name: String,
        x: i64,
        y: i64,
        width: i32,
        height: i32,
    },
    #[error("robot {name:?} at ({x},{y}) is on a pit: expected a square that is not a pit")]
    OnPit { name: String, x: i32, y: i32 },
    #[error("robots {first:?} and {second:?} are both at ({x},{y}): expected one robot per square")]
    SameSquare {
        first: String,
        second: String,
        x: i32,
        y: i32,
    },
    #[error(
        "archive [{x}, {y}] of robot {name:?} is {what}: expected an on-board square that is not a pit"
    )]
    BadArchive {
        name: String,
        x: i64,
        y: i64,
        what: &'static str,
    },
    #[error("{given} is given without {missing}: expected both x and y, or neither")]
    HalfPosition {
        given: &'static str,
        missing: &'static str,
    },
}

//! Defines [`ScenarioError`] and [`Problem`]: every way a Robots scenario file can be
//! rejected.
//!
//! Each error names the file, the 1-based line and column, what is wrong and what was
//! expected there; the problems any TOML file can have are the shared [`TomlProblem`]s.

use crate::games::robots::board::GameError;
use crate::games::shared::scenario::{self, TomlProblem};
use thiserror::Error;

/// An invalid scenario file, or one the engine could not run.
pub type ScenarioError = scenario::ScenarioError<Problem, GameError>;

/// What is wrong at a place of a scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    /// Invalid TOML, or a key or value the format does not allow.
    #[error(transparent)]
    Toml(#[from] TomlProblem),
    #[error("game = {found:?}: expected game = \"robots\" in a Robots scenario")]
    NotRobots { found: String },
    #[error("robots = []: expected at least one robot")]
    NoRobots,
    #[error(
        "{what} at [{x},{y}] is off the {width}x{height} board: expected x in 0..{width} and y in 0..{height}"
    )]
    OffBoard {
        what: &'static str,
        x: i64,
        y: i64,
        width: i64,
        height: i64,
    },
    #[error("{what} at [{x},{y}] is on the square of {other}: expected one thing per square")]
    SameSquare {
        what: &'static str,
        other: &'static str,
        x: i64,
        y: i64,
    },
    #[error("bad move {found:?}: expected one of N NE E SE S SW W NW, BN .. BNW, P, L, T, Q")]
    BadMove { found: String },
    #[error("{count} moves in one turn: expected at most 8")]
    TooManyMoves { count: usize },
}

//! Defines [`ScenarioError`] and [`Problem`]: every way a Robots scenario file can be
//! rejected.
//!
//! Scenario files are written by hand to pin down one rule, so each error names the file, the
//! 1-based line and column, what is wrong and what was expected there.

use crate::games::robots::board::GameError;
use thiserror::Error;

/// An invalid scenario file, or one the engine could not run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScenarioError {
    #[error("{file}: cannot read scenario file: {reason}")]
    Read { file: String, reason: String },
    /// A problem at a place in the file: `file:line:column: problem`.
    #[error("{file}:{line}:{column}: {problem}")]
    At {
        file: String,
        line: usize,
        column: usize,
        problem: Problem,
    },
    /// The engine refused a checked scenario: a bug in the checks, reported rather than hidden.
    #[error("{file}: the engine refused the scenario: {error}")]
    Engine { file: String, error: GameError },
}

/// What is wrong at a place of a scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    #[error("invalid TOML: {message}")]
    Toml { message: String },
    #[error("unknown key {key:?}: expected only {expected}")]
    UnknownKey { key: String, expected: &'static str },
    #[error("missing key {key:?}: expected {expected}")]
    MissingKey {
        key: &'static str,
        expected: &'static str,
    },
    #[error("{key} is {found}: expected {expected}")]
    WrongType {
        key: String,
        found: &'static str,
        expected: &'static str,
    },
    #[error("{key} = {value} is out of range: expected an integer in {expected}")]
    OutOfRange {
        key: String,
        value: String,
        expected: String,
    },
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

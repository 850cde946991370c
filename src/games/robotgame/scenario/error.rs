//! Defines [`ScenarioError`] and [`Problem`]: every way a RobotGame scenario file can be
//! rejected.
//!
//! Scenario files are written by hand to pin down one rule, so each error names the file, the
//! 1-based line and column, what is wrong and what was expected there.

use crate::games::robotgame::engine::GameError;
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
    #[error("unknown key {key:?} in {table}: expected only {expected}")]
    UnknownKey {
        key: String,
        table: String,
        expected: &'static str,
    },
    #[error("missing key {key:?} in {table}: expected {expected}")]
    MissingKey {
        key: &'static str,
        table: String,
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
    #[error("game = {found:?}: expected game = \"robotgame\" in a RobotGame scenario")]
    NotRobotGame { found: String },
    #[error("no [[robot]] table: expected at least one robot")]
    NoRobots,
    #[error(
        "robot {id} at ({x},{y}) is on an obstacle: expected a walkable square (docs/robotgame.md, RG1)"
    )]
    Obstacle { id: usize, x: i64, y: i64 },
    #[error("robots {first} and {second} are both at ({x},{y}): expected one robot per square")]
    SameSquare {
        first: usize,
        second: usize,
        x: i64,
        y: i64,
    },
    #[error("bad robot key {found:?}: expected a robot id, an integer such as 0")]
    BadRobotKey { found: String },
    #[error(
        "bad action {found:?}: expected \"move X Y\", \"attack X Y\", \"guard\" or \"suicide\""
    )]
    BadAction { found: String },
}

//! Defines [`ScenarioError`] and [`Problem`]: every way a RobotGame scenario file can be
//! rejected.
//!
//! Each error names the file, the 1-based line and column, what is wrong and what was
//! expected there; the problems any TOML file can have are the shared [`TomlProblem`]s.

use crate::games::robotgame::engine::GameError;
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

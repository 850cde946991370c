//! Defines [`ScenarioError`]: the error of a game's scenario file whose only other failure
//! is its engine refusing it.

use super::Located;
use thiserror::Error;

/// An invalid scenario file, or one the engine could not run: `P` is the game's problems,
/// `G` its engine's error.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScenarioError<P, G> {
    #[error("{file}: cannot read scenario file: {reason}")]
    Read { file: String, reason: String },
    /// A problem at a place in the file: `file:line:column: problem`.
    #[error(transparent)]
    At(#[from] Located<P>),
    /// The engine refused a checked scenario: a bug in the checks, reported rather than hidden.
    #[error("{file}: the engine refused the scenario: {error}")]
    Engine { file: String, error: G },
}

impl<P, G> ScenarioError<P, G> {
    /// Wraps the engine's refusal of the scenario read from `file` (for `map_err`).
    pub fn engine(file: &str) -> impl Fn(G) -> Self + Copy + '_ {
        move |error| ScenarioError::Engine {
            file: file.to_string(),
            error,
        }
    }
}

//! Names the shared scenario readers with RobotGame's error types.

use super::error::{Problem, ScenarioError};
use crate::games::shared::scenario;

pub(super) use crate::games::shared::scenario::Span;

/// The scenario text and the name to use for it in messages.
pub(super) type Source<'a> = scenario::Source<'a, Problem, ScenarioError>;

/// The keys of one table, checked against the keys the format allows there.
pub(super) type Fields<'a, 'i> = scenario::Fields<'a, 'i, Problem, ScenarioError>;

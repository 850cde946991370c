//! The reading of hand-written TOML files that every game's scenarios (and board files)
//! share: byte spans turned into `file:line:column` errors ([`Located`], [`Source`]), typed
//! and span-keeping access to a table's keys ([`Fields`]), and what can be wrong with any
//! key or value whatever the format ([`TomlProblem`]).
//!
//! Scenario files are written by hand to pin down one rule, so every message names the file,
//! the 1-based line and column, what is wrong and what was expected there. A game keeps its
//! own problem type (its rules' messages) with the shared problems as one of its variants,
//! and names the readers with its types through aliases, e.g.
//! `type Source<'a> = shared::scenario::Source<'a, Problem, ScenarioError>`.

mod error;
mod fields;
mod located;
mod problem;
mod source;

pub use error::ScenarioError;
pub use fields::{Fields, Read};
pub use located::Located;
pub use problem::TomlProblem;
pub use source::{Source, Span};

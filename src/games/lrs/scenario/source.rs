//! Names the shared scenario readers with Last Robot Standing's error types, and adds the
//! values only its scenarios have: facings and card moves.
//!
//! Every value read from the file keeps its byte span, so any later check (a robot on a pit,
//! a priority used twice) can still point at `file:line:column`.

use super::error::{Problem, ScenarioError};
use crate::games::lrs::engine::{Direction, Move};
use crate::games::shared::scenario;

pub(super) use crate::games::shared::scenario::Span;

/// The scenario text and the name to use for it in messages.
pub(super) type Source<'a> = scenario::Source<'a, Problem, ScenarioError>;

/// The keys of one table, checked against the keys the format allows there.
pub(super) type Fields<'a, 'i> = scenario::Fields<'a, 'i, Problem, ScenarioError>;

/// An optional value read from a table, with the span of its value.
pub(super) type Read<T> = scenario::Read<T, ScenarioError>;

/// The values of Last Robot Standing's scenario tables that other games do not have.
pub(super) trait LrsFields {
    /// A facing letter `N`, `E`, `S` or `W`.
    fn facing(&self, key: &str) -> Read<Direction>;
    /// A move name `F1` `F2` `F3` `B` `L` `R` `U`.
    fn card_move(&self, key: &str) -> Read<Move>;
}

impl LrsFields for Fields<'_, '_> {
    fn facing(&self, key: &str) -> Read<Direction> {
        word(self, key, Direction::from_text, |found| {
            Problem::BadFacing { found }
        })
    }

    fn card_move(&self, key: &str) -> Read<Move> {
        word(self, key, Move::from_short, |found| Problem::BadMove {
            found,
        })
    }
}

/// The string at `key` of `fields` as `parse` reads it; a string it does not read is
/// `problem(string)`, pointed at where the value stands.
fn word<T>(
    fields: &Fields<'_, '_>,
    key: &str,
    parse: impl Fn(&str) -> Option<T>,
    problem: impl Fn(String) -> Problem,
) -> Read<T> {
    let Some((s, span)) = fields.string(key)? else {
        return Ok(None);
    };
    match parse(s) {
        Some(value) => Ok(Some((value, span))),
        None => Err(fields.source().error(&span, problem(s.to_string()))),
    }
}

//! Names the shared scenario readers with Robots' error types, and reads its squares.

use super::error::{Problem, ScenarioError};
use crate::games::shared::scenario;
use toml::Spanned;
use toml::de::DeValue;

pub(super) use crate::games::shared::scenario::Span;

/// A TOML value with its span.
pub(super) type Value<'i> = Spanned<DeValue<'i>>;

/// The scenario text and the name to use for it in messages.
pub(super) type Source<'a> = scenario::Source<'a, Problem, ScenarioError>;

/// The keys of the scenario's top level.
pub(super) type Fields<'a, 'i> = scenario::Fields<'a, 'i, Problem, ScenarioError>;

/// A square written `[x, y]`: two integers, each within `-1_000..=1_000` (whether it is on
/// the board is checked later, against the board's size).
pub(super) fn square(
    src: Source<'_>,
    key: &str,
    value: &Value<'_>,
) -> Result<(i64, i64), ScenarioError> {
    const EXPECTED: &str = "a square [x, y] of two integers";
    let items = src.array(key, value, EXPECTED)?;
    let [x, y] = items else {
        return Err(src.wrong_type(key, value, EXPECTED));
    };
    let x = src.integer(&format!("x of {key}"), x, &(-1_000..=1_000))?;
    let y = src.integer(&format!("y of {key}"), y, &(-1_000..=1_000))?;
    Ok((x, y))
}

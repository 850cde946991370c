//! Defines [`Source`] and the typed, span-keeping readers of a Robots scenario's values.
//!
//! Every value keeps its byte span so that later checks (a robot off the board, two robots
//! on one square) can still point at `file:line:column`.

use super::error::{Problem, ScenarioError};
use std::ops::{Range, RangeInclusive};
use toml::Spanned;
use toml::de::DeValue;

/// A byte range of the scenario text.
pub(super) type Span = Range<usize>;

/// A TOML value with its span.
pub(super) type Value<'i> = Spanned<DeValue<'i>>;

/// The scenario text and the name to use for it in messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct Source<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl Source<'_> {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        crate::text::line_col(self.text, offset)
    }

    /// An error at the start of `span`.
    pub fn error(&self, span: &Span, problem: Problem) -> ScenarioError {
        let (line, column) = self.line_col(span.start);
        ScenarioError::At {
            file: self.file.to_string(),
            line,
            column,
            problem,
        }
    }

    /// A [`Problem::WrongType`] error at `value`.
    pub fn wrong_type(
        &self,
        key: &str,
        value: &Value<'_>,
        expected: &'static str,
    ) -> ScenarioError {
        self.error(
            &value.span(),
            Problem::WrongType {
                key: key.to_string(),
                found: type_name(value.get_ref()),
                expected,
            },
        )
    }

    /// An integer within `range`; `key` names it in messages.
    pub fn integer(
        &self,
        key: &str,
        value: &Value<'_>,
        range: RangeInclusive<i64>,
    ) -> Result<i64, ScenarioError> {
        let DeValue::Integer(i) = value.get_ref() else {
            return Err(self.wrong_type(key, value, "an integer"));
        };
        let out_of_range = || {
            self.error(
                &value.span(),
                Problem::OutOfRange {
                    key: key.to_string(),
                    value: self
                        .text
                        .get(value.span())
                        .unwrap_or(i.as_str())
                        .to_string(),
                    expected: format!("{}..={}", range.start(), range.end()),
                },
            )
        };
        let n = i64::from_str_radix(i.as_str(), i.radix()).map_err(|_| out_of_range())?;
        if range.contains(&n) {
            Ok(n)
        } else {
            Err(out_of_range())
        }
    }

    /// The items of an array.
    pub fn array<'v, 'i>(
        &self,
        key: &str,
        value: &'v Value<'i>,
        expected: &'static str,
    ) -> Result<&'v [Value<'i>], ScenarioError> {
        match value.get_ref() {
            DeValue::Array(items) => Ok(&items[..]),
            _ => Err(self.wrong_type(key, value, expected)),
        }
    }

    /// A square written `[x, y]`: two integers, each within `-1_000..=1_000` (whether it is
    /// on the board is checked later, against the board's size).
    pub fn square(&self, key: &str, value: &Value<'_>) -> Result<(i64, i64), ScenarioError> {
        const EXPECTED: &str = "a square [x, y] of two integers";
        let items = self.array(key, value, EXPECTED)?;
        let [x, y] = items else {
            return Err(self.wrong_type(key, value, EXPECTED));
        };
        let x = self.integer(&format!("x of {key}"), x, -1_000..=1_000)?;
        let y = self.integer(&format!("y of {key}"), y, -1_000..=1_000)?;
        Ok((x, y))
    }
}

/// The TOML type name of a value, for "expected ..." messages.
pub(super) fn type_name(value: &DeValue<'_>) -> &'static str {
    match value {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a datetime",
        DeValue::Array(items) if items.is_empty() => "an empty array",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

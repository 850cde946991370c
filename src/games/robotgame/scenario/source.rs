//! Defines [`Source`] and [`Fields`]: the scenario text with its file name, and typed,
//! span-keeping access to the keys of one TOML table.
//!
//! Every value keeps its byte span so that later checks (a robot on an obstacle, two robots
//! on one square) can still point at `file:line:column`. Unknown keys and wrong types are
//! reported here, once for every table of the format.

use super::error::{Problem, ScenarioError};
use std::ops::{Range, RangeInclusive};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A byte range of the scenario text.
pub(super) type Span = Range<usize>;

/// An optional value read from a table, with the span of its value.
pub(super) type Read<T> = Result<Option<(T, Span)>, ScenarioError>;

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
}

/// The TOML type name of a value, for "expected ..." messages.
pub(super) fn type_name(value: &DeValue<'_>) -> &'static str {
    crate::text::toml_type_name(value)
}

/// The keys of one table, checked against the keys the format allows there.
pub(super) struct Fields<'a, 'i> {
    src: Source<'a>,
    table: &'a DeTable<'i>,
    /// How messages name this table, e.g. `[[robot]] #2`.
    name: String,
}

impl<'a, 'i> Fields<'a, 'i> {
    /// Wraps `table`, rejecting the first key (in file order) not in `allowed`.
    pub fn new(
        src: Source<'a>,
        table: &'a DeTable<'i>,
        name: impl Into<String>,
        allowed: &[&str],
        expected: &'static str,
    ) -> Result<Fields<'a, 'i>, ScenarioError> {
        let name = name.into();
        let unknown = table
            .iter()
            .filter(|(k, _)| !allowed.contains(&k.get_ref().as_ref()))
            .min_by_key(|(k, _)| k.span().start);
        if let Some((key, _)) = unknown {
            return Err(src.error(
                &key.span(),
                Problem::UnknownKey {
                    key: key.get_ref().to_string(),
                    table: name,
                    expected,
                },
            ));
        }
        Ok(Fields { src, table, name })
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    /// A present key, or a [`Problem::MissingKey`] error at `at`.
    pub fn require<T>(
        &self,
        key: &'static str,
        value: Option<T>,
        at: &Span,
        expected: &'static str,
    ) -> Result<T, ScenarioError> {
        value.ok_or_else(|| {
            self.src.error(
                at,
                Problem::MissingKey {
                    key,
                    table: self.name.clone(),
                    expected,
                },
            )
        })
    }

    fn wrong_type(
        &self,
        key: &str,
        value: &Spanned<DeValue<'_>>,
        expected: &'static str,
    ) -> ScenarioError {
        self.src.error(
            &value.span(),
            Problem::WrongType {
                key: format!("{key} in {}", self.name),
                found: type_name(value.get_ref()),
                expected,
            },
        )
    }

    /// A string value.
    pub fn string(&self, key: &str) -> Read<&'a str> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.get_ref() {
            DeValue::String(s) => Ok(Some((s.as_ref(), value.span()))),
            _ => Err(self.wrong_type(key, value, "a string")),
        }
    }

    /// A boolean value.
    pub fn boolean(&self, key: &str) -> Read<bool> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.get_ref() {
            DeValue::Boolean(b) => Ok(Some((*b, value.span()))),
            _ => Err(self.wrong_type(key, value, "true or false")),
        }
    }

    /// An integer value within `range`.
    pub fn integer(&self, key: &str, range: RangeInclusive<i64>) -> Read<i64> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let what = format!("{key} in {}", self.name);
        let n = integer_value(self.src, &what, value, &range)?;
        Ok(Some((n, value.span())))
    }
}

/// Reads an integer value within `range`; `what` names it in messages.
fn integer_value(
    src: Source<'_>,
    what: &str,
    value: &Spanned<DeValue<'_>>,
    range: &RangeInclusive<i64>,
) -> Result<i64, ScenarioError> {
    let DeValue::Integer(i) = value.get_ref() else {
        return Err(src.error(
            &value.span(),
            Problem::WrongType {
                key: what.to_string(),
                found: type_name(value.get_ref()),
                expected: "an integer",
            },
        ));
    };
    let out_of_range = || {
        src.error(
            &value.span(),
            Problem::OutOfRange {
                key: what.to_string(),
                value: src.text.get(value.span()).unwrap_or(i.as_str()).to_string(),
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

/// The tables of an array of tables (`[[robot]]`), or an error if `value` is anything else.
pub(super) fn tables<'a, 'i>(
    src: Source<'_>,
    key: &str,
    value: &'a Spanned<DeValue<'i>>,
) -> Result<Vec<(&'a DeTable<'i>, Span)>, ScenarioError> {
    let expected = if key == "robot" {
        "an array of tables written [[robot]]"
    } else {
        "an array of tables written [[turn]]"
    };
    let wrong = |span: Span, found| {
        src.error(
            &span,
            Problem::WrongType {
                key: key.to_string(),
                found,
                expected,
            },
        )
    };
    let DeValue::Array(items) = value.get_ref() else {
        return Err(wrong(value.span(), type_name(value.get_ref())));
    };
    items
        .iter()
        .map(|item| match item.get_ref() {
            DeValue::Table(t) => Ok((t, item.span())),
            other => Err(wrong(item.span(), type_name(other))),
        })
        .collect()
}

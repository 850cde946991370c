//! Defines [`Source`] and [`Fields`]: the scenario text with its file name, and typed,
//! span-keeping access to the keys of one TOML table.
//!
//! Every value read from the file keeps its byte span, so any later check (a robot on a pit,
//! a priority used twice) can still point at `file:line:column`. Unknown keys and wrong
//! types are reported here, once, for every table of the format.

use super::error::{Problem, ScenarioError};
use crate::games::lrs::engine::{Direction, Move};
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
    /// How messages name this table, e.g. `[[robot]] "A"`.
    name: String,
}

impl<'a, 'i> Fields<'a, 'i> {
    /// Wraps `table`, rejecting any key not in `allowed` (the first one in file order).
    /// `expected` lists the allowed keys for the message.
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
            .filter(|(k, _)| {
                let key: &str = k.get_ref();
                !allowed.contains(&key)
            })
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

    /// The span of `key` itself (not its value), if present.
    pub fn key_span(&self, key: &str) -> Option<Span> {
        self.table.get_key_value(key).map(|(k, _)| k.span())
    }

    /// A present key or a [`Problem::MissingKey`] error at `at`.
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
        let n = integer_value(self.src, &format!("{key} in {}", self.name), value, &range)?;
        Ok(Some((n, value.span())))
    }

    /// A facing letter `N`, `E`, `S` or `W`.
    pub fn facing(&self, key: &str) -> Read<Direction> {
        let Some((s, span)) = self.string(key)? else {
            return Ok(None);
        };
        let mut chars = s.chars();
        match (chars.next().and_then(Direction::from_letter), chars.next()) {
            (Some(d), None) => Ok(Some((d, span))),
            _ => Err(self.src.error(
                &span,
                Problem::BadFacing {
                    found: s.to_string(),
                },
            )),
        }
    }

    /// A move name `F1` `F2` `F3` `B` `L` `R` `U`.
    pub fn card_move(&self, key: &str) -> Read<Move> {
        let Some((s, span)) = self.string(key)? else {
            return Ok(None);
        };
        match Move::from_short(s) {
            Some(m) => Ok(Some((m, span))),
            None => Err(self.src.error(
                &span,
                Problem::BadMove {
                    found: s.to_string(),
                },
            )),
        }
    }

    /// A `[x, y]` pair of integers within `range` each.
    pub fn pair(&self, key: &str, range: RangeInclusive<i64>) -> Read<(i64, i64)> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let expected = "an array of two integers [x, y]";
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.wrong_type(key, value, expected));
        };
        let [x, y] = items.as_ref() else {
            return Err(self.src.error(
                &value.span(),
                Problem::WrongType {
                    key: format!("{key} in {}", self.name),
                    found: "an array of another length",
                    expected,
                },
            ));
        };
        let what = format!("{key} in {}", self.name);
        let x = integer_value(self.src, &what, x, &range)?;
        let y = integer_value(self.src, &what, y, &range)?;
        Ok(Some(((x, y), value.span())))
    }
}

/// Reads an integer value within `range`; `what` names it in messages.
pub(super) fn integer_value(
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
                expected: format!("an integer in {}..={}", range.start(), range.end()),
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
    let expected = match key {
        "robot" => "an array of tables written [[robot]]",
        "turn" => "an array of tables written [[turn]]",
        _ => "an array of tables written [[reentry]]",
    };
    let wrong = |found| {
        src.error(
            &value.span(),
            Problem::WrongType {
                key: key.to_string(),
                found,
                expected,
            },
        )
    };
    let DeValue::Array(items) = value.get_ref() else {
        return Err(wrong(type_name(value.get_ref())));
    };
    items
        .iter()
        .map(|item| match item.get_ref() {
            DeValue::Table(t) => Ok((t, item.span())),
            other => Err(src.error(
                &item.span(),
                Problem::WrongType {
                    key: key.to_string(),
                    found: type_name(other),
                    expected,
                },
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_is_one_based_and_counts_characters() {
        let src = Source {
            file: "x.toml",
            text: "a = 1\nnom = \"é\" x\n",
        };
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(4), (1, 5));
        assert_eq!(src.line_col(6), (2, 1));
        // "é" is two bytes but one column.
        let after = src.text.find(" x").map_or(0, |i| i + 1);
        assert_eq!(src.line_col(after), (2, 11));
        assert_eq!(src.line_col(1000), (3, 1));
    }
}

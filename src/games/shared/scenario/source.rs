//! Defines [`Source`]: a hand-written TOML text with its file name, and the readers of single
//! values that keep every value's byte span for `file:line:column` messages.

use super::{Located, TomlProblem};
use std::marker::PhantomData;
use std::ops::{Range, RangeInclusive};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A byte range of the text.
pub type Span = Range<usize>;

/// A TOML value with its span.
type Value<'i> = Spanned<DeValue<'i>>;

/// The text and the name to use for it in messages. `P` is the game's problem type and `E`
/// its error, so that [`Source::error`] gives the game's own error.
#[derive(Debug)]
pub struct Source<'a, P, E> {
    pub file: &'a str,
    pub text: &'a str,
    type_name: fn(&DeValue<'_>) -> &'static str,
    errors: PhantomData<fn(P) -> E>,
}

// By hand: a derive would ask `P` and `E` to be `Copy` too.
impl<P, E> Clone for Source<'_, P, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P, E> Copy for Source<'_, P, E> {}

impl<'a, P, E> Source<'a, P, E>
where
    P: From<TomlProblem>,
    E: From<Located<P>>,
{
    /// `text`, named `file` in messages.
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Source {
            file,
            text,
            type_name: crate::text::toml_type_name,
            errors: PhantomData,
        }
    }

    /// The same text, its messages calling an empty array "an empty array" rather than "an
    /// array" (for formats where a value is a list whose length matters).
    pub fn telling_empty_arrays(self) -> Self {
        Source {
            type_name: |value| match value {
                DeValue::Array(items) if items.is_empty() => "an empty array",
                other => crate::text::toml_type_name(other),
            },
            ..self
        }
    }

    /// The document, or the TOML syntax error located in the text.
    pub fn parse(&self) -> Result<Spanned<DeTable<'a>>, E> {
        DeTable::parse(self.text).map_err(|e| {
            let message = e.message().trim().to_string();
            self.error(&e.span().unwrap_or(0..0), TomlProblem::Syntax { message })
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        crate::text::line_col(self.text, offset)
    }

    /// An error at the start of `span`.
    pub fn error(&self, span: &Span, problem: impl Into<P>) -> E {
        E::from(Located::at(
            self.file,
            self.text,
            span.start,
            problem.into(),
        ))
    }

    /// The type name of a value, for "expected ..." messages.
    pub fn type_name(&self, value: &DeValue<'_>) -> &'static str {
        (self.type_name)(value)
    }

    /// A [`TomlProblem::WrongType`] error at `value`; `key` names it in the message.
    pub fn wrong_type(&self, key: &str, value: &Value<'_>, expected: &'static str) -> E {
        let found = self.type_name(value.get_ref());
        let key = key.to_string();
        self.error(
            &value.span(),
            TomlProblem::WrongType {
                key,
                found,
                expected,
            },
        )
    }

    /// An integer within `range`; `key` names it in messages.
    pub fn integer(
        &self,
        key: &str,
        value: &Value<'_>,
        range: &RangeInclusive<i64>,
    ) -> Result<i64, E> {
        let DeValue::Integer(i) = value.get_ref() else {
            return Err(self.wrong_type(key, value, "an integer"));
        };
        let out_of_range = || {
            let written = self.text.get(value.span()).unwrap_or(i.as_str());
            self.error(
                &value.span(),
                TomlProblem::OutOfRange {
                    key: key.to_string(),
                    value: written.to_string(),
                    range: format!("{}..={}", range.start(), range.end()),
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
    ) -> Result<&'v [Value<'i>], E> {
        match value.get_ref() {
            DeValue::Array(items) => Ok(&items[..]),
            _ => Err(self.wrong_type(key, value, expected)),
        }
    }

    /// The tables of an array of tables (`[[robot]]`), each with its span; `expected` says
    /// how to write it (`an array of tables written [[robot]]`).
    pub fn tables<'v, 'i>(
        &self,
        key: &str,
        value: &'v Value<'i>,
        expected: &'static str,
    ) -> Result<Vec<(&'v DeTable<'i>, Span)>, E> {
        self.array(key, value, expected)?
            .iter()
            .map(|item| match item.get_ref() {
                DeValue::Table(t) => Ok((t, item.span())),
                _ => Err(self.wrong_type(key, item, expected)),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Src<'a> = Source<'a, TomlProblem, Located<TomlProblem>>;

    #[test]
    fn line_col_is_one_based_and_counts_characters() {
        let src = Src::new("x.toml", "a = 1\nnom = \"é\" x\n");
        assert_eq!(src.line_col(0), (1, 1));
        assert_eq!(src.line_col(4), (1, 5));
        assert_eq!(src.line_col(6), (2, 1));
        // "é" is two bytes but one column.
        let after = src.text.find(" x").map_or(0, |i| i + 1);
        assert_eq!(src.line_col(after), (2, 11));
        assert_eq!(src.line_col(1000), (3, 1));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let src = Src::new("x.toml", "a = 1\nb = \"x\"\n");
        let doc = src.parse().map_err(|e| e.to_string());
        let doc = doc.unwrap_or_else(|e| panic!("{e}"));
        let b = doc.get_ref().get("b");
        let err = b.and_then(|v| src.integer("b", v, &(0..=9)).err());
        let err = err.map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("x.toml:2:5: b is a string: expected an integer")
        );
    }
}

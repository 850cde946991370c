//! Defines [`Fields`]: typed, span-keeping access to the keys of one TOML table, checked
//! against the keys its format allows.
//!
//! Unknown keys and wrong types are reported here, once for every table of every format, so
//! a game's reader only checks its own rules.

use super::{Located, Source, Span, TomlProblem};
use std::ops::RangeInclusive;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// An optional value read from a table, with the span of its value.
pub type Read<T, E> = Result<Option<(T, Span)>, E>;

/// The keys of one table.
pub struct Fields<'a, 'i, P, E> {
    src: Source<'a, P, E>,
    table: &'a DeTable<'i>,
    /// How messages name this table, e.g. `[[robot]] #2`; `None` for the unnamed top level,
    /// whose keys messages name alone.
    name: Option<String>,
}

impl<'a, 'i, P, E> Fields<'a, 'i, P, E>
where
    P: From<TomlProblem>,
    E: From<Located<P>>,
{
    /// Wraps `table`, named `name` in messages, rejecting the first key (in file order) not
    /// in `allowed`; `expected` lists the allowed keys for the message.
    pub fn new(
        src: Source<'a, P, E>,
        table: &'a DeTable<'i>,
        name: impl Into<String>,
        allowed: &[&str],
        expected: &'static str,
    ) -> Result<Self, E> {
        Self::checked(src, table, Some(name.into()), allowed, expected)
    }

    /// Like [`Fields::new`] for a file's top level when messages name its keys alone.
    pub fn top(
        src: Source<'a, P, E>,
        table: &'a DeTable<'i>,
        allowed: &[&str],
        expected: &'static str,
    ) -> Result<Self, E> {
        Self::checked(src, table, None, allowed, expected)
    }

    fn checked(
        src: Source<'a, P, E>,
        table: &'a DeTable<'i>,
        name: Option<String>,
        allowed: &[&str],
        expected: &'static str,
    ) -> Result<Self, E> {
        let unknown = table
            .iter()
            .filter(|(k, _)| !allowed.contains(&k.get_ref().as_ref()))
            .min_by_key(|(k, _)| k.span().start);
        if let Some((key, _)) = unknown {
            let problem = TomlProblem::UnknownKey {
                key: key.get_ref().to_string(),
                table: name,
                expected,
            };
            return Err(src.error(&key.span(), problem));
        }
        Ok(Fields { src, table, name })
    }

    /// The source the table was read from.
    pub fn source(&self) -> Source<'a, P, E> {
        self.src
    }

    /// How messages name `key` of this table: `x in [[robot]] #2`, or `x` at the top level.
    pub fn what(&self, key: &str) -> String {
        match &self.name {
            Some(name) => format!("{key} in {name}"),
            None => key.to_string(),
        }
    }

    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'a Spanned<DeValue<'i>>> {
        self.table.get(key)
    }

    /// The span of `key` itself (not its value), if present.
    pub fn key_span(&self, key: &str) -> Option<Span> {
        self.table.get_key_value(key).map(|(k, _)| k.span())
    }

    /// A present key, or a [`TomlProblem::MissingKey`] error at `at`.
    pub fn require<T>(
        &self,
        key: &'static str,
        value: Option<T>,
        at: &Span,
        expected: &'static str,
    ) -> Result<T, E> {
        value.ok_or_else(|| {
            let table = self.name.clone();
            let problem = TomlProblem::MissingKey {
                key,
                table,
                expected,
            };
            self.src.error(at, problem)
        })
    }

    fn wrong_type(&self, key: &str, value: &Spanned<DeValue<'_>>, expected: &'static str) -> E {
        self.src.wrong_type(&self.what(key), value, expected)
    }

    /// A string value.
    pub fn string(&self, key: &str) -> Read<&'a str, E> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.get_ref() {
            DeValue::String(s) => Ok(Some((s.as_ref(), value.span()))),
            _ => Err(self.wrong_type(key, value, "a string")),
        }
    }

    /// A boolean value.
    pub fn boolean(&self, key: &str) -> Read<bool, E> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.get_ref() {
            DeValue::Boolean(b) => Ok(Some((*b, value.span()))),
            _ => Err(self.wrong_type(key, value, "true or false")),
        }
    }

    /// An integer value within `range`.
    pub fn integer(&self, key: &str, range: RangeInclusive<i64>) -> Read<i64, E> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let n = self.src.integer(&self.what(key), value, &range)?;
        Ok(Some((n, value.span())))
    }

    /// A `[x, y]` pair of integers within `range` each.
    pub fn pair(&self, key: &str, range: RangeInclusive<i64>) -> Read<(i64, i64), E> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let expected = "an array of two integers [x, y]";
        let DeValue::Array(items) = value.get_ref() else {
            return Err(self.wrong_type(key, value, expected));
        };
        let [x, y] = items.as_ref() else {
            let problem = TomlProblem::WrongType {
                key: self.what(key),
                found: "an array of another length",
                expected,
            };
            return Err(self.src.error(&value.span(), problem));
        };
        let what = self.what(key);
        let x = self.src.integer(&what, x, &range)?;
        let y = self.src.integer(&what, y, &range)?;
        Ok(Some(((x, y), value.span())))
    }
}

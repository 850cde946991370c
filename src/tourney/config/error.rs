//! Defines the configuration errors: [`ConfigError`] (one or more [`Diagnostic`]s), the
//! [`Place`] a diagnostic points at and [`Loc`], a place in a named file.
//!
//! Configurations are written by hand or exported from spreadsheets, so every message names
//! the file, the TOML line and column or the CSV row and column, says what is wrong and what
//! was expected (`FILE:LINE:COL: what; expected ...`). Independent problems are collected so
//! one run of `lrs-tourney check` lists them all.

use crate::text::line_col;
use std::fmt;
use std::ops::Range;
use thiserror::Error;

/// Where in a file a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A 1-based line and column (in characters) of a TOML file.
    At { line: usize, column: usize },
    /// A record of a CSV file: `row` is the 1-based line where the record starts (the
    /// header is row 1); `column` is the 1-based column and its header name, when the
    /// problem is in one cell.
    Row {
        row: usize,
        column: Option<(usize, String)>,
    },
    /// The file as a whole (it cannot be read).
    File,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::At { line, column } => write!(f, ":{line}:{column}"),
            Place::Row {
                row,
                column: Some((index, name)),
            } => write!(f, " row {row}, column {index} ({name})"),
            Place::Row { row, column: None } => write!(f, " row {row}"),
            Place::File => Ok(()),
        }
    }
}

/// One problem: `FILE:LINE:COL: what; expected ...` (or `FILE row N, column C (name): ...`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}{place}: {what}; expected {expected}")]
pub struct Diagnostic {
    /// The file as named by the user (paths inside files are joined to their directory).
    pub file: String,
    pub place: Place,
    /// What is wrong, naming the offending key or value.
    pub what: String,
    /// What would be right.
    pub expected: String,
}

/// Something accepted but worth telling (`FILE row N: what`): a roster column that is
/// ignored, a file read as Windows-1252. `check` and `run` print these on stderr.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}{place}: {what}")]
pub struct Warning {
    pub file: String,
    pub place: Place,
    pub what: String,
}

/// An invalid tournament configuration: at least one [`Diagnostic`], in file order. Its
/// `Display` prints one diagnostic per line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", lines(.diagnostics))]
pub struct ConfigError {
    pub diagnostics: Vec<Diagnostic>,
}

fn lines(diagnostics: &[Diagnostic]) -> String {
    let all: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    all.join("\n")
}

impl ConfigError {
    /// The first problem.
    pub fn first(&self) -> Option<&Diagnostic> {
        self.diagnostics.first()
    }
}

impl From<Diagnostic> for ConfigError {
    fn from(d: Diagnostic) -> ConfigError {
        ConfigError {
            diagnostics: vec![d],
        }
    }
}

impl From<Vec<Diagnostic>> for ConfigError {
    fn from(diagnostics: Vec<Diagnostic>) -> ConfigError {
        ConfigError { diagnostics }
    }
}

/// A place in a named file: makes diagnostics and `origin` strings for [`Team::origin`].
///
/// [`Team::origin`]: crate::tourney::model::Team::origin
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub place: Place,
}

impl Loc {
    /// The place of byte `offset` of the TOML `text` of `file`.
    pub fn toml(file: &str, text: &str, offset: usize) -> Loc {
        let (line, column) = line_col(text, offset);
        Loc {
            file: file.to_owned(),
            place: Place::At { line, column },
        }
    }

    /// The start of `file` (for keys that are missing from it).
    pub fn start(file: &str) -> Loc {
        Loc {
            file: file.to_owned(),
            place: Place::At { line: 1, column: 1 },
        }
    }

    /// The whole of `file`.
    pub fn file(file: &str) -> Loc {
        Loc {
            file: file.to_owned(),
            place: Place::File,
        }
    }

    /// A diagnostic at this place.
    pub fn error(&self, what: impl Into<String>, expected: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: self.file.clone(),
            place: self.place.clone(),
            what: what.into(),
            expected: expected.into(),
        }
    }

    /// A warning at this place.
    pub fn warning(&self, what: impl Into<String>) -> Warning {
        Warning {
            file: self.file.clone(),
            place: self.place.clone(),
            what: what.into(),
        }
    }

    /// `file:line:column` or `file row N`, for messages that refer to another place.
    pub fn origin(&self) -> String {
        match &self.place {
            Place::Row { row, .. } => format!("{} row {row}", self.file),
            place => format!("{}{place}", self.file),
        }
    }
}

/// Byte offsets of line starts, to locate many spans of one text quickly.
#[derive(Debug)]
pub struct LineIndex<'t> {
    file: &'t str,
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(file: &'t str, text: &'t str) -> LineIndex<'t> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { file, text, starts }
    }

    /// The place of byte `offset` (1-based line and column, columns in characters).
    pub fn loc(&self, offset: usize) -> Loc {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count())
            + 1;
        Loc {
            file: self.file.to_owned(),
            place: Place::At { line, column },
        }
    }
}

/// A diagnostic for a TOML syntax or type error reported by the `toml` crate.
///
/// serde's messages read `what, expected X`; they are split at `, expected `, the key on
/// the value's line is named when the message does not say which key, and Rust type names
/// are replaced by TOML words (`i64` -> `an integer`).
pub fn toml_diagnostic(file: &str, text: &str, error: &toml::de::Error) -> Diagnostic {
    let span = error.span().unwrap_or(0..0);
    let message = error.message().trim();
    let (what, expected) = match message.split_once(", expected ") {
        Some((what, expected)) => (what.to_owned(), toml_words(expected)),
        None if message == "duplicate key" => (
            "duplicate key".to_owned(),
            "each key at most once per table".to_owned(),
        ),
        None => (
            message.to_owned(),
            "valid TOML (see docs/configuration.md)".to_owned(),
        ),
    };
    let what = what.replace("unknown field", "unknown key");
    let what = what.replace("missing field", "missing key");
    let (what, expected) = match (key_before(text, &span), header_at(text, &span)) {
        (Some(key), _) if what.starts_with("invalid") => (format!("`{key}`: {what}"), expected),
        (None, Some(header)) if what == "invalid type: map" && expected == "an array" => (
            format!("`{header}` is a single table"),
            format!("an array of tables, written [{header}] (double brackets)"),
        ),
        (None, Some(header)) if what.starts_with("invalid") => {
            (format!("`{header}`: {what}"), expected)
        }
        _ => (what, expected),
    };
    Loc::toml(file, text, span.start).error(what, expected)
}

/// serde's expectations in TOML words.
fn toml_words(expected: &str) -> String {
    match expected {
        "i64" | "u64" | "i32" | "u32" | "usize" | "u16" => "an integer".to_owned(),
        "a sequence" => "an array".to_owned(),
        "a map" | "struct" => "a table".to_owned(),
        other => other.replace("a sequence", "an array"),
    }
}

/// The key of a `key = value` line whose value starts at `span.start`, if the value is on
/// that line.
fn key_before(text: &str, span: &Range<usize>) -> Option<String> {
    let before = text.get(..span.start)?;
    let line = before.rsplit('\n').next()?;
    let key = line.trim_end().strip_suffix('=')?.trim();
    let simple = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"'));
    simple.then(|| key.to_owned())
}

/// The table header (`[school]`) on the line where `span` starts, if that line is one.
fn header_at(text: &str, span: &Range<usize>) -> Option<String> {
    let line_start = text.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let line = text.get(line_start..)?.lines().next()?;
    let header = line.split('#').next()?.trim();
    (header.starts_with('[') && header.ends_with(']')).then(|| header.to_owned())
}

/// Collects independent diagnostics, so one check reports every problem it can, and the
/// warnings of a configuration that is accepted.
#[derive(Debug, Default)]
pub struct Problems {
    diagnostics: Vec<Diagnostic>,
    warnings: Vec<Warning>,
}

impl Problems {
    pub fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    pub fn warn(&mut self, w: Warning) {
        self.warnings.push(w);
    }

    /// Keeps the value of `result`, recording its error.
    pub fn keep<T>(&mut self, result: Result<T, Diagnostic>) -> Option<T> {
        result.map_err(|d| self.push(d)).ok()
    }

    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// `Ok(value)` when nothing was recorded.
    pub fn finish<T>(self, value: T) -> Result<T, ConfigError> {
        if self.diagnostics.is_empty() {
            Ok(value)
        } else {
            Err(ConfigError::from(self.diagnostics))
        }
    }

    /// `Ok((value, warnings))` when nothing but warnings was recorded.
    pub fn finish_with_warnings<T>(self, value: T) -> Result<(T, Vec<Warning>), ConfigError> {
        let warnings = self.warnings;
        Problems {
            diagnostics: self.diagnostics,
            warnings: Vec::new(),
        }
        .finish((value, warnings))
    }
}

impl From<Problems> for ConfigError {
    fn from(p: Problems) -> ConfigError {
        ConfigError::from(p.diagnostics)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_print_like_compilers_and_spreadsheets() {
        let at = Loc::toml("t.toml", "a = 1\nb = 2\n", 6).error("bad", "good");
        assert_eq!(at.to_string(), "t.toml:2:1: bad; expected good");
        let row = Loc {
            file: "r.csv".into(),
            place: Place::Row {
                row: 4,
                column: Some((3, "bot".into())),
            },
        };
        assert_eq!(row.origin(), "r.csv row 4");
        let index = LineIndex::new("t.toml", "ab\nçd\n");
        for offset in [0, 3, 5, 99] {
            assert_eq!(index.loc(offset), Loc::toml("t.toml", "ab\nçd\n", offset));
        }
        assert_eq!(
            row.error("x", "y").to_string(),
            "r.csv row 4, column 3 (bot): x; expected y"
        );
    }

    #[test]
    fn serde_messages_name_the_key() {
        let text = "seed = \"a\"\n";
        let Err(e) = toml::from_str::<std::collections::BTreeMap<String, i64>>(text) else {
            panic!("parsed")
        };
        let d = toml_diagnostic("t.toml", text, &e);
        assert_eq!(d.place, Place::At { line: 1, column: 8 });
        assert!(d.what.starts_with("`seed`: invalid type"), "{d}");
        assert_eq!(d.expected, "an integer");
    }
}

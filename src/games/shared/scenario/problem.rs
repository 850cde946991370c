//! Defines [`TomlProblem`]: what can be wrong with the keys and values of any TOML file a
//! game reads, before its own rules are checked.

use thiserror::Error;

/// A TOML syntax error, or a key or value the format does not allow.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TomlProblem {
    #[error("invalid TOML: {message}")]
    Syntax { message: String },
    /// `table` names the table (`[[robot]] #2`); `None` for a format's unnamed top level.
    #[error("unknown key {key:?}{}: expected only {expected}", in_table(.table))]
    UnknownKey {
        key: String,
        table: Option<String>,
        expected: &'static str,
    },
    #[error("missing key {key:?}{}: expected {expected}", in_table(.table))]
    MissingKey {
        key: &'static str,
        table: Option<String>,
        expected: &'static str,
    },
    #[error("{key} is {found}: expected {expected}")]
    WrongType {
        key: String,
        found: &'static str,
        expected: &'static str,
    },
    /// `range` is written `low..=high`.
    #[error("{key} = {value} is out of range: expected an integer in {range}")]
    OutOfRange {
        key: String,
        value: String,
        range: String,
    },
}

/// ` in TABLE`, or nothing at the unnamed top level.
fn in_table(table: &Option<String>) -> String {
    table.as_ref().map_or(String::new(), |t| format!(" in {t}"))
}

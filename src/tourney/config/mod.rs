//! Defines the tournament configuration reader: [`load_tournament`] turns a tournament file
//! (docs/configuration.md), its bracket format and roster CSV into a checked [`Tournament`].
//!
//! Like ripgrep's low/high arguments, a configuration is checked completely and once, before
//! anything is planned, played or written: every problem is reported with its file and
//! line:column (TOML) or row and column (CSV), what is wrong and what was expected.
//!
//! Where docs/configuration.md is silent: school and team names are compared ignoring case and
//! surrounding spaces (and a school name that differs from another only in accents, spaces or
//! case is an error); roster `dir`s are relative to the roster file; a `database` holding
//! `://` is a URL (`postgres://` or `postgresql://` a PostgreSQL database, `sqlite://` a file;
//! any other scheme is an error); `dir` and `protocol` on a built-in AI are errors; every
//! key of a bracket file is required and `advance_per_set` is at most half of `set_size`
//! (so every round is smaller than the one before). Roster CSV: `,`, `;` or tab separated
//! (whichever finds the most column names in the header), UTF-8 with or without a
//! byte-order mark, UTF-16 with one, anything else read as Windows-1252 with a warning;
//! header names in any order and any case, spaces around them ignored, `school`, `team` and
//! `bot` required, `dir` and `protocol` columns optional (and empty cells mean "absent"),
//! other columns ignored with a warning, empty header cells after the last name ignored;
//! rows of empty cells skipped; "row N" is the line where the record starts, the header
//! being row 1. Warnings reach the user through [`load_tournament_with_warnings`].

mod bracket;
mod error;
mod file;
mod numbers;
mod roster;
mod slug;
mod summary;
mod teams;

pub use bracket::{
    BUILTIN_BRACKET, BUILTIN_BRACKET_FILE, builtin_bracket, load_bracket, parse_bracket,
};
pub use error::{ConfigError, Diagnostic, Loc, Place, Warning};
pub use file::{parse_tournament, parse_tournament_with_warnings};
pub use roster::COLUMNS as ROSTER_COLUMNS;
pub use roster::sniff_delimiter as roster_delimiter;
pub use slug::{slugify, unique_slugs};
pub use summary::{check_summary, stage_rounds};
pub use teams::builtin_names;

use crate::tourney::model::Tournament;
use std::path::Path;

/// A checked tournament and the warnings of reading it: things accepted but worth telling
/// the organiser (ignored roster columns, a roster read as Windows-1252).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub tournament: Tournament,
    pub warnings: Vec<Warning>,
}

/// Reads and checks the tournament file at `path` (see [`parse_tournament`]).
pub fn load_tournament(path: &Path) -> Result<Tournament, ConfigError> {
    load_tournament_with_warnings(path).map(|loaded| loaded.tournament)
}

/// [`load_tournament`], with the warnings of an accepted configuration (`check` and `run`
/// print them).
pub fn load_tournament_with_warnings(path: &Path) -> Result<Loaded, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Loc::file(&path.display().to_string()).error(
            format!("cannot read the tournament file ({e})"),
            "a readable TOML tournament file (docs/configuration.md)",
        )
    })?;
    parse_tournament_with_warnings(&text, path)
}

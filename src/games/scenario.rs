//! Runs a scenario file of any game: its top-level `game` key (none: the default game) picks
//! the game, whose own reader checks the rest and runs it.
//!
//! A game's scenario errors are its own types (its rules' messages, located at
//! `file:line:column`); here they travel as a [`ScenarioFailure`], so a new game brings its
//! errors with it and the dispatch never changes.

use super::GameKind;
use super::shared::scenario::{Located, Source, TomlProblem};
use std::path::Path;
use thiserror::Error;
use toml::de::{DeTable, DeValue};

/// Why a scenario file could not be read, checked or run: the game's own error, whose
/// message names the file and, where there is one, the line and column.
pub type ScenarioFailure = Box<dyn std::error::Error + Send + Sync>;

/// What can be wrong with a scenario file's `game` key.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameKeyProblem {
    #[error(transparent)]
    Toml(#[from] TomlProblem),
    #[error("unknown game {found:?}: expected {expected}")]
    UnknownGame { found: String, expected: String },
    #[error("game is {found}: expected a string naming a game: {expected}")]
    NotAName {
        found: &'static str,
        expected: String,
    },
}

/// A scenario file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{file}: cannot read scenario file: {reason}")]
pub struct UnreadableScenario {
    pub file: String,
    pub reason: String,
}

/// Checks and runs the scenario file at `path` and gives its outcome as JSON.
pub fn run_scenario_file(path: &Path) -> Result<serde_json::Value, ScenarioFailure> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| UnreadableScenario {
        file: file.clone(),
        reason: e.to_string(),
    })?;
    let base_dir = path.parent().unwrap_or(Path::new("."));
    scenario_game(&text, &file)?
        .game()
        .run_scenario(&text, &file, base_dir)
}

/// The known `game` values, for messages: `"lrs" (the default), "robotgame" or "robots"`.
fn known_games() -> String {
    let names: Vec<String> = GameKind::all()
        .map(|k| {
            if k.is_default() {
                format!("{:?} (the default)", k.id())
            } else {
                format!("{:?}", k.id())
            }
        })
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The game named by `text`'s `game` key. A file that is not valid TOML is left to the
/// default game's reader, which says where.
pub fn scenario_game(text: &str, file: &str) -> Result<GameKind, Located<GameKeyProblem>> {
    let Ok(doc) = DeTable::parse(text) else {
        return Ok(GameKind::default());
    };
    let src: Source<'_, GameKeyProblem, Located<GameKeyProblem>> = Source::new(file, text);
    let Some(value) = doc.get_ref().get("game") else {
        return Ok(GameKind::default());
    };
    match value.get_ref() {
        DeValue::String(s) => GameKind::parse(s).map_err(|_| {
            src.error(
                &value.span(),
                GameKeyProblem::UnknownGame {
                    found: s.to_string(),
                    expected: known_games(),
                },
            )
        }),
        other => Err(src.error(
            &value.span(),
            GameKeyProblem::NotAName {
                found: src.type_name(other),
                expected: known_games(),
            },
        )),
    }
}

//! Picks the game a scenario file is for, from its top-level `game` key: no key, or
//! `game = "lrs"`, is a Last Robot Standing scenario; `game = "robotgame"` a RobotGame one;
//! `game = "robots"` a Robots one.
//!
//! This is the whole dispatch between game kinds for scenarios, kept here and small until
//! games sit behind one common interface.

use super::ScenarioError;
use super::error::Problem;
use super::source::{Source, type_name};
use toml::de::{DeTable, DeValue};

/// The game kinds a scenario can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScenarioGame {
    Lrs,
    RobotGame,
    Robots,
}

/// The known `game` values, for messages.
pub(super) const KNOWN_GAMES: &str = "\"lrs\" (the default), \"robotgame\" or \"robots\"";

/// The game named by `text`'s `game` key. A file that is not valid TOML is left to the LRS
/// parser, whose messages for it are unchanged.
pub fn scenario_game(text: &str, file: &str) -> Result<ScenarioGame, ScenarioError> {
    let Ok(doc) = DeTable::parse(text) else {
        return Ok(ScenarioGame::Lrs);
    };
    let src = Source { file, text };
    let Some(value) = doc.get_ref().get("game") else {
        return Ok(ScenarioGame::Lrs);
    };
    match value.get_ref() {
        DeValue::String(s) if s == "lrs" => Ok(ScenarioGame::Lrs),
        DeValue::String(s) if s == "robotgame" => Ok(ScenarioGame::RobotGame),
        DeValue::String(s) if s == "robots" => Ok(ScenarioGame::Robots),
        DeValue::String(s) => Err(src.error(
            &value.span(),
            Problem::UnknownGame {
                found: s.to_string(),
                expected: KNOWN_GAMES,
            },
        )),
        other => Err(src.error(
            &value.span(),
            Problem::WrongType {
                key: "game".to_string(),
                found: type_name(other),
                expected: "a string: \"lrs\", \"robotgame\" or \"robots\"",
            },
        )),
    }
}

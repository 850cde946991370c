//! Picks the game a scenario file is for, from its top-level `game` key: no key, or
//! `game = "lrs"`, is a Last Robot Standing scenario; `game = "robotgame"` a RobotGame one;
//! `game = "robots"` a Robots one.
//!
//! The names are [`GameKind`]'s, the one list of games.

use super::ScenarioError;
use super::error::Problem;
use super::source::Source;
use crate::games::GameKind;
use toml::de::{DeTable, DeValue};

/// The game kind a scenario is written for.
pub type ScenarioGame = GameKind;

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

/// The game named by `text`'s `game` key. A file that is not valid TOML is left to the LRS
/// parser, whose messages for it are unchanged.
pub fn scenario_game(text: &str, file: &str) -> Result<ScenarioGame, ScenarioError> {
    let Ok(doc) = DeTable::parse(text) else {
        return Ok(ScenarioGame::default());
    };
    let src = Source::new(file, text);
    let Some(value) = doc.get_ref().get("game") else {
        return Ok(ScenarioGame::default());
    };
    match value.get_ref() {
        DeValue::String(s) => GameKind::parse(s).map_err(|_| {
            src.error(
                &value.span(),
                Problem::UnknownGame {
                    found: s.to_string(),
                    expected: known_games(),
                },
            )
        }),
        _ => Err(src.wrong_type(
            "game",
            value,
            "a string: \"lrs\", \"robotgame\" or \"robots\"",
        )),
    }
}

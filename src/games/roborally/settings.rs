//! RoboRally's `[game]` settings (RR16.1): the boards cycled game by game and the turn
//! limit, as a bracket file gives them and as the store keeps them.

use crate::games::settings::table;
use crate::games::{GameKind, GameSettings, SettingsProblem};
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The default turn limit (RR3).
pub const DEFAULT_TURNS: u16 = 30;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoboRallySettings {
    pub boards: Vec<String>,
    pub max_turns: u16,
}

impl Default for RoboRallySettings {
    fn default() -> RoboRallySettings {
        RoboRallySettings {
            boards: super::boards::SHIPPED.map(|(n, _)| n.to_string()).to_vec(),
            max_turns: DEFAULT_TURNS,
        }
    }
}

impl RoboRallySettings {
    pub fn into_game(self) -> GameSettings {
        GameSettings::of(GameKind::of(&super::kind::RoboRally), &self)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[allow(dead_code)]
    id: String,
    boards: Option<Spanned<Vec<Spanned<String>>>>,
    max_turns: Option<Spanned<i64>>,
}

/// Reads the `[game]` table of `text`, every board loaded and every value checked.
pub(super) fn read_table(text: &str) -> Result<RoboRallySettings, SettingsProblem> {
    let t: Table = table(text, "roborally settings: boards, max_turns")?;
    let mut s = RoboRallySettings::default();
    if let Some(m) = t.max_turns {
        if !(1..=100).contains(m.get_ref()) {
            return Err(SettingsProblem {
                offset: Some(m.span().start),
                what: format!("`max_turns` = {} is out of range", m.get_ref()),
                expected: "an integer from 1 to 100".to_string(),
            });
        }
        s.max_turns = *m.get_ref() as u16;
    }
    if let Some(boards) = t.boards {
        if boards.get_ref().is_empty() {
            return Err(SettingsProblem {
                offset: Some(boards.span().start),
                what: "`boards` is empty".to_string(),
                expected: format!("board names ({}) or board files", super::boards::names()),
            });
        }
        for b in boards.get_ref() {
            let board = super::boards::load(b.get_ref()).map_err(|what| SettingsProblem {
                offset: Some(b.span().start),
                what,
                expected: format!("a RoboRally board: {}", super::boards::names()),
            })?;
            if board.starts().len() < super::engine::MAX_SEATS {
                return Err(SettingsProblem {
                    offset: Some(b.span().start),
                    what: format!(
                        "board {} has {} start squares",
                        b.get_ref(),
                        board.starts().len()
                    ),
                    expected: "a start square for each of 8 seats".to_string(),
                });
            }
        }
        s.boards = boards
            .into_inner()
            .into_iter()
            .map(Spanned::into_inner)
            .collect();
    }
    Ok(s)
}

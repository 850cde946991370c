//! RoboRally's `[game]` settings (RR16.1): the boards cycled game by game and the turn
//! limit, as a bracket file gives them and as the store keeps them.

use crate::games::SettingsProblem;
use crate::games::settings::{integer_in, table};
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
    if let Some(m) = integer_in(&t.max_turns, "max_turns", 1..=100)? {
        s.max_turns = m as u16;
    }
    if let Some(boards) = t.boards {
        s.boards = super::boards::BOARDS.read_names("boards", boards, |board, name| {
            let starts = board.starts().len();
            if starts < super::engine::MAX_SEATS {
                let what = format!("board {name} has {starts} start squares");
                return Err((what, "a start square for each of 8 seats".to_string()));
            }
            Ok(())
        })?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(table: &str) -> SettingsProblem {
        let text = format!("[game]\nid = \"roborally\"\n{table}\n");
        read_table(&text).expect_err("a bad table")
    }

    /// Every board is checked where it is written, and an empty list or a turn count out of
    /// range is told with what is expected.
    #[test]
    fn boards_and_max_turns_are_checked_where_written() {
        let s = read_table("[game]\nid = \"roborally\"\nboards = [\"twin-lanes\"]\n").unwrap();
        assert_eq!(s.boards, ["twin-lanes"]);
        let p = problem("boards = []");
        assert_eq!(p.what, "`boards` is empty");
        assert!(
            p.expected.starts_with("board names (dock-sprint, "),
            "{p:?}"
        );
        assert!(p.expected.ends_with(") or board files"), "{p:?}");
        let p = problem("boards = [\"dock-sprint\", \"nowhere\"]");
        // At the opening quote of "nowhere", after `[game]`, the id and `boards = ["dock-sprint", `.
        assert_eq!(p.offset, Some(7 + 17 + 25));
        assert!(
            p.expected.starts_with("a RoboRally board: dock-sprint, "),
            "{p:?}"
        );
        let p = problem("max_turns = 101");
        assert_eq!(p.what, "`max_turns` = 101 is out of range");
        assert_eq!(p.expected, "an integer from 1 to 100");
    }
}

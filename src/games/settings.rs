//! Defines [`GameSettings`]: the game a tournament plays with its settings, as a bracket
//! file gives them and as the store keeps them (inside the bracket format's JSON).
//!
//! A bracket file names its game in one of two ways: `game = "robots"` (that game with its
//! default settings), or a `[game]` table with `id = "robots"` and the game's own keys.
//! (TOML cannot hold both a `game` key and a `[game]` table, so the table carries the id.)
//! Each game reads its own table here; the configuration layer only places the problems
//! in the file.

use super::GameKind;
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The game of a tournament and its settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "id")]
pub enum GameSettings {
    /// Last Robot Standing. Its settings are the bracket's top-level `boards` and
    /// `turns_per_game`, where the Windward format always had them.
    #[default]
    #[serde(rename = "lrs")]
    Lrs,
    /// RobotGame: the one arena and 100 turns (RG1, RG2); nothing to set.
    #[serde(rename = "robotgame")]
    RobotGame,
    /// Robots: board size, start level and turn limit (RB1).
    #[serde(rename = "robots")]
    Robots(RobotsSettings),
}

/// Robots' settings as stored (see [`crate::games::robots::Settings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotsSettings {
    pub width: u16,
    pub height: u16,
    pub start_level: u8,
    pub max_turns: u32,
}

impl RobotsSettings {
    pub fn engine(self) -> crate::games::robots::Settings {
        crate::games::robots::Settings {
            width: self.width,
            height: self.height,
            start_level: self.start_level,
            max_turns: self.max_turns,
        }
    }
}

impl Default for RobotsSettings {
    fn default() -> RobotsSettings {
        let s = crate::games::robots::Settings::default();
        RobotsSettings {
            width: s.width,
            height: s.height,
            start_level: s.start_level,
            max_turns: s.max_turns,
        }
    }
}

/// A problem with a `[game]` table: where (a byte offset into the file, when known), what
/// and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsProblem {
    pub offset: Option<usize>,
    pub what: String,
    pub expected: String,
}

impl GameSettings {
    /// Whether this is Last Robot Standing (serde's `skip_serializing_if`).
    pub fn is_lrs(&self) -> bool {
        *self == GameSettings::Lrs
    }

    pub fn kind(&self) -> GameKind {
        match self {
            GameSettings::Lrs => GameKind::of(&super::lrs::kind::Lrs),
            GameSettings::RobotGame => GameKind::of(&super::robotgame::kind::RobotGame),
            GameSettings::Robots(_) => GameKind::of(&super::robots::kind::Robots),
        }
    }

    /// The settings `game = "ID"` means.
    pub fn default_for(kind: GameKind) -> GameSettings {
        kind.game().default_settings()
    }

    /// The most turns one game lasts.
    pub fn turns(&self, lrs_turns: u16) -> u32 {
        match self {
            GameSettings::Lrs => u32::from(lrs_turns),
            GameSettings::RobotGame => u32::from(crate::games::robotgame::engine::TURNS),
            GameSettings::Robots(s) => s.max_turns,
        }
    }

    /// The settings in one line, for summaries and configuration comparisons.
    pub fn describe(&self) -> String {
        match self {
            GameSettings::Lrs => "lrs".to_string(),
            GameSettings::RobotGame => "robotgame (the 19x19 arena, 100 turns)".to_string(),
            GameSettings::Robots(s) => format!(
                "robots ({}x{} boards, from level {}, at most {} turns)",
                s.width, s.height, s.start_level, s.max_turns
            ),
        }
    }

    /// Reads the `[game]` table of the bracket file `text` for `kind` (its `id` already
    /// read). Keys of another game, or unknown ones, are problems.
    pub fn from_table(kind: GameKind, text: &str) -> Result<GameSettings, SettingsProblem> {
        kind.game().settings_from_table(text)
    }
}

/// The file's `game` table, other keys of the file ignored.
#[derive(Deserialize)]
struct Doc<T> {
    game: T,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IdOnly {
    #[allow(dead_code)]
    id: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RobotsTable {
    #[allow(dead_code)]
    id: String,
    width: Option<Spanned<i64>>,
    height: Option<Spanned<i64>>,
    start_level: Option<Spanned<i64>>,
    max_turns: Option<Spanned<i64>>,
}

fn table<T: for<'de> Deserialize<'de>>(text: &str, expected: &str) -> Result<T, SettingsProblem> {
    toml::from_str::<Doc<T>>(text)
        .map(|d| d.game)
        .map_err(|e| SettingsProblem {
            offset: e.span().map(|s| s.start),
            what: e.message().trim().to_string(),
            expected: expected.to_string(),
        })
}

/// Checks that the `[game]` table of `text` holds its `id` alone (`expected` says why).
pub(in crate::games) fn no_settings(text: &str, expected: &str) -> Result<(), SettingsProblem> {
    table::<IdOnly>(text, expected).map(|_| ())
}

pub(in crate::games) fn robots_table(text: &str) -> Result<RobotsSettings, SettingsProblem> {
    let t: RobotsTable = table(
        text,
        "robots settings: width, height, start_level, max_turns",
    )?;
    let mut s = RobotsSettings::default();
    let int = |v: &Option<Spanned<i64>>, key: &str, range: std::ops::RangeInclusive<i64>| match v {
        None => Ok(None),
        Some(v) if range.contains(v.get_ref()) => Ok(Some(*v.get_ref())),
        Some(v) => Err(SettingsProblem {
            offset: Some(v.span().start),
            what: format!("`{key}` = {} is out of range", v.get_ref()),
            expected: format!("an integer from {} to {}", range.start(), range.end()),
        }),
    };
    let side = 2..=i64::from(crate::games::robots::board::MAX_SIDE);
    if let Some(w) = int(&t.width, "width", side.clone())? {
        s.width = w as u16;
    }
    if let Some(h) = int(&t.height, "height", side)? {
        s.height = h as u16;
    }
    let last = i64::from(crate::games::robots::board::LAST_LEVEL);
    if let Some(l) = int(&t.start_level, "start_level", 1..=last)? {
        s.start_level = l as u8;
    }
    let most = i64::from(crate::games::robots::board::MAX_TURNS);
    if let Some(m) = int(&t.max_turns, "max_turns", 1..=most)? {
        s.max_turns = m as u32;
    }
    // The board must hold a level's robots: the game's own check, placed at the size.
    let setup = crate::games::robots::Setup {
        seats: 1,
        seed: 0,
        settings: s.engine(),
    };
    if let Err(e) = crate::games::robots::Game::new(&setup) {
        return Err(SettingsProblem {
            offset: t
                .width
                .as_ref()
                .or(t.height.as_ref())
                .map(|v| v.span().start),
            what: e.to_string(),
            expected: "a larger board".to_string(),
        });
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robots_tables_are_read_and_checked() {
        let text = "name = \"x\"\n[game]\nid = \"robots\"\nstart_level = 3\nwidth = 40\n";
        let s = GameSettings::from_table(GameKind::parse("robots").unwrap(), text).unwrap();
        let GameSettings::Robots(r) = s else { panic!() };
        assert_eq!((r.start_level, r.width, r.height), (3, 40, 22));
        let bad = "[game]\nid = \"robots\"\nstart_level = 30\n";
        let p = GameSettings::from_table(GameKind::parse("robots").unwrap(), bad).unwrap_err();
        assert_eq!(p.what, "`start_level` = 30 is out of range");
        assert_eq!(p.offset, Some(bad.find("30").unwrap()));
        let unknown = "[game]\nid = \"robotgame\"\nspeed = 3\n";
        let p =
            GameSettings::from_table(GameKind::parse("robotgame").unwrap(), unknown).unwrap_err();
        assert!(p.what.contains("unknown field `speed`"), "{p:?}");
    }

    #[test]
    fn settings_round_trip_through_json() {
        for s in [
            GameSettings::Lrs,
            GameSettings::RobotGame,
            GameSettings::Robots(RobotsSettings::default()),
        ] {
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<GameSettings>(&json).unwrap(), s);
        }
    }
}

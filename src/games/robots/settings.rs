//! Robots' `[game]` settings: board size, start level and turn limit (docs/robots.md), as
//! a bracket file gives them and as the store keeps them.

use crate::games::SettingsProblem;
use crate::games::settings::{integer_in as int, table};
use serde::{Deserialize, Serialize};
use toml::Spanned;

/// Robots' settings as stored (see [`super::Settings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobotsSettings {
    pub width: u16,
    pub height: u16,
    pub start_level: u8,
    pub max_turns: u32,
}

impl RobotsSettings {
    pub fn engine(self) -> super::Settings {
        super::Settings {
            width: self.width,
            height: self.height,
            start_level: self.start_level,
            max_turns: self.max_turns,
        }
    }
}

impl Default for RobotsSettings {
    fn default() -> RobotsSettings {
        let s = super::Settings::default();
        RobotsSettings {
            width: s.width,
            height: s.height,
            start_level: s.start_level,
            max_turns: s.max_turns,
        }
    }
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

/// Reads the `[game]` table of the bracket file `text`, every value checked and located.
pub(super) fn robots_table(text: &str) -> Result<RobotsSettings, SettingsProblem> {
    let t: RobotsTable = table(
        text,
        "robots settings: width, height, start_level, max_turns",
    )?;
    let mut s = RobotsSettings::default();
    let side = 2..=i64::from(super::board::MAX_SIDE);
    if let Some(w) = int(&t.width, "width", side.clone())? {
        s.width = w as u16;
    }
    if let Some(h) = int(&t.height, "height", side)? {
        s.height = h as u16;
    }
    let last = i64::from(super::board::LAST_LEVEL);
    if let Some(l) = int(&t.start_level, "start_level", 1..=last)? {
        s.start_level = l as u8;
    }
    let most = i64::from(super::board::MAX_TURNS);
    if let Some(m) = int(&t.max_turns, "max_turns", 1..=most)? {
        s.max_turns = m as u32;
    }
    // The board must hold a level's robots: the game's own check, placed at the size.
    let setup = super::Setup {
        seats: 1,
        seed: 0,
        settings: s.engine(),
    };
    if let Err(e) = super::Game::new(&setup) {
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
    use crate::games::{GameKind, GameSettings, TypedGame};

    #[test]
    fn robots_tables_are_read_and_checked() {
        let robots = GameKind::parse("robots").unwrap();
        let text = "name = \"x\"\n[game]\nid = \"robots\"\nstart_level = 3\nwidth = 40\n";
        let s = GameSettings::from_table(robots, text).unwrap();
        let r: RobotsSettings = s.read().unwrap();
        assert_eq!((r.start_level, r.width, r.height), (3, 40, 22));
        let bad = "[game]\nid = \"robots\"\nstart_level = 30\n";
        let p = GameSettings::from_table(robots, bad).unwrap_err();
        assert_eq!(p.what, "`start_level` = 30 is out of range");
        assert_eq!(p.offset, Some(bad.find("30").unwrap()));
        let unknown = "[game]\nid = \"robotgame\"\nspeed = 3\n";
        let p =
            GameSettings::from_table(GameKind::parse("robotgame").unwrap(), unknown).unwrap_err();
        assert!(p.what.contains("unknown field `speed`"), "{p:?}");
    }

    #[test]
    fn settings_round_trip_through_json_in_the_stored_form() {
        let robots = crate::games::robots::kind::Robots::carried(&RobotsSettings::default());
        let json = serde_json::to_string(&robots).unwrap();
        assert_eq!(
            json,
            r#"{"id":"robots","width":59,"height":22,"start_level":1,"max_turns":1000}"#
        );
        assert_eq!(serde_json::from_str::<GameSettings>(&json).unwrap(), robots);
        for kind in GameKind::all() {
            let s = GameSettings::default_for(kind);
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(serde_json::from_str::<GameSettings>(&json).unwrap(), s);
        }
    }
}

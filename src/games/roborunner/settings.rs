//! Robo Runner's `[game]` settings (RN1): the ships cycled game by game, the turn limit,
//! lives, hull damage and the options, as a bracket file gives them and as the store keeps
//! them.

use crate::games::SettingsProblem;
use crate::games::settings::{integer_in, table};
use serde::{Deserialize, Serialize};
use toml::Spanned;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunnerSettings {
    pub ships: Vec<String>,
    pub turns: u16,
    pub lives: u8,
    pub hull_damage: bool,
    pub equipment: bool,
    pub scanners: u8,
}

impl Default for RunnerSettings {
    fn default() -> RunnerSettings {
        RunnerSettings {
            ships: super::ships::SHIPPED[..2]
                .iter()
                .map(|(n, _)| n.to_string())
                .collect(),
            turns: 30,
            lives: 3,
            hull_damage: true,
            equipment: false,
            scanners: 0,
        }
    }
}

impl RunnerSettings {
    pub fn rules(&self) -> super::engine::Rules {
        super::engine::Rules {
            turns: self.turns,
            lives: self.lives,
            hull_damage: self.hull_damage,
            equipment: self.equipment,
            scanners: self.scanners,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    #[allow(dead_code)]
    id: String,
    ships: Option<Spanned<Vec<Spanned<String>>>>,
    turns: Option<Spanned<i64>>,
    lives: Option<Spanned<i64>>,
    hull_damage: Option<bool>,
    equipment: Option<bool>,
    scanners: Option<Spanned<i64>>,
}

/// Reads the `[game]` table of `text`, every ship loaded and every value checked.
pub(super) fn read_table(text: &str) -> Result<RunnerSettings, SettingsProblem> {
    let t: Table = table(
        text,
        "roborunner settings: ships, turns, lives, hull_damage, equipment, scanners",
    )?;
    let mut s = RunnerSettings::default();
    if let Some(n) = integer_in(&t.turns, "turns", 1..=200)? {
        s.turns = n as u16;
    }
    if let Some(n) = integer_in(&t.lives, "lives", 1..=9)? {
        s.lives = n as u8;
    }
    let most = super::engine::MAX_SCANNERS as i64;
    if let Some(n) = integer_in(&t.scanners, "scanners", 0..=most)? {
        s.scanners = n as u8;
    }
    if let Some(e) = t.equipment {
        s.equipment = e;
    }
    if let Some(h) = t.hull_damage {
        s.hull_damage = h;
    }
    if let Some(ships) = t.ships {
        s.ships = super::ships::SHIPS.read_names("ships", ships, |_, _| Ok(()))?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RN1: equipment and 0..4 scanners are read; a count out of range is placed where
    /// it is written.
    #[test]
    fn equipment_and_scanners_are_read_and_checked() {
        let s =
            read_table("[game]\nid = \"roborunner\"\nequipment = true\nscanners = 4\n").unwrap();
        assert!(s.equipment);
        assert_eq!(s.scanners, 4);
        assert!(s.rules().equipment);
        assert_eq!(s.rules().scanners, 4);
        let text = "[game]\nid = \"roborunner\"\nscanners = 5\n";
        let problem = read_table(text).unwrap_err();
        assert_eq!(problem.offset, text.find('5'));
        assert!(problem.what.contains("out of range"), "{}", problem.what);
        assert!(read_table("[game]\nid = \"roborunner\"\nscanners = -1\n").is_err());
    }
}

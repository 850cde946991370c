//! Robots on the game seam: what the orchestrator may ask of it.

use super::settings::RobotsSettings;
use crate::games::{Arena, Game, GameFacts, SettingsProblem, TieStep, TypedGame};

/// Robots.
pub struct Robots;

static FACTS: GameFacts = GameFacts {
    id: "robots",
    title: "Robots",
    seats: 1..=super::game::MAX_SEATS,
    engine_version: super::ENGINE_VERSION,
    score_rule: "kills minus turns (docs/robots.md)",
    best_builtin: "dodger",
    statistics: &["levels_cleared", "kills", "turns"],
    tie_steps: &[
        TieStep::more("levels_cleared", 0, "levels cleared"),
        TieStep::more("kills", 1, "kills"),
    ],
    viewer: Some(super::play::VIEWER),
};

impl Game for Robots {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn arenas(&self) -> String {
        let s = super::Settings::default();
        format!(
            "one {}x{} board per seat, the same levels for all",
            s.width, s.height
        )
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        super::BuiltinAi::table()
    }

    fn run_scenario(
        &self,
        text: &str,
        file: &str,
        _base_dir: &std::path::Path,
    ) -> Result<serde_json::Value, crate::games::ScenarioFailure> {
        Ok(super::scenario::run_scenario_str(text, file)?)
    }
}

impl TypedGame for Robots {
    type Settings = RobotsSettings;
    const GAME: &'static Robots = &Robots;

    fn read_table(&self, text: &str) -> Result<RobotsSettings, SettingsProblem> {
        super::settings::robots_table(text)
    }

    fn describe(&self, s: &RobotsSettings) -> String {
        format!(
            "robots ({}x{} boards, from level {}, at most {} turns)",
            s.width, s.height, s.start_level, s.max_turns
        )
    }

    fn turn_limit(&self, s: &RobotsSettings, _pool_turns: u16) -> u32 {
        s.max_turns
    }

    fn arena_names(&self, s: &RobotsSettings, _boards: &[String]) -> Vec<String> {
        vec![format!("{}x{}", s.width, s.height)]
    }

    fn load(&self, s: &RobotsSettings, _name: &str, _turns: u16) -> Result<Arena, String> {
        Ok(Arena::new(super::play::RobotsArena(*s)))
    }
}

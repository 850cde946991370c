//! RobotGame on the game seam: what the orchestrator may ask of it.

use crate::games::{Arena, Game, GameFacts, GameKind, GameSettings, SettingsProblem, TieStep};

/// RobotGame.
pub struct RobotGame;

static FACTS: GameFacts = GameFacts {
    id: "robotgame",
    title: "RobotGame",
    seats: 2..=super::engine::MAX_SEATS,
    engine_version: super::ENGINE_VERSION,
    score_rule: "robots alive at the end of a game",
    best_builtin: "hunter",
    statistics: &["damage_dealt", "kills"],
    tie_steps: &[
        TieStep::more("damage_dealt", 0, "damage dealt"),
        TieStep::more("kills", 1, "kills"),
    ],
    viewer: Some(super::play::VIEWER),
};

impl Game for RobotGame {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn arenas(&self) -> String {
        "the 19x19 round arena (225 squares, 48 spawn squares)".into()
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

    fn default_settings(&self) -> GameSettings {
        GameSettings::of(GameKind::of(&RobotGame), &())
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        crate::games::settings::no_settings(
            text,
            "robotgame takes no settings: one arena, 100 turns",
        )?;
        Ok(self.default_settings())
    }

    fn describe_settings(&self, _settings: &GameSettings) -> String {
        "robotgame (the 19x19 arena, 100 turns)".to_string()
    }

    fn max_turns(&self, _settings: &GameSettings, _pool_turns: u16) -> u32 {
        u32::from(super::engine::TURNS)
    }

    fn arena_pool(&self, _settings: &GameSettings, _boards: &[String]) -> Vec<String> {
        vec!["arena".to_string()]
    }

    fn load_arena(
        &self,
        _settings: &GameSettings,
        _name: &str,
        _turns: u16,
    ) -> Result<Arena, String> {
        Ok(Arena::new(super::play::RobotGameArena))
    }
}

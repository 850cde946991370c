//! RobotGame on the game seam: what the orchestrator may ask of it.

use crate::games::{Arena, Game, GameFacts, NoSettings, SettingsProblem, TieStep, TypedGame};

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
}

impl TypedGame for RobotGame {
    type Settings = NoSettings;
    const GAME: &'static RobotGame = &RobotGame;

    fn read_table(&self, text: &str) -> Result<NoSettings, SettingsProblem> {
        crate::games::settings::no_settings(
            text,
            "robotgame takes no settings: one arena, 100 turns",
        )?;
        Ok(NoSettings {})
    }

    fn describe(&self, _settings: &NoSettings) -> String {
        "robotgame (the 19x19 arena, 100 turns)".to_string()
    }

    fn turn_limit(&self, _settings: &NoSettings, _pool_turns: u16) -> u32 {
        u32::from(super::engine::TURNS)
    }

    fn arena_names(&self, _settings: &NoSettings, _boards: &[String]) -> Vec<String> {
        vec!["arena".to_string()]
    }

    fn load(&self, _settings: &NoSettings, _name: &str, _turns: u16) -> Result<Arena, String> {
        Ok(Arena::new(super::play::RobotGameArena))
    }
}

//! RobotGame on the game seam: what the orchestrator may ask of it.

use crate::games::{Arena, Better, Game, GameKind, GameSettings, SettingsProblem, TieStep};

/// RobotGame.
pub struct RobotGame;

const TIE_STEPS: [TieStep; 2] = [
    TieStep {
        name: "damage_dealt",
        stat: 0,
        better: Better::More,
        noun: "damage dealt",
    },
    TieStep {
        name: "kills",
        stat: 1,
        better: Better::More,
        noun: "kills",
    },
];

impl Game for RobotGame {
    fn id(&self) -> &'static str {
        "robotgame"
    }

    fn title(&self) -> &'static str {
        "RobotGame"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        2..=super::engine::MAX_SEATS
    }

    fn engine_version(&self) -> u32 {
        super::ENGINE_VERSION
    }

    fn arenas(&self) -> String {
        "the 19x19 round arena (225 squares, 48 spawn squares)".into()
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        super::BuiltinAi::table()
    }

    fn score_rule(&self) -> &'static str {
        "robots alive at the end of a game"
    }

    fn best_builtin(&self) -> &'static str {
        "hunter"
    }

    fn statistics(&self) -> &'static [&'static str] {
        &["damage_dealt", "kills"]
    }

    fn tie_steps(&self) -> &'static [TieStep] {
        &TIE_STEPS
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

//! RobotGame on the game seam: what the orchestrator may ask of it.

use crate::games::{Better, BuiltinBot, Game, GameSettings, SettingsProblem, TieStep};

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
        super::BuiltinAi::ALL
            .iter()
            .map(|ai| (ai.name(), ai.summary()))
            .collect()
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
    ) -> Result<serde_json::Value, crate::games::lrs::scenario::ScenarioError> {
        Ok(super::scenario::run_scenario_str(text, file)?)
    }

    fn builtin(&self, name: &str) -> Option<BuiltinBot> {
        super::BuiltinAi::from_name(name).map(BuiltinBot::RobotGame)
    }

    fn default_settings(&self) -> GameSettings {
        GameSettings::RobotGame
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        crate::games::settings::no_settings(
            text,
            "robotgame takes no settings: one arena, 100 turns",
        )?;
        Ok(GameSettings::RobotGame)
    }
}

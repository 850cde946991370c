//! Robots on the game seam: what the orchestrator may ask of it.

use crate::games::{
    Better, BuiltinBot, Game, GameSettings, RobotsSettings, SettingsProblem, TieStep,
};

/// Robots.
pub struct Robots;

const TIE_STEPS: [TieStep; 2] = [
    TieStep {
        name: "levels_cleared",
        stat: 0,
        better: Better::More,
        noun: "levels cleared",
    },
    TieStep {
        name: "kills",
        stat: 1,
        better: Better::More,
        noun: "kills",
    },
];

impl Game for Robots {
    fn id(&self) -> &'static str {
        "robots"
    }

    fn title(&self) -> &'static str {
        "Robots"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        1..=super::game::MAX_SEATS
    }

    fn engine_version(&self) -> u32 {
        super::ENGINE_VERSION
    }

    fn arenas(&self) -> String {
        let s = super::Settings::default();
        format!(
            "one {}x{} board per seat, the same levels for all",
            s.width, s.height
        )
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        super::BuiltinAi::ALL
            .iter()
            .map(|ai| (ai.name(), ai.summary()))
            .collect()
    }

    fn best_builtin(&self) -> &'static str {
        "dodger"
    }

    fn statistics(&self) -> &'static [&'static str] {
        &["levels_cleared", "kills", "turns"]
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
        super::BuiltinAi::from_name(name).map(BuiltinBot::Robots)
    }

    fn default_settings(&self) -> GameSettings {
        GameSettings::Robots(RobotsSettings::default())
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        crate::games::settings::robots_table(text).map(GameSettings::Robots)
    }
}

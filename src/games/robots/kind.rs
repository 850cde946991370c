//! Robots on the game seam: what the orchestrator may ask of it.

use super::settings::RobotsSettings;
use crate::games::{Arena, Better, Game, GameSettings, SettingsProblem, TieStep};

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
        super::BuiltinAi::table()
    }

    fn score_rule(&self) -> &'static str {
        "kills minus turns (docs/robots.md)"
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
    ) -> Result<serde_json::Value, crate::games::ScenarioFailure> {
        Ok(super::scenario::run_scenario_str(text, file)?)
    }

    fn default_settings(&self) -> GameSettings {
        RobotsSettings::default().into_game()
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        super::settings::robots_table(text).map(RobotsSettings::into_game)
    }

    fn describe_settings(&self, settings: &GameSettings) -> String {
        match settings.read::<RobotsSettings>() {
            Ok(s) => format!(
                "robots ({}x{} boards, from level {}, at most {} turns)",
                s.width, s.height, s.start_level, s.max_turns
            ),
            Err(e) => e,
        }
    }

    fn max_turns(&self, settings: &GameSettings, _pool_turns: u16) -> u32 {
        settings
            .read::<RobotsSettings>()
            .map_or(super::board::MAX_TURNS, |s| s.max_turns)
    }

    fn arena_pool(&self, settings: &GameSettings, _boards: &[String]) -> Vec<String> {
        let s: RobotsSettings = settings.read().unwrap_or_default();
        vec![format!("{}x{}", s.width, s.height)]
    }

    fn load_arena(
        &self,
        settings: &GameSettings,
        _name: &str,
        _turns: u16,
    ) -> Result<Arena, String> {
        Ok(Arena::new(super::play::RobotsArena(settings.read()?)))
    }
}

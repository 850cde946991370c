//! Robo Runner on the game seam: what the orchestrator may ask of it.

use super::settings::{RunnerSettings, read_table};
use crate::games::kind::ShippedArena;
use crate::games::{Arena, ArenaFlags, Game, GameFacts, SettingsProblem, TieStep, TypedGame};

/// Robo Runner.
pub struct RoboRunner;

static FACTS: GameFacts = GameFacts {
    id: "roborunner",
    title: "Robo Runner",
    seats: 2..=super::engine::MAX_SEATS,
    engine_version: super::ENGINE_VERSION,
    score_rule: "10 an inspection, 30/20/12/6/3 for the finish places, 5 a kill, 1 a weld (docs/roborunner.md)",
    best_builtin: "runner",
    statistics: &["inspections", "finishes", "kills", "welds", "deaths"],
    // RN14.3: after score and games won, more inspections, then fewer deaths.
    tie_steps: &[
        TieStep::more("inspections", 0, "inspections"),
        TieStep::fewer("fewer_deaths", 4, "deaths"),
    ],
    viewer: Some(super::view::VIEWER),
};

impl Game for RoboRunner {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn arenas(&self) -> String {
        format!("ships: {}", super::ships::SHIPS.names())
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        super::ai::BuiltinAi::table()
    }

    fn arena_label(&self, name: &str) -> String {
        format!("ship {name}")
    }

    fn run_scenario(
        &self,
        text: &str,
        file: &str,
        base_dir: &std::path::Path,
    ) -> Result<serde_json::Value, crate::games::ScenarioFailure> {
        Ok(super::scenario::run_scenario_str(text, file, base_dir)?)
    }

    fn play_arena(&self, flags: ArenaFlags<'_>) -> Result<(Arena, String), String> {
        let name = flags.board.unwrap_or(super::ships::SHIPPED[0].0);
        let ship = super::ships::load(name)?;
        let mut rules = RunnerSettings::default().rules();
        if let Some(turns) = flags.turns {
            if !(1..=200).contains(&turns) {
                return Err("--turns must be 1 to 200 for roborunner".to_string());
            }
            rules.turns = turns;
        }
        let title = ship.name.clone();
        Ok((Arena::new(super::play::RunnerArena { ship, rules }), title))
    }

    fn shipped_arenas(&self) -> Vec<ShippedArena> {
        super::ships::SHIPS.arenas()
    }

    fn show_arena(&self, name: &str) -> Result<String, String> {
        super::ships::SHIPS.show(name)
    }
}

impl TypedGame for RoboRunner {
    type Settings = RunnerSettings;
    const GAME: &'static RoboRunner = &RoboRunner;

    fn read_table(&self, text: &str) -> Result<RunnerSettings, SettingsProblem> {
        read_table(text)
    }

    fn describe(&self, s: &RunnerSettings) -> String {
        format!(
            "roborunner (ships {}, at most {} turns, {} lives, hull damage {})",
            s.ships.join(", "),
            s.turns,
            s.lives,
            if s.hull_damage { "on" } else { "off" }
        )
    }

    fn turn_limit(&self, s: &RunnerSettings, _pool_turns: u16) -> u32 {
        u32::from(s.turns)
    }

    fn arena_names(&self, s: &RunnerSettings, _boards: &[String]) -> Vec<String> {
        s.ships.clone()
    }

    fn load(&self, s: &RunnerSettings, name: &str, _turns: u16) -> Result<Arena, String> {
        let ship = super::ships::load(name)?;
        Ok(Arena::new(super::play::RunnerArena {
            ship,
            rules: s.rules(),
        }))
    }
}

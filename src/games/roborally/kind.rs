//! Classic RoboRally on the game seam: what the orchestrator may ask of it.

use super::settings::{RoboRallySettings, read_table};
use crate::games::kind::ShippedArena;
use crate::games::{Arena, ArenaFlags, Game, GameFacts, SettingsProblem, TieStep, TypedGame};

/// Classic RoboRally.
pub struct RoboRally;

static FACTS: GameFacts = GameFacts {
    id: "roborally",
    title: "RoboRally (classic)",
    seats: 2..=super::engine::MAX_SEATS,
    engine_version: super::ENGINE_VERSION,
    score_rule: "10 a flag, 30 the finish, up to 9 for nearness to the next target (docs/roborally.md)",
    best_builtin: "racer",
    statistics: &["finishes", "checkpoints", "hits", "deaths"],
    // RR12.3: after score and games won, more finishes, more checkpoints, fewer deaths.
    tie_steps: &[
        TieStep::more("finishes", 0, "finishes"),
        TieStep::more("checkpoints", 1, "checkpoints"),
        TieStep::fewer("fewer_deaths", 3, "deaths"),
    ],
    viewer: Some(super::view::VIEWER),
};

impl Game for RoboRally {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn arenas(&self) -> String {
        format!("12x12 boards: {}", super::boards::BOARDS.names())
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        super::ai::BuiltinAi::table()
    }

    fn arena_label(&self, name: &str) -> String {
        format!("board {name}")
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
        let name = flags.board.unwrap_or(super::boards::SHIPPED[0].0);
        let board = super::boards::load(name)?;
        flags.check_starts(&board.name, board.starts().len())?;
        let max_turns = flags.turns.unwrap_or(super::settings::DEFAULT_TURNS);
        if !(1..=100).contains(&max_turns) {
            return Err("--turns must be 1 to 100 for roborally".to_string());
        }
        let title = board.name.clone();
        Ok((
            Arena::new(super::play::RoboRallyArena { board, max_turns }),
            title,
        ))
    }

    fn shipped_arenas(&self) -> Vec<ShippedArena> {
        super::boards::BOARDS.arenas()
    }

    fn show_arena(&self, name: &str) -> Result<String, String> {
        super::boards::BOARDS.show(name)
    }
}

impl TypedGame for RoboRally {
    type Settings = RoboRallySettings;
    const GAME: &'static RoboRally = &RoboRally;

    fn read_table(&self, text: &str) -> Result<RoboRallySettings, SettingsProblem> {
        read_table(text)
    }

    fn describe(&self, s: &RoboRallySettings) -> String {
        format!(
            "roborally (boards {}, at most {} turns)",
            s.boards.join(", "),
            s.max_turns
        )
    }

    fn turn_limit(&self, s: &RoboRallySettings, _pool_turns: u16) -> u32 {
        u32::from(s.max_turns)
    }

    fn arena_names(&self, s: &RoboRallySettings, _boards: &[String]) -> Vec<String> {
        s.boards.clone()
    }

    fn load(&self, s: &RoboRallySettings, name: &str, _turns: u16) -> Result<Arena, String> {
        let board = super::boards::load(name)?;
        Ok(Arena::new(super::play::RoboRallyArena {
            board,
            max_turns: s.max_turns,
        }))
    }
}

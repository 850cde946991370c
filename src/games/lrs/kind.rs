//! Last Robot Standing on the game seam: what the orchestrator may ask of it.

use crate::games::lrs::engine::{ENGINE_VERSION, MAX_PLAYERS, MIN_PLAYERS};
use crate::games::{
    Arena, ArenaFlags, ArenaPool, Game, GameFacts, NoSettings, SettingsProblem, ShippedArena,
    TieStep, TypedGame,
};
use std::path::Path;

/// Last Robot Standing (its engine is `crate::games::lrs::engine`).
pub struct Lrs;

static FACTS: GameFacts = GameFacts {
    id: "lrs",
    title: "Last Robot Standing",
    seats: MIN_PLAYERS..=MAX_PLAYERS,
    engine_version: ENGINE_VERSION,
    score_rule: "points for flags, pushes and survival (docs/rules.md)",
    best_builtin: "runner",
    statistics: &["flags", "hits", "pushes", "push_kills", "deaths"],
    tie_steps: &[
        TieStep::more("flags", 0, "flags"),
        TieStep::fewer("fewer_deaths", 4, "deaths"),
    ],
    viewer: Some(super::view::VIEWER),
};

impl Game for Lrs {
    fn facts(&self) -> &'static GameFacts {
        &FACTS
    }

    fn arenas(&self) -> String {
        let names: Vec<&str> = crate::games::lrs::boards::shipped_boards()
            .iter()
            .map(|b| b.file_name.trim_end_matches(".toml"))
            .collect();
        format!("boards: {} (or a board file)", names.join(", "))
    }

    fn builtin_ais(&self) -> Vec<(&'static str, &'static str)> {
        crate::games::lrs::ai::BuiltinAi::table()
    }

    fn arena_label(&self, name: &str) -> String {
        format!("board {name}")
    }

    fn run_scenario(
        &self,
        text: &str,
        file: &str,
        base_dir: &Path,
    ) -> Result<serde_json::Value, crate::games::ScenarioFailure> {
        Ok(super::scenario::run_scenario_str(text, file, base_dir)?)
    }

    fn play_arena(&self, flags: ArenaFlags<'_>) -> Result<(Arena, String), String> {
        let name = flags.board.ok_or_else(|| {
            format!(
                "--board is required for {} games (`lrs-tourney boards` lists them)",
                FACTS.id
            )
        })?;
        let board = super::boards::load_board(name).map_err(|e| e.to_string())?;
        flags.check_starts(board.name(), board.starts().len())?;
        let turns = flags.turns.unwrap_or(60);
        if turns == 0 {
            return Err("--turns must be at least 1".to_string());
        }
        let title = board.name().to_string();
        Ok((Arena::new(super::play::LrsArena::of(board, turns)), title))
    }

    fn shipped_arenas(&self) -> Vec<ShippedArena> {
        super::boards::shipped_boards()
            .iter()
            .filter_map(|b| {
                let board = b.board().ok()?;
                Some(ShippedArena {
                    name: b.stem().to_string(),
                    title: board.name().to_string(),
                    size: format!("{}x{}", board.width(), board.height()),
                    about: board.description().to_string(),
                })
            })
            .collect()
    }

    fn show_arena(&self, name: &str) -> Result<String, String> {
        let board = super::boards::load_board(name).map_err(|e| e.to_string())?;
        Ok(super::boards::render_board(&board))
    }

    fn speaks_windward(&self) -> bool {
        true
    }

    fn pool(&self) -> Option<&dyn ArenaPool> {
        Some(&Boards)
    }
}

impl TypedGame for Lrs {
    type Settings = NoSettings;
    const GAME: &'static Lrs = &Lrs;

    fn read_table(&self, text: &str) -> Result<NoSettings, SettingsProblem> {
        crate::games::settings::no_settings(
            text,
            "lrs takes no keys in [game]: its boards and turns_per_game are top-level keys",
        )?;
        Ok(NoSettings {})
    }

    fn describe(&self, _settings: &NoSettings) -> String {
        "lrs".to_string()
    }

    fn turn_limit(&self, _settings: &NoSettings, pool_turns: u16) -> u32 {
        u32::from(pool_turns)
    }

    fn arena_names(&self, _settings: &NoSettings, boards: &[String]) -> Vec<String> {
        boards.to_vec()
    }

    fn load(&self, _settings: &NoSettings, name: &str, turns: u16) -> Result<Arena, String> {
        let board = super::boards::load_board(name).map_err(|e| e.to_string())?;
        Ok(Arena::new(super::play::LrsArena::of(board, turns)))
    }
}

/// Last Robot Standing's arena pool: its shipped boards and board files.
struct Boards;

impl ArenaPool for Boards {
    fn entry(
        &self,
        entry: &str,
        dir: Option<&Path>,
        seats: i64,
    ) -> Result<String, SettingsProblem> {
        super::board_entry(entry, dir, seats)
    }

    fn names(&self) -> String {
        super::shipped_board_names()
    }

    fn fingerprint(&self, entry: &str) -> String {
        super::board_fingerprint(entry)
    }

    fn same_entry(&self, a: &str, b: &str) -> bool {
        super::same_board(a, b)
    }
}

//! Last Robot Standing on the game seam: what the orchestrator may ask of it.

use crate::games::{
    Arena, ArenaPool, Better, Game, GameKind, GameSettings, SettingsProblem, ShippedArena, TieStep,
};
use std::path::Path;

/// Last Robot Standing (its engine is `crate::games::lrs::engine`).
pub struct Lrs;

const TIE_STEPS: [TieStep; 2] = [
    TieStep {
        name: "flags",
        stat: 0,
        better: Better::More,
        noun: "flags",
    },
    TieStep {
        name: "fewer_deaths",
        stat: 4,
        better: Better::Fewer,
        noun: "deaths",
    },
];

impl Game for Lrs {
    fn id(&self) -> &'static str {
        "lrs"
    }

    fn title(&self) -> &'static str {
        "Last Robot Standing"
    }

    fn seats(&self) -> std::ops::RangeInclusive<usize> {
        crate::games::lrs::engine::MIN_PLAYERS..=crate::games::lrs::engine::MAX_PLAYERS
    }

    fn engine_version(&self) -> u32 {
        crate::games::lrs::engine::ENGINE_VERSION
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

    fn score_rule(&self) -> &'static str {
        "points for flags, pushes and survival (docs/rules.md)"
    }

    fn best_builtin(&self) -> &'static str {
        "runner"
    }

    fn statistics(&self) -> &'static [&'static str] {
        &["flags", "hits", "pushes", "push_kills", "deaths"]
    }

    fn tie_steps(&self) -> &'static [TieStep] {
        &TIE_STEPS
    }

    fn default_settings(&self) -> GameSettings {
        GameSettings::of(GameKind::of(&Lrs), &())
    }

    fn settings_from_table(&self, text: &str) -> Result<GameSettings, SettingsProblem> {
        crate::games::settings::no_settings(
            text,
            "lrs takes no keys in [game]: its boards and turns_per_game are top-level keys",
        )?;
        Ok(self.default_settings())
    }

    fn describe_settings(&self, _settings: &GameSettings) -> String {
        "lrs".to_string()
    }

    fn max_turns(&self, _settings: &GameSettings, pool_turns: u16) -> u32 {
        u32::from(pool_turns)
    }

    fn arena_pool(&self, _settings: &GameSettings, boards: &[String]) -> Vec<String> {
        boards.to_vec()
    }

    fn load_arena(
        &self,
        _settings: &GameSettings,
        name: &str,
        turns: u16,
    ) -> Result<Arena, String> {
        let board = super::boards::load_board(name).map_err(|e| e.to_string())?;
        Ok(Arena::new(super::play::LrsArena::of(board, turns)))
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

    fn play_arena(
        &self,
        board: Option<&str>,
        turns: Option<u16>,
        bots: usize,
    ) -> Result<(Arena, String), String> {
        let name = board.ok_or_else(|| {
            format!(
                "--board is required for {} games (`lrs-tourney boards` lists them)",
                self.id()
            )
        })?;
        let board = super::boards::load_board(name).map_err(|e| e.to_string())?;
        if board.starts().len() < bots {
            return Err(format!(
                "board {:?} has {} start squares, too few for {bots} bots",
                board.name(),
                board.starts().len()
            ));
        }
        let turns = turns.unwrap_or(60);
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

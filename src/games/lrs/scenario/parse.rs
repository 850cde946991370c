//! Parses a scenario file into a checked [`Scenario`]: the top-level keys, then the board,
//! the robots and the script.
//!
//! The TOML is read as a spanned document (`toml::de::DeTable`) rather than through serde
//! derives, so that every message can point at the exact key or value and say what was
//! expected there.

use super::ScenarioError;
use super::error::Problem;
use super::layout::load_board;
use super::model::Scenario;
use super::robots::parse_robots;
use super::script::{parse_reentries, parse_turns};
use super::source::{Fields, Source};
use std::path::Path;

const TOP_KEYS: &[&str] = &[
    "game",
    "grid",
    "board",
    "first_turn",
    "seed",
    "robot",
    "turn",
    "reentry",
];
const TOP_EXPECTED: &str =
    "game, grid or board, first_turn, seed, [[robot]], [[turn]] and [[reentry]]";

/// The last turn of a game (R3), hence the latest a scenario may start at.
const LAST_TURN: i64 = 60;

/// Parses and checks scenario `text`; `file` names it in messages and `base_dir` is where
/// `board = "..."` paths start.
pub fn parse_scenario(text: &str, file: &str, base_dir: &Path) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::new(src, doc, "the scenario", TOP_KEYS, TOP_EXPECTED)?;
    if let Some((game, span)) = top.string("game")?
        && game != "lrs"
    {
        let found = game.to_string();
        let expected = "\"lrs\" here (other games are run by run_scenario_file)".to_string();
        return Err(src.error(&span, Problem::UnknownGame { found, expected }));
    }
    let board = load_board(src, &top, base_dir)?;
    let first_turn = top
        .integer("first_turn", 1..=LAST_TURN)?
        .map_or(1, |(n, _)| n as u16);
    let seed = top
        .integer("seed", 0..=i64::MAX)?
        .map_or(0, |(n, _)| n as u64);
    let robots = parse_robots(src, doc, &board)?;
    let turns = parse_turns(src, doc, &robots)?;
    let reentries = parse_reentries(src, doc, &robots)?;
    Ok(Scenario {
        file: file.to_string(),
        board,
        first_turn,
        seed,
        names: robots.iter().map(|r| r.name.clone()).collect(),
        robots: robots.into_iter().map(|r| r.robot).collect(),
        turns,
        reentries,
    })
}

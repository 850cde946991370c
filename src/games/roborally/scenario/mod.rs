//! RoboRally scenarios (RR16.2): a TOML file that places robots on a grid by hand and
//! writes every turn's programs, and the JSON outcome (RR16.3) the rules tests compare.
//!
//! Nothing is dealt and nothing is drawn: the outcome depends on the file alone. The
//! pipeline is parse (every problem located at `file:line:column`), run, output.

mod parse;

pub use parse::{Problem, ScenarioError, parse_scenario};

use super::board::Board;
use super::engine::{Game, Pending, Robot, Scripted, StartReply, card_json};
use crate::games::shared::grid::{Direction, Pos};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;

/// A re-entry answer written in the file (`[[reentry]]`): the square (default: the first
/// offered) and the facing (default north).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reentry {
    pub seat: usize,
    pub at: Option<Pos>,
    pub facing: Direction,
}

/// A checked scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub file: String,
    pub board: Arc<Board>,
    pub names: Vec<String>,
    pub robots: Vec<Robot>,
    pub registers: u8,
    /// Per turn, per seat.
    pub turns: Vec<Vec<Option<Scripted>>>,
    pub reentries: Vec<Reentry>,
}

/// The most turns a scenario may write.
pub const MAX_TURNS: u16 = 100;

/// Plays the scenario's turns until they run out or the game ends (RR11).
pub fn run(s: &Scenario) -> Result<Game, ScenarioError> {
    let engine = ScenarioError::engine(&s.file);
    let mut game = Game::scripted(s.board.clone(), s.robots.clone(), s.registers, MAX_TURNS)
        .map_err(engine)?;
    let mut used = vec![false; s.reentries.len()];
    let mut turns = s.turns.iter().peekable();
    loop {
        match game.pending() {
            // A turn the file does not write is not begun, re-entry included.
            Pending::Start(_) if turns.peek().is_none() => return Ok(game),
            Pending::Start(queries) => {
                let replies: Vec<StartReply> = queries
                    .iter()
                    .map(|q| {
                        let written = (0..s.reentries.len())
                            .find(|&i| !used[i] && s.reentries[i].seat == q.seat);
                        match written {
                            Some(i) => {
                                used[i] = true;
                                let r = &s.reentries[i];
                                StartReply::Choice {
                                    at: r.at.unwrap_or(q.options[0]),
                                    facing: r.facing,
                                }
                            }
                            None => StartReply::Choice {
                                at: q.options[0],
                                facing: Direction::North,
                            },
                        }
                    })
                    .collect();
                game.answer_start(&replies).map_err(engine)?;
            }
            Pending::Cards => match turns.next() {
                Some(programs) => game.play_scripted(programs).map_err(engine)?,
                None => return Ok(game),
            },
            Pending::Program(_) | Pending::Over => return Ok(game),
        }
    }
}

/// The outcome as RR16.3 writes it.
pub fn to_json(s: &Scenario, game: &Game) -> Value {
    let name = |seat: usize| Value::from(s.names[seat].as_str());
    let robots: Vec<Value> = game
        .robots()
        .iter()
        .enumerate()
        .map(|(seat, r)| {
            let mut v = super::protocol::robot_json(seat, r);
            let fields = v.as_object_mut().expect("a robot is an object");
            fields.shift_remove("seat");
            fields.shift_insert(0, "name".to_string(), s.names[seat].as_str().into());
            let locked: Vec<Value> = r.locked_cards().iter().map(|c| card_json(*c)).collect();
            fields.insert("locked".to_string(), locked.into());
            fields.insert("score".to_string(), game.score(seat).into());
            v
        })
        .collect();
    json!({
        "game": "roborally",
        "turns_played": game.turns_played(),
        "game_over": game.is_over(),
        "winner": game.finisher().map_or(Value::Null, name),
        "robots": robots,
        "events": game.events().iter().map(|e| e.to_json(&name)).collect::<Vec<_>>(),
    })
}

/// Checks and runs scenario `text`; `file` names it, `base_dir` is where `board` paths
/// start.
pub fn run_scenario_str(text: &str, file: &str, base_dir: &Path) -> Result<Value, ScenarioError> {
    let scenario = parse_scenario(text, file, base_dir)?;
    let game = run(&scenario)?;
    Ok(to_json(&scenario, &game))
}

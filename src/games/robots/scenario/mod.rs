//! Defines Robots scenarios (RB7): a TOML file that sets a board by hand and names the
//! moves of every turn, and the JSON outcome the rules tests compare.
//!
//! Scenarios pin down one rule at a time. The pipeline is parse (spanned TOML -> a checked
//! [`Scenario`], every problem located at `file:line:column`), run (one board, the file's
//! moves as its submissions) and output (JSON).

mod error;
mod output;
mod parse;
mod source;

pub use error::{Problem, ScenarioError};
pub use parse::parse_scenario;

use super::board::{Board, Position};
use super::types::{Answer, Event, Move, Status};

/// A checked scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub file: String,
    pub position: Position,
    /// The seed of the teleport generator.
    pub seed: u64,
    /// Per turn, its moves (an empty turn is a malformed answer).
    pub turns: Vec<Vec<Move>>,
}

/// A scenario after its turns: the board and every event.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub board: Board,
    pub events: Vec<Event>,
}

/// Plays the scenario's turns until they run out, the level is completed, or the player
/// dies or quits.
pub fn run(scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    let engine = ScenarioError::engine(&scenario.file);
    let mut board = Board::from_position(&scenario.position, scenario.seed).map_err(engine)?;
    let mut events = Vec::new();
    for moves in &scenario.turns {
        if board.status() != Status::Playing {
            break;
        }
        board.play_turn(Answer::Moves(moves)).map_err(engine)?;
        events.extend_from_slice(board.events());
    }
    Ok(Outcome { board, events })
}

/// Checks and runs scenario `text`; `file` names it in messages.
pub fn run_scenario_str(text: &str, file: &str) -> Result<serde_json::Value, ScenarioError> {
    let scenario = parse_scenario(text, file)?;
    Ok(run(&scenario)?.to_json())
}

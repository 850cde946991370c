//! Runs a checked [`Scenario`] on the engine and keeps the final game as an [`Outcome`].
//!
//! The engine runs every phase of R3 except dealing; this module only answers its questions:
//! the cards of each `[[turn]]`, and re-entry choices from the `[[reentry]]` tables. A choice
//! that is not among the options offered is handed to the engine unchanged, so the engine
//! itself records the fault and falls back (R13.4).

use super::ScenarioError;
use super::model::{ReentryChoice, Scenario};
use crate::games::lrs::engine::{
    Direction, Fault, Game, GameConfig, GameError, Pending, StartQuery, StartReply,
};

/// The state after a scenario: the game and how many turns it played.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Robot names by seat.
    pub names: Vec<String>,
    pub game: Game,
    /// Turns executed: all of the file's turns, or fewer if the game ended (R12).
    pub turns_played: usize,
}

/// Plays the scenario's turns in order until they run out or the game is over.
pub fn run(scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    let engine = |error: GameError| ScenarioError::Engine {
        file: scenario.file.clone(),
        error,
    };
    let mut game = Game::scenario(
        scenario.board.clone(),
        scenario.robots.clone(),
        scenario.first_turn,
        scenario.seed,
        GameConfig::default(),
    )
    .map_err(engine)?;
    let mut consumed = vec![false; scenario.reentries.len()];
    let mut turns_played = 0;
    loop {
        match game.pending() {
            // Re-entry opens the next turn; with no turn left the scenario is over.
            Pending::Start(_) | Pending::Cards if turns_played == scenario.turns.len() => break,
            Pending::Start(queries) => {
                let replies: Vec<StartReply> = queries
                    .iter()
                    .map(|q| reply(q, &scenario.reentries, &mut consumed))
                    .collect();
                game.answer_start(&replies).map_err(engine)?;
            }
            Pending::Cards => {
                game.play_cards(&scenario.turns[turns_played])
                    .map_err(engine)?;
                turns_played += 1;
            }
            Pending::Over => break,
            Pending::Turn(_) => {
                return Err(engine(GameError::WrongPhase(
                    "a scenario",
                    "dealt hands (scenarios never deal)",
                )));
            }
        }
    }
    Ok(Outcome {
        names: scenario.names.clone(),
        game,
        turns_played,
    })
}

/// The reply to one re-entry query: the robot's next unconsumed `[[reentry]]` entry, with
/// the first option and NORTH for whatever it leaves out (or for a robot with no entry left).
fn reply(q: &StartQuery, choices: &[ReentryChoice], consumed: &mut [bool]) -> StartReply {
    let entry = choices
        .iter()
        .zip(consumed.iter_mut())
        .find(|(c, used)| c.seat == q.seat && !**used);
    let choice = entry.map(|(c, used)| {
        *used = true;
        *c
    });
    let pos = choice
        .and_then(|c| c.pos)
        .or_else(|| q.options.first().copied());
    let facing = choice.and_then(|c| c.facing).unwrap_or(Direction::North);
    match pos {
        Some(pos) => StartReply::Choose { pos, facing },
        // The engine never asks without an option; answer like a bot with nothing to say.
        None => StartReply::Fault(Fault::Invalid),
    }
}

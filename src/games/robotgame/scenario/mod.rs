//! Defines RobotGame scenarios (RG8): a TOML file that places robots, names every robot's
//! action turn by turn, and the JSON outcome the rules tests compare.
//!
//! Scenarios pin down one rule at a time. The pipeline is parse (spanned TOML -> a checked
//! [`Scenario`], every problem located at `file:line:column`), run (the engine, with the
//! file's actions as the seats' answers) and output (JSON).

mod error;
mod output;
mod parse;
mod source;

pub use error::{Problem, ScenarioError};
pub use parse::parse_scenario;

use super::engine::{Game, Setup};
use super::types::{Action, Answer, Command, Event, RobotId};

/// A checked scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    pub file: String,
    pub setup: Setup,
    /// Per turn, the actions in file order. Robots not named guard (RG2.3).
    pub turns: Vec<Vec<(RobotId, Action)>>,
}

/// A scenario after its turns: the game and every event.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub game: Game,
    pub events: Vec<Event>,
}

/// Plays the scenario's turns; turns after turn 99 are not played.
pub fn run(scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    let engine = ScenarioError::engine(&scenario.file);
    let mut game = Game::new(&scenario.setup).map_err(engine)?;
    let seats = usize::from(game.seats());
    let mut events = Vec::new();
    let mut commands: Vec<Vec<Command>> = vec![Vec::new(); seats];
    for turn in &scenario.turns {
        if game.is_over() {
            break;
        }
        commands.iter_mut().for_each(Vec::clear);
        for &(robot, action) in turn {
            // A dead or unknown robot's action is ignored (RG8).
            if let Some(r) = game.robot(robot).filter(|r| r.alive) {
                commands[r.seat.index()].push(Command { robot, action });
            }
        }
        let answers: Vec<Answer<'_>> = commands.iter().map(|c| Answer::Actions(c)).collect();
        events.extend_from_slice(game.step(&answers).map_err(engine)?);
    }
    Ok(Outcome { game, events })
}

/// Checks and runs scenario `text`; `file` names it in messages.
pub fn run_scenario_str(text: &str, file: &str) -> Result<serde_json::Value, ScenarioError> {
    let scenario = parse_scenario(text, file)?;
    Ok(run(&scenario)?.to_json())
}

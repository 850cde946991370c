//! Defines [`trace`]: a game of Robots rebuilt turn by turn from its setup and decision log,
//! as the JSON replay that `play --game robots --replay DIR` writes and the viewer draws.
//!
//! Made by replaying the log, never by recording the game as it was played: what a replay
//! shows is what the log reproduces.

use super::board::{Board, GameError};
use super::game::{Game, Setup};
use super::log::DecisionLog;
use super::protocol::xy;
use super::types::{Answer, Status};
use serde_json::{Value, json};

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Playing => "playing",
        Status::LevelDone => "level done",
        Status::Dead => "dead",
        Status::Quit => "quit",
        Status::Cleared => "cleared",
        Status::OutOfTurns => "out of turns",
    }
}

fn board_json(board: &Board, score: i64) -> Value {
    json!({
        "level": board.level(),
        "you": board.player().map_or(Value::Null, xy),
        "robots": board.robots().into_iter().map(xy).collect::<Vec<_>>(),
        "heaps": board.heaps().into_iter().map(xy).collect::<Vec<_>>(),
        "kills": board.kills(),
        "teleports": board.teleports(),
        "levels_cleared": board.levels_cleared(),
        "score": score,
        "status": status_name(board.status()),
    })
}

fn boards_json(game: &Game) -> Vec<Value> {
    let scores = game.scores();
    game.boards()
        .iter()
        .zip(scores)
        .map(|(b, s)| board_json(b, s))
        .collect()
}

/// The whole game as JSON: `width`, `height`, `start` (each seat's board before turn 1),
/// and `steps`, one per turn: `turn`, `moves` by seat (the move names it submitted, or
/// `timeout` / `crash` / `malformed` for a forced pass, `null` for a seat no longer
/// playing) and `boards` after the turn (`level`, `you`, `robots`, `heaps`, `kills`,
/// `teleports`, `levels_cleared`, `score`, `status`); then the final `scores`.
pub fn trace(setup: &Setup, log: &DecisionLog) -> Result<Value, GameError> {
    let mut game = Game::new(setup)?;
    let start = boards_json(&game);
    let seats = usize::from(game.seats());
    let mut steps = Vec::with_capacity(log.turns());
    for i in 0..log.turns() {
        let Some(turn) = log.turn(i) else { break };
        let mut moves = vec![Value::Null; seats];
        for (seat, answer) in turn.answers() {
            moves[seat.index()] = match answer {
                Answer::Moves(m) => json!(m.iter().map(|m| m.name()).collect::<Vec<_>>()),
                Answer::Silent(s) => json!(format!("{s:?}").to_lowercase()),
            };
        }
        game.replay_turn(&turn)?;
        steps.push(json!({"turn": turn.turn, "moves": moves, "boards": boards_json(&game)}));
    }
    let first = game.boards().first();
    Ok(json!({
        "game": "robots",
        "seed": setup.seed,
        "engine_version": super::ENGINE_VERSION,
        "width": first.map_or(0, Board::width),
        "height": first.map_or(0, Board::height),
        "start": start,
        "steps": steps,
        "scores": game.scores(),
    }))
}

//! Replays: a stored game rebuilt turn by turn from its seed, board, seat count and decision
//! log (the replies the engine consumed, `store::decisions`), without any bot. The engine is
//! a function of those, so the replay is the game; its final scores are checked against the
//! stored result lines, and a difference (another engine version, a corrupt file) is an
//! error, never a silent wrong replay.

use crate::engine::{Board, Event, Game, GameConfig, Pending, Robot, StartReply, TurnReply};
use crate::store::decisions::{self, Reply};
use serde::Serialize;
use std::sync::Arc;
use thiserror::Error;

/// The state after one turn, and what happened in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplayStep {
    /// The turn just played (from 1).
    pub turn: u16,
    /// Every robot after the turn, by seat.
    pub robots: Vec<Robot>,
    /// The turn's events (moves' consequences, hits, pushes, flags, faults), in order.
    pub events: Vec<Event>,
}

/// A whole game, replayed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// The robots once every start position was chosen, before turn 1.
    pub start: Vec<Robot>,
    pub steps: Vec<ReplayStep>,
    /// Final score by seat.
    pub scores: Vec<i32>,
}

/// Why a stored game cannot be replayed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ReplayError {
    #[error(transparent)]
    Corrupt(#[from] decisions::CorruptDecisions),
    #[error(
        "the decision log does not fit the game: {0} (was it played by another engine version?)"
    )]
    Mismatch(String),
    #[error("the engine refused the game: {0}")]
    Engine(String),
}

/// Replays the game of `seats` players on `board` with `seed` and `turn_limit` from its
/// encoded decision log.
pub fn replay(
    board: Arc<Board>,
    seats: usize,
    seed: u64,
    turn_limit: u16,
    log: &[u8],
) -> Result<Replay, ReplayError> {
    let replies = decisions::decode(log)?;
    let mut next = replies.into_iter();
    let mut game = Game::new(board, seats, seed, GameConfig { turn_limit })
        .map_err(|e| ReplayError::Engine(e.to_string()))?;
    let mut start = None;
    let mut steps = Vec::new();
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                let n = queries.len();
                let mut answers: Vec<StartReply> = Vec::with_capacity(n);
                for _ in 0..n {
                    match next.next() {
                        Some(Reply::Start(r)) => answers.push(r),
                        other => {
                            return Err(ReplayError::Mismatch(format!(
                                "a start reply was due at turn {}, the log has {other:?}",
                                game.turn()
                            )));
                        }
                    }
                }
                game.answer_start(&answers)
                    .map_err(|e| ReplayError::Engine(e.to_string()))?;
            }
            Pending::Turn(queries) => {
                if start.is_none() {
                    start = Some(game.robots().to_vec());
                }
                let turn = game.turn();
                let n = queries.len();
                let mut answers: Vec<TurnReply> = Vec::with_capacity(n);
                for _ in 0..n {
                    match next.next() {
                        Some(Reply::Turn(r)) => answers.push(r),
                        other => {
                            return Err(ReplayError::Mismatch(format!(
                                "a turn reply was due at turn {turn}, the log has {other:?}"
                            )));
                        }
                    }
                }
                let seen = game.events().len();
                game.answer_turn(&answers)
                    .map_err(|e| ReplayError::Engine(e.to_string()))?;
                steps.push(ReplayStep {
                    turn,
                    robots: game.robots().to_vec(),
                    events: game.events()[seen..].to_vec(),
                });
            }
            Pending::Cards => {
                return Err(ReplayError::Engine(
                    "a scenario game cannot be replayed".into(),
                ));
            }
            Pending::Over => break,
        }
    }
    if let Some(extra) = next.next() {
        return Err(ReplayError::Mismatch(format!(
            "the game ended with replies left in the log (next: {extra:?})"
        )));
    }
    Ok(Replay {
        start: start.unwrap_or_else(|| game.robots().to_vec()),
        steps,
        scores: game.robots().iter().map(|r| r.score).collect(),
    })
}

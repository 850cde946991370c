//! Replays: a stored game rebuilt turn by turn from its seed, board, seat count and decision
//! log (the replies the engine consumed, `engine::decisions`), without any bot. The engine is
//! a function of those, so the replay is the game; its final scores are checked against the
//! stored result lines, and a difference (another engine version, a corrupt file) is an
//! error, never a silent wrong replay.

use crate::games::lrs::engine::decisions::{self, Reply};
use crate::games::lrs::engine::{
    Board, Direction, Event, Frame, Game, GameConfig, Pending, Pos, Robot, Shot, Stage, Status,
};
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
    /// The turn stage by stage: re-entries, each card in priority order, belts, gears,
    /// lasers; each frame lists only the robots it changed. `robots` is the state after
    /// the end of turn (flags, repairs, power), which no frame shows.
    pub frames: Vec<ReplayFrame>,
}

/// One stage of a turn (`engine::trace`), as the robots it changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplayFrame {
    pub stage: Stage,
    pub moves: Vec<Pose>,
    pub shots: Vec<Shot>,
}

/// Where a robot is, which way it faces, whether it is on the board, and its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Pose {
    pub seat: usize,
    pub pos: Pos,
    pub facing: Direction,
    pub status: Status,
    pub damage: u8,
}

impl Pose {
    fn of(seat: usize, r: &Robot) -> Pose {
        Pose {
            seat,
            pos: r.pos,
            facing: r.facing,
            status: r.status,
            damage: r.damage,
        }
    }
}

/// The frames as changes: each lists the robots whose pose differs from the frame before
/// (the first from `before`, the robots when the turn began).
fn frames_as_changes(before: &[Robot], frames: Vec<Frame>) -> Vec<ReplayFrame> {
    let mut last: Vec<Pose> = before
        .iter()
        .enumerate()
        .map(|(s, r)| Pose::of(s, r))
        .collect();
    frames
        .into_iter()
        .map(|f| {
            let mut moves = Vec::new();
            for (seat, r) in f.robots.iter().enumerate() {
                let pose = Pose::of(seat, r);
                if last[seat] != pose {
                    moves.push(pose);
                    last[seat] = pose;
                }
            }
            ReplayFrame {
                stage: f.stage,
                moves,
                shots: f.shots,
            }
        })
        .collect()
}

/// A whole game, replayed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    /// The robots once every start position was chosen, before turn 1.
    pub start: Vec<Robot>,
    /// Events before turn 1: faults of the start answers.
    pub start_events: Vec<Event>,
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
    game.enable_trace();
    let mut start = None;
    // The robots when the next turn began, before its re-entries.
    let mut before: Vec<Robot> = Vec::new();
    // Events already given to a step (or to the start).
    let mut seen = 0;
    let mut start_events = Vec::new();
    let mut steps = Vec::new();
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                let answers = decisions::take_replies(&mut next, queries.len(), Reply::start)
                    .map_err(|other| {
                        ReplayError::Mismatch(format!(
                            "a start reply was due at turn {}, the log has {other:?}",
                            game.turn()
                        ))
                    })?;
                game.answer_start(&answers)
                    .map_err(|e| ReplayError::Engine(e.to_string()))?;
            }
            Pending::Turn(queries) => {
                let n = queries.len();
                if start.is_none() {
                    start = Some(game.robots().to_vec());
                    // Game start is not a stage; later re-entries are.
                    game.take_frames();
                    before = game.robots().to_vec();
                    start_events = game.events().to_vec();
                    seen = start_events.len();
                }
                let turn = game.turn();
                let answers =
                    decisions::take_replies(&mut next, n, Reply::turn).map_err(|other| {
                        ReplayError::Mismatch(format!(
                            "a turn reply was due at turn {turn}, the log has {other:?}"
                        ))
                    })?;
                game.answer_turn(&answers)
                    .map_err(|e| ReplayError::Engine(e.to_string()))?;
                let frames = frames_as_changes(&before, game.take_frames());
                before = game.robots().to_vec();
                steps.push(ReplayStep {
                    turn,
                    robots: before.clone(),
                    events: game.events()[seen..].to_vec(),
                    frames,
                });
                seen = game.events().len();
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
        start_events,
        steps,
        scores: game.robots().iter().map(|r| r.score).collect(),
    })
}

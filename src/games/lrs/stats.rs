//! Per-seat figures of a finished game (score, flags, hits, pushes, push kills, deaths,
//! faults by kind), from its events: what the seam's `GameOutcome` and `serve` report.

use crate::games::lrs::engine::{EventKind, Game};
use serde::Serialize;

/// One bot's figures in one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeatResult {
    pub score: i64,
    pub flags: u32,
    pub hits: u32,
    pub pushes: u32,
    pub push_kills: u32,
    pub deaths: u32,
    pub faults: u32,
    /// The faults by kind.
    pub fault_kinds: FaultKinds,
    /// Highest score of the game (shared top scores win for each).
    pub won: bool,
}

/// Faults by kind (R5.2): no answer in time, an unusable answer, no bot to answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FaultKinds {
    pub timeout: u32,
    pub invalid: u32,
    pub crash: u32,
}

/// A finished game's results, indexed by bot slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub per_slot: Vec<SeatResult>,
    /// The game's decision log, encoded as stored (see `engine::decisions`): with the seed
    /// and board, enough to replay the game.
    pub decisions: Vec<u8>,
}

/// Summarises `game`; `seat_of_slot[slot]` is the seat bot `slot` played in.
pub fn summarize_game(game: &Game, seat_of_slot: &[usize]) -> GameSummary {
    let robots = game.robots();
    let mut per_seat = vec![SeatResult::default(); robots.len()];
    for (seat, r) in robots.iter().enumerate() {
        per_seat[seat].score = i64::from(r.score);
    }
    for e in game.events() {
        let s = &mut per_seat[e.robot];
        match e.kind {
            EventKind::Flag => s.flags += 1,
            EventKind::Hit => s.hits += 1,
            EventKind::Push => s.pushes += 1,
            EventKind::PushKill => s.push_kills += 1,
            EventKind::Destroyed => s.deaths += 1,
            EventKind::Timeout => {
                s.faults += 1;
                s.fault_kinds.timeout += 1;
            }
            EventKind::Invalid => {
                s.faults += 1;
                s.fault_kinds.invalid += 1;
            }
            EventKind::Crash => {
                s.faults += 1;
                s.fault_kinds.crash += 1;
            }
            EventKind::SurvivorBonus => {}
        }
    }
    let top = per_seat.iter().map(|s| s.score).max().unwrap_or(0);
    for s in &mut per_seat {
        s.won = s.score == top;
    }
    GameSummary {
        per_slot: seat_of_slot.iter().map(|&seat| per_seat[seat]).collect(),
        decisions: crate::games::lrs::engine::decisions::encode(game.decisions()),
    }
}

//! Per-bot statistics of finished games: the figures `play` prints and tournaments store.

use crate::engine::{EventKind, Game};
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
    /// Highest score of the game (shared top scores win for each).
    pub won: bool,
}

/// A finished game's results, indexed by bot slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub per_slot: Vec<SeatResult>,
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
            EventKind::Timeout | EventKind::Invalid | EventKind::Crash => s.faults += 1,
            EventKind::SurvivorBonus => {}
        }
    }
    let top = per_seat.iter().map(|s| s.score).max().unwrap_or(0);
    for s in &mut per_seat {
        s.won = s.score == top;
    }
    GameSummary {
        per_slot: seat_of_slot.iter().map(|&seat| per_seat[seat]).collect(),
    }
}

/// One bot's totals over many games; serialises to the `play --json` entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BotStats {
    pub bot: String,
    pub games: u32,
    pub mean_score: f64,
    pub total_score: i64,
    pub flags: u32,
    pub hits: u32,
    pub pushes: u32,
    pub push_kills: u32,
    pub deaths: u32,
    pub wins: u32,
    pub faults: u32,
}

impl BotStats {
    pub fn new(bot: String) -> BotStats {
        BotStats {
            bot,
            games: 0,
            mean_score: 0.0,
            total_score: 0,
            flags: 0,
            hits: 0,
            pushes: 0,
            push_kills: 0,
            deaths: 0,
            wins: 0,
            faults: 0,
        }
    }

    pub fn add(&mut self, r: &SeatResult) {
        self.games += 1;
        self.total_score += r.score;
        self.flags += r.flags;
        self.hits += r.hits;
        self.pushes += r.pushes;
        self.push_kills += r.push_kills;
        self.deaths += r.deaths;
        self.faults += r.faults;
        self.wins += u32::from(r.won);
        self.mean_score = self.total_score as f64 / f64::from(self.games);
    }
}

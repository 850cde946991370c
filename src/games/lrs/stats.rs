//! Per-bot statistics of finished games: the figures `play` prints and tournaments store.

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

/// What an external bot did wrong in a game, for its author: how it ended, the first line
/// it printed that was not a usable answer, and the end of its stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Diagnosis {
    /// The game (from 0) this is from: the bot's first game with a fault.
    pub game: u32,
    /// Why it could not be started, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_error: Option<String>,
    /// `exit 1`, `signal SIGKILL`, ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<String>,
    /// The first stdout line that was not a usable answer (at most 200 bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_bad_line: Option<String>,
    /// Why that line was not usable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bad_line_reason: Option<String>,
    /// The last lines of its stderr in that game.
    pub stderr_tail: Vec<String>,
}

/// Lines of stderr kept in a [`Diagnosis`].
pub const STDERR_TAIL_LINES: usize = 10;

/// The last `STDERR_TAIL_LINES` lines of `text`.
pub fn tail_lines(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// A finished game's results, indexed by bot slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSummary {
    pub per_slot: Vec<SeatResult>,
    /// For external bots that faulted in this game: what went wrong.
    pub diagnoses: Vec<Option<Diagnosis>>,
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
        diagnoses: vec![None; seat_of_slot.len()],
        decisions: crate::games::lrs::engine::decisions::encode(game.decisions()),
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
    pub fault_kinds: FaultKinds,
    /// What went wrong the first time it faulted (external bots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<Diagnosis>,
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
            fault_kinds: FaultKinds::default(),
            diagnosis: None,
        }
    }

    /// Keeps the first diagnosis of a game in which the bot faulted.
    pub fn diagnose(&mut self, diagnosis: Option<&Diagnosis>) {
        if self.diagnosis.is_none() {
            self.diagnosis = diagnosis.cloned();
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
        self.fault_kinds.timeout += r.fault_kinds.timeout;
        self.fault_kinds.invalid += r.fault_kinds.invalid;
        self.fault_kinds.crash += r.fault_kinds.crash;
        self.wins += u32::from(r.won);
        self.mean_score = self.total_score as f64 / f64::from(self.games);
    }
}

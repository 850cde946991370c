//! Defines [`PlayedGame`]: a finished game of a set as plain data — each team's line and
//! its external bots' logs.
//!
//! The runner's executor hands it back when a game ends; the store keeps it under the
//! game number the runner dealt the game with (`store::GameRecord`); the runner's mirror
//! folds its lines into series totals. None of them needs the others' types to do so.

use crate::games::SeatOutcome;
use crate::tourney::model::{SetGame, SetId, TeamId};

/// One team's line in a finished game: the outcome of the seat it played, which the game
/// gave without knowing the team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TeamResult {
    pub team: TeamId,
    pub seat: usize,
    pub outcome: SeatOutcome,
}

/// What an external bot left behind in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotLog {
    pub team: TeamId,
    /// How its process ended (`exit 0`, `killed by SIGKILL`, `not started: ...`).
    pub exit_status: String,
    /// Its stderr, capped (with a note when some was dropped).
    pub stderr: String,
}

/// A finished game of a set's run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedGame {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub engine_version: u32,
    pub turns: u32,
    /// The decision log, as its game kind encodes it.
    pub decisions: Vec<u8>,
    /// Each team's line, in set position order.
    pub results: Vec<TeamResult>,
    /// Logs of the game's external bots (none for built-in AIs).
    pub logs: Vec<BotLog>,
}

impl PlayedGame {
    /// Which game of which set this is.
    pub fn key(&self) -> SetGame {
        SetGame {
            set: self.set_id.clone(),
            index: self.game_index,
        }
    }
}

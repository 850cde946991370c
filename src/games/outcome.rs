//! Defines what one game gives the orchestrator, whatever the game: [`GameOutcome`] (per
//! seat: score, won, faults and the game's statistics, plus the encoded decision log), and
//! who may sit in a seat ([`SeatBot`]) with what an external bot left behind ([`SeatLog`]).
//! The runner stores these and the reports check them without knowing the game's rules.

use super::{BuiltinBot, Stats};
use crate::bots::process::{BotCommand, ExitReport};
use std::any::Any;
use std::sync::Arc;

/// One seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatOutcome {
    pub score: i64,
    pub won: bool,
    pub faults: u32,
    pub stats: Stats,
}

/// A finished game of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameOutcome {
    pub engine_version: u32,
    pub turns: u32,
    /// The decision log, encoded as stored.
    pub decisions: Vec<u8>,
    /// By seat.
    pub seats: Vec<SeatOutcome>,
}

/// Who plays a seat of a game.
#[derive(Clone)]
pub enum SeatBot {
    Builtin(BuiltinBot),
    /// A JSON-lines program, started in its sandbox for this game.
    External(BotCommand),
    /// A client of a series protocol, seated by its series.
    Series(SeriesSeat),
}

/// A seat of one game played by the client of a series protocol (a bot that plays a whole
/// set over one connection). Opaque here: the orchestrator only carries it from the series
/// host to the game whose protocol made it, which reads it with [`SeriesSeat::get`].
#[derive(Clone)]
pub struct SeriesSeat(Arc<dyn Any + Send + Sync>);

impl SeriesSeat {
    pub fn new<T: Any + Send + Sync>(seat: T) -> SeriesSeat {
        SeriesSeat(Arc::new(seat))
    }

    /// The seat as the game's protocol made it (`None` for another protocol's).
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref()
    }
}

/// What an external bot did in one game: its faults by cause and how its process ended.
/// The one log of the JSON-lines transport, whatever the game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatLog {
    pub timeouts: u32,
    /// Lines that were not an answer (unreadable, or an illegal answer).
    pub malformed: u32,
    /// Turns it was silent because it had exited (or never started).
    pub crashed_turns: u32,
    /// Lines thrown away: late answers and answers to other turns.
    pub discarded: u32,
    /// Why it could not be started (it then crashed every query).
    pub spawn_error: Option<String>,
    /// The first line that was not an answer, cut to 200 bytes and made printable.
    pub first_bad_line: Option<String>,
    /// Why that line was not an answer, in the game's words.
    pub first_bad_why: Option<String>,
    pub exit: Option<ExitReport>,
}

impl SeatLog {
    /// How its process ended (`exit 0`, `killed by SIGKILL`, `not started: ...`).
    pub fn exit_status(&self) -> String {
        match (&self.spawn_error, &self.exit) {
            (Some(e), _) => format!("not started: {e}"),
            (None, Some(exit)) => exit.status.clone(),
            (None, None) => "unknown".to_string(),
        }
    }

    /// Its capped stderr.
    pub fn stderr(&self) -> String {
        self.exit
            .as_ref()
            .map(|e| e.stderr.text())
            .unwrap_or_default()
    }

    /// Turns it gave no usable answer.
    pub fn faults(&self) -> u32 {
        self.timeouts + self.malformed + self.crashed_turns
    }
}

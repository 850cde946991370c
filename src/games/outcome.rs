//! Defines what one game gives the orchestrator, whatever the game: [`GameOutcome`] (per
//! seat: score, won, faults and the game's statistics, plus the encoded decision log), and
//! who may sit in a seat ([`SeatBot`]); what an external bot left behind is the JSON-lines
//! transport's [`super::SeatLog`]. The runner stores these and the reports check them
//! without knowing the game's rules.

use super::{BuiltinBot, Stats};
use crate::bots::JsonlSeat;
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
    /// A JSON-lines program, started in its sandbox for this game or kept from the last
    /// game of its set.
    External(JsonlSeat),
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

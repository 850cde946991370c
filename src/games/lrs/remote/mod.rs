//! Last Robot Standing's players outside the engine's thread: the async interface
//! ([`RemotePlayer`]) that JSON-lines subprocesses ([`JsonlPlayer`], protocol in [`jsonl`])
//! and Windward TCP clients (`super::windward`) implement, the driver that plays a game with
//! a mix of them and in-process players.
//!
//! A remote player turns every failure (timeout, garbage, crash) into a [`Fault`] reply,
//! and the engine applies the fallback of R5.2 / R13.4, so a game always completes.

mod driver;
pub mod jsonl;
pub mod jsonl_player;
mod seated;

pub use driver::{SeatPlayer, drive_game};
pub use jsonl_player::JsonlPlayer;
pub use seated::{LrsMatch, LrsSeat, play_lrs_match};

use crate::games::lrs::engine::{
    Board, Fault, Robot, StartQuery, StartReply, TurnQuery, TurnReply,
};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future that a remote player returns (object-safe async).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What every player learns when a game begins.
#[derive(Debug, Clone)]
pub struct GameSetup {
    pub seat: usize,
    /// Display names by seat.
    pub players: Vec<String>,
    pub board: Arc<Board>,
    pub turn_limit: u16,
    pub time_limit_ms: u64,
}

/// The public state of the game at the moment of a query (an owned snapshot, so a query
/// future borrows nothing from the game).
#[derive(Debug, Clone)]
pub struct View {
    pub turn: u16,
    pub repair_on: bool,
    pub robots: Vec<Robot>,
}

/// A player that answers over a pipe or a socket. Implementations enforce their own
/// deadlines and return `Fault` replies instead of errors.
pub trait RemotePlayer: Send {
    /// Called once per game before its first query.
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()>;
    /// A start or re-entry query.
    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply>;
    /// A turn query.
    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply>;
    /// The game is over: final scores are in `view`.
    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()>;
}

/// A remote player that never answers in time: every query is a timeout fault. Useful as a
/// stand-in for a bot that could not be started.
#[derive(Debug, Default)]
pub struct Absent {
    pub fault: Option<Fault>,
}

impl RemotePlayer for Absent {
    fn begin_game<'a>(&'a mut self, _setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }

    fn start<'a>(
        &'a mut self,
        _view: &'a View,
        _query: &'a StartQuery,
    ) -> BoxFuture<'a, StartReply> {
        let fault = self.fault.unwrap_or(Fault::Crash);
        Box::pin(async move { StartReply::Fault(fault) })
    }

    fn turn<'a>(&'a mut self, _view: &'a View, _query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        let fault = self.fault.unwrap_or(Fault::Crash);
        Box::pin(async move { TurnReply::Fault(fault) })
    }

    fn game_over<'a>(&'a mut self, _view: &'a View) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

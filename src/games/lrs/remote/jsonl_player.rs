//! A [`RemotePlayer`] that is a JSON-lines subprocess (docs/bots.md): the one JSON-lines
//! [`Player`] of every game with Last Robot Standing's codec, one process per game, started
//! in `begin_game` and ended after `game_over`.
//!
//! Every failure becomes a fault reply (the player's rules): no answer before the deadline
//! is `timeout`; a malformed, overlong or illegal answer is `invalid`; a bot that cannot be
//! started, exits or closes its stdout is `crash` for that query and every later one of the
//! game.

use super::jsonl::codec::{LrsCodec, Query, start_question, turn_question};
use super::jsonl::{Reply, messages};
use super::{BoxFuture, GameSetup, RemotePlayer, View};
use crate::bots::JsonlOptions;
use crate::bots::JsonlSeat;
use crate::games::SeatLog;
use crate::games::jsonl::{Codec, Pace, Player, Question, Silence};
use crate::games::lrs::engine::{Fault, StartQuery, StartReply, TurnQuery, TurnReply};
use std::sync::{Arc, Mutex, MutexGuard};

/// A bot program speaking JSON lines, for the games of one seat.
pub struct JsonlPlayer {
    seat: JsonlSeat,
    options: JsonlOptions,
    /// The bot of the current game.
    player: Option<Player<LrsCodec>>,
    /// Its log, written when the game begins and when it ends.
    log: Arc<Mutex<SeatLog>>,
}

impl JsonlPlayer {
    pub fn new(seat: impl Into<JsonlSeat>, options: JsonlOptions) -> JsonlPlayer {
        JsonlPlayer {
            seat: seat.into(),
            options,
            player: None,
            log: Arc::new(Mutex::new(SeatLog::default())),
        }
    }

    pub fn command(&self) -> &crate::bots::BotCommand {
        &self.seat.command
    }

    /// The log of the current game as it began (where the bot runs), or of the last game
    /// (complete after `game_over`).
    pub fn log(&self) -> SeatLog {
        self.log_mut().clone()
    }

    /// A handle on the log that stays valid after the player is boxed into a seat: read
    /// it after the game (it is complete once `game_over` returned).
    pub fn log_handle(&self) -> Arc<Mutex<SeatLog>> {
        self.log.clone()
    }

    fn log_mut(&self) -> MutexGuard<'_, SeatLog> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the current game's bot with `farewell`, if there is one, and keeps its log.
    async fn end(&mut self, farewell: Option<String>) {
        if let Some(mut player) = self.player.take() {
            player.finish(farewell).await;
            *self.log_mut() = player.log();
        }
    }

    async fn begin(&mut self, setup: &GameSetup) {
        // A game that was not ended properly: end it now.
        self.end(None).await;
        let pace = Pace {
            turns: setup.turn_limit,
            time_limit_ms: setup.time_limit_ms,
        };
        let hello = messages::hello(setup);
        let player = Player::start(&self.seat, &self.options, pace, hello, LrsCodec).await;
        *self.log_mut() = player.log();
        self.player = Some(player);
    }

    /// The answer of the current game's bot (a crash when no game began).
    async fn ask<L: FnOnce(u64) -> String>(&mut self, question: Question<Query, L>) -> Reply {
        match self.player.as_mut() {
            Some(player) => player.ask(question).await,
            None => LrsCodec.fault(&question.query, Silence::Crash),
        }
    }
}

impl RemotePlayer for JsonlPlayer {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        Box::pin(self.begin(setup))
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move {
            match self.ask(start_question(view, query)).await {
                Reply::Start(reply) => reply,
                Reply::Turn(_) => StartReply::Fault(Fault::Invalid),
            }
        })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move {
            match self.ask(turn_question(view, query)).await {
                Reply::Turn(reply) => reply,
                Reply::Start(_) => TurnReply::Fault(Fault::Invalid),
            }
        })
    }

    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()> {
        Box::pin(self.end(Some(messages::game_over(view))))
    }
}

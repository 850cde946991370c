//! A [`RemotePlayer`] that is a JSON-lines subprocess (docs/bots.md): one process per
//! game, started in `begin_game` and killed after `game_over`.
//!
//! Every failure becomes a fault reply: no answer before the deadline is `timeout`; a
//! malformed, overlong or illegal answer is `invalid`; a bot that cannot be started, exits
//! or closes its stdout is `crash` for that query and every later one of the game. The
//! deadline of an answer is `time_limit_ms` after the query was handed to the bot's stdin;
//! the first query of a game also gets `startup_ms` for the program to start.

use super::jsonl::{Incoming, Reply, Session, SessionStats, Verdict, messages};
use super::{BoxFuture, GameSetup, RemotePlayer, View};
use crate::bots::JsonlOptions;
use crate::bots::process::{BotCommand, BotProcess, ExitReport, StderrLog, StdoutItem};
use crate::games::lrs::engine::{Fault, StartQuery, StartReply, TurnQuery, TurnReply};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::time::Instant;

/// What happened to the bot in its last game, kept after the game for the log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BotGameLog {
    /// Why the bot could not be started (it then crashed every query).
    pub spawn_error: Option<String>,
    pub pgid: Option<i32>,
    pub uid: Option<u32>,
    /// The scratch directory it ran in (removed by now).
    pub scratch: Option<PathBuf>,
    pub stats: SessionStats,
    /// The turn at which the bot was found gone, if it was.
    pub crashed_at_turn: Option<u16>,
    /// The reason of the last invalid answer.
    pub last_invalid: Option<String>,
    /// The first stdout line that was not a usable answer.
    pub first_bad_line: Option<super::jsonl::BadLine>,
    pub exit: Option<ExitReport>,
}

impl BotGameLog {
    /// The capped stderr of the game (with a note if some was dropped).
    pub fn stderr_text(&self) -> String {
        self.exit
            .as_ref()
            .map(|e| e.stderr.text())
            .unwrap_or_default()
    }

    pub fn stderr(&self) -> Option<&StderrLog> {
        self.exit.as_ref().map(|e| &e.stderr)
    }
}

/// A bot program speaking JSON lines.
#[derive(Debug)]
pub struct JsonlPlayer {
    command: BotCommand,
    options: JsonlOptions,
    process: Option<BotProcess>,
    session: Session,
    time_limit: Duration,
    first_query: bool,
    log: Arc<Mutex<BotGameLog>>,
}

impl JsonlPlayer {
    pub fn new(command: BotCommand, options: JsonlOptions) -> JsonlPlayer {
        JsonlPlayer {
            command,
            options,
            process: None,
            session: Session::new(),
            time_limit: Duration::from_millis(1000),
            first_query: true,
            log: Arc::new(Mutex::new(BotGameLog::default())),
        }
    }

    pub fn command(&self) -> &BotCommand {
        &self.command
    }

    /// The log of the current or last game (complete after `game_over`).
    pub fn log(&self) -> BotGameLog {
        self.log_mut().clone()
    }

    /// A handle on the log that stays valid after the player is boxed into a seat: read
    /// it after the game (it is complete once `game_over` returned).
    pub fn log_handle(&self) -> Arc<Mutex<BotGameLog>> {
        self.log.clone()
    }

    fn log_mut(&self) -> MutexGuard<'_, BotGameLog> {
        self.log.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The running bot, if any (tests use its pgid and uid).
    pub fn process(&self) -> Option<&BotProcess> {
        self.process.as_ref()
    }

    async fn end_process(&mut self, farewell: Option<Vec<u8>>) {
        if let Some(p) = self.process.take() {
            let report = p.finish(farewell).await;
            self.log_mut().exit = Some(report);
        }
        let mut log = self.log_mut();
        log.stats = self.session.stats();
        log.last_invalid = self.session.last_error().map(str::to_string);
        log.first_bad_line = self.session.first_bad_line().cloned();
    }

    async fn begin(&mut self, setup: &GameSetup) {
        // A game that was not ended properly: end it now.
        self.end_process(None).await;
        self.session = Session::new();
        self.first_query = true;
        self.time_limit = Duration::from_millis(setup.time_limit_ms);
        *self.log_mut() = BotGameLog::default();
        let cpu = self.options.limits.cpu_seconds_for(
            setup.turn_limit,
            setup.time_limit_ms,
            self.options.startup_ms,
        );
        match BotProcess::spawn_async(
            &self.command,
            &self.options.limits,
            cpu,
            &self.options.sandbox,
        )
        .await
        {
            Ok(p) => {
                let mut log = self.log_mut();
                log.pgid = Some(p.pgid());
                log.uid = p.uid();
                log.scratch = p.scratch_path().map(|s| s.to_path_buf());
                drop(log);
                let mut hello = messages::hello(setup);
                hello.push('\n');
                p.send(hello);
                self.process = Some(p);
            }
            Err(e) => {
                let mut log = self.log_mut();
                log.spawn_error = Some(e.to_string());
                log.crashed_at_turn = Some(0);
                drop(log);
                self.session.on_crash();
            }
        }
    }

    fn mark_crashed(&mut self, turn: u16) -> Option<Reply> {
        self.log_mut().crashed_at_turn.get_or_insert(turn);
        self.session.on_crash()
    }

    /// Feeds one stdout item to the session; `Some` when it settles the pending query.
    fn handle(&mut self, item: Option<StdoutItem>, turn: u16) -> Option<Reply> {
        match item {
            Some(StdoutItem::Line(line)) => match self.session.on_line(Incoming::Line(&line)) {
                Verdict::Answered(reply) => Some(reply),
                Verdict::Discarded(_) => None,
            },
            Some(StdoutItem::TooLong { .. }) => match self.session.on_line(Incoming::TooLong) {
                Verdict::Answered(reply) => Some(reply),
                Verdict::Discarded(_) => None,
            },
            Some(StdoutItem::Eof) | Some(StdoutItem::Error(_)) | None => self.mark_crashed(turn),
        }
    }

    /// Asks one query: `ask` makes it pending in the session and returns its line.
    async fn ask(
        &mut self,
        start: bool,
        turn: u16,
        ask: impl FnOnce(&mut Session) -> String,
    ) -> Reply {
        // Whatever the bot printed since the last query answers nothing.
        while !self.session.is_crashed() {
            let Some(p) = self.process.as_mut() else {
                break;
            };
            let Some(item) = p.try_next_item() else { break };
            self.handle(Some(item), turn);
        }
        if !self.session.is_crashed() && self.process.as_ref().is_none_or(BotProcess::has_exited) {
            self.mark_crashed(turn);
        }
        if self.session.is_crashed() {
            return self.session.crashed_reply(start);
        }
        let line = ask(&mut self.session);
        let mut limit = self.time_limit;
        if std::mem::take(&mut self.first_query) {
            limit += Duration::from_millis(self.options.startup_ms);
        }
        let deadline = Instant::now() + limit;
        let process = self.process.as_ref().expect("a running bot");
        process.send(line);
        // The first check after 50 ms (a plain `interval` ticks at once: a wasted wake-up
        // and syscall on every query).
        let check_every = Duration::from_millis(50);
        let mut exit_check = tokio::time::interval_at(Instant::now() + check_every, check_every);
        exit_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let process = self.process.as_mut().expect("a running bot");
            let event = tokio::select! {
                biased;
                item = process.next_item() => Wake::Item(item),
                _ = tokio::time::sleep_until(deadline) => Wake::Deadline,
                _ = exit_check.tick() => Wake::Check,
            };
            match event {
                Wake::Item(item) => {
                    if let Some(reply) = self.handle(item, turn) {
                        return reply;
                    }
                }
                Wake::Deadline => return self.session.on_timeout(),
                Wake::Check => {
                    // The leader died but something keeps stdout open: take what it
                    // printed, then call it a crash.
                    if self.process.as_ref().is_some_and(BotProcess::has_exited) {
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        while let Some(item) =
                            self.process.as_mut().and_then(BotProcess::try_next_item)
                        {
                            if let Some(reply) = self.handle(Some(item), turn) {
                                return reply;
                            }
                        }
                        if let Some(reply) = self.mark_crashed(turn) {
                            return reply;
                        }
                    }
                }
            }
        }
    }
}

/// What woke a waiting query.
enum Wake {
    Item(Option<StdoutItem>),
    Deadline,
    Check,
}

fn start_reply(reply: Reply) -> StartReply {
    match reply {
        Reply::Start(r) => r,
        Reply::Turn(_) => StartReply::Fault(Fault::Invalid),
    }
}

fn turn_reply(reply: Reply) -> TurnReply {
    match reply {
        Reply::Turn(r) => r,
        Reply::Start(_) => TurnReply::Fault(Fault::Invalid),
    }
}

impl RemotePlayer for JsonlPlayer {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        Box::pin(self.begin(setup))
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move {
            let turn = messages::start_turn(view);
            start_reply(self.ask(true, turn, |s| s.ask_start(view, query)).await)
        })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move {
            turn_reply(
                self.ask(false, view.turn, |s| s.ask_turn(view, query))
                    .await,
            )
        })
    }

    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let mut line = messages::game_over(view);
            line.push('\n');
            self.end_process(Some(line.into_bytes())).await;
        })
    }
}

//! Defines [`Player`]: one external JSON-lines bot during one game, for every game (docs/bots.md,
//! "Life cycle of a game" and "Limits and faults"): started in its sandbox (or taken as it
//! was kept from the last game of its set, see [`KeptBot`]) and sent `hello`, asked one
//! query at a time before a deadline, ended with a farewell (`game_over`), and its
//! [`SeatLog`].
//!
//! Which line answers which query is the [`Session`]'s, what the lines say the game's
//! [`Codec`]'s; this is the I/O around them, the same for every game:
//! - lines the bot printed while no query was pending are drained before the next query
//!   (they answer nothing);
//! - the deadline of an answer is the time per answer after the query was handed to the
//!   bot's stdin, and the bot's first query of the game also gets the start-up allowance;
//! - a bot that cannot be started, exits or closes its stdout is silent (a crash) for that
//!   query and every later one of the game, which goes on. Its leader is checked every
//!   [`EXIT_CHECK`] while a query waits: when it has exited but something it started keeps
//!   stdout open, the query is a crash at the next check, not a timeout at every deadline.

use super::log::SeatLog;
use super::session::{Codec, Incoming, Question, Session, Verdict};
use crate::bots::process::{BotCommand, BotProcess, StdoutItem};
use crate::bots::{JsonlOptions, JsonlSeat, KeptBot};
use std::time::Duration;
use tokio::time::Instant;

/// How often a waiting query checks that the bot's leader still runs. Answers that come
/// sooner never wake for it.
pub const EXIT_CHECK: Duration = Duration::from_millis(50);

/// How long the bot's last lines may take to arrive once its leader is seen gone.
const LAST_LINES: Duration = Duration::from_millis(20);

/// One external bot during one game, its queries read by the game's codec `C`.
pub struct Player<C: Codec> {
    process: Option<BotProcess>,
    session: Session<C>,
    time_limit: Duration,
    /// Added to the deadline of the bot's first query, then spent.
    startup: Duration,
    /// Where it ran, when it was found gone and how it ended (the counters are the
    /// session's, added by [`Player::log`]).
    log: SeatLog,
    /// Where the process waits for the next game of its set, if one follows and the bot
    /// says it plays a whole set.
    keep: Option<KeptBot>,
    /// Set while the process is one kept from the last game and has not answered in this
    /// one: if it turns out gone first (it exited after `game_over` although it said it
    /// plays a whole set, or before its first answer), a fresh process takes its place
    /// and gets this game's `hello` and the pending query, as if it had been started for
    /// the game.
    restart: Option<Restart>,
    /// The line of the pending query, while a restart may still need it.
    pending_line: Option<String>,
}

/// What starting the bot afresh in the middle of its first query takes.
struct Restart {
    command: BotCommand,
    options: JsonlOptions,
    cpu_seconds: u64,
    hello: String,
}

/// What the game lasts and allows, as the bot's limits are reckoned from it.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    /// Queries a bot may be asked in the game at most (its turns): its CPU budget.
    pub turns: u16,
    pub time_limit_ms: u64,
}

/// What woke a waiting query.
enum Wake {
    Item(Option<StdoutItem>),
    Deadline,
    ExitCheck,
}

impl<C: Codec> Player<C> {
    /// Starts the bot in its sandbox, or takes its process kept from the last game of its
    /// set, and sends it `hello` (a line without its newline). A bot that cannot be
    /// started is a player all the same: it crashes every query.
    pub async fn start(
        seat: &JsonlSeat,
        options: &JsonlOptions,
        pace: Pace,
        hello: String,
        codec: C,
    ) -> Player<C> {
        let (kept, games_after) = match &seat.kept {
            Some(place) => place.begin_game(),
            None => (None, 0),
        };
        let mut player = Player {
            process: None,
            session: Session::with(codec),
            time_limit: Duration::from_millis(pace.time_limit_ms),
            startup: Duration::from_millis(options.startup_ms),
            log: SeatLog::default(),
            keep: seat.kept.clone().filter(|_| games_after > 0),
            restart: None,
            pending_line: None,
        };
        // Started for this game and, if it says it plays a whole set, for the games that
        // follow: a CPU budget for all of them.
        let cpu =
            options
                .limits
                .cpu_seconds_for(pace.turns, pace.time_limit_ms, options.startup_ms)
                * u64::from(games_after + 1);
        let process = match kept {
            Some(mut p) if !p.has_exited() => {
                p.drain_stdout();
                player.restart = Some(Restart {
                    command: seat.command.clone(),
                    options: options.clone(),
                    cpu_seconds: cpu,
                    hello: hello.clone(),
                });
                Ok(p)
            }
            gone => {
                if let Some(p) = gone {
                    p.finish(None).await;
                }
                BotProcess::spawn_async(&seat.command, &options.limits, cpu, &options.sandbox).await
            }
        };
        match process {
            Ok(p) => {
                player.log.pgid = Some(p.pgid());
                player.log.uid = p.uid();
                player.log.scratch = p.scratch_path();
                p.send(hello + "\n");
                player.process = Some(p);
            }
            Err(e) => player.log.spawn_error = Some(e.to_string()),
        }
        player
    }

    /// Asks `question` and waits for its answer (or the fault that stands for it), noting
    /// the first fault's turn and the first answer's time in the log.
    pub async fn ask<L: FnOnce(u64) -> String>(
        &mut self,
        question: Question<C::Query, L>,
    ) -> C::Answer {
        let turn = question.turn;
        let answered = self.session.stats().answered;
        let asked = Instant::now();
        let answer = self.ask_and_wait(question).await;
        // Past its first query, a kept process is the game's bot, for better or worse.
        self.restart = None;
        self.pending_line = None;
        if self.session.stats().answered > answered {
            self.log
                .first_answer_ms
                .get_or_insert(asked.elapsed().as_millis() as u64);
        } else {
            self.log.first_fault_turn.get_or_insert(turn);
        }
        answer
    }

    async fn ask_and_wait<L: FnOnce(u64) -> String>(
        &mut self,
        question: Question<C::Query, L>,
    ) -> C::Answer {
        let turn = question.turn;
        // Whatever the bot printed since the last query answers nothing.
        while !self.session.is_crashed() {
            let Some(item) = self.process.as_mut().and_then(BotProcess::try_next_item) else {
                break;
            };
            self.take(Some(item), turn);
        }
        if !self.session.is_crashed()
            && self.process.as_ref().is_none_or(BotProcess::has_exited)
            && !self.restart().await
        {
            self.crashed(turn);
        }
        let Some(process) = self.process.as_ref().filter(|_| !self.session.is_crashed()) else {
            return self.session.crashed_answer(&question.query);
        };
        let line = self.session.ask(question);
        let deadline = Instant::now() + self.time_limit + std::mem::take(&mut self.startup);
        if self.restart.is_some() {
            self.pending_line = Some(line.clone());
        }
        process.send(line);
        // The first check after one period (a plain `interval` ticks at once: a wasted
        // wake-up and syscall on every query).
        let mut exit_check = tokio::time::interval_at(Instant::now() + EXIT_CHECK, EXIT_CHECK);
        exit_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let process = self.process.as_mut().expect("a running bot");
            let wake = tokio::select! {
                biased;
                item = process.next_item() => Wake::Item(item),
                _ = tokio::time::sleep_until(deadline) => Wake::Deadline,
                _ = exit_check.tick() => Wake::ExitCheck,
            };
            match wake {
                Wake::Item(item) => {
                    let gone = matches!(item, Some(StdoutItem::Eof | StdoutItem::Error(_)) | None);
                    if gone && self.restart().await {
                        continue;
                    }
                    if let Some(answer) = self.take(item, turn) {
                        return answer;
                    }
                }
                Wake::Deadline => return self.session.on_timeout(),
                Wake::ExitCheck => {
                    if let Some(answer) = self.check_exit(turn).await {
                        return answer;
                    }
                }
            }
        }
    }

    /// The leader exited but something keeps stdout open: take what it printed, then call
    /// it a crash. `None` while the leader runs.
    async fn check_exit(&mut self, turn: u32) -> Option<C::Answer> {
        if !self.process.as_ref().is_some_and(BotProcess::has_exited) {
            return None;
        }
        tokio::time::sleep(LAST_LINES).await;
        while let Some(item) = self.process.as_mut().and_then(BotProcess::try_next_item) {
            if matches!(item, StdoutItem::Eof | StdoutItem::Error(_)) {
                break;
            }
            if let Some(answer) = self.take(Some(item), turn) {
                return Some(answer);
            }
        }
        if self.restart().await {
            return None;
        }
        self.crashed(turn)
    }

    /// The process kept from the last game is gone before its first answer in this one:
    /// ends it and starts the bot afresh, with this game's `hello` and the pending query.
    /// False when there is nothing to restart (the bot answered in this game, or was
    /// started for it), or the fresh start failed (then the game goes on without it).
    async fn restart(&mut self) -> bool {
        let Some(restart) = self.restart.take() else {
            return false;
        };
        if let Some(gone) = self.process.take() {
            gone.finish(None).await;
        }
        let Restart {
            command,
            options,
            cpu_seconds,
            hello,
        } = restart;
        match BotProcess::spawn_async(&command, &options.limits, cpu_seconds, &options.sandbox)
            .await
        {
            Ok(p) => {
                self.log.pgid = Some(p.pgid());
                self.log.uid = p.uid();
                self.log.scratch = p.scratch_path();
                p.send(hello + "\n");
                if let Some(line) = self.pending_line.take() {
                    p.send(line);
                }
                self.process = Some(p);
                true
            }
            Err(e) => {
                self.log.spawn_error = Some(e.to_string());
                false
            }
        }
    }

    /// What the session makes of one item of the bot's stdout, during a query of `turn`:
    /// `Some` when it settles the pending query.
    fn take(&mut self, item: Option<StdoutItem>, turn: u32) -> Option<C::Answer> {
        let verdict = match item {
            Some(StdoutItem::Line(bytes)) => self.session.on_line(Incoming::Line(&bytes)),
            Some(StdoutItem::TooLong { .. }) => self.session.on_line(Incoming::TooLong),
            Some(StdoutItem::Eof) | Some(StdoutItem::Error(_)) | None => {
                return self.crashed(turn);
            }
        };
        match verdict {
            Verdict::Answered(answer) => Some(answer),
            Verdict::Discarded(_) => None,
        }
    }

    /// The bot is gone, found during a query of `turn`: the pending query (if any) and
    /// every later one is a crash.
    fn crashed(&mut self, turn: u32) -> Option<C::Answer> {
        self.log.crashed_at_turn.get_or_insert(turn);
        self.session.on_crash()
    }

    /// Ends the bot's game: sends `farewell` (a line without its newline) and, when
    /// another game of its set follows, the bot said it plays a whole set and it still
    /// runs, keeps it for that game; otherwise closes its stdin and ends every process of
    /// it. Either way the log keeps how it ended and its stderr of this game.
    pub async fn finish(&mut self, farewell: Option<String>) {
        let Some(p) = self.process.take() else { return };
        let farewell = farewell.map(|line| (line + "\n").into_bytes());
        let keep = self.keep.take().filter(|_| {
            self.session.plays_series() && !self.session.is_crashed() && !p.has_exited()
        });
        self.log.exit = Some(match keep {
            Some(place) => {
                let report = p.farewell_and_keep(farewell);
                place.keep(p);
                report
            }
            None => p.finish(farewell).await,
        });
    }

    /// Notes that the game's rules refused (part of) the bot's answer to the question of
    /// `turn`, `why` in the game's words (the log's first bad line and first faulty turn,
    /// if it has none yet).
    pub fn note_refused(&mut self, turn: u32, why: &str) {
        self.log.first_fault_turn.get_or_insert(turn);
        self.session.note_refused(why);
    }

    /// Whether a refusal would still tell its log anything (its first bad line or first
    /// faulty turn is not known yet): the turn loop asks the game why only then.
    pub fn awaits_refusal(&self) -> bool {
        self.session.first_bad_line().is_none() || self.log.first_fault_turn.is_none()
    }

    /// What the bot did in the game so far (all of it once [`Player::finish`] returned).
    pub fn log(&self) -> SeatLog {
        SeatLog {
            stats: self.session.stats(),
            last_invalid: self.session.last_error().map(str::to_string),
            first_bad_line: self.session.first_bad_line().cloned(),
            ..self.log.clone()
        }
    }
}

/// Ends every external bot of a game with `farewell` (`game_over`, without its newline),
/// all at once, and returns their logs by seat.
pub async fn finish_all<C: Codec>(
    players: Vec<Option<Player<C>>>,
    farewell: String,
) -> Vec<Option<SeatLog>> {
    let ends = players.into_iter().map(|player| {
        let farewell = farewell.clone();
        async move {
            let mut player = player?;
            player.finish(Some(farewell)).await;
            Some(player.log())
        }
    });
    futures_util::future::join_all(ends).await
}

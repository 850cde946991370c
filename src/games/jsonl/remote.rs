//! Defines [`Remote`]: one external JSON-lines bot during one game, for the games whose
//! seats all answer each turn at once: started in its sandbox, asked one line
//! per turn before a deadline, ended with `game_over`.
//!
//! What a line means is the game's business (a reader turns it into a [`Reading`]); the
//! life cycle is the same for every game: `hello` is not awaited, a late answer is never
//! used for a later turn (after a timeout the bot owes a line, and the next line without
//! the current turn pays that debt), and a bot that exits is silent for the rest of the
//! game, which goes on.

use crate::bots::JsonlOptions;
use crate::bots::process::{BotCommand, BotProcess, StdoutItem};
use crate::games::SeatLog;
use tokio::time::Instant;

/// Who plays a seat: one of the game's built-in AIs, or an external bot.
#[derive(Debug, Clone)]
pub enum Seatholder<A> {
    Builtin(A),
    External(BotCommand),
}

/// What a line from the bot is, for the pending turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading<T> {
    Answer(T),
    /// It names another turn: a late answer, never used for this one.
    OtherTurn,
    /// Not an answer: the seat's turn is a fault.
    Malformed,
}

/// Why a bot gave no usable answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    Timeout,
    Crash,
    Malformed,
}

/// One external bot during a game.
pub struct Remote {
    process: Option<BotProcess>,
    crashed: bool,
    /// Answers still owed for queries that timed out: the next lines are theirs.
    owed: u32,
    pub log: SeatLog,
}

impl Remote {
    /// Starts `command` and sends it `hello` (a line without its newline).
    pub async fn start(
        command: &BotCommand,
        options: &JsonlOptions,
        cpu_seconds: u64,
        hello: String,
    ) -> Remote {
        let mut remote = Remote {
            process: None,
            crashed: false,
            owed: 0,
            log: SeatLog::default(),
        };
        match BotProcess::spawn_async(command, &options.limits, cpu_seconds, &options.sandbox).await
        {
            Ok(p) => {
                p.send(hello + "\n");
                remote.process = Some(p);
            }
            Err(e) => {
                remote.crashed = true;
                remote.log.spawn_error = Some(e.to_string());
            }
        }
        remote
    }

    fn bad_line(&mut self, line: &[u8]) {
        if self.log.first_bad_line.is_none() {
            let text = crate::bots::shown::shown(&line[..line.len().min(200)]);
            self.log.first_bad_line = Some(text);
        }
    }

    /// Lines that arrived while no query was pending answer nothing.
    fn drain(&mut self) {
        let Some(p) = self.process.as_mut() else {
            return;
        };
        while let Some(item) = p.try_next_item() {
            match item {
                StdoutItem::Line(_) | StdoutItem::TooLong { .. } => {
                    self.owed = self.owed.saturating_sub(1);
                    self.log.discarded += 1;
                }
                StdoutItem::Eof | StdoutItem::Error(_) => self.crashed = true,
            }
        }
    }

    /// Sends `line` (the turn's query, without its newline) and waits for its answer until
    /// `deadline`; `read` says what each line the bot prints is.
    pub async fn ask<T>(
        &mut self,
        line: String,
        deadline: Instant,
        read: impl Fn(&[u8]) -> Reading<T>,
    ) -> Result<T, Silence> {
        self.drain();
        if self.crashed || self.process.is_none() {
            self.log.crashed_turns += 1;
            return Err(Silence::Crash);
        }
        let p = self.process.as_mut().expect("a running process");
        p.send(line + "\n");
        loop {
            let item = match tokio::time::timeout_at(deadline, p.next_item()).await {
                Err(_) => {
                    self.owed += 1;
                    self.log.timeouts += 1;
                    return Err(Silence::Timeout);
                }
                Ok(item) => item,
            };
            match item {
                Some(StdoutItem::Line(bytes)) => match read(&bytes) {
                    Reading::OtherTurn => self.log.discarded += 1,
                    // A line without the turn while an earlier answer is owed is that answer.
                    _ if self.owed > 0 => {
                        self.owed -= 1;
                        self.log.discarded += 1;
                    }
                    Reading::Answer(answer) => return Ok(answer),
                    Reading::Malformed => {
                        self.bad_line(&bytes);
                        self.log.malformed += 1;
                        return Err(Silence::Malformed);
                    }
                },
                Some(StdoutItem::TooLong { .. }) => {
                    self.log.malformed += 1;
                    return Err(Silence::Malformed);
                }
                Some(StdoutItem::Eof) | Some(StdoutItem::Error(_)) | None => {
                    self.crashed = true;
                    self.log.crashed_turns += 1;
                    return Err(Silence::Crash);
                }
            }
        }
    }

    /// Ends the bot with `farewell` (`game_over`, without its newline), keeping how it ended.
    pub async fn finish(&mut self, farewell: String) {
        if let Some(p) = self.process.take() {
            self.log.exit = Some(p.finish(Some((farewell + "\n").into_bytes())).await);
        }
    }
}

/// Ends every external bot of a game with `farewell` (`game_over`), all at once, and
/// returns their logs by seat.
pub async fn finish_all(remotes: Vec<Option<Remote>>, farewell: String) -> Vec<Option<SeatLog>> {
    let ends = remotes.into_iter().map(|r| {
        let farewell = farewell.clone();
        async move {
            let mut r = r?;
            r.finish(farewell).await;
            Some(r.log)
        }
    });
    futures_util::future::join_all(ends).await
}

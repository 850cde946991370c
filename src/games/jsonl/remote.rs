//! Defines [`Remote`]: one external JSON-lines bot during one game, for the games whose
//! seats all answer each turn at once: started in its sandbox, asked one line per turn
//! before a deadline, ended with `game_over`.
//!
//! What a line means is the game's business (a reader turns it into a [`Reading`]); which
//! line answers which turn is the one JSON-lines [`Session`] of every game: `hello` is not
//! awaited (a reply to it during the first turn is set aside), a late answer is never used
//! for a later turn, and a bot that exits is silent for the rest of the game, which goes on.

use super::session::{Codec, Incoming, Session, Verdict};
use crate::bots::JsonlOptions;
use crate::bots::process::{BotCommand, BotProcess, ExitReport, StdoutItem};
use crate::games::SeatLog;
pub use crate::games::shared::silence::Silence;
use serde_json::{Map, Value};
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
    /// An answer of which the game will not take everything (why, in the game's words).
    Flawed(T, String),
    /// It names another turn: a late answer, never used for this one.
    OtherTurn,
    /// Not an answer (why, in the game's words): the seat's turn is a fault.
    Malformed(String),
}

/// The codec of a game whose query is its turn number and whose answer the game's reader
/// reads.
pub struct TurnCodec<T> {
    pub read: fn(&[u8], u32) -> Reading<T>,
}

impl<T: std::fmt::Debug> Codec for TurnCodec<T> {
    type Query = u32;
    type Answer = Result<T, Silence>;

    fn read(
        &self,
        line: &[u8],
        _: &Map<String, Value>,
        turn: &u32,
    ) -> Result<(Self::Answer, Option<String>), String> {
        match (self.read)(line, *turn) {
            Reading::Answer(answer) => Ok((Ok(answer), None)),
            Reading::Flawed(answer, why) => Ok((Ok(answer), Some(why))),
            Reading::OtherTurn => Err(format!("it names another turn than {turn}")),
            Reading::Malformed(why) => Err(why),
        }
    }

    fn fault(&self, _: &u32, silence: Silence) -> Self::Answer {
        Err(silence)
    }

    fn answer_keys(&self) -> &'static [&'static str] {
        &[]
    }
}

/// One external bot during a game.
pub struct Remote<T: std::fmt::Debug> {
    process: Option<BotProcess>,
    session: Session<TurnCodec<T>>,
    spawn_error: Option<String>,
    exit: Option<ExitReport>,
}

impl<T: std::fmt::Debug> Remote<T> {
    /// Starts `command` and sends it `hello` (a line without its newline); `read` reads its
    /// answers.
    pub async fn start(
        command: &BotCommand,
        options: &JsonlOptions,
        cpu_seconds: u64,
        hello: String,
        read: fn(&[u8], u32) -> Reading<T>,
    ) -> Remote<T> {
        let mut remote = Remote {
            process: None,
            session: Session::with(TurnCodec { read }),
            spawn_error: None,
            exit: None,
        };
        match BotProcess::spawn_async(command, &options.limits, cpu_seconds, &options.sandbox).await
        {
            Ok(p) => {
                p.send(hello + "\n");
                remote.process = Some(p);
            }
            Err(e) => {
                remote.session.on_crash();
                remote.spawn_error = Some(e.to_string());
            }
        }
        remote
    }

    /// What the session makes of one item of the bot's stdout.
    fn take(&mut self, item: Option<StdoutItem>) -> Option<Result<T, Silence>> {
        match item {
            Some(StdoutItem::Line(bytes)) => match self.session.on_line(Incoming::Line(&bytes)) {
                Verdict::Answered(answer) => Some(answer),
                Verdict::Discarded(_) => None,
            },
            Some(StdoutItem::TooLong { .. }) => match self.session.on_line(Incoming::TooLong) {
                Verdict::Answered(answer) => Some(answer),
                Verdict::Discarded(_) => None,
            },
            Some(StdoutItem::Eof) | Some(StdoutItem::Error(_)) | None => {
                Some(self.session.on_crash().unwrap_or(Err(Silence::Crash)))
            }
        }
    }

    /// Sends `line` (the query of turn `turn`, without its newline) and waits for its
    /// answer until `deadline`.
    pub async fn ask(&mut self, line: String, turn: u32, deadline: Instant) -> Result<T, Silence> {
        // Lines that arrived while no query was pending answer nothing.
        while let Some(item) = self.process.as_mut().and_then(BotProcess::try_next_item) {
            let _ = self.take(Some(item));
        }
        if self.session.is_crashed() || self.process.is_none() {
            return self.session.crashed_answer(&turn);
        }
        self.session.begin(turn, turn);
        let p = self.process.as_mut().expect("a running process");
        p.send(line + "\n");
        loop {
            let p = self.process.as_mut().expect("a running process");
            match tokio::time::timeout_at(deadline, p.next_item()).await {
                Err(_) => return self.session.on_timeout(),
                Ok(item) => {
                    if let Some(answer) = self.take(item) {
                        return answer;
                    }
                }
            }
        }
    }

    /// Ends the bot with `farewell` (`game_over`, without its newline), keeping how it ended.
    pub async fn finish(&mut self, farewell: String) {
        if let Some(p) = self.process.take() {
            self.exit = Some(p.finish(Some((farewell + "\n").into_bytes())).await);
        }
    }

    /// What the bot did in the game.
    pub fn log(&self) -> SeatLog {
        let stats = self.session.stats();
        SeatLog {
            timeouts: stats.timeouts,
            malformed: stats.invalid,
            crashed_turns: stats.crashes,
            discarded: stats.discarded(),
            spawn_error: self.spawn_error.clone(),
            first_bad_line: self.session.first_bad_line().map(|b| b.text.clone()),
            first_bad_why: self.session.first_bad_line().map(|b| b.why.clone()),
            exit: self.exit.clone(),
        }
    }
}

/// Ends every external bot of a game with `farewell` (`game_over`), all at once, and
/// returns their logs by seat.
pub async fn finish_all<T: std::fmt::Debug>(
    remotes: Vec<Option<Remote<T>>>,
    farewell: String,
) -> Vec<Option<SeatLog>> {
    let ends = remotes.into_iter().map(|r| {
        let farewell = farewell.clone();
        async move {
            let mut r = r?;
            r.finish(farewell).await;
            Some(r.log())
        }
    });
    futures_util::future::join_all(ends).await
}

//! Defines [`play_game`]: one RobotGame between built-in AIs and external JSON-lines bots,
//! each bot a sandboxed process started for the game.
//!
//! The messages are RobotGame's (`games::robotgame::protocol`); the life cycle, deadlines
//! and faults are those of every JSON-lines bot: `hello` is not awaited; each turn wants one
//! line before the deadline (the first one also gets the start-up allowance); a late
//! answer is never used for a later turn; a bot that exits is silent for the rest of the
//! game, which goes on.

use crate::bots::JsonlOptions;
use crate::bots::process::{BotCommand, BotProcess, ExitReport, StdoutItem};
use crate::games::robotgame::protocol::{self, Reading};
use crate::games::robotgame::{Answer, BuiltinAi, Command, Game, GameError, Seat, Setup, Silence};
use std::time::Duration;
use tokio::time::Instant;

/// Who plays a seat.
#[derive(Debug, Clone)]
pub enum Seatholder {
    Builtin(BuiltinAi),
    External(BotCommand),
}

/// What an external bot did in one game, for the fault report.
#[derive(Debug, Clone, Default)]
pub struct ExternalLog {
    pub timeouts: u32,
    pub malformed: u32,
    /// Turns it was silent because it had exited (or never started).
    pub crashed_turns: u32,
    /// Lines thrown away: late answers and answers to other turns.
    pub discarded: u32,
    pub spawn_error: Option<String>,
    /// The first line that was not an answer, cut to 200 bytes.
    pub first_bad_line: Option<String>,
    pub exit: Option<ExitReport>,
}

/// One external bot during a game.
struct Remote {
    process: Option<BotProcess>,
    crashed: bool,
    /// Answers still owed for queries that timed out: the next lines are theirs.
    owed: u32,
    log: ExternalLog,
}

impl Remote {
    fn bad_line(&mut self, line: &[u8]) {
        if self.log.first_bad_line.is_none() {
            let text = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
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
                    if self.owed > 0 {
                        self.owed -= 1;
                    }
                    self.log.discarded += 1;
                }
                StdoutItem::Eof | StdoutItem::Error(_) => self.crashed = true,
            }
        }
    }

    /// Sends the turn and waits for its answer until `deadline`.
    async fn ask(
        &mut self,
        line: String,
        turn: u8,
        deadline: Instant,
    ) -> Result<Vec<Command>, Silence> {
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
                Some(StdoutItem::Line(bytes)) => match protocol::read_answer(&bytes, turn) {
                    Reading::Answer(commands) if self.owed == 0 => return Ok(commands),
                    Reading::OtherTurn(_) => self.log.discarded += 1,
                    // A line without a turn while an earlier answer is owed is that answer.
                    Reading::Answer(_) | Reading::Malformed(_) if self.owed > 0 => {
                        self.owed -= 1;
                        self.log.discarded += 1;
                    }
                    Reading::Answer(_) => unreachable!("handled above"),
                    Reading::Malformed(_) => {
                        let bytes = bytes.clone();
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
}

/// Plays one game of `seats.len()` players with `seed`; `names` by seat go into `hello`.
/// Returns the finished game and, by seat, the log of each external bot.
pub async fn play_game(
    seats: &[Seatholder],
    names: &[String],
    seed: u64,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(Game, Vec<Option<ExternalLog>>), GameError> {
    let n = seats.len();
    let mut game = Game::new(&Setup::standard(n as u8, seed))?;
    let cpu = options.limits.cpu_seconds_for(
        u16::from(crate::games::robotgame::engine::TURNS),
        time_limit_ms,
        options.startup_ms,
    );
    // Start every external bot at once; each gets `hello` as soon as it runs.
    let starts = seats.iter().enumerate().map(|(s, holder)| async move {
        match holder {
            Seatholder::Builtin(_) => None,
            Seatholder::External(command) => {
                let mut remote = Remote {
                    process: None,
                    crashed: false,
                    owed: 0,
                    log: ExternalLog::default(),
                };
                match BotProcess::spawn_async(command, &options.limits, cpu, &options.sandbox).await
                {
                    Ok(p) => {
                        p.send(protocol::hello(Seat(s as u8), names, time_limit_ms) + "\n");
                        remote.process = Some(p);
                    }
                    Err(e) => {
                        remote.crashed = true;
                        remote.log.spawn_error = Some(e.to_string());
                    }
                }
                Some(remote)
            }
        }
    });
    let mut remotes: Vec<Option<Remote>> = futures_util::future::join_all(starts).await;
    let mut players: Vec<Option<Box<dyn crate::games::robotgame::Player + Send>>> = seats
        .iter()
        .enumerate()
        .map(|(s, h)| match h {
            Seatholder::Builtin(ai) => Some(ai.player(seed, Seat(s as u8))),
            Seatholder::External(_) => None,
        })
        .collect();
    let mut buffers: Vec<Vec<Command>> = vec![Vec::new(); n];
    let mut first = true;
    while !game.is_over() {
        let turn = game.turn();
        let line = protocol::turn(&game);
        let allowance = if first { options.startup_ms } else { 0 };
        let deadline = Instant::now() + Duration::from_millis(time_limit_ms + allowance);
        first = false;
        let asks = remotes.iter_mut().map(|r| {
            let line = line.clone();
            async move {
                match r {
                    Some(r) => Some(r.ask(line, turn, deadline).await),
                    None => None,
                }
            }
        });
        let replies = futures_util::future::join_all(asks).await;
        let mut silences: Vec<Option<Silence>> = vec![None; n];
        for (s, reply) in replies.into_iter().enumerate() {
            buffers[s].clear();
            match reply {
                Some(Ok(commands)) => buffers[s] = commands,
                Some(Err(silence)) => silences[s] = Some(silence),
                None => {
                    if let Some(p) = players[s].as_mut() {
                        p.act(&game, Seat(s as u8), &mut buffers[s]);
                    }
                }
            }
        }
        let answers: Vec<Answer<'_>> = (0..n)
            .map(|s| match silences[s] {
                Some(silence) => Answer::Silent(silence),
                None => Answer::Actions(&buffers[s]),
            })
            .collect();
        game.step(&answers)?;
    }
    let farewell = protocol::game_over(&game.scores()) + "\n";
    let ends = remotes.iter_mut().map(|r| {
        let farewell = farewell.clone().into_bytes();
        async move {
            if let Some(r) = r
                && let Some(p) = r.process.take()
            {
                r.log.exit = Some(p.finish(Some(farewell)).await);
            }
        }
    });
    futures_util::future::join_all(ends).await;
    Ok((
        game,
        remotes.into_iter().map(|r| r.map(|r| r.log)).collect(),
    ))
}

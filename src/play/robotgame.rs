//! Defines [`play_game`]: one RobotGame between built-in AIs and external JSON-lines bots,
//! each bot a sandboxed process started for the game.
//!
//! The messages are RobotGame's (`games::robotgame::protocol`); the life cycle, deadlines
//! and faults are those of every JSON-lines bot: `hello` is not awaited; each turn wants one
//! line before the deadline (the first one also gets the start-up allowance); a late
//! answer is never used for a later turn; a bot that exits is silent for the rest of the
//! game, which goes on.

use super::remote::{self, ExternalLog, Reading, Remote};
use crate::bots::JsonlOptions;
use crate::games::robotgame::protocol;
use crate::games::robotgame::{Answer, BuiltinAi, Command, Game, GameError, Seat, Setup, Silence};
use std::time::Duration;
use tokio::time::Instant;

/// Who plays a seat.
pub type Seatholder = remote::Seatholder<BuiltinAi>;

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
                let hello = protocol::hello(Seat(s as u8), names, time_limit_ms);
                Some(Remote::start(command, options, cpu, hello).await)
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
                    Some(r) => Some(r.ask(line, deadline, |l| read(l, turn)).await),
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
                Some(Err(silence)) => silences[s] = Some(silence_of(silence)),
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
    let logs = remote::finish_all(remotes, protocol::game_over(&game.scores())).await;
    Ok((game, logs))
}

/// What a RobotGame bot's line is for turn `turn`.
fn read(line: &[u8], turn: u8) -> Reading<Vec<Command>> {
    match protocol::read_answer(line, turn) {
        protocol::Reading::Answer(commands) => Reading::Answer(commands),
        protocol::Reading::OtherTurn(_) => Reading::OtherTurn,
        protocol::Reading::Malformed(_) => Reading::Malformed,
    }
}

fn silence_of(s: remote::Silence) -> Silence {
    match s {
        remote::Silence::Timeout => Silence::Timeout,
        remote::Silence::Crash => Silence::Crash,
        remote::Silence::Malformed => Silence::Malformed,
    }
}

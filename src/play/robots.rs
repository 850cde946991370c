//! Defines [`play_game`]: one game of Robots between built-in AIs and external JSON-lines
//! bots, each seat on its own board with the same levels.
//!
//! The messages are Robots' (`games::robots::protocol`); the life cycle is every JSON-lines
//! bot's ([`super::remote`]). Only the seats still playing are asked each turn.

use super::remote::{self, ExternalLog, Reading, Remote};
use crate::bots::JsonlOptions;
use crate::games::robots::protocol;
use crate::games::robots::{
    Answer, BuiltinAi, Game, GameError, Move, Seat, Settings, Setup, Silence,
};
use std::time::Duration;
use tokio::time::Instant;

/// Who plays a seat.
pub type Seatholder = remote::Seatholder<BuiltinAi>;

/// Plays one game of `seats.len()` players with `seed`. Returns the finished game and, by
/// seat, the log of each external bot.
pub async fn play_game(
    seats: &[Seatholder],
    seed: u64,
    settings: Settings,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<(Game, Vec<Option<ExternalLog>>), GameError> {
    let n = seats.len();
    let mut game = Game::new(&Setup {
        seats: n as u8,
        seed,
        settings,
    })?;
    let max_turns = settings.max_turns;
    let cpu = options.limits.cpu_seconds_for(
        u16::try_from(max_turns).unwrap_or(u16::MAX),
        time_limit_ms,
        options.startup_ms,
    );
    let game_ref = &game;
    let starts = seats.iter().enumerate().map(|(s, holder)| async move {
        match holder {
            Seatholder::Builtin(_) => None,
            Seatholder::External(command) => {
                let seat = Seat(s as u8);
                let hello = protocol::hello(seat, game_ref.board(seat), time_limit_ms).to_string();
                Some(Remote::start(command, options, cpu, hello).await)
            }
        }
    });
    let mut remotes: Vec<Option<Remote>> = futures_util::future::join_all(starts).await;
    let mut players: Vec<Option<Box<dyn crate::games::robots::Player + Send>>> = seats
        .iter()
        .enumerate()
        .map(|(s, h)| match h {
            Seatholder::Builtin(ai) => Some(ai.player(seed, Seat(s as u8))),
            Seatholder::External(_) => None,
        })
        .collect();
    let mut buffers: Vec<Vec<Move>> = vec![Vec::new(); n];
    let mut first = true;
    while !game.is_over() {
        let allowance = if first { options.startup_ms } else { 0 };
        let deadline = Instant::now() + Duration::from_millis(time_limit_ms + allowance);
        first = false;
        let g = &game;
        let asks = remotes.iter_mut().enumerate().map(|(s, r)| {
            let seat = Seat(s as u8);
            let query = g.playing(seat).then(|| {
                let board = g.board(seat);
                (protocol::turn(board).to_string(), board.turns() + 1)
            });
            async move {
                match (r, query) {
                    (Some(r), Some((line, turn))) => {
                        Some(r.ask(line, deadline, |l| read(l, turn)).await)
                    }
                    _ => None,
                }
            }
        });
        let replies = futures_util::future::join_all(asks).await;
        let mut silences: Vec<Option<Silence>> = vec![None; n];
        for (s, reply) in replies.into_iter().enumerate() {
            buffers[s].clear();
            match reply {
                Some(Ok(moves)) => buffers[s] = moves,
                Some(Err(silence)) => silences[s] = Some(silence_of(silence)),
                None => {
                    if let Some(p) = players[s].as_mut()
                        && game.playing(Seat(s as u8))
                    {
                        p.act(game.board(Seat(s as u8)), &mut buffers[s]);
                    }
                }
            }
        }
        let answers: Vec<Answer<'_>> = (0..n)
            .map(|s| match silences[s] {
                Some(silence) => Answer::Silent(silence),
                None => Answer::Moves(&buffers[s]),
            })
            .collect();
        game.step(&answers)?;
    }
    let logs = remote::finish_all(remotes, protocol::game_over(&game.scores()).to_string()).await;
    Ok((game, logs))
}

/// What a Robots bot's line is for turn `turn`: an answer naming another turn is a late
/// one (discarded, as for every JSON-lines bot), anything else unreadable is malformed.
fn read(line: &[u8], turn: u32) -> Reading<Vec<Move>> {
    let Ok(text) = std::str::from_utf8(line) else {
        return Reading::Malformed;
    };
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text)
        && let Some(t) = v.get("turn").and_then(serde_json::Value::as_u64)
        && t != u64::from(turn)
    {
        return Reading::OtherTurn;
    }
    let mut moves = Vec::new();
    match protocol::read_answer(text, turn, &mut moves) {
        Ok(()) => Reading::Answer(moves),
        Err(_) => Reading::Malformed,
    }
}

fn silence_of(s: remote::Silence) -> Silence {
    match s {
        remote::Silence::Timeout => Silence::Timeout,
        remote::Silence::Crash => Silence::Crash,
        remote::Silence::Malformed => Silence::Malformed,
    }
}

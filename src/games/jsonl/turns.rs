//! Defines [`play_turns`]: one game whose seats all answer every turn at once (RobotGame,
//! Robots), between built-in AIs and external JSON-lines bots.
//!
//! The loop is the same for every such game: every external bot is started at once and
//! sent `hello` (not awaited); each turn the seats the game asks get their query and one
//! deadline (the first turn also gets the start-up allowance), built-in AIs answer in
//! process, a silent or unreadable seat is a fault the game turns into its forced move,
//! and at the end every bot gets `game_over`. What the messages say, who is asked and what
//! a fault does are the game's ([`TurnBased`]); the life cycle is [`super::remote`]'s.
//! [`play_in_process`] is the same loop when every seat is a built-in AI: no bot, no
//! deadline, on the calling thread.

use super::remote::{self, Reading, Remote, Seatholder, Silence};
use crate::bots::JsonlOptions;
use crate::games::SeatLog;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;

/// A game played in simultaneous turns, as [`play_turns`] drives it.
pub trait TurnBased {
    /// One element of a seat's answer (a RobotGame command, a Robots move).
    type Order: Send + std::fmt::Debug;
    /// The game's in-process player (a trait object).
    type Player: ?Sized + Send;
    type Error;

    /// Turns the game lasts at most: the bots' CPU allowance is reckoned from it.
    fn max_turns(&self) -> u32;
    fn seats(&self) -> usize;
    fn is_over(&self) -> bool;
    /// The `hello` line of `seat` (without its newline).
    fn hello(&self, seat: usize, time_limit_ms: u64) -> String;
    /// The queries of the coming turn, by seat, each with the turn number its answer must
    /// name: one for every seat `s` with `bots[s]` (an external bot holds it) that the game
    /// asks this turn, `None` for the others. All at once, so that a game whose seats share
    /// one query writes it once.
    fn queries(&self, bots: &[bool]) -> Vec<Option<(String, u32)>>;
    /// What a line from a bot is, for turn `turn`.
    fn read(line: &[u8], turn: u32) -> Reading<Vec<Self::Order>>;
    /// A built-in player's answer for `seat` (nothing when the seat does not play now).
    fn act(&self, player: &mut Self::Player, seat: usize, out: &mut Vec<Self::Order>);
    /// Plays the coming turn from every seat's answer, or the reason it has none.
    fn step(&mut self, answers: &[Result<&[Self::Order], Silence>]) -> Result<(), Self::Error>;
    /// Each seat's score, which the `game_over` line tells every bot.
    fn scores(&self) -> Vec<i64>;

    /// The `game_over` line (without its newline): the scores by seat, to which a game may
    /// add what its protocol tells bots at the end.
    fn game_over(&self) -> String {
        game_over(&self.scores())
    }
}

/// Plays `game` to its end: `seats[s]` holds seat `s`, a built-in one played by
/// `builtin(ai, s)`. Returns, by seat, the log of each external bot.
pub async fn play_turns<G: TurnBased, A>(
    game: &mut G,
    seats: &[Seatholder<A>],
    builtin: impl Fn(&A, usize) -> Box<G::Player>,
    time_limit_ms: u64,
    options: &JsonlOptions,
) -> Result<Vec<Option<SeatLog>>, G::Error> {
    let n = seats.len();
    let cpu = options.limits.cpu_seconds_for(
        u16::try_from(game.max_turns()).unwrap_or(u16::MAX),
        time_limit_ms,
        options.startup_ms,
    );
    let game_ref = &*game;
    let starts = seats.iter().enumerate().map(|(s, holder)| async move {
        match holder {
            Seatholder::Builtin(_) => None,
            Seatholder::External(command) => {
                let hello = game_ref.hello(s, time_limit_ms);
                Some(Remote::start(command, options, cpu, hello, G::read).await)
            }
        }
    });
    let mut remotes: Vec<Option<Remote<Vec<G::Order>>>> =
        futures_util::future::join_all(starts).await;
    let mut players: Vec<Option<Box<G::Player>>> = seats
        .iter()
        .enumerate()
        .map(|(s, holder)| match holder {
            Seatholder::Builtin(ai) => Some(builtin(ai, s)),
            Seatholder::External(_) => None,
        })
        .collect();
    // The seats an external bot holds (one that failed to start included: it is asked, and
    // is silent).
    let bots: Vec<bool> = remotes.iter().map(Option::is_some).collect();
    let mut buffers: Vec<Vec<G::Order>> = (0..n).map(|_| Vec::new()).collect();
    let mut first = true;
    while !game.is_over() {
        let allowance = if first { options.startup_ms } else { 0 };
        let deadline = Instant::now() + Duration::from_millis(time_limit_ms + allowance);
        first = false;
        let queries = game.queries(&bots);
        let asks = remotes
            .iter_mut()
            .zip(queries)
            .map(|(remote, query)| async move {
                match (remote, query) {
                    (Some(r), Some((line, turn))) => Some(r.ask(line, turn, deadline).await),
                    _ => None,
                }
            });
        let replies = futures_util::future::join_all(asks).await;
        let mut silences: Vec<Option<Silence>> = vec![None; n];
        for (s, reply) in replies.into_iter().enumerate() {
            buffers[s].clear();
            match reply {
                Some(Ok(orders)) => buffers[s] = orders,
                Some(Err(silence)) => silences[s] = Some(silence),
                None => {
                    if let Some(p) = players[s].as_deref_mut() {
                        game.act(p, s, &mut buffers[s]);
                    }
                }
            }
        }
        let answers: Vec<Result<&[G::Order], Silence>> = (0..n)
            .map(|s| match silences[s] {
                Some(silence) => Err(silence),
                None => Ok(buffers[s].as_slice()),
            })
            .collect();
        game.step(&answers)?;
    }
    Ok(remote::finish_all(remotes, game.game_over()).await)
}

/// The `game_over` line (without its newline): the same message in every such game.
fn game_over(scores: &[i64]) -> String {
    let scores: Vec<Value> = scores
        .iter()
        .enumerate()
        .map(|(seat, score)| json!({"seat": seat, "score": score}))
        .collect();
    json!({"type": "game_over", "scores": scores}).to_string()
}

/// Plays `game` to its end with in-process players only, `players[s]` answering for seat
/// `s` (a number of players other than the game's seats is the game's error). The answer
/// buffers are reused from turn to turn.
pub fn play_in_process<G, P>(game: &mut G, players: &mut [P]) -> Result<(), G::Error>
where
    G: TurnBased,
    P: std::ops::DerefMut<Target = G::Player>,
{
    let seats = game.seats();
    let mut buffers: Vec<Vec<G::Order>> = players.iter().map(|_| Vec::new()).collect();
    while !game.is_over() {
        for (s, (player, buf)) in players.iter_mut().zip(&mut buffers).enumerate().take(seats) {
            buf.clear();
            game.act(player, s, buf);
        }
        let answers: Vec<Result<&[G::Order], Silence>> =
            buffers.iter().map(|buf| Ok(buf.as_slice())).collect();
        game.step(&answers)?;
    }
    Ok(())
}

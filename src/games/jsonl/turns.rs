//! Defines [`play_turns`]: one game whose seats all answer every turn at once (RobotGame,
//! Robots, RoboRally), between built-in AIs and external JSON-lines bots.
//!
//! The loop is the same for every such game: every external bot is started at once and
//! sent `hello` (not awaited); each turn the seats the game asks get their query, built-in
//! AIs answer in process, a silent or unreadable seat is a fault the game turns into its
//! forced move, and at the end every bot gets `game_over`. What the messages say, who is
//! asked and what a fault does are the game's ([`TurnBased`]); a bot's life cycle, its
//! deadlines and its log are the one JSON-lines [`Player`]'s, with [`TurnCodec`] (the query
//! is the turn number, the answer what the game's reader reads).
//! [`play_in_process`] is the same loop when every seat is a built-in AI: no bot, no
//! deadline, on the calling thread.

use super::log::SeatLog;
use super::player::{self, Pace, Player};
use super::session::{Codec, Question};
use crate::bots::JsonlOptions;
use crate::bots::JsonlSeat;
pub use crate::games::shared::silence::Silence;
use serde_json::{Map, Value, json};

/// Who plays a seat: one of the game's built-in AIs, or an external bot.
#[derive(Debug, Clone)]
pub enum Seatholder<A> {
    Builtin(A),
    External(JsonlSeat),
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

    /// Why the game's rules refused (part of) the answer `seat` gave for the turn just
    /// played, in words for the bot's author; `None` when every order was taken, or when
    /// the seat was silent (its log says why).
    fn refused(&self, seat: usize) -> Option<String> {
        let _ = seat;
        None
    }

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
    let pace = Pace {
        turns: u16::try_from(game.max_turns()).unwrap_or(u16::MAX),
        time_limit_ms,
    };
    let game_ref = &*game;
    let starts = seats.iter().enumerate().map(|(s, holder)| async move {
        match holder {
            Seatholder::Builtin(_) => None,
            Seatholder::External(command) => {
                let hello = game_ref.hello(s, time_limit_ms);
                let codec = TurnCodec { read: G::read };
                Some(Player::start(command, options, pace, hello, codec).await)
            }
        }
    });
    let mut bots = futures_util::future::join_all(starts).await;
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
    let external: Vec<bool> = bots.iter().map(Option::is_some).collect();
    let mut buffers: Vec<Vec<G::Order>> = (0..n).map(|_| Vec::new()).collect();
    while !game.is_over() {
        let queries = game.queries(&external);
        let asked: Vec<Option<u32>> = queries.iter().map(|q| q.as_ref().map(|q| q.1)).collect();
        let asks = bots.iter_mut().zip(queries).map(|(bot, query)| async move {
            match (bot, query) {
                (Some(bot), Some((line, turn))) => {
                    let question = Question {
                        turn,
                        query: turn,
                        line: move |_| line,
                    };
                    Some(bot.ask(question).await)
                }
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
        for (s, bot) in bots.iter_mut().enumerate() {
            if let (Some(bot), None, Some(turn)) = (bot, silences[s], asked[s])
                && bot.awaits_refusal()
                && let Some(why) = game.refused(s)
            {
                bot.note_refused(turn, &why);
            }
        }
    }
    Ok(player::finish_all(bots, game.game_over()).await)
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

//! The synchronous player interface and a driver that plays a whole game with it.
//!
//! In-process players (the built-in AIs, test doubles) implement [`Player`]; players that
//! answer over pipes or sockets drive [`Game`] through its query/answer methods directly,
//! concurrently, without this trait.

use super::game::{Game, GameError, Pending};
use super::query::{StartQuery, StartReply, TurnQuery, TurnReply};

/// A player that answers the engine's queries on the spot.
pub trait Player {
    /// Choose a square among `query.options` and a facing.
    fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply;
    /// Choose a card of `query.hand` (by index) and whether to power down.
    fn turn(&mut self, game: &Game, query: &TurnQuery) -> TurnReply;
}

/// Plays `game` to its end, asking `players[seat]` for every query of that seat.
pub fn run_game<P: Player + ?Sized>(
    game: &mut Game,
    players: &mut [Box<P>],
) -> Result<(), GameError> {
    let mut start_replies = Vec::with_capacity(players.len());
    let mut turn_replies = Vec::with_capacity(players.len());
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                start_replies.clear();
                for q in queries {
                    start_replies.push(players[q.seat].start(game, q));
                }
            }
            Pending::Turn(queries) => {
                turn_replies.clear();
                for q in queries {
                    turn_replies.push(players[q.seat].turn(game, q));
                }
            }
            Pending::Cards => return Err(GameError::WrongPhase("run_game", "scenario cards")),
            Pending::Over => return Ok(()),
        }
        if matches!(game.pending(), Pending::Start(_)) {
            game.answer_start(&start_replies)?;
        } else {
            game.answer_turn(&turn_replies)?;
        }
    }
}

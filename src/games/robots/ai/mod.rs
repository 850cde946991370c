//! Built-in Robots players: `random` and `dodger` (`super::run_game` plays a game with
//! in-process players).
//!
//! A player sees only its own seat's board (seats do not interact). Each AI is
//! deterministic given the game seed and its seat: randomness, where it uses any, comes
//! from a generator derived from both, never the engine's, so a game of built-in AIs
//! replays exactly from its seed.

mod dodger;
mod random;
mod sim;
mod swarm;

pub use dodger::Dodger;
pub use random::RandomAi;

use super::board::Board;
use super::types::{Move, Seat};
use crate::games::shared::ai::{builtin_ais, seat_rng};

/// An in-process player.
pub trait Player {
    /// Writes the moves of the board's next turn into `out` (empty on entry).
    fn act(&mut self, board: &Board, out: &mut Vec<Move>);
}

builtin_ais! {
    /// The built-in AIs, by the name used in `builtin:NAME`.
    pub enum BuiltinAi {
        /// One uniformly random legal move a turn.
        Random = "random": "one uniformly random legal move a turn (never Q)",
        /// Dodges, lures robots into collisions, blasts or teleports when cornered, and plays
        /// up to 8 moves a turn.
        Dodger = "dodger":
            "steps where no robot can reach, lures robots into collisions and heaps, \
             blasts or teleports when cornered, up to 8 moves a turn",
    }
}

/// The salt of Robots' AI generators (see [`seat_rng`]).
const AI_SALT: u64 = 0x7EB0_75EE_D000_0000;

impl BuiltinAi {
    /// A fresh player of this kind for `seat` of the game with `game_seed`.
    pub fn player(self, game_seed: u64, seat: Seat) -> Box<dyn Player + Send> {
        let rng = seat_rng(game_seed, AI_SALT, u64::from(seat.0));
        match self {
            BuiltinAi::Random => Box::new(RandomAi::new(rng)),
            BuiltinAi::Dodger => Box::new(Dodger::new(rng)),
        }
    }
}

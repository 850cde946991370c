//! Built-in RobotGame players: `random` and `hunter` (`super::run_game` plays a game with
//! in-process players).
//!
//! Each AI is deterministic given the game seed and its seat: it owns a generator derived
//! from both, never the engine's, so a game of built-in AIs replays exactly from its seed.

mod hunter;
mod random;

pub use hunter::Hunter;
pub use random::RandomAi;

use super::engine::Game;
use super::types::{Command, Seat};
use crate::games::shared::ai::{builtin_ais, seat_rng};

/// An in-process player: answers for every robot of its seat, each turn.
pub trait Player {
    /// Writes the actions of `seat` for the game's current turn into `out` (empty on entry).
    fn act(&mut self, game: &Game, seat: Seat, out: &mut Vec<Command>);
}

builtin_ais! {
    /// The built-in AIs, by the name used in `builtin:NAME`.
    pub enum BuiltinAi {
        /// A uniformly random legal action per robot.
        Random = "random": "a uniformly random legal action per robot",
        /// Chases the nearest enemy, fights, and leaves spawn squares before spawns.
        Hunter = "hunter":
            "chases the nearest enemy, attacks, guards or blows up when outnumbered, \
             leaves spawn squares before spawns",
    }
}

/// The salt of RobotGame's AI generators (see [`seat_rng`]).
const AI_SALT: u64 = 0x0B07_5EED_0000_0000;

impl BuiltinAi {
    /// A fresh player of this kind for `seat` of the game with `game_seed`.
    pub fn player(self, game_seed: u64, seat: Seat) -> Box<dyn Player + Send> {
        let rng = seat_rng(game_seed, AI_SALT, u64::from(seat.0));
        match self {
            BuiltinAi::Random => Box::new(RandomAi::new(rng)),
            BuiltinAi::Hunter => Box::new(Hunter::new(rng)),
        }
    }
}

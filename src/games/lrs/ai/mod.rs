//! Built-in AIs: in-process players for demos, tests and benchmarks.
//!
//! Each is deterministic given the game seed and its seat: it owns a generator derived from
//! both, never the engine's, so a game with built-in AIs replays exactly from its seed.

mod distance;
mod hunter;
mod lookahead;
mod planner;
mod random;
mod runner;

pub use distance::FlagDistances;
pub use hunter::Hunter;
pub use random::RandomAi;
pub use runner::Runner;

use crate::games::lrs::engine::{Player, Seat};
use crate::games::shared::ai::{builtin_ais, seat_rng};
use std::sync::Arc;

builtin_ais! {
    /// The built-in AIs, by the name used in `builtin:NAME`.
    pub enum BuiltinAi {
        /// Plays a uniformly random card of its hand.
        Random = "random": "plays a random card of its hand",
        /// Races the flags in order, looking one card ahead.
        Runner = "runner": "races the flags in order, looking one card ahead",
        /// Shoots and pushes for points, shoving robots into pits when it can.
        Hunter = "hunter": "shoots and pushes for points, shoves robots into pits",
    }
}

/// The salt of Last Robot Standing's AI generators (see [`seat_rng`]).
const AI_SALT: u64 = 0xA1A1_5EED_0000_0000;

impl BuiltinAi {
    /// A fresh player of this kind for `seat` of the game with `game_seed`.
    pub fn player(self, game_seed: u64, seat: Seat) -> Box<dyn Player + Send> {
        self.player_with(game_seed, seat, None)
    }

    /// Like [`BuiltinAi::player`], sharing the board's precomputed maps (see
    /// [`FlagDistances`]) instead of computing them for every game: callers that play many
    /// games on one board build them once. The maps must be of the game's board.
    pub fn player_with(
        self,
        game_seed: u64,
        seat: Seat,
        maps: Option<Arc<FlagDistances>>,
    ) -> Box<dyn Player + Send> {
        let rng = seat_rng(game_seed, AI_SALT, seat as u64);
        match self {
            BuiltinAi::Random => Box::new(RandomAi::new(rng)),
            BuiltinAi::Runner => Box::new(Runner::new(rng, maps)),
            BuiltinAi::Hunter => Box::new(Hunter::new(rng, maps)),
        }
    }
}

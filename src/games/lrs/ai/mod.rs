//! Built-in AIs: in-process players for demos, tests and benchmarks.
//!
//! Each is deterministic given the game seed and its seat: it owns a generator derived from
//! both, never the engine's, so a game with built-in AIs replays exactly from its seed.

mod distance;
mod hunter;
mod lookahead;
mod random;
mod runner;

pub use distance::FlagDistances;
pub use hunter::Hunter;
pub use random::RandomAi;
pub use runner::Runner;

use crate::games::lrs::engine::{Player, Seat};
use crate::rng::{GameRng, splitmix64};
use std::sync::Arc;

/// The built-in AIs, by the name used in `builtin:NAME`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BuiltinAi {
    /// Plays a uniformly random card of its hand.
    Random,
    /// Races the flags in order, looking one card ahead.
    Runner,
    /// Shoots and pushes for points, shoving robots into pits when it can.
    Hunter,
}

impl BuiltinAi {
    pub const ALL: [BuiltinAi; 3] = [BuiltinAi::Random, BuiltinAi::Runner, BuiltinAi::Hunter];

    pub fn name(self) -> &'static str {
        match self {
            BuiltinAi::Random => "random",
            BuiltinAi::Runner => "runner",
            BuiltinAi::Hunter => "hunter",
        }
    }

    /// One line saying what the AI does, for help texts.
    pub fn summary(self) -> &'static str {
        match self {
            BuiltinAi::Random => "plays a random card of its hand",
            BuiltinAi::Runner => "races the flags in order, looking one card ahead",
            BuiltinAi::Hunter => "shoots and pushes for points, shoves robots into pits",
        }
    }

    pub fn from_name(name: &str) -> Option<BuiltinAi> {
        BuiltinAi::ALL.into_iter().find(|ai| ai.name() == name)
    }

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
        let rng = ai_rng(game_seed, seat);
        match self {
            BuiltinAi::Random => Box::new(RandomAi::new(rng)),
            BuiltinAi::Runner => Box::new(Runner::new(rng, maps)),
            BuiltinAi::Hunter => Box::new(Hunter::new(rng, maps)),
        }
    }
}

/// The generator of the AI in `seat`: independent of the engine's and of other seats'.
fn ai_rng(game_seed: u64, seat: Seat) -> GameRng {
    let mut state = game_seed ^ 0xA1A1_5EED_0000_0000 ^ (seat as u64 + 1);
    GameRng::new(splitmix64(&mut state))
}

//! The built-in players (RR17): `random` and `racer`, and the [`Player`] interface every
//! in-process player (and a replay's log) answers the engine through.

mod racer;
mod sim;

pub use racer::Racer;

use super::engine::{
    Game, GameError, Pending, ProgramQuery, ProgramReply, StartQuery, StartReply, fallback_program,
};
use crate::games::shared::ai::{builtin_ais, seat_rng};
use crate::games::shared::grid::Direction;

/// What makes the AIs' generators RoboRally's own (docs/determinism.md).
const AI_SALT: u64 = 0x5252_A15E_ED00_0000;

/// An in-process player: answers the engine's questions from the game's state.
pub trait Player {
    fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply;
    fn program(&mut self, game: &Game, query: &ProgramQuery) -> ProgramReply;
}

builtin_ais! {
    /// RoboRally's built-in AIs.
    pub enum BuiltinAi {
        Random = "random": "a random legal program, never powers down",
        Racer = "racer": "searches its five registers for the best race towards its next target",
    }
}

impl BuiltinAi {
    /// The AI in `seat` of the game seeded `seed`.
    pub fn player(self, seed: u64, seat: usize) -> Box<dyn Player + Send> {
        match self {
            BuiltinAi::Random => Box::new(Random(seat_rng(seed, AI_SALT, seat as u64))),
            BuiltinAi::Racer => Box::new(Racer::default()),
        }
    }
}

/// RR17.1: a program drawn as RR5.2's fallback from its own generator.
pub struct Random(crate::rng::GameRng);

impl Player for Random {
    fn start(&mut self, _game: &Game, q: &StartQuery) -> StartReply {
        StartReply::Choice {
            at: q.options[0],
            facing: Direction::from_index(self.0.below(4) as u8),
        }
    }

    fn program(&mut self, _game: &Game, q: &ProgramQuery) -> ProgramReply {
        ProgramReply::Program {
            cards: fallback_program(&mut self.0, q.hand.len(), q.free),
            power_down: false,
        }
    }
}

/// Plays `game` to its end with in-process `players` (by seat).
pub fn run_game<P: Player + ?Sized>(
    game: &mut Game,
    players: &mut [Box<P>],
) -> Result<(), GameError> {
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                let replies: Vec<StartReply> = queries
                    .iter()
                    .map(|q| players[q.seat].start(game, q))
                    .collect();
                game.answer_start(&replies)?;
            }
            Pending::Program(queries) => {
                let replies: Vec<ProgramReply> = queries
                    .iter()
                    .map(|q| players[q.seat].program(game, q))
                    .collect();
                game.answer_program(&replies)?;
            }
            Pending::Cards | Pending::Over => return Ok(()),
        }
    }
}

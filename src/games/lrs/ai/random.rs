//! `builtin:random`: a uniformly random card and facing, never powering down.

use crate::games::lrs::engine::{
    Direction, Game, Player, StartQuery, StartReply, TurnQuery, TurnReply,
};
use crate::rng::GameRng;

/// Plays a random card of its hand; the baseline the other AIs must beat.
#[derive(Debug)]
pub struct RandomAi {
    rng: GameRng,
}

impl RandomAi {
    pub fn new(rng: GameRng) -> RandomAi {
        RandomAi { rng }
    }
}

impl Player for RandomAi {
    fn start(&mut self, _game: &Game, query: &StartQuery) -> StartReply {
        let pos = query.options[self.rng.below(query.options.len() as u32) as usize];
        let facing = Direction::from_index(self.rng.below(4) as u8);
        StartReply::Choose { pos, facing }
    }

    fn turn(&mut self, _game: &Game, query: &TurnQuery) -> TurnReply {
        TurnReply::Play {
            card: self.rng.below(query.hand.len() as u32) as usize,
            power_down: false,
        }
    }
}

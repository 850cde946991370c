//! `builtin:random`: a uniformly random card and facing, never powering down; the baseline
//! the other AIs must beat.

use crate::games::lrs::engine::{
    Direction, Game, Player, StartQuery, StartReply, TurnQuery, TurnReply,
};

pub use crate::games::shared::ai::RandomAi;

impl Player for RandomAi {
    fn start(&mut self, _game: &Game, query: &StartQuery) -> StartReply {
        let pos = self.pick(&query.options);
        let facing = Direction::from_index(self.below(4) as u8);
        StartReply::Choose { pos, facing }
    }

    fn turn(&mut self, _game: &Game, query: &TurnQuery) -> TurnReply {
        TurnReply::Play {
            card: self.below(query.hand.len()),
            power_down: false,
        }
    }
}

//! `builtin:random`: one uniformly random legal move a turn.
//!
//! The baseline the other AIs must beat clearly. It never quits (that would end its game at
//! once and say nothing about the rules), but it may teleport, blast or make a last stand.

use super::Player;
use crate::games::robots::board::Board;
use crate::games::robots::types::Move;

pub use crate::games::shared::ai::RandomAi;

impl Player for RandomAi {
    fn act(&mut self, board: &Board, out: &mut Vec<Move>) {
        let mut legal = [Move::Pass; Move::ALL.len()];
        let mut n = 0;
        for mv in Move::ALL {
            if mv != Move::Quit && board.check(mv).is_ok() {
                legal[n] = mv;
                n += 1;
            }
        }
        out.push(legal[self.below(n)]);
    }
}

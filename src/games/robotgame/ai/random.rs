//! `builtin:random`: every robot picks uniformly among its legal actions.
//!
//! The baseline the other AIs must beat clearly, and the cheapest player for benchmarks:
//! one draw per robot and turn.

use super::Player;
use crate::games::robotgame::arena::ARENA;
use crate::games::robotgame::engine::Game;
use crate::games::robotgame::types::{Action, Command, Seat};

pub use crate::games::shared::ai::RandomAi;

/// Picks, for every robot, one of: a move or an attack to each walkable neighbour, guard,
/// suicide, all equally likely.
impl Player for RandomAi {
    fn act(&mut self, game: &Game, seat: Seat, out: &mut Vec<Command>) {
        let robots = game.robots();
        for &id in game.alive() {
            let r = &robots[id.index()];
            if r.seat != seat {
                continue;
            }
            let mut choices = [Action::Guard; 10];
            let mut n = 2;
            choices[1] = Action::Suicide;
            for to in ARENA.neighbours(r.sq).iter().flatten() {
                choices[n] = Action::Move(to.pos());
                choices[n + 1] = Action::Attack(to.pos());
                n += 2;
            }
            out.push(Command {
                robot: id,
                action: self.pick(&choices[..n]),
            });
        }
    }
}

//! `builtin:runner`: races the flags in order, one card of lookahead at a time.

use super::distance::{FlagDistances, UNREACHABLE};
use super::lookahead::{Outcome, exposure};
use super::planner::Planner;
use crate::games::lrs::engine::{
    Direction, Game, Player, Pos, Robot, Seat, StartQuery, StartReply, TurnQuery, TurnReply,
};
use crate::rng::GameRng;
use std::sync::Arc;

/// Damage at which the runner powers down to come back at damage 2 (R11.4).
const POWER_DOWN_AT: u8 = 7;

/// Heads for its next flag, avoiding pits, edges and lasers.
#[derive(Debug)]
pub struct Runner(Planner);

impl Runner {
    /// `maps`: the board's maps when the caller shares them between games (see
    /// [`FlagDistances`]); `None` computes them on first use.
    pub fn new(rng: GameRng, maps: Option<Arc<FlagDistances>>) -> Runner {
        Runner(Planner::new(rng, maps))
    }
}

/// How good it is for `robot` to stand at `pos` facing `facing`, flag-wise: the walking
/// distance still to go (with a flag reached worth a lot), and a bonus for already facing
/// a step that brings it closer.
pub(super) fn flag_value(
    game: &Game,
    maps: &FlagDistances,
    robot: &Robot,
    pos: Pos,
    facing: Direction,
) -> i32 {
    let board = game.board();
    let flags = board.flags().len() as u8;
    let mut next = robot.next_flag;
    let mut value = 0;
    if next <= flags && board.flags()[next as usize - 1] == pos {
        value += 5_000;
        next += 1;
    }
    if next > flags {
        return value + 5_000;
    }
    let d = maps.to_flag(next, pos);
    if d >= UNREACHABLE {
        return value - 50_000;
    }
    value -= i32::from(d) * 100;
    let ahead = pos.step(facing);
    if !board.blocked(pos, facing) && board.contains(ahead) && maps.to_flag(next, ahead) < d {
        value += 60;
    }
    value
}

/// Penalty for ending where lasers can reach.
pub(super) fn danger(game: &Game, maps: &FlagDistances, me: Seat, out: &Outcome) -> i32 {
    i32::from(maps.laser_damage(out.pos)) * 25
        + i32::from(exposure(game, me, out.pos, &out.positions)) * 10
}

/// The best facing at `pos` for heading to the robot's next flag.
pub(super) fn best_facing(game: &Game, maps: &FlagDistances, robot: &Robot, pos: Pos) -> Direction {
    Direction::ALL
        .into_iter()
        .max_by_key(|&d| {
            (
                flag_value(game, maps, robot, pos, d),
                std::cmp::Reverse(d.index()),
            )
        })
        .unwrap_or(Direction::North)
}

/// Picks the start option closest to the next flag, facing the way to it.
pub(super) fn choose_start(game: &Game, maps: &FlagDistances, query: &StartQuery) -> StartReply {
    let robot = game.robots()[query.seat];
    let pos = query
        .options
        .iter()
        .copied()
        .max_by_key(|&p| {
            let safe = -i32::from(maps.laser_damage(p)) * 25;
            (
                flag_value(game, maps, &robot, p, Direction::North) + safe,
                std::cmp::Reverse((p.y, p.x)),
            )
        })
        .unwrap_or(query.options[0]);
    StartReply::Choose {
        pos,
        facing: best_facing(game, maps, &robot, pos),
    }
}

impl Player for Runner {
    fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply {
        self.0.start(game, query)
    }

    fn turn(&mut self, game: &Game, query: &TurnQuery) -> TurnReply {
        let me = query.seat;
        let robot = game.robots()[me];
        let card = self.0.best_card(game, query, |out, maps| {
            flag_value(game, maps, &robot, out.pos, out.facing) - danger(game, maps, me, out)
        });
        TurnReply::Play {
            card,
            power_down: robot.damage >= POWER_DOWN_AT && !query.locked,
        }
    }
}

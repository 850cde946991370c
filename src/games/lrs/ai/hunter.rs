//! `builtin:hunter`: shoots and pushes for points, shoving robots into pits when it can.

use super::distance::FlagDistances;
use super::lookahead::target_in_line;
use super::runner::{best_card, choose_start, danger, flag_value, maps};
use crate::games::lrs::engine::{Game, Player, StartQuery, StartReply, TurnQuery, TurnReply};
use crate::rng::GameRng;
use std::sync::Arc;

/// Goes for points from other robots first and flags second.
#[derive(Debug)]
pub struct Hunter {
    rng: GameRng,
    maps: Option<Arc<FlagDistances>>,
}

impl Hunter {
    /// `maps`: the board's precomputed maps when the caller shares them between games;
    /// `None` computes them on first use.
    pub fn new(rng: GameRng, maps: Option<Arc<FlagDistances>>) -> Hunter {
        Hunter { rng, maps }
    }
}

impl Player for Hunter {
    fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply {
        let maps = maps(&mut self.maps, game);
        choose_start(game, maps, query)
    }

    fn turn(&mut self, game: &Game, query: &TurnQuery) -> TurnReply {
        let maps = maps(&mut self.maps, game);
        let me = query.seat;
        let robot = game.robots()[me];
        let board = game.board();
        let card = best_card(game, query, |out| {
            let aim = target_in_line(board, out.pos, out.facing, &out.positions).map_or(0, |_| 300);
            let nearest = out
                .positions
                .iter()
                .enumerate()
                .filter(|(seat, p)| *seat != me && p.is_some())
                .filter_map(|(_, p)| *p)
                .map(|p| p.manhattan(out.pos))
                .min()
                .unwrap_or(0);
            i32::from(out.kills) * 2_000 + i32::from(out.pushes) * 600 + aim - nearest * 20
                + flag_value(game, maps, &robot, out.pos, out.facing) / 4
                - danger(game, maps, me, out) * 3
                + self.rng.below(8) as i32
        });
        TurnReply::Play {
            card,
            power_down: false,
        }
    }
}

//! `builtin:hunter`: shoots and pushes for points, shoving robots into pits when it can.

use super::distance::FlagDistances;
use super::lookahead::target_in_line;
use super::planner::Planner;
use super::runner::{danger, flag_value};
use crate::games::lrs::engine::{Game, Player, StartQuery, StartReply, TurnQuery, TurnReply};
use crate::rng::GameRng;
use std::sync::Arc;

/// Goes for points from other robots first and flags second.
#[derive(Debug)]
pub struct Hunter(Planner);

impl Hunter {
    /// `maps`: the board's maps when the caller shares them between games (see
    /// [`FlagDistances`]); `None` computes them on first use.
    pub fn new(rng: GameRng, maps: Option<Arc<FlagDistances>>) -> Hunter {
        Hunter(Planner::new(rng, maps))
    }
}

impl Player for Hunter {
    fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply {
        self.0.start(game, query)
    }

    fn turn(&mut self, game: &Game, query: &TurnQuery) -> TurnReply {
        let me = query.seat;
        let robot = game.robots()[me];
        let board = game.board();
        let card = self.0.best_card(game, query, |out, maps| {
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
        });
        TurnReply::Play {
            card,
            power_down: false,
        }
    }
}

//! Defines [`Planner`]: what the runner and the hunter share. They keep the same state (a
//! generator for a little noise, the board's maps) and choose the same way: the start square
//! nearest the next flag, and the card whose one-card outcome their own rating puts highest.

use super::distance::FlagDistances;
use super::lookahead::{Outcome, simulate};
use super::runner::choose_start;
use crate::games::lrs::engine::{Game, StartQuery, StartReply, TurnQuery};
use crate::rng::GameRng;
use std::sync::Arc;

/// Value of a destroyed robot: never worth it.
const DESTROYED: i32 = -1_000_000;

/// The state and the choices of a one-card-lookahead AI.
#[derive(Debug)]
pub(super) struct Planner {
    rng: GameRng,
    maps: Option<Arc<FlagDistances>>,
}

impl Planner {
    /// `maps`: the board's precomputed maps when the caller shares them between games;
    /// `None` computes them on first use.
    pub fn new(rng: GameRng, maps: Option<Arc<FlagDistances>>) -> Planner {
        Planner { rng, maps }
    }

    /// Picks the start option closest to the next flag, facing the way to it.
    pub fn start(&mut self, game: &Game, query: &StartQuery) -> StartReply {
        let maps = self
            .maps
            .get_or_insert_with(|| Arc::new(FlagDistances::new(game.board())));
        choose_start(game, maps, query)
    }

    /// The index of the card of the hand whose outcome `rate` rates highest, plus a noise of
    /// 0..8 that breaks ties (the first of equals wins what is still tied). A card that
    /// destroys the robot is rated [`DESTROYED`] without rating it or drawing noise, so the
    /// generator draws once per surviving card, in hand order.
    pub fn best_card(
        &mut self,
        game: &Game,
        query: &TurnQuery,
        rate: impl Fn(&Outcome, &FlagDistances) -> i32,
    ) -> usize {
        let maps = self
            .maps
            .get_or_insert_with(|| Arc::new(FlagDistances::new(game.board())));
        let mut best = (i32::MIN, 0);
        for (i, card) in query.hand.as_slice().iter().enumerate() {
            let out = simulate(game, query.seat, card.mv);
            let rated = if out.destroyed {
                DESTROYED
            } else {
                rate(&out, maps) + self.rng.below(8) as i32
            };
            if rated > best.0 {
                best = (rated, i);
            }
        }
        best.1
    }
}

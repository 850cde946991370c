//! Defines [`play_series`]: games of Robots between built-in AIs, seats rotating, with
//! each bot's totals, for `lrs-tourney play --game robots`.
//!
//! As for the other games, game `g` uses seed `S+g` and slot `i` sits in seat
//! `(i + g) mod n`; each seat plays its own board with the same levels, so the rotation
//! only matters for how the games are numbered. Games run in parallel; the totals do not
//! depend on how many threads play them.

use super::ai::{BuiltinAi, run_game};
use super::board::GameError;
use super::game::{Game, Setup};
use super::types::Seat;
use crate::games::shared::series::seated;
use rayon::prelude::*;
use serde::Serialize;

/// One bot's totals over the series.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BotTotals {
    pub bot: String,
    pub games: u32,
    pub total_score: i64,
    pub mean_score: f64,
    pub wins: u32,
    pub levels_cleared: u64,
    pub kills: u64,
    pub turns: u64,
    pub faults: u64,
}

pub use crate::games::shared::series::seat_of;

/// Plays game `g` of a series of built-in AIs (seed `seed + g`, seats rotated).
pub fn play_game(bots: &[BuiltinAi], seed: u64, g: u32) -> Result<Game, GameError> {
    let n = bots.len();
    let game_seed = seed.wrapping_add(u64::from(g));
    let mut game = Game::new(&Setup::standard(n as u8, game_seed))?;
    let mut players: Vec<_> = seated(bots, g)
        .iter()
        .enumerate()
        .map(|(s, ai)| ai.player(game_seed, Seat(s as u8)))
        .collect();
    run_game(&mut game, &mut players)?;
    Ok(game)
}

/// Plays `games` games and totals them per bot.
pub fn play_series(
    bots: &[BuiltinAi],
    labels: &[String],
    games: u32,
    seed: u64,
) -> Result<Vec<BotTotals>, GameError> {
    let n = bots.len();
    let results: Vec<Vec<SlotResult>> = (0..games)
        .into_par_iter()
        .map(|g| play_game(bots, seed, g).map(|game| slot_results(&game, g, n)))
        .collect::<Result<_, GameError>>()?;
    Ok(fold(labels, &results))
}

/// Each bot's totals over finished games, game `g` at index `g` (seats rotated as in
/// [`seat_of`]).
pub fn totals_of(labels: &[String], games: &[Game]) -> Vec<BotTotals> {
    let n = labels.len();
    let results: Vec<Vec<SlotResult>> = games
        .iter()
        .enumerate()
        .map(|(g, game)| slot_results(game, g as u32, n))
        .collect();
    fold(labels, &results)
}

/// One game's result for one bot slot: score, won, statistics.
type SlotResult = (i64, bool, super::game::SeatStats);

fn slot_results(game: &Game, g: u32, n: usize) -> Vec<SlotResult> {
    let scores = game.scores();
    let stats = game.stats();
    (0..n)
        .map(|slot| {
            let seat = seat_of(slot, g, n);
            (scores[seat], game.won(Seat(seat as u8)), stats[seat])
        })
        .collect()
}

fn fold(labels: &[String], results: &[Vec<SlotResult>]) -> Vec<BotTotals> {
    let mut totals: Vec<BotTotals> = labels
        .iter()
        .map(|l| BotTotals {
            bot: l.clone(),
            ..BotTotals::default()
        })
        .collect();
    for game in results {
        for (t, (score, won, stats)) in totals.iter_mut().zip(game) {
            t.games += 1;
            t.total_score += score;
            t.wins += u32::from(*won);
            t.levels_cleared += u64::from(stats.levels_cleared);
            t.kills += u64::from(stats.kills);
            t.turns += u64::from(stats.turns);
            t.faults += u64::from(stats.faults);
        }
    }
    for t in &mut totals {
        t.mean_score = t.total_score as f64 / f64::from(t.games.max(1));
    }
    totals
}

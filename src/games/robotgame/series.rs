//! Defines [`play_series`]: games of RobotGame between built-in AIs, seats rotating, with
//! each bot's totals, for `lrs-tourney play --game robotgame`.
//!
//! Game `g` uses seed `S+g`, and the bot given in slot `i` sits in seat `(i + g) mod n`, as
//! in Last Robot Standing's `play`, so every bot plays from every seat. Games run in
//! parallel; the totals do not depend on how many threads play them.

use super::ai::{BuiltinAi, run_game};
use super::engine::{Game, GameError, Setup};
use super::types::Seat;
use crate::games::shared::series::seated;
use rayon::prelude::*;
use serde::Serialize;

/// One bot's totals over the series.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BotTotals {
    /// The bot's label (`builtin:hunter`, or `builtin:hunter #2` for a second copy).
    pub bot: String,
    pub games: u32,
    /// Robots alive at the end, summed over the games (the score, RG6.1).
    pub total_score: u64,
    pub mean_score: f64,
    pub wins: u32,
    pub damage_dealt: u64,
    pub kills: u64,
    pub faults: u64,
}

/// One game's result per bot slot (not per seat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotResult {
    pub score: u32,
    pub won: bool,
    pub damage_dealt: u32,
    pub kills: u32,
    pub faults: u32,
}

pub use crate::games::shared::series::seat_of;

/// Plays one game, index `g`, and returns each slot's result.
pub fn play_one(bots: &[BuiltinAi], seed: u64, g: u32) -> Result<Vec<SlotResult>, GameError> {
    play_game(bots, seed, g).map(|(results, _)| results)
}

/// Plays one game, index `g`: each slot's result, and the game (for its decision log).
pub fn play_game(
    bots: &[BuiltinAi],
    seed: u64,
    g: u32,
) -> Result<(Vec<SlotResult>, Game), GameError> {
    let n = bots.len();
    let game_seed = seed.wrapping_add(u64::from(g));
    let mut game = Game::new(&Setup::standard(n as u8, game_seed))?;
    let mut players: Vec<_> = seated(bots, g)
        .iter()
        .enumerate()
        .map(|(seat, ai)| ai.player(game_seed, Seat(seat as u8)))
        .collect();
    run_game(&mut game, &mut players)?;
    Ok((slot_results(&game, g), game))
}

/// A finished game `g`'s result per bot slot.
pub fn slot_results(game: &Game, g: u32) -> Vec<SlotResult> {
    let n = usize::from(game.seats());
    let scores = game.scores();
    (0..n)
        .map(|slot| {
            let seat = seat_of(slot, g, n);
            let stats = game.stats()[seat];
            SlotResult {
                score: scores[seat],
                won: game.won(Seat(seat as u8)),
                damage_dealt: stats.damage_dealt,
                kills: stats.kills,
                faults: stats.faults,
            }
        })
        .collect()
}

/// Plays `games` games and totals them per bot.
pub fn play_series(
    bots: &[BuiltinAi],
    labels: &[String],
    games: u32,
    seed: u64,
) -> Result<Vec<BotTotals>, GameError> {
    let results: Vec<Vec<SlotResult>> = (0..games)
        .into_par_iter()
        .map(|g| play_one(bots, seed, g))
        .collect::<Result<_, _>>()?;
    Ok(totals(labels, &results))
}

/// Each bot's totals over games' slot results.
pub fn totals(labels: &[String], results: &[Vec<SlotResult>]) -> Vec<BotTotals> {
    let mut totals: Vec<BotTotals> = labels
        .iter()
        .map(|l| BotTotals {
            bot: l.clone(),
            ..BotTotals::default()
        })
        .collect();
    for game in results {
        for (t, r) in totals.iter_mut().zip(game) {
            t.games += 1;
            t.total_score += u64::from(r.score);
            t.wins += u32::from(r.won);
            t.damage_dealt += u64::from(r.damage_dealt);
            t.kills += u64::from(r.kills);
            t.faults += u64::from(r.faults);
        }
    }
    for t in &mut totals {
        t.mean_score = t.total_score as f64 / f64::from(t.games.max(1));
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_do_not_depend_on_the_thread_count() {
        let bots = [BuiltinAi::Hunter, BuiltinAi::Random, BuiltinAi::Random];
        let labels: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| play_series(&bots, &labels, 6, 9).unwrap());
        let many = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(|| play_series(&bots, &labels, 6, 9).unwrap());
        assert_eq!(one, many);
        assert_eq!(one[0].games, 6);
        // Seats rotate: game 1 puts slot 0 in seat 1.
        assert_eq!(seat_of(0, 1, 3), 1);
        assert_eq!(seat_of(2, 1, 3), 0);
    }
}

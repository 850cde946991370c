//! Defines [`Lineup`]: many games of the same bots in one arena of any game, the way `play`
//! plays them through the seam, with each bot's totals.
//!
//! Game `g` uses seed `S+g` and the bot of slot `i` sits in seat `(i + g) mod n`
//! ([`seat_of`]), so every bot plays from every seat. Games of built-in AIs run on a rayon
//! pool; games with JSON-lines bots run one after another, each bot a fresh sandboxed
//! process per game. Results are folded in game order, so `--jobs` never changes a figure.

use crate::bots::JsonlOptions;
use crate::games::{Arena, BuiltinBot, GameKind, GameOutcome, SeatBot, SeatLog, Stats};
use rayon::prelude::*;
use serde::ser::{Serialize, SerializeMap, Serializer};

pub use crate::games::shared::series::seat_of;

/// The bots of a series of games, by slot, with their labels.
pub struct Lineup {
    pub arena: Arena,
    pub slots: Vec<SeatBot>,
    pub labels: Vec<String>,
    pub games: u32,
    pub seed: u64,
}

/// One bot's totals over the series; serialises to the `play --json` entry, the game's
/// statistics by name.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotTotals {
    pub kind: GameKind,
    pub bot: String,
    pub games: u32,
    pub total_score: i64,
    pub mean_score: f64,
    pub wins: u32,
    pub stats: Stats,
    pub faults: u64,
}

impl Serialize for SlotTotals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let names = self.kind.statistics();
        let mut map = serializer.serialize_map(Some(6 + names.len()))?;
        map.serialize_entry("bot", &self.bot)?;
        map.serialize_entry("games", &self.games)?;
        map.serialize_entry("total_score", &self.total_score)?;
        map.serialize_entry("mean_score", &self.mean_score)?;
        map.serialize_entry("wins", &self.wins)?;
        for (i, name) in names.iter().enumerate() {
            map.serialize_entry(name, &u64::from(self.stats.get(i)))?;
        }
        map.serialize_entry("faults", &self.faults)?;
        map.end()
    }
}

/// A series played: each bot's totals, every game's outcome, and by game and slot the log
/// of each external bot.
pub struct SeriesPlayed {
    pub totals: Vec<SlotTotals>,
    pub outcomes: Vec<GameOutcome>,
    pub logs: Vec<Vec<Option<SeatLog>>>,
}

impl Lineup {
    fn n(&self) -> usize {
        self.slots.len()
    }

    /// The seed of game `g`.
    pub fn seed_of(&self, g: u32) -> u64 {
        self.seed.wrapping_add(u64::from(g))
    }

    /// Slot-ordered values of game `g` put in seat order.
    pub fn by_seat<T: Clone + Default>(&self, g: u32, by_slot: &[T]) -> Vec<T> {
        let mut out = vec![T::default(); self.n()];
        for (slot, v) in by_slot.iter().enumerate() {
            out[seat_of(slot, g, self.n())] = v.clone();
        }
        out
    }

    /// Whether every seat is a built-in AI.
    pub fn all_builtin(&self) -> bool {
        self.slots.iter().all(|s| matches!(s, SeatBot::Builtin(_)))
    }

    /// Plays the series; games of built-in AIs only on `jobs` threads, others one after
    /// another on the calling task.
    pub async fn play(
        &self,
        jobs: usize,
        time_limit_ms: u64,
        options: &JsonlOptions,
    ) -> Result<SeriesPlayed, String> {
        if self.all_builtin() {
            return self.play_builtin(jobs);
        }
        let mut outcomes = Vec::new();
        let mut logs = Vec::new();
        for g in 0..self.games {
            let seats = self.by_seat(g, &self.slots.iter().cloned().map(Some).collect::<Vec<_>>());
            let seats: Vec<SeatBot> = seats.into_iter().flatten().collect();
            let names = self.by_seat(g, &self.labels);
            let (outcome, by_seat) = self
                .arena
                .play(self.seed_of(g), seats, &names, time_limit_ms, options)
                .await?;
            logs.push(
                (0..self.n())
                    .map(|slot| by_seat[seat_of(slot, g, self.n())].clone())
                    .collect(),
            );
            outcomes.push(outcome);
        }
        Ok(SeriesPlayed {
            totals: self.totals(&outcomes),
            outcomes,
            logs,
        })
    }

    fn play_builtin(&self, jobs: usize) -> Result<SeriesPlayed, String> {
        let bots: Vec<BuiltinBot> = self
            .slots
            .iter()
            .filter_map(|s| match s {
                SeatBot::Builtin(b) => Some(*b),
                _ => None,
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| e.to_string())?;
        let outcomes = pool.install(|| {
            (0..self.games)
                .into_par_iter()
                .map(|g| {
                    let seats = crate::games::shared::series::seated(&bots, g);
                    self.arena.play_builtin(self.seed_of(g), &seats)
                })
                .collect::<Result<Vec<_>, String>>()
        })?;
        Ok(SeriesPlayed {
            totals: self.totals(&outcomes),
            logs: vec![vec![None; self.n()]; outcomes.len()],
            outcomes,
        })
    }

    /// Each slot's totals over `outcomes` (game `g` at index `g`).
    fn totals(&self, outcomes: &[GameOutcome]) -> Vec<SlotTotals> {
        let kind = self.arena.kind();
        let mut totals: Vec<SlotTotals> = self
            .labels
            .iter()
            .map(|bot| SlotTotals {
                kind,
                bot: bot.clone(),
                games: 0,
                total_score: 0,
                mean_score: 0.0,
                wins: 0,
                stats: Stats::default(),
                faults: 0,
            })
            .collect();
        for (g, outcome) in outcomes.iter().enumerate() {
            for (slot, t) in totals.iter_mut().enumerate() {
                let seat = &outcome.seats[seat_of(slot, g as u32, self.n())];
                t.games += 1;
                t.total_score += seat.score;
                t.wins += u32::from(seat.won);
                t.stats = t.stats.plus(&seat.stats);
                t.faults += u64::from(seat.faults);
            }
        }
        for t in &mut totals {
            t.mean_score = t.total_score as f64 / f64::from(t.games.max(1));
        }
        totals
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameSettings;

    fn lineup(kind: GameKind, games: u32) -> Lineup {
        let settings = GameSettings::default_for(kind);
        let pool = Arena::pool(&settings, &["gear-works".to_string()]);
        let ais: Vec<SeatBot> = kind
            .builtin_ais()
            .iter()
            .map(|(name, _)| SeatBot::Builtin(BuiltinBot::parse(kind, name).unwrap()))
            .collect();
        let slots: Vec<SeatBot> = (0..3).map(|s| ais[s % ais.len()].clone()).collect();
        Lineup {
            arena: Arena::load(&settings, &pool[0], 20).unwrap(),
            labels: (0..slots.len()).map(|s| format!("bot{s}")).collect(),
            slots,
            games,
            seed: 9,
        }
    }

    fn play(l: &Lineup, jobs: usize) -> SeriesPlayed {
        let options = JsonlOptions::default();
        futures_util::FutureExt::now_or_never(l.play(jobs, 100, &options))
            .expect("built-in games need no waiting")
            .unwrap()
    }

    /// The figures depend on the seed and the bots only, not on how many threads play.
    #[test]
    fn totals_do_not_depend_on_the_thread_count() {
        for kind in GameKind::all() {
            let l = lineup(kind, 6);
            let (one, four) = (play(&l, 1), play(&l, 4));
            assert_eq!(one.totals, four.totals, "{kind:?}");
            assert_eq!(one.outcomes, four.outcomes, "{kind:?}");
        }
    }

    /// Slot `i` sits in seat `(i + g) mod n`: each game's outcome is credited to the bot
    /// that played the seat.
    #[test]
    fn seats_rotate_and_totals_follow_the_bots() {
        let l = lineup(GameKind::default(), 3);
        let played = play(&l, 2);
        for (slot, t) in played.totals.iter().enumerate() {
            let expected: i64 = (0..3)
                .map(|g| played.outcomes[g as usize].seats[seat_of(slot, g, 3)].score)
                .sum();
            assert_eq!(t.total_score, expected);
            assert_eq!(t.games, 3);
        }
        assert_eq!(seat_of(2, 1, 3), 0);
    }
}

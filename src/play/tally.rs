//! [`Tally`]: what a series keeps of its games while they are played, so that `play`'s
//! memory does not grow with the number of games unless something asks for every game.
//!
//! Each game is folded into the slots' totals as soon as it is played (sums of integers,
//! so the order in which the threads finish never changes a figure). What the fault
//! report needs of each game (each slot's faults and each JSON-lines bot's log) is kept
//! only when some slot is an external bot, and a game's whole outcome with its decision
//! log only when the lineup keeps games ([`Keep::Games`]: replays, `check`'s smoke game).

use super::lineup::{GamePlayed, Keep, Lineup, SeriesPlayed, SlotTotals};
use super::series::SeriesClientLog;
use crate::games::{GameOutcome, SeatLog, Stats};

use crate::games::shared::series::seat_of;

/// A series being played: the running totals and what is kept of each game.
pub(super) struct Tally<'a> {
    lineup: &'a Lineup,
    totals: Vec<SlotTotals>,
    /// By game: the outcome, with [`Keep::Games`] (else empty).
    outcomes: Vec<Option<GameOutcome>>,
    /// By game, by slot: faults and JSON-lines logs, when some slot is external (else
    /// empty).
    faults: Vec<Vec<u32>>,
    logs: Vec<Vec<Option<SeatLog>>>,
    /// The first game (by number) that could not be played, and why.
    failure: Option<(u32, String)>,
}

impl<'a> Tally<'a> {
    pub(super) fn new(lineup: &'a Lineup) -> Tally<'a> {
        let games = lineup.games as usize;
        let per_game = |keep: bool| if keep { games } else { 0 };
        let external = lineup.slots.iter().any(|s| s.is_external());
        Tally {
            lineup,
            totals: lineup
                .labels
                .iter()
                .map(|bot| SlotTotals {
                    kind: lineup.arena.kind(),
                    bot: bot.clone(),
                    games: 0,
                    total_score: 0,
                    mean_score: 0.0,
                    wins: 0,
                    stats: Stats::default(),
                    faults: 0,
                })
                .collect(),
            outcomes: vec![None; per_game(lineup.keep == Keep::Games)],
            faults: vec![Vec::new(); per_game(external)],
            logs: vec![Vec::new(); per_game(external)],
            failure: None,
        }
    }

    /// Game `g` played: credits each seat to the slot that played it, keeps what is kept
    /// and drops the rest.
    pub(super) fn add(&mut self, g: u32, (outcome, logs): GamePlayed) {
        let n = self.lineup.slots.len();
        for (slot, t) in self.totals.iter_mut().enumerate() {
            let seat = &outcome.seats[seat_of(slot, g, n)];
            t.games += 1;
            t.total_score += seat.score;
            t.wins += u32::from(seat.won);
            t.stats = t.stats.plus(&seat.stats);
            t.faults += u64::from(seat.faults);
        }
        let at = g as usize;
        if let Some(faults) = self.faults.get_mut(at) {
            *faults = (0..n)
                .map(|slot| outcome.seats[seat_of(slot, g, n)].faults)
                .collect();
            self.logs[at] = logs;
        }
        if let Some(kept) = self.outcomes.get_mut(at) {
            *kept = Some(outcome);
        }
    }

    /// Game `g` could not be played: the series fails, naming the first such game.
    pub(super) fn failed(&mut self, g: u32, why: String) {
        if self.failure.as_ref().is_none_or(|(first, _)| g < *first) {
            let seed = self.lineup.seed_of(g);
            self.failure = Some((g, format!("game {g} (seed {seed}): {why}")));
        }
    }

    /// The series, with the logs of its series clients by slot; the error of the first
    /// game that could not be played, if one could not.
    pub(super) fn finish(
        self,
        clients: Vec<Option<SeriesClientLog>>,
    ) -> Result<SeriesPlayed, String> {
        if let Some((_, why)) = self.failure {
            return Err(why);
        }
        let mut totals = self.totals;
        for t in &mut totals {
            t.mean_score = t.total_score as f64 / f64::from(t.games.max(1));
        }
        Ok(SeriesPlayed {
            totals,
            outcomes: self.outcomes.into_iter().flatten().collect(),
            faults: self.faults,
            logs: self.logs,
            clients,
        })
    }
}

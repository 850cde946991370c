//! Ranking teams within a set (and for wild cards) with the tournament's tie-break chain.
//!
//! Order: higher score, more games won, the game's own tie-break steps (Last Robot
//! Standing: more flags, fewer deaths; see [`crate::games::GameKind::tie_steps`]), then a
//! seeded draw. The draw gives every team the value `derive_seed(tournament_seed, "draw|{team_key}")` (see
//! `seeds`) and the lower value ranks first; the team key is stable across configuration
//! edits (`{school slug}/{team name}` for a configured tournament), and when two values are
//! equal (equal keys) the lower `TeamId` ranks first, so the order is always total.
//!
//! For every adjacent pair of a ranking the step that separated them is kept
//! ([`Separation`]), so the reason of each advancement can be stored and exported.

use super::seeds::TournamentSeed;
use crate::games::{Stats, TieStep};
use crate::tourney::model::{QualifiedBy, TeamId, TieBreak};
use std::cmp::Ordering;

/// One team's totals over a series (or over a whole stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SeriesTotals {
    pub team: TeamId,
    pub score: i64,
    pub games_won: u32,
    /// The game's statistics, summed.
    pub stats: Stats,
}

impl SeriesTotals {
    /// All zero: a team that has not played (e.g. the single team of a school).
    pub fn zero(team: TeamId) -> SeriesTotals {
        SeriesTotals {
            team,
            score: 0,
            games_won: 0,
            stats: Stats::default(),
        }
    }

    /// The sum of two totals (saturating), keeping `self.team`.
    pub fn plus(self, other: &SeriesTotals) -> SeriesTotals {
        SeriesTotals {
            team: self.team,
            score: self.score.saturating_add(other.score),
            games_won: self.games_won.saturating_add(other.games_won),
            stats: self.stats.plus(&other.stats),
        }
    }
}

/// The step of the chain that put one team above the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Separation {
    /// The (series or school-stage) score.
    Score,
    /// A tie-break step after the score.
    TieBreak(TieBreak),
}

impl Separation {
    /// The tie-break step, or `None` when the score decided.
    pub fn tie_break(self) -> Option<TieBreak> {
        match self {
            Separation::Score => None,
            Separation::TieBreak(step) => Some(step),
        }
    }
}

/// One place of a ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked {
    pub totals: SeriesTotals,
    /// What separated this team from the next one; `None` for the last place.
    pub separated_from_next: Option<Separation>,
}

/// The tie-break chain of a tournament after score and games won: its game's steps, then
/// the seeded draw (one stable value per team).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TieDraw {
    /// The game's steps ([`crate::games::GameKind::tie_steps`]).
    steps: &'static [TieStep],
    seed: TournamentSeed,
    /// Draw values indexed by `TeamId`.
    values: Vec<u64>,
}

impl TieDraw {
    /// The chain of a game with `steps`, for teams whose keys are given in `TeamId` order.
    pub fn new<S: AsRef<str>>(
        steps: &'static [TieStep],
        tournament_seed: TournamentSeed,
        keys: impl IntoIterator<Item = S>,
    ) -> TieDraw {
        let values = keys
            .into_iter()
            .map(|key| draw_value(&tournament_seed, key.as_ref()))
            .collect();
        TieDraw {
            steps,
            seed: tournament_seed,
            values,
        }
    }

    /// The game's steps of the chain.
    pub fn steps(&self) -> &'static [TieStep] {
        self.steps
    }

    /// The draw value of `team`: `derive(seed, "draw|{key}")`; a team without a key
    /// uses the key `#{team}`.
    pub fn value(&self, team: TeamId) -> u64 {
        match self.values.get(team.index()) {
            Some(&v) => v,
            None => draw_value(&self.seed, &format!("#{team}")),
        }
    }
}

/// `derive(tournament_seed, "draw|{team_key}")`.
pub fn draw_value(tournament_seed: &TournamentSeed, team_key: &str) -> u64 {
    tournament_seed.derive(&format!("draw|{team_key}"))
}

/// Compares two teams by the chain: `Less` when `a` ranks above `b`, with the step that
/// decided.
pub fn compare(a: &SeriesTotals, b: &SeriesTotals, draw: &TieDraw) -> (Ordering, Separation) {
    let order = b.score.cmp(&a.score);
    if order != Ordering::Equal {
        return (order, Separation::Score);
    }
    let order = b.games_won.cmp(&a.games_won);
    if order != Ordering::Equal {
        return (order, Separation::TieBreak(TieBreak::GamesWon));
    }
    for (position, step) in draw.steps.iter().enumerate() {
        let order = step.compare(&a.stats, &b.stats);
        if order != Ordering::Equal {
            return (
                order,
                Separation::TieBreak(TieBreak::Stat(position as u8, *step)),
            );
        }
    }
    let order = draw
        .value(a.team)
        .cmp(&draw.value(b.team))
        .then(a.team.cmp(&b.team));
    (order, Separation::TieBreak(TieBreak::SeededDraw))
}

/// Ranks `totals` best first and records what separated each adjacent pair.
pub fn rank(totals: &[SeriesTotals], draw: &TieDraw) -> Vec<Ranked> {
    let mut sorted = totals.to_vec();
    sorted.sort_by(|a, b| compare(a, b, draw).0);
    let mut ranked: Vec<Ranked> = Vec::with_capacity(sorted.len());
    for (i, t) in sorted.iter().enumerate() {
        let separated_from_next = sorted.get(i + 1).map(|next| compare(t, next, draw).1);
        ranked.push(Ranked {
            totals: *t,
            separated_from_next,
        });
    }
    ranked
}

/// The teams of `ranking` order.
pub fn teams_of(ranking: &[Ranked]) -> Vec<TeamId> {
    ranking.iter().map(|r| r.totals.team).collect()
}

/// The step separating place `i` from place `cut` (`i < cut`): the earliest step among the
/// adjacent separations in between, since the chain is lexicographic.
fn separation_between(ranking: &[Ranked], i: usize, cut: usize) -> Option<Separation> {
    ranking
        .get(i..cut)
        .and_then(|places| places.iter().filter_map(|r| r.separated_from_next).min())
}

/// The first `count` teams of `ranking`, each with the tie-break step that separated it
/// from the first team left out (`None` when the score did, or when nobody was left out).
pub fn top_with_reasons(ranking: &[Ranked], count: usize) -> Vec<(TeamId, Option<TieBreak>)> {
    let cut = count.min(ranking.len());
    ranking
        .iter()
        .take(cut)
        .enumerate()
        .map(|(i, r)| {
            let step = if cut < ranking.len() {
                separation_between(ranking, i, cut).and_then(Separation::tie_break)
            } else {
                None
            };
            (r.totals.team, step)
        })
        .collect()
}

/// The teams advancing from a ranked set: the top `advance` with [`QualifiedBy::Top`].
pub fn advancing(ranking: &[Ranked], advance: usize) -> Vec<(TeamId, QualifiedBy)> {
    top_with_reasons(ranking, advance)
        .into_iter()
        .map(|(team, tie_break)| (team, QualifiedBy::Top { tie_break }))
        .collect()
}

/// A team's totals in Last Robot Standing's statistics (flags first, deaths fifth: the
/// slots of its tie-break steps), for tests of rankings and of what decided them.
#[cfg(test)]
pub(crate) fn lrs_totals(
    team: usize,
    score: i64,
    games_won: u32,
    flags: u32,
    deaths: u32,
) -> SeriesTotals {
    SeriesTotals {
        team: TeamId(team),
        score,
        games_won,
        stats: Stats::from_values(&[flags, 0, 0, 0, deaths]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::GameKind;

    use super::lrs_totals as t;

    fn flags() -> TieBreak {
        TieBreak::Stat(0, GameKind::default().tie_steps()[0])
    }

    fn fewer_deaths() -> TieBreak {
        TieBreak::Stat(1, GameKind::default().tie_steps()[1])
    }

    fn draw() -> TieDraw {
        TieDraw::new(
            GameKind::default().tie_steps(),
            crate::tourney::bracket::TournamentSeed::keyed(42),
            ["a/x", "a/y", "b/x", "b/y", "c/x"],
        )
    }

    fn order_and_steps(totals: &[SeriesTotals]) -> (Vec<usize>, Vec<Option<Separation>>) {
        let ranking = rank(totals, &draw());
        (
            teams_of(&ranking).iter().map(|t| t.index()).collect(),
            ranking.iter().map(|r| r.separated_from_next).collect(),
        )
    }

    #[test]
    fn step_1_higher_score_ranks_first() {
        let (order, steps) = order_and_steps(&[t(0, 5, 9, 9, 0), t(1, 6, 0, 0, 9)]);
        assert_eq!(order, vec![1, 0]);
        assert_eq!(steps, vec![Some(Separation::Score), None]);
    }

    #[test]
    fn step_2_more_games_won_breaks_a_score_tie() {
        let (order, steps) = order_and_steps(&[t(0, 5, 1, 9, 0), t(1, 5, 2, 0, 9)]);
        assert_eq!(order, vec![1, 0]);
        assert_eq!(steps[0], Some(Separation::TieBreak(TieBreak::GamesWon)));
    }

    #[test]
    fn step_3_more_flags_breaks_a_games_won_tie() {
        let (order, steps) = order_and_steps(&[t(0, 5, 2, 3, 0), t(1, 5, 2, 4, 9)]);
        assert_eq!(order, vec![1, 0]);
        assert_eq!(steps[0], Some(Separation::TieBreak(flags())));
    }

    #[test]
    fn step_4_fewer_deaths_breaks_a_flags_tie() {
        let (order, steps) = order_and_steps(&[t(0, 5, 2, 4, 3), t(1, 5, 2, 4, 2)]);
        assert_eq!(order, vec![1, 0]);
        assert_eq!(steps[0], Some(Separation::TieBreak(fewer_deaths())));
    }

    #[test]
    fn step_5_the_seeded_draw_decides_and_is_stable() {
        let d = draw();
        let a = t(0, 5, 2, 4, 2);
        let b = t(3, 5, 2, 4, 2);
        let (order, step) = compare(&a, &b, &d);
        assert_eq!(step, Separation::TieBreak(TieBreak::SeededDraw));
        let expected = d.value(TeamId(0)).cmp(&d.value(TeamId(3)));
        assert_eq!(order, expected);
        // Input order does not matter.
        assert_eq!(teams_of(&rank(&[a, b], &d)), teams_of(&rank(&[b, a], &d)));
        // The draw value follows the documented formula.
        assert_eq!(
            d.value(TeamId(2)),
            TournamentSeed::keyed(42).derive("draw|b/x")
        );
        assert_eq!(
            d.value(TeamId(9)),
            TournamentSeed::keyed(42).derive("draw|#9")
        );
    }

    #[test]
    fn advancing_teams_carry_the_step_that_separated_them_from_the_cut() {
        // Scores 9, 7, 7, 7: places 2 and 3 split by games won, 3 and 4 by flags.
        let ranking = rank(
            &[
                t(0, 9, 0, 0, 0),
                t(1, 7, 3, 0, 0),
                t(2, 7, 2, 5, 0),
                t(3, 7, 2, 4, 0),
            ],
            &draw(),
        );
        assert_eq!(teams_of(&ranking), [0, 1, 2, 3].map(TeamId));
        let adv = advancing(&ranking, 2);
        assert_eq!(
            adv,
            vec![
                (TeamId(0), QualifiedBy::Top { tie_break: None }),
                (
                    TeamId(1),
                    QualifiedBy::Top {
                        tie_break: Some(TieBreak::GamesWon)
                    }
                ),
            ]
        );
        let adv3 = advancing(&ranking, 3);
        assert_eq!(
            adv3[1],
            (
                TeamId(1),
                QualifiedBy::Top {
                    tie_break: Some(TieBreak::GamesWon)
                }
            )
        );
        assert_eq!(
            adv3[2],
            (
                TeamId(2),
                QualifiedBy::Top {
                    tie_break: Some(flags())
                }
            )
        );
        // Nobody left out: no tie-break.
        assert!(
            advancing(&ranking, 4)
                .iter()
                .all(|(_, q)| *q == QualifiedBy::Top { tie_break: None })
        );
    }
}

//! Dealing teams into the sets of a round: shuffled round-robin (school round 1) and
//! snake order with school separation (later rounds, nationals).
//!
//! Both give `k = ceil(n / set_size)` sets whose sizes differ by at most 1, so with a set
//! size of at least 3 and `n > set_size` no set has fewer than 2 teams. The order of the
//! teams inside a set is their set position, which fixes their start squares.
//!
//! **Snake order.** Team at 0-based rank position `p` goes to set `p mod k` on even passes
//! (`pass = p div k`) and to set `k - 1 - p mod k` on odd passes: 1..k, k..1, 1..k, ...
//!
//! **School separation** (nationals). A school's teams share a set only when unavoidable,
//! precisely: for every school with `m` teams in the round, every set holds
//! `floor(m / k)` or `ceil(m / k)` of them (the even spread, which minimises the number of
//! schoolmate pairs; it is achievable for all schools at once: deal the teams grouped by
//! school round-robin). Starting from the snake deal, the repair is:
//!
//! 1. Find the lowest-ranked team `t` (school `s`, set `X`) such that some set `Y` holds at
//!    least two fewer teams of `s` than `X`. If none, stop: every school is evenly spread.
//! 2. Among the teams `t'` in such a set `Y` whose school `u != s` has more teams in `Y`
//!    than in `X`, take the one nearest to `t` in rank (on equal distance, the lower-ranked
//!    one), and swap `t` and `t'`.
//! 3. Repeat.
//!
//! A `t'` always exists (`|Y| >= |X| - 1` and `Y` holds two fewer of `s`, so some other school
//! has more teams in `Y` than in `X`), and every swap lowers the sum over schools and sets
//! of the squared counts by at least 2, so the repair ends. Each set is then ordered by
//! rank (best first).

use super::seeds::{TournamentSeed, deal_seed};
use crate::rng::GameRng;
use crate::tourney::model::{SchoolId, TeamId};
use std::collections::HashMap;

/// `ceil(n / set_size)`: the number of sets for `n` teams (a set size of 0 counts as 1).
pub fn set_count(n: usize, set_size: usize) -> usize {
    n.div_ceil(set_size.max(1))
}

/// The sizes of the `set_count(n, set_size)` balanced sets (larger first).
pub fn balanced_sizes(n: usize, set_size: usize) -> Vec<usize> {
    let k = set_count(n, set_size);
    if k == 0 {
        return Vec::new();
    }
    (0..k).map(|i| n / k + usize::from(i < n % k)).collect()
}

/// The 0-based set of the team at 0-based rank position `position` in a snake deal over
/// `k` sets.
pub fn snake_set(position: usize, k: usize) -> usize {
    let k = k.max(1);
    let (pass, offset) = (position / k, position % k);
    if pass % 2 == 0 {
        offset
    } else {
        k - 1 - offset
    }
}

/// School round 1: shuffles `teams` with the stage's deal seed (see `seeds`), then deals
/// them round-robin into `ceil(n / set_size)` sets.
pub fn deal_round_one(
    teams: &[TeamId],
    tournament_seed: &TournamentSeed,
    stage_label: &str,
    set_size: usize,
) -> Vec<Vec<TeamId>> {
    deal_round_robin(
        &shuffle_round_one(teams, tournament_seed, stage_label),
        set_size,
    )
}

/// `teams` (in configuration order) shuffled by Fisher-Yates ([`GameRng::partial_shuffle`])
/// with a generator seeded by `deal_seed(tournament_seed, stage_label)`.
pub fn shuffle_round_one(
    teams: &[TeamId],
    tournament_seed: &TournamentSeed,
    stage_label: &str,
) -> Vec<TeamId> {
    let mut shuffled = teams.to_vec();
    let len = shuffled.len();
    GameRng::new(deal_seed(tournament_seed, stage_label)).partial_shuffle(&mut shuffled, len);
    shuffled
}

/// Deals `order` round-robin (position `p` to set `p mod k`) into `k = ceil(n / set_size)`
/// sets.
pub fn deal_round_robin(order: &[TeamId], set_size: usize) -> Vec<Vec<TeamId>> {
    let k = set_count(order.len(), set_size);
    let mut sets = vec![Vec::new(); k];
    for (p, &team) in order.iter().enumerate() {
        if let Some(set) = sets.get_mut(p % k) {
            set.push(team);
        }
    }
    sets
}

/// Deals `ranked` (best first) into `ceil(n / set_size)` sets in snake order; with
/// `separate_schools`, then spreads every school evenly (module doc). `school_of` gives a
/// team's school; `None` means the team has no schoolmates.
pub fn deal_snake(
    ranked: &[TeamId],
    set_size: usize,
    school_of: impl Fn(TeamId) -> Option<SchoolId>,
    separate_schools: bool,
) -> Vec<Vec<TeamId>> {
    let n = ranked.len();
    let k = set_count(n, set_size);
    let mut set_of: Vec<usize> = (0..n).map(|p| snake_set(p, k)).collect();
    if separate_schools && k > 1 {
        let groups = school_groups(ranked, school_of);
        spread_schools(&mut set_of, &groups, k);
    }
    let mut sets = vec![Vec::new(); k];
    // Positions are visited best first, so every set ends ordered by rank.
    for (p, &team) in ranked.iter().enumerate() {
        if let Some(set) = set_of.get(p).and_then(|&s| sets.get_mut(s)) {
            set.push(team);
        }
    }
    sets
}

/// A dense group index per rank position: one per school, one per school-less team.
fn school_groups(ranked: &[TeamId], school_of: impl Fn(TeamId) -> Option<SchoolId>) -> Vec<usize> {
    let mut index: HashMap<SchoolId, usize> = HashMap::new();
    let mut next = 0;
    ranked
        .iter()
        .map(|&team| {
            let fresh = next;
            let group = match school_of(team) {
                Some(school) => *index.entry(school).or_insert(fresh),
                None => fresh,
            };
            if group == fresh {
                next += 1;
            }
            group
        })
        .collect()
}

/// How many teams of each group every set holds, sparse: a group's row lists only the sets
/// that hold some of its teams. A nationals round has thousands of schools and hundreds of
/// sets; a dense table of them took hundreds of megabytes and a full scan per swap.
struct GroupCounts {
    rows: Vec<Vec<(usize, usize)>>,
    sizes: Vec<usize>,
    k: usize,
}

impl GroupCounts {
    fn new(set_of: &[usize], groups: &[usize], k: usize) -> GroupCounts {
        let group_count = groups.iter().max().map_or(0, |g| g + 1);
        let mut counts = GroupCounts {
            rows: vec![Vec::new(); group_count],
            sizes: vec![0; group_count],
            k,
        };
        for (&g, &s) in groups.iter().zip(set_of) {
            if s < k {
                counts.sizes[g] += 1;
                counts.add(g, s, 1);
            }
        }
        counts
    }

    /// Teams of group `g` in set `s`.
    fn get(&self, g: usize, s: usize) -> usize {
        self.rows
            .get(g)
            .and_then(|row| row.iter().find(|&&(set, _)| set == s))
            .map_or(0, |&(_, c)| c)
    }

    /// Adds `delta` (+1 or -1) teams of group `g` to set `s`.
    fn add(&mut self, g: usize, s: usize, delta: isize) {
        let Some(row) = self.rows.get_mut(g) else {
            return;
        };
        match row.iter().position(|&(set, _)| set == s) {
            Some(i) => {
                row[i].1 = row[i].1.saturating_add_signed(delta);
                if row[i].1 == 0 {
                    row.swap_remove(i);
                }
            }
            None if delta > 0 => row.push((s, delta.unsigned_abs())),
            None => {}
        }
    }

    /// The fewest teams of group `g` in any set: 0 unless it has a team in every set.
    fn min(&self, g: usize) -> usize {
        if self.sizes.get(g).is_none_or(|&n| n < self.k) {
            return 0;
        }
        (0..self.k).map(|s| self.get(g, s)).min().unwrap_or(0)
    }
}

/// The repair of the module doc, over `set_of[p]` (the set of rank position `p`).
fn spread_schools(set_of: &mut [usize], groups: &[usize], k: usize) {
    let mut counts = GroupCounts::new(set_of, groups, k);
    let n = set_of.len();
    // Each swap lowers a non-negative potential bounded by n^2 by at least 2.
    for _ in 0..=(n * n / 2) {
        let mins: Vec<usize> = (0..counts.rows.len()).map(|g| counts.min(g)).collect();
        let over = (0..n).rev().find(|&p| {
            let (g, x) = (groups[p], set_of[p]);
            mins.get(g).is_some_and(|&lo| lo + 2 <= counts.get(g, x))
        });
        let Some(p) = over else { return };
        let (s, x) = (groups[p], set_of[p]);
        let cx = counts.get(s, x);
        let partner = (0..n)
            .filter(|&q| {
                let (u, y) = (groups[q], set_of[q]);
                u != s && counts.get(s, y) + 2 <= cx && counts.get(u, y) > counts.get(u, x)
            })
            .min_by_key(|&q| (p.abs_diff(q), std::cmp::Reverse(q)));
        let Some(q) = partner else { return };
        let (u, y) = (groups[q], set_of[q]);
        for (g, from, to) in [(s, x, y), (u, y, x)] {
            counts.add(g, from, -1);
            counts.add(g, to, 1);
        }
        set_of.swap(p, q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::prelude::*;

    /// The repair as first written, with a dense table of counts: the reference the sparse
    /// one must agree with, swap for swap.
    fn dense_spread_schools(set_of: &mut [usize], groups: &[usize], k: usize) {
        let group_count = groups.iter().max().map_or(0, |g| g + 1);
        let mut counts = vec![vec![0usize; k]; group_count];
        for (p, &g) in groups.iter().enumerate() {
            if let Some(c) = set_of
                .get(p)
                .and_then(|&s| counts.get_mut(g).and_then(|row| row.get_mut(s)))
            {
                *c += 1;
            }
        }
        let count = |counts: &[Vec<usize>], g: usize, s: usize| -> usize {
            counts
                .get(g)
                .and_then(|row| row.get(s))
                .copied()
                .unwrap_or(0)
        };
        let n = set_of.len();
        // Each swap lowers a non-negative potential bounded by n^2 by at least 2.
        for _ in 0..=(n * n / 2) {
            let mins: Vec<usize> = counts
                .iter()
                .map(|row| row.iter().copied().min().unwrap_or(0))
                .collect();
            let over = (0..n).rev().find(|&p| {
                let (g, x) = (groups[p], set_of[p]);
                mins.get(g)
                    .is_some_and(|&lo| lo + 2 <= count(&counts, g, x))
            });
            let Some(p) = over else { return };
            let (s, x) = (groups[p], set_of[p]);
            let cx = count(&counts, s, x);
            let partner = (0..n)
                .filter(|&q| {
                    let (u, y) = (groups[q], set_of[q]);
                    u != s
                        && count(&counts, s, y) + 2 <= cx
                        && count(&counts, u, y) > count(&counts, u, x)
                })
                .min_by_key(|&q| (p.abs_diff(q), std::cmp::Reverse(q)));
            let Some(q) = partner else { return };
            let (u, y) = (groups[q], set_of[q]);
            for (g, from, to) in [(s, x, y), (u, y, x)] {
                if let Some(row) = counts.get_mut(g) {
                    row[from] -= 1;
                    row[to] += 1;
                }
            }
            set_of.swap(p, q);
        }
    }

    proptest! {
        #[test]
        fn sparse_counts_repair_exactly_as_the_dense_table(
            groups in proptest::collection::vec(0usize..40, 0..160),
            set_size in 3usize..=8,
        ) {
            let n = groups.len();
            let k = set_count(n, set_size);
            // Dense group indices in order of first appearance, as school_groups makes.
            let mut index = HashMap::new();
            let groups: Vec<usize> = groups
                .iter()
                .map(|g| {
                    let next = index.len();
                    *index.entry(*g).or_insert(next)
                })
                .collect();
            let snake: Vec<usize> = (0..n).map(|p| snake_set(p, k)).collect();
            let mut sparse = snake.clone();
            let mut dense = snake;
            if k > 1 {
                spread_schools(&mut sparse, &groups, k);
                dense_spread_schools(&mut dense, &groups, k);
            }
            prop_assert_eq!(sparse, dense);
        }
    }

    #[test]
    fn snake_order_goes_there_and_back() {
        let sets: Vec<usize> = (0..10).map(|p| snake_set(p, 3)).collect();
        assert_eq!(sets, vec![0, 1, 2, 2, 1, 0, 0, 1, 2, 2]);
        let dealt = deal_snake(&(0..10).map(TeamId).collect::<Vec<_>>(), 4, |_| None, false);
        let dealt: Vec<Vec<usize>> = dealt
            .iter()
            .map(|set| set.iter().map(|t| t.index()).collect())
            .collect();
        assert_eq!(dealt, vec![vec![0, 5, 6], vec![1, 4, 7], vec![2, 3, 8, 9]]);
    }

    #[test]
    fn balanced_sizes_differ_by_at_most_one() {
        assert_eq!(balanced_sizes(9, 8), vec![5, 4]);
        assert_eq!(balanced_sizes(17, 8), vec![6, 6, 5]);
        assert_eq!(balanced_sizes(8, 8), vec![8]);
        assert!(balanced_sizes(0, 8).is_empty());
        for n in 9..200 {
            let sizes = balanced_sizes(n, 8);
            assert_eq!(sizes.iter().sum::<usize>(), n);
            assert!(sizes.iter().all(|&s| (2..=8).contains(&s)));
        }
    }

    #[test]
    fn round_one_is_a_seeded_shuffle_dealt_round_robin() {
        let teams: Vec<TeamId> = (100..120).map(TeamId).collect();
        let seven = TournamentSeed::keyed(7);
        let a = deal_round_one(&teams, &seven, "westfield", 8);
        assert_eq!(a, deal_round_one(&teams, &seven, "westfield", 8));
        assert_ne!(a, deal_round_one(&teams, &seven, "eastfield", 8));
        assert_eq!(a.iter().map(Vec::len).collect::<Vec<_>>(), vec![7, 7, 6]);
        let mut all: Vec<TeamId> = a.concat();
        all.sort_unstable();
        assert_eq!(all, teams);
    }

    #[test]
    fn schoolmates_are_spread_when_possible() {
        // 16 teams, 2 sets; school 0 holds ranks 0 and 3 (snake puts both in set 1).
        let ranked: Vec<TeamId> = (0..16).map(TeamId).collect();
        let school = |t: TeamId| Some(SchoolId(if t.0 == 0 || t.0 == 3 { 0 } else { t.0 }));
        let plain = deal_snake(&ranked, 8, school, false);
        assert!(plain[0].contains(&TeamId(0)) && plain[0].contains(&TeamId(3)));
        let sets = deal_snake(&ranked, 8, school, true);
        assert_eq!(sets[0], [0, 2, 4, 7, 8, 11, 12, 15].map(TeamId));
        assert_eq!(sets[1], [1, 3, 5, 6, 9, 10, 13, 14].map(TeamId));
    }

    #[test]
    fn a_large_school_is_spread_evenly() {
        // 24 teams, 3 sets; school 0 has 10 teams at the top of the ranking.
        let ranked: Vec<TeamId> = (0..24).map(TeamId).collect();
        let school = |t: TeamId| Some(SchoolId(if t.0 < 10 { 0 } else { t.0 }));
        let sets = deal_snake(&ranked, 8, school, true);
        let per_set: Vec<usize> = sets
            .iter()
            .map(|s| s.iter().filter(|t| t.0 < 10).count())
            .collect();
        let mut sorted = per_set.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, vec![3, 3, 4]);
        assert!(sets.iter().all(|s| s.len() == 8));
    }
}

//! Defines [`Stats`], a seat's game statistics in its game's order, and [`TieStep`], one
//! game-defined step of the tie-break chain.
//!
//! The orchestrator stores, sums, ranks and prints statistics without knowing what they
//! mean: their names and which of them break ties come from the game kind
//! ([`crate::games::GameKind::statistics`], [`crate::games::GameKind::tie_steps`]).

use std::fmt;

/// Most statistics a game kind keeps per seat.
pub const MAX_STATS: usize = 5;

/// A seat's (or a series') statistics, by the index of their name in the game kind's
/// [`statistics`](crate::games::GameKind::statistics); unused slots stay 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Stats(pub [u32; MAX_STATS]);

impl Stats {
    /// From values in the game's order (at most [`MAX_STATS`]; more are a programming
    /// error of the game kind and are dropped).
    pub fn from_values(values: &[u32]) -> Stats {
        let mut s = [0; MAX_STATS];
        for (slot, v) in s.iter_mut().zip(values) {
            *slot = *v;
        }
        Stats(s)
    }

    pub fn get(&self, index: usize) -> u32 {
        self.0.get(index).copied().unwrap_or(0)
    }

    /// The sum of two (saturating).
    pub fn plus(&self, other: &Stats) -> Stats {
        let mut s = self.0;
        for (a, b) in s.iter_mut().zip(other.0) {
            *a = a.saturating_add(b);
        }
        Stats(s)
    }

    /// The first `count` values (the game kind's statistics).
    pub fn values(&self, count: usize) -> &[u32] {
        &self.0[..count.min(MAX_STATS)]
    }
}

/// Which way a statistic breaks a tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Better {
    More,
    Fewer,
}

/// One step of a game's tie-break chain: after series score and games won, teams are
/// compared on statistic `stat`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TieStep {
    /// The step's name as stored with an advancement (`flags`, `fewer_deaths`, `kills`).
    pub name: &'static str,
    /// The index of the statistic it compares.
    pub stat: usize,
    pub better: Better,
    /// The statistic's name in sentences (`deaths`).
    pub noun: &'static str,
}

impl TieStep {
    /// The step `name` on which more of statistic `stat` (`noun` in sentences) is better.
    pub const fn more(name: &'static str, stat: usize, noun: &'static str) -> TieStep {
        TieStep {
            name,
            stat,
            better: Better::More,
            noun,
        }
    }

    /// The step `name` on which fewer of statistic `stat` (`noun` in sentences) is better.
    pub const fn fewer(name: &'static str, stat: usize, noun: &'static str) -> TieStep {
        TieStep {
            name,
            stat,
            better: Better::Fewer,
            noun,
        }
    }

    /// `Less` when `a` is the better value.
    pub fn compare(&self, a: &Stats, b: &Stats) -> std::cmp::Ordering {
        let (x, y) = (a.get(self.stat), b.get(self.stat));
        match self.better {
            Better::More => y.cmp(&x),
            Better::Fewer => x.cmp(&y),
        }
    }
}

impl fmt::Display for TieStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    #[test]
    fn steps_compare_in_their_direction() {
        let more = TieStep::more("kills", 1, "kills");
        let fewer = TieStep::fewer("kills", 1, "kills");
        let a = Stats::from_values(&[0, 3]);
        let b = Stats::from_values(&[9, 2]);
        assert_eq!(more.compare(&a, &b), Ordering::Less);
        assert_eq!(fewer.compare(&a, &b), Ordering::Greater);
        assert_eq!(a.plus(&b), Stats::from_values(&[9, 5]));
    }
}

/// Statistics with their game kind, serialised as `name: value` entries (`"flags": 3`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NamedStats {
    pub kind: crate::games::GameKind,
    pub stats: Stats,
}

impl NamedStats {
    /// `(name, value)` in the game's order.
    pub fn entries(&self) -> impl Iterator<Item = (&'static str, u32)> + '_ {
        self.kind
            .statistics()
            .iter()
            .enumerate()
            .map(|(i, name)| (*name, self.stats.get(i)))
    }
}

impl serde::Serialize for NamedStats {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.kind.statistics().len()))?;
        for (name, value) in self.entries() {
            map.serialize_entry(name, &value)?;
        }
        map.end()
    }
}

//! Paths through the bracket: each set's ranking with who went through and why, each
//! team's sets from its first round to the last it reached, and how it got there.
//!
//! Standings say where a team ended; these say why, with the numbers: the place, the
//! score, and at every cut the tie-break step that separated the teams through from the
//! first team left out. Computed from a [`Snapshot`] alone with the bracket's own ranking
//! ([`rank`] with the stored seeded draw), and checked against the stored advancement.

mod decider;
mod wild;

pub use decider::{Decider, Tied};
pub use wild::{WildCardCandidate, wild_card_table};

use super::snapshot::Snapshot;
use crate::games::Stats;
use crate::store::SetRow;
use crate::tourney::bracket::{SeriesTotals, TieDraw, rank};
use crate::tourney::model::{BracketFormat, SetId, StageId, TeamId};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// One line of a set's ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetLine {
    /// 1-based.
    pub place: usize,
    pub team: TeamId,
    /// The series score.
    pub score: i64,
    pub games_won: u32,
    /// The game's statistics, summed (names from its game kind).
    pub stats: Stats,
    /// Recorded as advancing out of the set (finished sets only).
    pub advanced: bool,
    /// At the cut of a finished set: for an advancing team, what separated it from the
    /// first team left out; for the first team left out, what stopped it (against the last
    /// advancing team); otherwise `None`.
    pub decider: Option<Decider>,
}

impl SetLine {
    /// Whether the line is marked as going on: an advancing team, except below the winner of
    /// the decisive final (whose places are the tournament's result, not advancement).
    pub fn marked_advancing(&self, decisive: bool) -> bool {
        self.advanced && !(decisive && self.place > 1)
    }

    fn totals(&self) -> SeriesTotals {
        SeriesTotals {
            team: self.team,
            score: self.score,
            games_won: self.games_won,
            stats: self.stats,
        }
    }
}

/// What a set did for a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The set is still being played.
    Playing,
    Advanced,
    Eliminated,
    /// First in the tournament's last final.
    Champion,
    /// Placed in the tournament's last final (place in [`SetPlacing::place`]).
    Finalist,
}

/// One set of a team's path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SetPlacing {
    pub set_id: SetId,
    pub stage_id: StageId,
    pub round: u32,
    pub is_final: bool,
    /// 1-based place in the set's ranking (so far, while it is played).
    pub place: usize,
    /// Teams in the set.
    pub of: usize,
    /// How many teams go through the set's cut.
    pub advancing: usize,
    /// The series score.
    pub score: i64,
    pub games_done: usize,
    pub games_planned: usize,
    pub outcome: Outcome,
    /// Advanced: what separated the team from the first team left out. Eliminated: what
    /// separated it from the last advancing team. Champion: from the runner-up. Finalist:
    /// from the team just above. `None` while playing, or when nobody was left out.
    pub decider: Option<Decider>,
}

/// How a team entered the nationals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// Among the top of its school final.
    SchoolTop { school_final: SetId, place: usize },
    /// A wild card, ranked `rank` by its school-stage total.
    WildCard { rank: usize, school_total: i64 },
    /// The only team of its school.
    SingleTeam,
}

/// A team's way through the bracket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamPath {
    pub team: TeamId,
    /// Bracket order: school rounds, school final, nationals rounds, national final.
    pub sets: Vec<SetPlacing>,
    pub nationals_entry: Option<Entry>,
    /// One line saying where the team stands and why, e.g. `top 2 of westfield/final (2nd,
    /// 312; games won 5 vs 4 over River Rats)`.
    pub how: String,
}

/// The bracket format stored with the tournament (the default one if unreadable).
fn format_of(snap: &Snapshot) -> BracketFormat {
    serde_json::from_str(&snap.tournament.format_json).unwrap_or_default()
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, ..., `21st`.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What every set ranking needs: the draw, the cut, the stored advancement, and each
/// set's `(games done, games planned)`. Built once per report and asked for every set: the
/// draw alone is a keyed hash per team, and a big tournament has a hundred thousand teams
/// in tens of thousands of sets.
pub struct SetRankings<'a> {
    snap: &'a Snapshot,
    draw: TieDraw,
    advance: usize,
    advanced: HashSet<(&'a str, TeamId)>,
    games: HashMap<&'a str, (usize, usize)>,
}

impl<'a> SetRankings<'a> {
    pub fn new(snap: &'a Snapshot) -> SetRankings<'a> {
        SetRankings {
            snap,
            draw: snap.draw(),
            advance: format_of(snap).advance_per_set,
            advanced: snap
                .advancement
                .iter()
                .filter_map(|a| a.set_id.as_ref().map(|id| (id.as_str(), a.team)))
                .collect(),
            games: snap
                .game_counts
                .iter()
                .map(|(set, c)| (set.as_str(), (c.done, c.planned)))
                .collect(),
        }
    }

    fn cut(&self, set: &SetRow) -> usize {
        self.advance.min(set.members.len())
    }

    /// A set's ranking, best first, by the ranking the runner used. `advanced` and the
    /// cut's deciders are given for finished sets only.
    pub fn of(&self, set: &SetRow) -> Vec<SetLine> {
        let ranking = rank(&self.snap.set_totals(set), &self.draw);
        let deciders = if set.is_done() {
            decider::at_cut(&ranking, self.cut(set), &self.draw)
        } else {
            vec![None; ranking.len()]
        };
        ranking
            .iter()
            .zip(deciders)
            .enumerate()
            .map(|(i, (r, decider))| SetLine {
                place: i + 1,
                team: r.totals.team,
                score: r.totals.score,
                games_won: r.totals.games_won,
                stats: r.totals.stats,
                advanced: set.is_done()
                    && self.advanced.contains(&(set.id.as_str(), r.totals.team)),
                decider,
            })
            .collect()
    }

    /// Every member's placing in `set`, in rank order.
    fn placings(&self, set: &SetRow) -> Vec<(TeamId, SetPlacing)> {
        let lines = self.of(set);
        let last_stage = set.stage_id.is_nationals() || !self.snap.has_nationals();
        let cut = self.cut(set);
        let (games_done, games_planned) =
            self.games.get(set.id.as_str()).copied().unwrap_or_default();
        let against = |line: &SetLine, other: Option<&SetLine>| {
            other.map(|o| Decider::between(&line.totals(), &o.totals(), &self.draw))
        };
        lines
            .iter()
            .map(|line| {
                let i = line.place - 1;
                let (outcome, decider) = if !set.is_done() {
                    (Outcome::Playing, None)
                } else if set.is_final && last_stage && i == 0 {
                    (Outcome::Champion, against(line, lines.get(1)))
                } else if set.is_final && last_stage {
                    (Outcome::Finalist, against(line, lines.get(i - 1)))
                } else if line.advanced {
                    (Outcome::Advanced, line.decider.clone())
                } else {
                    let last_in = cut.checked_sub(1).and_then(|c| lines.get(c));
                    (Outcome::Eliminated, against(line, last_in))
                };
                let placing = SetPlacing {
                    set_id: set.id.clone(),
                    stage_id: set.stage_id.clone(),
                    round: set.round,
                    is_final: set.is_final,
                    place: line.place,
                    of: lines.len(),
                    advancing: cut,
                    score: line.score,
                    games_done,
                    games_planned,
                    outcome,
                    decider,
                };
                (line.team, placing)
            })
            .collect()
    }
}

impl SetPlacing {
    /// One line for this set: `playing westfield/r1/s1 (4 of 10 games)`, `won
    /// nationals/final`, `2nd of 8 in nationals/final`, `2nd of 6 in westfield/final,
    /// qualified (top 2)` (a one-school tournament), `top 2 of westfield/final (2nd,
    /// 312; games won 5 vs 4 over River Rats)`, `out in westfield/r1/s2: 3rd, score 298
    /// vs 312 (Garbage Collectors)`, `stopped by games won 4 vs 5 against River Rats in
    /// westfield/r1/s2 (3rd)`.
    pub fn describe(&self, snap: &Snapshot) -> String {
        let set = &self.set_id;
        let place = ordinal(self.place);
        // A final's place is decided by a tie-break only when the numbers say so.
        let tie_note = || {
            self.decider
                .as_ref()
                .filter(|d| d.tie_break().is_some())
                .map(|d| format!(" ({})", d.describe(snap)))
                .unwrap_or_default()
        };
        // A one-school tournament's final still qualifies its top teams.
        let qualified = || {
            if !self.stage_id.is_nationals() && self.place <= self.advancing {
                format!(", qualified (top {})", self.advancing)
            } else {
                String::new()
            }
        };
        match self.outcome {
            Outcome::Playing => format!(
                "playing {set} ({} of {} games)",
                self.games_done, self.games_planned
            ),
            Outcome::Champion => format!("won {set}{}{}", qualified(), tie_note()),
            Outcome::Finalist => format!(
                "{place} of {} in {set}{}{}",
                self.of,
                qualified(),
                tie_note()
            ),
            Outcome::Advanced => {
                let why = self
                    .decider
                    .as_ref()
                    .map(|d| format!("; {}", d.describe(snap)))
                    .unwrap_or_default();
                format!(
                    "top {} of {set} ({place}, {}{why})",
                    self.advancing, self.score
                )
            }
            Outcome::Eliminated => match &self.decider {
                Some(d) if d.tie_break().is_some() => {
                    format!("stopped by {} in {set} ({place})", d.describe(snap))
                }
                Some(d) => format!(
                    "out in {set}: {place}, {} ({})",
                    d.numbers(),
                    snap.team_name(d.other_team)
                ),
                None => format!("out in {set}: {place}"),
            },
        }
    }
}

impl Entry {
    /// `qualified 2nd in westfield/final`, `wild card #3 (school total 512)`, `only team of
    /// Maple Grove Academy, qualified without playing`.
    pub fn describe(&self, snap: &Snapshot, team: TeamId) -> String {
        match self {
            Entry::SchoolTop {
                school_final,
                place,
            } => format!("qualified {} in {school_final}", ordinal(*place)),
            Entry::WildCard { rank, school_total } => {
                format!("wild card #{rank} (school total {school_total})")
            }
            Entry::SingleTeam => format!(
                "only team of {}, qualified without playing",
                snap.school_of(team)
            ),
        }
    }
}

/// Every team's path, indexed by team id.
pub fn team_paths(snap: &Snapshot) -> Vec<TeamPath> {
    paths_of_teams(&SetRankings::new(snap))
}

/// Every team's path, indexed by team id, from rankings already built.
pub fn paths_of_teams(ctx: &SetRankings) -> Vec<TeamPath> {
    let snap = ctx.snap;
    let mut sets: Vec<&SetRow> = snap.sets.iter().collect();
    sets.sort_by_key(|s| (s.stage_id.is_nationals(), s.round, s.set_index));
    let mut paths: Vec<TeamPath> = (0..snap.teams.len())
        .map(|team| TeamPath {
            team: TeamId(team),
            sets: Vec::new(),
            nationals_entry: None,
            how: String::new(),
        })
        .collect();
    for set in sets {
        for (team, placing) in ctx.placings(set) {
            if let Some(path) = paths.get_mut(team.index()) {
                path.sets.push(placing);
            }
        }
    }
    let wild = wild_card_table(snap);
    let wild: HashMap<TeamId, &WildCardCandidate> = wild.iter().map(|w| (w.team, w)).collect();
    let mut school_sizes: HashMap<usize, usize> = HashMap::new();
    for t in &snap.teams {
        *school_sizes.entry(t.school).or_default() += 1;
    }
    let nationals = snap.has_nationals();
    for path in &mut paths {
        let alone = snap
            .teams
            .get(path.team.index())
            .is_some_and(|t| school_sizes.get(&t.school) == Some(&1));
        let candidate = wild.get(&path.team).copied();
        if nationals {
            path.nationals_entry = entry(path, candidate, alone);
        }
        path.how = how(snap, path, candidate, alone);
    }
    paths
}

/// How the team entered the nationals, once it has (with nationals in the tournament).
fn entry(path: &TeamPath, wild: Option<&WildCardCandidate>, alone: bool) -> Option<Entry> {
    if let Some(w) = wild.filter(|w| w.selected) {
        return Some(Entry::WildCard {
            rank: w.rank,
            school_total: w.school_total,
        });
    }
    let school_final = path
        .sets
        .iter()
        .find(|p| p.is_final && !p.stage_id.is_nationals());
    if let Some(p) = school_final.filter(|p| p.outcome == Outcome::Advanced) {
        return Some(Entry::SchoolTop {
            school_final: p.set_id.clone(),
            place: p.place,
        });
    }
    alone.then_some(Entry::SingleTeam)
}

/// The team's one line: its last set (with how it entered the nationals, once there), or
/// its entry while it waits for the nationals to be dealt.
fn how(snap: &Snapshot, path: &TeamPath, wild: Option<&WildCardCandidate>, alone: bool) -> String {
    let last = path.sets.last();
    let at_nationals = last.is_some_and(|p| p.stage_id.is_nationals());
    let mut line = match (&path.nationals_entry, last) {
        (Some(entry), Some(last)) if at_nationals => format!(
            "{}; {}",
            last.describe(snap),
            entry.describe(snap, path.team)
        ),
        (Some(entry @ (Entry::WildCard { .. } | Entry::SingleTeam)), _) => {
            entry.describe(snap, path.team)
        }
        (_, Some(last)) => last.describe(snap),
        (_, None) if alone => {
            format!(
                "only team of {}: nothing to play",
                snap.school_of(path.team)
            )
        }
        (_, None) => "not in a set yet".to_string(),
    };
    // The first team left out of the wild cards: what stopped it there (the score of the
    // wild-card ranking is the school-stage total).
    if let Some(d) = wild
        .filter(|w| !w.selected)
        .and_then(|w| w.decider.as_ref())
    {
        let why = if d.step == "score" {
            format!(
                "school total {} vs {} against {}",
                d.ours,
                d.theirs,
                snap.team_name(d.other_team)
            )
        } else {
            d.describe(snap)
        };
        line.push_str(&format!("; first left out of the wild cards: {why}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals_follow_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd",
                "101st", "111th", "112th"
            ]
        );
    }
}

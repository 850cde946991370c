//! The wild-card table: every team the rules considered for a wild card, in their order.
//!
//! Computed from the stored school stages the way the bracket picks wild cards
//! ([`wild_cards`](crate::tourney::bracket::wild_cards)): the teams that did not qualify
//! from a school, ranked by school-stage total with the set tie-break chain, the best
//! `multiple - q mod multiple` taken. Shown in full so a team left out sees why.

use super::decider::{Decider, at_cut};
use super::format_of;
use crate::games::Stats;
use crate::report::Snapshot;
use crate::store::SetRow;
use crate::tourney::bracket::{SeriesTotals, rank, wild_card_count};
use crate::tourney::model::TeamId;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One team considered for a wild card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WildCardCandidate {
    pub team: TeamId,
    /// The school's name.
    pub school: String,
    /// The team's score over every game it played in its school stage.
    pub school_total: i64,
    /// Games won, flags and deaths over those games: the tie-break steps.
    pub games_won: u32,
    /// The game's statistics, summed (names from its game kind).
    pub stats: Stats,
    /// 1-based place among the candidates.
    pub rank: usize,
    /// Whether the team got a wild card.
    pub selected: bool,
    /// At the wild-card cut: for a selected team, what separated it from the first team
    /// left out; for that team, what stopped it (against the last one selected).
    pub decider: Option<Decider>,
}

/// Every wild-card candidate in rank order; empty without nationals, while a school stage
/// is unfinished, or when the qualifiers need no wild cards.
pub fn wild_card_table(snap: &Snapshot) -> Vec<WildCardCandidate> {
    if !snap.has_nationals() {
        return Vec::new();
    }
    let format = format_of(snap);
    let draw = snap.draw();
    let mut school_totals: BTreeMap<TeamId, SeriesTotals> = BTreeMap::new();
    for set in snap.sets.iter().filter(|s| !s.stage_id.is_nationals()) {
        for t in snap.set_totals(set) {
            let sum = school_totals
                .entry(t.team)
                .or_insert_with(|| SeriesTotals::zero(t.team));
            *sum = sum.plus(&t);
        }
    }
    let mut qualified: HashSet<TeamId> = HashSet::new();
    let mut entrants = Vec::new();
    let mut by_school: Vec<Vec<TeamId>> = vec![Vec::new(); snap.schools.len()];
    for (team, row) in snap.teams.iter().enumerate() {
        if let Some(teams) = by_school.get_mut(row.school) {
            teams.push(TeamId(team));
        }
    }
    let finals: HashMap<&str, &SetRow> = snap
        .sets
        .iter()
        .filter(|s| s.is_final && !s.stage_id.is_nationals())
        .map(|s| (s.stage_id.as_str(), s))
        .collect();
    for (school, teams) in snap.schools.iter().zip(by_school) {
        if let [single] = teams[..] {
            qualified.insert(single);
        } else if !teams.is_empty() {
            let Some(fin) = finals.get(school.slug.as_str()).filter(|s| s.is_done()) else {
                return Vec::new();
            };
            let ranking = rank(&snap.set_totals(fin), &draw);
            qualified.extend(
                ranking
                    .iter()
                    .take(format.advance_per_set)
                    .map(|r| r.totals.team),
            );
        }
        entrants.extend(teams);
    }
    let count = wild_card_count(qualified.len(), format.fill_nationals_to_multiple_of);
    if count == 0 {
        return Vec::new();
    }
    let candidates: Vec<SeriesTotals> = entrants
        .into_iter()
        .filter(|t| !qualified.contains(t))
        .map(|t| {
            school_totals
                .get(&t)
                .copied()
                .unwrap_or_else(|| SeriesTotals::zero(t))
        })
        .collect();
    let ranking = rank(&candidates, &draw);
    let cut = count.min(ranking.len());
    let deciders = at_cut(&ranking, cut, &draw);
    ranking
        .iter()
        .zip(deciders)
        .enumerate()
        .map(|(i, (r, decider))| WildCardCandidate {
            team: r.totals.team,
            school: snap.school_of(r.totals.team).to_string(),
            school_total: r.totals.score,
            games_won: r.totals.games_won,
            stats: r.totals.stats,
            rank: i + 1,
            selected: i < cut,
            decider,
        })
        .collect()
}

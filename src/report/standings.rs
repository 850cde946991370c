//! Standings: one row per team, best first, with the columns of the standings CSV.
//!
//! Rank order: the decisive final (nationals, or the school final of a one-school
//! tournament) in its ranking order, once it is played; then every other team by the stage
//! it reached (nationals before school), the round it reached (the final highest), its
//! series score in that round, its total score, and finally its name.

use super::paths::team_paths;
use super::snapshot::Snapshot;
use crate::games::{GameKind, NamedStats, Stats};
use crate::tourney::bracket::rank;
use crate::tourney::model::{AdvancementKind, SetId, TeamId, TieBreak};
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::HashSet;

/// A tie-break step as the standings write it: its stored name, or empty.
fn step_name<S: serde::Serializer>(step: &Option<TieBreak>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(step.map_or("", TieBreak::name))
}

/// One team's line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub rank: usize,
    pub team: String,
    pub school: String,
    /// `school` or `nationals`.
    pub stage_reached: String,
    /// `r1`, `r2`, ... or `final`; empty when the team has not played in that stage.
    pub round_reached: String,
    pub total_score: i64,
    pub school_score: i64,
    pub nationals_score: i64,
    pub games_played: u32,
    pub games_won: u32,
    /// The game's statistics, summed over every game played (a column each).
    #[serde(flatten)]
    pub stats: NamedStats,
    pub faults: u32,
    /// `top2`, `wildcard`, `single_team` or empty.
    pub qualified_by: String,
    /// The tie-break step that decided the qualification, when the score alone did not
    /// (written as its stored name, or empty).
    #[serde(serialize_with = "step_name")]
    pub tie_break: Option<TieBreak>,
    /// The last set the team was dealt into (`westfield-high/r1/s2`, `nationals/final`),
    /// if any; in JSON its id, or `""` when it has none. Not a CSV column.
    #[serde(serialize_with = "set_or_empty")]
    pub set_reached: Option<SetId>,
    /// How the team got there or what stopped it
    /// ([`TeamPath::how`](super::paths::TeamPath::how)). Not a CSV column.
    pub how: String,
    /// The team's id (not exported).
    #[serde(skip)]
    pub team_id: TeamId,
    /// Its series score in the set reached: what the rank order uses after the decisive
    /// final (not exported).
    #[serde(skip)]
    pub ranked_score: Option<i64>,
}

/// A set id, or `""` for none: how `set_reached` has always been written.
fn set_or_empty<S: serde::Serializer>(set: &Option<SetId>, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(set.as_ref().map_or("", SetId::as_str))
}

/// The columns of the standings CSV of a tournament playing `game`, in order: the game's
/// statistics stand between `games_won` and `faults`.
pub fn standings_columns(game: GameKind) -> Vec<&'static str> {
    let mut columns = vec![
        "rank",
        "team",
        "school",
        "stage_reached",
        "round_reached",
        "total_score",
        "school_score",
        "nationals_score",
        "games_played",
        "games_won",
    ];
    columns.extend(game.statistics());
    columns.extend(["faults", "qualified_by", "tie_break"]);
    columns
}

impl Standing {
    /// The row's cells in [`standings_columns`] order.
    pub fn cells(&self) -> Vec<String> {
        let mut cells = vec![
            self.rank.to_string(),
            self.team.clone(),
            self.school.clone(),
            self.stage_reached.clone(),
            self.round_reached.clone(),
            self.total_score.to_string(),
            self.school_score.to_string(),
            self.nationals_score.to_string(),
            self.games_played.to_string(),
            self.games_won.to_string(),
        ];
        cells.extend(self.stats.entries().map(|(_, v)| v.to_string()));
        cells.extend([
            self.faults.to_string(),
            self.qualified_by.clone(),
            self.tie_break.map_or("", TieBreak::name).to_string(),
        ]);
        cells
    }
}

#[derive(Debug, Clone, Default)]
struct Acc {
    school_score: i64,
    nationals_score: i64,
    games: u32,
    won: u32,
    stats: Stats,
    faults: u32,
    /// (is nationals, round order, round label, series score there)
    reached: Option<(bool, u32, String, i64)>,
}

/// Computes the standings of a stored tournament.
pub fn standings(snap: &Snapshot) -> Vec<Standing> {
    let n = snap.teams.len();
    let mut acc = vec![Acc::default(); n];
    let nationals_tournament = snap.has_nationals();
    for set in &snap.sets {
        let nationals = set.stage_id.is_nationals();
        for t in snap.tallies.get(&set.id).into_iter().flatten() {
            let Some(a) = acc.get_mut(t.team.index()) else {
                continue;
            };
            if nationals {
                a.nationals_score += t.score;
            } else {
                a.school_score += t.score;
            }
            a.games += t.games;
            a.won += t.won;
            a.stats = a.stats.plus(&t.stats);
            a.faults += t.faults;
        }
        let order = if set.is_final { u32::MAX } else { set.round };
        let label = if set.is_final {
            "final".to_string()
        } else {
            format!("r{}", set.round)
        };
        for (team, totals) in set.members.iter().zip(snap.set_totals(set)) {
            let Some(a) = acc.get_mut(team.index()) else {
                continue;
            };
            let candidate = (nationals, order, label.clone(), totals.score);
            if a.reached
                .as_ref()
                .is_none_or(|r| (r.0, r.1) < (nationals, order))
            {
                a.reached = Some(candidate);
            }
        }
    }
    // Qualification for nationals (or, with one school, out of its final).
    let mut qualified: Vec<(String, Option<TieBreak>)> = vec![(String::new(), None); n];
    let finals: HashSet<&str> = snap
        .sets
        .iter()
        .filter(|s| s.is_final)
        .map(|s| s.id.as_str())
        .collect();
    for adv in &snap.advancement {
        let from_final = adv
            .set_id
            .as_ref()
            .is_some_and(|id| finals.contains(id.as_str()));
        let label = match adv.kind {
            AdvancementKind::Top if !adv.stage_id.is_nationals() && from_final => "top2",
            AdvancementKind::WildCard => "wildcard",
            AdvancementKind::SingleTeam => "single_team",
            AdvancementKind::Top => continue,
        };
        if let Some(q) = qualified.get_mut(adv.team.index()) {
            *q = (label.to_string(), adv.tie_break);
        }
    }
    let paths = team_paths(snap);
    let mut rows: Vec<Standing> = (0..n)
        .map(|team| {
            let id = TeamId(team);
            let path = paths.get(team);
            let reached = path.and_then(|p| p.sets.last());
            let a = &acc[team];
            let in_nationals = a.reached.as_ref().is_some_and(|r| r.0)
                || (nationals_tournament && !qualified[team].0.is_empty());
            let round_reached = match &a.reached {
                Some(r) if r.0 == in_nationals => r.2.clone(),
                _ => String::new(),
            };
            Standing {
                rank: 0,
                team: snap.team_name(id).to_string(),
                school: snap.school_of(id).to_string(),
                stage_reached: if in_nationals { "nationals" } else { "school" }.to_string(),
                round_reached,
                total_score: a.school_score + a.nationals_score,
                school_score: a.school_score,
                nationals_score: a.nationals_score,
                games_played: a.games,
                games_won: a.won,
                stats: NamedStats {
                    kind: snap.tournament.game,
                    stats: a.stats,
                },
                faults: a.faults,
                qualified_by: qualified[team].0.clone(),
                tie_break: qualified[team].1,
                set_reached: reached.map(|p| p.set_id.clone()),
                how: path.map(|p| p.how.clone()).unwrap_or_default(),
                team_id: id,
                ranked_score: reached.map(|p| p.score),
            }
        })
        .collect();
    // The decisive final's order, once played.
    let decisive = snap.sets.iter().find(|s| {
        s.is_final
            && s.is_done()
            && if nationals_tournament {
                s.stage_id.is_nationals()
            } else {
                true
            }
    });
    let final_order: Vec<usize> = decisive
        .map(|set| {
            rank(&snap.set_totals(set), &snap.draw())
                .iter()
                .map(|r| r.totals.team.index())
                .collect()
        })
        .unwrap_or_default();
    let in_final: HashSet<usize> = final_order.iter().copied().collect();
    let mut order: Vec<usize> = (0..n).filter(|t| !in_final.contains(t)).collect();
    order.sort_by_cached_key(|&t| {
        let a = &acc[t];
        let (nat, round, score) = match &a.reached {
            Some(r) => (rows[t].stage_reached == "nationals", r.1, r.3),
            None => (rows[t].stage_reached == "nationals", 0, 0),
        };
        (
            Reverse(nat),
            Reverse(round),
            Reverse(score),
            Reverse(rows[t].total_score),
            rows[t].team.clone(),
        )
    });
    let ranked: Vec<usize> = final_order.into_iter().chain(order).collect();
    let mut out = Vec::with_capacity(n);
    for (place, team) in ranked.into_iter().enumerate() {
        let mut row = std::mem::replace(
            &mut rows[team],
            Standing {
                rank: 0,
                team: String::new(),
                school: String::new(),
                stage_reached: String::new(),
                round_reached: String::new(),
                total_score: 0,
                school_score: 0,
                nationals_score: 0,
                games_played: 0,
                games_won: 0,
                stats: NamedStats::default(),
                faults: 0,
                qualified_by: String::new(),
                tie_break: None,
                set_reached: None,
                how: String::new(),
                team_id: TeamId(0),
                ranked_score: None,
            },
        );
        row.rank = place + 1;
        out.push(row);
    }
    out
}

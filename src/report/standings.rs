//! Standings: one row per team, best first, with the columns of the standings CSV.
//!
//! Rank order: the decisive final (nationals, or the school final of a one-school
//! tournament) in its ranking order, once it is played; then every other team by the stage
//! it reached (nationals before school), the round it reached (the final highest), its
//! series score in that round, its total score, and finally its name.

use super::paths::team_paths;
use super::snapshot::Snapshot;
use crate::tourney::bracket::{NATIONALS_LABEL, rank};
use serde::Serialize;
use std::cmp::Reverse;

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
    pub flags: u32,
    pub hits: u32,
    pub pushes: u32,
    pub push_kills: u32,
    pub deaths: u32,
    pub faults: u32,
    /// `top2`, `wildcard`, `single_team` or empty.
    pub qualified_by: String,
    /// The tie-break step that decided the qualification, when the score alone did not.
    pub tie_break: String,
    /// The last set the team was dealt into (`westfield-high/r1/s2`, `nationals/final`);
    /// empty when it has none. Not a CSV column.
    pub set_reached: String,
    /// How the team got there or what stopped it
    /// ([`TeamPath::how`](super::paths::TeamPath::how)). Not a CSV column.
    pub how: String,
    /// The team's id (not exported).
    #[serde(skip)]
    pub team_id: usize,
    /// Its series score in the set reached: what the rank order uses after the decisive
    /// final (not exported).
    #[serde(skip)]
    pub ranked_score: Option<i64>,
}

/// The columns of the standings CSV, in order.
pub const STANDINGS_COLUMNS: [&str; 18] = [
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
    "flags",
    "hits",
    "pushes",
    "push_kills",
    "deaths",
    "faults",
    "qualified_by",
    "tie_break",
];

impl Standing {
    /// The row's cells in [`STANDINGS_COLUMNS`] order.
    pub fn cells(&self) -> Vec<String> {
        vec![
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
            self.flags.to_string(),
            self.hits.to_string(),
            self.pushes.to_string(),
            self.push_kills.to_string(),
            self.deaths.to_string(),
            self.faults.to_string(),
            self.qualified_by.clone(),
            self.tie_break.clone(),
        ]
    }
}

#[derive(Debug, Clone, Default)]
struct Acc {
    school_score: i64,
    nationals_score: i64,
    games: u32,
    won: u32,
    flags: u32,
    hits: u32,
    pushes: u32,
    push_kills: u32,
    deaths: u32,
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
        let nationals = set.stage_id == NATIONALS_LABEL;
        let lines = snap.results.get(&set.id).map_or(&[][..], Vec::as_slice);
        for r in lines {
            let Some(a) = acc.get_mut(r.team) else {
                continue;
            };
            if nationals {
                a.nationals_score += r.score;
            } else {
                a.school_score += r.score;
            }
            a.games += 1;
            a.won += u32::from(r.won);
            a.flags += r.flags;
            a.hits += r.hits;
            a.pushes += r.pushes;
            a.push_kills += r.push_kills;
            a.deaths += r.deaths;
            a.faults += r.faults;
        }
        let order = if set.is_final { u32::MAX } else { set.round };
        let label = if set.is_final {
            "final".to_string()
        } else {
            format!("r{}", set.round)
        };
        for (team, totals) in set.members.iter().zip(snap.set_totals(set)) {
            let Some(a) = acc.get_mut(*team) else {
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
    let mut qualified: Vec<(String, String)> = vec![(String::new(), String::new()); n];
    for adv in &snap.advancement {
        let from_final = adv
            .set_id
            .as_ref()
            .is_some_and(|id| snap.sets.iter().any(|s| &s.id == id && s.is_final));
        let label = match adv.kind.as_str() {
            "top" if adv.stage_id != NATIONALS_LABEL && from_final => "top2",
            "wildcard" => "wildcard",
            "single_team" => "single_team",
            _ => continue,
        };
        if let Some(q) = qualified.get_mut(adv.team) {
            *q = (label.to_string(), adv.tie_break.clone().unwrap_or_default());
        }
    }
    let paths = team_paths(snap);
    let mut rows: Vec<Standing> = (0..n)
        .map(|team| {
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
                team: snap.team_name(team).to_string(),
                school: snap.school_of(team).to_string(),
                stage_reached: if in_nationals { "nationals" } else { "school" }.to_string(),
                round_reached,
                total_score: a.school_score + a.nationals_score,
                school_score: a.school_score,
                nationals_score: a.nationals_score,
                games_played: a.games,
                games_won: a.won,
                flags: a.flags,
                hits: a.hits,
                pushes: a.pushes,
                push_kills: a.push_kills,
                deaths: a.deaths,
                faults: a.faults,
                qualified_by: qualified[team].0.clone(),
                tie_break: qualified[team].1.clone(),
                set_reached: reached.map(|p| p.set_id.clone()).unwrap_or_default(),
                how: path.map(|p| p.how.clone()).unwrap_or_default(),
                team_id: team,
                ranked_score: reached.map(|p| p.score),
            }
        })
        .collect();
    // The decisive final's order, once played.
    let decisive = snap.sets.iter().find(|s| {
        s.is_final
            && s.done
            && if nationals_tournament {
                s.stage_id == NATIONALS_LABEL
            } else {
                true
            }
    });
    let final_order: Vec<usize> = decisive
        .map(|set| {
            rank(&snap.set_totals(set), &snap.draw())
                .iter()
                .map(|r| r.totals.team)
                .collect()
        })
        .unwrap_or_default();
    let mut order: Vec<usize> = (0..n).filter(|t| !final_order.contains(t)).collect();
    order.sort_by_key(|&t| {
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
                flags: 0,
                hits: 0,
                pushes: 0,
                push_kills: 0,
                deaths: 0,
                faults: 0,
                qualified_by: String::new(),
                tie_break: String::new(),
                set_reached: String::new(),
                how: String::new(),
                team_id: 0,
                ranked_score: None,
            },
        );
        row.rank = place + 1;
        out.push(row);
    }
    out
}

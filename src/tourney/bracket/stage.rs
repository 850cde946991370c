//! The stage planner: a stage's rounds and sets so far, from its entrants and the results
//! known so far.
//!
//! This is the single source of truth for the bracket: the runner calls [`plan_stage`]
//! again each time a round's results are stored (and after a rerun), and the dry-run driver
//! is a thin loop around it. Nothing is remembered between calls; the same entrants, format,
//! seed and results always give the same plan.
//!
//! Rules (docs/tournament.md): one entrant plays nothing (a school's single team qualifies
//! as [`QualifiedBy::SingleTeam`]); 2..=set_size entrants play one set, the final; more play
//! round 1 in `ceil(n / set_size)` balanced sets (school stage: shuffled and dealt
//! round-robin; nationals: ranked by school-stage total, snake-dealt with school separation),
//! the top `advance_per_set` of each set advance, ranked by their series score in that round
//! (whole tie-break chain) for the snake deal of the next round (nationals: again with school
//! separation), until at most `set_size` remain: they play the final. The number of rounds
//! depends only on the number of entrants ([`round_sizes`]).

use super::ids::{SetPlace, set_id};
use super::ranking::{SeriesTotals, TieDraw, advancing, rank, teams_of};
use super::seeds::{TournamentSeed, game_seed, start_square};
use super::sets::{balanced_sizes, deal_round_robin, deal_snake, shuffle_round_one};
use super::{BracketError, Ranked, check_format};
use crate::tourney::model::{
    BracketFormat, QualifiedBy, SchoolId, SetId, SetKey, Stage, StageId, TeamId,
};
use std::collections::{BTreeMap, HashSet};

/// How a stage's round 1 is dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seeding {
    /// School stage: shuffled with the deal seed, dealt round-robin; schools not separated.
    Shuffled,
    /// Nationals: ranked by `totals` (school-stage totals; an entrant without one counts as
    /// zero), snake-dealt; in every round teams of one school are kept apart as far as
    /// possible (`school_of`; a team missing from it has no schoolmates).
    Ranked {
        totals: Vec<SeriesTotals>,
        school_of: BTreeMap<TeamId, SchoolId>,
    },
}

/// A stage's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageEntry {
    pub stage: Stage,
    /// The school's slug, or `nationals`: names the sets and seeds the games.
    pub label: StageId,
    pub entrants: Vec<TeamId>,
    pub seeding: Seeding,
}

/// One set to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetPlan {
    pub key: SetKey,
    /// `{label}/r{round}/s{set}` or `{label}/final`.
    pub id: SetId,
    pub stage_label: StageId,
    pub is_final: bool,
    /// The teams in set position order (position `i` starts game `g` on
    /// `start_square(i, g, len)`).
    pub teams: Vec<TeamId>,
}

impl SetPlan {
    /// The seed of game `game_index` (0-based) of this set (see `seeds`).
    pub fn game_seed(
        &self,
        tournament_seed: &TournamentSeed,
        game_index: u32,
        generation: u32,
    ) -> u64 {
        game_seed(
            tournament_seed,
            self.stage_label.as_str(),
            self.key.round,
            self.key.set,
            game_index,
            generation,
        )
    }

    /// The 1-based start square of the team at `position` in game `game_index`.
    pub fn start_square(&self, position: usize, game_index: usize) -> usize {
        start_square(position, game_index, self.teams.len())
    }
}

/// A played set's ranking and who advanced (or qualified, from a school final).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetResult {
    pub ranking: Vec<Ranked>,
    pub advancing: Vec<(TeamId, QualifiedBy)>,
}

/// A set and, once played, its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedSet {
    pub plan: SetPlan,
    pub result: Option<SetResult>,
}

/// One round of a stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundPlan {
    /// 1-based.
    pub round: u32,
    pub is_final: bool,
    /// The order the sets were dealt from: the shuffle (school round 1) or the ranking
    /// (later rounds: by previous-round score; nationals round 1: by school-stage total).
    pub dealt_from: Vec<TeamId>,
    pub sets: Vec<PlannedSet>,
}

/// A finished stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageOutcome {
    /// The final's ranking (the single entrant, with zero totals, when nobody played).
    pub ranking: Vec<Ranked>,
    /// School stage: the final's top `advance_per_set` ([`QualifiedBy::Top`]) or the
    /// single team ([`QualifiedBy::SingleTeam`]). Nationals: empty.
    pub qualifiers: Vec<(TeamId, QualifiedBy)>,
}

/// A stage's rounds so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StagePlan {
    pub stage: Stage,
    pub label: StageId,
    pub entrants: Vec<TeamId>,
    /// Rounds the stage will have, the final included (0 for fewer than 2 entrants).
    pub total_rounds: u32,
    /// Rounds dealt so far; all but the last are complete.
    pub rounds: Vec<RoundPlan>,
    /// Sets of the current round without results: what to play next.
    pub ready: Vec<SetPlan>,
    /// Set when the final is done (or nobody has to play).
    pub outcome: Option<StageOutcome>,
}

impl StagePlan {
    /// Every set dealt so far, round by round.
    pub fn sets(&self) -> impl Iterator<Item = &PlannedSet> {
        self.rounds.iter().flat_map(|r| r.sets.iter())
    }

    /// The set with this key, if dealt.
    pub fn set(&self, key: &SetKey) -> Option<&PlannedSet> {
        self.sets().find(|s| s.plan.key == *key)
    }

    /// The key of the set at `place` of this stage (its final is the last round, set 1),
    /// whether or not it has been dealt yet; `None` for a place the stage cannot have.
    pub fn key_of(&self, place: SetPlace) -> Option<SetKey> {
        let (round, set) = match place {
            SetPlace::Final if self.total_rounds > 0 => (self.total_rounds, 1),
            SetPlace::Round { round, set } if round >= 1 && round < self.total_rounds => {
                (round, set)
            }
            _ => return None,
        };
        Some(SetKey {
            stage: self.stage,
            round,
            set,
        })
    }

    /// The set with this id (`westfield-high/r1/s2`), if dealt.
    pub fn set_by_id(&self, id: &SetId) -> Option<&PlannedSet> {
        self.sets().find(|s| s.plan.id == *id)
    }

    /// Each entrant's totals over every set it played in this stage (entrant order).
    pub fn totals(&self) -> Vec<SeriesTotals> {
        let mut sums: BTreeMap<TeamId, SeriesTotals> = BTreeMap::new();
        for ranked in self
            .sets()
            .filter_map(|s| s.result.as_ref())
            .flat_map(|r| r.ranking.iter())
        {
            let t = ranked.totals;
            let sum = sums
                .entry(t.team)
                .or_insert_with(|| SeriesTotals::zero(t.team));
            *sum = sum.plus(&t);
        }
        self.entrants
            .iter()
            .map(|&team| {
                sums.get(&team)
                    .copied()
                    .unwrap_or_else(|| SeriesTotals::zero(team))
            })
            .collect()
    }
}

/// The number of teams in each round of a stage of `n` entrants, the final last (empty for
/// fewer than 2). Assumes a format accepted by `check_format`; otherwise stops where a round
/// would not shrink.
pub fn round_sizes(n: usize, format: &BracketFormat) -> Vec<usize> {
    let mut sizes = Vec::new();
    if n < 2 {
        return sizes;
    }
    let mut m = n;
    while m > format.set_size {
        sizes.push(m);
        let next: usize = balanced_sizes(m, format.set_size)
            .iter()
            .map(|&s| s.min(format.advance_per_set))
            .sum();
        if next >= m {
            return sizes;
        }
        m = next;
    }
    sizes.push(m);
    sizes
}

/// Plans a stage: see the module doc. `results` returns the stored series totals of a set
/// (one per team of the set, any order), or `None` when it has not been played.
pub fn plan_stage<F>(
    entry: &StageEntry,
    format: &BracketFormat,
    tournament_seed: &TournamentSeed,
    draw: &TieDraw,
    results: F,
) -> Result<StagePlan, BracketError>
where
    F: Fn(&SetKey) -> Option<Vec<SeriesTotals>>,
{
    check_format(format)?;
    let mut seen = HashSet::new();
    if let Some(&dup) = entry.entrants.iter().find(|&&t| !seen.insert(t)) {
        return Err(BracketError::DuplicateEntrant {
            stage: entry.label.clone(),
            team: dup,
        });
    }
    let is_school = matches!(entry.stage, Stage::School(_));
    let total_rounds = round_sizes(entry.entrants.len(), format).len();
    let mut plan = StagePlan {
        stage: entry.stage,
        label: entry.label.clone(),
        entrants: entry.entrants.clone(),
        total_rounds: to_u32(total_rounds),
        rounds: Vec::new(),
        ready: Vec::new(),
        outcome: None,
    };
    if let [single] = entry.entrants[..] {
        plan.outcome = Some(StageOutcome {
            ranking: vec![Ranked {
                totals: SeriesTotals::zero(single),
                separated_from_next: None,
            }],
            qualifiers: if is_school {
                vec![(single, QualifiedBy::SingleTeam)]
            } else {
                Vec::new()
            },
        });
    }
    if total_rounds == 0 {
        plan.outcome.get_or_insert_with(|| StageOutcome {
            ranking: Vec::new(),
            qualifiers: Vec::new(),
        });
        return Ok(plan);
    }

    let (mut order, school_of) = match &entry.seeding {
        Seeding::Shuffled => (
            shuffle_round_one(&entry.entrants, tournament_seed, entry.label.as_str()),
            None,
        ),
        Seeding::Ranked { totals, school_of } => {
            let by_team: BTreeMap<TeamId, SeriesTotals> =
                totals.iter().map(|t| (t.team, *t)).collect();
            let seeding: Vec<SeriesTotals> = entry
                .entrants
                .iter()
                .map(|&t| {
                    by_team
                        .get(&t)
                        .copied()
                        .unwrap_or_else(|| SeriesTotals::zero(t))
                })
                .collect();
            (teams_of(&rank(&seeding, draw)), Some(school_of))
        }
    };

    for round in 1..=total_rounds {
        let is_final = round == total_rounds;
        let dealt = match school_of {
            None if round == 1 => deal_round_robin(&order, format.set_size),
            None => deal_snake(&order, format.set_size, |_| None, false),
            Some(map) => deal_snake(&order, format.set_size, |t| map.get(&t).copied(), true),
        };
        let mut sets = Vec::with_capacity(dealt.len());
        for (i, teams) in dealt.into_iter().enumerate() {
            let key = SetKey {
                stage: entry.stage,
                round: to_u32(round),
                set: to_u32(i + 1),
            };
            let plan_of_set = SetPlan {
                key,
                id: set_id(entry.label.as_str(), key.round, key.set, is_final),
                stage_label: entry.label.clone(),
                is_final,
                teams,
            };
            let result = match results(&key) {
                Some(totals) => Some(set_result(&plan_of_set, &totals, format, draw)?),
                None => None,
            };
            sets.push(PlannedSet {
                plan: plan_of_set,
                result,
            });
        }
        plan.ready = sets
            .iter()
            .filter(|s| s.result.is_none())
            .map(|s| s.plan.clone())
            .collect();
        let next: Vec<SeriesTotals> = sets
            .iter()
            .filter_map(|s| s.result.as_ref())
            .flat_map(|r| {
                r.advancing.iter().filter_map(|(team, _)| {
                    r.ranking
                        .iter()
                        .find(|p| p.totals.team == *team)
                        .map(|p| p.totals)
                })
            })
            .collect();
        let outcome = match sets.first().and_then(|s| s.result.as_ref()) {
            Some(result) if is_final => Some(StageOutcome {
                ranking: result.ranking.clone(),
                qualifiers: if is_school {
                    result.advancing.clone()
                } else {
                    Vec::new()
                },
            }),
            _ => None,
        };
        plan.rounds.push(RoundPlan {
            round: to_u32(round),
            is_final,
            dealt_from: std::mem::take(&mut order),
            sets,
        });
        if !plan.ready.is_empty() {
            return Ok(plan);
        }
        if is_final {
            plan.outcome = outcome;
            return Ok(plan);
        }
        order = teams_of(&rank(&next, draw));
    }
    Ok(plan)
}

/// Checks a set's stored totals against its teams (one entry per team, any order), ranks
/// them and picks who advances. Totals for other teams (e.g. left over from before a rerun
/// changed who advanced) are an error naming the set, so the caller can invalidate it.
fn set_result(
    set: &SetPlan,
    totals: &[SeriesTotals],
    format: &BracketFormat,
    draw: &TieDraw,
) -> Result<SetResult, BracketError> {
    let mut expected: Vec<TeamId> = set.teams.clone();
    let mut got: Vec<TeamId> = totals.iter().map(|t| t.team).collect();
    expected.sort_unstable();
    got.sort_unstable();
    if expected != got {
        return Err(BracketError::ResultsMismatch {
            set: set.id.clone(),
            expected,
            got,
        });
    }
    let ranking = rank(totals, draw);
    let advancing = advancing(&ranking, format.advance_per_set);
    Ok(SetResult { ranking, advancing })
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn school_entry(n: usize) -> StageEntry {
        StageEntry {
            stage: Stage::School(SchoolId(0)),
            label: StageId::new("westfield"),
            entrants: (0..n).map(TeamId).collect(),
            seeding: Seeding::Shuffled,
        }
    }

    fn draw() -> TieDraw {
        TieDraw::new(
            crate::games::GameKind::default().tie_steps(),
            crate::tourney::bracket::TournamentSeed::keyed(9),
            (0..100).map(|t| format!("w/{t}")),
        )
    }

    /// Every team scores its id: the highest ids win.
    fn by_id(set: &SetPlan) -> Vec<SeriesTotals> {
        set.teams
            .iter()
            .map(|&t| SeriesTotals {
                score: t.0 as i64,
                ..SeriesTotals::zero(t)
            })
            .collect()
    }

    #[test]
    fn round_sizes_follow_the_rules() {
        let f = BracketFormat::default();
        assert!(round_sizes(0, &f).is_empty());
        assert!(round_sizes(1, &f).is_empty());
        assert_eq!(round_sizes(2, &f), vec![2]);
        assert_eq!(round_sizes(8, &f), vec![8]);
        assert_eq!(round_sizes(9, &f), vec![9, 4]);
        assert_eq!(round_sizes(60, &f), vec![60, 16, 4]);
        assert_eq!(round_sizes(33, &f), vec![33, 10, 4]);
    }

    #[test]
    fn a_school_of_one_qualifies_without_playing() {
        let plan = plan_stage(
            &school_entry(1),
            &BracketFormat::default(),
            &TournamentSeed::keyed(1),
            &draw(),
            |_| None,
        )
        .expect("plans");
        assert!(plan.rounds.is_empty() && plan.ready.is_empty());
        let outcome = plan.outcome.expect("finished");
        assert_eq!(
            outcome.qualifiers,
            vec![(TeamId(0), QualifiedBy::SingleTeam)]
        );
    }

    #[test]
    fn a_school_of_twenty_plays_three_sets_then_a_final() {
        let f = BracketFormat::default();
        let entry = school_entry(20);
        let mut stored: HashMap<SetKey, Vec<SeriesTotals>> = HashMap::new();
        let first = plan_stage(&entry, &f, &TournamentSeed::keyed(1), &draw(), |k| {
            stored.get(k).cloned()
        })
        .expect("plans");
        assert_eq!(first.total_rounds, 2);
        assert_eq!(first.ready.len(), 3);
        assert_eq!(first.ready[1].id, "westfield/r1/s2");
        for set in &first.ready {
            stored.insert(set.key, by_id(set));
        }
        let second = plan_stage(&entry, &f, &TournamentSeed::keyed(1), &draw(), |k| {
            stored.get(k).cloned()
        })
        .expect("plans");
        assert_eq!(second.ready.len(), 1);
        let fin = &second.ready[0];
        assert_eq!(fin.id, "westfield/final");
        assert_eq!(fin.key.round, 2);
        assert_eq!(fin.teams.len(), 6);
        stored.insert(fin.key, by_id(fin));
        let done = plan_stage(&entry, &f, &TournamentSeed::keyed(1), &draw(), |k| {
            stored.get(k).cloned()
        })
        .expect("plans");
        let outcome = done.outcome.clone().expect("finished");
        assert_eq!(
            outcome.qualifiers,
            vec![
                (TeamId(19), QualifiedBy::Top { tie_break: None }),
                (TeamId(18), QualifiedBy::Top { tie_break: None })
            ]
        );
        // Totals add the round-1 series and the final.
        let totals = done.totals();
        assert_eq!(totals[19].score, 38);
        assert_eq!(totals[0].score, 0);
    }

    #[test]
    fn results_for_other_teams_are_refused() {
        let f = BracketFormat::default();
        let err = plan_stage(
            &school_entry(3),
            &f,
            &TournamentSeed::keyed(1),
            &draw(),
            |_| {
                Some(vec![
                    SeriesTotals::zero(TeamId(0)),
                    SeriesTotals::zero(TeamId(1)),
                ])
            },
        );
        assert!(matches!(
            err,
            Err(BracketError::ResultsMismatch { ref set, .. }) if set == "westfield/final"
        ));
        let plan = plan_stage(
            &school_entry(3),
            &f,
            &TournamentSeed::keyed(1),
            &draw(),
            |_| None,
        )
        .expect("plans");
        let fin = SetKey {
            stage: Stage::School(SchoolId(0)),
            round: 1,
            set: 1,
        };
        assert_eq!(plan.key_of(SetPlace::Final), Some(fin));
        assert_eq!(plan.key_of(SetPlace::Round { round: 1, set: 1 }), None);
    }
}

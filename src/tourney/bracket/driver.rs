//! The whole-bracket driver for tests and dry runs: every school stage, the wild cards and
//! the nationals, with results supplied by a closure.
//!
//! A thin loop around the stage planner (the real runner calls the same planner each time
//! a round's results are stored): plan, play the ready sets, plan again. Stages run one
//! after another, schools in configuration order, so `play` sees the sets in a
//! deterministic order.

use super::BracketError;
use super::nationals::nationals_field;
use super::ranking::{Ranked, SeriesTotals, TieDraw};
use super::seeds::{NATIONALS_LABEL, TournamentSeed};
use super::stage::{Seeding, SetPlan, StageEntry, StagePlan, plan_stage};
use crate::tourney::model::{
    BracketFormat, QualifiedBy, SchoolId, SetKey, Stage, StageId, TeamId, Tournament,
};
use std::collections::HashMap;

/// One school as the bracket sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterSchool {
    pub id: SchoolId,
    pub slug: String,
    pub teams: Vec<TeamId>,
}

/// What the bracket needs of a tournament: seed, format, schools and the seeded draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    pub seed: TournamentSeed,
    pub format: BracketFormat,
    pub schools: Vec<RosterSchool>,
    pub draw: TieDraw,
}

impl Roster {
    /// From a validated tournament; the draw key of a team is `{school slug}/{team name}`.
    pub fn from_tournament(t: &Tournament, seed: TournamentSeed) -> Roster {
        let keys = t.teams.iter().map(|team| {
            let slug = t
                .schools
                .get(team.school.index())
                .map_or("", |s| s.slug.as_str());
            format!("{slug}/{}", team.name)
        });
        Roster {
            seed,
            format: t.bracket.clone(),
            schools: t
                .schools
                .iter()
                .enumerate()
                .map(|(id, s)| RosterSchool {
                    id: SchoolId(id),
                    slug: s.slug.clone(),
                    teams: s.teams.clone(),
                })
                .collect(),
            draw: TieDraw::new(t.bracket.game.kind().tie_steps(), seed, keys),
        }
    }

    /// A synthetic roster: school `i` (0-based) has slug `school-{i+1}` and `sizes[i]` teams
    /// named `team-{j+1}`, numbered consecutively.
    pub fn from_sizes(seed: TournamentSeed, format: BracketFormat, sizes: &[usize]) -> Roster {
        let steps = format.game.kind().tie_steps();
        let mut schools = Vec::with_capacity(sizes.len());
        let mut keys = Vec::new();
        for (id, &size) in sizes.iter().enumerate() {
            let slug = format!("school-{}", id + 1);
            let first = keys.len();
            keys.extend((1..=size).map(|j| format!("{slug}/team-{j}")));
            schools.push(RosterSchool {
                id: SchoolId(id),
                slug,
                teams: (first..first + size).map(TeamId).collect(),
            });
        }
        Roster {
            seed,
            format,
            schools,
            draw: TieDraw::new(steps, seed, keys),
        }
    }

    /// The school stage of `school`, if it exists.
    pub fn school_entry(&self, school: SchoolId) -> Option<StageEntry> {
        self.schools
            .iter()
            .find(|s| s.id == school)
            .map(|s| StageEntry {
                stage: Stage::School(s.id),
                label: StageId::new(s.slug.as_str()),
                entrants: s.teams.clone(),
                seeding: Seeding::Shuffled,
            })
    }

    /// The stage a set-id label names: `nationals`, or a school's slug.
    pub fn stage_by_label(&self, label: &str) -> Option<Stage> {
        if label == NATIONALS_LABEL {
            return Some(Stage::Nationals);
        }
        self.schools
            .iter()
            .find(|s| s.slug == label)
            .map(|s| Stage::School(s.id))
    }

    /// The label of a stage: the school's slug, or `nationals`.
    pub fn label(&self, stage: Stage) -> Option<&str> {
        match stage {
            Stage::Nationals => Some(NATIONALS_LABEL),
            Stage::School(id) => self
                .schools
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.slug.as_str()),
        }
    }

    /// Whether there is a nationals stage: at least two schools with teams.
    pub fn has_nationals(&self) -> bool {
        self.schools.iter().filter(|s| !s.teams.is_empty()).count() >= 2
    }

    /// [`plan_stage`] with this roster's format, seed and draw.
    pub fn plan<F>(&self, entry: &StageEntry, results: F) -> Result<StagePlan, BracketError>
    where
        F: Fn(&SetKey) -> Option<Vec<SeriesTotals>>,
    {
        plan_stage(entry, &self.format, &self.seed, &self.draw, results)
    }
}

/// A whole simulated bracket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketOutcome {
    /// One finished plan per school with teams, in school order.
    pub schools: Vec<StagePlan>,
    pub qualifiers: Vec<(TeamId, QualifiedBy)>,
    /// Empty without nationals.
    pub wild_cards: Vec<(TeamId, QualifiedBy)>,
    /// Every team's total over its school-stage games.
    pub school_totals: Vec<SeriesTotals>,
    /// `None` with fewer than two schools with teams.
    pub nationals: Option<StagePlan>,
    /// The national final's ranking (without nationals: the only school's final).
    pub final_ranking: Vec<Ranked>,
}

/// Runs the whole bracket, asking `play` for the series totals of every set (one per team
/// of the set). Schools without teams are skipped.
pub fn simulate_bracket(
    roster: &Roster,
    mut play: impl FnMut(&SetPlan) -> Vec<SeriesTotals>,
) -> Result<BracketOutcome, BracketError> {
    let mut schools = Vec::new();
    for school in roster.schools.iter().filter(|s| !s.teams.is_empty()) {
        if let Some(entry) = roster.school_entry(school.id) {
            schools.push(run_stage(roster, &entry, &mut play)?);
        }
    }
    let field = nationals_field(
        &schools,
        roster.format.fill_nationals_to_multiple_of,
        &roster.draw,
    )?;
    let (nationals, wild_cards, final_ranking) = if roster.has_nationals() {
        let plan = run_stage(roster, &field.entry, &mut play)?;
        let ranking = plan
            .outcome
            .as_ref()
            .map(|o| o.ranking.clone())
            .unwrap_or_default();
        (Some(plan), field.wild_cards, ranking)
    } else {
        let ranking = schools
            .first()
            .and_then(|p| p.outcome.as_ref())
            .map(|o| o.ranking.clone())
            .unwrap_or_default();
        (None, Vec::new(), ranking)
    };
    Ok(BracketOutcome {
        schools,
        qualifiers: field.qualifiers,
        wild_cards,
        school_totals: field.school_totals,
        nationals,
        final_ranking,
    })
}

/// Plans, plays the ready sets, plans again, until the stage is finished.
fn run_stage(
    roster: &Roster,
    entry: &StageEntry,
    play: &mut impl FnMut(&SetPlan) -> Vec<SeriesTotals>,
) -> Result<StagePlan, BracketError> {
    let mut stored = HashMap::new();
    loop {
        let plan = roster.plan(entry, |key| stored.get(key).cloned())?;
        if plan.outcome.is_some() {
            return Ok(plan);
        }
        if plan.ready.is_empty() {
            return Err(BracketError::Stalled {
                stage: entry.label.clone(),
            });
        }
        for set in &plan.ready {
            stored.insert(set.key, play(set));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tourney::model::{Bot, Limits, School, Team};

    fn tournament() -> Tournament {
        let team = |name: &str, school| Team {
            name: name.to_string(),
            school,
            bot: Bot::Builtin(
                crate::games::BuiltinBot::parse(crate::games::GameKind::default(), "runner")
                    .unwrap(),
            ),
            origin: "test".to_string(),
        };
        Tournament {
            name: "t".to_string(),
            seed: Some(11),
            bracket: BracketFormat::default(),
            database: std::path::PathBuf::from("t.db").into(),
            rosters: Vec::new(),
            limits: Limits::default(),
            schools: vec![
                School {
                    name: "West".to_string(),
                    slug: "west".to_string(),
                    teams: vec![TeamId(0), TeamId(1)],
                },
                School {
                    name: "East".to_string(),
                    slug: "east".to_string(),
                    teams: vec![TeamId(2)],
                },
            ],
            teams: vec![
                team("a", SchoolId(0)),
                team("b", SchoolId(0)),
                team("c", SchoolId(1)),
            ],
            source: "t.toml".into(),
        }
    }

    #[test]
    fn a_tournament_becomes_a_roster_with_stable_draw_keys() {
        let roster = Roster::from_tournament(&tournament(), TournamentSeed::keyed(11));
        assert_eq!(
            roster.draw.value(TeamId(2)),
            crate::tourney::bracket::draw_value(&TournamentSeed::keyed(11), "east/c")
        );
        assert_eq!(
            roster.stage_by_label("east"),
            Some(Stage::School(SchoolId(1)))
        );
        assert_eq!(roster.stage_by_label("nationals"), Some(Stage::Nationals));
        assert_eq!(roster.stage_by_label("north"), None);
        assert_eq!(roster.label(Stage::School(SchoolId(0))), Some("west"));
        assert!(roster.has_nationals());
    }

    #[test]
    fn the_driver_plays_a_small_tournament_to_a_champion() {
        let roster = Roster::from_tournament(&tournament(), TournamentSeed::keyed(11));
        let mut played = Vec::new();
        let outcome = simulate_bracket(&roster, |set| {
            played.push(set.id.clone());
            set.teams
                .iter()
                .map(|&t| SeriesTotals {
                    score: t.0 as i64,
                    ..SeriesTotals::zero(t)
                })
                .collect()
        })
        .expect("plays");
        assert_eq!(played, vec!["west/final", "nationals/final"]);
        // West's two teams and East's single team: 3 qualifiers, no one left for wild cards.
        assert_eq!(outcome.qualifiers.len(), 3);
        assert!(outcome.wild_cards.is_empty());
        let champion = outcome.final_ranking.first().map(|r| r.totals.team);
        assert_eq!(champion, Some(TeamId(2)));
    }

    #[test]
    fn answers_for_the_wrong_teams_are_an_error() {
        let roster = Roster::from_sizes(TournamentSeed::keyed(1), BracketFormat::default(), &[3]);
        let err = simulate_bracket(&roster, |_| vec![SeriesTotals::zero(TeamId(0))]);
        assert!(matches!(err, Err(BracketError::ResultsMismatch { .. })));
    }
}

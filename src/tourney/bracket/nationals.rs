//! The road to the nationals: school qualifiers, wild cards and the nationals entry.
//!
//! With q qualifiers from all schools, when q is not a multiple of `multiple` (the format's
//! `fill_nationals_to_multiple_of`, 8), the `multiple - q mod multiple` best non-qualified
//! teams of all schools join as wild cards, ranked by school-stage total with the same
//! tie-break chain as a set; all of them when fewer exist. A multiple of 0 or 1 adds none.

use super::BracketError;
use super::ranking::{SeriesTotals, TieDraw, rank, top_with_reasons};
use super::stage::{Seeding, StageEntry, StagePlan};
use crate::tourney::model::{QualifiedBy, SchoolId, Stage, StageId, TeamId};
use std::collections::{BTreeMap, HashSet};

/// How many wild cards `q` qualifiers need: `multiple - q mod multiple`, or 0 when `q` is a
/// multiple (or `multiple <= 1`).
pub fn wild_card_count(q: usize, multiple: usize) -> usize {
    if multiple <= 1 || q.is_multiple_of(multiple) {
        0
    } else {
        multiple - q % multiple
    }
}

/// The wild cards: the best [`wild_card_count`] teams of `non_qualified_totals` (school-stage
/// totals; teams listed in `qualified` are ignored), best first, each with the tie-break
/// step that separated it from the best team left out (`None` when the total did, or when
/// nobody was left out).
pub fn wild_cards(
    qualified: &[TeamId],
    non_qualified_totals: &[SeriesTotals],
    multiple: usize,
    draw: &TieDraw,
) -> Vec<(TeamId, QualifiedBy)> {
    let count = wild_card_count(qualified.len(), multiple);
    if count == 0 {
        return Vec::new();
    }
    let qualified: HashSet<TeamId> = qualified.iter().copied().collect();
    let candidates: Vec<SeriesTotals> = non_qualified_totals
        .iter()
        .filter(|t| !qualified.contains(&t.team))
        .copied()
        .collect();
    top_with_reasons(&rank(&candidates, draw), count)
        .into_iter()
        .map(|(team, tie_break)| (team, QualifiedBy::WildCard { tie_break }))
        .collect()
}

/// The nationals' field, from the finished school stages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NationalsField {
    /// Every school's qualifiers, in school order then the final's order.
    pub qualifiers: Vec<(TeamId, QualifiedBy)>,
    pub wild_cards: Vec<(TeamId, QualifiedBy)>,
    /// Every school-stage entrant's total over all its school-stage games.
    pub school_totals: Vec<SeriesTotals>,
    /// The nationals stage: qualifiers then wild cards, seeded by school-stage total.
    pub entry: StageEntry,
}

/// Builds the nationals' field from every school's finished plan; `multiple` is the
/// format's `fill_nationals_to_multiple_of`.
pub fn nationals_field(
    school_plans: &[StagePlan],
    multiple: usize,
    draw: &TieDraw,
) -> Result<NationalsField, BracketError> {
    let mut qualifiers = Vec::new();
    let mut school_totals = Vec::new();
    let mut school_of: BTreeMap<TeamId, SchoolId> = BTreeMap::new();
    for plan in school_plans {
        let outcome = plan
            .outcome
            .as_ref()
            .ok_or_else(|| BracketError::StageNotFinished {
                stage: plan.label.clone(),
            })?;
        qualifiers.extend(outcome.qualifiers.iter().cloned());
        school_totals.extend(plan.totals());
        if let Stage::School(school) = plan.stage {
            school_of.extend(plan.entrants.iter().map(|&t| (t, school)));
        }
    }
    let qualified: Vec<TeamId> = qualifiers.iter().map(|(t, _)| *t).collect();
    let wild = wild_cards(&qualified, &school_totals, multiple, draw);
    let entrants: Vec<TeamId> = qualified
        .iter()
        .copied()
        .chain(wild.iter().map(|(t, _)| *t))
        .collect();
    let chosen: HashSet<TeamId> = entrants.iter().copied().collect();
    let entry = StageEntry {
        stage: Stage::Nationals,
        label: StageId::nationals(),
        entrants,
        seeding: Seeding::Ranked {
            totals: school_totals
                .iter()
                .filter(|t| chosen.contains(&t.team))
                .copied()
                .collect(),
            school_of: school_of
                .into_iter()
                .filter(|(t, _)| chosen.contains(t))
                .collect(),
        },
    };
    Ok(NationalsField {
        qualifiers,
        wild_cards: wild,
        school_totals,
        entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tourney::model::TieBreak;

    fn total(team: usize, score: i64, games_won: u32) -> SeriesTotals {
        SeriesTotals {
            score,
            games_won,
            ..SeriesTotals::zero(TeamId(team))
        }
    }

    #[test]
    fn wild_cards_fill_to_a_multiple() {
        assert_eq!(wild_card_count(0, 8), 0);
        assert_eq!(wild_card_count(6, 8), 2);
        assert_eq!(wild_card_count(8, 8), 0);
        assert_eq!(wild_card_count(13, 8), 3);
        assert_eq!(wild_card_count(13, 0), 0);
    }

    #[test]
    fn the_best_non_qualified_teams_are_wild_cards() {
        let draw = TieDraw::new(
            crate::games::GameKind::default().tie_steps(),
            crate::tourney::bracket::TournamentSeed::keyed(1),
            (0..20).map(|t| t.to_string()),
        );
        let qualified: Vec<TeamId> = (0..6).map(TeamId).collect();
        let others = [
            total(6, 10, 0),
            total(7, 30, 0),
            total(8, 20, 2),
            total(9, 20, 1),
            total(3, 99, 0), // qualified already: ignored
        ];
        let wild = wild_cards(&qualified, &others, 8, &draw);
        assert_eq!(
            wild,
            vec![
                (TeamId(7), QualifiedBy::WildCard { tie_break: None }),
                (
                    TeamId(8),
                    QualifiedBy::WildCard {
                        tie_break: Some(TieBreak::GamesWon)
                    }
                ),
            ]
        );
        // Fewer candidates than places: all join, no tie-break recorded.
        let few = wild_cards(&qualified[..1], &others[..2], 8, &draw);
        assert_eq!(few.len(), 2);
        assert!(
            few.iter()
                .all(|(_, q)| *q == QualifiedBy::WildCard { tie_break: None })
        );
    }
}

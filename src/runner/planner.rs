//! Defines [`decide`] and [`wild_card_entries`]: what a stage's plan means for the store and
//! the executor, as plain data — pure functions of the bracket's plan and of which sets are
//! already recorded as finished.
//!
//! The bracket (`tourney::bracket::plan_stage`) says which sets exist, which are ready and
//! who advanced; this turns that into the rows to write (finished sets with their
//! advancement, teams that join a stage without playing, finished stages), the sets to
//! start, and the lines to show. The runner's loop applies them: it owns the store, the
//! executor and the display.

use crate::store::{Advance, FinishedSet, StageEntries};
use crate::tourney::bracket::{NationalsField, SetPlan, SetResult, StagePlan};
use crate::tourney::model::{AdvancementKind, QualifiedBy, SetId, Stage, StageId};

/// What one planning pass of a stage decided.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Decisions {
    /// Sets whose result is complete and not yet recorded, with who advanced and why.
    pub finished_sets: Vec<FinishedSet>,
    /// Teams that join the next stage without playing (a single-team school).
    pub entries: Option<StageEntries>,
    /// Whether the stage finished in this pass.
    pub stage_finished: bool,
    /// Sets to play now.
    pub ready: Vec<SetPlan>,
    /// Lines for the progress display (`westfield-high/r1/s1 set done`).
    pub notes: Vec<String>,
}

/// The decisions of `plan` for the stage `stage_id`: `recorded(set_id)` says whether a set
/// is already recorded as finished (`None`: not stored at all); `stage_recorded` whether
/// the stage is.
pub(super) fn decide(
    plan: &StagePlan,
    stage_id: &StageId,
    recorded: impl Fn(&SetId) -> Option<bool>,
    stage_recorded: bool,
) -> Decisions {
    let mut d = Decisions::default();
    for ps in plan.sets() {
        let Some(result) = &ps.result else { continue };
        if recorded(&ps.plan.id) != Some(false) {
            continue;
        }
        d.finished_sets.push(FinishedSet {
            set_id: ps.plan.id.clone(),
            stage_id: stage_id.clone(),
            round: ps.plan.key.round,
            advancing: advancing(result),
        });
        let what = if ps.plan.is_final { "final" } else { "set" };
        d.notes.push(format!("{} {what} done", ps.plan.id));
    }
    if let Some(outcome) = &plan.outcome
        && !stage_recorded
    {
        d.stage_finished = true;
        if matches!(plan.stage, Stage::School(_)) {
            let singles: Vec<Advance> = outcome
                .qualifiers
                .iter()
                .filter(|(_, by)| *by == QualifiedBy::SingleTeam)
                .map(|(team, _)| Advance {
                    team: *team,
                    place: 1,
                    kind: AdvancementKind::SingleTeam,
                    tie_break: None,
                })
                .collect();
            if !singles.is_empty() {
                d.entries = Some(StageEntries {
                    stage_id: stage_id.clone(),
                    entries: singles,
                });
            }
        }
    }
    d.ready = plan.ready.clone();
    d
}

/// Who advanced from a finished set: place in its ranking, and the tie-break step that
/// separated it from the first team left out when the score did not.
fn advancing(result: &SetResult) -> Vec<Advance> {
    result
        .advancing
        .iter()
        .map(|(team, by)| Advance {
            team: *team,
            place: result
                .ranking
                .iter()
                .position(|r| r.totals.team == *team)
                .map_or(0, |p| p as u32 + 1),
            kind: AdvancementKind::Top,
            tie_break: tie_break_of(by),
        })
        .collect()
}

/// The nationals' wild cards in their ranking order, as rows of `stage_id`'s round 0.
pub(super) fn wild_card_entries(field: &NationalsField, stage_id: StageId) -> StageEntries {
    StageEntries {
        stage_id,
        entries: field
            .wild_cards
            .iter()
            .enumerate()
            .map(|(i, (team, by))| Advance {
                team: *team,
                place: i as u32 + 1,
                kind: AdvancementKind::WildCard,
                tie_break: tie_break_of(by),
            })
            .collect(),
    }
}

fn tie_break_of(by: &QualifiedBy) -> Option<String> {
    match by {
        QualifiedBy::Top { tie_break } | QualifiedBy::WildCard { tie_break } => {
            tie_break.map(|t| t.name().to_string())
        }
        QualifiedBy::SingleTeam => None,
    }
}

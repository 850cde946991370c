//! Checking a stored tournament against the bracket: what the database holds must be exactly
//! what planning every stage from scratch with its stored results gives — the same sets,
//! dealt the same teams in the same positions, with the same teams advancing. This is the
//! invariant reruns keep (`tests/rerun_props.rs` checks it after random reruns).

use super::{Mirror, RunError};
use crate::store::Store;
use crate::tourney::bracket::{NATIONALS_LABEL, Roster, StagePlan, nationals_field};
use crate::tourney::model::AdvancementKind;
use crate::tourney::model::{SchoolId, SetId, Stage, TeamId, Tournament};
use std::collections::{BTreeMap, BTreeSet};

/// What [`check_store`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Consistency {
    /// Every way the store differs from the plan of its own results (empty: consistent).
    pub problems: Vec<String>,
    /// Whether the tournament is played to its end: the decisive final is stored, nothing
    /// is waiting to be dealt again or played.
    pub complete: bool,
}

/// Plans the tournament stored in `t.database` from its stored results alone and compares.
pub fn check_store(t: &Tournament) -> Result<Consistency, RunError> {
    let runtime =
        crate::runtime::runtime().map_err(|e| RunError::Setup(crate::runtime::runtime_error(e)))?;
    runtime.block_on(async {
        let store = Store::open_existing(&t.database).await?;
        let result = check(&store, t).await;
        store.close().await;
        result
    })
}

async fn check(store: &Store, t: &Tournament) -> Result<Consistency, RunError> {
    let mirror = Mirror::load(store, t).await?;
    let stored = store.tournament().await?;
    let seed = super::resolve_seed(stored.as_ref(), t, store.label())?;
    let roster = Roster::from_tournament(t, seed);
    let mut problems = Vec::new();
    let mut plans: Vec<StagePlan> = Vec::new();
    for school in 0..t.schools.len() {
        let Some(entry) = roster.school_entry(SchoolId(school)) else {
            continue;
        };
        match roster.plan(&entry, |k| mirror.complete.get(k).cloned()) {
            Ok(plan) => plans.push(plan),
            Err(e) => problems.push(format!("{}: {e}", entry.label)),
        }
    }
    let mut wild_cards = None;
    let schools_done = plans.len() == t.schools.len() && plans.iter().all(|p| p.outcome.is_some());
    if t.has_nationals() && schools_done {
        let field = nationals_field(
            &plans,
            t.bracket.fill_nationals_to_multiple_of,
            &roster.draw,
        )?;
        wild_cards = Some(
            field
                .wild_cards
                .iter()
                .map(|(team, _)| *team)
                .collect::<BTreeSet<_>>(),
        );
        match roster.plan(&field.entry, |k| mirror.complete.get(k).cloned()) {
            Ok(plan) => plans.push(plan),
            Err(e) => problems.push(format!("{NATIONALS_LABEL}: {e}")),
        }
    }

    // Every planned set that is stored holds the planned teams in the planned order.
    let mut planned_ids = BTreeSet::new();
    for plan in &plans {
        for set in plan.sets() {
            planned_ids.insert(set.plan.id.clone());
            if let Some(stored) = mirror.sets.get(&set.plan.id)
                && stored.members != set.plan.teams
            {
                problems.push(format!(
                    "{}: stored with teams {:?}, the bracket deals {:?}",
                    set.plan.id, stored.members, set.plan.teams
                ));
            }
        }
    }
    // Every stored set is one the bracket deals.
    for id in mirror.sets.keys() {
        if !planned_ids.contains(id) {
            problems.push(format!("{id}: stored, but the bracket does not deal it"));
        }
    }
    // Stored advancement is the plan's.
    let mut advanced: BTreeMap<SetId, BTreeSet<TeamId>> = BTreeMap::new();
    let mut stored_wild = BTreeSet::new();
    for row in store.advancement().await? {
        match row.set_id {
            Some(set) => {
                advanced.entry(set).or_default().insert(row.team);
            }
            None if row.stage_id.is_nationals()
                && row.round == 0
                && row.kind == AdvancementKind::WildCard =>
            {
                stored_wild.insert(row.team);
            }
            None => {}
        }
    }
    for plan in &plans {
        for set in plan.sets() {
            let stored = mirror.sets.get(&set.plan.id);
            let done = stored.is_some_and(|s| s.finished);
            let want: BTreeSet<TeamId> = set
                .result
                .as_ref()
                .map(|r| r.advancing.iter().map(|(team, _)| *team).collect())
                .unwrap_or_default();
            let have = advanced.remove(&set.plan.id).unwrap_or_default();
            if done && want != have {
                problems.push(format!(
                    "{}: stored advancement {have:?}, the results give {want:?}",
                    set.plan.id
                ));
            }
        }
    }
    for (set, teams) in advanced {
        if !teams.is_empty() {
            problems.push(format!(
                "{set}: advancement {teams:?} is stored for a set the bracket does not finish"
            ));
        }
    }
    if let Some(wild) = &wild_cards
        && mirror
            .sets
            .keys()
            .any(|id| id.as_str().starts_with("nationals/"))
        && *wild != stored_wild
    {
        problems.push(format!(
            "nationals: stored wild cards {stored_wild:?}, the results give {wild:?}"
        ));
    }

    let decisive = if t.has_nationals() {
        plans.iter().find(|p| p.stage == Stage::Nationals)
    } else {
        plans.first()
    };
    let invalidated = store.invalidated_sets().await?;
    let complete = decisive.is_some_and(|p| p.outcome.is_some())
        && invalidated.is_empty()
        && plans.iter().all(|p| p.ready.is_empty())
        && mirror.sets.values().all(|s| s.finished);
    Ok(Consistency { problems, complete })
}

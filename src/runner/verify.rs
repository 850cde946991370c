//! Checking a stored tournament against the bracket: what the database holds must be exactly
//! what planning every stage from scratch with its stored results gives — the same sets,
//! dealt the same teams in the same positions, with the same teams advancing. This is the
//! invariant reruns keep (`tests/rerun_props.rs` checks it after random reruns). What is
//! compared is the planner's ([`Planner::check`]); this reads the database for it.

use super::planner::Planner;
use super::{Mirror, RunError};
use crate::store::Store;
use crate::tourney::model::Tournament;

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
pub async fn check_store(t: &Tournament) -> Result<Consistency, RunError> {
    let store = Store::open_existing(&t.database).await?;
    let result = check(&store, t).await;
    store.close().await;
    result
}

async fn check(store: &Store, t: &Tournament) -> Result<Consistency, RunError> {
    let mirror = Mirror::load(store, t).await?;
    let stored = store.tournament().await?;
    let seed = super::resolve_seed(stored.as_ref(), t, store.label())?;
    let advancement = store.advancement().await?;
    let some_invalidated = !store.invalidated_sets().await?.is_empty();
    Planner::new(t, seed).check(&mirror, &advancement, some_invalidated)
}

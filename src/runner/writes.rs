//! Defines [`Writes`]: the runner's side of the store — what a planning pass decided,
//! collected and written in one transaction, a new database's tournament rows, and the
//! run numbers sets invalidated by a rerun are dealt again under.

use super::RunError;
use super::planner::Decisions;
use crate::store::{FinishedSet, GameRecord, NewSet, StageEntries, Store};
use crate::tourney::bracket::TournamentSeed;
use crate::tourney::model::{SetId, StageId, Tournament};
use std::collections::HashMap;

/// What the first flush writes before anything else.
pub(super) enum TournamentSetup {
    /// A new database's tournament (see [`Store::init_tournament`]).
    New { fingerprint: String, format: String },
    /// The limits of a tournament started before they were stored, with the fingerprint
    /// that includes them.
    Limits { fingerprint: String },
}

/// The store as the runner writes it.
pub(super) struct Writes<'a> {
    pub store: &'a Store,
    finished_sets: Vec<FinishedSet>,
    finished_stages: Vec<StageId>,
    /// Teams that joined a stage without playing for it (single-team schools' qualifiers,
    /// the nationals' wild cards).
    entries: Vec<StageEntries>,
    /// Newly dealt sets, started already, with the run number each is expected to be
    /// stored under.
    new_sets: Vec<(NewSet, u32)>,
    /// Sets a rerun invalidated, by id, with their run numbers: dealt again under them.
    invalidated: HashMap<SetId, u32>,
    /// A new database's tournament, schools, teams and stages, stored by the first
    /// `flush`: the first games play while they are written.
    setup: Option<TournamentSetup>,
}

impl<'a> Writes<'a> {
    pub(super) async fn new(
        store: &'a Store,
        setup: Option<TournamentSetup>,
    ) -> Result<Writes<'a>, RunError> {
        Ok(Writes {
            store,
            finished_sets: Vec::new(),
            finished_stages: Vec::new(),
            entries: Vec::new(),
            new_sets: Vec::new(),
            invalidated: store.invalidated_sets().await?,
            setup,
        })
    }

    /// Reads again which sets wait to be dealt again (after a rerun was stored).
    pub(super) async fn reload(&mut self) -> Result<(), RunError> {
        self.invalidated = self.store.invalidated_sets().await?;
        Ok(())
    }

    /// The rows of a planning pass's decisions, for the next flush.
    pub(super) fn decided(&mut self, decisions: Decisions) {
        self.finished_sets.extend(decisions.finished_sets);
        self.entries.extend(decisions.entries);
        if decisions.stage_finished {
            self.finished_stages.push(decisions.stage_id);
        }
    }

    /// Teams joining a stage without playing, for the next flush.
    pub(super) fn entered(&mut self, entries: StageEntries) {
        self.entries.push(entries);
    }

    /// The run number a newly dealt set is stored under: 0, or the stored one of a set a
    /// rerun invalidated.
    pub(super) fn run_no_of(&self, set: &SetId) -> u32 {
        self.invalidated.get(set).copied().unwrap_or(0)
    }

    /// A newly dealt set, for the next flush.
    pub(super) fn dealt(&mut self, set: NewSet, run_no: u32) {
        self.new_sets.push((set, run_no));
    }

    /// Writes what was collected — finished sets and stages, teams that joined without
    /// playing, newly dealt sets — in one transaction, after the tournament's own rows
    /// when they are not stored yet.
    pub(super) async fn flush(
        &mut self,
        t: &Tournament,
        seed: &TournamentSeed,
    ) -> Result<(), RunError> {
        self.store_setup(t, seed).await?;
        let (new_sets, expected): (Vec<NewSet>, Vec<u32>) =
            std::mem::take(&mut self.new_sets).into_iter().unzip();
        let run_nos = self
            .store
            .write_plan(
                &std::mem::take(&mut self.finished_sets),
                &std::mem::take(&mut self.finished_stages),
                &std::mem::take(&mut self.entries),
                &new_sets,
            )
            .await?;
        if run_nos != expected {
            return Err(RunError::Setup(format!(
                "{}: the stored run numbers of newly dealt sets differ from the expected ones; is another program writing to this database?",
                self.store.label()
            )));
        }
        for set in &new_sets {
            self.invalidated.remove(&set.id);
        }
        Ok(())
    }

    /// Stores a new database's tournament, schools, teams and stages (or an old one's
    /// limits), once.
    pub(super) async fn store_setup(
        &mut self,
        t: &Tournament,
        seed: &TournamentSeed,
    ) -> Result<(), RunError> {
        match self.setup.take() {
            Some(TournamentSetup::New {
                fingerprint,
                format,
            }) => {
                self.store
                    .init_tournament(
                        t,
                        seed,
                        &fingerprint,
                        &format,
                        t.bracket.game.kind().engine_version(),
                    )
                    .await?
            }
            Some(TournamentSetup::Limits { fingerprint }) => {
                self.store.record_limits(&fingerprint, &t.limits).await?
            }
            None => {}
        }
        Ok(())
    }

    /// Stores finished games in one transaction; returns how many were new.
    pub(super) async fn record_games(&self, records: &[GameRecord]) -> Result<u64, RunError> {
        Ok(self.store.record_games(records).await?)
    }
}

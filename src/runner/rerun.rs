//! Re-running a disputed set: play its series again, keep the old games as superseded
//! history, and replay whatever the new result invalidates (only with `--cascade`).
//!
//! The new games are played in memory first. Their consequences are computed by planning
//! every stage again with the new results: any stored set that the new plan no longer deals
//! with the same teams (or no longer reaches) is invalidated. Without `--cascade` nothing is
//! written when such sets exist; the caller is told which ones.

use super::{GameJob, Mirror, RunError, RunOptions, RunSummary, Runner, stage_id};
use crate::store::GameRecord;
use crate::tourney::bracket::{BracketError, StagePlan, game_seed, nationals_field};
use crate::tourney::model::{SetId, SetKey, TeamId, Tournament};
use std::collections::HashSet;

/// What to re-run.
#[derive(Debug, Clone)]
pub struct RerunRequest {
    pub set_id: SetId,
    pub reason: String,
    /// New seeds for the set's games (otherwise the same games are played again).
    pub reseed: bool,
    /// Invalidate and replay later sets the new result changes.
    pub cascade: bool,
}

/// How a rerun ended.
#[derive(Debug, Clone)]
pub enum RerunOutcome {
    /// Stored; `invalidated` sets were replayed; the tournament is complete again.
    Done {
        run_no: u32,
        advancement_changed: bool,
        invalidated: Vec<SetId>,
        summary: RunSummary,
    },
    /// Nothing was written: these already played sets would have to be replayed.
    NeedsCascade { affected: Vec<SetId> },
}

/// Re-runs one set of a stored tournament (see the module doc).
pub fn rerun_set(
    t: &Tournament,
    request: &RerunRequest,
    opts: RunOptions,
) -> Result<RerunOutcome, RunError> {
    let request = request.clone();
    super::with_runner(t, opts, super::OpenAs::Existing, move |runner, _| {
        Box::pin(async move { runner.rerun(&request).await })
    })
}

impl Runner<'_> {
    async fn rerun(mut self, request: &RerunRequest) -> Result<RerunOutcome, RunError> {
        // A finished tournament of older rules opens (see `Runner::new`), but replaying one
        // of its sets would mix two rule sets in one tournament.
        if let Some(older) = self.older_engine {
            return Err(super::engine_changed(
                self.store.label(),
                older,
                self.t.bracket.game.kind().engine_version(),
                "re-run its sets with the build that played them",
            ));
        }
        let Some(set) = self.mirror.sets.get(&request.set_id).cloned() else {
            let mut known: Vec<&SetId> = self.mirror.sets.keys().collect();
            known.sort();
            let sample: Vec<&str> = known.iter().take(12).map(|s| s.as_str()).collect();
            return Err(RunError::BadRequest(format!(
                "no set {:?} in {}; sets are named like: {}{}",
                request.set_id,
                self.store.label(),
                sample.join(", "),
                if known.len() > sample.len() {
                    ", ..."
                } else {
                    ""
                }
            )));
        };
        if !set.is_complete() {
            return Err(RunError::BadRequest(format!(
                "set {} has not been played to its end; `lrs-tourney run` finishes it",
                set.id
            )));
        }
        let rows = self.store.sets().await?;
        let stored = rows
            .iter()
            .find(|r| r.id == set.id)
            .ok_or_else(|| RunError::Setup(format!("set {} vanished", set.id)))?;
        let generation = stored.seed_generation + u32::from(request.reseed);
        let run_no = stored.run_no + 1;
        let label = stage_id(self.t, set.key.stage);
        let f = &self.t.bracket;
        let jobs: Vec<GameJob> = (0..f.games_per_series)
            .map(|g| {
                let board_name = self.exec.arena_name(g).to_string();
                let arena = self.exec.arena(self.t, &board_name)?;
                Ok(GameJob {
                    // Numbered by the store when the rerun is stored.
                    game_no: crate::store::GameNo(0),
                    set_id: set.id.clone(),
                    run_no,
                    game_index: g,
                    seed: game_seed(
                        &self.roster.seed,
                        label.as_str(),
                        set.key.round,
                        set.key.set,
                        g,
                        generation,
                    ),
                    arena,
                    teams: set
                        .members
                        .iter()
                        .map(|&m| (m, self.t.team(m).bot.clone()))
                        .collect(),
                })
            })
            .collect::<Result<_, RunError>>()?;
        let records: Vec<GameRecord> = self.exec.play_now(&jobs).await?;

        // The tournament as it would be with the new results.
        let old_plan = self.plan_everything(&self.mirror)?;
        let mut hypothetical = self.mirror.clone();
        if let Some(s) = hypothetical.sets.get_mut(&set.id) {
            for slot in &mut s.games {
                slot.results = None;
            }
            s.run_no = run_no;
        }
        for r in &records {
            hypothetical.add_game(&set.id, r.game_index, r.results.clone());
        }
        let affected = self.affected_sets(&hypothetical, &set.id)?;
        let advancement_changed = {
            let new_plan = self.plan_everything(&hypothetical)?;
            advancing_of(&old_plan, &set.id) != advancing_of(&new_plan, &set.id)
        };
        if !affected.is_empty() && !request.cascade {
            return Ok(RerunOutcome::NeedsCascade { affected });
        }

        let games: Vec<(u32, u64, String)> = jobs
            .iter()
            .map(|j| {
                let board = self.exec.arena_name(j.game_index);
                (j.game_index, j.seed, board.to_string())
            })
            .collect();
        let replayed = records.len() as u64;
        let stored_run = self
            .store
            .store_rerun(
                &set.id,
                &request.reason,
                request.reseed,
                &games,
                &records,
                &affected,
            )
            .await?;
        // Continue as a normal run from what is stored now.
        self.mirror = Mirror::load(self.store, self.t).await?;
        self.invalidated = self.store.invalidated_sets().await?;
        self.plans.clear();
        self.finished_stages.clear();
        self.nationals = None;
        self.resumed = self.mirror.games_done();
        // Progress counts the bracket as it is now: the invalidated sets' games are to play
        // again, not done (counting them twice showed "80/70 games").
        self.progress
            .restart(super::planned_game_count(self.t), self.resumed);
        let mut summary = self.run().await?;
        summary.games_played += replayed;
        Ok(RerunOutcome::Done {
            run_no: stored_run,
            advancement_changed,
            invalidated: affected,
            summary,
        })
    }

    /// Every stage planned from `mirror` (schools, then nationals when they are done),
    /// without writing anything. Sets whose stored teams differ from the plan are treated
    /// as unplayed.
    fn plan_everything(&self, mirror: &Mirror) -> Result<Vec<StagePlan>, RunError> {
        let (plans, _) = self.plan_with_exclusions(mirror)?;
        Ok(plans)
    }

    fn plan_with_exclusions(
        &self,
        mirror: &Mirror,
    ) -> Result<(Vec<StagePlan>, HashSet<SetKey>), RunError> {
        let mut excluded: HashSet<SetKey> = HashSet::new();
        let mut plans = Vec::new();
        for entry in &self.school_entries {
            plans.push(self.plan_excluding(entry, mirror, &mut excluded)?);
        }
        if self.t.has_nationals() && plans.iter().all(|p| p.outcome.is_some()) {
            let field = nationals_field(
                &plans,
                self.t.bracket.fill_nationals_to_multiple_of,
                &self.roster.draw,
            )?;
            plans.push(self.plan_excluding(&field.entry, mirror, &mut excluded)?);
        }
        Ok((plans, excluded))
    }

    /// Plans one stage, treating as unplayed every stored set whose teams differ from the
    /// plan's (and remembering it in `excluded`).
    fn plan_excluding(
        &self,
        entry: &crate::tourney::bracket::StageEntry,
        mirror: &Mirror,
        excluded: &mut HashSet<SetKey>,
    ) -> Result<StagePlan, RunError> {
        loop {
            let lookup = |k: &SetKey| {
                if excluded.contains(k) {
                    None
                } else {
                    mirror.complete.get(k).cloned()
                }
            };
            match self.roster.plan(entry, lookup) {
                Ok(plan) => {
                    // Results count only for the seating they were played in: a stored set
                    // whose teams the plan now deals in another order (same teams, other
                    // positions, hence other seats) is unplayed too.
                    let reordered = plan
                        .sets()
                        .filter(|p| p.result.is_some())
                        .find(|p| {
                            mirror
                                .sets
                                .get(&p.plan.id)
                                .is_some_and(|s| s.members != p.plan.teams)
                        })
                        .map(|p| p.plan.key);
                    match reordered {
                        Some(key) if excluded.insert(key) => continue,
                        Some(_) => {
                            return Err(RunError::Setup(format!(
                                "stage {} cannot be planned",
                                entry.label
                            )));
                        }
                        None => return Ok(plan),
                    }
                }
                Err(BracketError::ResultsMismatch { set, .. }) => {
                    let key = mirror
                        .sets
                        .get(&set)
                        .map(|s| s.key)
                        .ok_or_else(|| RunError::Setup(format!("set {set} is not stored")))?;
                    if !excluded.insert(key) {
                        return Err(RunError::Setup(format!("set {set} cannot be planned")));
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Stored sets (other than `rerun`) that the plan from `mirror` no longer deals with the
    /// same teams, or no longer reaches.
    fn affected_sets(&self, mirror: &Mirror, rerun: &SetId) -> Result<Vec<SetId>, RunError> {
        let (plans, _) = self.plan_with_exclusions(mirror)?;
        let mut affected: Vec<SetId> = mirror
            .sets
            .values()
            .filter(|s| s.id != *rerun)
            .filter(|s| {
                let planned = plans
                    .iter()
                    .find(|p| p.stage == s.key.stage)
                    .and_then(|p| p.set_by_id(&s.id));
                match planned {
                    Some(p) => p.plan.teams != s.members,
                    None => true,
                }
            })
            .map(|s| s.id.clone())
            .collect();
        affected.sort();
        Ok(affected)
    }
}

/// Who advanced out of `set_id` in a plan.
fn advancing_of(plans: &[StagePlan], set_id: &SetId) -> Vec<TeamId> {
    plans
        .iter()
        .find_map(|p| p.set_by_id(set_id))
        .and_then(|s| s.result.as_ref())
        .map(|r| r.advancing.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default()
}

//! Re-running a disputed set: play its series again, keep the old games as superseded
//! history, and replay whatever the new result invalidates (only with `--cascade`).
//!
//! The new games are played in memory first. Their consequences are computed by planning
//! every stage again with the new results: any stored set that the new plan no longer deals
//! with the same teams (or no longer reaches) is invalidated. Without `--cascade` nothing is
//! written when such sets exist; the caller is told which ones.

use super::played_code::{CodeChange, changes, members_code};
use super::{Mirror, RunError, RunOptions, RunSummary, Runner};
use crate::store::RerunWhy;
use crate::tourney::model::{SetId, Tournament};
use crate::tourney::played::PlayedGame;

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
        /// The teams whose bot code differs from what the set was played with before.
        code_changed: Vec<CodeChange>,
    },
    /// Nothing was written: these already played sets would have to be replayed.
    NeedsCascade {
        affected: Vec<SetId>,
        code_changed: Vec<CodeChange>,
    },
    /// The set had failed on workers and was not played to its end: its failures and
    /// refusals are forgotten and workers claim it again (docs/workers.md).
    Requeued,
}

/// Re-runs one set of a stored tournament (see the module doc).
pub async fn rerun_set(
    t: &Tournament,
    request: &RerunRequest,
    opts: RunOptions,
) -> Result<RerunOutcome, RunError> {
    let request = request.clone();
    super::with_runner(
        t,
        opts,
        super::Plays::Here,
        super::OpenAs::Existing,
        move |runner, _| Box::pin(async move { runner.rerun(&request).await }),
    )
    .await
}

impl Runner<'_> {
    async fn rerun(mut self, request: &RerunRequest) -> Result<RerunOutcome, RunError> {
        // A finished tournament of older rules opens (see `Runner::new`), but replaying one
        // of its sets would mix two rule sets in one tournament.
        if let Some(older) = self.older_engine {
            return Err(super::engine_changed(
                self.store().label(),
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
                self.store().label(),
                sample.join(", "),
                if known.len() > sample.len() {
                    ", ..."
                } else {
                    ""
                }
            )));
        };
        if !set.is_complete() && self.store().is_failed(&set.id).await? {
            self.store().requeue_set(&set.id).await?;
            return Ok(RerunOutcome::Requeued);
        }
        if !set.is_complete() {
            return Err(RunError::BadRequest(format!(
                "set {} has not been played to its end; `lrs-tourney run` finishes it",
                set.id
            )));
        }
        let rows = self.store().sets().await?;
        let stored = rows
            .iter()
            .find(|r| r.id == set.id)
            .ok_or_else(|| RunError::Setup(format!("set {} vanished", set.id)))?;
        let generation = stored.seed_generation + u32::from(request.reseed);
        let run_no = stored.run_no + 1;
        let games: Vec<(u32, u64, String)> = (0..self.t.bracket.games_per_series)
            .map(|g| {
                let seed = self.planner.game_seed(set.key, g, generation);
                (g, seed, self.exec.arena_name(g).to_string())
            })
            .collect();
        // The code the set was played with, and the code this rerun plays.
        let played_code = self.store().set_code(&set.id).await?;
        let code: Vec<_> = set
            .members
            .iter()
            .copied()
            .zip(members_code(self.t, &set.members))
            .collect();
        let code_changed = changes(self.t, &played_code, &code);
        let jobs = super::set_jobs(self.t, &mut self.exec, &set, run_no, games.clone())?;
        // Numbered by the store when the rerun is stored.
        let played: Vec<PlayedGame> = self.exec.play_now(&jobs).await?;

        // The tournament as it would be with the new results.
        let mut hypothetical = self.mirror.clone();
        if let Some(s) = hypothetical.sets.get_mut(&set.id) {
            for slot in &mut s.games {
                slot.results = None;
            }
            s.run_no = run_no;
        }
        for r in &played {
            hypothetical.add_game(&set.id, r.game_index, r.results.clone());
        }
        let effects = self
            .planner
            .rerun_effects(&self.mirror, &hypothetical, &set.id)?;
        if !effects.affected.is_empty() && !request.cascade {
            return Ok(RerunOutcome::NeedsCascade {
                affected: effects.affected,
                code_changed,
            });
        }

        let replayed = played.len() as u64;
        let stored_run = self
            .store()
            .store_rerun(
                &set.id,
                &RerunWhy {
                    reason: &request.reason,
                    reseed: request.reseed,
                    played_code: &code,
                    code_changed: &code_changed
                        .iter()
                        .map(CodeChange::describe)
                        .collect::<Vec<_>>(),
                },
                &games,
                &played,
                &effects.affected,
            )
            .await?;
        // Continue as a normal run from what is stored now.
        self.mirror = Mirror::load(self.store(), self.t).await?;
        self.writes.reload().await?;
        self.planner.restart();
        self.resumed = self.mirror.games_done();
        // Progress counts the bracket as it is now: the invalidated sets' games are to play
        // again, not done (counting them twice showed "80/70 games").
        self.progress
            .restart(super::planned_game_count(self.t), self.resumed);
        let mut summary = self.run().await?;
        summary.games_played += replayed;
        Ok(RerunOutcome::Done {
            run_no: stored_run,
            advancement_changed: effects.advancement_changed,
            invalidated: effects.affected,
            summary,
            code_changed,
        })
    }
}

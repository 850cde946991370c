//! Defines [`Executor`]: where a run's games are played.
//!
//! Games with built-in AIs only run on a rayon pool of `jobs` threads; games with external
//! bots run as tokio tasks, at most `jobs` at once; a set with series clients is one task
//! playing its series in order. It takes [`GameJob`]s and sends each [`PlayedGame`] (or
//! why it failed) into the channel the runner gave it (the runner's `Inbox`); it knows
//! nothing of the bracket or the store: the runner decides what to play and what to keep.

use super::RunError;
use super::game::{ExternalSetup, GameJob, GameJobError, play_series};
use crate::games::Arena;
use crate::tourney::model::{SetGame, Tournament};
use crate::tourney::played::PlayedGame;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::mpsc;

/// A finished game: which one, and how it went or why it failed.
pub(super) struct FinishedGame {
    pub game: SetGame,
    pub played: Result<PlayedGame, GameJobError>,
}

impl FinishedGame {
    fn of(job: &GameJob, played: Result<PlayedGame, GameJobError>) -> FinishedGame {
        FinishedGame {
            game: job.key(),
            played,
        }
    }
}

/// The arena names a tournament's games cycle through.
fn arena_pool(t: &Tournament) -> Vec<String> {
    Arena::pool(&t.bracket.game, &t.bracket.boards)
}

/// The arena stored as `name`.
fn load_arena(t: &Tournament, name: &str) -> Result<Arena, RunError> {
    let f = &t.bracket;
    Arena::load(&f.game, name, f.turns_per_game).map_err(RunError::Setup)
}

pub(super) struct Executor {
    pool: rayon::ThreadPool,
    /// Games with external bots run as tokio tasks, at most `jobs` at once.
    external_slots: Arc<tokio::sync::Semaphore>,
    external: Arc<ExternalSetup>,
    /// Where finished games go.
    finished: mpsc::UnboundedSender<FinishedGame>,
    /// The arenas by the name stored with each game (for Last Robot Standing its boards,
    /// with the AI maps shared by every game on them).
    arenas: HashMap<String, Arena>,
    /// The arena names games cycle through: game `g` of a set plays on `g % len`.
    arena_pool: Vec<String>,
}

impl Executor {
    /// The executor of `t` with `jobs` workers; `external` says how its external bots play,
    /// `finished` where finished games go.
    pub(super) fn new(
        t: &Tournament,
        jobs: usize,
        external: ExternalSetup,
        finished: mpsc::UnboundedSender<FinishedGame>,
    ) -> Result<Executor, RunError> {
        let arena_pool = arena_pool(t);
        let mut arenas = HashMap::new();
        for name in &arena_pool {
            arenas.insert(name.clone(), load_arena(t, name)?);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|e| RunError::Setup(format!("cannot start worker threads: {e}")))?;
        Ok(Executor {
            pool,
            external_slots: Arc::new(tokio::sync::Semaphore::new(jobs.max(1))),
            external: Arc::new(external),
            finished,
            arenas,
            arena_pool,
        })
    }

    /// The arena name of game `g` of a set.
    pub(super) fn arena_name(&self, g: u32) -> &str {
        &self.arena_pool[g as usize % self.arena_pool.len()]
    }

    /// The arena stored as `name` (loaded once; a stored game may name one the current
    /// pool no longer lists).
    pub(super) fn arena(&mut self, t: &Tournament, name: &str) -> Result<Arena, RunError> {
        if let Some(a) = self.arenas.get(name) {
            return Ok(a.clone());
        }
        let arena = load_arena(t, name)?;
        self.arenas.insert(name.to_string(), arena.clone());
        Ok(arena)
    }

    /// Starts the games of one set (in game order): as one series when series clients
    /// are seated, else each on the pool or, with external bots, as a task.
    pub(super) fn start(&self, jobs: Vec<GameJob>) {
        if jobs.first().is_some_and(GameJob::has_series_client) {
            // Series clients play the whole series over one connection: one task plays
            // the set's games in order, returning each as it ends.
            let tx = self.finished.clone();
            let slots = self.external_slots.clone();
            let external = self.external.clone();
            tokio::spawn(async move {
                let _slot = slots.acquire_owned().await;
                play_series(&jobs, &external, |job, outcome| {
                    let _ = tx.send(FinishedGame::of(job, outcome));
                })
                .await;
            });
            return;
        }
        for job in jobs {
            let tx = self.finished.clone();
            if job.is_external() {
                let slots = self.external_slots.clone();
                let external = self.external.clone();
                tokio::spawn(async move {
                    let _slot = slots.acquire_owned().await;
                    let outcome = job.play_external(&external, &HashMap::new()).await;
                    let _ = tx.send(FinishedGame::of(&job, outcome));
                });
            } else {
                self.pool.spawn(move || {
                    let outcome = job.play();
                    // The receiver is gone only when the run already stopped with an error.
                    let _ = tx.send(FinishedGame::of(&job, outcome));
                });
            }
        }
    }

    /// Starts the games of one set to be played one after the other, in game order, on a
    /// slot of their own (a worker's set). Once `stop` is set, the games not begun yet come
    /// back unplayed ([`GameJobError::NotPlayed`]), so a stopping worker finishes only the
    /// game in progress.
    pub(super) fn start_in_order(&self, jobs: Vec<GameJob>, stop: Arc<AtomicBool>) {
        if jobs.first().is_some_and(GameJob::has_series_client) {
            // A series is played whole: its clients stay connected for all its games.
            return self.start(jobs);
        }
        let tx = self.finished.clone();
        let slots = self.external_slots.clone();
        let external = self.external.clone();
        tokio::spawn(async move {
            let _slot = slots.acquire_owned().await;
            for job in jobs {
                let outcome = if stop.load(Ordering::Relaxed) {
                    Err(GameJobError::NotPlayed {
                        set: job.set_id.clone(),
                        game: job.game_index,
                    })
                } else if job.is_external() {
                    job.play_external(&external, &HashMap::new()).await
                } else {
                    let played = job.clone();
                    tokio::task::spawn_blocking(move || played.play())
                        .await
                        .unwrap_or_else(|e| {
                            Err(GameJobError::Failed {
                                set: job.set_id.clone(),
                                game: job.game_index,
                                reason: format!("the game's thread ended: {e}"),
                            })
                        })
                };
                if tx.send(FinishedGame::of(&job, outcome)).is_err() {
                    return;
                }
            }
        });
    }

    /// Plays the games of one set now and returns them in game order (a rerun):
    /// as one series with series clients, else up to `jobs` at once.
    pub(super) async fn play_now(&self, jobs: &[GameJob]) -> Result<Vec<PlayedGame>, RunError> {
        if jobs.iter().any(GameJob::has_series_client) {
            let mut outcomes = Vec::with_capacity(jobs.len());
            play_series(jobs, &self.external, |_, outcome| outcomes.push(outcome)).await;
            return Ok(outcomes.into_iter().collect::<Result<_, _>>()?);
        }
        if jobs.iter().any(GameJob::is_external) {
            use futures_util::stream::{self, StreamExt, TryStreamExt};
            let limit = self.external_slots.available_permits().max(1);
            let no_series = HashMap::new();
            return Ok(stream::iter(jobs.iter())
                .map(|job| job.play_external(&self.external, &no_series))
                .buffered(limit)
                .try_collect()
                .await?);
        }
        Ok(self
            .pool
            .install(|| jobs.par_iter().map(GameJob::play).collect::<Result<_, _>>())?)
    }
}

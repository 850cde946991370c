//! Defines [`Executor`]: where a run's games are played.
//!
//! Games with built-in AIs only run on a rayon pool of `jobs` threads; a set with external
//! bots is one tokio task playing its games in order (so that series clients and
//! JSON-lines bots that play a whole set keep one process for it), at most `jobs` sets at
//! once. It takes [`GameJob`]s and sends each [`PlayedGame`] (or
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
    /// Sets with external bots run as tokio tasks (one per set), at most `jobs` at once.
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

    /// Starts the games of one set (in game order): with external bots, one task plays
    /// them in order as one series (series clients stay connected, JSON-lines bots that
    /// play a whole set stay running); built-in games each on the pool.
    pub(super) fn start(&self, jobs: Vec<GameJob>) {
        if jobs.first().is_some_and(GameJob::is_external) {
            return self.start_series(jobs, Arc::new(AtomicBool::new(false)));
        }
        for job in jobs {
            let tx = self.finished.clone();
            self.pool.spawn(move || {
                let outcome = job.play();
                // The receiver is gone only when the run already stopped with an error.
                let _ = tx.send(FinishedGame::of(&job, outcome));
            });
        }
    }

    /// One task, on a slot of its own, plays the set's games with external bots in order
    /// ([`play_series`]), sending each as it ends.
    fn start_series(&self, jobs: Vec<GameJob>, stop: Arc<AtomicBool>) {
        let tx = self.finished.clone();
        let slots = self.external_slots.clone();
        let external = self.external.clone();
        tokio::spawn(async move {
            let _slot = slots.acquire_owned().await;
            play_series(&jobs, &external, &stop, |job, outcome| {
                let _ = tx.send(FinishedGame::of(job, outcome));
            })
            .await;
        });
    }

    /// Starts the games of one set to be played one after the other, in game order, on a
    /// slot of their own (a worker's set). Once `stop` is set, the games not begun yet come
    /// back unplayed ([`GameJobError::NotPlayed`]), so a stopping worker finishes only the
    /// game in progress.
    pub(super) fn start_in_order(&self, jobs: Vec<GameJob>, stop: Arc<AtomicBool>) {
        if jobs.first().is_some_and(GameJob::is_external) {
            return self.start_series(jobs, stop);
        }
        let tx = self.finished.clone();
        let slots = self.external_slots.clone();
        tokio::spawn(async move {
            let _slot = slots.acquire_owned().await;
            for job in jobs {
                let outcome = if stop.load(Ordering::Relaxed) {
                    Err(job.not_played())
                } else {
                    let played = job.clone();
                    tokio::task::spawn_blocking(move || played.play())
                        .await
                        .unwrap_or_else(|e| Err(job.fail(format!("the game's thread ended: {e}"))))
                };
                if tx.send(FinishedGame::of(&job, outcome)).is_err() {
                    return;
                }
            }
        });
    }

    /// Plays the games of one set now and returns them in game order (a rerun): with
    /// external bots as one series, in order; built-in games up to `jobs` at once.
    pub(super) async fn play_now(&self, jobs: &[GameJob]) -> Result<Vec<PlayedGame>, RunError> {
        if jobs.iter().any(GameJob::is_external) {
            let mut outcomes = Vec::with_capacity(jobs.len());
            let never = AtomicBool::new(false);
            play_series(jobs, &self.external, &never, |_, outcome| {
                outcomes.push(outcome)
            })
            .await;
            return Ok(outcomes.into_iter().collect::<Result<_, _>>()?);
        }
        Ok(self
            .pool
            .install(|| jobs.par_iter().map(GameJob::play).collect::<Result<_, _>>())?)
    }
}

//! Defines [`Executor`]: where a run's games are played, and how their results come back.
//!
//! Games with built-in AIs only run on a rayon pool of `jobs` threads; games with external
//! bots run as tokio tasks, at most `jobs` at once; a set with series clients is one task
//! playing its series in order. Every result comes back over one channel, which
//! [`Executor::next_batch`] drains in batches (group commit). The executor knows nothing of
//! the bracket or the store: the runner's loop decides what to play and what to keep.

use super::RunError;
use super::game::{ExternalSetup, GameJob, GameJobError, play_series};
use crate::games::Arena;
use crate::store::GameRecord;
use crate::tourney::model::{SetGame, SetId, Tournament};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::mpsc;

/// A finished game: which one, and its record or why it failed.
pub(super) struct FinishedGame {
    pub game: SetGame,
    pub record: Result<GameRecord, GameJobError>,
}

impl FinishedGame {
    fn of(job: &GameJob, record: Result<GameRecord, GameJobError>) -> FinishedGame {
        FinishedGame {
            game: job.key(),
            record,
        }
    }
}

/// Most finished games stored in one transaction.
const MAX_BATCH: usize = 1024;
/// How long finished games may wait to share a commit.
const BATCH_WINDOW: std::time::Duration = std::time::Duration::from_millis(20);
/// The runner sleeps through a batch window (instead of waking for every finished game)
/// only while more than this many times the games of the last batch are still out: at the
/// rate games finish, the workers cannot run out of them before the window ends.
const BUSY_MARGIN: usize = 4;
/// The smallest batch assumed for that rule: a run starts waking for every game until it
/// has seen its workers' pace.
const MIN_PACE: usize = 64;

pub(super) struct Executor {
    pool: rayon::ThreadPool,
    /// Games with external bots run as tokio tasks, at most `jobs` at once.
    external_slots: Arc<tokio::sync::Semaphore>,
    external: Arc<ExternalSetup>,
    tx: mpsc::UnboundedSender<FinishedGame>,
    rx: mpsc::UnboundedReceiver<FinishedGame>,
    /// Games started and not yet returned by `next_batch`.
    in_flight: HashSet<SetGame>,
    /// How many games the last batch held: how many finish in one window.
    pace: usize,
    /// The arenas by the name stored with each game (for Last Robot Standing its boards,
    /// with the AI maps shared by every game on them).
    arenas: HashMap<String, Arena>,
    /// The arena names games cycle through: game `g` of a set plays on `g % len`.
    arena_pool: Vec<String>,
}

impl Executor {
    /// The executor of `t` with `jobs` workers; `external` says how its external bots play.
    pub(super) fn new(
        t: &Tournament,
        jobs: usize,
        external: ExternalSetup,
    ) -> Result<Executor, RunError> {
        let arena_pool = Arena::pool(&t.bracket.game, &t.bracket.boards);
        let mut arenas = HashMap::new();
        for name in &arena_pool {
            let arena = Arena::load(&t.bracket.game, name, t.bracket.turns_per_game)
                .map_err(RunError::Setup)?;
            arenas.insert(name.clone(), arena);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build()
            .map_err(|e| RunError::Setup(format!("cannot start worker threads: {e}")))?;
        let (tx, rx) = mpsc::unbounded_channel();
        Ok(Executor {
            pool,
            external_slots: Arc::new(tokio::sync::Semaphore::new(jobs.max(1))),
            external: Arc::new(external),
            tx,
            rx,
            in_flight: HashSet::new(),
            pace: 0,
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
        let f = &t.bracket;
        let arena = Arena::load(&f.game, name, f.turns_per_game).map_err(RunError::Setup)?;
        self.arenas.insert(name.to_string(), arena.clone());
        Ok(arena)
    }

    /// Whether game `g` of `set_id` is being played.
    pub(super) fn is_playing(&self, set_id: &SetId, g: u32) -> bool {
        self.in_flight.contains(&SetGame {
            set: set_id.clone(),
            index: g,
        })
    }

    /// Whether no game is being played.
    pub(super) fn is_idle(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// Starts the games of one set (in game order): as one series when series clients
    /// are seated, else each on the pool or, with external bots, as a task.
    pub(super) fn start(&mut self, jobs: Vec<GameJob>) {
        for job in &jobs {
            self.in_flight.insert(job.key());
        }
        if jobs.first().is_some_and(GameJob::has_series_client) {
            // Series clients play the whole series over one connection: one task plays
            // the set's games in order, returning each as it ends.
            let tx = self.tx.clone();
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
            let tx = self.tx.clone();
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

    /// Waits for finished games and returns those to store together (group commit: games
    /// that finish within a short window share a transaction, so thousands of games a
    /// second cost a few hundred commits rather than thousands). While far more games are
    /// in flight than finish in one window, the runner sleeps through the window and then
    /// takes what arrived: waking it for every finished game would take a core from the
    /// games for nothing. Otherwise (a run's start, the end of a round) it takes games as
    /// they come, until all that are out have arrived or the window ends, so the next
    /// round is dealt without delay.
    pub(super) async fn next_batch(&mut self) -> Result<Vec<FinishedGame>, RunError> {
        let Some(first) = self.rx.recv().await else {
            return Err(RunError::Setup("the game workers stopped".to_string()));
        };
        let mut batch = vec![first];
        let window = tokio::time::Instant::now() + BATCH_WINDOW;
        if self.in_flight.len() > BUSY_MARGIN * self.pace.max(MIN_PACE) {
            tokio::time::sleep_until(window).await;
            while batch.len() < MAX_BATCH {
                match self.rx.try_recv() {
                    Ok(more) => batch.push(more),
                    Err(_) => break,
                }
            }
        } else {
            while batch.len() < MAX_BATCH && batch.len() < self.in_flight.len() {
                match tokio::time::timeout_at(window, self.rx.recv()).await {
                    Ok(Some(more)) => batch.push(more),
                    Ok(None) | Err(_) => break,
                }
            }
        }
        self.pace = batch.len();
        for outcome in &batch {
            self.in_flight.remove(&outcome.game);
        }
        Ok(batch)
    }

    /// Plays the games of one set now and returns their records in game order (a rerun):
    /// as one series with series clients, else up to `jobs` at once.
    pub(super) async fn play_now(&self, jobs: &[GameJob]) -> Result<Vec<GameRecord>, RunError> {
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

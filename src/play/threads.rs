//! A [`Lineup`] without series clients played on `jobs` threads: games of built-in AIs on
//! a rayon pool, games with JSON-lines bots on game threads with a runtime each.

use super::lineup::{ExternalOptions, GamePlayed, Lineup, SeriesPlayed};
use crate::games::BuiltinBot;
use rayon::prelude::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

impl Lineup {
    /// Plays every game on up to `jobs` threads and folds them in game order. Blocks its
    /// caller until every game is played: async code calls it through
    /// `tokio::task::spawn_blocking`, as [`Lineup::play`] does.
    pub fn play_on_threads(
        &self,
        jobs: usize,
        external: &ExternalOptions,
    ) -> Result<SeriesPlayed, String> {
        let jobs = jobs.max(1);
        let games = if self.all_builtin() {
            self.play_builtin(jobs)?
        } else {
            self.play_external(jobs, external)?
        };
        Ok(self.fold(games, vec![None; self.n()]))
    }

    /// Games of built-in AIs only, on a rayon pool of `jobs` threads.
    fn play_builtin(&self, jobs: usize) -> Result<Vec<GamePlayed>, String> {
        let bots: Vec<BuiltinBot> = self
            .slots
            .iter()
            .filter_map(|s| match s {
                super::BotSpec::Builtin(b) => Some(*b),
                _ => None,
            })
            .collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(|e| format!("cannot start worker threads: {e}"))?;
        pool.install(|| {
            (0..self.games)
                .into_par_iter()
                .map(|g| {
                    let seats = crate::games::shared::series::seated(&bots, g);
                    let outcome = self
                        .arena
                        .play_builtin(self.seed_of(g), &seats)
                        .map_err(|e| format!("game {g} (seed {}): {e}", self.seed_of(g)))?;
                    Ok((outcome, vec![None; self.n()]))
                })
                .collect()
        })
    }

    /// Games with JSON-lines bots, each bot a fresh process per game, on up to `jobs`
    /// threads.
    ///
    /// Each thread runs its own current-thread runtime and plays one game at a time: a
    /// game's bots and the tasks reading their pipes then share one thread, so an answer
    /// never waits for a wake-up across threads (measured: a median answer of about 22 us on
    /// one thread, 50-90 us when the reader and the player sit on different workers of a
    /// multi-thread runtime; docs/performance.md), and the games' engines and in-process
    /// AIs use every core. This is why these threads build runtimes of their own instead of
    /// running on the command's one runtime (see `src/runtime.rs`).
    fn play_external(
        &self,
        jobs: usize,
        external: &ExternalOptions,
    ) -> Result<Vec<GamePlayed>, String> {
        let next = AtomicU32::new(0);
        let results: Mutex<Vec<Option<Result<GamePlayed, String>>>> =
            Mutex::new((0..self.games).map(|_| None).collect());
        let threads = jobs.clamp(1, self.games.max(1) as usize);
        let worker = || -> Result<(), String> {
            let runtime = crate::runtime::runtime().map_err(crate::runtime::runtime_error)?;
            loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= self.games {
                    return Ok(());
                }
                let played = runtime.block_on(self.play_game(g, &[], external));
                results.lock().unwrap_or_else(|e| e.into_inner())[g as usize] = Some(played);
            }
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            for handle in handles {
                handle
                    .join()
                    .map_err(|_| "a game thread panicked".to_string())??;
            }
            Ok::<(), String>(())
        })?;
        results
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .into_iter()
            .enumerate()
            .map(|(g, r)| {
                r.unwrap_or_else(|| Err("a game was not played".into()))
                    .map_err(|e| format!("game {g} (seed {}): {e}", self.seed_of(g as u32)))
            })
            .collect()
    }
}

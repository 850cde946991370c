//! A [`Lineup`] without series clients played on `jobs` threads: games of built-in AIs on
//! a rayon pool, games with JSON-lines bots on game threads with a runtime each; each game
//! is folded into the series' [`Tally`] as it ends.

use super::lineup::{ExternalOptions, GamePlayed, Keep, Lineup, SeriesPlayed};
use super::tally::Tally;
use crate::games::{BuiltinBot, Decisions};
use rayon::prelude::*;
use std::sync::Mutex;

impl Lineup {
    /// Plays every game on up to `jobs` threads, folding each into the totals as it ends.
    /// Blocks its caller until every game is played: async code calls it through
    /// `tokio::task::spawn_blocking`, as [`Lineup::play`] does.
    pub fn play_on_threads(
        &self,
        jobs: usize,
        external: &ExternalOptions,
    ) -> Result<SeriesPlayed, String> {
        let jobs = jobs.max(1);
        let mut tally = Tally::new(self);
        if self.all_builtin() {
            self.play_builtin(jobs, &mut tally)?;
        } else {
            self.play_external(jobs, external, &mut tally)?;
        }
        tally.finish(vec![None; self.n()])
    }

    /// Games of built-in AIs only, on a rayon pool of `jobs` threads, in batches of
    /// [`GAMES_PER_THREAD_IN_A_BATCH`] games a thread: a batch's games are folded once it
    /// is played, so only a batch is ever held. Their decision logs are encoded only when
    /// the games are kept.
    fn play_builtin(&self, jobs: usize, tally: &mut Tally) -> Result<(), String> {
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
        let decisions = match self.keep {
            Keep::Games => Decisions::Keep,
            Keep::Totals => Decisions::Skip,
        };
        let batch = GAMES_PER_THREAD_IN_A_BATCH.saturating_mul(jobs as u32);
        let mut first = 0;
        while first < self.games {
            let end = first.saturating_add(batch).min(self.games);
            let played: Vec<Result<GamePlayed, String>> = pool.install(|| {
                (first..end)
                    .into_par_iter()
                    .map(|g| {
                        let seats = crate::games::shared::series::seated(&bots, g);
                        let outcome = self
                            .arena
                            .play_builtin(self.seed_of(g), &seats, decisions)
                            .map_err(|e| e.to_string())?;
                        Ok((outcome, vec![None; self.n()]))
                    })
                    .collect()
            });
            for (g, game) in (first..end).zip(played) {
                match game {
                    Ok(game) => tally.add(g, game),
                    Err(why) => tally.failed(g, why),
                }
            }
            first = end;
        }
        Ok(())
    }

    /// Games with JSON-lines bots on up to `jobs` threads: thread `t` plays games `t`,
    /// `t + threads`, ... in order, so a bot that plays a whole set keeps one process for
    /// the games of its thread (the others start afresh for each game).
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
        tally: &mut Tally,
    ) -> Result<(), String> {
        let tally = Mutex::new(tally);
        let threads = jobs.clamp(1, self.games.max(1) as usize) as u32;
        let worker = |lane: u32| -> Result<(), String> {
            let runtime = crate::runtime::runtime().map_err(crate::runtime::runtime_error)?;
            let games: Vec<u32> = (lane..self.games).step_by(threads as usize).collect();
            let kept = self.kept_bots(games.len() as u32);
            for g in games {
                let played = runtime.block_on(self.play_game(g, &[], &kept, external));
                let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                match played {
                    Ok(game) => tally.add(g, game),
                    Err(why) => tally.failed(g, why),
                }
            }
            runtime.block_on(futures_util::future::join_all(
                kept.iter().flatten().map(crate::bots::KeptBot::end),
            ));
            Ok(())
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|lane| scope.spawn(move || worker(lane)))
                .collect();
            for handle in handles {
                handle
                    .join()
                    .map_err(|_| "a game thread panicked".to_string())??;
            }
            Ok::<(), String>(())
        })
    }
}

/// Games each thread plays in a batch of built-in games: enough that a batch's last games
/// leave a thread idle only briefly, few enough that a batch's outcomes take little memory.
const GAMES_PER_THREAD_IN_A_BATCH: u32 = 256;

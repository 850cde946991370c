//! Defines [`Inbox`]: the runner's end of the channel the executor sends finished games
//! into, and the games it waits for.
//!
//! The runner stores finished games in batches (group commit): games that finish within a
//! short window share a transaction, so thousands of games a second cost a few hundred
//! commits rather than thousands. How long to wait for a batch is the runner's choice, so
//! it lives here, not in the executor.

use super::RunError;
use super::executor::FinishedGame;
use crate::tourney::model::SetGame;
use std::collections::HashSet;
use tokio::sync::mpsc;

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

/// Finished games as they arrive, and the games started and not yet taken.
pub(super) struct Inbox {
    rx: mpsc::UnboundedReceiver<FinishedGame>,
    /// Games started and not yet returned by `next_batch`.
    in_flight: HashSet<SetGame>,
    /// How many games the last batch held: how many finish in one window.
    pace: usize,
}

impl Inbox {
    /// An empty inbox and the sender the executor returns finished games through.
    pub(super) fn new() -> (Inbox, mpsc::UnboundedSender<FinishedGame>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let inbox = Inbox {
            rx,
            in_flight: HashSet::new(),
            pace: 0,
        };
        (inbox, tx)
    }

    /// Waits for `games` too (they were just started).
    pub(super) fn expect(&mut self, games: impl IntoIterator<Item = SetGame>) {
        self.in_flight.extend(games);
    }

    /// Whether `game` is being played.
    pub(super) fn is_playing(&self, game: &SetGame) -> bool {
        self.in_flight.contains(game)
    }

    /// The games finished within `wait` (waiting for the first, then taking what else has
    /// arrived), empty when none did. Nothing is lost when the wait ends: a worker checks
    /// for a drain request and claims more work between waits.
    pub(super) async fn next_within(
        &mut self,
        wait: std::time::Duration,
    ) -> Result<Vec<FinishedGame>, RunError> {
        let first = match tokio::time::timeout(wait, self.rx.recv()).await {
            Err(_) => return Ok(Vec::new()),
            Ok(None) => return Err(RunError::Setup("the game workers stopped".to_string())),
            Ok(Some(first)) => first,
        };
        let mut batch = vec![first];
        while let Ok(more) = self.rx.try_recv() {
            batch.push(more);
        }
        for finished in &batch {
            self.in_flight.remove(&finished.game);
        }
        Ok(batch)
    }

    /// Takes `game` as arrived by another way (a worker stored it); returns whether it
    /// was waited for.
    pub(super) fn arrived(&mut self, game: &SetGame) -> bool {
        self.in_flight.remove(game)
    }

    /// Whether no game is being played.
    pub(super) fn is_idle(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// Waits for finished games and returns those to store together. While far more games
    /// are in flight than finish in one window, the runner sleeps through the window and
    /// then takes what arrived: waking it for every finished game would take a core from
    /// the games for nothing. Otherwise (a run's start, the end of a round) it takes games
    /// as they come, until all that are out have arrived or the window ends, so the next
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
        for finished in &batch {
            self.in_flight.remove(&finished.game);
        }
        Ok(batch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tourney::model::SetId;

    fn game(index: u32) -> SetGame {
        SetGame {
            set: SetId::new("north/r1/s1"),
            index,
        }
    }

    fn finished(index: u32) -> FinishedGame {
        FinishedGame {
            game: game(index),
            played: Err(crate::runner::GameJobError::Failed {
                set: SetId::new("north/r1/s1"),
                game: index,
                reason: "not played in this test".to_string(),
            }),
        }
    }

    #[tokio::test]
    async fn games_finishing_together_come_in_one_batch_each_once() {
        let (mut inbox, tx) = Inbox::new();
        inbox.expect((0..3).map(game));
        assert!(inbox.is_playing(&game(1)) && !inbox.is_idle());
        for index in 0..3 {
            tx.send(finished(index)).unwrap();
        }
        let batch = inbox.next_batch().await.unwrap();
        let games: Vec<u32> = batch.iter().map(|f| f.game.index).collect();
        assert_eq!(games, vec![0, 1, 2]);
        assert!(inbox.is_idle() && !inbox.is_playing(&game(1)));
        // A worker gone with games still out is an error, not a hang.
        inbox.expect([game(3)]);
        drop(tx);
        assert!(inbox.next_batch().await.is_err());
    }
}

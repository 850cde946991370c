//! Wake-ups between the processes that share a PostgreSQL tournament: a planner that deals
//! sets wakes the idle workers, a worker that stores a game wakes the planner.
//!
//! Without them an idle worker and a planner that plays nothing look at the database every
//! few hundred milliseconds: each round of a tournament then starts late by up to that
//! long on every machine, and a hundred idle workers ask the server hundreds of times a
//! second for nothing. PostgreSQL's `LISTEN`/`NOTIFY` carries the news instead. A
//! notification is sent in the transaction that makes the news true, so it arrives after
//! the commit and never before the change can be read.
//!
//! A wake-up is a hint, never the only way to learn: a lease that expires (a worker died)
//! sends nothing, and a listener whose connection dropped misses what was sent meanwhile.
//! So every wait also ends after a bounded time ([`Waiter::wait`]), and the waiter looks at
//! the database again. On SQLite (one process plays everything) a wait is a plain sleep.

use super::backend::{Pool, Query, Tx};
use super::{Store, StoreError};
use sqlx::postgres::PgListener;
use std::time::Duration;

/// What a wake-up announces; each is its own PostgreSQL channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum News {
    /// Sets a worker may claim: dealt by the planner, given back by a worker (played,
    /// drained, failed or refused), or queued again by a rerun.
    SetsToClaim,
    /// A worker stored a game: the planner may advance a round.
    GameStored,
}

impl News {
    fn channel(self) -> &'static str {
        match self {
            News::SetsToClaim => "lrs_tourney_sets",
            News::GameStored => "lrs_tourney_games",
        }
    }
}

/// Someone waiting for one kind of [`News`].
pub struct Waiter {
    /// `None` on SQLite, or when listening failed (then every wait is a sleep).
    listener: Option<PgListener>,
}

impl std::fmt::Debug for Waiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiter")
            .field("listening", &self.listener.is_some())
            .finish()
    }
}

impl Waiter {
    /// A waiter that hears no news: every wait is a sleep. For a process that plays its
    /// own games and so has nothing to wait for from others.
    pub fn deaf() -> Waiter {
        Waiter { listener: None }
    }

    /// Waits until the news arrives or `at_most` has passed, whichever is first. Returns
    /// whether news arrived (a timeout, or a wait on SQLite, returns false). Notifications
    /// that piled up meanwhile are taken all at once: one look at the database answers
    /// them all.
    pub async fn wait(&mut self, at_most: Duration) -> bool {
        let Some(listener) = self.listener.as_mut() else {
            tokio::time::sleep(at_most).await;
            return false;
        };
        match tokio::time::timeout(at_most, listener.try_recv()).await {
            Ok(Ok(Some(_))) => {
                while listener.next_buffered().is_some() {}
                true
            }
            // The connection dropped (it reconnects); what was sent meanwhile is lost, so
            // the caller looks at the database now.
            Ok(Ok(None)) => true,
            // The listener failed for good: sleep the rest of the time from now on.
            Ok(Err(_)) => {
                self.listener = None;
                tokio::time::sleep(at_most).await;
                false
            }
            Err(_) => false,
        }
    }
}

impl Store {
    /// Listens for `news`. The listener holds one of the pool's connections until it is
    /// dropped (drop it before [`Store::close`]). If the server refuses to listen, waits are
    /// plain sleeps: slower, never wrong.
    pub async fn waiter(&self, news: News) -> Waiter {
        let Pool::Postgres(pool) = self.pool() else {
            return Waiter::deaf();
        };
        let listener = async {
            let mut listener = PgListener::connect_with(pool).await?;
            listener.listen(news.channel()).await?;
            Ok::<_, sqlx::Error>(listener)
        }
        .await
        .ok();
        Waiter { listener }
    }

    /// Announces `news` to the other processes when `tx` commits (never before the change
    /// it announces can be read: the only way to announce is inside a transaction).
    /// Nothing on SQLite.
    pub(crate) async fn announce(&self, tx: &mut Tx, news: News) -> Result<(), StoreError> {
        if let Pool::Postgres(_) = self.pool() {
            Query::new("SELECT pg_notify($1, '')")
                .bind(news.channel())
                .execute(tx)
                .await
                .map_err(self.db_err())?;
        }
        Ok(())
    }
}

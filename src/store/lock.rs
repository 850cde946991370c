//! The run lock: one `lrs-tourney run` (or `rerun`) per database at a time.
//!
//! SQLite: an exclusive OS file lock on `<database>.lock`, held for the life of the run.
//! PostgreSQL: a session advisory lock ([`RUN_LOCK_KEY`]) held on a connection of its own
//! for the life of the run. Either is released when the process dies, even by `kill -9`
//! (the OS closes the file; the server ends the session when its connection drops), so a
//! crashed run never blocks the next one.

use super::location::PgUrl;
use super::{DbLocation, StoreError};
use sqlx::{Connection, PgConnection};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The advisory lock key of a tournament's run on PostgreSQL (one tournament per
/// database; advisory locks are per database). The bytes of "lrs-run\0" read as an integer.
pub const RUN_LOCK_KEY: i64 = i64::from_be_bytes(*b"lrs-run\0");

/// Held while a run writes to a database; dropping it releases the lock.
#[derive(Debug)]
pub struct RunLock {
    held: Held,
}

#[derive(Debug)]
enum Held {
    File {
        file: File,
    },
    /// The connection that holds the advisory lock; the lock ends with it.
    Advisory {
        conn: Box<PgConnection>,
    },
}

impl RunLock {
    /// Takes the lock for `database`, or says who holds it.
    pub async fn acquire(database: &DbLocation) -> Result<RunLock, StoreError> {
        match database {
            DbLocation::Sqlite(path) => Ok(RunLock {
                held: Held::File {
                    file: lock_file(path)?,
                },
            }),
            DbLocation::Postgres(url) => Ok(RunLock {
                held: Held::Advisory {
                    conn: Box::new(advisory_lock(url).await?),
                },
            }),
        }
    }

    /// Releases the lock now (dropping it releases it too: the PostgreSQL server ends the
    /// lock when it sees the connection close, which may take a moment).
    pub async fn release(self) {
        match self.held {
            Held::File { file } => drop(file),
            Held::Advisory { mut conn } => {
                let _ = sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(RUN_LOCK_KEY)
                    .execute(&mut *conn)
                    .await;
                let _ = conn.close().await;
            }
        }
    }

    /// Whether a `run` or `rerun` holds the lock of `database` now. Reads only: an SQLite
    /// lock file is opened read-only (no lock file means no run ever locked it) and tested
    /// with a shared lock that is released at once; PostgreSQL's lock table is read. A run
    /// starting in that same instant would find the lock taken, as with any second run.
    pub async fn is_held(database: &DbLocation) -> bool {
        match database {
            DbLocation::Sqlite(path) => file_lock_is_held(path),
            DbLocation::Postgres(url) => advisory_lock_is_held(url).await.unwrap_or(false),
        }
    }
}

/// `<database>.lock`.
fn lock_path(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

fn lock_file(database: &Path) -> Result<File, StoreError> {
    let path = lock_path(database);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| StoreError::LockFile {
            path: database.display().to_string(),
            lock: path.display().to_string(),
            reason: e.to_string(),
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(StoreError::Busy {
            path: database.display().to_string(),
            lock: format!("lock file {}", path.display()),
        }),
        Err(TryLockError::Error(e)) => Err(StoreError::LockFile {
            path: database.display().to_string(),
            lock: path.display().to_string(),
            reason: e.to_string(),
        }),
    }
}

fn file_lock_is_held(database: &Path) -> bool {
    let Ok(file) = File::open(lock_path(database)) else {
        return false;
    };
    match file.try_lock_shared() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(_)) => false,
    }
}

async fn advisory_lock(url: &PgUrl) -> Result<PgConnection, StoreError> {
    let err = |source| StoreError::Database {
        path: url.to_string(),
        source,
    };
    let mut conn = PgConnection::connect_with(&url.connect_options())
        .await
        .map_err(|e| super::pg_connect_error(url, &e))?;
    let taken: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
        .bind(RUN_LOCK_KEY)
        .fetch_one(&mut conn)
        .await
        .map_err(err)?;
    if taken {
        Ok(conn)
    } else {
        let _ = conn.close().await;
        Err(StoreError::Busy {
            path: url.to_string(),
            lock: format!("PostgreSQL advisory lock {RUN_LOCK_KEY}"),
        })
    }
}

async fn advisory_lock_is_held(url: &PgUrl) -> Result<bool, sqlx::Error> {
    let mut conn = PgConnection::connect_with(&url.connect_options()).await?;
    // An advisory lock on a bigint key is listed with its high half in classid and its
    // low half in objid, objsubid 1.
    let held: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM pg_locks
                        WHERE locktype = 'advisory' AND granted AND objsubid = 1
                          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                          AND classid::bigint = ($1 >> 32) AND objid::bigint = ($1 & 4294967295))",
    )
    .bind(RUN_LOCK_KEY)
    .fetch_one(&mut conn)
    .await?;
    let _ = conn.close().await;
    Ok(held)
}

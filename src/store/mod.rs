//! The tournament store: every planned set and finished game, in SQLite (via sqlx).
//!
//! The store is the single source of truth for what has been played. Each finished game is
//! written in one transaction, so a crash loses at most the games in flight and the next
//! `run` resumes. Only this module knows SQL. It talks to the database through sqlx's `Any`
//! driver with portable SQL (`$1` placeholders, application-assigned keys, `ON CONFLICT`), so
//! a PostgreSQL backend is the same code with another connection URL.

mod batch;
pub mod decisions;
mod lock;
mod read;
mod rows;
mod write;

pub use batch::{FinishedSet, StageEntries};
pub use lock::RunLock;
pub use read::{
    AuditRow, BotLogRow, GameHistoryRow, GameRow, ResultRow, SetRow, StoredTournament, TeamRow,
};
pub use write::{BotLog, GameRecord, NewSet, PlannedGame, TeamResult};

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor};
use std::path::{Path, PathBuf};
use thiserror::Error;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");

/// What went wrong with the database.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Database {
        path: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("{path}: cannot prepare the database schema: {source}")]
    Migrate {
        path: String,
        #[source]
        source: sqlx::migrate::MigrateError,
    },
    #[error("{0}: no such tournament database (run `lrs-tourney run` first)")]
    Missing(PathBuf),
    #[error(
        "{path} is in use by another `lrs-tourney run` (lock file {lock}); wait for it to finish or stop it first"
    )]
    Busy { path: String, lock: String },
    #[error("{path}: cannot create the lock file {lock}: {reason}")]
    LockFile {
        path: String,
        lock: String,
        reason: String,
    },
    #[error("{path}: {what}")]
    Corrupt { path: String, what: String },
    #[error("{path}: cannot create the database file: {source}")]
    Create {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// The SQL dialect behind the `Any` pool, for the few statements built at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Sqlite,
}

/// Creates the database file readable and writable by its owner only (SQLite gives its
/// journal files the same mode), unless it exists.
fn create_private(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// An open tournament database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// The file (or URL) for messages.
    label: String,
    dialect: Dialect,
    /// Texts of the multi-row statements, built once per shape and size.
    sql_texts: rows::SqlTexts,
}

impl Store {
    /// Opens (creating if needed) the SQLite database at `path` and brings its schema up to
    /// date. WAL mode lets readers (`status`, `standings`) look while a run writes.
    pub async fn open(path: &Path) -> Result<Store, StoreError> {
        Store::connect(path, true).await
    }

    /// Opens an existing database for reading and occasional writes (reruns).
    pub async fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        Store::connect(path, false).await
    }

    async fn connect(path: &Path, create: bool) -> Result<Store, StoreError> {
        install_default_drivers();
        let label = path.display().to_string();
        if create {
            create_private(path).map_err(|source| StoreError::Create {
                path: label.clone(),
                source,
            })?;
        }
        // Bots run in copies of their directories; an organiser may keep the database in
        // one of them. It is never copied.
        crate::bots::sandbox::protect_file(path);
        let url = sqlite_url(path, create);
        let pool = AnyPoolOptions::new()
            // One connection: SQLite has one writer, and every store call comes from one
            // task. A second connection would find its page cache stale after each of the
            // other's commits and read the pages again. Other processes (`status`, ...)
            // read beside it through WAL.
            .max_connections(1)
            .after_connect(|conn, _meta| {
                Box::pin(async move {
                    conn.execute("PRAGMA journal_mode = WAL").await?;
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA busy_timeout = 10000").await?;
                    // 64 MiB of page cache: big tournaments insert results all over the
                    // result tables' B-trees.
                    conn.execute("PRAGMA cache_size = -65536").await?;
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|source| StoreError::Database {
                path: label.clone(),
                source,
            })?;
        SQLITE_MIGRATIONS
            .run(&pool)
            .await
            .map_err(|source| StoreError::Migrate {
                path: label.clone(),
                source,
            })?;
        Ok(Store {
            pool,
            label,
            dialect: Dialect::Sqlite,
            sql_texts: rows::SqlTexts::default(),
        })
    }

    pub(crate) fn db_err(&self) -> impl Fn(sqlx::Error) -> StoreError + '_ {
        move |source| StoreError::Database {
            path: self.label.clone(),
            source,
        }
    }

    /// The placeholders of a multi-row statement built at run time: `rows` groups of
    /// `cols` values, `(?, ?, ...)`, each followed by `row_suffix` inside its parentheses
    /// (constant columns), separated by commas. SQLite gets anonymous `?` placeholders,
    /// bound in order: with `$n` names, sqlx looks every parameter up by name, which is
    /// quadratic in a multi-row insert. Built in one buffer: a big insert has tens of
    /// thousands of them.
    pub(crate) fn placeholders(&self, rows: usize, cols: usize, row_suffix: &str) -> String {
        match self.dialect {
            Dialect::Sqlite => {
                let mut row = String::with_capacity(cols * 3 + row_suffix.len() + 2);
                row.push('(');
                for c in 0..cols {
                    row.push_str(if c == 0 { "?" } else { ", ?" });
                }
                row.push_str(row_suffix);
                row.push(')');
                let mut all = String::with_capacity(rows * (row.len() + 2));
                for r in 0..rows {
                    if r > 0 {
                        all.push_str(", ");
                    }
                    all.push_str(&row);
                }
                all
            }
        }
    }

    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The database's name for messages.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// Closes the pool, waiting for connections to finish.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// `sqlite://` URL for a file path (percent-encoding what a URL cannot carry).
fn sqlite_url(path: &Path, create: bool) -> String {
    let mut encoded = String::new();
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'.' | b'-' | b'_' | b'~' => {
                encoded.push(b as char)
            }
            _ => encoded.push_str(&format!("%{b:02X}")),
        }
    }
    let mode = if create { "rwc" } else { "rw" };
    format!("sqlite://{encoded}?mode={mode}")
}

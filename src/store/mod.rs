//! The tournament store: every planned set and finished game, in SQLite (via sqlx).
//!
//! The store is the single source of truth for what has been played. Each finished game is
//! written in one transaction, so a crash loses at most the games in flight and the next
//! `run` resumes. Only this module knows SQL. It talks to the database through sqlx's `Any`
//! driver with portable SQL (`$1` placeholders, application-assigned keys, `ON CONFLICT`), so
//! a PostgreSQL backend is the same code with another connection URL.

mod batch;
mod lock;
mod read;
mod rows;
mod status;
mod write;

pub use batch::{Advance, FinishedSet, StageEntries};
pub use lock::RunLock;
pub use read::{
    AdvancementRow, AuditRow, BotLogRow, GameHistoryRow, GameRow, ResultRow, SchoolRow, SetRow,
    StageRow, StoredLimits, StoredTournament, TeamRow, decisive_final,
};
pub use status::{GameStatus, SetStatus, StageStatus, UnknownStatus};
pub use write::{GameRecord, NewSet, PlannedGame, RerunWhy};

/// A stored game's number: its key in the `games` table, given in the order games are dealt,
/// and the key its result lines, bot logs and decisions hang from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, sqlx::Type)]
#[sqlx(transparent)]
pub struct GameNo(pub i64);

impl GameNo {
    /// The number `offset` places after this one.
    pub fn after(self, offset: u32) -> GameNo {
        GameNo(self.0 + i64::from(offset))
    }
}

impl std::fmt::Display for GameNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

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
    #[error(
        "{path} is not a tournament database ({why}); give the tournament file (.toml) or the database `lrs-tourney run` wrote"
    )]
    NotADatabase { path: String, why: String },
    #[error(
        "{path}: no tournament stored yet (run `lrs-tourney run` first, or wait: a run is creating it)"
    )]
    NothingStored { path: String },
    #[error(
        "{path} was written by an older lrs-tourney (its schema lacks {missing}); this command only reads and never upgrades a database: run `lrs-tourney run` on its tournament file once with this version, then try again"
    )]
    OldSchema { path: String, missing: String },
    #[error(
        "{path} was written by a newer lrs-tourney (schema {unknown} is unknown to this version); use that version"
    )]
    NewerSchema { path: String, unknown: String },
}

/// The first 16 bytes of every SQLite 3 database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Fails at once, with a clear message, when `path` exists but is not an SQLite database
/// (a roster CSV given by mistake, say): SQLite would only notice on the first query, and
/// the pool would retry until it timed out.
fn check_sqlite_file(path: &Path) -> Result<(), StoreError> {
    use std::io::Read;
    let not_a_db = |why: &str| StoreError::NotADatabase {
        path: path.display().to_string(),
        why: why.to_string(),
    };
    let mut file = std::fs::File::open(path).map_err(|e| StoreError::NotADatabase {
        path: path.display().to_string(),
        why: format!("cannot open it: {e}"),
    })?;
    let mut header = Vec::with_capacity(16);
    file.by_ref()
        .take(16)
        .read_to_end(&mut header)
        .map_err(|e| not_a_db(&format!("cannot read it: {e}")))?;
    if header.is_empty() {
        Err(not_a_db("the file is empty: nothing was stored in it yet"))
    } else if header != SQLITE_HEADER {
        Err(not_a_db("it is not an SQLite file"))
    } else {
        Ok(())
    }
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

/// Settings of a connection that writes. WAL lets readers (`status`, ...) look while a run
/// writes; 64 MiB of page cache because big tournaments insert results all over the result
/// tables' B-trees.
const READ_WRITE_PRAGMAS: &[&str] = &[
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 10000",
    "PRAGMA cache_size = -65536",
];

/// Settings of a connection of a read-only command: it never writes, nor changes the
/// journal mode.
const READ_ONLY_PRAGMAS: &[&str] = &[
    "PRAGMA query_only = ON",
    "PRAGMA busy_timeout = 10000",
    "PRAGMA cache_size = -65536",
];

/// A pool of one connection to the SQLite database at `url`, set up with `pragmas`. One
/// connection: SQLite has one writer, and every store call comes from one task; a second
/// connection would find its page cache stale after each of the other's commits.
async fn sqlite_pool(
    url: &str,
    label: &str,
    pragmas: &'static [&'static str],
) -> Result<AnyPool, StoreError> {
    AnyPoolOptions::new()
        .max_connections(1)
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                for pragma in pragmas {
                    conn.execute(*pragma).await?;
                }
                Ok(())
            })
        })
        .connect(url)
        .await
        .map_err(|source| StoreError::Database {
            path: label.to_string(),
            source,
        })
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
        // An empty file is a database SQLite has not written yet (a run killed at once).
        if path.metadata().is_ok_and(|m| m.len() > 0) {
            check_sqlite_file(path)?;
        }
        Store::connect(path, true).await
    }

    /// Opens an existing database for reading and occasional writes (reruns).
    pub async fn open_existing(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        check_sqlite_file(path)?;
        Store::connect(path, false).await
    }

    /// Opens an existing database for the read-only commands (`status`, `standings`,
    /// `export`, `logs`): SQLite's read-only mode with `query_only` on, no migration, no
    /// change of journal mode, so the file is never written. A database whose schema is
    /// older than this version's is refused with a message saying how to upgrade it (the
    /// queries of this version need the current schema); one from a newer version too.
    /// Readers see a run's committed games through WAL while it writes.
    pub async fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        check_sqlite_file(path)?;
        install_default_drivers();
        let label = path.display().to_string();
        let url = format!("{}?mode=ro", sqlite_url_path(path));
        let pool = sqlite_pool(&url, &label, READ_ONLY_PRAGMAS).await?;
        let store = Store::with_pool(pool, label);
        if let Err(e) = store.check_schema().await {
            store.close().await;
            return Err(e);
        }
        Ok(store)
    }

    /// Compares the migrations applied to the database with this version's.
    async fn check_schema(&self) -> Result<(), StoreError> {
        let applied: Vec<i64> =
            match sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success = 1")
                .fetch_all(self.pool())
                .await
            {
                Ok(v) => v,
                Err(sqlx::Error::Database(e)) if e.message().contains("no such table") => {
                    return Err(StoreError::NotADatabase {
                        path: self.label.clone(),
                        why: "an SQLite database without a tournament schema".to_string(),
                    });
                }
                Err(e) => return Err(self.db_err()(e)),
            };
        // A run is creating the database: its migrations are not applied yet.
        if applied.is_empty() {
            return Err(StoreError::NothingStored {
                path: self.label.clone(),
            });
        }
        let known: Vec<(i64, String)> = SQLITE_MIGRATIONS
            .iter()
            .filter(|m| !m.migration_type.is_down_migration())
            .map(|m| (m.version, m.description.to_string()))
            .collect();
        let missing: Vec<String> = known
            .iter()
            .filter(|(v, _)| !applied.contains(v))
            .map(|(v, d)| format!("{v:04} {d}"))
            .collect();
        let unknown: Vec<String> = applied
            .iter()
            .filter(|v| !known.iter().any(|(k, _)| k == *v))
            .map(|v| format!("{v:04}"))
            .collect();
        if !unknown.is_empty() {
            return Err(StoreError::NewerSchema {
                path: self.label.clone(),
                unknown: unknown.join(", "),
            });
        }
        if !missing.is_empty() {
            return Err(StoreError::OldSchema {
                path: self.label.clone(),
                missing: missing.join(", "),
            });
        }
        Ok(())
    }

    /// The number of games stored (done, of current runs) in the database at `path`, once
    /// no other connection can store more: the count takes SQLite's write lock (waiting for
    /// a commit under way) and keeps it for the rest of the process, so it is exact when the
    /// caller exits right after (an interrupted run's last word). `None` when the database
    /// or its tables do not exist yet.
    pub async fn final_stored_count(path: &Path) -> Option<u64> {
        use sqlx::Connection;
        if !path.exists() || check_sqlite_file(path).is_err() {
            return None;
        }
        install_default_drivers();
        let url = format!("{}?mode=rw", sqlite_url_path(path));
        let mut conn = sqlx::AnyConnection::connect(&url).await.ok()?;
        conn.execute("PRAGMA busy_timeout = 10000").await.ok()?;
        conn.execute("BEGIN IMMEDIATE").await.ok()?;
        let count: Option<i64> = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE status = 'done' AND superseded = 0",
        )
        .fetch_one(&mut conn)
        .await
        .ok();
        // Keep the write lock until the process exits: nothing more is committed.
        std::mem::forget(conn);
        count.map(|n| n as u64)
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
        let pool = sqlite_pool(&url, &label, READ_WRITE_PRAGMAS).await?;
        SQLITE_MIGRATIONS
            .run(&pool)
            .await
            .map_err(|source| StoreError::Migrate {
                path: label.clone(),
                source,
            })?;
        Ok(Store::with_pool(pool, label))
    }

    fn with_pool(pool: AnyPool, label: String) -> Store {
        Store {
            pool,
            label,
            dialect: Dialect::Sqlite,
            sql_texts: rows::SqlTexts::default(),
        }
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
    let mode = if create { "rwc" } else { "rw" };
    format!("{}?mode={mode}", sqlite_url_path(path))
}

/// `sqlite://` URL for a file path, without options.
fn sqlite_url_path(path: &Path) -> String {
    let mut encoded = String::new();
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'.' | b'-' | b'_' | b'~' => {
                encoded.push(b as char)
            }
            _ => encoded.push_str(&format!("%{b:02X}")),
        }
    }
    format!("sqlite://{encoded}")
}

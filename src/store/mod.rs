//! The tournament store: every planned set and finished game, in an SQLite file or a
//! PostgreSQL database (via sqlx's native drivers, see `backend.rs`).
//!
//! The store is the single source of truth for what has been played. Each finished game is
//! written in one transaction, so a crash loses at most the games in flight and the next
//! `run` resumes. Only this module knows SQL. Each statement is written once, in SQL both
//! databases run (`$1` placeholders, application-assigned keys, `ON CONFLICT`, `TRUE` and
//! `FALSE`); the schemas are `migrations/sqlite` and `migrations/postgres`, with the same
//! versions.

mod backend;
mod batch;
mod lease;
mod location;
mod lock;
mod read;
mod rows;
mod status;
mod tally;
mod wake;
mod workers;
mod write;

pub use batch::{Advance, FinishedSet, StageEntries};
pub use lease::{FAILURES_BEFORE_FAILED, Lease, LeaseToken, LeasedWrite, SetToPlay, WorkerName};
pub use location::{BadLocation, DbLocation, PgUrl};
pub use lock::RunLock;
pub use read::{
    AdvancementRow, AuditRow, BotLogRow, GameHistoryRow, GameRow, ResultRow, SchoolRow, SetRow,
    StageRow, StoredLimits, StoredTournament, TeamRow, decisive_final,
};
pub use status::{GameStatus, SetStatus, StageStatus, UnknownStatus};
pub use tally::{GameCounts, GameLine, StreamError, Tally};
pub use wake::{News, Waiter};
pub use workers::{FailureRow, LeaseRow, RefusalRow, WorkerInfo, WorkerRow, WorkerState};
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

use backend::{Dialect, Pool, Query, Tx};
use sqlx::postgres::{PgConnection, PgPoolOptions};
use sqlx::sqlite::{SqliteConnection, SqlitePoolOptions};
use sqlx::{Connection, Executor};
use std::path::{Path, PathBuf};
use std::time::Duration;
use thiserror::Error;

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

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
    #[error("{path}: cannot connect to the PostgreSQL server: {reason}")]
    Connect { path: String, reason: String },
    #[error(
        "{path} is in use by another `lrs-tourney run` ({lock}); wait for it to finish or stop it first"
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
) -> Result<Pool, StoreError> {
    SqlitePoolOptions::new()
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
        .map(Pool::Sqlite)
        .map_err(|source| StoreError::Database {
            path: label.to_string(),
            source,
        })
}

/// How long a PostgreSQL command waits for a connection of its pool.
const PG_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(20);

/// Connections of a PostgreSQL pool: the runner's writes come from one task, a read
/// command's from one too; a few let a transaction and a read overlap.
const PG_CONNECTIONS: u32 = 4;

/// Why connecting to the PostgreSQL server failed, said so that the organiser knows what
/// to check.
fn pg_connect_error(url: &PgUrl, e: &sqlx::Error) -> StoreError {
    let opts = url.connect_options();
    let server = format!("{}:{}", opts.get_host(), opts.get_port());
    let database = opts.get_database().unwrap_or("").to_string();
    let reason = match e {
        sqlx::Error::Io(io) => format!(
            "the server at {server} cannot be reached ({io}); is PostgreSQL running there, and are the host and port right?"
        ),
        sqlx::Error::Database(db) if db.code().as_deref() == Some("3D000") => format!(
            "the server at {server} has no database {database:?}; create it first (`createdb {database}`, or CREATE DATABASE)"
        ),
        sqlx::Error::Database(db) if db.code().as_deref().is_some_and(|c| c.starts_with("28")) => {
            format!("the server at {server} refused the login: {}", db.message())
        }
        sqlx::Error::PoolTimedOut => {
            format!("no connection to {server} within {PG_ACQUIRE_TIMEOUT:?}")
        }
        other => format!("{server}: {other}"),
    };
    StoreError::Connect {
        path: url.to_string(),
        reason,
    }
}

/// A pool of connections to the PostgreSQL database at `url`. A first connection is made
/// alone, so that a server that cannot be reached is a clear error at once rather than
/// retries until the pool times out. `read_only`: every transaction of the pool is read
/// only (the reading commands).
async fn pg_pool(url: &PgUrl, read_only: bool) -> Result<Pool, StoreError> {
    let opts = url.connect_options();
    let probe = PgConnection::connect_with(&opts)
        .await
        .map_err(|e| pg_connect_error(url, &e))?;
    let _ = probe.close().await;
    PgPoolOptions::new()
        .max_connections(PG_CONNECTIONS)
        .acquire_timeout(PG_ACQUIRE_TIMEOUT)
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if read_only {
                    conn.execute("SET default_transaction_read_only = on")
                        .await?;
                }
                Ok(())
            })
        })
        .connect_with(opts)
        .await
        .map(Pool::Postgres)
        .map_err(|e| pg_connect_error(url, &e))
}

/// An open tournament database.
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
    /// The file (or URL, without its password) for messages.
    label: String,
    dialect: Dialect,
    /// Texts of the multi-row statements, built once per shape and size.
    sql_texts: rows::SqlTexts,
}

impl Store {
    /// Opens (creating if needed) the database at `db` and brings its schema up to date. An
    /// SQLite file is created; a PostgreSQL database must exist on its server (its tables
    /// are created). WAL mode lets SQLite readers (`status`, `standings`) look while a run
    /// writes.
    pub async fn open(db: &DbLocation) -> Result<Store, StoreError> {
        match db {
            DbLocation::Sqlite(path) => {
                // An empty file is a database SQLite has not written yet (a run killed at
                // once).
                if path.metadata().is_ok_and(|m| m.len() > 0) {
                    check_sqlite_file(path)?;
                }
                Store::connect_sqlite(path, true).await
            }
            DbLocation::Postgres(url) => Store::connect_pg(url).await,
        }
    }

    /// Opens an existing database for reading and occasional writes (reruns).
    pub async fn open_existing(db: &DbLocation) -> Result<Store, StoreError> {
        match db {
            DbLocation::Sqlite(path) => {
                if !path.exists() {
                    return Err(StoreError::Missing(path.to_path_buf()));
                }
                check_sqlite_file(path)?;
                Store::connect_sqlite(path, false).await
            }
            DbLocation::Postgres(url) => Store::connect_pg(url).await,
        }
    }

    /// Opens an existing database for the read-only commands (`status`, `standings`,
    /// `export`, `logs`): SQLite's read-only mode with `query_only` on, or read-only
    /// PostgreSQL transactions; no migration, no change of journal mode, so the database is
    /// never written. A database whose schema is older than this version's is refused with
    /// a message saying how to upgrade it (the queries of this version need the current
    /// schema); one from a newer version too. Readers see a run's committed games while it
    /// writes.
    pub async fn open_read_only(db: &DbLocation) -> Result<Store, StoreError> {
        let store = match db {
            DbLocation::Sqlite(path) => {
                if !path.exists() {
                    return Err(StoreError::Missing(path.to_path_buf()));
                }
                check_sqlite_file(path)?;
                let label = path.display().to_string();
                let url = format!("{}?mode=ro", sqlite_url_path(path));
                let pool = sqlite_pool(&url, &label, READ_ONLY_PRAGMAS).await?;
                Store::with_pool(pool, label, Dialect::Sqlite)
            }
            DbLocation::Postgres(url) => {
                let pool = pg_pool(url, true).await?;
                Store::with_pool(pool, url.to_string(), Dialect::Postgres)
            }
        };
        if let Err(e) = store.check_schema().await {
            store.close().await;
            return Err(e);
        }
        Ok(store)
    }

    /// The migrations of this version for the store's database.
    fn migrator(&self) -> &'static sqlx::migrate::Migrator {
        match self.dialect {
            Dialect::Sqlite => &SQLITE_MIGRATIONS,
            Dialect::Postgres => &POSTGRES_MIGRATIONS,
        }
    }

    /// Compares the migrations applied to the database with this version's.
    async fn check_schema(&self) -> Result<(), StoreError> {
        let applied = match self
            .pool
            .fetch_all(Query::new(
                "SELECT version FROM _sqlx_migrations WHERE success = TRUE",
            ))
            .await
        {
            Ok(rows) => rows
                .iter()
                .map(|r| r.int("version"))
                .collect::<Result<Vec<i64>, _>>()
                .map_err(self.db_err())?,
            Err(sqlx::Error::Database(e)) if e.message().contains("no such table") => {
                return Err(StoreError::NotADatabase {
                    path: self.label.clone(),
                    why: "an SQLite database without a tournament schema".to_string(),
                });
            }
            // PostgreSQL's undefined_table: a database `run` has not written to yet.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P01") => {
                return Err(StoreError::NothingStored {
                    path: self.label.clone(),
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
        let known: Vec<(i64, String)> = self
            .migrator()
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

    /// The number of games stored (done, of current runs) in the database `db`, once no
    /// other connection can store more. On SQLite the count takes the write lock (waiting
    /// for a commit under way) and keeps it for the rest of the process, so it is exact
    /// when the caller exits right after (an interrupted run's last word); on PostgreSQL
    /// every game is committed whole, and the count is of those committed. `None` when the
    /// database or its tables do not exist yet.
    pub async fn final_stored_count(db: &DbLocation) -> Option<u64> {
        const COUNT: &str =
            "SELECT COUNT(*) FROM games WHERE status = 'done' AND superseded = FALSE";
        match db {
            DbLocation::Sqlite(path) => {
                if !path.exists() || check_sqlite_file(path).is_err() {
                    return None;
                }
                let url = format!("{}?mode=rw", sqlite_url_path(path));
                let mut conn = SqliteConnection::connect(&url).await.ok()?;
                conn.execute("PRAGMA busy_timeout = 10000").await.ok()?;
                conn.execute("BEGIN IMMEDIATE").await.ok()?;
                let count: Option<i64> = sqlx::query_scalar(COUNT).fetch_one(&mut conn).await.ok();
                // Keep the write lock until the process exits: nothing more is committed.
                std::mem::forget(conn);
                count.map(|n| n as u64)
            }
            DbLocation::Postgres(url) => {
                let mut conn = PgConnection::connect_with(&url.connect_options())
                    .await
                    .ok()?;
                let count: Option<i64> = sqlx::query_scalar(COUNT).fetch_one(&mut conn).await.ok();
                let _ = conn.close().await;
                count.map(|n| n as u64)
            }
        }
    }

    async fn connect_sqlite(path: &Path, create: bool) -> Result<Store, StoreError> {
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
        Store::with_pool(pool, label, Dialect::Sqlite)
            .migrate()
            .await
    }

    async fn connect_pg(url: &PgUrl) -> Result<Store, StoreError> {
        let pool = pg_pool(url, false).await?;
        Store::with_pool(pool, url.to_string(), Dialect::Postgres)
            .migrate()
            .await
    }

    /// Brings the schema up to date (closing the pool when that fails).
    async fn migrate(self) -> Result<Store, StoreError> {
        let done = match &self.pool {
            Pool::Sqlite(pool) => self.migrator().run(pool).await,
            Pool::Postgres(pool) => self.migrator().run(pool).await,
        };
        match done {
            Ok(()) => Ok(self),
            Err(source) => {
                self.close().await;
                Err(StoreError::Migrate {
                    path: self.label.clone(),
                    source,
                })
            }
        }
    }

    fn with_pool(pool: Pool, label: String, dialect: Dialect) -> Store {
        Store {
            pool,
            label,
            dialect,
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
    /// (constant columns), separated by commas. Anonymous `?` placeholders, bound in order
    /// (numbered for PostgreSQL with the rest of the statement, see `rows.rs`): with `$n`
    /// names, SQLite's driver looks every parameter up by name, which is quadratic in a
    /// multi-row insert. Built in one buffer: a big insert has tens of thousands of them.
    pub(crate) fn placeholders(rows: usize, cols: usize, row_suffix: &str) -> String {
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

    pub(crate) fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Starts a transaction.
    pub(crate) async fn begin(&self) -> Result<Tx, StoreError> {
        self.pool.begin().await.map_err(self.db_err())
    }

    pub(crate) fn dialect(&self) -> Dialect {
        self.dialect
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

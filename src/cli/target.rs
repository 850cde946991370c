//! `FILE|DB` arguments: a tournament file names its database; a `postgres://` URL is a
//! PostgreSQL database; anything else is the SQLite database file itself. `--db` names the
//! database outright (a tournament file then gives only its configuration).

use super::CliError;
use crate::report::Snapshot;
use crate::store::DbLocation;
use crate::tourney::config::load_tournament;
use clap::Args;
use std::path::Path;

/// The `--db` option of every command that reads or writes a tournament's database.
#[derive(Debug, Clone, Args)]
pub struct DbArg {
    /// The database to use instead of the one the tournament file names: an SQLite file
    /// path or a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE).
    #[arg(long, value_name = "DB")]
    db: Option<String>,
}

impl DbArg {
    /// The database `--db` names, if given.
    pub fn location(&self) -> Result<Option<DbLocation>, CliError> {
        self.db
            .as_deref()
            .map(|value| DbLocation::parse(value, None).map_err(CliError::input))
            .transpose()
    }
}

/// Whether a `FILE|DB` argument is a tournament file.
pub fn is_tournament_file(arg: &Path) -> bool {
    arg.extension().is_some_and(|e| e == "toml")
}

/// The database a `FILE|DB` argument designates, or the one `--db` names.
pub fn database_of(arg: &Path, db: &DbArg) -> Result<DbLocation, CliError> {
    if let Some(db) = db.location()? {
        return Ok(db);
    }
    if is_tournament_file(arg) {
        let t = load_tournament(arg).map_err(CliError::input)?;
        return Ok(t.database);
    }
    let text = arg.to_string_lossy();
    if DbLocation::is_url(&text) {
        DbLocation::parse(&text, None).map_err(CliError::input)
    } else {
        Ok(DbLocation::Sqlite(arg.to_path_buf()))
    }
}

/// How much of a stored tournament a command reads (see [`Snapshot`]).
#[derive(Debug, Clone, Copy)]
pub enum Reading {
    /// Every game and result line (the report site).
    Everything,
    /// Each set's totals per team and its game counts, summed by the database (standings).
    Sums,
    /// Each set's game counts only (status).
    Counts,
}

/// Reads `reading` of the database a `FILE|DB` argument (or `--db`) designates, and
/// that database. The database is opened read-only: never migrated, never written.
pub async fn load_snapshot(
    arg: &Path,
    db: &DbArg,
    reading: Reading,
) -> Result<(Snapshot, DbLocation), CliError> {
    let db = database_of(arg, db)?;
    let store = open_store(&db).await?;
    let snap = match reading {
        Reading::Everything => Snapshot::load(&store).await,
        Reading::Sums => Snapshot::summary(&store).await,
        Reading::Counts => Snapshot::progress(&store).await,
    };
    store.close().await;
    Ok((snap.map_err(CliError::input)?, db))
}

/// Opens the database at `db` read-only: never migrated, never written.
pub async fn open_store(db: &DbLocation) -> Result<crate::store::Store, CliError> {
    crate::store::Store::open_read_only(db)
        .await
        .map_err(CliError::input)
}

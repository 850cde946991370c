//! `FILE|DB` arguments: a tournament file names its database; anything else is the
//! database file itself.

use super::CliError;
use crate::tourney::config::load_tournament;
use std::path::{Path, PathBuf};

/// The database a `FILE|DB` argument designates.
pub fn database_of(arg: &Path) -> Result<PathBuf, CliError> {
    if arg.extension().is_some_and(|e| e == "toml") {
        let t = load_tournament(arg).map_err(CliError::input)?;
        Ok(t.database)
    } else {
        Ok(arg.to_path_buf())
    }
}

/// Loads the snapshot of the database a `FILE|DB` argument designates, and its path. The
/// database is opened read-only: never migrated, never written.
pub async fn load_snapshot(arg: &Path) -> Result<(crate::report::Snapshot, PathBuf), CliError> {
    let db = database_of(arg)?;
    let snap = async {
        let store = crate::store::Store::open_read_only(&db).await?;
        let snap = crate::report::Snapshot::load(&store).await;
        store.close().await;
        snap
    }
    .await
    .map_err(CliError::input)?;
    Ok((snap, db))
}

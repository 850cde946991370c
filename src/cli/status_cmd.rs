//! `lrs-tourney status FILE|DB`: what is planned, running and done.

use super::{CliError, target};
use crate::report::{Snapshot, status_text};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The tournament file (.toml) or its database.
    target: PathBuf,
    /// List every set, also of finished stages in big tournaments.
    #[arg(long)]
    all: bool,
}

pub fn run(args: StatusArgs) -> Result<(), CliError> {
    let db = target::database_of(&args.target)?;
    let rt = target::runtime()?;
    let snap = rt
        .block_on(async {
            let store = crate::store::Store::open_existing(&db).await?;
            let snap = Snapshot::load(&store).await;
            store.close().await;
            snap
        })
        .map_err(CliError::input)?;
    print!(
        "{}",
        status_text(&snap, &db.display().to_string(), args.all)
    );
    Ok(())
}

//! `lrs-tourney status FILE|DB`: what is planned, running and done.

use super::{CliError, target};
use crate::report::status_text;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// List every set, also of finished stages in big tournaments.
    #[arg(long)]
    all: bool,
    /// The same as one JSON object (every set listed).
    #[arg(long)]
    json: bool,
}

pub async fn run(args: StatusArgs) -> Result<(), CliError> {
    let (snap, db) = target::load_snapshot(&args.target, &args.db, target::Reading::Counts).await?;
    let live = crate::store::RunLock::is_held(&db).await;
    let work = crate::report::WorkStatus::load(&db)
        .await
        .map_err(CliError::failure)?;
    if args.json {
        let mut value = crate::report::status_json(&snap, live);
        if let (Some(work), Some(object)) = (crate::report::work_json(&work), value.as_object_mut())
        {
            object.insert("work".to_string(), work);
        }
        let text = serde_json::to_string_pretty(&value).map_err(CliError::failure)?;
        println!("{text}");
        return Ok(());
    }
    print!("{}", status_text(&snap, &db.to_string(), args.all, live));
    print!("{}", crate::report::work_text(&snap, &work));
    Ok(())
}

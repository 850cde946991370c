//! `lrs-tourney check FILE`: validate a tournament file without running anything.

use super::CliError;
use crate::tourney::config::{check_summary, load_tournament};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The tournament file (.toml).
    file: PathBuf,
}

pub fn run(args: CheckArgs) -> Result<(), CliError> {
    let t = load_tournament(&args.file).map_err(CliError::input)?;
    print!("{}", check_summary(&t));
    let external = t
        .teams
        .iter()
        .any(|team| matches!(team.bot, crate::tourney::model::Bot::Command { .. }));
    if external {
        let protections = crate::bots::sandbox::Sandbox::default().protections();
        println!("bot sandbox on this machine:\n{}", protections.summary());
    }
    println!("ok: {} is valid", args.file.display());
    Ok(())
}

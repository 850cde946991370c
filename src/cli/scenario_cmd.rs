//! `lrs-tourney scenario FILE [--json]`: run a rules scenario.

use super::CliError;
use crate::games::run_scenario_file;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// The scenario .toml file.
    file: PathBuf,
    /// Print the outcome as one JSON object (the format tests compare).
    #[arg(long)]
    json: bool,
}

pub fn run(args: ScenarioArgs) -> Result<(), CliError> {
    let outcome = run_scenario_file(&args.file).map_err(CliError::input)?;
    let text = if args.json {
        serde_json::to_string(&outcome)
    } else {
        serde_json::to_string_pretty(&outcome)
    }
    .map_err(CliError::failure)?;
    println!("{text}");
    Ok(())
}

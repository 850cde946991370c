//! Defines rules scenarios (scenario.md): a TOML file that places robots on a small grid and
//! plays chosen cards turn by turn, and the JSON outcome the rules tests compare.
//!
//! Scenarios bypass the deck so that any rule can be checked exactly. The pipeline is
//! parse (TOML with spans -> a checked [`Scenario`], every problem located at
//! `file:line:column`), run (the engine, answering its re-entry questions) and output (JSON).

mod error;
mod layout;
mod model;
mod output;
mod parse;
mod robots;
mod run;
mod script;
mod source;

pub use error::{Problem, ScenarioError};
pub use model::{ReentryChoice, Scenario};
pub use parse::parse_scenario;
pub use run::{Outcome, run};

use std::path::Path;

/// Reads, checks and runs the scenario file at `path`, returning the scenario.md JSON object.
/// A `board = "..."` path is taken relative to the file's directory.
pub fn run_scenario_file(path: &Path) -> Result<serde_json::Value, ScenarioError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Read {
        file: file.clone(),
        reason: e.to_string(),
    })?;
    let base_dir = path.parent().unwrap_or(Path::new("."));
    run_scenario_str(&text, &file, base_dir)
}

/// Checks and runs scenario `text`; `file` names it in messages and `base_dir` is where
/// `board = "..."` paths start.
pub fn run_scenario_str(
    text: &str,
    file: &str,
    base_dir: &Path,
) -> Result<serde_json::Value, ScenarioError> {
    let scenario = parse_scenario(text, file, base_dir)?;
    Ok(run(&scenario)?.to_json())
}

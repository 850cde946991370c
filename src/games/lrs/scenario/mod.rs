//! Defines rules scenarios (docs/scenarios.md): a TOML file that places robots on a small grid and
//! plays chosen cards turn by turn, and the JSON outcome the rules tests compare.
//!
//! Scenarios bypass the deck so that any rule can be checked exactly. The pipeline is
//! parse (TOML with spans -> a checked [`Scenario`], every problem located at
//! `file:line:column`), run (the engine, answering its re-entry questions) and output (JSON).
//! `crate::games::run_scenario_file` picks the game of a file by its `game` key; a file
//! with none, or `game = "lrs"`, comes here.

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

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_ROBOTS: &str = r#"
grid = ". . ."
seed = 7

[[robot]]
name = "A"
x = 0
y = 0
facing = "E"

[[robot]]
name = "B"
x = 2
y = 0
facing = "N"

[[turn]]
A = "F1@100"
"#;

    #[test]
    fn runs_a_scenario_from_text() {
        let out = run_scenario_str(TWO_ROBOTS, "t.toml", Path::new("."));
        let out = out.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out["turns_played"], 1);
        assert_eq!(out["robots"][0]["x"], 1);
        assert_eq!(out["events"][0]["kind"], "hit");
        assert_eq!(out["events"][0]["victim"], "B");
    }

    #[test]
    fn the_seed_is_read_and_defaults_to_zero() {
        let s = parse_scenario(TWO_ROBOTS, "t.toml", Path::new("."));
        assert_eq!(s.map(|s| s.seed).ok(), Some(7));
        let text = TWO_ROBOTS.replace("seed = 7\n", "");
        let s = parse_scenario(&text, "t.toml", Path::new("."));
        assert_eq!(s.map(|s| s.seed).ok(), Some(0));
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text = TWO_ROBOTS.replace("\"F1@100\"", "\"F1@x\"");
        let err = run_scenario_str(&text, "t.toml", Path::new(".")).err();
        let err = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(err.starts_with("t.toml:18:5: bad card \"F1@x\""), "{err}");
    }
}

//! Data-driven rules tests: every `tests/scenarios/**/X.toml` is run and its JSON outcome
//! compared with `X.json`; every `tests/scenarios/invalid/X.toml` must be rejected with an
//! error message containing the text of `X.err`.
//!
//! The expected files are written by hand from rules.md, never generated from the engine:
//! a mismatch means either the engine or the reasoning is wrong, and the report (file name,
//! each differing path, both values in full) is meant to make deciding which quick.
//! Board files that scenarios load with `board = "..."` are named `*.board.toml` and skipped.
//! RobotGame scenarios (`tests/scenarios/robotgame/`) are tests/robotgame_scenarios.rs's, and
//! Robots scenarios (`tests/scenarios/robots/`) tests/robots_scenarios.rs's, and RoboRally
//! scenarios (`tests/scenarios/roborally/`) tests/roborally_scenarios.rs's.
//! Set `SCENARIO=part_of_a_name` to run only the matching files.

use lrs_tourney::games::run_scenario_file;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

/// Every `.toml` file under `dir`, sorted, filtered by `$SCENARIO`.
fn toml_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("robotgame")
                    && !path.ends_with("robots")
                    && !path.ends_with("roborally")
                {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "toml")
                && !path.to_string_lossy().ends_with(".board.toml")
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    let filter = std::env::var("SCENARIO").unwrap_or_default();
    out.retain(|p| p.to_string_lossy().contains(&filter));
    out
}

fn is_invalid_case(path: &Path) -> bool {
    path.strip_prefix(root())
        .is_ok_and(|rel| rel.starts_with("invalid"))
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// Lists every difference between `expected` and `actual` as `path: expected X, got Y`.
fn diff(path: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => diff(&p, ev, av, out),
                    None => out.push(format!("{p}: expected {ev}, missing")),
                }
            }
            for (k, av) in a {
                if !e.contains_key(k) {
                    out.push(format!("{path}.{k}: not expected, got {av}"));
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                diff(&format!("{path}[{i}]"), ev, av, out);
            }
            for (i, ev) in e.iter().enumerate().skip(a.len()) {
                out.push(format!("{path}[{i}]: expected {ev}, missing"));
            }
            for (i, av) in a.iter().enumerate().skip(e.len()) {
                out.push(format!("{path}[{i}]: not expected, got {av}"));
            }
        }
        _ if expected != actual => out.push(format!("{path}: expected {expected}, got {actual}")),
        _ => {}
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

/// Runs one valid scenario; `Err` holds a readable report.
fn check(toml: &Path) -> Result<(), String> {
    let name = relative(toml);
    let json = toml.with_extension("json");
    let actual = run_scenario_file(toml).map_err(|e| format!("{name}: unexpected error: {e}"))?;
    let text = std::fs::read_to_string(&json).map_err(|e| {
        format!(
            "{name}: cannot read the expected outcome {}: {e}\nactual outcome (check it against \
             rules.md before using it):\n{}",
            json.display(),
            pretty(&actual)
        )
    })?;
    let expected: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: invalid JSON: {e}", relative(&json)))?;
    let mut differences = Vec::new();
    diff("$", &expected, &actual, &mut differences);
    if differences.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{name}: the outcome differs from {}\n  {}\n--- expected\n{}\n--- actual\n{}",
        relative(&json),
        differences.join("\n  "),
        pretty(&expected),
        pretty(&actual)
    ))
}

/// Runs one invalid scenario; it must fail with a message containing its `.err` text.
fn check_invalid(toml: &Path) -> Result<(), String> {
    let name = relative(toml);
    let err_file = toml.with_extension("err");
    let wanted = std::fs::read_to_string(&err_file)
        .map_err(|e| format!("{name}: cannot read {}: {e}", err_file.display()))?;
    let wanted = wanted.trim();
    match run_scenario_file(toml) {
        Ok(v) => Err(format!(
            "{name}: expected an error containing {wanted:?}, but it ran:\n{}",
            pretty(&v)
        )),
        Err(e) if e.to_string().contains(wanted) => Ok(()),
        Err(e) => Err(format!(
            "{name}: the error does not contain {wanted:?}:\n  {e}"
        )),
    }
}

fn report(results: Vec<Result<(), String>>, what: &str) {
    let total = results.len();
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(
        failures.is_empty(),
        "{} of {total} {what} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn rule_scenarios_match_their_expected_outcomes() {
    let files: Vec<PathBuf> = toml_files(&root())
        .into_iter()
        .filter(|p| !is_invalid_case(p))
        .collect();
    if std::env::var("SCENARIO").is_err() {
        assert!(files.len() >= 45, "only {} scenarios found", files.len());
    }
    report(files.iter().map(|p| check(p)).collect(), "scenarios");
}

#[test]
fn invalid_scenarios_are_rejected_with_located_errors() {
    let files = toml_files(&root().join("invalid"));
    if std::env::var("SCENARIO").is_err() {
        assert!(!files.is_empty(), "no invalid scenarios found");
    }
    report(
        files.iter().map(|p| check_invalid(p)).collect(),
        "invalid scenarios",
    );
}

//! The data-driven scenario suite of every game: every `tests/scenarios/GAME/**/X.toml`
//! (outside `invalid/`; board files a scenario loads are named `*.board.toml` and skipped) is
//! run through `lrs_tourney::games::run_scenario_file`
//! (what `lrs-tourney scenario X.toml --json` runs) and its JSON compared with `X.json`;
//! every `tests/scenarios/GAME/invalid/X.toml` must be rejected with an error containing the
//! text of `X.err`. Set `SCENARIO=part_of_a_name` to run only the matching files.

#![allow(dead_code)]

use lrs_tourney::games::run_scenario_file;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs the valid (`invalid = false`) or invalid scenarios of `game` (its folder under
/// `tests/scenarios`), expecting at least `at_least` files unless `SCENARIO` filters them.
pub fn run_suite(game: &str, title: &str, invalid: bool, at_least: usize) {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/scenarios")
        .join(game);
    if invalid {
        dir = dir.join("invalid");
    }
    let files = toml_files(&dir);
    if std::env::var("SCENARIO").is_err() {
        assert!(
            files.len() >= at_least,
            "only {} scenarios found in {}",
            files.len(),
            dir.display()
        );
    }
    let expected = if invalid { "err" } else { "json" };
    let results = files
        .iter()
        .map(|p| check(p, &p.with_extension(expected)))
        .collect();
    let what = if invalid {
        format!("invalid {title} scenarios")
    } else {
        format!("{title} scenarios")
    };
    report(results, &what);
}

/// The scenario files under `dir` (in its subfolders too, but `invalid/`), sorted, filtered
/// by `$SCENARIO`.
fn toml_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                if !path.ends_with("invalid") {
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

fn name(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    path.strip_prefix(root)
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

/// Runs `input` and compares its outcome with the JSON file `expect`, or, when `expect` is
/// an `.err` file, checks that `input` is rejected with a message containing its text.
/// `Err` holds a readable report.
fn check(input: &Path, expect: &Path) -> Result<(), String> {
    let name = name(input);
    let wanted = std::fs::read_to_string(expect)
        .map_err(|e| format!("{name}: cannot read {}: {e}", expect.display()));
    let outcome = run_scenario_file(input);
    if expect.extension().is_some_and(|e| e == "err") {
        let wanted = wanted?;
        let wanted = wanted.trim();
        return match outcome {
            Ok(v) => Err(format!(
                "{name}: expected an error containing {wanted:?}, but it ran:\n{}",
                pretty(&v)
            )),
            Err(e) if e.to_string().contains(wanted) => Ok(()),
            Err(e) => Err(format!(
                "{name}: the error does not contain {wanted:?}:\n  {e}"
            )),
        };
    }
    let actual = outcome.map_err(|e| format!("{name}: unexpected error: {e}"))?;
    let text = wanted.map_err(|e| format!("{e}\nactual outcome:\n{}", pretty(&actual)))?;
    let expected: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: invalid JSON: {e}", name))?;
    let mut differences = Vec::new();
    diff("$", &expected, &actual, &mut differences);
    if differences.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{name}: the outcome differs from {}\n  {}\n--- expected\n{}\n--- actual\n{}",
        expect.display(),
        differences.join("\n  "),
        pretty(&expected),
        pretty(&actual)
    ))
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

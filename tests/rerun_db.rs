//! Reruns on real SQLite files through the real binary: cascades that must reach every set
//! they change, progress figures, and reruns given only the database.

mod common;

use common::{lrs, repo};
use lrs_tourney::runner::check_store;
use lrs_tourney::tourney::config::load_tournament;
use std::path::{Path, PathBuf};

/// Copies a shipped example config (and its roster) into `dir`.
fn copy_example(dir: &Path, name: &str) -> PathBuf {
    for entry in std::fs::read_dir(repo().join("configs")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.starts_with(name) && (file.ends_with(".toml") || file.ends_with(".csv")) {
            std::fs::copy(&path, dir.join(&file)).unwrap();
        }
    }
    let target = dir.join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&target).unwrap();
    let fixed = text.replace("../brackets/", &format!("{}/brackets/", repo().display()));
    std::fs::write(&target, fixed).unwrap();
    target
}

/// Runs the binary, expecting `code`; returns (stdout, stderr).
#[track_caller]
fn expect(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let out = lrs(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "args {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// The stored tournament is what the bracket gives for its stored results, and complete.
#[track_caller]
fn assert_consistent(file: &Path) {
    let t = load_tournament(file).unwrap();
    let c = check_store(&t).unwrap();
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    assert!(c.complete, "the tournament is not complete");
}

/// A rerun of a school set whose teams advance unchanged but in another order: the school
/// final is dealt the same teams in other positions, its replay sends other qualifiers to
/// the nationals, so every nationals set must be invalidated with it (they were not: the
/// next `run` then stopped on `nationals/r1/s1`).
#[test]
fn a_cascade_from_a_school_set_reaches_the_nationals_it_changes() {
    let t = tempfile::tempdir().unwrap();
    let file = copy_example(t.path(), "nationals");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    assert_consistent(&file);
    let set = "northgate-technical-institute/r1/s2";
    let (_, err) = expect(
        t.path(),
        &["rerun", f, set, "--reason", "x", "--reseed", "--quiet"],
        1,
    );
    for id in [
        "northgate-technical-institute/final",
        "nationals/r1/s1",
        "nationals/final",
    ] {
        assert!(err.contains(id), "{err}");
    }
    assert_consistent(&file);
    let (out, _) = expect(
        t.path(),
        &[
            "rerun",
            f,
            set,
            "--reason",
            "x",
            "--reseed",
            "--cascade",
            "--quiet",
        ],
        0,
    );
    assert!(out.contains("nationals/r1/s1"), "{out}");
    assert_consistent(&file);
    let (out, _) = expect(t.path(), &["run", f, "--quiet"], 0);
    assert!(out.contains("champion:"), "{out}");
}

/// The last progress line of a rerun that replays later sets never passes 100%.
#[test]
fn rerun_progress_counts_the_bracket_once() {
    let t = tempfile::tempdir().unwrap();
    let file = copy_example(t.path(), "school");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    let (_, err) = expect(
        t.path(),
        &[
            "rerun",
            f,
            "westfield-high/r1/s1",
            "--reason",
            "x",
            "--reseed",
            "--cascade",
        ],
        0,
    );
    let last = err
        .lines()
        .rfind(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line in {err}"));
    assert!(
        last.starts_with("progress: 40/40 games (100%)"),
        "{last}\n{err}"
    );
    assert_consistent(&file);
}

//! The shipped demos give exactly the games they gave before: each of `configs/` is run
//! from a copy, and its standings, games and sets exports and the replays of its decisive
//! final are compared byte for byte with `tests/fixtures/demos/` (the replays by SHA-256).
//! A change that alters any game, score, ranking or export shows here.
//!
//! When a change is meant to alter them (a rules change with a new engine version, a new
//! export column), rewrite the fixtures with `LRS_TOURNEY_BLESS=1 cargo test --test
//! demos_golden` and review the diff.

mod common;

use common::{ok, repo};
use sha2::Digest;
use std::path::Path;

/// A copy of the repository's configs, brackets and bot kits (paths in the files are
/// relative), without any database a local run left.
fn demo_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for folder in ["configs", "brackets", "examples"] {
        copy_tree(&repo().join(folder), &dir.path().join(folder));
    }
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let path = entry.path();
        if path.is_dir() {
            if name != "__pycache__" {
                copy_tree(&path, &to.join(&name));
            }
        } else if !name.to_string_lossy().contains(".sqlite") {
            std::fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// The decisive final's set id, from `status`: the nationals' final, or the school's.
fn decisive_final(dir: &Path, file: &str) -> String {
    let status = ok(dir, &["status", file]);
    let finals: Vec<&str> = status
        .split_whitespace()
        .filter(|w| w.ends_with("/final"))
        .collect();
    finals
        .iter()
        .find(|f| f.starts_with("nationals/"))
        .or(finals.first())
        .unwrap_or_else(|| panic!("no final in:\n{status}"))
        .to_string()
}

/// Compares `got` with the fixture `name` of `demo`, or writes it when blessing.
fn check(demo: &str, name: &str, got: &str) -> Option<String> {
    let path = repo().join("tests/fixtures/demos").join(demo).join(name);
    if std::env::var_os("LRS_TOURNEY_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return None;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (bless to create it)", path.display()));
    (want != got).then(|| format!("{demo}/{name} differs"))
}

fn run_demo(demo: &str) -> Vec<String> {
    let dir = demo_dir();
    let file = format!("configs/{demo}.toml");
    ok(dir.path(), &["run", &file, "--quiet"]);
    let mut differences = Vec::new();
    for what in ["standings", "games", "sets"] {
        let csv = ok(dir.path(), &["export", what, &file, "--out", "-"]);
        differences.extend(check(demo, &format!("{what}.csv"), &csv));
    }
    let last = decisive_final(dir.path(), &file);
    let mut hashes = String::new();
    for game in 0..10 {
        let game = game.to_string();
        let json = ok(dir.path(), &["replay", &file, &last, &game, "--json"]);
        let digest: String = sha2::Sha256::digest(json.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        hashes += &format!("{digest} {last} {game}\n");
    }
    differences.extend(check(demo, "replays.sha256", &hashes));
    differences
}

#[test]
fn the_school_demo_plays_the_same_games() {
    assert_eq!(run_demo("school"), Vec::<String>::new());
}

#[test]
fn the_nationals_demo_plays_the_same_games() {
    assert_eq!(run_demo("nationals"), Vec::<String>::new());
}

#[test]
fn the_robotgame_demo_plays_the_same_games() {
    assert_eq!(run_demo("robotgame-school"), Vec::<String>::new());
}

#[test]
fn the_robots_demo_plays_the_same_games() {
    assert_eq!(run_demo("robots-school"), Vec::<String>::new());
}

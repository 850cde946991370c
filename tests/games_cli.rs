//! `lrs-tourney games` and `play --game robotgame`: the games are listed with their AIs,
//! RobotGame series of built-in AIs give the same totals whatever `--jobs` is, and what
//! does not apply to RobotGame is refused by name.

mod common;

use common::{lrs, ok};
use serde_json::Value;

#[test]
fn games_lists_every_game_with_its_seats_and_ais() {
    let dir = tempfile::tempdir().unwrap();
    let games: Value = serde_json::from_str(&ok(dir.path(), &["games", "--json"])).unwrap();
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["lrs", "robotgame"]);
    assert_eq!(games[1]["seats"], serde_json::json!([2, 8]));
    assert_eq!(
        games[1]["builtin_ais"],
        serde_json::json!(["builtin:random", "builtin:hunter"])
    );
    let text = ok(dir.path(), &["games"]);
    assert!(text.contains("corridor-dash"), "{text}");
}

#[test]
fn a_robotgame_series_is_the_same_whatever_the_jobs_and_hunter_wins() {
    let dir = tempfile::tempdir().unwrap();
    let run = |jobs: &str| -> Value {
        serde_json::from_str(&ok(
            dir.path(),
            &[
                "play",
                "--game",
                "robotgame",
                "--bot",
                "builtin:hunter",
                "--bot",
                "builtin:random",
                "--games",
                "8",
                "--seed",
                "3",
                "--json",
                "--jobs",
                jobs,
            ],
        ))
        .unwrap()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let bots = one["bots"].as_array().unwrap();
    assert_eq!(bots[0]["games"], 8);
    assert!(
        bots[0]["wins"].as_u64().unwrap() >= 7,
        "hunter should beat random: {one}"
    );
    assert!(bots[0]["mean_score"].as_f64().unwrap() > bots[1]["mean_score"].as_f64().unwrap());
}

#[test]
fn what_does_not_apply_to_robotgame_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, says) in [
        (
            &["--board", "gear-works"][..],
            "--board does not apply to robotgame",
        ),
        (
            &["--turns", "10"][..],
            "--turns does not apply to robotgame",
        ),
        (&["--bot", "builtin:runner"][..], "--bot builtin:runner"),
        (
            &["--bot", "jsonl:python3 bot.py"][..],
            "built-in AIs so far",
        ),
    ] {
        let mut args = vec!["play", "--game", "robotgame", "--bot", "builtin:random"];
        args.extend_from_slice(extra);
        if !extra.contains(&"--bot") {
            args.extend_from_slice(&["--bot", "builtin:random"]);
        }
        let out = lrs(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let out = lrs(
        dir.path(),
        &["play", "--game", "chess", "--bot", "builtin:random"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the games are: lrs, robotgame"));
}

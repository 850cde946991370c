//! `lrs-tourney replay`: every stored game rebuilt from its seed and decisions alone ends
//! with the stored scores, turn by turn in `--json`; a decision log or a result line that
//! was changed afterwards is reported loudly (exit 1), never replayed as if it were right.

mod common;

use common::{lrs, ok, sql};
use serde_json::Value;

const BRACKET: &str = "name = \"Quick\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 25\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\", \"sinkhole-steps\"]\n";

fn tournament() -> String {
    let mut text =
        "name = \"Replay Cup\"\nseed = 5\nbracket = \"quick.toml\"\n[[school]]\nname = \"North\"\n"
            .to_string();
    for i in 0..6 {
        let ai = ["runner", "hunter", "random"][i % 3];
        text += &format!("  [[school.team]]\n  name = \"North {i}\"\n  bot = \"builtin:{ai}\"\n");
    }
    text
}

/// `(set, game, turns)` of every game, from `export games`.
fn games(dir: &std::path::Path) -> Vec<(String, u32, u32)> {
    let csv = ok(dir, &["export", "games", "cup.toml", "--out", "-"]);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (set, game, turns) = (col("set"), col("game"), col("turns"));
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .map(|c| {
            (
                c[set].to_string(),
                c[game].parse().unwrap(),
                c[turns].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_stored_game_replays_to_its_stored_scores_and_changes_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("quick.toml"), BRACKET).unwrap();
    std::fs::write(dir.path().join("cup.toml"), tournament()).unwrap();
    ok(dir.path(), &["run", "cup.toml", "--quiet"]);
    let all = games(dir.path());
    assert!(all.len() >= 2, "{all:?}");
    for (set, game, turns) in &all {
        let out = ok(
            dir.path(),
            &["replay", "cup.sqlite", set, &game.to_string(), "--json"],
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        let steps = v["replay"]["steps"].as_array().unwrap();
        assert_eq!(steps.len() as u32, *turns, "{set} game {game}");
        // The last step's robots hold the final scores, which are the seats' scores.
        let last = &steps.last().unwrap()["robots"];
        for seat in v["seats"].as_array().unwrap() {
            let s = seat["seat"].as_u64().unwrap() as usize;
            assert_eq!(
                last[s]["score"], seat["score"],
                "{set} game {game} seat {s}"
            );
        }
        assert!(v["stored_bytes"].as_u64().unwrap() > 0);
        assert!(v["full_state_bytes"].as_u64().unwrap() > 50 * v["stored_bytes"].as_u64().unwrap());
    }
    let (set, game, _) = &all[0];
    let text = ok(dir.path(), &["replay", "cup.toml", set, &game.to_string()]);
    assert!(
        text.contains("the scores match the stored results"),
        "{text}"
    );

    // A result line changed after the game: the replay says so and fails.
    let db = dir.path().join("cup.sqlite");
    sql(
        &db,
        &format!(
            "UPDATE game_results SET score = score + 1 WHERE seat = 0 AND game_no = \
             (SELECT no FROM games WHERE set_id = '{set}' AND game_index = {game} AND superseded = 0)"
        ),
    );
    let out = lrs(
        dir.path(),
        &["replay", "cup.sqlite", set, &game.to_string()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("REPLAY DIFFERS FROM THE STORED GAME"),
        "{stderr}"
    );
    assert!(stderr.contains("seat 0: stored"), "{stderr}");

    // A decision log cut short: it no longer fits the game.
    let (set, game, _) = &all[1];
    sql(
        &db,
        &format!(
            "UPDATE games SET decisions = substr(decisions, 1, length(decisions) - 1) \
             WHERE set_id = '{set}' AND game_index = {game} AND superseded = 0"
        ),
    );
    let out = lrs(
        dir.path(),
        &["replay", "cup.sqlite", set, &game.to_string()],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("does not fit the game"), "{stderr}");

    // A game that does not exist is bad input.
    let out = lrs(dir.path(), &["replay", "cup.sqlite", "north/final", "99"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `play --replay DIR`: one replay per game, whose final scores add up to what `play`
/// reports for each bot (a JSON-lines bot included).
#[test]
fn play_writes_a_replay_of_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let kit = common::repo().join("examples/bots/python");
    let out = ok(
        dir.path(),
        &[
            "play",
            "--board",
            "gear-works",
            "--games",
            "3",
            "--turns",
            "15",
            "--json",
            "--replay",
            "replays",
            "--bot-dir",
            kit.to_str().unwrap(),
            "--bot",
            "jsonl:python3 bot.py",
            "--bot",
            "builtin:runner",
            "--bot",
            "builtin:hunter",
        ],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let mut totals = std::collections::HashMap::new();
    for g in 0..3 {
        let path = dir.path().join(format!("replays/game-{g}.json"));
        let r: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(r["game"], g);
        assert_eq!(
            r["seed"],
            1 + g,
            "game g plays seed S+g (S is 1 by default)"
        );
        let steps = r["replay"]["steps"].as_array().unwrap();
        assert!(!steps.is_empty() && steps.len() <= 15);
        for seat in r["seats"].as_array().unwrap() {
            *totals
                .entry(seat["team"].as_str().unwrap().to_string())
                .or_insert(0) += seat["score"].as_i64().unwrap();
        }
    }
    for bot in v["bots"].as_array().unwrap() {
        let name = bot["bot"].as_str().unwrap();
        assert_eq!(
            Some(&bot["total_score"].as_i64().unwrap()),
            totals.get(name),
            "{name}"
        );
    }
}

#[test]
fn a_game_a_rerun_replaced_can_still_be_replayed_by_its_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("quick.toml"), BRACKET).unwrap();
    std::fs::write(dir.path().join("cup.toml"), tournament()).unwrap();
    ok(dir.path(), &["run", "cup.toml", "--quiet"]);
    let set = "north/final";
    let before = ok(dir.path(), &["replay", "cup.toml", set, "1"]);
    ok(
        dir.path(),
        &[
            "rerun", "cup.toml", set, "--reseed", "--reason", "dispute", "--quiet",
        ],
    );
    // Run 0 is the replaced series, run 1 the new one; GAME alone is the current run.
    let old = ok(dir.path(), &["replay", "cup.toml", set, "0", "1"]);
    let new = ok(dir.path(), &["replay", "cup.toml", set, "1", "1"]);
    let current = ok(dir.path(), &["replay", "cup.toml", set, "1"]);
    assert_eq!(old, before);
    assert_eq!(new, current);
    assert_ne!(old, new, "--reseed plays other games");
    for text in [&old, &new] {
        assert!(
            text.contains("the scores match the stored results"),
            "{text}"
        );
    }
    let out = lrs(dir.path(), &["replay", "cup.toml", set, "7", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(run 7)"));
}

//! The binary as a user runs it: `boards`, `play` and `scenario`.

mod common;

use common::Test;
use serde_json::Value;

#[test]
fn boards_lists_every_shipped_board() {
    let out = Test::new().args(&["boards"]).run();
    for name in [
        "Corridor Dash",
        "Gear Works",
        "Sinkhole Steps",
        "Foundry Loop",
    ] {
        assert!(out.contains(name), "{name} missing from:\n{out}");
    }
    assert!(out.contains("16x16"));
}

#[test]
fn boards_show_prints_grid_and_legend() {
    Test::new()
        .args(&["boards", "show", "gear-works"])
        .stdout_has("Gear Works - 12x12")
        .stdout_has("Legend:")
        .stdout_has("S8")
        .run();
}

#[test]
fn boards_show_unknown_board_is_an_input_error() {
    Test::new()
        .args(&["boards", "show", "no-such-board"])
        .status(2)
        .stderr_has("no-such-board")
        .run();
}

fn play_json(extra: &[&str]) -> Value {
    play_json_seed("7", extra)
}

fn play_json_seed(seed: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "play",
        "--board",
        "corridor-dash",
        "--bot",
        "builtin:runner",
        "--bot",
        "builtin:hunter",
        "--bot",
        "builtin:random",
        "--games",
        "12",
        "--seed",
        seed,
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = Test::new().args(&args).run();
    serde_json::from_str(&out).expect("play --json prints JSON")
}

#[test]
fn play_json_has_one_entry_per_bot_in_order() {
    let v = play_json(&[]);
    assert_eq!(v["games"], 12);
    let bots = v["bots"].as_array().unwrap();
    let names: Vec<_> = bots.iter().map(|b| b["bot"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["builtin:runner", "builtin:hunter", "builtin:random"]
    );
    for b in bots {
        for key in [
            "mean_score",
            "total_score",
            "flags",
            "hits",
            "pushes",
            "push_kills",
            "deaths",
            "wins",
            "faults",
        ] {
            assert!(b.get(key).is_some(), "missing {key} in {b}");
        }
        let total = b["total_score"].as_f64().unwrap();
        assert!((b["mean_score"].as_f64().unwrap() - total / 12.0).abs() < 1e-9);
        assert_eq!(b["faults"], 0);
    }
    // Every game has at least one winner.
    let wins: u64 = bots.iter().map(|b| b["wins"].as_u64().unwrap()).sum();
    assert!(wins >= 12);
}

#[test]
fn play_results_do_not_depend_on_jobs() {
    assert_eq!(play_json(&["--jobs", "1"]), play_json(&["--jobs", "3"]));
}

/// The same games on one thread and on four: every bot's totals (score, wins, each
/// statistic, faults) are the same, bot by bot.
#[test]
fn play_totals_are_the_same_on_one_and_four_threads() {
    let (one, four) = (play_json(&["--jobs", "1"]), play_json(&["--jobs", "4"]));
    assert_eq!(one["bots"], four["bots"]);
    assert_eq!(one["bots"].as_array().unwrap().len(), 3);
    assert!(one["bots"][0]["total_score"].as_i64().unwrap() > 0, "{one}");
    assert_eq!(one["external"], serde_json::json!([]), "{one}");
}

#[test]
fn play_with_other_seed_plays_other_games() {
    let a = play_json(&[]);
    let b = play_json_seed("8", &[]);
    assert_ne!(a, b);
}

#[test]
fn play_table_names_each_bot() {
    Test::new()
        .args(&[
            "play",
            "--board",
            "sinkhole-steps",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:runner",
            "--games",
            "3",
        ])
        .stdout_has("3 game(s) of lrs on Sinkhole Steps")
        .stdout_has("builtin:random")
        .stdout_has("builtin:runner")
        .stdout_has("push_kills")
        .run();
}

#[test]
fn play_rejects_unknown_builtin() {
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "builtin:nope",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("unknown built-in AI \"nope\"")
        .stderr_has("runner")
        .run();
}

#[test]
fn play_needs_two_bots() {
    Test::new()
        .args(&["play", "--board", "gear-works", "--bot", "builtin:random"])
        .status(2)
        .stderr_has("2 to 8 bots")
        .run();
}

#[test]
fn play_rejects_more_bots_than_starts() {
    let mut args = vec!["play", "--board", "gear-works"];
    for _ in 0..9 {
        args.extend_from_slice(&["--bot", "builtin:random"]);
    }
    Test::new().args(&args).status(2).stderr_has("got 9").run();
}

#[test]
fn play_accepts_a_board_file_path() {
    let board = "name = \"Tiny\"\ngrid = \"\"\"\nS1 . . F1\n. P . .\nS2 . cE .\n\"\"\"\n";
    let out = Test::new()
        .file("tiny.toml", board)
        .args(&[
            "play",
            "--board",
            "tiny.toml",
            "--bot",
            "builtin:runner",
            "--bot",
            "builtin:runner",
            "--games",
            "4",
            "--json",
        ])
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["arena"], "Tiny");
}

#[test]
fn play_reports_bad_board_file_with_location() {
    Test::new()
        .file(
            "bad.toml",
            "name = \"Bad\"\ngrid = \"\"\"\nS1 . F1\nS2 cQ .\n\"\"\"\n",
        )
        .args(&[
            "play",
            "--board",
            "bad.toml",
            "--bot",
            "builtin:random",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("bad.toml:4:4")
        .stderr_has("cQ")
        .run();
}

#[test]
fn scenario_json_reports_the_outcome() {
    let scenario = r#"
grid = """
S1 .  .  .
S2 .  cE cE
"""

[[robot]]
name = "A"
x = 0
y = 0
facing = "E"

[[robot]]
name = "B"
x = 1
y = 0
facing = "S"

[[turn]]
A = "F2@500"
"#;
    let out = Test::new()
        .file("push.toml", scenario)
        .args(&["scenario", "push.toml", "--json"])
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["turns_played"], 1);
    assert_eq!(v["robots"][0]["x"], 2);
    // A pushed B twice along row 0 (one push event), then A, facing east at (2,0), shot
    // B standing right in front of it at (3,0).
    assert_eq!(v["robots"][1]["x"], 3);
    assert_eq!(v["events"][0]["kind"], "push");
    assert_eq!(v["events"][0]["points"], 2);
    assert_eq!(v["events"][1]["kind"], "hit");
    assert_eq!(v["robots"][0]["score"], 3);
}

#[test]
fn scenario_with_bad_card_is_an_input_error() {
    let scenario = "grid = \"\"\"\nS1 . .\n\"\"\"\n[[robot]]\nname = \"A\"\nx = 0\ny = 0\nfacing = \"E\"\n[[turn]]\nA = \"F9@10\"\n";
    Test::new()
        .file("bad.toml", scenario)
        .args(&["scenario", "bad.toml", "--json"])
        .status(2)
        .stderr_has("bad.toml:10")
        .run();
}

#[test]
fn scenario_with_game_robotgame_runs_robotgame() {
    let scenario = "game = \"robotgame\"\nspawn = false\nattack_damage = 9\n\
                    [[robot]]\nseat = 0\nx = 9\ny = 9\n[[robot]]\nseat = 1\nx = 10\ny = 9\n\
                    [[turn]]\n0 = \"attack 10 9\"\n1 = \"guard\"\n";
    let out = Test::new()
        .file("rg.toml", scenario)
        .args(&["scenario", "rg.toml", "--json"])
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "robotgame");
    assert_eq!(v["robots"][1]["hp"], 46);
    assert_eq!(v["scores"][0]["damage_dealt"], 4);
}

#[test]
fn scenario_with_game_robots_runs_robots() {
    let scenario = "game = \"robots\"\nwidth = 10\nheight = 10\nplayer = [5, 5]\n\
                    robots = [[2, 4], [2, 6]]\nturns = [[\"P\"]]\n";
    let out = Test::new()
        .file("rb.toml", scenario)
        .args(&["scenario", "rb.toml", "--json"])
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["game"], "robots");
    assert_eq!(v["kills"], 2);
    assert_eq!(v["heaps"], serde_json::json!([[3, 5]]));
}

#[test]
fn an_invalid_robots_scenario_is_a_located_input_error() {
    Test::new()
        .file("rb.toml", "game = \"robots\"\nwidth = 8\nheight = 8\nplayer = [1, 1]\nrobots = [[3, 3]]\nturns = [[\"X\"]]\n")
        .args(&["scenario", "rb.toml", "--json"])
        .status(2)
        .stderr_has("rb.toml:6:11: bad move \"X\"")
        .run();
}

#[test]
fn scenario_with_game_lrs_is_an_lrs_scenario() {
    let scenario = "game = \"lrs\"\ngrid = \". . .\"\n[[robot]]\nname = \"A\"\nx = 0\ny = 0\n\
                    facing = \"E\"\n[[turn]]\nA = \"F1@100\"\n";
    let out = Test::new()
        .file("lrs.toml", scenario)
        .args(&["scenario", "lrs.toml", "--json"])
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["robots"][0]["x"], 1);
}

#[test]
fn scenario_with_unknown_game_is_a_located_input_error() {
    Test::new()
        .file("chess.toml", "\ngame = \"chess\"\n")
        .args(&["scenario", "chess.toml", "--json"])
        .status(2)
        .stderr_has("chess.toml:2:8: unknown game \"chess\"")
        .stderr_has("\"robotgame\"")
        .stderr_has("\"robots\"")
        .run();
}

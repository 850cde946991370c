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
    assert_eq!(
        ids,
        ["lrs", "robotgame", "robots", "roborally", "roborunner"]
    );
    assert_eq!(games[2]["seats"], serde_json::json!([1, 8]));
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
            &["--bot", "windward:java Main"][..],
            "the 2012 clients play Last Robot Standing",
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("the games are: lrs, robotgame, robots"));
}

fn kit_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots/robotgame")
}

#[test]
fn the_python_starter_kit_plays_robotgame_without_faults_and_gets_its_replays() {
    let dir = tempfile::tempdir().unwrap();
    let kit = kit_dir();
    let out: Value = serde_json::from_str(&ok(
        dir.path(),
        &[
            "play",
            "--game",
            "robotgame",
            "--bot-dir",
            kit.to_str().unwrap(),
            "--bot",
            "jsonl:python3 bot.py",
            "--bot-name",
            "kit",
            "--bot",
            "builtin:random",
            "--games",
            "2",
            "--json",
            "--replay",
            "replays",
        ],
    ))
    .unwrap();
    let kit = &out["external"][0];
    assert_eq!(kit["bot"], "jsonl:python3 bot.py");
    // docs/bots.md names every key of the entry and of the whole output.
    let documented = common::documented_names("docs/bots.md", "`play --json` prints");
    common::assert_keys_documented(kit, &documented);
    common::assert_keys_documented(&out, &documented);
    for key in ["timeouts", "malformed", "crashed_turns", "discarded"] {
        assert_eq!(kit[key], 0, "{key}: {out}");
    }
    assert!(kit["spawn_error"].is_null());
    assert_eq!(out["bots"][0]["faults"], 0);
    // The kit fights: it deals damage and kills.
    assert!(
        out["bots"][0]["damage_dealt"].as_u64().unwrap() > 0,
        "{out}"
    );
    for g in 0..2 {
        let trace: Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join(format!("replays/game-{g}.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(trace["trace"]["steps"].as_array().unwrap().len(), 100);
        assert_eq!(trace["game_kind"], "robotgame");
        assert!(dir.path().join(format!("replays/game-{g}.html")).exists());
    }
}

#[test]
fn a_robotgame_bot_that_prints_garbage_or_sleeps_or_exits_gets_faults_and_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("garbage.py"),
        "import sys\nfor line in sys.stdin:\n    print('debug: got a line', flush=True)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sleepy.py"),
        "import sys, time\nfor line in sys.stdin:\n    time.sleep(0.5)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("quitter.py"),
        "import sys\nsys.stdin.readline()\nprint('bye', file=sys.stderr)\nsys.exit(3)\n",
    )
    .unwrap();
    let out: Value = serde_json::from_str(&ok(
        dir.path(),
        &[
            "play",
            "--game",
            "robotgame",
            "--bot",
            "jsonl:python3 garbage.py",
            "--bot",
            "jsonl:python3 sleepy.py",
            "--bot",
            "jsonl:python3 quitter.py",
            "--bot",
            "builtin:hunter",
            "--time-limit-ms",
            "100",
            "--json",
        ],
    ))
    .unwrap();
    let ext = out["external"].as_array().unwrap();
    assert_eq!(ext[0]["malformed"], 100, "{out}");
    assert_eq!(ext[0]["first_bad_line"], "debug: got a line");
    assert_eq!(ext[1]["timeouts"], 100, "{out}");
    assert_eq!(ext[2]["crashed_turns"], 100, "{out}");
    assert!(
        ext[2]["stderr_tail"].as_str().unwrap().contains("bye"),
        "{out}"
    );
    // Every silent turn is one fault of its seat, and the built-in AI wins.
    for b in 0..3 {
        assert_eq!(out["bots"][b]["faults"], 100, "{out}");
    }
    assert_eq!(out["bots"][3]["wins"], 1);
}

/// A bot's keeper dies with the thread that forked it (`PR_SET_PDEATHSIG`), so bots must be
/// forked from threads that outlive every game: a game that lasts longer than an idle
/// worker thread (tokio retires them after 10 s) must not lose its bots.
#[test]
fn a_slow_bot_keeps_playing_a_game_longer_than_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("slow.py"),
        "import json, sys, time\n\
         me = None\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'hello':\n\
         \x20       me = msg['seat']\n\
         \x20   elif msg['type'] == 'turn':\n\
         \x20       time.sleep(0.13)\n\
         \x20       acts = [{'id': r['id'], 'action': 'guard'} for r in msg['robots'] if r['seat'] == me]\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'actions': acts}), flush=True)\n",
    )
    .unwrap();
    // 100 turns of 0.13 s: about 13 s.
    let out: Value = serde_json::from_str(&ok(
        dir.path(),
        &[
            "play",
            "--game",
            "robotgame",
            "--bot",
            "jsonl:python3 slow.py",
            "--bot",
            "builtin:random",
            "--time-limit-ms",
            "1000",
            "--json",
        ],
    ))
    .unwrap();
    let ext = &out["external"][0];
    for key in ["timeouts", "malformed", "crashed_turns"] {
        assert_eq!(ext[key], 0, "{key}: {out}");
    }
    assert_eq!(out["bots"][0]["faults"], 0, "{out}");
}

#[test]
fn a_robots_series_of_one_seat_is_the_same_whatever_the_jobs_and_dodger_clears_levels() {
    let dir = tempfile::tempdir().unwrap();
    let run = |bots: &[&str], jobs: &str| -> Value {
        let mut args = vec![
            "play", "--game", "robots", "--games", "6", "--json", "--jobs", jobs,
        ];
        for b in bots {
            args.extend_from_slice(&["--bot", b]);
        }
        serde_json::from_str(&ok(dir.path(), &args)).unwrap()
    };
    let solo = run(&["builtin:dodger"], "1");
    assert_eq!(solo, run(&["builtin:dodger"], "2"));
    assert!(
        solo["bots"][0]["levels_cleared"].as_u64().unwrap() >= 6,
        "{solo}"
    );
    let duel = run(&["builtin:dodger", "builtin:random"], "2");
    assert_eq!(duel["bots"][0]["wins"], 6, "{duel}");
}

#[test]
fn the_robots_starter_kit_plays_without_faults_and_a_garbage_bot_is_told_why() {
    let dir = tempfile::tempdir().unwrap();
    let kit = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots/robots");
    std::fs::write(
        dir.path().join("garbage.py"),
        "import sys\nfor line in sys.stdin:\n    print('debug: thinking', flush=True)\n",
    )
    .unwrap();
    let out: Value = serde_json::from_str(&ok(
        dir.path(),
        &[
            "play",
            "--game",
            "robots",
            "--bot-dir",
            kit.to_str().unwrap(),
            "--bot",
            "jsonl:python3 bot.py",
            "--bot",
            "jsonl:python3 garbage.py",
            "--bot",
            "builtin:random",
            "--json",
        ],
    ))
    .unwrap();
    let ext = out["external"].as_array().unwrap();
    for key in ["timeouts", "malformed", "crashed_turns"] {
        assert_eq!(ext[0][key], 0, "kit {key}: {out}");
    }
    assert!(
        out["bots"][0]["levels_cleared"].as_u64().unwrap() >= 1,
        "{out}"
    );
    assert!(ext[1]["malformed"].as_u64().unwrap() >= 1, "{out}");
    assert_eq!(ext[1]["first_bad_line"], "debug: thinking");
    assert_eq!(out["bots"][1]["faults"], ext[1]["malformed"], "{out}");
}

/// One JSON-lines transport for every game: a Robots bot that greets on `hello` loses
/// nothing for it, and a bot that names a move wrongly is told which moves there are.
#[test]
fn a_robots_bot_is_told_why_its_answer_is_not_one_and_may_greet_first() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("north.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'hello':\n\
         \x20       print('hi there!', flush=True)\n\
         \x20   elif msg['type'] == 'turn':\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'moves': ['NORTH']}), flush=True)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("polite.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'hello':\n\
         \x20       print('hi there!', flush=True)\n\
         \x20   elif msg['type'] == 'turn':\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'moves': ['Q']}), flush=True)\n",
    )
    .unwrap();
    let out: Value = serde_json::from_str(&ok(
        dir.path(),
        &[
            "play",
            "--game",
            "robots",
            "--bot",
            "jsonl:python3 north.py",
            "--bot",
            "jsonl:python3 polite.py",
            "--json",
        ],
    ))
    .unwrap();
    let ext = out["external"].as_array().unwrap();
    assert_eq!(
        ext[0]["first_bad_line"], r#"{"turn": 1, "moves": ["NORTH"]}"#,
        "{out}"
    );
    let why = ext[0]["first_bad_why"].as_str().unwrap();
    assert!(
        why.starts_with("\"NORTH\" is not a move; the moves are N, NE"),
        "{why}"
    );
    assert!(ext[0]["malformed"].as_u64().unwrap() >= 1, "{out}");
    // The greeting was set aside: the polite bot quit on turn 1 without a fault.
    assert_eq!(ext[1]["malformed"], 0, "{out}");
    assert_eq!(ext[1]["timeouts"], 0, "{out}");
    assert_eq!(ext[1]["discarded"], 1, "{out}");
    assert_eq!(out["bots"][1]["faults"], 0, "{out}");
}

/// `play --help` names every game's built-in AIs, and `--help` no game in particular: the
/// help cannot fall behind the registry.
#[test]
fn the_help_names_every_games_ais() {
    let dir = tempfile::tempdir().unwrap();
    let help = ok(dir.path(), &["play", "--help"]);
    for kind in lrs_tourney::games::GameKind::all() {
        for (ai, _) in kind.builtin_ais() {
            assert!(
                help.contains(ai),
                "{} AI {ai} missing from play --help",
                kind.id()
            );
        }
        assert!(help.contains(kind.id()), "{}", kind.id());
    }
    let top = ok(dir.path(), &["--help"]);
    assert!(
        top.contains("bot-programming contests in robot games"),
        "{top}"
    );
}

/// An action the game does not know is not silently a fault: the report says which entry
/// was dropped and what the actions are.
#[test]
fn a_robotgame_bot_that_misspells_an_action_is_told_the_actions() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("attak.py"),
        "import json, sys\n\
         me = None\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'hello':\n\
         \x20       me = msg['seat']\n\
         \x20   elif msg['type'] == 'turn':\n\
         \x20       acts = [{'id': r['id'], 'action': 'attak', 'to': [r['x'], r['y'] + 1]} for r in msg['robots'] if r['seat'] == me]\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'actions': acts}), flush=True)\n",
    )
    .unwrap();
    let args = [
        "play",
        "--game",
        "robotgame",
        "--bot",
        "jsonl:python3 attak.py",
        "--bot",
        "builtin:random",
    ];
    let out: Value =
        serde_json::from_str(&ok(dir.path(), &[&args[..], &["--json"]].concat())).unwrap();
    let why = out["external"][0]["first_bad_why"].as_str().unwrap();
    assert!(
        why.contains(r#"unknown action "attak"; the actions are move, attack, guard, suicide"#),
        "{why}"
    );
    let text = ok(dir.path(), &args);
    assert!(text.contains("refused by the game's rules"), "{text}");
}

/// A RobotGame bot whose answers read well but leave its robots without actions is told,
/// with the answer, which robot got none and what that cost.
#[test]
fn a_robotgame_bot_that_gives_its_robots_no_actions_is_told_which_robot_guarded() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("idle.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'turn':\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'actions': []}), flush=True)\n",
    )
    .unwrap();
    let args = [
        "play",
        "--game",
        "robotgame",
        "--bot",
        "jsonl:python3 idle.py",
        "--bot",
        "builtin:random",
        "--json",
    ];
    let out: Value = serde_json::from_str(&ok(dir.path(), &args)).unwrap();
    let report = &out["external"][0];
    // Turn 0 has no robot yet: the first fault is turn 1's, about the seat's first robot.
    assert_eq!(
        report["first_bad_line"], r#"{"turn": 1, "actions": []}"#,
        "{report}"
    );
    assert_eq!(
        report["first_bad_why"],
        "robot 0 of yours got no action, so it guarded: give each of your robots one action every turn",
        "{report}"
    );
    assert_eq!(report["malformed"], 0, "{report}");
}

/// A RoboRally bot whose programs read well but break RR5 (a hand card used twice) is told
/// which card, with the answer and its turn.
#[test]
fn a_roborally_bot_that_repeats_a_card_is_told_which() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("twice.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'start':\n\
         \x20       x, y = msg['options'][0]\n\
         \x20       print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n\
         \x20   elif msg['type'] == 'turn':\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'program': [0] * msg['free']}), flush=True)\n",
    )
    .unwrap();
    let args = [
        "play",
        "--game",
        "roborally",
        "--games",
        "1",
        "--bot",
        "jsonl:python3 twice.py",
        "--bot",
        "builtin:racer",
    ];
    let out: Value =
        serde_json::from_str(&ok(dir.path(), &[&args[..], &["--json"]].concat())).unwrap();
    let report = &out["external"][0];
    assert_eq!(
        report["first_bad_line"], r#"{"turn": 1, "program": [0, 0, 0, 0, 0]}"#,
        "{report}"
    );
    assert_eq!(
        report["first_bad_why"], "card 0 is listed twice: each hand card may be used once",
        "{report}"
    );
    let text = ok(dir.path(), &args);
    assert!(text.contains("first faulty game: 0, at turn 1\n"), "{text}");
}

/// A Robo Runner bot that plays one chip it does not hold, and one that sends five chips
/// whatever is locked, are each told why, at which turn, with the line they sent.
#[test]
fn a_roborunner_bot_whose_program_is_refused_is_told_why() {
    let dir = tempfile::tempdir().unwrap();
    // Turn 1's hand never holds nine `U`: the program plays `U` five times.
    std::fs::write(
        dir.path().join("spin.py"),
        "import json, sys\n\
         for line in sys.stdin:\n\
         \x20   msg = json.loads(line)\n\
         \x20   if msg['type'] == 'turn':\n\
         \x20       print(json.dumps({'turn': msg['turn'], 'program': ['U'] * 5}), flush=True)\n",
    )
    .unwrap();
    let args = [
        "play",
        "--game",
        "roborunner",
        "--games",
        "1",
        "--seed",
        "3",
        "--bot",
        "jsonl:python3 spin.py",
        "--bot",
        "builtin:runner",
    ];
    let out: Value =
        serde_json::from_str(&ok(dir.path(), &[&args[..], &["--json"]].concat())).unwrap();
    let report = &out["external"][0];
    assert_eq!(
        report["first_bad_line"], r#"{"turn": 1, "program": ["U", "U", "U", "U", "U"]}"#,
        "{report}"
    );
    // Seed 3's first hand (docs/roborunner.md, RN16) holds no `U`.
    assert_eq!(
        report["first_bad_why"],
        "U is played more often than it is in the hand (R L F1 F2 F1 R F1 B L): each hand chip can be played once",
        "{report}"
    );
    let text = ok(dir.path(), &args);
    assert!(text.contains("first faulty game: 0, at turn 1\n"), "{text}");
}

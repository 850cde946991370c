//! `lrs-tourney play` with external JSON-lines bots (`--bot jsonl:COMMAND`, `--bot-dir`,
//! `--time-limit-ms`), through the real binary.

mod common;

use common::{Test, repo};
use serde_json::Value;

fn hostile() -> String {
    repo().join("tests/hostile").display().to_string()
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).expect("play --json prints JSON")
}

fn play_vs_runner(bot: &str, extra: &[&str]) -> Value {
    let dir = hostile();
    let mut args = vec![
        "play",
        "--board",
        "gear-works",
        "--bot-dir",
        &dir,
        "--bot",
        bot,
        "--bot",
        "builtin:runner",
        "--seed",
        "5",
        "--time-limit-ms",
        "300",
        "--json",
    ];
    args.extend_from_slice(extra);
    json(&Test::new().args(&args).stderr_has("bot sandbox:").run())
}

#[test]
fn a_well_behaved_jsonl_bot_plays_without_faults() {
    let v = play_vs_runner(
        "jsonl:python3 good.py",
        &["--games", "2", "--turns", "10", "--jobs", "2"],
    );
    assert_eq!(v["games"], 2);
    let bots = v["bots"].as_array().unwrap();
    assert_eq!(bots[0]["bot"], "jsonl:python3 good.py");
    assert_eq!(bots[0]["games"], 2);
    assert_eq!(bots[0]["faults"], 0, "{v}");
    assert_eq!(bots[1]["faults"], 0);
    let sandbox = v["sandbox"].as_array().expect("the sandbox is reported");
    assert!(
        sandbox
            .iter()
            .any(|p| p["name"] == "new session" && p["active"] == true)
    );
    // CI runs as root: there the whole container is in force.
    if (unsafe { nix::libc::geteuid() }) == 0 {
        let missing: Vec<_> = sandbox.iter().filter(|p| p["active"] != true).collect();
        assert!(missing.is_empty(), "missing as root: {missing:?}");
    }
}

#[test]
fn jsonl_games_are_reproducible_and_do_not_depend_on_jobs() {
    let a = play_vs_runner(
        "jsonl:python3 good.py",
        &["--games", "3", "--turns", "8", "--jobs", "1"],
    );
    let b = play_vs_runner(
        "jsonl:python3 good.py",
        &["--games", "3", "--turns", "8", "--jobs", "3"],
    );
    assert_eq!(a, b);
}

#[test]
fn a_never_answering_bot_has_its_faults_counted() {
    let v = play_vs_runner("jsonl:python3 silent.py", &["--games", "1", "--turns", "4"]);
    let bots = v["bots"].as_array().unwrap();
    // The start query and at least one turn per game timed out.
    assert!(bots[0]["faults"].as_u64().unwrap() >= 2, "{v}");
    assert_eq!(bots[1]["faults"], 0);
}

#[test]
fn a_bot_that_exits_at_once_does_not_take_the_runner_down() {
    // Writing to its closed stdin must not kill lrs-tourney with SIGPIPE.
    let v = play_vs_runner(
        "jsonl:python3 exit_now.py",
        &["--games", "2", "--turns", "3"],
    );
    assert!(v["bots"][0]["faults"].as_u64().unwrap() >= 2, "{v}");
}

const ARGV_BOT: &str = r#"
import sys
sys.path.insert(0, ".")
from common import messages, send, card0
ok = sys.argv[1:] == ["my arg", "lib/*", "$HOME", "it's"]
for msg in messages():
    if msg["type"] in ("start", "turn"):
        send(card0(msg) if ok else {"garbage": sys.argv[1:]})
"#;

#[test]
fn the_command_is_split_like_shell_words_without_globbing_and_runs_in_the_current_dir() {
    let common = std::fs::read_to_string(repo().join("tests/hostile/common.py")).unwrap();
    let out = Test::new()
        .file("common.py", &common)
        .file("argv bot.py", ARGV_BOT)
        .file("lib/a.jar", "x")
        .file("lib/b.jar", "y")
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            r#"jsonl:python3 "argv bot.py" 'my arg' lib/* $HOME it\'s"#,
            "--bot",
            "builtin:random",
            "--turns",
            "3",
            "--time-limit-ms",
            "500",
            "--json",
        ])
        .stderr_has("bot sandbox:")
        .run();
    let v = json(&out);
    assert_eq!(
        v["bots"][0]["faults"], 0,
        "argv reached the bot intact: {v}"
    );
}

#[test]
fn bad_jsonl_specs_are_usage_errors() {
    let dir = hostile();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "jsonl:",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("empty command")
        .run();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "jsonl:python3 'open",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("unterminated single quote")
        .run();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot-dir",
            &dir,
            "--bot",
            "builtin:runner",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("built in")
        .run();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot-dir",
            "no/such/dir",
            "--bot",
            "jsonl:python3 good.py",
            "--bot",
            "builtin:random",
        ])
        .status(2)
        .stderr_has("does not exist")
        .run();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "jsonl:python3 good.py",
            "--bot",
            "builtin:random",
            "--bot-dir",
            &dir,
        ])
        .status(2)
        .stderr_has("not followed by a --bot")
        .run();
    Test::new()
        .args(&[
            "play",
            "--board",
            "gear-works",
            "--bot",
            "jsonl:python3 good.py",
            "--bot",
            "builtin:random",
            "--time-limit-ms",
            "0",
        ])
        .status(2)
        .stderr_has("--time-limit-ms")
        .run();
}

/// What students get wrong, and what `play` tells them: the faults by kind, the first line
/// that was not an answer, how the bot ended and the end of its stderr; and copies of one
/// bot told apart. (The debug bot stays quiet on `hello`: a line printed then may arrive
/// before or after the first question, which would make the reported reason a race.)
#[test]
fn play_explains_why_a_bot_faults() {
    let t = Test::new()
        .file(
            "debug.py",
            "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] != 'hello':\n        print('DEBUG got', m['type'], flush=True)\n    if m['type'] == 'start':\n        x, y = m['options'][0]\n        print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n    elif m['type'] == 'turn':\n        print(json.dumps({'card': 0}), flush=True)\n",
        )
        .file(
            "raise5.py",
            "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'start':\n        x, y = m['options'][0]\n        print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n    elif m['type'] == 'turn':\n        if m['turn'] == 3:\n            raise ValueError('my bug at turn 3')\n        print(json.dumps({'card': 0}), flush=True)\n",
        )
        .file(
            "hello.py",
            "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'hello':\n        print(json.dumps({'ok': True}), flush=True)\n    elif m['type'] == 'start':\n        x, y = m['options'][0]\n        print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n    elif m['type'] == 'turn':\n        print(json.dumps({'card': 0}), flush=True)\n",
        )
        .args(&[
            "play", "--board", "gear-works", "--games", "1", "--turns", "6",
            "--time-limit-ms", "500",
            "--bot", "jsonl:python3 debug.py",
            "--bot", "jsonl:python3 raise5.py",
            "--bot", "jsonl:python3 hello.py",
            "--bot-name", "typo", "--bot", "jsonl:pyhton3 debug.py",
            "--bot", "builtin:runner", "--bot", "builtin:runner",
        ])
        .stderr_has("bot sandbox:");
    let text = t.run();
    assert!(text.contains("jsonl:python3 debug.py: "), "{text}");
    assert!(
        text.contains("first bad line (answer is not JSON"),
        "{text}"
    );
    assert!(text.contains("\"DEBUG got"), "{text}");
    assert!(text.contains("print debug output to stderr"), "{text}");
    assert!(text.contains("ValueError: my bug at turn 3"), "{text}");
    assert!(text.contains("the bot ended with: exit 1"), "{text}");
    // Where the crash happened, and a reply to hello (no fault) is named all the same.
    assert!(text.contains("first faulty game: 0, at turn 3\n"), "{text}");
    assert!(
        text.contains("jsonl:python3 hello.py: 0 faults\n  it answered hello (1 game(s))"),
        "{text}"
    );
    assert!(text.contains("typo: "), "{text}");
    assert!(
        text.contains("could not start: cannot start \"pyhton3\""),
        "{text}"
    );
    assert!(text.contains("builtin:runner #2"), "{text}");
}

/// A bot too slow for the limit is told its answers came late and how to tell slowness from
/// buffering; a bot that flushes its first answer only is asked whether it flushes after
/// every answer.
#[test]
fn play_tells_a_slow_bot_and_one_that_flushes_once_what_to_check() {
    let start = "    if m['type'] == 'start':\n        x, y = m['options'][0]\n        print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n";
    let t = Test::new()
        .file(
            "slow.py",
            &format!(
                "import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n{start}    elif m['type'] == 'turn':\n        time.sleep(0.4)\n        print(json.dumps({{'card': 0}}), flush=True)\n"
            ),
        )
        .file(
            "flush_once.py",
            &format!(
                "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n{start}    elif m['type'] == 'turn':\n        sys.stdout.write(json.dumps({{'card': 0}}) + '\\n')\n"
            ),
        )
        .args(&[
            "play", "--board", "gear-works", "--games", "1", "--turns", "4",
            "--time-limit-ms", "200",
            "--bot", "jsonl:python3 slow.py",
            "--bot", "jsonl:python3 flush_once.py",
        ])
        .stderr_has("bot sandbox:");
    let text = t.run();
    let report = |bot: &str| -> String {
        let from = text
            .find(&format!("jsonl:python3 {bot}: "))
            .unwrap_or_else(|| panic!("no report for {bot}:\n{text}"));
        let rest = &text[from..];
        let end = rest[1..].find("\njsonl:").map_or(rest.len(), |e| e + 1);
        rest[..end].to_string()
    };
    let slow = report("slow.py");
    assert!(
        slow.contains("answer(s) arrived after the time limit"),
        "{slow}"
    );
    assert!(slow.contains("--time-limit-ms"), "{slow}");
    let once = report("flush_once.py");
    assert!(once.contains("print(..., flush=True)"), "{once}");
}

#[test]
fn play_json_reports_each_external_bots_faults_by_cause() {
    let v = json(
        &Test::new()
            .file(
                "raise.py",
                "import sys\nsys.stdin.readline()\nprint('boom', file=sys.stderr)\nsys.exit(3)\n",
            )
            .args(&[
                "play",
                "--board",
                "gear-works",
                "--games",
                "1",
                "--turns",
                "4",
                "--time-limit-ms",
                "500",
                "--json",
                "--bot",
                "jsonl:python3 raise.py",
                "--bot",
                "builtin:runner",
            ])
            .stderr_has("bot sandbox:")
            .run(),
    );
    let bot = &v["bots"][0];
    let report = &v["external"][0];
    assert_eq!(report["bot"], bot["bot"], "{v}");
    assert!(bot["faults"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(report["crashed_turns"], bot["faults"], "{v}");
    assert_eq!(report["faults"], bot["faults"], "{v}");
    assert_eq!(report["first_faulty_game"], 0, "{v}");
    assert_eq!(report["ended"], "exit 3", "{v}");
    assert_eq!(report["stderr_tail"], "boom", "{v}");
    assert_eq!(
        v["external"].as_array().unwrap().len(),
        1,
        "built-in AIs have none: {v}"
    );
}

/// A bot that prints debug lines on stdout: `--json` names the line and why it was not an
/// answer, and the table's report says the same with the hint.
#[test]
fn the_fault_report_names_why_a_line_was_bad() {
    let bot = "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'start':\n        x, y = m['options'][0]\n        print(json.dumps({'x': x, 'y': y, 'facing': 'N'}), flush=True)\n    elif m['type'] == 'turn':\n        print('my debug line', flush=True)\n";
    let args = |json: bool| {
        let mut a = vec![
            "play",
            "--board",
            "gear-works",
            "--games",
            "2",
            "--turns",
            "5",
            "--time-limit-ms",
            "500",
            "--bot",
            "jsonl:python3 chatty.py",
            "--bot",
            "builtin:runner",
        ];
        if json {
            a.push("--json");
        }
        a
    };
    let v = json(
        &Test::new()
            .file("chatty.py", bot)
            .args(&args(true))
            .stderr_has("bot sandbox:")
            .run(),
    );
    let report = &v["external"][0];
    assert_eq!(report["bot"], "jsonl:python3 chatty.py", "{v}");
    assert_eq!(report["first_bad_line"], "my debug line", "{v}");
    let why = report["first_bad_why"].as_str().unwrap();
    assert!(why.contains("not JSON"), "{v}");
    assert!(report["malformed"].as_u64().unwrap() >= 2, "{v}");
    assert_eq!(report["malformed"], v["bots"][0]["faults"], "{v}");
    let text = Test::new()
        .file("chatty.py", bot)
        .args(&args(false))
        .stderr_has("bot sandbox:")
        .run();
    assert!(
        text.contains(&format!("first bad line ({why}): \"my debug line\"")),
        "{text}"
    );
    assert!(text.contains("print debug output to stderr"), "{text}");
}

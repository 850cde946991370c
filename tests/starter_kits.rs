//! The starter kits of `examples/bots/` as a student meets them, through the real binary:
//! the Robots kit finishes levels and beats a bot that quits at once, and an error a kit
//! catches in the student's own code is shown by `play` even though every answer arrived.

mod common;

use common::{Test, repo};
use serde_json::Value;

/// A Robots bot that quits on its first turn: its score is -1 every game.
const QUITTER: &str = "import json, sys\n\
for line in sys.stdin:\n\
\x20   msg = json.loads(line)\n\
\x20   if msg['type'] == 'turn':\n\
\x20       print(json.dumps({'turn': msg['turn'], 'moves': ['Q']}), flush=True)\n";

#[test]
fn the_robots_kit_finishes_levels_and_beats_a_bot_that_quits() {
    let test = Test::new().file("quit.py", QUITTER);
    let quitter_dir = test.dir().display().to_string();
    let kit = repo().join("examples/bots/robots").display().to_string();
    let out = test
        .args(&[
            "play",
            "--game",
            "robots",
            "--bot-dir",
            &kit,
            "--bot",
            "jsonl:python3 bot.py",
            "--bot-dir",
            &quitter_dir,
            "--bot",
            "jsonl:python3 quit.py",
            "--games",
            "10",
            "--json",
        ])
        .stderr_has("bot sandbox:")
        .run();
    let v: Value = serde_json::from_str(&out).unwrap();
    let (kit, quitter) = (&v["bots"][0], &v["bots"][1]);
    assert_eq!(kit["faults"], 0, "{v}");
    assert_eq!(quitter["mean_score"], -1.0, "{v}");
    assert!(kit["wins"].as_u64().unwrap() >= 9, "{v}");
    assert_eq!(quitter["wins"], 10 - kit["wins"].as_u64().unwrap(), "{v}");
    // Clearly: levels finished, not a narrow escape.
    assert!(kit["levels_cleared"].as_u64().unwrap() >= 50, "{v}");
    assert!(kit["mean_score"].as_f64().unwrap() >= 100.0, "{v}");
}

/// The Last Robot Standing kit with a `KeyError` in its strategy from turn 3 on: it plays
/// card 0 instead and has no fault, yet `play` prints the traceback it wrote to stderr.
#[test]
fn an_error_the_python_kit_caught_is_shown_though_it_had_no_faults() {
    let kit = std::fs::read_to_string(repo().join("examples/bots/python/bot.py")).unwrap();
    let hook = "    def on_turn(self, message):\n";
    assert!(kit.contains(hook), "the kit's on_turn moved");
    let broken = kit.replacen(
        hook,
        &format!("{hook}        if message['turn'] >= 3:\n            {{}}['missing']\n"),
        1,
    );
    let test = Test::new().file("bot.py", &broken);
    let dir = test.dir().display().to_string();
    let mut args: Vec<&str> = "play --board gear-works --games 1 --turns 6 --bot builtin:runner"
        .split(' ')
        .collect();
    args.extend(["--bot-dir", &dir, "--bot", "jsonl:python3 bot.py"]);
    let out = test.args(&args).stderr_has("bot sandbox:").run();
    let table_row = out
        .lines()
        .find(|l| l.starts_with("jsonl:python3 bot.py "))
        .unwrap_or_else(|| panic!("no row for the kit:\n{out}"));
    assert!(
        table_row.trim_end().ends_with(" 0"),
        "faults: {table_row}\n{out}"
    );
    assert!(
        out.contains(
            "jsonl:python3 bot.py: 0 faults; the last lines it wrote to stderr in game 0:"
        ),
        "{out}"
    );
    assert!(out.contains("KeyError: 'missing'"), "{out}");
    assert!(out.contains("hint: stderr is the bot's own log"), "{out}");
}

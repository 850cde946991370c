//! The starter kits of `examples/bots/` and the game guides as a student meets them,
//! through the real binary: the Robots kit finishes levels and beats a bot that quits at
//! once; an error a kit catches in the student's own code is shown by `play` even though
//! every answer arrived; and each guide's example exchange is what a real game sends and
//! what the kit answers.

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

/// The JSON example that follows `marker` in the guide `doc` (a block may spread one line
/// over several; `,...]` marks a shortened list, read as its first items).
fn guide_example(doc: &str, marker: &str) -> Value {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap();
    let from = text
        .find(marker)
        .unwrap_or_else(|| panic!("{doc} lacks {marker:?}"));
    let block = &text[from..];
    let start = block.find("```json\n").unwrap() + "```json\n".len();
    let end = start + block[start..].find("```").unwrap();
    serde_json::from_str(&block[start..end].replace(",...]", "]"))
        .unwrap_or_else(|e| panic!("{doc}, example after {marker:?}: {e}"))
}

/// The lines the game sends a bot in a real game: `hello` and the turn `turn`, as a bot
/// that writes them to its stderr (and answers `answer`) saw them.
fn lines_sent(game: &str, seed: &str, turn: u64, answer: &str, extra: &[&str]) -> (Value, Value) {
    let tee = format!(
        "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    \
         if m['type'] == 'hello' or m.get('turn') == {turn}:\n        \
         print(line.strip(), file=sys.stderr, flush=True)\n    \
         if m['type'] == 'turn':\n        print(json.dumps({answer}), flush=True)\n"
    );
    let test = Test::new().file("bot.py", &tee);
    let dir = test.dir().display().to_string();
    let mut args = vec![
        "play", "--game", game, "--games", "1", "--seed", seed, "--json",
    ];
    args.extend(["--bot-dir", &dir, "--bot", "jsonl:python3 bot.py"]);
    args.extend(extra);
    let out: Value = serde_json::from_str(&test.args(&args).stderr_has("bot sandbox:").run())
        .expect("play --json prints JSON");
    let tail = out["external"][0]["stderr_tail"]
        .as_str()
        .unwrap()
        .to_string();
    let mut lines = tail
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    (lines.next().unwrap(), lines.next().unwrap())
}

/// What a kit answers to `hello` then `turn`.
fn kit_answer(kit: &str, hello: &Value, turn: &Value) -> Value {
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .arg("bot.py")
        .current_dir(repo().join(kit))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{hello}\n{turn}").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().next().unwrap_or("")).unwrap()
}

/// The example exchange of docs/robots.md is a real one: the `hello` and `turn` lines the
/// game sends in game 0 of seed 3, and the starter kit's answer to them.
#[test]
fn the_robots_guide_shows_what_the_game_sends_and_the_kit_answers() {
    let doc = "docs/robots.md";
    let (hello, turn) = lines_sent("robots", "3", 1, "{'moves': ['P']}", &[]);
    assert_eq!(guide_example(doc, "**`hello`**, once"), hello);
    assert_eq!(guide_example(doc, "**`turn`**, every turn"), turn);
    let answer = kit_answer("examples/bots/robots", &hello, &turn);
    assert_eq!(guide_example(doc, "**Your answer**"), answer);
}

/// The same for RG7 of docs/robotgame.md: turn 1 of seed 3, the kit in seat 0 against
/// `builtin:random` (whose robots stand where the spawn put them).
#[test]
fn the_robotgame_guide_shows_what_the_game_sends_and_the_kit_answers() {
    let doc = "docs/robotgame.md";
    let (hello, turn) = lines_sent(
        "robotgame",
        "3",
        1,
        "{'actions': []}",
        &["--bot", "builtin:random"],
    );
    let shown = guide_example(doc, "**`hello`**, once");
    // The guide shortens the arena's lists: it shows their first squares.
    let mut real = hello.clone();
    for list in ["obstacles", "spawn"] {
        let n = shown["arena"][list].as_array().unwrap().len();
        assert!(n >= 3, "{shown}");
        real["arena"][list] = Value::from(hello["arena"][list].as_array().unwrap()[..n].to_vec());
    }
    assert_eq!(shown, real);
    assert_eq!(guide_example(doc, "**`turn`**, every turn"), turn);
    let answer = kit_answer("examples/bots/robotgame", &hello, &turn);
    assert_eq!(guide_example(doc, "**Your answer**"), answer);
}

/// A wrapper around a starter kit (`kit.py` beside it) that passes every line through and
/// copies to its stderr the `hello` line and the messages `keep.txt` names (`type:turn` or a
/// bare `type`, comma-separated), each question followed by the kit's answer, as `Q ` and
/// `A ` lines. The kit's own log is silenced, so the end of stderr that `play` reports is
/// the exchange alone.
const TEE: &str = r#"import json, runpy, sys
real_in, real_out, real_err = sys.stdin, sys.stdout, sys.stderr
keep = [p.split(":") for p in open("keep.txt").read().strip().split(",")]
shown = [False]
def wanted(line):
    try:
        m = json.loads(line)
    except ValueError:
        return False
    return m.get("type") == "hello" or any(
        k[0] == m.get("type") and (len(k) == 1 or int(k[1]) == m.get("turn")) for k in keep)
class In:
    def readline(self):
        line = real_in.readline()
        shown[0] = wanted(line)
        if shown[0]:
            real_err.write("Q " + line.strip() + "\n")
            real_err.flush()
        return line
    def __iter__(self):
        while True:
            line = self.readline()
            if not line:
                return
            yield line
class Out:
    def write(self, s):
        if shown[0] and s.strip():
            real_err.write("A " + s.strip() + "\n")
            real_err.flush()
        return real_out.write(s)
    def flush(self):
        real_out.flush()
sys.stdin, sys.stdout, sys.stderr = In(), Out(), open("/dev/null", "w")
sys.argv = ["bot.py"]
runpy.run_path("kit.py", run_name="__main__")
"#;

/// One real game of `play` (`args`), the starter kit `kit` in seat 0 behind [`TEE`]
/// (named `bot.py`, so the game names it `jsonl:python3 bot.py` as the guides show) against
/// `opponent`: the lines it was sent and answered, in order, as (`Q` or `A`, the line).
fn kit_exchange(kit: &str, keep: &str, args: &[&str], opponent: &str) -> Vec<(char, Value)> {
    let code = std::fs::read_to_string(repo().join(kit).join("bot.py")).unwrap();
    let test = Test::new()
        .file("bot.py", TEE)
        .file("kit.py", &code)
        .file("keep.txt", keep);
    let dir = test.dir().display().to_string();
    let mut all = vec!["play", "--games", "1", "--json"];
    all.extend(args);
    all.extend([
        "--bot-dir",
        &dir,
        "--bot",
        "jsonl:python3 bot.py",
        "--bot",
        opponent,
    ]);
    let out: Value = serde_json::from_str(&test.args(&all).stderr_has("bot sandbox:").run())
        .expect("play --json prints JSON");
    let tail = out["external"][0]["stderr_tail"].as_str().unwrap();
    tail.lines()
        .map(|l| {
            let (tag, line) = l.split_at(2);
            let value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{l}: {e}"));
            (tag.chars().next().unwrap(), value)
        })
        .collect()
}

/// The JSON example after `marker` in the guide `doc`, with `,...]` (a shortened list) kept
/// as a last element `"..."`.
fn guide_block(doc: &str, marker: &str) -> Value {
    let text = std::fs::read_to_string(repo().join(doc)).unwrap();
    let from = text
        .find(marker)
        .unwrap_or_else(|| panic!("{doc} lacks {marker:?}"));
    let block = &text[from..];
    let start = block.find("```json\n").unwrap() + "```json\n".len();
    let end = start + block[start..].find("```").unwrap();
    serde_json::from_str(&block[start..end].replace(",...]", r#","..."]"#))
        .unwrap_or_else(|e| panic!("{doc}, example after {marker:?}: {e}"))
}

/// Whether the guide's `shown` is `real` as the guide shortens it: a list ending in `"..."`
/// shows some of the real list's items in their order, a string ending in `...` the start
/// of the real one; everything else is equal.
fn shortened_from(shown: &Value, real: &Value) -> bool {
    match (shown, real) {
        (Value::String(s), Value::String(r)) => match s.strip_suffix("...") {
            Some(start) => r.starts_with(start),
            None => s == r,
        },
        (Value::Array(s), Value::Array(r)) => match s.split_last() {
            Some((Value::String(dots), items)) if dots == "..." => {
                let mut rest = r.iter();
                items
                    .iter()
                    .all(|item| rest.any(|candidate| shortened_from(item, candidate)))
            }
            _ => s.len() == r.len() && s.iter().zip(r).all(|(a, b)| shortened_from(a, b)),
        },
        (Value::Object(s), Value::Object(r)) => {
            s.len() == r.len()
                && s.iter()
                    .all(|(k, v)| r.get(k).is_some_and(|rv| shortened_from(v, rv)))
        }
        _ => shown == real,
    }
}

/// Checks each (marker, tag, index in the exchange) of `doc` against the real `exchange`.
fn check_guide(doc: &str, exchange: &[(char, Value)], examples: &[(&str, char, usize)]) {
    for &(marker, tag, at) in examples {
        let (real_tag, real) = &exchange[at];
        assert_eq!(*real_tag, tag, "{doc}, {marker:?}");
        let shown = guide_block(doc, marker);
        assert!(
            shortened_from(&shown, real),
            "{doc}, the example after {marker:?}:\n{shown}\nis not what the game sent or the kit answered:\n{real}"
        );
    }
}

/// The examples of docs/bots.md (Last Robot Standing) are one real game: gear-works, seed
/// 3, the Python kit in seat 0 against `builtin:runner`, its start and its first turn.
#[test]
fn the_lrs_guide_shows_a_real_exchange_with_the_python_kit() {
    let exchange = kit_exchange(
        "examples/bots/python",
        "start:1,turn:1",
        &["--board", "gear-works", "--seed", "3"],
        "builtin:runner",
    );
    assert_eq!(exchange.len(), 5, "{exchange:?}");
    check_guide(
        "docs/bots.md",
        &exchange,
        &[
            ("### hello", 'Q', 0),
            ("### start", 'Q', 1),
            ("To `start`:", 'A', 2),
            ("### turn", 'Q', 3),
            ("To `turn`:", 'A', 4),
        ],
    );
}

/// The same for RR14 of docs/roborally.md: dock-sprint, seed 3, the RoboRally kit in seat 0
/// against `builtin:racer`, to the end of the game.
#[test]
fn the_roborally_guide_shows_a_real_exchange_with_its_kit() {
    let exchange = kit_exchange(
        "examples/bots/roborally",
        "start:0,turn:1,game_over",
        &["--game", "roborally", "--seed", "3"],
        "builtin:racer",
    );
    assert_eq!(exchange.len(), 6, "{exchange:?}");
    check_guide(
        "docs/roborally.md",
        &exchange,
        &[
            ("**`hello`**, once", 'Q', 0),
            ("**`start`**, at the start", 'Q', 1),
            ("**Your answer to `start`**", 'A', 2),
            ("**`turn`**, every turn", 'Q', 3),
            ("**Your answer**, one line", 'A', 4),
            ("**`game_over`**, once", 'Q', 5),
        ],
    );
}

/// The same for RN16 of docs/roborunner.md: hull-walk, seed 3, the Robo Runner kit in seat
/// 0 against `builtin:runner`, its first turn and the end of the game.
#[test]
fn the_roborunner_guide_shows_a_real_exchange_with_its_kit() {
    let exchange = kit_exchange(
        "examples/bots/roborunner",
        "turn:1,game_over",
        &["--game", "roborunner", "--seed", "3"],
        "builtin:runner",
    );
    assert_eq!(exchange.len(), 4, "{exchange:?}");
    check_guide(
        "docs/roborunner.md",
        &exchange,
        &[
            ("**`hello`**, once", 'Q', 0),
            ("**`turn`**, every turn", 'Q', 1),
            ("**Your answer**, one line", 'A', 2),
            ("**`game_over`**, once", 'Q', 3),
        ],
    );
}

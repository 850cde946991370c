//! `lrs-tourney check FILE` smoke-tests every JSON-lines bot in a short game and names the
//! ones that do not start or do not answer.

mod common;

use common::{Test, repo};

const HEAD: &str = "name = \"Smoke Cup\"\nseed = 7\n\n\
                    [limits]\ntime_limit_ms = 300\nstart_limit_ms = 1000\n\n\
                    [[school]]\nname = \"A\"\n";

fn team(name: &str, bot: &str, dir: &str) -> String {
    let dir = repo().join(dir);
    format!(
        "[[school.team]]\nname = \"{name}\"\nbot = \"{bot}\"\ndir = {:?}\nprotocol = \"jsonl\"\n",
        dir.display().to_string()
    )
}

fn good() -> String {
    team("good", "python3 bot.py", "examples/bots/python")
}

fn mixed() -> String {
    [
        HEAD.to_string(),
        good(),
        team("quiet", "python3 silent.py", "tests/hostile"),
        team("quitter", "python3 exit_now.py", "tests/hostile"),
        team("noisy", "python3 garbage.py", "tests/hostile"),
        team("missing", "./nope", "tests/hostile"),
        "[[school.team]]\nname = \"ai\"\nbot = \"builtin:hunter\"\n".to_string(),
    ]
    .concat()
}

/// The line of `out` that reports on team `name`.
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    let prefix = format!("  {name} (A): ");
    out.lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no line for {name} in:\n{out}"))
}

#[test]
fn failing_bots_are_named_with_their_reason_and_fail_the_check() {
    let out = Test::new()
        .file("t.toml", &mixed())
        .args(&["check", "t.toml"])
        .status(1)
        .stdout_has("ok: t.toml is valid")
        .stdout_has("smoke games: one game of 60 turns in corridor-dash against builtin:random")
        .stderr_has("check: 4 bot(s) failed")
        .run();
    let good = line(&out, "good");
    assert!(good.contains("ok (answered "), "{out}");
    assert!(good.contains("first answer in "), "{out}");
    let quiet = line(&out, "quiet");
    assert!(
        quiet.contains("FAILED: no answer within 300 ms at turn 1 (timeout x"),
        "{out}"
    );
    // A bot that never answered is told what `play` tells it: flush.
    assert!(
        quiet.contains("; no answer arrived in time: does the bot flush stdout"),
        "{out}"
    );
    let quitter = line(&out, "quitter");
    assert!(quitter.contains("FAILED: crashed at turn "), "{out}");
    let noisy = line(&out, "noisy");
    assert!(noisy.contains("FAILED: invalid answers x"), "{out}");
    assert!(noisy.contains(" from turn 1 "), "{out}");
    // The first line that was not an answer, quoted with why, and where debug output goes.
    assert!(
        noisy.contains(": first bad line \"hello world\" (answer is not JSON: "),
        "{out}"
    );
    assert!(noisy.contains("print debug output to stderr"), "{out}");
    let missing = line(&out, "missing");
    assert!(missing.contains("FAILED: could not start: "), "{out}");
    assert!(missing.contains("nope"), "{out}");
    // Built-in AIs need no smoke game.
    assert!(!out.contains("  ai (A): "), "{out}");
}

#[test]
fn a_tournament_of_good_bots_passes() {
    let text = [HEAD.to_string(), good()].concat();
    let out = Test::new()
        .file("t.toml", &text)
        .args(&["check", "t.toml"])
        .stdout_has("ok: t.toml is valid")
        .run();
    assert!(line(&out, "good").contains("ok (answered "), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

#[test]
fn no_smoke_only_validates() {
    let out = Test::new()
        .file("t.toml", &mixed())
        .args(&["check", "--no-smoke", "t.toml"])
        .stdout_has("ok: t.toml is valid")
        .run();
    assert!(!out.contains("smoke games"), "{out}");
}

#[test]
fn a_windward_client_that_cannot_start_fails_its_smoke_game() {
    let (out, ww) = check_with_failing_windward_client("python3 no-such-client.py");
    assert!(ww.contains("FAILED: did not join within"), "{out}");
    assert!(
        out.contains("no-such-client.py"),
        "its stderr is quoted: {out}"
    );
    assert!(line(&out, "good").contains("ok (answered "), "{out}");
}

#[test]
fn a_windward_client_whose_program_is_missing_says_why_once() {
    let (out, ww) = check_with_failing_windward_client("no-such-program-lrs");
    assert!(ww.contains("FAILED: could not start: "), "{out}");
    assert!(ww.contains("no-such-program-lrs"), "{out}");
    assert!(
        !ww.contains("not started"),
        "the reason is given once: {out}"
    );
}

/// `check` of a tournament of one good JSON-lines bot and a Windward client team `ww`
/// started as `command` in tests/hostile (its gateway on a free port), which must fail:
/// the whole output and the client's line.
fn check_with_failing_windward_client(command: &str) -> (String, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let text = format!(
        "{HEAD}{}[[school.team]]\nname = \"ww\"\nbot = \"{command}\"\ndir = {:?}\n\
         protocol = \"windward\"\n[windward]\nlisten = \"127.0.0.1:{port}\"\n",
        good(),
        repo().join("tests/hostile").display().to_string()
    );
    let out = Test::new()
        .file("t.toml", &text)
        .args(&["check", "t.toml"])
        .status(1)
        .stderr_has("check: 1 bot(s) failed")
        .run();
    let ww = line(&out, "ww").to_string();
    (out, ww)
}

/// The smoke game is a whole game of the tournament's length: a bot that crashes at turn 5
/// fails the check, with its stderr.
#[test]
fn a_bot_that_crashes_late_in_a_game_fails_the_check() {
    let text = [
        HEAD.to_string(),
        team("late", "python3 crash_turn5.py", "tests/hostile"),
    ]
    .concat();
    let out = Test::new()
        .file("t.toml", &text)
        .args(&["check", "t.toml"])
        .status(1)
        .stderr_has("check: 1 bot(s) failed")
        .run();
    let late = line(&out, "late");
    assert!(late.contains("FAILED: crashed at turn 5"), "{out}");
    assert!(out.contains("bot bug at turn 5"), "{out}");
}

/// Every game's bots get the same smoke game: a RobotGame bot that crashes at turn 5 fails
/// the check, which names the turn and quotes its stderr; one whose answers the rules refuse
/// (a misspelt action) fails with the reason; the RobotGame kit passes.
#[test]
fn a_robotgame_bot_that_crashes_late_is_named_with_its_turn() {
    let config = format!(
        "name = \"RobotGame Smoke\"\nseed = 7\nbracket = {:?}\n\n\
         [limits]\ntime_limit_ms = 1000\nstart_limit_ms = 5000\n\n\
         [[school]]\nname = \"A\"\n{}{}",
        repo().join("brackets/robotgame.toml").display().to_string(),
        team("kit", "python3 bot.py", "examples/bots/robotgame"),
        team("late", "python3 robotgame_crash_turn5.py", "tests/hostile"),
    ) + &team("typo", "python3 robotgame_attak.py", "tests/hostile");
    let out = Test::new()
        .file("t.toml", &config)
        .args(&["check", "t.toml"])
        .status(1)
        .stdout_has("smoke games: one game of 100 turns in")
        .stderr_has("check: 2 bot(s) failed")
        .run();
    assert!(
        line(&out, "kit").contains("ok (answered 100/100 queries"),
        "{out}"
    );
    let typo = line(&out, "typo");
    assert!(
        typo.contains("answer(s) refused by the game's rules: ")
            && typo
                .contains("unknown action \"attak\"; the actions are move, attack, guard, suicide"),
        "{out}"
    );
    let late = line(&out, "late");
    assert!(late.contains("FAILED: crashed at turn 5"), "{out}");
    assert!(out.contains("bot bug at turn 5"), "{out}");
}

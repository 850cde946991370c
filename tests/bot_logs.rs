//! What `logs` tells a student about a bot that wrote something other than an answer on
//! stdout: through the real binary, a real SQLite file and real Python bots, the stored log
//! of each game names the first line that was not an answer and why, with the hint `play`
//! gives; a bot that only answered has no such line.

mod common;

use common::{ok, repo};
use std::path::Path;

/// A school of three teams, one set of 2 games of 5 turns: `Debugger` prints a debug line
/// to stdout in every game, `Good` only answers, the third team is a built-in AI.
fn tournament(dir: &Path) {
    std::fs::write(
        dir.join("fast.toml"),
        "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\n\
         turns_per_game = 5\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("cup.toml"),
        format!(
            "name = \"Cup\"\nseed = 3\nbracket = \"fast.toml\"\n[limits]\ntime_limit_ms = 1000\n\
             [[school]]\nname = \"Lab\"\n\
             [[school.team]]\nname = \"Debugger\"\nbot = \"python3 debug_stdout.py\"\ndir = \"{h}\"\n\
             [[school.team]]\nname = \"Good\"\nbot = \"python3 good.py\"\ndir = \"{h}\"\n\
             [[school.team]]\nname = \"Runner\"\nbot = \"builtin:runner\"\n",
            h = repo().join("tests/hostile").display()
        ),
    )
    .unwrap();
}

/// The lines of `text` that the harness wrote into a stored log.
fn notes(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| l.starts_with("[lrs-tourney]"))
        .collect()
}

/// A folder in which the tournament has been run.
fn played() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    tournament(t.path());
    ok(t.path(), &["run", "cup.toml", "--quiet"]);
    t
}

#[test]
fn logs_name_the_first_line_that_was_not_an_answer() {
    let t = played();

    let debugger = ok(
        t.path(),
        &["logs", "cup.toml", "lab/final", "--team", "Debugger"],
    );
    let games: Vec<&str> = debugger.split("== ").skip(1).collect();
    assert_eq!(games.len(), 2, "{debugger}");
    for game in games {
        assert_eq!(
            notes(game),
            [
                "[lrs-tourney] first bad line (answer is not JSON: expected value at line 1 column 1): \
                 \"DEBUG got turn 1\"",
                "[lrs-tourney] hint: stdout is for answers only: print debug output to stderr",
            ],
            "{game}"
        );
    }

    let good = ok(
        t.path(),
        &["logs", "cup.toml", "lab/final", "--team", "Good"],
    );
    assert_eq!(good.matches("== ").count(), 2, "{good}");
    assert!(notes(&good).is_empty(), "{good}");
}

#[test]
fn logs_answers_a_team_or_game_it_cannot_show_with_the_reason() {
    let t = played();

    // A team's name as a student types it: the case of the roster does not matter.
    let lower = ok(
        t.path(),
        &["logs", "cup.toml", "lab/final", "--team", "debugger"],
    );
    assert_eq!(lower.matches("== ").count(), 2, "{lower}");
    assert!(lower.contains("Debugger (Lab)"), "{lower}");

    // A built-in AI leaves no log: said of the team, not of the set.
    let builtin = ok(
        t.path(),
        &["logs", "cup.toml", "lab/final", "--team", "Runner"],
    );
    assert_eq!(
        builtin.trim(),
        "Runner plays the built-in AI builtin:runner, which leaves no bot logs"
    );

    // A game the series does not have is an error naming the games it has.
    let out = common::lrs(t.path(), &["logs", "cup.toml", "lab/final", "--game", "2"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("lab/final has games 0 to 1 (2 games a series): there is no game 2"),
        "{stderr}"
    );

    // A team that is not in the tournament.
    let out = common::lrs(
        t.path(),
        &["logs", "cup.toml", "lab/final", "--team", "Nobody"],
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no team named \"Nobody\""), "{stderr}");
}

//! JSON-lines bots that play a whole set in one process (docs/bots.md, "Playing a whole set
//! in one process"), through the real binary on real SQLite files: a bot that says
//! `"series": true` is kept from one game of its set to the next, one that does not is
//! started for every game, results are the same either way and whatever `--jobs` is, and a
//! kept bot that misbehaves between or during games costs only its own game.

mod common;

use common::{ok, repo};
use std::collections::BTreeMap;
use std::path::Path;

/// A school of three teams, one set of 4 games of 5 turns: `bots` are the commands of the
/// two teams `A` and `B` (run in `tests/hostile`), the third team a built-in AI.
fn tournament(dir: &Path, a: &str, b: &str) {
    std::fs::write(
        dir.join("fast.toml"),
        "name = \"Fast\"\nset_size = 8\ngames_per_series = 4\nadvance_per_set = 2\n\
         turns_per_game = 5\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
    )
    .unwrap();
    let hostile = repo().join("tests/hostile");
    std::fs::write(
        dir.join("cup.toml"),
        format!(
            "name = \"Cup\"\nseed = 3\nbracket = \"fast.toml\"\n[limits]\ntime_limit_ms = 1000\n\
             [[school]]\nname = \"Lab\"\n\
             [[school.team]]\nname = \"A\"\nbot = \"{a}\"\ndir = \"{h}\"\n\
             [[school.team]]\nname = \"B\"\nbot = \"{b}\"\ndir = \"{h}\"\n\
             [[school.team]]\nname = \"Runner\"\nbot = \"builtin:runner\"\n",
            h = hostile.display()
        ),
    )
    .unwrap();
    let _ = std::fs::remove_file(dir.join("cup.sqlite"));
}

/// One bot-game of the stored logs: how the process ended, and its `process TOKEN game N`
/// line.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BotGame {
    status: String,
    token: String,
    count: u32,
}

/// The stored logs of `team` in the set `lab/final`, by game.
fn logs(dir: &Path, team: &str) -> BTreeMap<u32, BotGame> {
    let text = ok(dir, &["logs", "cup.toml", "lab/final", "--team", team]);
    let mut games = BTreeMap::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("== lab/final game ") else {
            continue;
        };
        let game: u32 = rest.split(' ').next().unwrap().parse().unwrap();
        let status = rest
            .split_once(&format!("{team} (Lab): "))
            .unwrap_or_else(|| panic!("{line}"))
            .1
            .to_string();
        let mut token = String::new();
        let mut count = 0;
        while let Some(next) = lines.next_if(|l| !l.starts_with("== ")) {
            let words: Vec<&str> = next.split_whitespace().collect();
            if let ["process", t, "game", n] = words[..] {
                token = t.to_string();
                count = n.parse().unwrap();
            }
        }
        games.insert(
            game,
            BotGame {
                status,
                token,
                count,
            },
        );
    }
    games
}

/// The faults column of the games export for `team`, by game.
fn faults(dir: &Path, team: &str) -> Vec<u32> {
    let csv = ok(dir, &["export", "games", "cup.toml", "--out", "-"]);
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (team_col, faults_col, game_col) = (col("team"), col("faults"), col("game"));
    let mut by_game: Vec<(u32, u32)> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|cells| cells[team_col] == team)
        .map(|cells| {
            (
                cells[game_col].parse().unwrap(),
                cells[faults_col].parse().unwrap(),
            )
        })
        .collect();
    by_game.sort();
    by_game.into_iter().map(|(_, f)| f).collect()
}

fn standings(dir: &Path) -> String {
    ok(dir, &["export", "standings", "cup.toml", "--out", "-"])
}

const KEPT: &str = "kept for the next game of its set";

#[test]
fn a_bot_that_says_so_plays_its_whole_set_in_one_process() {
    let dir = tempfile::tempdir().unwrap();
    tournament(dir.path(), "python3 series.py series", "python3 series.py");
    ok(dir.path(), &["run", "cup.toml", "--quiet", "--jobs", "2"]);
    let kept = logs(dir.path(), "A");
    assert_eq!(kept.len(), 4, "{kept:?}");
    let token = &kept[&0].token;
    for (game, log) in &kept {
        assert_eq!(&log.token, token, "one process for the set: {kept:?}");
        assert_eq!(log.count, game + 1, "{kept:?}");
        let ended = if *game == 3 { "exit 0" } else { KEPT };
        assert_eq!(log.status, ended, "{kept:?}");
    }
    let fresh = logs(dir.path(), "B");
    assert_eq!(fresh.len(), 4, "{fresh:?}");
    let tokens: std::collections::BTreeSet<&String> = fresh.values().map(|l| &l.token).collect();
    assert_eq!(tokens.len(), 4, "a process per game: {fresh:?}");
    assert!(
        fresh.values().all(|l| l.count == 1 && l.status == "exit 0"),
        "{fresh:?}"
    );
    assert_eq!(faults(dir.path(), "A"), [0, 0, 0, 0]);

    // The same games whether the process is kept or not, and whatever --jobs is.
    let kept_standings = standings(dir.path());
    tournament(dir.path(), "python3 series.py", "python3 series.py");
    ok(dir.path(), &["run", "cup.toml", "--quiet", "--jobs", "1"]);
    assert_eq!(standings(dir.path()), kept_standings);
    tournament(
        dir.path(),
        "python3 series.py series",
        "python3 series.py series",
    );
    ok(dir.path(), &["run", "cup.toml", "--quiet", "--jobs", "4"]);
    assert_eq!(standings(dir.path()), kept_standings);
}

/// A kept bot that prints between games or exits after a game although it said it plays
/// the set: the lines answer nothing and count against no game, and the game after the
/// exit starts the bot afresh, with no fault. One that crashes in the middle of a game
/// has that game's faults, and the next game starts it afresh.
#[test]
fn a_kept_bot_that_goes_wrong_costs_only_its_own_game() {
    let dir = tempfile::tempdir().unwrap();
    tournament(
        dir.path(),
        "python3 series.py series junk exit-after-2",
        "python3 series.py series crash-in-3",
    );
    ok(dir.path(), &["run", "cup.toml", "--quiet"]);
    let exits = logs(dir.path(), "A");
    let counts: Vec<u32> = exits.values().map(|l| l.count).collect();
    assert_eq!(counts, [1, 2, 1, 2], "{exits:?}");
    assert_eq!(exits[&0].token, exits[&1].token, "{exits:?}");
    assert_ne!(exits[&1].token, exits[&2].token, "{exits:?}");
    assert_eq!(exits[&2].token, exits[&3].token, "{exits:?}");
    assert_eq!(faults(dir.path(), "A"), [0, 0, 0, 0], "{exits:?}");

    let crashes = logs(dir.path(), "B");
    let counts: Vec<u32> = crashes.values().map(|l| l.count).collect();
    assert_eq!(counts, [1, 2, 3, 1], "{crashes:?}");
    assert_eq!(crashes[&2].status, "exit 3", "{crashes:?}");
    assert_eq!(crashes[&3].status, "exit 0", "{crashes:?}");
    assert_eq!(faults(dir.path(), "B"), [0, 0, 5, 0], "{crashes:?}");
}

/// `play` keeps a bot that says so for the games each of its threads plays: the figures
/// are those of the same bot started for every game, whatever `--jobs` is, with no fault.
#[test]
fn play_keeps_a_series_bot_per_thread_with_the_same_figures() {
    let dir = tempfile::tempdir().unwrap();
    let hostile = repo().join("tests/hostile");
    let hostile = hostile.to_str().unwrap();
    let play = |bot: &str, jobs: &str| -> serde_json::Value {
        let out = ok(
            dir.path(),
            &[
                "play",
                "--board",
                "gear-works",
                "--games",
                "5",
                "--turns",
                "5",
                "--seed",
                "4",
                "--jobs",
                jobs,
                "--json",
                "--bot-dir",
                hostile,
                "--bot",
                bot,
                "--bot",
                "builtin:runner",
                "--bot",
                "builtin:hunter",
            ],
        );
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            json["external"][0]["faults"], 0,
            "{bot}, --jobs {jobs}: {out}"
        );
        // How the bot's process ended in game 0: kept for the next game of its thread, or
        // ended.
        let ended = if bot.ends_with("series") {
            KEPT
        } else {
            "exit 0"
        };
        assert_eq!(
            json["external"][0]["ended"], ended,
            "{bot}, --jobs {jobs}: {out}"
        );
        json["bots"].clone()
    };
    let fresh = play("jsonl:python3 series.py", "1");
    let named = |bots: serde_json::Value| {
        // The bot's label holds its command: compare the figures only.
        bots.as_array()
            .unwrap()
            .iter()
            .map(|b| {
                let mut b = b.clone();
                b["bot"] = serde_json::Value::Null;
                b
            })
            .collect::<Vec<_>>()
    };
    let fresh = named(fresh);
    for jobs in ["1", "3"] {
        let kept = named(play("jsonl:python3 series.py series", jobs));
        assert_eq!(kept, fresh, "--jobs {jobs}");
    }
}

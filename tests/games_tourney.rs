//! Tournaments of RobotGame, Robots, RoboRally and Robo Runner through the real binary, from the shipped
//! configurations (copied with the brackets and starter kits they name): check, run with
//! the Python starter kit as a sandboxed JSON-lines bot, standings and exports with each
//! game's own statistics, replays checked against the stored scores, reruns, and the same
//! games whatever `--jobs` is.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lrs(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lrs-tourney"))
        .args(args)
        .output()
        .expect("runs lrs-tourney")
}

fn ok(args: &[&str]) -> String {
    let out = lrs(args);
    assert!(
        out.status.success(),
        "lrs-tourney {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The shipped configuration of `game` in a fresh folder laid out as in the repository.
fn shipped(game: &str) -> (tempfile::TempDir, PathBuf) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("configs")).unwrap();
    std::fs::create_dir_all(dir.path().join("brackets")).unwrap();
    let name = format!("{game}-school.toml");
    std::fs::copy(
        root.join("configs").join(&name),
        dir.path().join("configs").join(&name),
    )
    .unwrap();
    let bracket = format!("{game}.toml");
    std::fs::copy(
        root.join("brackets").join(&bracket),
        dir.path().join("brackets").join(&bracket),
    )
    .unwrap();
    copy_dir(
        &root.join("examples/bots").join(game),
        &dir.path().join("examples/bots").join(game),
    );
    let config = dir.path().join("configs").join(name);
    (dir, config)
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

fn header(text: &str) -> Vec<String> {
    text.lines()
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect()
}

/// Plays the shipped school tournament of `game` and checks every command on it.
fn school_tournament(game: &str, statistics: &[&str]) {
    let (dir, config) = shipped(game);
    let config = config.to_str().unwrap();
    let checked = ok(&["check", config]);
    assert!(
        checked.contains("Byte Busters (Westfield High): ok"),
        "{checked}"
    );
    let ran = ok(&["run", config, "--quiet"]);
    assert!(ran.contains("games: 30"), "{ran}");
    let db = dir.path().join(format!("configs/{game}-school.sqlite"));
    let db = db.to_str().unwrap();

    // Standings: the game's statistics between games_won and faults, every team listed.
    let standings = ok(&["export", "standings", db, "--out", "-"]);
    let mut expected = vec![
        "rank",
        "team",
        "school",
        "stage_reached",
        "round_reached",
        "total_score",
        "school_score",
        "nationals_score",
        "games_played",
        "games_won",
    ];
    expected.extend(statistics);
    expected.extend(["faults", "qualified_by", "tie_break"]);
    assert_eq!(header(&standings), expected);
    let rows = csv_rows(&standings);
    assert_eq!(rows.len(), 12);
    // Four finalists played 20 games, the others 10.
    let played: Vec<&str> = rows.iter().map(|r| r[8].as_str()).collect();
    assert_eq!(
        played.iter().filter(|p| **p == "20").count(),
        4,
        "{played:?}"
    );
    let qualified_at = expected.iter().position(|c| *c == "qualified_by").unwrap();
    assert_eq!(rows.iter().filter(|r| r[qualified_at] == "top2").count(), 2);

    // Games: a line per team per game with the statistics; the starter kit answered.
    let games = ok(&["export", "games", db, "--out", "-"]);
    let columns = header(&games);
    for s in statistics {
        assert!(columns.contains(&s.to_string()), "{columns:?}");
    }
    let faults_at = columns.iter().position(|c| c == "faults").unwrap();
    let team_at = columns.iter().position(|c| c == "team").unwrap();
    let lines = csv_rows(&games);
    let kit: Vec<_> = lines
        .iter()
        .filter(|l| l[team_at] == "Byte Busters")
        .collect();
    assert!(kit.len() >= 10);
    assert!(
        kit.iter().all(|l| l[faults_at] == "0"),
        "the kit faulted: {kit:?}"
    );

    // Every game replays to its stored scores.
    let replayed = ok(&["replay", db, "westfield-high/final", "0"]);
    assert!(
        replayed.contains("the scores match the stored results"),
        "{replayed}"
    );
    let text = ok(&["replay", db, "westfield-high/final", "0", "--text"]);
    assert!(
        text.contains("== turn 2"),
        "{}",
        &text[..text.len().min(2000)]
    );
    assert!(
        text.contains("Byte Busters") || text.contains("seat 3"),
        "names the seats"
    );
    let json = ok(&["replay", db, "westfield-high/r1/s1", "3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["game_kind"], game);
    let html = dir.path().join("replay.html");
    ok(&[
        "replay",
        db,
        "westfield-high/final",
        "1",
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read_to_string(&html)
            .unwrap()
            .contains("default-src 'none'")
    );
    let site = dir.path().join("site");
    let report = ok(&["report", db, "--out", site.to_str().unwrap()]);
    assert!(report.contains("30 game replays"), "{report}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(!index.contains("REPLAY DIFFERS"), "a replay differs");

    // A rerun of a first-round set with the same seeds plays the same games.
    let rerun = ok(&[
        "rerun",
        db,
        "westfield-high/r1/s1",
        "--reason",
        "dispute",
        "--quiet",
    ]);
    assert!(
        rerun.contains("advancement from westfield-high/r1/s1: unchanged"),
        "{rerun}"
    );
    let after = ok(&["export", "standings", db, "--out", "-"]);
    assert_eq!(
        after, standings,
        "a rerun with the same seeds changed the standings"
    );
}

#[test]
fn a_roborally_school_tournament_runs_from_the_shipped_config() {
    school_tournament("roborally", &["finishes", "checkpoints", "hits", "deaths"]);
}

#[test]
fn a_roborunner_school_tournament_runs_from_the_shipped_config() {
    school_tournament(
        "roborunner",
        &["inspections", "finishes", "kills", "welds", "deaths"],
    );
}

/// The RoboRally starter kit plays real races through `play` as a sandboxed subprocess:
/// no fault, and it finishes races against `random`.
#[test]
fn the_roborally_starter_kit_races_through_play() {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bots/roborally");
    let out = ok(&[
        "play",
        "--game",
        "roborally",
        "--bot-dir",
        kit.to_str().unwrap(),
        "--bot",
        "jsonl:python3 bot.py",
        "--bot",
        "builtin:random",
        "--games",
        "4",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let kit = &v["bots"][0];
    assert_eq!(kit["faults"], 0, "{kit}");
    assert!(kit["finishes"].as_u64().unwrap() >= 2, "{kit}");
    assert!(kit["wins"].as_u64() > v["bots"][1]["wins"].as_u64(), "{v}");
}

#[test]
fn a_robotgame_school_tournament_runs_from_the_shipped_config() {
    school_tournament("robotgame", &["damage_dealt", "kills"]);
}

#[test]
fn a_robots_school_tournament_runs_from_the_shipped_config() {
    school_tournament("robots", &["levels_cleared", "kills", "turns"]);
}

/// The same tournament of built-in AIs, played with 1 and with 2 workers, stores the same
/// games.
#[test]
fn robotgame_results_do_not_depend_on_jobs() {
    let mut exports = Vec::new();
    for jobs in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("bracket.toml"),
            "name = \"RG\"\ngame = \"robotgame\"\nset_size = 4\ngames_per_series = 3\n\
             advance_per_set = 2\nfill_nationals_to_multiple_of = 4\n",
        )
        .unwrap();
        let mut text = String::from("name = \"t\"\nseed = 7\nbracket = \"bracket.toml\"\n");
        for school in ["A", "B"] {
            text += &format!("[[school]]\nname = \"{school}\"\n");
            for (i, ai) in ["hunter", "random", "hunter", "random", "random"]
                .iter()
                .enumerate()
            {
                text +=
                    &format!("[[school.team]]\nname = \"{school}{i}\"\nbot = \"builtin:{ai}\"\n");
            }
        }
        let config = dir.path().join("t.toml");
        std::fs::write(&config, text).unwrap();
        ok(&["run", config.to_str().unwrap(), "--quiet", "--jobs", jobs]);
        let db = dir.path().join("t.sqlite");
        exports.push(ok(&["export", "games", db.to_str().unwrap(), "--out", "-"]));
    }
    assert_eq!(exports[0], exports[1]);
    assert!(exports[0].lines().count() > 30, "{}", exports[0]);
}

/// Configuration mistakes of the new games are named at their file position.
#[test]
fn bad_game_settings_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "game = \"chess\"\n",
            "bracket.toml:1:8: unknown game \"chess\"",
        ),
        (
            "[game]\nid = \"robots\"\nstart_level = 30\n",
            "bracket.toml:3:15: [game] of robots: `start_level` = 30 is out of range",
        ),
        (
            "game = \"robotgame\"\nboards = [\"gear-works\"]\n",
            "bracket.toml:2:10: `boards` is a setting of Last Robot Standing, not of RobotGame",
        ),
    ];
    let head = "name = \"x\"\nset_size = 4\ngames_per_series = 2\nadvance_per_set = 2\n\
                fill_nationals_to_multiple_of = 4\n";
    for (game, expected) in cases {
        // The game lines first, so their line numbers are the ones in `expected`.
        let text = if game.starts_with("[game]") {
            format!("{head}{game}")
        } else {
            format!("{game}{head}")
        };
        std::fs::write(dir.path().join("bracket.toml"), &text).unwrap();
        std::fs::write(
            dir.path().join("t.toml"),
            "name = \"t\"\nseed = 1\nbracket = \"bracket.toml\"\n[[school]]\nname = \"S\"\n\
             [[school.team]]\nname = \"a\"\nbot = \"builtin:random\"\n",
        )
        .unwrap();
        let out = lrs(&[
            "check",
            dir.path().join("t.toml").to_str().unwrap(),
            "--no-smoke",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        let expected = if game.starts_with("[game]") {
            expected.replace("bracket.toml:3:", "bracket.toml:8:")
        } else {
            expected.to_string()
        };
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&expected), "expected {expected:?} in:\n{err}");
    }
    // An AI of another game.
    std::fs::write(
        dir.path().join("bracket.toml"),
        format!("game = \"robotgame\"\n{head}"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("t.toml"),
        "name = \"t\"\nseed = 1\nbracket = \"bracket.toml\"\n[[school]]\nname = \"S\"\n\
         [[school.team]]\nname = \"a\"\nbot = \"builtin:runner\"\n",
    )
    .unwrap();
    let out = lrs(&[
        "check",
        dir.path().join("t.toml").to_str().unwrap(),
        "--no-smoke",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown built-in AI \"runner\" of RobotGame; expected one of builtin:random, builtin:hunter"),
        "{err}"
    );
}

/// `generate --game` writes a nationals of the game that runs to a champion, with the
/// game's statistics in its standings.
#[test]
fn generate_writes_a_nationals_of_each_game() {
    for (game, stat) in [("robotgame", "damage_dealt"), ("robots", "levels_cleared")] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().to_str().unwrap();
        ok(&[
            "generate",
            "--teams",
            "30",
            "--schools",
            "4",
            "--game",
            game,
            "--out",
            out,
        ]);
        let config = dir.path().join("tournament.toml");
        let ran = ok(&["run", config.to_str().unwrap(), "--quiet"]);
        assert!(ran.contains("champion"), "{ran}");
        let standings = ok(&[
            "export",
            "standings",
            config.to_str().unwrap(),
            "--out",
            "-",
        ]);
        assert!(
            header(&standings).contains(&stat.to_string()),
            "{standings}"
        );
        assert_eq!(csv_rows(&standings).len(), 30);
    }
    let wrong = lrs(&[
        "generate",
        "--teams",
        "9",
        "--schools",
        "2",
        "--game",
        "robots",
        "--bot",
        "builtin:hunter",
    ]);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&wrong.stderr)
            .contains("expected a built-in AI of Robots (builtin:random, builtin:dodger)")
    );
}

//! Reruns on real SQLite files through the real binary: cascades that must reach every set
//! they change, progress figures, and reruns given only the database.

mod common;

use common::{block_on, lrs, repo};
use lrs_tourney::runner::check_store;
use lrs_tourney::tourney::config::load_tournament;
use std::path::{Path, PathBuf};

/// Copies a shipped example config (and its roster) into `dir`.
fn copy_example(dir: &Path, name: &str) -> PathBuf {
    for entry in std::fs::read_dir(repo().join("configs")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.starts_with(name) && (file.ends_with(".toml") || file.ends_with(".csv")) {
            std::fs::copy(&path, dir.join(&file)).unwrap();
        }
    }
    let target = dir.join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&target).unwrap();
    let fixed = text.replace("../brackets/", &format!("{}/brackets/", repo().display()));
    std::fs::write(&target, fixed).unwrap();
    target
}

/// Runs the binary, expecting `code`; returns (stdout, stderr).
#[track_caller]
fn expect(dir: &Path, args: &[&str], code: i32) -> (String, String) {
    let out = lrs(dir, args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "args {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// The stored tournament is what the bracket gives for its stored results, and complete.
#[track_caller]
fn assert_consistent(file: &Path) {
    let t = load_tournament(file).unwrap();
    let c = block_on(check_store(&t)).unwrap();
    assert!(c.problems.is_empty(), "{:#?}", c.problems);
    assert!(c.complete, "the tournament is not complete");
}

/// A rerun of a school set whose teams advance unchanged but in another order: the school
/// final is dealt the same teams in other positions, its replay sends other qualifiers to
/// the nationals, so every nationals set must be invalidated with it (they were not: the
/// next `run` then stopped on `nationals/r1/s1`).
#[test]
fn a_cascade_from_a_school_set_reaches_the_nationals_it_changes() {
    let t = tempfile::tempdir().unwrap();
    let file = copy_example(t.path(), "nationals");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    assert_consistent(&file);
    let set = "northgate-technical-institute/r1/s2";
    let (_, err) = expect(
        t.path(),
        &["rerun", f, set, "--reason", "x", "--reseed", "--quiet"],
        1,
    );
    for id in [
        "northgate-technical-institute/final",
        "nationals/r1/s1",
        "nationals/final",
    ] {
        assert!(err.contains(id), "{err}");
    }
    assert_consistent(&file);
    let (out, _) = expect(
        t.path(),
        &[
            "rerun",
            f,
            set,
            "--reason",
            "x",
            "--reseed",
            "--cascade",
            "--quiet",
        ],
        0,
    );
    assert!(out.contains("nationals/r1/s1"), "{out}");
    assert_consistent(&file);
    let (out, _) = expect(t.path(), &["run", f, "--quiet"], 0);
    assert!(out.contains("champion:"), "{out}");
}

/// The last progress line of a rerun that replays later sets never passes 100%.
#[test]
fn rerun_progress_counts_the_bracket_once() {
    let t = tempfile::tempdir().unwrap();
    let file = copy_example(t.path(), "school");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    let (_, err) = expect(
        t.path(),
        &[
            "rerun",
            f,
            "westfield-high/r1/s1",
            "--reason",
            "x",
            "--reseed",
            "--cascade",
        ],
        0,
    );
    let last = err
        .lines()
        .rfind(|l| l.starts_with("progress: "))
        .unwrap_or_else(|| panic!("no progress line in {err}"));
    assert!(
        last.starts_with("progress: 40/40 games (100%)"),
        "{last}\n{err}"
    );
    assert_consistent(&file);
}

/// A one-school tournament of two JSON-lines bots (`tests/hostile/good.py`, copied into
/// `bots/good`) and two built-in AIs, 2 games of 5 turns per set; returns its file.
fn jsonl_tournament(dir: &Path, limits: &str) -> PathBuf {
    let bots = dir.join("bots/good");
    std::fs::create_dir_all(&bots).unwrap();
    for f in ["good.py", "common.py"] {
        std::fs::copy(repo().join("tests/hostile").join(f), bots.join(f)).unwrap();
    }
    std::fs::write(
        dir.join("fast.toml"),
        "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 5\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
    )
    .unwrap();
    let file = dir.join("t.toml");
    std::fs::write(
        &file,
        format!(
            r#"name = "Lab Cup"
seed = 11
bracket = "fast.toml"
database = "t.sqlite"
{limits}
[[school]]
name = "Lab"
  [[school.team]]
  name = "Good One"
  bot = "python3 good.py"
  dir = "bots/good"
  [[school.team]]
  name = "Good Two"
  bot = "python3 'good.py'"
  dir = "bots/good"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
  [[school.team]]
  name = "Hunter"
  bot = "builtin:hunter"
"#
        ),
    )
    .unwrap();
    file
}

/// The sum of the `faults` column of the games export, over games that stand.
fn standing_faults(dir: &Path, target: &str) -> u32 {
    let (csv, _) = expect(dir, &["export", "games", target, "--out", "-"], 0);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (faults, superseded) = (col("faults"), col("superseded"));
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|cells| cells[superseded] == "0" && !cells[faults].is_empty())
        .map(|cells| cells[faults].parse::<u32>().unwrap())
        .sum()
}

/// `rerun DB SET`, given only the database and from another folder, plays the stored bots
/// in their stored directories under the stored limits: no fault, the same games again.
#[test]
fn a_rerun_from_the_database_alone_plays_the_stored_bots() {
    let t = tempfile::tempdir().unwrap();
    let file = jsonl_tournament(t.path(), "[limits]\ntime_limit_ms = 2000\n");
    expect(t.path(), &["run", file.to_str().unwrap(), "--quiet"], 0);
    assert_eq!(standing_faults(t.path(), "t.sqlite"), 0);
    let (before, _) = expect(
        t.path(),
        &["export", "standings", "t.sqlite", "--out", "-"],
        0,
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let db = t.path().join("t.sqlite");
    let (out, _) = expect(
        elsewhere.path(),
        &[
            "rerun",
            db.to_str().unwrap(),
            "lab/final",
            "--reason",
            "x",
            "--quiet",
        ],
        0,
    );
    assert!(
        out.contains("advancement from lab/final: unchanged"),
        "{out}"
    );
    assert_eq!(standing_faults(t.path(), "t.sqlite"), 0);
    let (after, _) = expect(
        t.path(),
        &["export", "standings", "t.sqlite", "--out", "-"],
        0,
    );
    assert_eq!(before, after);
    assert_consistent(&file);
}

/// A bot directory that moved or changed since the tournament started is named, and the
/// rerun writes nothing.
#[test]
fn a_rerun_from_the_database_refuses_a_moved_or_changed_bot_directory() {
    let t = tempfile::tempdir().unwrap();
    let file = jsonl_tournament(t.path(), "");
    expect(t.path(), &["run", file.to_str().unwrap(), "--quiet"], 0);
    let (games_before, _) = expect(t.path(), &["export", "games", "t.sqlite", "--out", "-"], 0);
    let rerun = ["rerun", "t.sqlite", "lab/final", "--reason", "x", "--quiet"];

    std::fs::write(t.path().join("bots/good/good.py"), "print('changed')\n").unwrap();
    let (_, err) = expect(t.path(), &rerun, 2);
    assert!(err.contains("team \"Good One\" (Lab)"), "{err}");
    assert!(
        err.contains("changed since the tournament started"),
        "{err}"
    );

    std::fs::rename(t.path().join("bots/good"), t.path().join("bots/moved")).unwrap();
    let (_, err) = expect(t.path(), &rerun, 2);
    assert!(err.contains("does not exist any more"), "{err}");
    let (games_after, _) = expect(t.path(), &["export", "games", "t.sqlite", "--out", "-"], 0);
    assert_eq!(games_before, games_after, "a refused rerun wrote something");
}

/// A command whose quotes are not closed is refused when the configuration is read, at its
/// roster row and column or its file position, before anything runs.
#[test]
fn a_broken_command_is_refused_at_load_with_its_place() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("bots")).unwrap();
    std::fs::write(
        t.path().join("roster.csv"),
        "school,team,bot,dir\nLab,Ants,builtin:runner,\nLab,Bees,python3 'bot.py,bots\n",
    )
    .unwrap();
    std::fs::write(
        t.path().join("t.toml"),
        "name = \"Cup\"\nseed = 1\nroster = \"roster.csv\"\n[[school]]\nname = \"Lab\"\n  [[school.team]]\n  name = \"Cats\"\n  bot = \"python3 \\\"bot.py\"\n  dir = \"bots\"\n",
    )
    .unwrap();
    let (_, err) = expect(t.path(), &["check", "t.toml", "--no-smoke"], 2);
    assert!(
        err.contains("roster.csv row 3, column 3 (bot): the command \"python3 'bot.py\" cannot be split into words: unterminated single quote"),
        "{err}"
    );
    assert!(err.contains("t.toml:8:9: the command"), "{err}");
    let (_, err) = expect(t.path(), &["run", "t.toml", "--quiet"], 2);
    assert!(err.contains("unterminated double quote"), "{err}");
    assert!(!t.path().join("t.sqlite").exists());
}

/// A limit or a team changed after games were stored is refused, naming what differs and
/// how to start afresh; nothing is written.
#[test]
fn a_changed_limit_or_team_is_refused_naming_it() {
    let t = tempfile::tempdir().unwrap();
    let file = jsonl_tournament(t.path(), "[limits]\ntime_limit_ms = 1000\n");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    let original = std::fs::read_to_string(&file).unwrap();
    let (games_before, _) = expect(t.path(), &["export", "games", "t.sqlite", "--out", "-"], 0);

    std::fs::write(
        &file,
        original.replace("time_limit_ms = 1000", "time_limit_ms = 500"),
    )
    .unwrap();
    for args in [
        vec!["run", f, "--quiet"],
        vec!["rerun", f, "lab/final", "--reason", "x", "--quiet"],
    ] {
        let (_, err) = expect(t.path(), &args, 1);
        assert!(
            err.contains("different configuration: limits.time_limit_ms: stored 1000, file 500;"),
            "{err}"
        );
        assert!(err.contains("delete "), "{err}");
    }

    std::fs::write(&file, original.replace("\"Good Two\"", "\"Good 2\"")).unwrap();
    let (_, err) = expect(t.path(), &["run", f, "--quiet"], 1);
    assert!(
        err.contains(
            "team 2 \"Good Two\" (school Lab): name changed: stored \"Good Two\", file \"Good 2\""
        ),
        "{err}"
    );
    std::fs::write(
        &file,
        original.replace("python3 good.py", "python3 ./good.py"),
    )
    .unwrap();
    let (_, err) = expect(t.path(), &["run", f, "--quiet"], 1);
    assert!(
        err.contains("team 1 \"Good One\" (school Lab): bot changed: stored \"jsonl:python3 good.py\", file \"jsonl:python3 ./good.py\""),
        "{err}"
    );
    let (games_after, _) = expect(t.path(), &["export", "games", "t.sqlite", "--out", "-"], 0);
    assert_eq!(games_before, games_after);

    std::fs::write(&file, &original).unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
}

/// A database started before limits and command words were stored: with the file, `run`
/// records the file's limits (and refuses other limits afterwards); from the database
/// alone, a rerun asks for the file once.
#[test]
fn a_database_without_stored_limits_records_them_from_the_file() {
    let t = tempfile::tempdir().unwrap();
    let file = jsonl_tournament(t.path(), "[limits]\ntime_limit_ms = 1500\n");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    // Make it look like a database of the previous version.
    let loaded = load_tournament(&file).unwrap();
    let seed = lrs_tourney::tourney::bracket::TournamentSeed::keyed(loaded.seed.unwrap());
    let legacy = lrs_tourney::runner::legacy_fingerprint(&loaded, &seed);
    let db = t.path().join("t.sqlite");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            use sqlx::sqlite::SqliteConnectOptions;
            let pool = sqlx::SqlitePool::connect_with(SqliteConnectOptions::new().filename(&db))
                .await
                .unwrap();
            sqlx::query(
                "UPDATE tournament SET config_hash = $1, time_limit_ms = NULL,
                 start_limit_ms = NULL, memory_mb = NULL",
            )
            .bind(legacy)
            .execute(&pool)
            .await
            .unwrap();
            sqlx::query("UPDATE teams SET argv = NULL")
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
        });
    let (_, err) = expect(
        t.path(),
        &["rerun", "t.sqlite", "lab/final", "--reason", "x", "--quiet"],
        2,
    );
    assert!(err.contains("did not store the limits"), "{err}");
    // With the file: accepted, and its limits recorded.
    expect(
        t.path(),
        &["rerun", f, "lab/final", "--reason", "x", "--quiet"],
        0,
    );
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("time_limit_ms = 1500", "time_limit_ms = 900"),
    )
    .unwrap();
    let (_, err) = expect(t.path(), &["run", f, "--quiet"], 1);
    assert!(
        err.contains("limits.time_limit_ms: stored 1500, file 900"),
        "{err}"
    );
    // From the database alone now: the recorded limits, the words split from the command.
    expect(
        t.path(),
        &["rerun", "t.sqlite", "lab/final", "--reason", "y", "--quiet"],
        0,
    );
    assert_eq!(standing_faults(t.path(), "t.sqlite"), 0);
}

/// A database in which a played set holds its teams in another order than the bracket
/// deals them (what a cascade of an earlier version could leave): `run` names the set and
/// its teams, and the rerun it suggests deals it again and replays it.
#[test]
fn a_stale_set_is_named_with_the_rerun_that_replays_it() {
    let t = tempfile::tempdir().unwrap();
    let file = copy_example(t.path(), "school");
    let f = file.to_str().unwrap();
    expect(t.path(), &["run", f, "--quiet"], 0);
    let db = t.path().join("school.sqlite");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            use sqlx::sqlite::SqliteConnectOptions;
            let pool = sqlx::SqlitePool::connect_with(SqliteConnectOptions::new().filename(&db))
                .await
                .unwrap();
            // Swap the first two positions of the final.
            for sql in [
                "UPDATE set_members SET position = 100 WHERE set_id = 'westfield-high/final' AND position = 0",
                "UPDATE set_members SET position = 0 WHERE set_id = 'westfield-high/final' AND position = 1",
                "UPDATE set_members SET position = 1 WHERE set_id = 'westfield-high/final' AND position = 100",
            ] {
                sqlx::query(sql).execute(&pool).await.unwrap();
            }
            pool.close().await;
        });
    let c = block_on(check_store(&load_tournament(&file).unwrap())).unwrap();
    assert!(!c.problems.is_empty(), "check_store misses the stale set");
    let (_, err) = expect(t.path(), &["run", f, "--quiet"], 1);
    assert!(
        err.contains("set westfield-high/final was played by "),
        "{err}"
    );
    assert!(!err.contains("[0"), "internal team numbers in {err}");
    let suggested = err
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {err}"));
    let mut args: Vec<String> = Vec::new();
    for (i, part) in suggested.split('"').enumerate() {
        if i % 2 == 1 {
            args.push(part.to_string());
        } else {
            args.extend(part.split_whitespace().map(str::to_string));
        }
    }
    assert_eq!(args[0], "lrs-tourney", "{suggested}");
    let args: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    let (out, _) = expect(t.path(), &args, 0);
    assert!(out.contains("westfield-high/final"), "{out}");
    assert_consistent(&file);
    expect(t.path(), &["run", f, "--quiet"], 0);
}

/// A rerun from the tournament file plays the bot folders as they are now: when a team
/// edited its bot after the set was played, the command and the audit log name the team and
/// both content hashes, and the set records the new code (a second rerun is silent).
#[test]
fn a_rerun_that_plays_changed_bot_code_names_the_team() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path();
    std::fs::write(
        dir.join("bracket.toml"),
        "name = \"x\"\nset_size = 3\ngames_per_series = 2\nadvance_per_set = 1\n\
         fill_nationals_to_multiple_of = 2\n[game]\nid = \"robots\"\nmax_turns = 5\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("school.toml"),
        "name = \"Code check\"\nseed = 7\nbracket = \"bracket.toml\"\n\n\
         [[school]]\nname = \"Westfield High\"\n\n\
         [[school.team]]\nname = \"Byte Busters\"\nbot = \"python3 bot.py\"\ndir = \"bots/bb\"\n\n\
         [[school.team]]\nname = \"Null Pointers\"\nbot = \"builtin:random\"\n\n\
         [[school.team]]\nname = \"Stack Smashers\"\nbot = \"builtin:dodger\"\n",
    )
    .unwrap();
    let bot = dir.join("bots/bb/bot.py");
    std::fs::create_dir_all(bot.parent().unwrap()).unwrap();
    let passer = "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n    \
                  if m['type'] == 'turn':\n        print(json.dumps({'moves': ['P']}), flush=True)\n";
    std::fs::write(&bot, passer).unwrap();
    let f = "school.toml";
    expect(dir, &["run", f, "--quiet"], 0);
    let set = "westfield-high/final";
    let (out, _) = expect(
        dir,
        &["rerun", f, set, "--reason", "same code", "--quiet"],
        0,
    );
    assert!(!out.contains("changed since"), "{out}");

    std::fs::write(&bot, passer.replace("'P'", "'L'")).unwrap();
    let (out, _) = expect(dir, &["rerun", f, set, "--reason", "protest", "--quiet"], 0);
    assert!(
        out.starts_with(&format!(
            "{set}: the bot code of 1 team(s) changed since the set was played"
        )),
        "{out}"
    );
    let line = out.lines().nth(1).unwrap();
    assert!(line.starts_with("  Byte Busters ("), "{out}");
    assert!(line.contains("bots/bb): content hash "), "{out}");
    let (status, _) = expect(dir, &["status", f], 0);
    let audit: Vec<&str> = status.lines().filter(|l| l.contains(" rerun ")).collect();
    assert_eq!(audit.len(), 2, "{status}");
    assert!(!audit[0].contains("bot code changed"), "{status}");
    assert!(
        audit[1].contains("bot code changed since the set was played: Byte Busters ("),
        "{status}"
    );
    // The set now records the code the rerun played.
    let (out, _) = expect(dir, &["rerun", f, set, "--reason", "again", "--quiet"], 0);
    assert!(!out.contains("changed since"), "{out}");
}

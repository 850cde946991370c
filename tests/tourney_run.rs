//! `run`, `status`, `standings`, `export` and `rerun` on real SQLite files, through the real
//! binary: resume after kill -9, independence from --jobs, the run lock, reruns.

mod common;

use common::{Test, bin, lrs, ok, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Copies a shipped example config (and its roster) into `dir`.
fn copy_example(dir: &Path, name: &str) -> PathBuf {
    for entry in std::fs::read_dir(repo().join("configs")).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file.starts_with(name) && (file.ends_with(".toml") || file.ends_with(".csv")) {
            std::fs::copy(&path, dir.join(&file)).unwrap();
        }
    }
    // Shipped configs may name the bracket file relative to configs/.
    let target = dir.join(format!("{name}.toml"));
    let text = std::fs::read_to_string(&target).unwrap();
    let fixed = text.replace("../brackets/", &format!("{}/brackets/", repo().display()));
    std::fs::write(&target, fixed).unwrap();
    target
}

fn export(dir: &Path, what: &str, target: &str) -> String {
    ok(dir, &["export", what, target, "--out", "-"])
}

/// The games export without the columns that record how a run went (attempts), which an
/// interrupted run legitimately changes.
/// The position of column `name` in the CSV text `csv` (by its header line).
fn column(csv: &str, name: &str) -> usize {
    let header = csv.lines().next().unwrap_or_default();
    header
        .split(',')
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header}"))
}

fn games_without_attempts(csv: &str) -> String {
    let attempts = column(csv, "attempts");
    csv.lines()
        .map(|l| {
            let mut cells: Vec<&str> = l.split(',').collect();
            if cells.len() > attempts {
                cells.remove(attempts);
            }
            cells.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn school_run_plays_three_sets_and_a_final() {
    let t = Test::new();
    let file = copy_example(t.dir(), "school");
    let out = ok(t.dir(), &["run", file.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("school winner:"), "{out}");
    assert!(out.contains("games: 40 "), "{out}");
    let standings = export(t.dir(), "standings", "school.toml");
    let mut lines = standings.lines();
    assert_eq!(
        lines.next().unwrap(),
        "rank,team,school,stage_reached,round_reached,total_score,school_score,nationals_score,games_played,games_won,flags,hits,pushes,push_kills,deaths,faults,qualified_by,tie_break"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 19);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], (i + 1).to_string());
    }
    // The final's top two qualified, nobody else.
    assert_eq!(rows.iter().filter(|r| r[16] == "top2").count(), 2);
    assert_eq!(rows[0][16], "top2");
    assert_eq!(rows[1][16], "top2");
    // Six finalists (the top 2 of sets of 7, 6, 6) ranked first, all with 20 games.
    for row in &rows[..6] {
        assert_eq!(row[4], "final");
        assert_eq!(row[8], "20");
    }
    for row in &rows[6..] {
        assert_eq!(row[4], "r1");
        assert_eq!(row[8], "10");
    }
    let status = ok(t.dir(), &["status", "school.sqlite"]);
    for id in [
        "westfield-high/r1/s1",
        "westfield-high/r1/s2",
        "westfield-high/r1/s3",
        "westfield-high/final",
    ] {
        assert!(status.contains(id), "{status}");
    }
    // A second run finds everything stored and plays nothing.
    let again = ok(t.dir(), &["run", "school.toml", "--quiet"]);
    assert!(again.contains("40 resumed"), "{again}");
    assert_eq!(export(t.dir(), "standings", "school.toml"), standings);
}

#[test]
fn nationals_fill_to_a_multiple_of_eight_with_wild_cards() {
    let t = Test::new();
    let file = copy_example(t.dir(), "nationals");
    let out = ok(t.dir(), &["run", file.to_str().unwrap(), "--quiet"]);
    assert!(out.contains("champion:"), "{out}");
    let standings = export(t.dir(), "standings", "nationals.toml");
    let rows: Vec<Vec<String>> = standings
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let at_nationals = rows.iter().filter(|r| r[3] == "nationals").count();
    assert_eq!(at_nationals % 8, 0, "{standings}");
    let wild = rows.iter().filter(|r| r[16] == "wildcard").count();
    assert!(wild > 0);
    // Wild cards are the best non-qualified teams by school-stage total.
    let best_out = rows
        .iter()
        .filter(|r| r[3] == "school")
        .map(|r| r[6].parse::<i64>().unwrap())
        .max()
        .unwrap();
    for r in rows.iter().filter(|r| r[16] == "wildcard") {
        assert!(
            r[6].parse::<i64>().unwrap() >= best_out,
            "{r:?} vs {best_out}"
        );
    }
    // The national final's eight are ranked first.
    for r in &rows[..8] {
        assert_eq!((r[3].as_str(), r[4].as_str()), ("nationals", "final"));
    }
}

#[test]
fn results_do_not_depend_on_jobs() {
    let t = Test::new();
    ok(
        t.dir(),
        &[
            "generate",
            "--teams",
            "90",
            "--schools",
            "7",
            "--out",
            "a",
            "--seed",
            "5",
        ],
    );
    ok(
        t.dir(),
        &[
            "generate",
            "--teams",
            "90",
            "--schools",
            "7",
            "--out",
            "b",
            "--seed",
            "5",
        ],
    );
    ok(
        t.dir(),
        &["run", "a/tournament.toml", "--jobs", "1", "--quiet"],
    );
    ok(
        t.dir(),
        &["run", "b/tournament.toml", "--jobs", "8", "--quiet"],
    );
    for what in ["standings", "games", "sets"] {
        assert_eq!(
            export(t.dir(), what, "a/tournament.toml"),
            export(t.dir(), what, "b/tournament.toml"),
            "{what} differ"
        );
    }
}

#[test]
fn kill_9_at_any_moment_then_resume_gives_the_same_standings() {
    let t = Test::new();
    for out in ["whole", "killed"] {
        ok(
            t.dir(),
            &[
                "generate",
                "--teams",
                "240",
                "--schools",
                "12",
                "--out",
                out,
                "--seed",
                "11",
            ],
        );
    }
    ok(t.dir(), &["run", "whole/tournament.toml", "--quiet"]);
    let total: usize = export(t.dir(), "games", "whole/tournament.toml")
        .lines()
        .skip(1)
        .filter(|l| l.contains(",done,"))
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect::<std::collections::HashSet<_>>()
        .len();
    // Kill the run at growing delays until it has been interrupted mid-way a few times.
    let mut interrupted = 0;
    let mut delay = Duration::from_millis(30);
    let started = Instant::now();
    while interrupted < 3 && started.elapsed() < Duration::from_secs(120) {
        let mut child = Command::new(bin())
            .args(["run", "killed/tournament.toml", "--quiet"])
            .current_dir(t.dir())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let finished = child.try_wait().unwrap().is_some();
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(child.id() as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
        let _ = child.wait();
        if finished {
            break;
        }
        let db = t.dir().join("killed/tournament.sqlite");
        if db.exists() {
            // Killed before the tournament was stored: status has nothing to show yet.
            let out = lrs(t.dir(), &["status", "killed/tournament.sqlite"]);
            let status = String::from_utf8_lossy(&out.stdout);
            let stored: usize = status
                .lines()
                .find_map(|l| l.strip_prefix("games: "))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            if stored > 0 && stored < total {
                interrupted += 1;
            }
        }
        delay += Duration::from_millis(40);
    }
    eprintln!("interrupted mid-run {interrupted} time(s)");
    assert!(interrupted >= 1, "never caught the run mid-way");
    ok(t.dir(), &["run", "killed/tournament.toml", "--quiet"]);
    assert_eq!(
        export(t.dir(), "standings", "killed/tournament.toml"),
        export(t.dir(), "standings", "whole/tournament.toml")
    );
    assert_eq!(
        games_without_attempts(&export(t.dir(), "games", "killed/tournament.toml")),
        games_without_attempts(&export(t.dir(), "games", "whole/tournament.toml"))
    );
}

#[test]
fn a_second_run_on_the_same_database_is_refused() {
    let t = Test::new();
    let file = copy_example(t.dir(), "school");
    // Hold the run lock as a running `run` would.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let db = t.dir().join("school.sqlite").into();
    let _held = runtime
        .block_on(lrs_tourney::store::RunLock::acquire(&db))
        .unwrap();
    let out = lrs(t.dir(), &["run", file.to_str().unwrap(), "--quiet"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("in use by another `lrs-tourney run`"), "{err}");
    assert!(
        !t.dir().join("school.sqlite").exists(),
        "nothing may be written"
    );
}

#[test]
fn an_invalid_config_writes_nothing() {
    let t = Test::new().file(
        "bad.toml",
        "name = \"Bad\"\nseed = 1\n[[school]]\nname = \"A\"\n  [[school.team]]\n  name = \"x\"\n  bot = \"builtin:nope\"\n",
    );
    let out = lrs(t.dir(), &["run", "bad.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml:7:"), "{err}");
    assert!(
        err.contains("builtin:nope") || err.contains("\"nope\""),
        "{err}"
    );
    assert!(!t.dir().join("bad.sqlite").exists());
    let check = lrs(t.dir(), &["check", "bad.toml"]);
    assert_eq!(check.status.code(), Some(2));
}

#[test]
fn rerun_without_cascade_changes_nothing_and_with_cascade_replays() {
    let t = Test::new();
    let file = copy_example(t.dir(), "nationals");
    let file = file.to_str().unwrap();
    ok(t.dir(), &["run", file, "--quiet"]);
    let games_before = export(t.dir(), "games", file);
    // A school round-1 set re-seeded: its advancement changes, so later sets depend on it.
    let mut refused = None;
    for set in [
        "lincoln-high-school/r1/s1",
        "lincoln-high-school/r1/s2",
        "lincoln-high-school/r1/s3",
    ] {
        let out = lrs(
            t.dir(),
            &[
                "rerun", file, set, "--reason", "dispute", "--reseed", "--quiet",
            ],
        );
        if out.status.code() == Some(1) {
            refused = Some((set, String::from_utf8_lossy(&out.stderr).to_string()));
            break;
        }
    }
    let (set, err) = refused.expect("some re-seeded set changes who advanced");
    assert!(err.contains("--cascade"), "{err}");
    assert!(err.contains("lincoln-high-school/final"), "{err}");
    // Some reruns before it may have been stored (advancement unchanged); the refused one
    // wrote nothing: its set still has no superseded games.
    let games_after = export(t.dir(), "games", file);
    // Superseded games of a set (the export has one row per team and game).
    let superseded_of = |csv: &str, set: &str| {
        csv.lines()
            .filter(|l| {
                l.starts_with(&format!("{set},"))
                    && l.split(',').nth(column(csv, "superseded")) == Some("1")
            })
            .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    assert_eq!(superseded_of(&games_after, set), 0);
    assert_eq!(superseded_of(&games_before, set), 0);

    let out = ok(
        t.dir(),
        &[
            "rerun",
            file,
            set,
            "--reason",
            "dispute",
            "--reseed",
            "--cascade",
            "--quiet",
        ],
    );
    assert!(out.contains("invalidated and replayed"), "{out}");
    let games = export(t.dir(), "games", file);
    assert_eq!(superseded_of(&games, set), 10, "old games kept as history");
    // Their team lines are kept too.
    let old_lines = games
        .lines()
        .filter(|l| {
            l.starts_with(&format!("{set},0,"))
                && l.split(',').nth(column(&games, "team")) != Some("")
        })
        .count();
    assert!(
        old_lines >= 20,
        "superseded results are exported: {old_lines}"
    );
    assert!(superseded_of(&games, "nationals/final") >= 10);
    let status = ok(t.dir(), &["status", file]);
    assert!(status.contains("rerun"), "{status}");
    assert!(status.contains("reason: dispute"), "{status}");
    // The tournament is complete again: a run plays nothing.
    let again = ok(t.dir(), &["run", file, "--quiet"]);
    assert!(again.contains("0 played now"), "{again}");
}

#[test]
fn rerun_with_the_same_seeds_reproduces_the_set() {
    let t = Test::new();
    let file = copy_example(t.dir(), "school");
    let file = file.to_str().unwrap();
    ok(t.dir(), &["run", file, "--quiet"]);
    let before = export(t.dir(), "standings", file);
    let out = ok(
        t.dir(),
        &[
            "rerun",
            "school.sqlite",
            "westfield-high/r1/s2",
            "--reason",
            "check",
            "--quiet",
        ],
    );
    assert!(
        out.contains("advancement from westfield-high/r1/s2: unchanged"),
        "{out}"
    );
    assert_eq!(export(t.dir(), "standings", file), before);
    let unknown = lrs(
        t.dir(),
        &["rerun", file, "westfield-high/r9/s9", "--reason", "x"],
    );
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("westfield-high/r1/s1"));
}

#[test]
fn a_tournament_with_json_lines_bots_runs_them_sandboxed() {
    let t = Test::new()
        .file(
            "fast.toml",
            "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 5\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
        )
        .file(
            "mixed.toml",
            &format!(
                r#"name = "Mixed"
seed = 3
bracket = "fast.toml"

[limits]
time_limit_ms = 300
start_limit_ms = 3000

[[school]]
name = "Lab"
  [[school.team]]
  name = "Starter"
  bot = "python3 bot.py"
  dir = "{starter}"
  [[school.team]]
  name = "Mute"
  bot = "python3 silent.py"
  dir = "{hostile}"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
  [[school.team]]
  name = "Hunter"
  bot = "builtin:hunter"
"#,
                starter = repo().join("examples/bots/python").display(),
                hostile = repo().join("tests/hostile").display(),
            ),
        );
    ok(t.dir(), &["run", "mixed.toml", "--quiet"]);
    let standings = export(t.dir(), "standings", "mixed.toml");
    let rows: Vec<Vec<&str>> = standings
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 4, "{standings}");
    let faults = |team: &str| -> u32 {
        rows.iter()
            .find(|r| r[1] == team)
            .map(|r| r[15].parse().unwrap())
            .unwrap()
    };
    assert_eq!(faults("Starter"), 0, "{standings}");
    // Every query of the silent bot timed out: 2 games of a start query and 5 turns.
    assert!(faults("Mute") >= 2 * 5, "{standings}");
    assert_eq!(faults("Runner"), 0);
    for r in &rows {
        assert_eq!(r[8], "2", "every team played both games: {r:?}");
    }
}

/// A broken bot is noticed on the day: `run` ends with the teams whose bots faulted, worst
/// first, and where to read what they printed; a tournament of sound bots says so.
#[test]
fn run_ends_with_the_teams_whose_bots_faulted() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("crasher");
    std::fs::create_dir(&bot).unwrap();
    std::fs::write(
        bot.join("bot.py"),
        "import sys\nsys.stdin.readline()\nsys.exit(3)\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("cup.toml"),
        "name = \"Cup\"\nseed = 3\n[[school]]\nname = \"West\"\n\
         [[school.team]]\nname = \"Crashers\"\nbot = \"python3 bot.py\"\ndir = \"crasher\"\n\
         [[school.team]]\nname = \"Runners\"\nbot = \"builtin:runner\"\n\
         [[school.team]]\nname = \"Hunters\"\nbot = \"builtin:hunter\"\n",
    )
    .unwrap();
    let out = ok(dir.path(), &["run", "cup.toml", "--quiet"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("faults:"))
        .unwrap_or_else(|| panic!("no fault summary in:\n{out}"));
    assert!(line.contains("1 team's bot faulted"), "{line}");
    assert!(out.contains("  Crashers (West): "), "{out}");
    assert!(out.contains("lrs-tourney logs"), "{out}");
    // During the run, as soon as its faults pass the threshold: one warning, not one a game.
    std::fs::remove_file(dir.path().join("cup.sqlite")).unwrap();
    let played = common::lrs(dir.path(), &["run", "cup.toml", "--plain"]);
    assert!(played.status.success());
    let stderr = String::from_utf8_lossy(&played.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: Crashers (West): "))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains(" faults so far "), "{stderr}");
    assert!(!stderr.contains("warning: Runners"), "{stderr}");

    let sound = tempfile::tempdir().unwrap();
    std::fs::write(
        sound.path().join("cup.toml"),
        "name = \"Cup\"\nseed = 3\n[[school]]\nname = \"West\"\n\
         [[school.team]]\nname = \"Runners\"\nbot = \"builtin:runner\"\n\
         [[school.team]]\nname = \"Hunters\"\nbot = \"builtin:hunter\"\n",
    )
    .unwrap();
    let out = ok(sound.path(), &["run", "cup.toml", "--quiet"]);
    assert!(out.contains("faults: none"), "{out}");
}

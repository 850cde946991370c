//! The commands around a run, through the real binary: Ctrl-C during `run`, what `status`
//! says of a run that stopped, files that are not databases, read-only commands that never
//! write, readable audit times and game numbers that agree between `logs` and `export`.

mod common;

use common::{bin, lrs, ok, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small generated tournament of built-in AIs in `dir/NAME/tournament.toml`.
fn generate(dir: &Path, name: &str, teams: &str, schools: &str) -> PathBuf {
    ok(
        dir,
        &[
            "generate",
            "--teams",
            teams,
            "--schools",
            schools,
            "--out",
            name,
            "--seed",
            "5",
        ],
    );
    dir.join(name).join("tournament.toml")
}

/// The `N` of `games: N of M ...` in a status text.
fn stored_games(status: &str) -> usize {
    status
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// What a write would change: the database file's content and modification time, and the
/// content of its write-ahead log (a reader may create the empty `-wal` and the `-shm` index
/// SQLite uses to read a WAL database; neither holds data then).
fn fingerprint(db: &Path) -> (Vec<u8>, std::time::SystemTime, Vec<u8>) {
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    (
        std::fs::read(db).unwrap(),
        std::fs::metadata(db).unwrap().modified().unwrap(),
        std::fs::read(PathBuf::from(wal)).unwrap_or_default(),
    )
}

#[test]
fn ctrl_c_during_run_says_what_is_stored_and_status_does_not_claim_running() {
    let t = tempfile::tempdir().unwrap();
    let file = generate(t.path(), "n", "240", "12");
    let db = t.path().join("n/tournament.sqlite");
    let child = Command::new(bin())
        .args(["run", file.to_str().unwrap(), "--quiet"])
        .current_dir(t.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for some stored games, watching `status` while the run holds its lock.
    let started = Instant::now();
    let mut live_status = String::new();
    while started.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(100));
        if !db.exists() {
            continue;
        }
        let out = lrs(t.path(), &["status", "n/tournament.sqlite"]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if stored_games(&text) > 0 {
            live_status = text;
            break;
        }
    }
    assert!(
        live_status.contains("run: in progress"),
        "status during the run: {live_status}"
    );
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "stderr: {stderr}");
    let status = ok(t.path(), &["status", "n/tournament.toml"]);
    let stored = stored_games(&status);
    assert!(stored > 0, "{status}");
    assert!(
        stderr.contains(&format!(
            "interrupted: {stored} games stored; run again to resume"
        )),
        "stderr: {stderr}\nstatus: {status}"
    );
    assert!(
        status.contains("run: interrupted"),
        "status after Ctrl-C: {status}"
    );
    assert!(
        !status.contains("running"),
        "nobody runs it any more: {status}"
    );
    // The next run resumes and finishes; status then says so.
    let resumed = ok(t.path(), &["run", "n/tournament.toml", "--quiet"]);
    assert!(resumed.contains(&format!("({stored} resumed")), "{resumed}");
    let done = ok(t.path(), &["status", "n/tournament.toml"]);
    assert!(done.contains("run: finished"), "{done}");
}

#[test]
fn a_file_that_is_not_a_database_is_refused_at_once() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("teams.csv"),
        "school,team,bot\nNorth,Ants,builtin:runner\n",
    )
    .unwrap();
    std::fs::write(t.path().join("empty.sqlite"), "").unwrap();
    for (command, file, why) in [
        ("standings", "teams.csv", "it is not an SQLite file"),
        ("status", "teams.csv", "it is not an SQLite file"),
        ("export", "teams.csv", "it is not an SQLite file"),
        ("logs", "teams.csv", "it is not an SQLite file"),
        (
            "status",
            "empty.sqlite",
            "the file is empty: nothing was stored in it yet",
        ),
    ] {
        let mut args = vec![command];
        if command == "export" {
            args.push("games");
        }
        args.push(file);
        if command == "export" {
            args.extend(["--out", "-"]);
        }
        if command == "logs" {
            args.push("north/final");
        }
        let started = Instant::now();
        let out = lrs(t.path(), &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{file} is not a tournament database ({why})")),
            "{args:?}: {stderr}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    // Nothing was written beside the files.
    let mut names: Vec<String> = std::fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["empty.sqlite", "teams.csv"]);
}

#[test]
fn read_only_commands_never_write_the_database() {
    let t = tempfile::tempdir().unwrap();
    generate(t.path(), "s", "12", "1");
    ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    let db = t.path().join("s/tournament.sqlite");
    // As `run` left it (WAL mode), then as a single-file copy in rollback-journal mode.
    for journal in ["wal", "delete"] {
        if journal == "delete" {
            let mut perms = std::fs::metadata(&db).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            std::fs::set_permissions(&db, perms).unwrap();
            sql(&db, &["PRAGMA journal_mode = DELETE"]);
        }
        // A file nobody may write (root still may: the fingerprint is the real check).
        let mut perms = std::fs::metadata(&db).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&db, perms).unwrap();
        let before = fingerprint(&db);
        std::thread::sleep(Duration::from_millis(20));
        for args in [
            &["status", "s/tournament.sqlite"][..],
            &["status", "s/tournament.toml", "--all"],
            &["standings", "s/tournament.sqlite"],
            &["export", "games", "s/tournament.sqlite", "--out", "-"],
            &["export", "standings", "s/tournament.sqlite", "--out", "-"],
            &["export", "sets", "s/tournament.sqlite", "--out", "-"],
            &["logs", "s/tournament.sqlite", "school-0001/final"],
        ] {
            ok(t.path(), args);
            assert!(
                fingerprint(&db) == before,
                "{args:?} changed the database ({journal} journal)"
            );
        }
    }
}

/// Runs statements on `db` with a connection of the test's own.
fn sql(db: &Path, statements: &[&'static str]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
            .await
            .unwrap();
        for statement in statements {
            sqlx::query(*statement).execute(&mut conn).await.unwrap();
        }
        conn.close().await.unwrap();
    });
}

/// Forgets the last migration applied to `db`, as if an older version had written it.
fn forget_last_migration(db: &Path) {
    sql(
        db,
        &[
            "DELETE FROM _sqlx_migrations WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)",
            "PRAGMA wal_checkpoint(TRUNCATE)",
        ],
    );
}

#[test]
fn an_older_schema_is_reported_not_migrated_by_read_only_commands() {
    let t = tempfile::tempdir().unwrap();
    generate(t.path(), "s", "3", "1");
    ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    let db = t.path().join("s/tournament.sqlite");
    forget_last_migration(&db);
    let before = fingerprint(&db);
    for args in [
        &["status", "s/tournament.sqlite"][..],
        &["standings", "s/tournament.toml"],
        &["export", "games", "s/tournament.sqlite", "--out", "-"],
        &["logs", "s/tournament.sqlite", "school-0001/final"],
    ] {
        let out = lrs(t.path(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("was written by an older lrs-tourney")
                && stderr.contains("run `lrs-tourney run`"),
            "{args:?}: {stderr}"
        );
        assert!(fingerprint(&db) == before, "{args:?} changed the database");
    }
}

#[test]
fn the_audit_log_shows_utc_times() {
    let t = tempfile::tempdir().unwrap();
    generate(t.path(), "s", "3", "1");
    ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    ok(
        t.path(),
        &[
            "rerun",
            "s/tournament.toml",
            "school-0001/final",
            "--reason",
            "seat dispute",
            "--quiet",
        ],
    );
    let status = ok(t.path(), &["status", "s/tournament.toml"]);
    let audit: Vec<&str> = status
        .lines()
        .skip_while(|l| *l != "audit log:")
        .skip(1)
        .collect();
    assert_eq!(audit.len(), 1, "{status}");
    let line = audit[0].trim_start();
    // `2026-11-23 21:40:05 UTC rerun school-0001/final reason: seat dispute ...`
    let (date, rest) = line.split_at(23);
    let shape: String = date
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999-99-99 99:99:99 UTC", "{line}");
    assert!(
        rest.starts_with(" rerun school-0001/final reason: seat dispute"),
        "{line}"
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let today = lrs_tourney::report::utc_text(now);
    assert_eq!(&date[..10], &today[..10], "{line}");
}

#[test]
fn logs_and_the_games_export_number_games_alike() {
    let t = tempfile::tempdir().unwrap();
    std::fs::write(
        t.path().join("fast.toml"),
        "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 5\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n",
    )
    .unwrap();
    let config = format!(
        r#"name = "Logs"
seed = 2
bracket = "fast.toml"
[[school]]
name = "Lab"
  [[school.team]]
  name = "Starter"
  bot = "python3 bot.py"
  dir = "{starter}"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
"#,
        starter = repo().join("examples/bots/python").display(),
    );
    std::fs::write(t.path().join("t.toml"), config).unwrap();
    ok(t.path(), &["run", "t.toml", "--quiet"]);
    let games: Vec<String> = ok(t.path(), &["export", "games", "t.toml", "--out", "-"])
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("lab/final,") && l.contains(",Starter,"))
        .map(|l| l.split(',').nth(2).unwrap().to_string())
        .collect();
    assert_eq!(games, ["0", "1"]);
    let logs = ok(t.path(), &["logs", "t.toml", "lab/final"]);
    let logged: Vec<&str> = logs
        .lines()
        .filter_map(|l| l.strip_prefix("== lab/final game "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(logged, games, "{logs}");
    for g in &games {
        let one = ok(t.path(), &["logs", "t.toml", "lab/final", "--game", g]);
        assert_eq!(
            one.matches("== lab/final game ").count(),
            1,
            "--game {g}: {one}"
        );
        assert!(one.contains(&format!("== lab/final game {g} ")), "{one}");
    }
    // A game past the series is refused with the games it has.
    let beyond = lrs(t.path(), &["logs", "t.toml", "lab/final", "--game", "2"]);
    assert_eq!(beyond.status.code(), Some(2), "{beyond:?}");
    assert!(
        String::from_utf8_lossy(&beyond.stderr).contains("there is no game 2"),
        "{beyond:?}"
    );
}

#[test]
fn a_tournament_of_the_previous_rules_engine_is_not_resumed() {
    // Engine version 3 changed R5.3 (no card and a power-down stays and powers down); a
    // database that version 2 started is read, but neither `run` nor `rerun` mixes the two
    // rule sets in one tournament.
    assert_eq!(lrs_tourney::games::lrs::engine::ENGINE_VERSION, 3);
    let t = tempfile::tempdir().unwrap();
    generate(t.path(), "s", "3", "1");
    ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    let db = t.path().join("s/tournament.sqlite");
    sql(&db, &["UPDATE tournament SET engine_version = 2"]);
    // Finished, it plays nothing: `run` only brings its database up to date.
    let again = ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    assert!(again.contains("0 played now"), "{again}");
    let rerun = lrs(
        t.path(),
        &[
            "rerun",
            "s/tournament.toml",
            "school-0001/final",
            "--reason",
            "x",
        ],
    );
    let stderr = String::from_utf8_lossy(&rerun.stderr);
    assert_eq!(rerun.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("played by rules engine version 2, this is version 3"),
        "{stderr}"
    );
    // Unfinished, it would play games under the new rules: refused.
    sql(
        &db,
        &["UPDATE sets SET status = 'planned' WHERE is_final = 1"],
    );
    let out = lrs(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("played by rules engine version 2, this is version 3"),
        "{stderr}"
    );
    ok(t.path(), &["status", "s/tournament.sqlite"]);
}

#[test]
fn run_starts_on_the_empty_file_of_a_run_killed_at_once() {
    // SQLite creates the file before writing its first page: a run killed in between leaves
    // it empty, and the next run must start there, not call it "not a database".
    let t = tempfile::tempdir().unwrap();
    generate(t.path(), "s", "3", "1");
    std::fs::write(t.path().join("s/tournament.sqlite"), "").unwrap();
    let out = ok(t.path(), &["run", "s/tournament.toml", "--quiet"]);
    assert!(out.contains(": done"), "{out}");
}

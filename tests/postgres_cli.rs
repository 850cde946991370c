//! The shipped nationals through the real binary on PostgreSQL: `run --db postgres://...`,
//! then `standings`, `status`, `export`, `logs`, `replay` and `rerun` read and write it there,
//! and what they print is byte for byte what the same tournament gives on SQLite. A run
//! killed with SIGKILL resumes on PostgreSQL to the same end. Each test has a database of
//! its own on the server at 127.0.0.1:5432 (`LRS_TEST_POSTGRES` picks another), dropped
//! at the end; the tests fail when the server cannot be reached.

mod common;

use common::pg::PgDb;
use common::{lrs, ok, repo};
use lrs_tourney::store::{RunLock, Store};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Copies the shipped nationals (tournament file and roster) into `dir`.
fn copy_nationals(dir: &Path) {
    for file in ["nationals.toml", "nationals-roster.csv"] {
        std::fs::copy(repo().join("configs").join(file), dir.join(file)).unwrap();
    }
}

/// What the reading commands print of a database (`target` and its `--db`, if any).
fn outputs(dir: &Path, target: &[&str]) -> Vec<(String, String)> {
    let mut seen = Vec::new();
    let with = |args: &[&str]| -> Vec<String> {
        let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        all.extend(target.iter().map(|s| s.to_string()));
        all
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(dir, &args)
    };
    seen.push(("standings".to_string(), run(with(&["standings"]))));
    for what in ["standings", "games", "sets"] {
        let mut args = with(&["export", what]);
        args.extend(["--out".to_string(), "-".to_string()]);
        seen.push((format!("export {what}"), run(args)));
    }
    let mut replay = with(&["replay"]);
    replay.extend(["nationals/final".to_string(), "1".to_string()]);
    seen.push(("replay".to_string(), run(replay)));
    seen
}

#[track_caller]
fn assert_same_outputs(sqlite: &[(String, String)], postgres: &[(String, String)]) {
    assert_eq!(sqlite.len(), postgres.len());
    for ((what, a), (_, b)) in sqlite.iter().zip(postgres) {
        assert!(
            a == b,
            "{what} differs:\n--- SQLite\n{a}\n--- PostgreSQL\n{b}"
        );
    }
}

#[test]
fn the_nationals_on_postgres_prints_what_it_prints_on_sqlite_and_reruns_the_same() {
    let pg = PgDb::new();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_nationals(d);

    let on_sqlite = ok(d, &["run", "nationals.toml", "--quiet"]);
    let on_postgres = ok(d, &["run", "nationals.toml", "--db", &pg.url, "--quiet"]);
    // The same summary but for the database named in it.
    assert_eq!(
        on_sqlite.replace("nationals.sqlite", "DB"),
        on_postgres.replace(&pg.url, "DB")
    );

    let sqlite = outputs(d, &["nationals.sqlite"]);
    // A URL as the target, and a tournament file with --db, name the same database.
    let postgres = outputs(d, &[&pg.url]);
    assert_same_outputs(&sqlite, &postgres);
    assert_same_outputs(&sqlite, &outputs(d, &["nationals.toml", "--db", &pg.url]));

    let status = ok(d, &["status", &pg.url]);
    assert!(status.contains(&format!("database {}", pg.url)), "{status}");
    assert!(status.contains("run: finished"), "{status}");

    // A rerun with new seeds, cascading, gives the same new results on both.
    for target in ["nationals.sqlite", pg.url.as_str()] {
        let out = ok(
            d,
            &[
                "rerun",
                target,
                "nationals/r1/s1",
                "--reason",
                "a judge's call",
                "--reseed",
                "--cascade",
                "--quiet",
            ],
        );
        assert!(out.contains("re-run 1 stored"), "{out}");
    }
    assert_same_outputs(&outputs(d, &["nationals.sqlite"]), &outputs(d, &[&pg.url]));
}

/// The outputs with the `attempts` column of the games export left out (it counts how
/// often a game was started, which an interrupted run changes).
fn without_attempts(outputs: Vec<(String, String)>) -> Vec<(String, String)> {
    outputs
        .into_iter()
        .map(|(what, text)| {
            if what != "export games" {
                return (what, text);
            }
            let column = text
                .lines()
                .next()
                .and_then(|header| header.split(',').position(|c| c == "attempts"))
                .expect("an attempts column");
            let kept: Vec<String> = text
                .lines()
                .map(|line| {
                    let mut cells: Vec<&str> = line.split(',').collect();
                    cells.remove(column);
                    cells.join(",")
                })
                .collect();
            (what, kept.join("\n"))
        })
        .collect()
}

/// Waits (a bounded time) until `done` holds.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "waited too long for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_run_killed_mid_way_on_postgres_resumes_to_the_same_standings() {
    let pg = PgDb::new();
    let db = pg.location();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_nationals(d);
    let rt = runtime();

    let mut child = Command::new(common::bin())
        .args(["run", "nationals.toml", "--db", &pg.url, "--quiet"])
        .current_dir(d)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stored = || rt.block_on(Store::final_stored_count(&db)).unwrap_or(0);
    wait_for("the first stored games", || stored() > 0);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let kept = stored();
    assert!(kept > 0);
    // The server ends the dead run's session, and its lock with it.
    wait_for("the lock of the killed run to go", || {
        !rt.block_on(RunLock::is_held(&db))
    });

    let resumed = ok(d, &["run", "nationals.toml", "--db", &pg.url, "--quiet"]);
    assert!(
        resumed.contains(&format!("({kept} resumed from {}", pg.url)),
        "{resumed}"
    );
    ok(d, &["run", "nationals.toml", "--quiet"]);
    // The same, but for how often the interrupted games were started.
    assert_same_outputs(
        &without_attempts(outputs(d, &["nationals.sqlite"])),
        &without_attempts(outputs(d, &[&pg.url])),
    );
    // No game is stored twice and none is missing.
    let status = ok(d, &["status", &pg.url]);
    assert!(status.contains("games: 330 of 330"), "{status}");
}

#[test]
fn a_database_that_cannot_be_used_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    copy_nationals(d);
    let unreachable = "postgres://postgres@127.0.0.1:1/lrs";
    let out = lrs(d, &["status", unreachable]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("127.0.0.1:1 cannot be reached") && err.contains(unreachable),
        "{err}"
    );

    let out = lrs(
        d,
        &["run", "nationals.toml", "--db", unreachable, "--quiet"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot be reached"), "{err}");

    let mut missing = url::Url::parse(&common::pg::server_url()).unwrap();
    missing.set_path("lrs_no_such_database");
    let out = lrs(d, &["standings", missing.as_str()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("has no database \"lrs_no_such_database\""),
        "{err}"
    );

    // A URL that cannot work is refused where it is written.
    let text = std::fs::read_to_string(d.join("nationals.toml")).unwrap();
    std::fs::write(
        d.join("nationals.toml"),
        text.replace(
            "database = \"nationals.sqlite\"",
            "database = \"postgres://postgres@127.0.0.1:5432\"",
        ),
    )
    .unwrap();
    let out = lrs(d, &["check", "nationals.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nationals.toml:9") && err.contains("names no database"),
        "{err}"
    );
}

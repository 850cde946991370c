//! Databases written before games were numbered (migrations 0001 and 0002) open with every
//! game, result line and bot log intact, keyed by the new game numbers.

use lrs_tourney::store::{GameStatus, Store};
use lrs_tourney::tourney::model::{SetId, SetRun};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use std::path::Path;

/// The old schema: the first two migrations as shipped, applied by sqlx as `run` did.
async fn old_database(path: &Path) -> sqlx::SqlitePool {
    let dir = tempfile::tempdir().unwrap();
    for name in ["0001_tournament.sql", "0002_bot_logs.sql"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("migrations/sqlite")
                .join(name),
            dir.path().join(name),
        )
        .unwrap();
    }
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .foreign_keys(true),
        )
        .await
        .unwrap();
    sqlx::migrate::Migrator::new(dir.path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    pool
}

const OLD_ROWS: &str = "
INSERT INTO tournament VALUES (1, 'Old', 7, 'hash', '{}', 1, '0');
INSERT INTO schools VALUES (0, 'North', 'north');
INSERT INTO teams VALUES (0, 0, 'Ants', 'builtin:runner', NULL, NULL, NULL),
                         (1, 0, 'Bees', 'jsonl', 'jsonl', '/bots/bees', 'abc');
INSERT INTO stages VALUES ('north', 'school', 0, 'running');
INSERT INTO rounds VALUES ('north', 1, 1);
INSERT INTO sets VALUES ('north/final', 'north', 1, 1, 1, 1, 0, 'planned');
INSERT INTO set_members VALUES ('north/final', 0, 0), ('north/final', 1, 1);
-- Run 0 was replaced by a rerun (run 1): one game each, and run 1 has a game still to play.
INSERT INTO games VALUES ('north/final', 0, 0, 11, 'corridor-dash', 'done', 1, 1, 60, x'0102', 1, '5'),
                         ('north/final', 1, 0, 12, 'corridor-dash', 'done', 1, 1, 60, x'0304', 0, '6'),
                         ('north/final', 1, 1, 13, 'gear-works', 'planned', 2, NULL, NULL, NULL, 0, NULL);
INSERT INTO game_results VALUES ('north/final', 0, 0, 0, 0, 10, 1, 0, 0, 0, 0, 0, 1),
                                ('north/final', 0, 0, 1, 1, 5, 0, 0, 0, 0, 1, 0, 0),
                                ('north/final', 1, 0, 0, 1, 3, 0, 2, 1, 0, 0, 0, 0),
                                ('north/final', 1, 0, 1, 0, 20, 2, 0, 0, 0, 0, 1, 1);
INSERT INTO bot_logs VALUES ('north/final', 0, 0, 1, 'exit 0', 'old run'),
                            ('north/final', 1, 0, 1, 'killed by SIGKILL', 'new run');
";

#[tokio::test]
async fn games_results_and_logs_survive_the_numbering() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite");
    let pool = old_database(&path).await;
    sqlx::raw_sql(OLD_ROWS).execute(&pool).await.unwrap();
    pool.close().await;

    let store = Store::open(&path.clone().into()).await.unwrap();

    // Current games, numbered in key order, the superseded run 0 game first.
    let games = store.games().await.unwrap();
    let summary: Vec<_> = games
        .iter()
        .map(|g| {
            let done = g.status == GameStatus::Done;
            (g.no.0, g.run_no, g.game_index, g.seed, done, g.attempts)
        })
        .collect();
    assert_eq!(summary, [(2, 1, 0, 12, true, 1), (3, 1, 1, 13, false, 2)]);
    assert_eq!(
        store.next_game_no().await.unwrap(),
        lrs_tourney::store::GameNo(4)
    );

    // Current result lines belong to run 1 only; the history keeps run 0's.
    let current = store.results().await.unwrap();
    let lines: Vec<_> = current["north/final"]
        .iter()
        .map(|r| {
            (
                r.game_index,
                r.line.team.index(),
                r.line.seat,
                r.line.outcome.score,
                r.line.outcome.won,
            )
        })
        .collect();
    assert_eq!(lines, [(0, 1, 0, 20, true), (0, 0, 1, 3, false)]);
    let history = store.result_history().await.unwrap();
    let north_final = SetId::new("north/final");
    let old: Vec<_> = history[&SetRun {
        set: north_final.clone(),
        run: 0,
    }]
        .iter()
        .map(|r| {
            (
                r.line.team.index(),
                r.line.outcome.score,
                r.line.outcome.stats.get(4),
            )
        })
        .collect();
    assert_eq!(old, [(0, 10, 0), (1, 5, 1)]);

    // Bot logs of both runs, the replaced one marked.
    let logs: Vec<_> = store
        .bot_logs(&north_final)
        .await
        .unwrap()
        .into_iter()
        .map(|l| {
            (
                l.run_no,
                l.game_index,
                l.log.team.index(),
                l.log.stderr,
                l.superseded,
            )
        })
        .collect();
    assert_eq!(
        logs,
        [
            (0, 0, 1, "old run".to_string(), true),
            (1, 0, 1, "new run".to_string(), false)
        ]
    );
    assert_eq!(
        store.decisions(&north_final, 0).await.unwrap(),
        Some(vec![3, 4])
    );
    store.close().await;

    // Every reference still points at a row.
    let pool = SqlitePoolOptions::new()
        .connect_with(SqliteConnectOptions::new().filename(&path))
        .await
        .unwrap();
    let dangling: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(dangling.is_empty(), "{dangling:?}");
}

/// A database written by the version before results were game-neutral (schema 0004: named
/// flags/hits/pushes/push_kills/deaths columns), with a rerun's superseded games: this
/// version refuses to read it before it is upgraded, upgrades it on `run`, and then gives
/// byte for byte the standings, games and sets exports that version gave, and the same
/// replays (their `replay --json` output hashed, run 0 of the rerun set included).
#[test]
fn a_schema_0004_database_keeps_its_standings_exports_and_replays() {
    use sha2::Digest;
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lrs-schema-0004");
    let dir = tempfile::tempdir().unwrap();
    for f in ["school.toml", "school.sqlite"] {
        std::fs::copy(fixture.join(f), dir.path().join(f)).unwrap();
    }
    let db = dir.path().join("school.sqlite");
    let db = db.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_lrs-tourney");
    let run = |args: &[&str]| std::process::Command::new(bin).args(args).output().unwrap();
    let before = run(&["standings", db]);
    assert_eq!(before.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&before.stderr).contains("written by an older lrs-tourney"));
    let upgraded = run(&[
        "run",
        dir.path().join("school.toml").to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        upgraded.status.success(),
        "{}",
        String::from_utf8_lossy(&upgraded.stderr)
    );
    assert!(String::from_utf8_lossy(&upgraded.stdout).contains("0 played now"));
    // Its games were played by older rules: re-running one of its sets is refused, and
    // nothing changes.
    let rerun = run(&[
        "rerun",
        dir.path().join("school.toml").to_str().unwrap(),
        "fixture-high/final",
        "--reason",
        "dispute",
    ]);
    assert_eq!(rerun.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&rerun.stderr).contains("rules engine version 2, this is version"),
        "{}",
        String::from_utf8_lossy(&rerun.stderr)
    );
    for what in ["standings", "games", "sets"] {
        let out = run(&["export", what, db, "--out", "-"]);
        assert!(out.status.success());
        let expected = std::fs::read(fixture.join(format!("{what}.csv"))).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&expected),
            "export {what} changed"
        );
    }
    let hashes = std::fs::read_to_string(fixture.join("replays.sha256")).unwrap();
    for line in hashes.lines() {
        let mut words = line.split_whitespace();
        let hash = words.next().unwrap();
        let mut args = vec!["replay", db];
        args.extend(words);
        args.push("--json");
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got: String = sha2::Sha256::digest(&out.stdout)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(got, hash, "replay {args:?} changed");
    }
}

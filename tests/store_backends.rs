//! The store on both of its databases: every test here runs once on an SQLite file and
//! once on a PostgreSQL database of its own (created on the server at 127.0.0.1:5432, or
//! the one `LRS_TEST_POSTGRES` names, and dropped at the end; the tests fail when the server
//! cannot be reached). What one backend stores and reads back, the other must too, row for
//! row and in the same order.

mod common;

use common::pg::PgDb;
use lrs_tourney::runner::{
    ProgressMode, RerunOutcome, RerunRequest, RunOptions, check_store, rerun_set, run_tournament,
};
use lrs_tourney::store::{DbLocation, GameRecord, News, RunLock, Store, StoreError};
use lrs_tourney::tourney::config::load_tournament;
use lrs_tourney::tourney::model::{SetId, Tournament};
use lrs_tourney::tourney::played::PlayedGame;
use std::collections::BTreeSet;
use std::path::Path;

/// A database of each kind, kept for the test's length.
enum Backend {
    Sqlite(tempfile::TempDir),
    Postgres(PgDb),
}

impl Backend {
    fn sqlite() -> Backend {
        Backend::Sqlite(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Backend {
        Backend::Postgres(PgDb::new())
    }

    fn location(&self) -> DbLocation {
        match self {
            Backend::Sqlite(dir) => DbLocation::Sqlite(dir.path().join("cup.sqlite")),
            Backend::Postgres(db) => db.location(),
        }
    }
}

/// Runs each check on both databases.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(#[test]
            fn $name() {
                let backend = super::Backend::sqlite();
                super::$name(backend.location());
            })*
        }
        mod on_postgres {
            $(#[test]
            fn $name() {
                let backend = super::Backend::postgres();
                super::$name(backend.location());
            })*
        }
    };
}

on_both!(
    the_schema_is_created_from_scratch_and_readers_accept_it,
    a_database_without_a_tournament_is_refused_by_readers,
    a_tournament_is_stored_whole_and_reads_back_consistent,
    a_game_stored_twice_counts_once,
    a_rerun_keeps_history_and_never_reuses_a_game_number,
    a_second_run_is_refused_while_the_lock_is_held,
    sets_given_back_wake_the_waiting_workers,
);

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(future)
}

fn quiet() -> RunOptions {
    RunOptions {
        jobs: 2,
        progress: ProgressMode::Quiet,
    }
}

/// The test tournament, stored in `db`.
fn tournament_in(dir: &Path, db: &DbLocation) -> Tournament {
    let mut t = load_tournament(&common::write_quick_cup(dir, "Backend Cup", 7)).unwrap();
    t.database = db.clone();
    t
}

/// Everything the store reads back, in its order, audit times left out (they are the
/// clock's).
#[derive(Debug, PartialEq)]
struct Everything {
    header: String,
    schools: String,
    teams: String,
    stages: String,
    sets: String,
    games: String,
    history: String,
    results: String,
    result_history: String,
    advancement: String,
    audit: Vec<String>,
    invalidated: String,
    decisions: usize,
}

async fn read_everything(store: &Store) -> Everything {
    let mut results: Vec<_> = store.results().await.unwrap().into_iter().collect();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut history: Vec<_> = store.result_history().await.unwrap().into_iter().collect();
    history.sort_by(|a, b| (&a.0.set, a.0.run).cmp(&(&b.0.set, b.0.run)));
    let mut invalidated: Vec<_> = store
        .invalidated_sets()
        .await
        .unwrap()
        .into_iter()
        .collect();
    invalidated.sort();
    Everything {
        header: format!("{:?}", store.tournament().await.unwrap()),
        schools: format!("{:?}", store.schools().await.unwrap()),
        teams: format!("{:?}", store.teams().await.unwrap()),
        stages: format!("{:?}", store.stages().await.unwrap()),
        sets: format!("{:?}", store.sets().await.unwrap()),
        games: format!("{:?}", store.games().await.unwrap()),
        history: format!("{:?}", store.game_history().await.unwrap()),
        results: format!("{results:?}"),
        result_history: format!("{history:?}"),
        advancement: format!("{:?}", store.advancement().await.unwrap()),
        audit: store
            .audit_log()
            .await
            .unwrap()
            .into_iter()
            .map(|a| format!("{} {:?} {:?} {:?}", a.action, a.set_id, a.reason, a.details))
            .collect(),
        invalidated: format!("{invalidated:?}"),
        decisions: store.current_decisions().await.unwrap().len(),
    }
}

fn the_schema_is_created_from_scratch_and_readers_accept_it(db: DbLocation) {
    block_on(async {
        let store = Store::open(&db).await.unwrap();
        store.close().await;
        // Opening again applies nothing twice.
        let store = Store::open(&db).await.unwrap();
        store.close().await;
        // Migrated, with no tournament yet: a reader finds the schema and nothing in it.
        let store = Store::open_read_only(&db).await.unwrap();
        assert_eq!(store.tournament().await.unwrap(), None);
        assert!(store.sets().await.unwrap().is_empty());
        // The tables of workers on several machines are there, empty.
        assert!(store.workers().await.unwrap().is_empty());
        assert!(store.leases().await.unwrap().is_empty());
        assert!(store.refusals().await.unwrap().is_empty());
        assert!(store.set_failures().await.unwrap().is_empty());
        store.close().await;
    });
}

fn a_database_without_a_tournament_is_refused_by_readers(db: DbLocation) {
    let err = block_on(Store::open_read_only(&db)).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("run `lrs-tourney run` first"), "{text}");
    assert!(text.starts_with(&db.to_string()), "located: {text}");
}

fn a_tournament_is_stored_whole_and_reads_back_consistent(db: DbLocation) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament_in(dir.path(), &db);
    let summary = block_on(run_tournament(&t, quiet())).unwrap();
    assert!(summary.games_played > 0);
    assert_eq!(summary.games_total, summary.games_played);
    block_on(async {
        // What is stored is exactly what the bracket deals from the stored results.
        let consistency = check_store(&t).await.unwrap();
        assert!(
            consistency.problems.is_empty(),
            "{:?}",
            consistency.problems
        );
        assert!(consistency.complete);
        let store = Store::open_read_only(&db).await.unwrap();
        let games = store.games().await.unwrap();
        let results = store.results().await.unwrap();
        let sets = store.sets().await.unwrap();
        assert!(games.iter().all(|g| g.is_current_result()));
        // Every game has one line per member of its set: none lost, none doubled.
        for set in &sets {
            let lines = results.get(&set.id).map_or(0, Vec::len);
            let played = games.iter().filter(|g| g.set_id == set.id).count();
            assert_eq!(lines, played * set.members.len(), "set {}", set.id);
        }
        let numbers: BTreeSet<_> = games.iter().map(|g| g.no).collect();
        assert_eq!(numbers.len(), games.len(), "game numbers are unique");
        // The decisions of every stored game are there to replay.
        assert_eq!(store.current_decisions().await.unwrap().len(), games.len());
        assert_eq!(store.current_decision_count().await.unwrap(), games.len());
        // Those of final sets alone are read without the others'.
        let finals: BTreeSet<_> = sets
            .iter()
            .filter(|s| s.is_final)
            .map(|s| s.id.clone())
            .collect();
        let of_finals = store.current_decisions_of_final_sets().await.unwrap();
        assert!(!finals.is_empty() && finals.len() < sets.len());
        assert_eq!(
            of_finals.len(),
            games.iter().filter(|g| finals.contains(&g.set_id)).count()
        );
        assert!(of_finals.keys().all(|k| finals.contains(&k.set)));
        let first = &games[0];
        assert!(
            store
                .decisions(&first.set_id, first.game_index)
                .await
                .unwrap()
                .is_some_and(|d| !d.is_empty())
        );
        store.close().await;
    });
    // Resuming a finished tournament plays nothing and changes nothing.
    let before = block_on(async {
        let store = Store::open_read_only(&db).await.unwrap();
        let all = read_everything(&store).await;
        store.close().await;
        all
    });
    let again = block_on(run_tournament(&t, quiet())).unwrap();
    assert_eq!(again.games_played, 0);
    let after = block_on(async {
        let store = Store::open_read_only(&db).await.unwrap();
        let all = read_everything(&store).await;
        store.close().await;
        all
    });
    assert_eq!(before, after);
}

fn a_game_stored_twice_counts_once(db: DbLocation) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament_in(dir.path(), &db);
    block_on(run_tournament(&t, quiet())).unwrap();
    block_on(async {
        let store = Store::open_existing(&db).await.unwrap();
        let game = store.games().await.unwrap().remove(0);
        let results = store.results().await.unwrap();
        let lines: Vec<_> = results[&game.set_id]
            .iter()
            .filter(|r| r.game_index == game.game_index)
            .map(|r| r.line)
            .collect();
        let record = GameRecord {
            game_no: game.no,
            game: PlayedGame {
                set_id: game.set_id.clone(),
                run_no: game.run_no,
                game_index: game.game_index,
                engine_version: game.engine_version.unwrap(),
                turns: game.turns.unwrap(),
                decisions: vec![1, 2, 3],
                results: lines,
                logs: Vec::new(),
            },
        };
        assert!(!store.record_game(&record).await.unwrap());
        assert_eq!(
            store
                .record_games(std::slice::from_ref(&record))
                .await
                .unwrap(),
            0
        );
        // The first result stands.
        let decisions = store
            .decisions(&game.set_id, game.game_index)
            .await
            .unwrap()
            .unwrap();
        assert_ne!(decisions, vec![1, 2, 3]);
        let lines_after = store.results().await.unwrap()[&game.set_id].len();
        assert_eq!(lines_after, results[&game.set_id].len());
        store.close().await;
    });
}

fn a_rerun_keeps_history_and_never_reuses_a_game_number(db: DbLocation) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament_in(dir.path(), &db);
    block_on(run_tournament(&t, quiet())).unwrap();
    let before = block_on(async {
        let store = Store::open_read_only(&db).await.unwrap();
        let games = store.game_history().await.unwrap();
        store.close().await;
        games
    });
    let final_id = SetId::new("nationals/final");
    let request = RerunRequest {
        set_id: final_id.clone(),
        reason: "a judge's call".to_string(),
        reseed: true,
        cascade: false,
    };
    let outcome = block_on(rerun_set(&t, &request, quiet())).unwrap();
    assert!(matches!(outcome, RerunOutcome::Done { run_no: 1, .. }));
    block_on(async {
        let store = Store::open_existing(&db).await.unwrap();
        let history = store.game_history().await.unwrap();
        let old: Vec<_> = history
            .iter()
            .filter(|g| g.set_id == final_id && g.run_no == 0)
            .collect();
        let new: Vec<_> = history
            .iter()
            .filter(|g| g.set_id == final_id && g.run_no == 1)
            .collect();
        assert!(!old.is_empty() && old.iter().all(|g| g.superseded));
        assert_eq!(new.len(), old.len());
        assert!(new.iter().all(|g| g.is_current_result()));
        let max_before = before.iter().map(|g| g.no).max().unwrap();
        assert!(new.iter().all(|g| g.no > max_before), "fresh numbers");
        let numbers: BTreeSet<_> = history.iter().map(|g| g.no).collect();
        assert_eq!(numbers.len(), history.len());
        // The next number dealt is after every stored one.
        assert!(store.next_game_no().await.unwrap() > *numbers.last().unwrap());
        let audit = store.audit_log().await.unwrap();
        assert_eq!(audit.len(), 1);
        assert_eq!(audit[0].reason.as_deref(), Some("a judge's call"));
        store.close().await;
    });
}

fn a_second_run_is_refused_while_the_lock_is_held(db: DbLocation) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament_in(dir.path(), &db);
    block_on(async {
        assert!(!RunLock::is_held(&db).await);
        let held = RunLock::acquire(&db).await.unwrap();
        assert!(RunLock::is_held(&db).await);
        let second = RunLock::acquire(&db).await.unwrap_err();
        assert!(matches!(second, StoreError::Busy { .. }), "{second}");
        let run = run_tournament(&t, quiet()).await.unwrap_err();
        assert!(
            run.to_string()
                .contains("in use by another `lrs-tourney run`"),
            "{run}"
        );
        held.release().await;
        assert!(!RunLock::is_held(&db).await);
        let again = RunLock::acquire(&db).await.unwrap();
        again.release().await;
    });
}

/// The same tournament on both databases stores the same rows, in the same order, before
/// and after a rerun.
#[test]
fn both_databases_store_and_read_back_the_same_rows() {
    let sqlite = Backend::sqlite();
    let postgres = Backend::postgres();
    let mut seen = Vec::new();
    for backend in [&sqlite, &postgres] {
        let db = backend.location();
        let dir = tempfile::tempdir().unwrap();
        let t = tournament_in(dir.path(), &db);
        block_on(run_tournament(&t, quiet())).unwrap();
        let first = block_on(async {
            let store = Store::open_read_only(&db).await.unwrap();
            let all = read_everything(&store).await;
            store.close().await;
            all
        });
        let request = RerunRequest {
            set_id: SetId::new("north/r1/s1"),
            reason: "replay".to_string(),
            reseed: true,
            cascade: true,
        };
        block_on(rerun_set(&t, &request, quiet())).unwrap();
        let second = block_on(async {
            let store = Store::open_read_only(&db).await.unwrap();
            let all = read_everything(&store).await;
            store.close().await;
            all
        });
        seen.push((first, second));
    }
    let (on_sqlite, on_postgres) = (&seen[0], &seen[1]);
    assert_same(&on_sqlite.0, &on_postgres.0, "after the run");
    assert_same(&on_sqlite.1, &on_postgres.1, "after the rerun");
}

/// Fails naming the first part read back differently.
fn assert_same(sqlite: &Everything, postgres: &Everything, when: &str) {
    let parts = |e: &Everything| {
        vec![
            ("header", e.header.clone()),
            ("schools", e.schools.clone()),
            ("teams", e.teams.clone()),
            ("stages", e.stages.clone()),
            ("sets", e.sets.clone()),
            ("games", e.games.clone()),
            ("history", e.history.clone()),
            ("results", e.results.clone()),
            ("result history", e.result_history.clone()),
            ("advancement", e.advancement.clone()),
            ("audit", format!("{:?}", e.audit)),
            ("invalidated", e.invalidated.clone()),
            ("decisions", e.decisions.to_string()),
        ]
    };
    for ((name, a), (_, b)) in parts(sqlite).into_iter().zip(parts(postgres)) {
        assert!(
            a == b,
            "{when}: {name} differ\nSQLite:     {a}\nPostgreSQL: {b}"
        );
    }
}

/// An idle worker waits for news rather than asking the database again and again: on
/// PostgreSQL a set queued again by another process wakes it at once (the wait would
/// otherwise last its full minute and return false); news of another kind does not. On
/// SQLite, where one process plays everything, a wait is a plain sleep.
fn sets_given_back_wake_the_waiting_workers(db: DbLocation) {
    use std::time::Duration;
    block_on(async {
        let worker = Store::open(&db).await.unwrap();
        let planner = Store::open_existing(&db).await.unwrap();
        let mut sets = worker.waiter(News::SetsToClaim).await;
        let mut games = worker.waiter(News::GameStored).await;
        let set = SetId::new("north/r1/s1");
        planner.requeue_set(&set).await.unwrap();
        match db {
            DbLocation::Postgres(_) => {
                assert!(sets.wait(Duration::from_secs(60)).await);
                assert!(!games.wait(Duration::from_millis(200)).await);
                // One piece of news wakes one wait.
                assert!(!sets.wait(Duration::from_millis(200)).await);
            }
            DbLocation::Sqlite(_) => {
                assert!(!sets.wait(Duration::from_millis(10)).await);
                assert!(!games.wait(Duration::from_millis(10)).await);
            }
        }
        drop((sets, games));
        planner.close().await;
        worker.close().await;
    });
}

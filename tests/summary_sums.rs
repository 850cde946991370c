//! The sums the database computes for standings, status and exports
//! ([`Snapshot::summary`]) against the same sums taken in memory from every stored result
//! line ([`Snapshot::load`]), on SQLite and on PostgreSQL, for a tournament with a re-run
//! set (whose superseded games count nowhere) and for a set with only some of its games
//! stored. Both snapshots must give the same standings, status and sets export.

mod common;

use common::pg::PgDb;
use common::{block_on, ok, sql, write_quick_cup};
use lrs_tourney::report::{Snapshot, standings, status_text, write_sets, write_standings};
use lrs_tourney::store::{DbLocation, Store};

/// Both snapshots of the database at `db`: (in memory, summed by the database).
fn both(db: &DbLocation) -> (Snapshot, Snapshot) {
    block_on(async {
        let store = Store::open_read_only(db).await.unwrap();
        let full = Snapshot::load(&store).await.unwrap();
        let summary = Snapshot::summary(&store).await.unwrap();
        store.close().await;
        (full, summary)
    })
}

fn csv(write: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::new();
    write(&mut out);
    String::from_utf8(out).unwrap()
}

/// Checks that the database's sums are the in-memory ones, and that everything computed
/// from them agrees; returns how many result lines the sums cover.
#[track_caller]
fn assert_same_sums(db: &DbLocation) -> usize {
    let (full, summary) = both(db);
    assert!(summary.results.is_empty() && summary.games.is_empty());
    assert!(!full.results.is_empty());
    assert_eq!(summary.game_counts, full.game_counts);
    assert_eq!(summary.tallies.len(), full.tallies.len());
    for (set, tallies) in &full.tallies {
        assert_eq!(summary.tallies.get(set), Some(tallies), "set {set}");
    }
    // Every current result line is counted once, superseded ones never.
    let lines: usize = full.results.values().map(Vec::len).sum();
    let counted: u32 = summary.tallies.values().flatten().map(|t| t.games).sum();
    assert_eq!(counted as usize, lines);
    let stored: usize = full.games.iter().filter(|g| g.is_current_result()).count();
    assert_eq!(summary.game_totals().done, stored);
    assert_eq!(standings(&summary), standings(&full));
    assert_eq!(
        status_text(&summary, "db", true, false),
        status_text(&full, "db", true, false)
    );
    assert_eq!(
        csv(|out| write_standings(&summary, out, b',').unwrap()),
        csv(|out| write_standings(&full, out, b',').unwrap())
    );
    assert_eq!(
        csv(|out| write_sets(&summary, out, b';').unwrap()),
        csv(|out| write_sets(&full, out, b';').unwrap())
    );
    lines
}

#[test]
fn the_database_sums_what_memory_sums_after_a_rerun_on_sqlite_and_postgres() {
    let pg = PgDb::new();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_quick_cup(d, "Sums Cup", 41);
    let sqlite = DbLocation::Sqlite(d.join("cup.sqlite"));
    ok(d, &["run", "cup.toml", "--quiet"]);
    ok(d, &["run", "cup.toml", "--db", &pg.url, "--quiet"]);
    let before = assert_same_sums(&sqlite);
    assert_eq!(assert_same_sums(&pg.location()), before);
    for target in ["cup.sqlite", pg.url.as_str()] {
        ok(
            d,
            &[
                "rerun",
                target,
                "north/r1/s1",
                "--reason",
                "a judge's call",
                "--reseed",
                "--cascade",
                "--quiet",
            ],
        );
    }
    // The superseded games are kept, and the sums leave them out.
    let (full, _) = both(&sqlite);
    assert!(full.games.iter().any(|g| g.superseded));
    let after = assert_same_sums(&sqlite);
    assert_eq!(assert_same_sums(&pg.location()), after);
}

#[test]
fn a_set_with_some_games_stored_sums_those_and_counts_the_rest_as_planned() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_quick_cup(d, "Half Cup", 9);
    ok(d, &["run", "cup.toml", "--quiet"]);
    let file = d.join("cup.sqlite");
    // The nationals' final as an interrupted run leaves it: its last game planned again
    // (restarted once), without lines or advancement yet.
    let last = "(SELECT MAX(no) FROM games WHERE set_id = 'nationals/final')";
    sql(
        &file,
        &format!("DELETE FROM game_results WHERE game_no = {last}"),
    );
    sql(
        &file,
        &format!("UPDATE games SET status = 'planned', attempts = 2 WHERE no = {last}"),
    );
    sql(
        &file,
        "DELETE FROM advancement WHERE set_id = 'nationals/final'",
    );
    sql(
        &file,
        "UPDATE sets SET status = 'planned' WHERE id = 'nationals/final'",
    );
    let db = DbLocation::Sqlite(file);
    let (_, summary) = both(&db);
    let fin = lrs_tourney::tourney::model::SetId::new("nationals/final");
    assert_eq!(
        summary.games_done(&fin) + 1,
        summary.games_planned(&fin),
        "{:?}",
        summary.game_counts.get(&fin)
    );
    assert_eq!(summary.game_totals().restarted, 1);
    assert_same_sums(&db);
}

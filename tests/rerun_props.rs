//! Property test of reruns: small random tournaments of built-in AIs, played to the end on a
//! real SQLite file, then random sequences of reruns (same seeds or `--reseed`, with or
//! without `--cascade`). After every step the database must hold exactly what planning
//! every stage from scratch with its stored results gives (`runner::check_store`), the
//! tournament must be complete, a refused rerun must have written nothing, and `run` must
//! find nothing left to do.

use lrs_tourney::runner::{
    ProgressMode, RerunOutcome, RerunRequest, RunOptions, check_store, rerun_set, run_tournament,
};
use lrs_tourney::store::{GameHistoryRow, Store};
use lrs_tourney::tourney::config::load_tournament;
use lrs_tourney::tourney::model::{SetId, Tournament};
use proptest::prelude::*;
use std::path::Path;

const BOTS: [&str; 3] = ["builtin:random", "builtin:runner", "builtin:hunter"];

/// A tournament file: `schools[i]` is the list of bots of school i's teams.
fn write_tournament(dir: &Path, seed: u64, format: &Format, schools: &[Vec<usize>]) -> Tournament {
    std::fs::write(
        dir.join("fmt.toml"),
        format!(
            "name = \"Tiny\"\nset_size = {}\ngames_per_series = {}\nadvance_per_set = {}\nturns_per_game = 4\nfill_nationals_to_multiple_of = {}\nboards = [\"gear-works\", \"corridor-dash\"]\n",
            format.set_size, format.games, format.advance, format.fill
        ),
    )
    .unwrap();
    let mut text = format!("name = \"Props\"\nseed = {seed}\nbracket = \"fmt.toml\"\n");
    for (s, bots) in schools.iter().enumerate() {
        text += &format!("[[school]]\nname = \"School {s}\"\n");
        for (i, &bot) in bots.iter().enumerate() {
            text += &format!(
                "  [[school.team]]\n  name = \"Team {s}-{i}\"\n  bot = \"{}\"\n",
                BOTS[bot]
            );
        }
    }
    let file = dir.join("t.toml");
    std::fs::write(&file, text).unwrap();
    load_tournament(&file).unwrap()
}

#[derive(Debug, Clone)]
struct Format {
    set_size: usize,
    games: u32,
    advance: usize,
    fill: usize,
}

fn format() -> impl Strategy<Value = Format> {
    (3usize..=4, 1u32..=2, 1usize..=2, 1usize..=4).prop_map(|(set_size, games, advance, fill)| {
        Format {
            set_size,
            games,
            advance: advance.min(set_size / 2),
            fill,
        }
    })
}

/// One rerun: which stored set (an index into the sorted set ids), reseed, cascade.
#[derive(Debug, Clone)]
struct Step {
    set: usize,
    reseed: bool,
    cascade: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (any::<usize>(), any::<bool>(), any::<bool>()).prop_map(|(set, reseed, cascade)| Step {
        set,
        reseed,
        cascade,
    })
}

fn opts() -> RunOptions {
    RunOptions {
        jobs: 2,
        progress: ProgressMode::Quiet,
    }
}

/// Waits for `future` on a runtime of its own, as the binary's `cli::run` does.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    lrs_tourney::runtime::runtime()
        .expect("a runtime")
        .block_on(future)
}

/// The stored sets' ids, every game ever stored and the audit log's length.
fn snapshot(t: &Tournament) -> (Vec<SetId>, Vec<GameHistoryRow>, usize) {
    block_on(async {
        let store = Store::open_existing(&t.database).await.unwrap();
        let ids = store
            .sets()
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        let games = store.game_history().await.unwrap();
        let audit = store.audit_log().await.unwrap().len();
        store.close().await;
        (ids, games, audit)
    })
}

fn assert_consistent(t: &Tournament, when: &str) -> Result<(), TestCaseError> {
    let c = block_on(check_store(t)).unwrap();
    prop_assert!(c.problems.is_empty(), "{when}: {:#?}", c.problems);
    prop_assert!(c.complete, "{when}: not complete");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn reruns_keep_the_store_what_the_bracket_gives(
        seed in 0u64..1_000_000,
        format in format(),
        schools in prop::collection::vec(prop::collection::vec(0usize..3, 1..=9), 1..=3),
        steps in prop::collection::vec(step(), 1..=4),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let t = write_tournament(dir.path(), seed, &format, &schools);
        block_on(run_tournament(&t, opts())).unwrap();
        assert_consistent(&t, "after run")?;
        for (n, step) in steps.iter().enumerate() {
            let (ids, games, audit) = snapshot(&t);
            if ids.is_empty() {
                // One team per school only: nothing was played.
                break;
            }
            let set_id = ids[step.set % ids.len()].clone();
            let request = RerunRequest {
                set_id: set_id.clone(),
                reason: format!("step {n}"),
                reseed: step.reseed,
                cascade: step.cascade,
            };
            let when = format!("after step {n} ({step:?} on {set_id})");
            match block_on(rerun_set(&t, &request, opts())).unwrap() {
                RerunOutcome::Done { .. } => {}
                RerunOutcome::Requeued => prop_assert!(false, "{when}: no set failed on workers"),
                RerunOutcome::NeedsCascade { affected, .. } => {
                    prop_assert!(!step.cascade, "{when}: refused with --cascade");
                    prop_assert!(!affected.is_empty(), "{when}");
                    prop_assert!(
                        affected.iter().all(|id| ids.contains(id)),
                        "{when}: {affected:?} are not stored sets"
                    );
                    prop_assert_eq!(
                        snapshot(&t),
                        (ids, games, audit),
                        "{}: a refused rerun wrote something",
                        when
                    );
                }
            }
            assert_consistent(&t, &when)?;
            let summary = block_on(run_tournament(&t, opts())).unwrap();
            prop_assert_eq!(summary.games_played, 0, "{}: run found games to play", when);
        }
    }
}

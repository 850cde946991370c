//! What `run` stores for each game is what the game was: its decision log (for replays)
//! and every team's result line, checked by playing every stored game again from its
//! stored seed, board and seats and comparing byte for byte.

mod common;

use common::ok;
use lrs_tourney::games::lrs::engine::decisions;
use lrs_tourney::runner::GameJob;
use lrs_tourney::store::{GameStatus, Store};
use lrs_tourney::tourney::config::load_tournament;
use lrs_tourney::tourney::model::TeamId;
use std::collections::HashMap;

#[test]
fn every_stored_game_replays_to_its_stored_decisions_and_results() {
    let dir = tempfile::tempdir().unwrap();
    common::write_quick_cup(dir.path(), "Replay Cup", 99);
    ok(dir.path(), &["run", "cup.toml", "--quiet"]);

    let t = load_tournament(&dir.path().join("cup.toml")).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (sets, games, stored) = runtime.block_on(async {
        let store = Store::open_existing(&t.database).await.unwrap();
        let sets = store.sets().await.unwrap();
        let games = store.games().await.unwrap();
        let mut stored = HashMap::new();
        for g in &games {
            let bytes = store.decisions(&g.set_id, g.game_index).await.unwrap();
            stored.insert((g.set_id.clone(), g.game_index), bytes);
        }
        let results = store.results().await.unwrap();
        store.close().await;
        (sets, games, (stored, results))
    });
    let (stored_decisions, stored_results) = stored;
    let members: HashMap<&str, &Vec<TeamId>> =
        sets.iter().map(|s| (s.id.as_str(), &s.members)).collect();
    let mut boards = HashMap::new();
    let mut checked = 0;
    for g in games.iter().filter(|g| g.status == GameStatus::Done) {
        let arena = boards
            .entry(g.arena.clone())
            .or_insert_with(|| {
                lrs_tourney::games::Arena::load(&t.bracket.game, &g.arena, t.bracket.turns_per_game)
                    .unwrap()
            })
            .clone();
        let job = GameJob {
            set_id: g.set_id.clone(),
            run_no: g.run_no,
            game_index: g.game_index,
            seed: g.seed,
            arena,
            teams: members[g.set_id.as_str()]
                .iter()
                .map(|&m| (m, t.team(m).bot.clone()))
                .collect(),
        };
        let replayed = job.play().unwrap();
        let bytes = stored_decisions[&(g.set_id.clone(), g.game_index)]
            .clone()
            .expect("a finished game has its decisions");
        assert_eq!(
            bytes, replayed.decisions,
            "decisions of {} game {}",
            g.set_id, g.game_index
        );
        assert!(decisions::decode(&bytes).is_ok());
        assert_eq!(g.turns, Some(replayed.turns));
        let mut lines: Vec<_> = stored_results[&g.set_id]
            .iter()
            .filter(|r| r.game_index == g.game_index)
            .map(|r| {
                (
                    r.line.team,
                    r.line.seat,
                    r.line.outcome.score,
                    r.line.outcome.stats,
                    r.line.outcome.won,
                )
            })
            .collect();
        lines.sort();
        let mut expected: Vec<_> = replayed
            .results
            .iter()
            .map(|r| {
                (
                    r.team,
                    r.seat,
                    r.outcome.score,
                    r.outcome.stats,
                    r.outcome.won,
                )
            })
            .collect();
        expected.sort();
        assert_eq!(
            lines, expected,
            "results of {} game {}",
            g.set_id, g.game_index
        );
        checked += 1;
    }
    // North: 11 teams = 2 sets then a final; South: one final; nationals of 8.
    assert!(checked >= 3 * 5, "only {checked} games checked");
}

//! Whole tournaments of built-in `runner` AIs: the generated nationals of 2,000 teams in 250
//! schools, all stages, with SQLite writes (`run`), against the same games played without a
//! database (the bracket driver). The ratio of the two is the store's overhead.
//!
//! Targets (reported, not asserted): 2,000 teams under 10 s; the store adds under 10%.
//! The 20,000-team figure (under 60 s, under 1 GiB) is measured with the CLI, see README.

use criterion::{Criterion, criterion_group, criterion_main};
use lrs_tourney::ai::FlagDistances;
use lrs_tourney::boards::load_board;
use lrs_tourney::runner::{GameJob, ProgressMode, RunOptions, run_tournament};
use lrs_tourney::tourney::bracket::{Roster, SeriesTotals, simulate_bracket};
use lrs_tourney::tourney::config::load_tournament;
use lrs_tourney::tourney::generate::generate;
use lrs_tourney::tourney::model::Tournament;
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Duration;

fn tournament(dir: &std::path::Path) -> Tournament {
    let g = generate(2000, 250, 1);
    std::fs::write(dir.join("tournament.toml"), &g.toml).unwrap();
    std::fs::write(dir.join(g.roster_file), &g.roster_csv).unwrap();
    load_tournament(&dir.join("tournament.toml")).unwrap()
}

/// Plays every game of the bracket exactly as `run` would, without storing anything.
fn without_store(t: &Tournament) -> usize {
    let roster = Roster::from_tournament(t);
    let boards: Vec<_> = t
        .bracket
        .boards
        .iter()
        .map(|b| {
            let board = load_board(b).unwrap();
            let maps = Arc::new(FlagDistances::new(&board));
            (board, maps)
        })
        .collect();
    let mut games = 0;
    simulate_bracket(&roster, |set| {
        let jobs: Vec<GameJob> = (0..t.bracket.games_per_series)
            .map(|g| GameJob {
                set_id: set.id.clone(),
                run_no: 0,
                game_index: g,
                seed: set.game_seed(t.seed, g, 0),
                board: boards[g as usize % boards.len()].0.clone(),
                maps: boards[g as usize % boards.len()].1.clone(),
                turn_limit: t.bracket.turns_per_game,
                teams: set
                    .teams
                    .iter()
                    .map(|&m| (m, t.teams[m].bot.clone()))
                    .collect(),
            })
            .collect();
        games += jobs.len();
        let records: Vec<_> = jobs.par_iter().map(|j| j.play().unwrap()).collect();
        set.teams
            .iter()
            .map(|&team| {
                let mut s = SeriesTotals::zero(team);
                for r in records
                    .iter()
                    .flat_map(|r| &r.results)
                    .filter(|r| r.team == team)
                {
                    s.score += r.score;
                    s.games_won += u32::from(r.won);
                    s.flags += r.flags;
                    s.deaths += r.deaths;
                }
                s
            })
            .collect()
    })
    .unwrap();
    games
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament(dir.path());
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("nationals_2000_teams");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(40));
    group.bench_function("games_only", |b| b.iter(|| without_store(&t)));
    group.bench_function("run_with_sqlite", |b| {
        b.iter(|| {
            let db = t.database.clone();
            for suffix in ["", "-wal", "-shm"] {
                let mut p = db.clone().into_os_string();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
            run_tournament(
                &t,
                RunOptions {
                    jobs,
                    progress: ProgressMode::Quiet,
                },
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

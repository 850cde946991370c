//! Whole tournaments of built-in `runner` AIs: the generated nationals of 2,000 teams in 250
//! schools, all stages, with SQLite writes (`run`), against the same games played without a
//! database (the bracket driver). The ratio of the two is the store's overhead.
//!
//! Targets (reported, not asserted): 2,000 teams under 10 s; the store adds under 10%.
//! The 20,000-team figure (under 60 s, under 1 GiB) is `benches/nationals_20000.rs`.

mod common;

use common::{games_only, remove_database};
use criterion::{Criterion, criterion_group, criterion_main};
use lrs_tourney::runner::{ProgressMode, RunOptions, run_tournament};
use lrs_tourney::tourney::config::load_tournament;
use lrs_tourney::tourney::generate::generate;
use lrs_tourney::tourney::model::Tournament;
use std::time::Duration;

fn tournament(dir: &std::path::Path) -> Tournament {
    let g = generate(2000, 250, 1);
    std::fs::write(dir.join("tournament.toml"), &g.toml).unwrap();
    std::fs::write(dir.join(g.roster_file), &g.roster_csv).unwrap();
    load_tournament(&dir.join("tournament.toml")).unwrap()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let t = tournament(dir.path());
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut group = c.benchmark_group("nationals_2000_teams");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(40));
    group.bench_function("games_only", |b| b.iter(|| games_only(&t)));
    // One runtime for every iteration, as the binary builds one for its command.
    let runtime = lrs_tourney::runtime::runtime().unwrap();
    group.bench_function("run_with_sqlite", |b| {
        b.iter(|| {
            remove_database(&t.database);
            runtime
                .block_on(run_tournament(
                    &t,
                    RunOptions {
                        jobs,
                        progress: ProgressMode::Quiet,
                    },
                ))
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

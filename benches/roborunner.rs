//! Robo Runner throughput, single thread: 8-seat games of the built-in `random` AI on
//! `hull-walk`, 30 turns at most, played through the seam as a tournament plays them
//! (`Arena::play_builtin`, decision log encoded). Target (reported, not asserted): at least
//! 2,000 games/s.
//!
//! The mean turns per game are printed first, so the per-phase cost is the time per game
//! divided by five times them.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lrs_tourney::games::{Arena, BuiltinBot, Decisions, GameKind, GameSettings};
use std::hint::black_box;

fn roborunner(c: &mut Criterion) {
    let kind = GameKind::parse("roborunner").expect("registered");
    let settings = GameSettings::default_for(kind);
    let arena = Arena::load(&settings, "hull-walk", 30).expect("arena");
    let seats = vec![BuiltinBot::parse(kind, "random").expect("random AI"); 8];
    let turns = (0..200)
        .map(|s| {
            f64::from(
                arena
                    .play_builtin(s, &seats, Decisions::Keep)
                    .expect("game")
                    .turns,
            )
        })
        .sum::<f64>()
        / 200.0;
    println!(
        "roborunner hull-walk: {turns:.1} turns, {:.0} phases per game",
        turns * 5.0
    );
    let mut group = c.benchmark_group("roborunner");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function("random_8_seats_hull-walk", |b| {
        b.iter(|| {
            seed += 1;
            black_box(
                arena
                    .play_builtin(seed, &seats, Decisions::Keep)
                    .expect("game"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, roborunner);
criterion_main!(benches);

//! Classic RoboRally throughput, single thread: 8-seat games of the built-in `random` AI,
//! 30 turns at most, on each shipped board, played through the seam as a tournament plays
//! them (`Arena::play_builtin`, decision log encoded). Target (reported, not asserted): at
//! least 5,000 games/s.
//!
//! The mean registers per game are printed first, so the per-register cost is the time per
//! game divided by them; `lrs_random_8_seats` plays Last Robot Standing's 8-seat `random`
//! games of 60 turns the same way, whose time per game divided by its mean turns is its
//! per-turn cost, for comparison.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lrs_tourney::games::{Arena, BuiltinBot, Decisions, GameKind, GameSettings};
use std::hint::black_box;

fn arena(game: &str, board: &str, turns: u16) -> (Arena, Vec<BuiltinBot>) {
    let kind = GameKind::parse(game).expect("registered");
    let settings = GameSettings::default_for(kind);
    let arena = Arena::load(&settings, board, turns).expect("arena");
    let seats = vec![BuiltinBot::parse(kind, "random").expect("random AI"); 8];
    (arena, seats)
}

fn roborally(c: &mut Criterion) {
    let boards = ["dock-sprint", "twin-lanes", "burn-yard", "merge-works"];
    for board in boards {
        let (arena, seats) = arena("roborally", board, 30);
        let games: Vec<_> = (0..200)
            .map(|s| {
                arena
                    .play_builtin(s, &seats, Decisions::Keep)
                    .expect("game")
            })
            .collect();
        let turns = games.iter().map(|g| f64::from(g.turns)).sum::<f64>() / 200.0;
        println!(
            "roborally {board}: {turns:.1} turns, about {:.0} registers per game",
            turns * 5.0
        );
    }
    let (lrs, lrs_seats) = arena("lrs", "corridor-dash", 60);
    let turns = (0..100)
        .map(|s| {
            f64::from(
                lrs.play_builtin(s, &lrs_seats, Decisions::Keep)
                    .expect("game")
                    .turns,
            )
        })
        .sum::<f64>()
        / 100.0;
    println!("lrs corridor-dash: {turns:.1} turns per game");

    let mut group = c.benchmark_group("roborally");
    group.throughput(Throughput::Elements(1));
    for board in boards {
        let (arena, seats) = arena("roborally", board, 30);
        let mut seed = 0u64;
        group.bench_function(format!("random_8_seats_{board}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(
                    arena
                        .play_builtin(seed, &seats, Decisions::Keep)
                        .expect("game"),
                )
            })
        });
    }
    let mut seed = 0u64;
    group.bench_function("lrs_random_8_seats_corridor-dash", |b| {
        b.iter(|| {
            seed += 1;
            black_box(
                lrs.play_builtin(seed, &lrs_seats, Decisions::Keep)
                    .expect("game"),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, roborally);
criterion_main!(benches);

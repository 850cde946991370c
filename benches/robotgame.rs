//! RobotGame throughput, single thread: full 8-seat games of built-in `random` AIs (100
//! turns each, engine and AIs), and the engine alone replaying the same games from their
//! decision logs.
//!
//! Target (reported, not asserted): at least 2,000 full games/s. Per-turn cost is the time
//! per game divided by 100; the mean number of robots alive per turn is printed first to
//! put it in scale.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lrs_tourney::games::robotgame::engine::TURNS;
use lrs_tourney::games::robotgame::{BuiltinAi, Game, Seat, Setup, run_game};
use std::hint::black_box;

const SEATS: u8 = 8;

fn play(ai: BuiltinAi, seed: u64) -> Game {
    let mut game = Game::new(&Setup::standard(SEATS, seed)).expect("game");
    let mut players: Vec<_> = (0..SEATS).map(|s| ai.player(seed, Seat(s))).collect();
    run_game(&mut game, &mut players).expect("game runs");
    game
}

fn robotgame(c: &mut Criterion) {
    for ai in BuiltinAi::ALL {
        let games: Vec<Game> = (0..100).map(|s| play(ai, s)).collect();
        let robot_turns: usize = games
            .iter()
            .map(|g| g.log().iter().map(|t| t.decisions.len()).sum::<usize>())
            .sum();
        println!(
            "8 x {}: {:.1} robots alive per turn on average",
            ai.name(),
            robot_turns as f64 / (100.0 * f64::from(TURNS))
        );
    }
    let mut group = c.benchmark_group("robotgame_8_seats");
    group.throughput(Throughput::Elements(1));
    for ai in BuiltinAi::ALL {
        let mut seed = 0u64;
        group.bench_function(format!("full_game_{}", ai.name()), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(ai, seed))
            })
        });
    }
    // The engine alone: the same kind of games replayed from their logs.
    let recorded: Vec<(Setup, Game)> = (0..50)
        .map(|s| (Setup::standard(SEATS, s), play(BuiltinAi::Random, s)))
        .collect();
    let mut i = 0usize;
    group.bench_function("replay_random", |b| {
        b.iter(|| {
            i += 1;
            let (setup, game) = &recorded[i % recorded.len()];
            black_box(Game::replay(setup, game.log()).expect("replay"))
        })
    });
    group.finish();
}

criterion_group!(benches, robotgame);
criterion_main!(benches);

//! Robots throughput, single thread: solo games (one seat) of the built-in `dodger` on the
//! classic 59x22 board, played to their end (death, level 20 or 1000 turns), the same with
//! `random`, and the engine alone replaying the dodger's games from their decision logs.
//!
//! Target (reported, not asserted): at least 5,000 dodger games/s. A dodger game lasts many
//! turns of up to 8 moves each, so the mean turns, moves and levels per game are printed
//! first: the per-turn cost is the time per game divided by the mean turns.
//!
//! `dodger_batch_all_cores` plays batches of 64 games on every core (rayon), as a
//! tournament does: its time per element is the machine's time per game.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lrs_tourney::games::robots::{BuiltinAi, Game, Seat, Setup, run_game};
use rayon::prelude::*;
use std::hint::black_box;

fn play(ai: BuiltinAi, seed: u64) -> Game {
    let mut game = Game::new(&Setup::standard(1, seed)).expect("game");
    let mut players = vec![ai.player(seed, Seat(0))];
    run_game(&mut game, &mut players).expect("game runs");
    game
}

fn robots(c: &mut Criterion) {
    for ai in BuiltinAi::ALL {
        let games: Vec<Game> = (0..200).map(|s| play(ai, s)).collect();
        let n = games.len() as f64;
        let stats: Vec<_> = games.iter().map(|g| g.stats()[0]).collect();
        let turns: f64 = stats.iter().map(|s| f64::from(s.turns)).sum::<f64>() / n;
        let levels: f64 = stats
            .iter()
            .map(|s| f64::from(s.levels_cleared))
            .sum::<f64>()
            / n;
        let moves: f64 = games.iter().map(|g| g.log().moves() as f64).sum::<f64>() / n;
        println!(
            "solo {}: {turns:.1} turns, {moves:.1} moves, {levels:.2} levels cleared per game",
            ai.name()
        );
    }
    let mut group = c.benchmark_group("robots_solo");
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
    const BATCH: u64 = 64;
    group.throughput(Throughput::Elements(BATCH));
    let mut first = 1_000_000u64;
    group.bench_function("dodger_batch_all_cores", |b| {
        b.iter(|| {
            first += BATCH;
            let games: Vec<Game> = (first..first + BATCH)
                .into_par_iter()
                .map(|seed| play(BuiltinAi::Dodger, seed))
                .collect();
            black_box(games)
        })
    });
    group.throughput(Throughput::Elements(1));
    // The engine alone: the dodger's games replayed from their logs.
    let recorded: Vec<(Setup, Game)> = (0..50)
        .map(|s| (Setup::standard(1, s), play(BuiltinAi::Dodger, s)))
        .collect();
    let mut i = 0usize;
    group.bench_function("replay_dodger", |b| {
        b.iter(|| {
            i += 1;
            let (setup, game) = &recorded[i % recorded.len()];
            black_box(Game::replay(setup, game.log()).expect("replay"))
        })
    });
    group.finish();
}

criterion_group!(benches, robots);
criterion_main!(benches);

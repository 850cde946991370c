//! Engine throughput: full 8-player games on a shipped 12x12 board, single thread: games as
//! they come (8 random AIs often end early, when one robot is left) and games that last all
//! 60 turns (`*_60_turns`: seeds picked once, per-turn cost = time / 60).
//!
//! Targets (reported, not asserted): at least 5,000 games/s with 8 `random` AIs and 1,500
//! games/s with 8 `runner` AIs, under 64 KiB of memory per game in flight. The memory
//! figure is measured with a counting allocator and printed before the timings.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::boards::load_board;
use lrs_tourney::games::lrs::engine::{Board, Game, GameConfig, run_game};
use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live heap bytes and their peak, to measure one game's footprint.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const BOARD: &str = "corridor-dash";

fn board() -> Arc<Board> {
    let board = load_board(BOARD).expect("shipped board");
    assert_eq!((board.width(), board.height()), (12, 12));
    board
}

fn play(board: &Arc<Board>, ai: BuiltinAi, seed: u64) -> Game {
    let mut game = Game::new(board.clone(), 8, seed, GameConfig::default()).expect("game");
    let mut players: Vec<_> = (0..8).map(|seat| ai.player(seed, seat)).collect();
    run_game(&mut game, &mut players).expect("game runs");
    game
}

/// Peak heap bytes of one game in flight (game state, logs and its 8 players), beyond
/// what was live before it started, plus the game value itself.
fn bytes_per_game(board: &Arc<Board>, ai: BuiltinAi) -> usize {
    let mut worst = 0;
    for seed in 0..50 {
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let game = play(board, ai, seed);
        let peak = PEAK.load(Ordering::Relaxed) - before;
        worst = worst.max(peak + std::mem::size_of_val(&game));
        drop(game);
    }
    worst
}

fn engine(c: &mut Criterion) {
    let board = board();
    for ai in [BuiltinAi::Random, BuiltinAi::Runner, BuiltinAi::Hunter] {
        let turns: u64 = (0..100)
            .map(|s| u64::from(play(&board, ai, s).turn()))
            .sum();
        println!(
            "{}: peak memory per game in flight {} bytes; mean turns per game {:.1}",
            ai.name(),
            bytes_per_game(&board, ai),
            turns as f64 / 100.0
        );
    }
    let mut group = c.benchmark_group("full_game_8_players");
    group.throughput(Throughput::Elements(1));
    for ai in [BuiltinAi::Random, BuiltinAi::Runner, BuiltinAi::Hunter] {
        let mut seed = 0u64;
        group.bench_function(ai.name(), |b| {
            b.iter(|| {
                seed += 1;
                black_box(play(&board, ai, seed))
            })
        });
    }
    // Games that last all 60 turns (8 random AIs often end a game early, when one robot
    // is left): the seeds are picked once, then cycled. Per-turn cost = time / 60.
    for ai in [BuiltinAi::Random, BuiltinAi::Runner] {
        let seeds: Vec<u64> = (0..2000u64)
            .filter(|&s| play(&board, ai, s).turn() == 60)
            .take(200)
            .collect();
        assert!(!seeds.is_empty(), "no 60-turn game for {}", ai.name());
        let mut i = 0usize;
        group.bench_function(format!("{}_60_turns", ai.name()), |b| {
            b.iter(|| {
                i += 1;
                black_box(play(&board, ai, seeds[i % seeds.len()]))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);

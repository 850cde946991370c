//! The built-in `runner` and `hunter` clearly beat `random` on every shipped board, measured
//! over 200 games per board (game seeds 1..=200, seats rotating by one each game).
//!
//! Run with `-- --nocapture` to see the mean score per board and AI (docs/boards.md quotes
//! them).

use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::boards::shipped_boards;
use lrs_tourney::games::{Arena, BuiltinBot, GameKind, GameSettings};
use lrs_tourney::play::{BotSpec, ExternalOptions, Keep, Lineup, SlotTotals};

/// Games per board.
const GAMES: u32 = 200;
/// Seed of the first game; game `g` uses `SEED + g`.
const SEED: u64 = 1;

/// Two of each clever AI against four random ones, on eight seats.
const BOTS: [BuiltinAi; 8] = [
    BuiltinAi::Runner,
    BuiltinAi::Hunter,
    BuiltinAi::Random,
    BuiltinAi::Random,
    BuiltinAi::Runner,
    BuiltinAi::Hunter,
    BuiltinAi::Random,
    BuiltinAi::Random,
];

/// The per-AI totals of one board: mean score per game and flags touched.
struct Measured {
    mean: f64,
    flags: u32,
}

fn measure(stats: &[SlotTotals], ai: BuiltinAi) -> Measured {
    let picked: Vec<&SlotTotals> = stats
        .iter()
        .zip(&BOTS)
        .filter(|(_, b)| **b == ai)
        .map(|(s, _)| s)
        .collect();
    let games: u32 = picked.iter().map(|s| s.games).sum();
    let total: i64 = picked.iter().map(|s| s.total_score).sum();
    Measured {
        mean: total as f64 / f64::from(games),
        flags: picked.iter().map(|s| s.stat("flags").unwrap()).sum(),
    }
}

#[tokio::test]
async fn runner_and_hunter_beat_random_on_every_shipped_board() {
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut failures = Vec::new();
    eprintln!(
        "mean score per game over {GAMES} games per board (seeds {SEED}..={}):",
        SEED + u64::from(GAMES) - 1
    );
    eprintln!("| board | runner | hunter | random |");
    eprintln!("|---|---|---|---|");
    for shipped in shipped_boards() {
        let lrs = GameKind::parse("lrs").unwrap();
        let lineup = Lineup {
            arena: Arena::load(&GameSettings::default_for(lrs), shipped.name, 60).unwrap(),
            slots: BOTS
                .iter()
                .map(|ai| BotSpec::Builtin(BuiltinBot::parse(lrs, ai.name()).unwrap()))
                .collect(),
            labels: BOTS.iter().map(|ai| ai.name().to_string()).collect(),
            games: GAMES,
            seed: SEED,
            keep: Keep::Totals,
        };
        let stats = lineup
            .play(jobs, &ExternalOptions::default())
            .await
            .unwrap()
            .totals;
        assert!(stats.iter().all(|s| s.games == GAMES));
        let runner = measure(&stats, BuiltinAi::Runner);
        let hunter = measure(&stats, BuiltinAi::Hunter);
        let random = measure(&stats, BuiltinAi::Random);
        eprintln!(
            "| `{}` | {:.2} | {:.2} | {:.2} |",
            shipped.stem(),
            runner.mean,
            hunter.mean,
            random.mean
        );
        // "Clearly": at least twice random's mean score, on every board.
        if !(runner.mean > 2.0 * random.mean && hunter.mean > 2.0 * random.mean) {
            failures.push(format!(
                "{}: mean score runner {:.2}, hunter {:.2}, random {:.2} (need more than twice random)",
                shipped.name, runner.mean, hunter.mean, random.mean
            ));
        }
        // The runner races flags: it touches far more of them than random does.
        if runner.flags <= 10 * random.flags.max(1) {
            failures.push(format!(
                "{}: flags runner {}, random {} (need more than ten times random)",
                shipped.name, runner.flags, random.flags
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! The built-in `runner` and `hunter` clearly beat `random` on every shipped board.

use lrs_tourney::ai::BuiltinAi;
use lrs_tourney::boards::{load_board, shipped_boards};
use lrs_tourney::engine::GameConfig;
use lrs_tourney::play::{BotSpec, PlayOptions, play};

#[test]
fn runner_and_hunter_beat_random_on_every_shipped_board() {
    for shipped in shipped_boards() {
        let board = load_board(shipped.name).unwrap();
        let bots = [
            BuiltinAi::Runner,
            BuiltinAi::Hunter,
            BuiltinAi::Random,
            BuiltinAi::Random,
            BuiltinAi::Runner,
            BuiltinAi::Hunter,
            BuiltinAi::Random,
            BuiltinAi::Random,
        ];
        let opts = PlayOptions {
            board,
            bots: bots.iter().map(|ai| BotSpec::Builtin(*ai)).collect(),
            games: 40,
            seed: 1,
            config: GameConfig::default(),
        };
        let stats = play(&opts, 2).unwrap();
        let mean = |ai: BuiltinAi| {
            let picked: Vec<f64> = stats
                .iter()
                .zip(&bots)
                .filter(|(_, b)| **b == ai)
                .map(|(s, _)| s.mean_score)
                .collect();
            picked.iter().sum::<f64>() / picked.len() as f64
        };
        let (runner, hunter, random) = (
            mean(BuiltinAi::Runner),
            mean(BuiltinAi::Hunter),
            mean(BuiltinAi::Random),
        );
        assert!(
            runner > 2.0 * random && hunter > 2.0 * random,
            "{}: runner {runner:.1}, hunter {hunter:.1}, random {random:.1}",
            shipped.name
        );
        // The runner races flags: it touches far more of them than random does.
        let flags = |ai: BuiltinAi| -> u32 {
            stats
                .iter()
                .zip(&bots)
                .filter(|(_, b)| **b == ai)
                .map(|(s, _)| s.flags)
                .sum()
        };
        assert!(flags(BuiltinAi::Runner) > 10 * flags(BuiltinAi::Random).max(1));
    }
}

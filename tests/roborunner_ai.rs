//! `runner` against `random` (RN18): over 200 two-seat games on the four shipped ships,
//! seats alternating, the runner wins clearly more often, inspects the hull and finishes.

use lrs_tourney::games::roborunner::ai::{BuiltinAi, run_game};
use lrs_tourney::games::roborunner::engine::{Game, Rules, Setup};
use lrs_tourney::games::roborunner::ships;

#[test]
fn runner_beats_random_clearly_over_200_games() {
    let (mut runner_wins, mut random_wins, mut inspections, mut finishes) = (0, 0, 0, 0);
    for g in 0..200u64 {
        let ship = ships::load(ships::SHIPPED[g as usize % 4].0).unwrap();
        let runner_seat = (g % 2) as usize;
        let mut game = Game::new(&Setup {
            ship,
            seats: 2,
            seed: 2000 + g,
            rules: Rules::default(),
        })
        .unwrap();
        let mut players: Vec<_> = (0..2)
            .map(|s| {
                let ai = if s == runner_seat {
                    BuiltinAi::Runner
                } else {
                    BuiltinAi::Random
                };
                ai.player(2000 + g, s)
            })
            .collect();
        run_game(&mut game, &mut players).unwrap();
        let scores = game.scores();
        let other = 1 - runner_seat;
        if scores[runner_seat] > scores[other] {
            runner_wins += 1;
        } else if scores[other] > scores[runner_seat] {
            random_wins += 1;
        }
        let r = &game.robots()[runner_seat];
        inspections += r.inspections;
        finishes += u32::from(r.place.is_some());
    }
    println!(
        "runner {runner_wins}, random {random_wins}, inspections {inspections}, finishes {finishes}"
    );
    assert!(
        runner_wins >= 180 && random_wins <= 10,
        "runner {runner_wins}, random {random_wins}"
    );
    assert!(
        inspections >= 300,
        "the runner inspected {inspections} points in 200 games"
    );
    assert!(
        finishes >= 150,
        "the runner finished {finishes} of 200 games"
    );
}

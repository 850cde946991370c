//! `racer` against `random` (RR17): over 200 two-seat games on the four shipped boards,
//! seats alternating, the racer wins clearly more often and finishes the race.

use lrs_tourney::games::roborally::ai::{BuiltinAi, run_game};
use lrs_tourney::games::roborally::boards;
use lrs_tourney::games::roborally::engine::{Game, Setup};

#[test]
fn racer_beats_random_clearly_over_200_games() {
    let (mut racer_wins, mut random_wins, mut finishes) = (0, 0, 0);
    for g in 0..200u64 {
        let board = boards::load(boards::SHIPPED[g as usize % 4].0).unwrap();
        let racer_seat = (g % 2) as usize;
        let mut game = Game::new(&Setup {
            board,
            seats: 2,
            seed: 1000 + g,
            max_turns: 30,
        })
        .unwrap();
        let mut players: Vec<_> = (0..2)
            .map(|s| {
                let ai = if s == racer_seat {
                    BuiltinAi::Racer
                } else {
                    BuiltinAi::Random
                };
                ai.player(1000 + g, s)
            })
            .collect();
        run_game(&mut game, &mut players).unwrap();
        let scores = game.scores();
        let other = 1 - racer_seat;
        if scores[racer_seat] > scores[other] {
            racer_wins += 1;
        } else if scores[other] > scores[racer_seat] {
            random_wins += 1;
        }
        if game.finisher() == Some(racer_seat) {
            finishes += 1;
        }
    }
    assert!(
        racer_wins >= 180 && random_wins <= 10,
        "racer {racer_wins}, random {random_wins}"
    );
    assert!(
        finishes >= 100,
        "the racer finished {finishes} of 200 races"
    );
}

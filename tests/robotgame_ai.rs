//! The built-in RobotGame `hunter` clearly beats `random`: 200 real two-seat games (game
//! seeds 1..=200, the hunter in seat 0 for odd seeds and seat 1 for even ones).
//!
//! Run with `-- --nocapture` to see the record and mean scores (docs/robotgame.md quotes
//! them).

use lrs_tourney::games::robotgame::{BuiltinAi, Game, Seat, Setup, run_game};

const GAMES: u64 = 200;

/// Plays seed `seed` with `hunter` in `hunter_seat`; returns (hunter's score, random's score).
fn play(seed: u64, hunter_seat: u8) -> (u32, u32) {
    let mut game = Game::new(&Setup::standard(2, seed)).unwrap();
    let mut players: Vec<_> = (0..2u8)
        .map(|s| {
            let ai = if s == hunter_seat {
                BuiltinAi::Hunter
            } else {
                BuiltinAi::Random
            };
            ai.player(seed, Seat(s))
        })
        .collect();
    run_game(&mut game, &mut players).unwrap();
    assert!(game.is_over());
    let scores = game.scores();
    let h = usize::from(hunter_seat);
    (scores[h], scores[1 - h])
}

#[test]
fn hunter_beats_random_in_at_least_95_percent_of_games() {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let (mut hunter_total, mut random_total) = (0u64, 0u64);
    for seed in 1..=GAMES {
        let (h, r) = play(seed, (seed % 2) as u8);
        hunter_total += u64::from(h);
        random_total += u64::from(r);
        match h.cmp(&r) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
    }
    eprintln!(
        "hunter vs random over {GAMES} games: {wins} won, {draws} drawn, {losses} lost; \
         mean score {:.2} vs {:.2}",
        hunter_total as f64 / GAMES as f64,
        random_total as f64 / GAMES as f64
    );
    assert!(
        wins * 100 >= 95 * GAMES,
        "hunter won only {wins} of {GAMES}"
    );
}

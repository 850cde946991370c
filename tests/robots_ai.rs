//! The built-in Robots `dodger` clearly beats `random`: 200 real two-seat games (game seeds
//! 1..=200, the dodger in seat 0 for odd seeds and seat 1 for even ones). Both seats play
//! the same levels on their own boards, so each game compares them on equal terms.
//!
//! Run with `-- --nocapture` to see the record, the mean score and levels cleared
//! (docs/robots.md quotes them).

use lrs_tourney::games::robots::{BuiltinAi, Game, Seat, SeatStats, Setup, run_game};

const GAMES: u64 = 200;

/// Plays seed `seed` with the dodger in `dodger_seat`; returns (dodger's score and
/// statistics, random's).
fn play(seed: u64, dodger_seat: u8) -> ((i64, SeatStats), (i64, SeatStats)) {
    let mut game = Game::new(&Setup::standard(2, seed)).unwrap();
    let mut players: Vec<_> = (0..2u8)
        .map(|s| {
            let ai = if s == dodger_seat {
                BuiltinAi::Dodger
            } else {
                BuiltinAi::Random
            };
            ai.player(seed, Seat(s))
        })
        .collect();
    run_game(&mut game, &mut players).unwrap();
    assert!(game.is_over());
    let (scores, stats) = (game.scores(), game.stats());
    let d = usize::from(dodger_seat);
    ((scores[d], stats[d]), (scores[1 - d], stats[1 - d]))
}

#[test]
fn dodger_beats_random_on_score_and_levels() {
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let (mut score, mut levels, mut kills, mut turns) =
        ([0i64; 2], [0u64; 2], [0u64; 2], [0u64; 2]);
    let mut cleared_more = 0u64;
    for seed in 1..=GAMES {
        let (d, r) = play(seed, (seed % 2) as u8);
        for (k, (s, st)) in [d, r].into_iter().enumerate() {
            score[k] += s;
            levels[k] += u64::from(st.levels_cleared);
            kills[k] += u64::from(st.kills);
            turns[k] += u64::from(st.turns);
        }
        cleared_more += u64::from(d.1.levels_cleared > r.1.levels_cleared);
        match d.0.cmp(&r.0) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
    }
    let mean = |v: f64| v / GAMES as f64;
    eprintln!(
        "dodger vs random over {GAMES} games: {wins} won, {draws} drawn, {losses} lost; \
         cleared more levels in {cleared_more}\n\
         mean score {:.1} vs {:.1}; levels cleared {:.2} vs {:.2}; kills {:.1} vs {:.1}; \
         turns {:.1} vs {:.1}",
        mean(score[0] as f64),
        mean(score[1] as f64),
        mean(levels[0] as f64),
        mean(levels[1] as f64),
        mean(kills[0] as f64),
        mean(kills[1] as f64),
        mean(turns[0] as f64),
        mean(turns[1] as f64),
    );
    assert!(
        wins * 100 >= 95 * GAMES,
        "dodger won only {wins} of {GAMES}"
    );
}

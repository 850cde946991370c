//! Whole games on a hand-built board: they finish, replay from their seed and decisions,
//! and keep the basic invariants.

use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::engine::*;
use std::sync::Arc;

/// A 10x10 board with belts, a gear, pits, walls, a laser, repair and flags, built in code
/// so this test does not depend on the board file format.
fn board() -> Arc<Board> {
    let w = 10;
    let mut sq = vec![Square::FLOOR; 100];
    let at = |x: i32, y: i32| (y * w + x) as usize;
    for (i, x) in [1, 3, 5, 7, 8, 6, 4, 2].into_iter().enumerate() {
        sq[at(x, 9)].start = Some(i as u8 + 1);
    }
    sq[at(2, 2)].tile = Tile::Flag(1);
    sq[at(7, 3)].tile = Tile::Flag(2);
    sq[at(4, 6)].tile = Tile::Flag(3);
    for x in 0..6 {
        sq[at(x, 4)].tile = Tile::Conveyor {
            dir: Direction::East,
            express: x % 2 == 0,
        };
    }
    sq[at(6, 4)].tile = Tile::Conveyor {
        dir: Direction::South,
        express: false,
    };
    sq[at(5, 5)].tile = Tile::Gear(Rotation::Clockwise);
    sq[at(8, 7)].tile = Tile::Pit;
    sq[at(1, 6)].tile = Tile::Pit;
    sq[at(5, 1)].tile = Tile::Repair;
    sq[at(3, 3)].walls = Walls::NONE.with(Direction::North).with(Direction::East);
    sq[at(0, 7)].laser = Some(Laser {
        dir: Direction::East,
        strength: 2,
    });
    Arc::new(Board::new("smoke", "", w, 10, sq).expect("valid board"))
}

fn play(seed: u64, ais: &[BuiltinAi]) -> Game {
    let mut game = Game::new(board(), ais.len(), seed, GameConfig::default()).unwrap();
    let mut players: Vec<_> = ais
        .iter()
        .enumerate()
        .map(|(seat, ai)| ai.player(seed, seat))
        .collect();
    run_game(&mut game, &mut players).unwrap();
    game
}

#[test]
fn games_finish_and_keep_invariants() {
    let ais = [BuiltinAi::Random, BuiltinAi::Runner, BuiltinAi::Hunter];
    for seed in 0..200 {
        let roster: Vec<_> = (0..8).map(|i| ais[(i + seed as usize) % 3]).collect();
        let game = play(seed, &roster);
        assert!(game.is_over());
        assert!(game.turn() <= 60);
        let mut seen = std::collections::HashSet::new();
        for r in game.robots() {
            assert!(r.damage <= 10);
            assert!(r.lives <= 3);
            assert!(r.score >= 0);
            if r.is_active() {
                assert!(seen.insert(r.pos), "two robots on {}", r.pos);
                assert!(game.board().contains(r.pos));
            }
        }
    }
}

#[test]
fn same_seed_same_game_and_replay_from_decisions() {
    let roster = [
        BuiltinAi::Runner,
        BuiltinAi::Random,
        BuiltinAi::Hunter,
        BuiltinAi::Random,
    ];
    let a = play(42, &roster);
    let b = play(42, &roster);
    assert_eq!(a.events(), b.events());
    assert_eq!(a.robots(), b.robots());
    // Feed the recorded decisions to a fresh game: the same game comes out.
    let mut replay = Game::new(board(), 4, 42, GameConfig::default()).unwrap();
    let mut decisions = a.decisions().iter();
    while !replay.is_over() {
        match replay.pending() {
            Pending::Start(qs) => {
                let replies: Vec<_> = qs
                    .iter()
                    .map(|_| match decisions.next() {
                        Some(Decision::Start { reply, .. }) => *reply,
                        other => panic!("expected a start decision, got {other:?}"),
                    })
                    .collect();
                replay.answer_start(&replies).unwrap();
            }
            Pending::Turn(qs) => {
                let replies: Vec<_> = qs
                    .iter()
                    .map(|_| match decisions.next() {
                        Some(Decision::Turn { reply, .. }) => *reply,
                        other => panic!("expected a turn decision, got {other:?}"),
                    })
                    .collect();
                replay.answer_turn(&replies).unwrap();
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(replay.events(), a.events());
    assert_eq!(replay.robots(), a.robots());
}

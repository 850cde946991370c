//! The RoboRally engine as a whole: dealing (RR4), fallback programs (RR5.2), the decision
//! log and exact replay (RR15), and property tests with random answers, invalid ones
//! included: hp stays in 0..=9, no two active robots share a square, checkpoints never
//! decrease, a finisher has the top score, and the same seed and answers give the same game.

use lrs_tourney::games::roborally::ai::{BuiltinAi, Player, run_game};
use lrs_tourney::games::roborally::engine::*;
use lrs_tourney::games::roborally::{boards, log, play};
use lrs_tourney::games::shared::grid::Direction;
use lrs_tourney::games::shared::silence::Silence;
use proptest::prelude::*;
use std::collections::HashSet;

fn setup(board: &str, seats: usize, seed: u64) -> Setup {
    Setup {
        board: boards::load(board).unwrap(),
        seats,
        seed,
        max_turns: 30,
    }
}

/// A player that answers from a script of its own: legal programs, illegal ones, faults.
struct Unruly {
    rng: lrs_tourney::rng::GameRng,
}

impl Player for Unruly {
    fn start(&mut self, _game: &Game, q: &StartQuery) -> StartReply {
        match self.rng.below(6) {
            0 => StartReply::Fault(Silence::Timeout),
            1 => StartReply::Choice {
                at: lrs_tourney::games::shared::grid::Pos::new(-3, 40),
                facing: Direction::East,
            },
            _ => StartReply::Choice {
                at: q.options[self.rng.below(q.options.len() as u32) as usize],
                facing: Direction::from_index(self.rng.below(4) as u8),
            },
        }
    }

    fn program(&mut self, _game: &Game, q: &ProgramQuery) -> ProgramReply {
        match self.rng.below(10) {
            0 => ProgramReply::Fault(Silence::Crash),
            1 => ProgramReply::Program {
                cards: vec![0; q.free],
                power_down: false,
            },
            2 => ProgramReply::Program {
                cards: vec![200],
                power_down: true,
            },
            n => ProgramReply::Program {
                cards: fallback_program(&mut self.rng, q.hand.len(), q.free),
                power_down: n == 3,
            },
        }
    }
}

fn players(seed: u64, kinds: &[u8]) -> Vec<Box<dyn Player + Send>> {
    kinds
        .iter()
        .enumerate()
        .map(|(s, k)| match k % 3 {
            0 => BuiltinAi::Random.player(seed, s),
            1 => BuiltinAi::Racer.player(seed, s),
            _ => Box::new(Unruly {
                rng: lrs_tourney::rng::GameRng::new(seed ^ (s as u64 + 99)),
            }) as Box<dyn Player + Send>,
        })
        .collect()
}

fn played(board: &str, seed: u64, kinds: &[u8]) -> Game {
    let mut game = Game::new(&setup(board, kinds.len(), seed)).unwrap();
    game.keep_snapshots();
    let mut ps = players(seed, kinds);
    run_game(&mut game, &mut ps).unwrap();
    game
}

/// RR4: each dealt robot gets hp distinct cards of the printed deck, and a locked card
/// is never dealt again.
#[test]
fn hands_hold_hp_distinct_cards_and_locked_cards_stay_out() {
    let mut game = Game::new(&setup("dock-sprint", 8, 5)).unwrap();
    let mut ps = players(5, &[0; 8]);
    let mut checked = 0;
    while !game.is_over() {
        match game.pending() {
            Pending::Start(qs) => {
                let r: Vec<_> = qs.iter().map(|q| ps[q.seat].start(&game, q)).collect();
                game.answer_start(&r).unwrap();
            }
            Pending::Program(qs) => {
                let mut seen = HashSet::new();
                for q in qs {
                    let robot = game.robots()[q.seat];
                    assert_eq!(q.hand.len(), robot.hp as usize);
                    assert_eq!(q.free, (robot.hp as usize).min(5));
                    assert_eq!(q.locked.len(), 5 - q.free);
                    for c in q.hand.iter().chain(q.locked.iter().map(|(_, c)| c)) {
                        assert!(seen.insert(c.priority), "card {c:?} dealt twice");
                    }
                    checked += 1;
                }
                let r: Vec<_> = qs.iter().map(|q| ps[q.seat].program(&game, q)).collect();
                game.answer_program(&r).unwrap();
            }
            _ => break,
        }
    }
    assert!(checked > 30);
}

/// RR5.2: a fault is an event and the robot plays a legal program all the same; the
/// game goes on to its end.
#[test]
fn faulty_answers_are_faults_and_the_game_goes_on() {
    let game = played("burn-yard", 11, &[2, 2, 0, 1]);
    assert!(game.is_over());
    let faults: u32 = game.stats().iter().map(|s| s.faults).sum();
    let events = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Fault(_)))
        .count();
    assert!(faults > 0);
    assert_eq!(faults as usize, events);
}

/// RR2.1, RR5.1: an answer the rules refuse is kept with why, for the round it answered
/// only; a seat that answered well, or was silent, has no refusal.
#[test]
fn the_engine_says_why_it_refused_an_answer() {
    let mut game = Game::new(&setup("dock-sprint", 3, 5)).unwrap();
    let Pending::Start(qs) = game.pending() else {
        panic!("a game starts with its start squares")
    };
    let wanted = qs[0].options[0];
    let far = lrs_tourney::games::shared::grid::Pos::new(-3, 40);
    let replies = [
        StartReply::Choice {
            at: far,
            facing: Direction::East,
        },
        StartReply::Choice {
            at: qs[1].options[0],
            facing: Direction::North,
        },
        StartReply::Fault(Silence::Timeout),
    ];
    game.answer_start(&replies).unwrap();
    let why = game.refusal_of(0).map(ToString::to_string);
    assert_eq!(
        why.as_deref(),
        Some(
            format!(
                "the square [-3, 40] is not one of the options [[{}, {}]]",
                wanted.x, wanted.y
            )
            .as_str()
        )
    );
    assert_eq!(game.refusal_of(1), None);
    assert_eq!(game.refusal_of(2), None);
    let Pending::Program(qs) = game.pending() else {
        panic!("programs follow the start squares")
    };
    let (free, hand) = (qs[0].free, qs[0].hand.len());
    let replies: Vec<ProgramReply> = vec![
        ProgramReply::Program {
            cards: vec![0; free],
            power_down: false,
        },
        ProgramReply::Program {
            cards: vec![200],
            power_down: false,
        },
        ProgramReply::Program {
            cards: (0..free as u8)
                .map(|i| if i == 0 { 200 } else { i })
                .collect(),
            power_down: false,
        },
    ];
    game.answer_program(&replies).unwrap();
    let why = |seat| game.refusal_of(seat).map(ToString::to_string);
    assert_eq!(
        why(0).as_deref(),
        Some("card 0 is listed twice: each hand card may be used once")
    );
    assert_eq!(
        why(1),
        Some(format!(
            "the program lists 1 card(s); this turn it needs exactly {free}, one per unlocked register (`free`)"
        ))
    );
    assert_eq!(
        why(2),
        Some(format!(
            "card 200 is not in the hand, whose indices are 0 to {}",
            hand - 1
        ))
    );
}

/// RR15: the stored log replays the game exactly, and a damaged log is an error.
#[test]
fn stored_logs_replay_exactly() {
    for (seed, board) in [(1, "dock-sprint"), (2, "twin-lanes"), (3, "merge-works")] {
        let game = played(board, seed, &[0, 1, 2, 0, 1, 2]);
        let bytes = log::to_bytes(game.decisions());
        assert_eq!(log::from_bytes(&bytes).unwrap(), game.decisions());
        let mut again = Game::new(&setup(board, 6, seed)).unwrap();
        play::replay(&mut again, game.decisions()).unwrap();
        assert_eq!(again.events(), game.events());
        assert_eq!(again.robots(), game.robots());
        assert!(log::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong_seed = Game::new(&setup(board, 6, seed + 1)).unwrap();
        let differs = play::replay(&mut wrong_seed, game.decisions()).is_err()
            || wrong_seed.events() != game.events();
        assert!(differs, "another seed deals other cards");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn games_keep_their_invariants(
        seed in any::<u64>(),
        kinds in prop::collection::vec(0u8..3, 2..=8),
        board in 0usize..4,
    ) {
        let name = boards::SHIPPED[board].0;
        let game = played(name, seed, &kinds);
        let again = played(name, seed, &kinds);
        prop_assert_eq!(game.events(), again.events());
        prop_assert_eq!(game.decisions(), again.decisions());
        let mut last: Vec<u8> = vec![0; kinds.len()];
        for shot in game.snapshots() {
            let mut squares = HashSet::new();
            for (s, r) in shot.robots.iter().enumerate() {
                prop_assert!(r.hp <= 9);
                prop_assert!(r.checkpoints >= last[s], "checkpoints went down");
                last[s] = r.checkpoints;
                if r.is_active() {
                    prop_assert!(r.hp >= 1);
                    prop_assert!(squares.insert(r.pos), "two robots on {:?}", r.pos);
                } else {
                    prop_assert_eq!(r.hp, 0);
                }
            }
        }
        if let Some(f) = game.finisher() {
            let scores = game.scores();
            prop_assert!(scores.iter().enumerate().all(|(s, v)| s == f || *v < scores[f]));
        }
    }
}

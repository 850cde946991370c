//! Robo Runner's engine through the seam and on its own: games replay from their stored
//! decision log, damaged bytes are an error, a refused answer is a fault replaced by the
//! first hand chips (RN6.2), and the properties of RN3 and RN7 hold in random games.

use lrs_tourney::games::roborunner::ai::{BuiltinAi, Player, run_game};
use lrs_tourney::games::roborunner::engine::{
    Answer, EventKind, Game, MAX_DAMAGE, Pending, Reply, Rules, Setup, State,
};
use lrs_tourney::games::roborunner::{log, ships};
use lrs_tourney::games::{Arena, BuiltinBot, Decisions, GameKind, GameSettings, StoredGame};
use proptest::prelude::*;
use std::collections::HashSet;

fn setup(ship: &str, seats: usize, seed: u64) -> Setup {
    options_setup(ship, seats, seed, false, 0)
}

fn options_setup(ship: &str, seats: usize, seed: u64, equipment: bool, scanners: u8) -> Setup {
    Setup {
        ship: ships::load(ship).unwrap(),
        seats,
        seed,
        rules: Rules {
            equipment,
            scanners,
            ..Rules::default()
        },
    }
}

#[test]
fn a_tournament_game_replays_from_its_stored_bytes_and_damage_is_an_error() {
    let kind = GameKind::parse("roborunner").unwrap();
    let settings = GameSettings::default_for(kind);
    for ship in ["hull-walk", "twin-bays", "spine-run", "bay-ring"] {
        let arena = Arena::load(&settings, ship, 30).unwrap();
        let seats: Vec<BuiltinBot> = ["runner", "random", "runner", "random", "random"]
            .iter()
            .map(|n| BuiltinBot::parse(kind, n).unwrap())
            .collect();
        let played = arena.play_builtin(91, &seats, Decisions::Keep).unwrap();
        let stored = |decisions| StoredGame {
            seats: seats.len(),
            seed: 91,
            decisions,
        };
        assert_eq!(arena.replay(stored(&played.decisions)).unwrap(), played);
        let view = arena.replay_for_view(stored(&played.decisions)).unwrap();
        let scores: Vec<i64> = played.seats.iter().map(|s| s.score).collect();
        assert_eq!(view.scores(), scores);
        for cut in [1, 7, played.decisions.len() / 2] {
            assert!(arena.replay(stored(&played.decisions[..cut])).is_err());
        }
        let mut longer = played.decisions.clone();
        longer.push(0);
        assert!(arena.replay(stored(&longer)).is_err());
        // Another answer for the first seat gives another game or an error, never a panic.
        let mut changed = played.decisions.clone();
        changed[7] ^= 1;
        let _ = arena.replay(stored(&changed));
    }
}

/// RN6.2: an answer with a chip not in the hand is a fault (`invalid`), replaced by the
/// first hand chips; a timeout the same; both are kept in the log as given.
#[test]
fn a_refused_answer_is_a_fault_and_the_first_hand_chips_are_played() {
    let mut game = Game::new(&setup("hull-walk", 2, 5)).unwrap();
    let Pending::Decisions(qs) = game.pending() else {
        panic!("the first turn asks");
    };
    let qs = qs.to_vec();
    assert_eq!(qs.len(), 2);
    assert!(
        qs.iter()
            .all(|q| q.dispatched && q.hand.len() == 9 && q.free == 5)
    );
    let mut wrong = qs[0].hand[..4].to_vec();
    wrong.push(wrong[0]);
    wrong.push(wrong[0]);
    let replies = vec![
        Reply::Answer(Answer {
            program: wrong,
            reboot: false,
            activate: Vec::new(),
            facing: None,
        }),
        Reply::Fault(lrs_tourney::games::shared::silence::Silence::Timeout),
    ];
    game.answer(&replies).unwrap();
    let faults: Vec<_> = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Fault(_)))
        .map(|e| e.robot)
        .collect();
    assert_eq!(faults, vec![0, 1]);
    for (s, q) in qs.iter().enumerate() {
        let last: Vec<_> = game.robots()[s].last.iter().flatten().copied().collect();
        if game.robots()[s].state == State::Active {
            assert_eq!(last, q.hand[..5].to_vec(), "seat {s}");
        }
        assert_eq!(game.robots()[s].faults, 1);
    }
    assert_eq!(
        log::from_bytes(&log::to_bytes(game.decisions())).unwrap(),
        game.decisions()
    );
}

/// Plays a game of random AIs turn by turn (with equipment, each answer also activates
/// random phases, some of them invalid), checking after each turn: no two real robots
/// (scanners included) on a square, damage in 0..=10, ammo in 0..=3, inspections only in
/// order, and the turn order a permutation of all robots, scanners included.
fn check_game(
    ship: &str,
    seats: usize,
    seed: u64,
    equipment: bool,
    scanners: u8,
) -> Result<(), TestCaseError> {
    let mut game = Game::new(&options_setup(ship, seats, seed, equipment, scanners)).unwrap();
    let mut activations = lrs_tourney::rng::GameRng::new(seed ^ 0xA11);
    let mut players: Vec<Box<dyn Player + Send>> = (0..seats)
        .map(|s| {
            let ai = if s % 3 == 2 {
                BuiltinAi::Runner
            } else {
                BuiltinAi::Random
            };
            ai.player(seed, s)
        })
        .collect();
    while let Pending::Decisions(qs) = game.pending() {
        let qs = qs.to_vec();
        let replies: Vec<Reply> = qs
            .iter()
            .map(|q| match players[q.seat].decide(&game, q) {
                Reply::Answer(mut a) if equipment => {
                    let n = activations.below(4);
                    a.activate = (0..n).map(|_| activations.below(6) as u8).collect();
                    Reply::Answer(a)
                }
                other => other,
            })
            .collect();
        game.answer(&replies).unwrap();
        let mut real = HashSet::new();
        for r in game.all_robots() {
            prop_assert!(r.damage <= MAX_DAMAGE);
            prop_assert!(r.ammo <= 3);
            prop_assert_eq!(r.option.is_some(), equipment && !r.scanner);
            if r.state == State::Active && !r.virtual_ {
                prop_assert!(real.insert(r.pos), "two real robots on {:?}", r.pos);
            }
            prop_assert_eq!(r.inspections + 1, u32::from(r.next_ip));
        }
        let mut order = game.order().to_vec();
        order.sort_unstable();
        prop_assert_eq!(order, (0..seats + scanners as usize).collect::<Vec<_>>());
        prop_assert_eq!(game.scanners().len(), scanners as usize);
    }
    let mut next = vec![1u8; seats];
    for e in game.events() {
        if let EventKind::Inspect { ip } = e.kind {
            prop_assert_eq!(ip, next[e.robot]);
            next[e.robot] += 1;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn random_games_keep_the_rules_invariants(seed in any::<u64>(), seats in 2usize..=8, ship in 0usize..4) {
        check_game(ships::SHIPPED[ship].0, seats, seed, false, 0)?;
    }

    #[test]
    fn random_games_with_equipment_and_scanners_keep_the_rules_invariants(
        seed in any::<u64>(),
        seats in 2usize..=8,
        ship in 0usize..4,
        scanners in 1u8..=4,
    ) {
        check_game(ships::SHIPPED[ship].0, seats, seed, true, scanners)?;
    }
}

#[test]
fn games_of_built_in_ais_are_the_same_for_a_seed() {
    let play = || {
        let mut game = Game::new(&setup("twin-bays", 4, 17)).unwrap();
        let mut players: Vec<_> = (0..4)
            .map(|s| BuiltinAi::ALL[s % 2].player(17, s))
            .collect();
        run_game(&mut game, &mut players).unwrap();
        (game.scores(), game.events().to_vec())
    };
    assert_eq!(play(), play());
}

/// RN15.1 (b): options are drawn only with equipment, so a game without it is the game it
/// always was; with it every seat has one, scanners none, and the draws change the game.
#[test]
fn options_are_drawn_only_with_equipment() {
    let play = |equipment: bool, scanners: u8| {
        let mut game = Game::new(&options_setup("hull-walk", 3, 23, equipment, scanners)).unwrap();
        let mut players: Vec<_> = (0..3).map(|s| BuiltinAi::Random.player(23, s)).collect();
        run_game(&mut game, &mut players).unwrap();
        game
    };
    let plain = play(false, 0);
    assert!(plain.robots().iter().all(|r| r.option.is_none()));
    assert!(plain.scanners().is_empty());
    let equipped = play(true, 2);
    assert!(equipped.robots().iter().all(|r| r.option.is_some()));
    assert_eq!(equipped.scanners().len(), 2);
    assert!(
        equipped
            .scanners()
            .iter()
            .all(|r| r.option.is_none() && r.scanner)
    );
    // Scanners act: they are dispatched on turn 1 and appear in the events.
    let seats = equipped.robots().len();
    assert!(
        equipped
            .events()
            .iter()
            .any(|e| e.robot >= seats && e.kind == EventKind::Dispatch)
    );
    assert_eq!(play(false, 0).events(), plain.events());
}

/// RN12.2 through the engine's questions: an activation needing more ammo than held, or
/// repeating a phase, is a fault; a valid one is not (hand-based options cost 1 whatever
/// phases are listed).
#[test]
fn invalid_activations_are_faults() {
    let mut game = Game::new(&options_setup("hull-walk", 3, 8, true, 0)).unwrap();
    let Pending::Decisions(qs) = game.pending() else {
        panic!("the first turn asks");
    };
    let qs = qs.to_vec();
    let answer = |q: &lrs_tourney::games::roborunner::engine::Query, activate: Vec<u8>| {
        Reply::Answer(Answer {
            program: q.hand[..q.free].to_vec(),
            reboot: false,
            activate,
            facing: None,
        })
    };
    let option = game.robots()[0].option.unwrap();
    let valid = if option.hand_based() {
        vec![2, 4]
    } else {
        vec![1, 5]
    };
    let replies = vec![
        answer(&qs[0], valid),
        answer(&qs[1], vec![1, 2, 3, 4]),
        answer(&qs[2], vec![3, 3]),
    ];
    game.answer(&replies).unwrap();
    let faults: Vec<_> = game
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Fault(_)))
        .map(|e| e.robot)
        .collect();
    let needs_four = !game.robots()[1].option.unwrap().hand_based();
    let expected: Vec<usize> = if needs_four { vec![1, 2] } else { vec![2] };
    assert_eq!(faults, expected);
}

/// Replays show scanners apart from the seats: the trace lists them under `scanners` (the
/// seats' `robots` unchanged) and the text replay marks them `s0`, `s1`, ...
#[test]
fn replays_show_scanners_apart_from_the_seats() {
    use lrs_tourney::games::roborunner::text;
    let mut game = Game::new(&options_setup("twin-bays", 2, 31, true, 2)).unwrap();
    game.keep_snapshots();
    let mut players: Vec<_> = (0..2).map(|s| BuiltinAi::Runner.player(31, s)).collect();
    run_game(&mut game, &mut players).unwrap();
    let trace = text::trace(&game);
    let first = &trace["steps"][0];
    assert_eq!(first["robots"].as_array().unwrap().len(), 2);
    let scanners = first["scanners"].as_array().unwrap();
    assert_eq!(scanners.len(), 2);
    assert!(
        scanners
            .iter()
            .all(|s| s["scanner"] == true && s.get("score").is_none())
    );
    assert!(first["robots"][0]["ammo"].is_u64());
    let words = text::replay_text(&game, &["A".to_string(), "B".to_string()]);
    assert!(words.contains("scanner 0 dispatch"), "{words}");
    assert!(words.contains("s0"), "{words}");
}

/// A game with equipment and scanners replays from its stored decisions like any other.
#[test]
fn a_game_with_equipment_and_scanners_replays_from_its_stored_bytes() {
    use lrs_tourney::games::TypedGame;
    use lrs_tourney::games::roborunner::{kind::RoboRunner, settings::RunnerSettings};
    let kind = GameKind::parse("roborunner").unwrap();
    let settings = RoboRunner::carried(&RunnerSettings {
        equipment: true,
        scanners: 4,
        ..RunnerSettings::default()
    });
    let arena = Arena::load(&settings, "twin-bays", 30).unwrap();
    let seats: Vec<BuiltinBot> = ["runner", "random", "random"]
        .iter()
        .map(|n| BuiltinBot::parse(kind, n).unwrap())
        .collect();
    let played = arena.play_builtin(12, &seats, Decisions::Keep).unwrap();
    let stored = StoredGame {
        seats: seats.len(),
        seed: 12,
        decisions: &played.decisions,
    };
    assert_eq!(arena.replay(stored).unwrap(), played);
    let plain = Arena::load(&GameSettings::default_for(kind), "twin-bays", 30).unwrap();
    assert_ne!(
        plain.play_builtin(12, &seats, Decisions::Keep).unwrap(),
        played
    );
}

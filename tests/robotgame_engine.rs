//! RobotGame rules the scenario format cannot express (seats that time out or crash, answers
//! naming other seats' robots, drawn damage and spawn squares over many seeds) and exact
//! replay from the decision log.

use lrs_tourney::games::robotgame::arena::{ARENA, Sq};
use lrs_tourney::games::robotgame::engine::{MAX_HP, SPAWN_PER_SEAT};
use lrs_tourney::games::robotgame::*;
use std::collections::HashSet;

fn setup(robots: &[(u8, i32, i32)]) -> Setup {
    let seats = robots.iter().map(|r| r.0).max().unwrap_or(0) + 1;
    Setup {
        seats,
        seed: 5,
        first_turn: 1,
        settings: Settings {
            spawn: false,
            attack_damage: Some(9),
        },
        robots: robots
            .iter()
            .map(|&(seat, x, y)| Placement {
                seat: Seat(seat),
                pos: Pos::new(x, y),
                hp: MAX_HP,
            })
            .collect(),
    }
}

fn cmd(robot: u16, action: Action) -> Command {
    Command {
        robot: RobotId(robot),
        action,
    }
}

fn faults(events: &[Event]) -> Vec<(Seat, Option<RobotId>, FaultKind)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Fault { seat, robot, fault } => Some((seat, robot, fault)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_silent_seat_guards_with_all_its_robots_and_faults_once() {
    for silence in [Silence::Timeout, Silence::Crash, Silence::Malformed] {
        let mut game =
            Game::new(&setup(&[(0, 9, 9), (0, 9, 10), (1, 10, 9), (1, 10, 10)])).unwrap();
        let attacks = [
            cmd(2, Action::Attack(Pos::new(9, 9))),
            cmd(3, Action::Attack(Pos::new(9, 10))),
        ];
        let events = game
            .step(&[Answer::Silent(silence), Answer::Actions(&attacks)])
            .unwrap()
            .to_vec();
        let kind = match silence {
            Silence::Timeout => FaultKind::Timeout,
            Silence::Crash => FaultKind::Crash,
            Silence::Malformed => FaultKind::Malformed,
        };
        assert_eq!(faults(&events), vec![(Seat(0), None, kind)]);
        // Both robots of seat 0 guarded: 9-point attacks cost them 4.
        assert_eq!(game.robots()[0].hp, 46);
        assert_eq!(game.robots()[1].hp, 46);
        assert_eq!(game.stats()[0].faults, 1);
        assert_eq!(game.stats()[1].faults, 0);
    }
}

#[test]
fn naming_another_seats_robot_is_a_fault_and_changes_nothing_for_it() {
    let mut game = Game::new(&setup(&[(0, 9, 9), (1, 12, 12)])).unwrap();
    let seat0 = [
        cmd(0, Action::Guard),
        cmd(1, Action::Move(Pos::new(12, 11))),
    ];
    let seat1 = [cmd(1, Action::Move(Pos::new(13, 12)))];
    let events = game
        .step(&[Answer::Actions(&seat0), Answer::Actions(&seat1)])
        .unwrap()
        .to_vec();
    assert_eq!(
        faults(&events),
        vec![(Seat(0), Some(RobotId(1)), FaultKind::NotOwnRobot)]
    );
    assert_eq!(game.robots()[1].pos(), Pos::new(13, 12));
}

#[test]
fn a_second_action_for_a_robot_makes_it_guard() {
    let mut game = Game::new(&setup(&[(0, 9, 9), (1, 10, 9)])).unwrap();
    let seat0 = [
        cmd(0, Action::Move(Pos::new(9, 8))),
        cmd(0, Action::Move(Pos::new(9, 8))),
    ];
    let seat1 = [cmd(1, Action::Attack(Pos::new(9, 9)))];
    let events = game
        .step(&[Answer::Actions(&seat0), Answer::Actions(&seat1)])
        .unwrap()
        .to_vec();
    assert_eq!(
        faults(&events),
        vec![(Seat(0), Some(RobotId(0)), FaultKind::Duplicate)]
    );
    assert_eq!(game.robots()[0].pos(), Pos::new(9, 9));
    assert_eq!(game.robots()[0].hp, 46);
}

#[test]
fn drawn_attack_damage_is_8_to_10_and_takes_every_value() {
    let mut seen = HashSet::new();
    for seed in 0..50 {
        let mut s = setup(&[(0, 9, 9), (1, 10, 9)]);
        s.seed = seed;
        s.settings.attack_damage = None;
        let mut game = Game::new(&s).unwrap();
        let a = [cmd(0, Action::Attack(Pos::new(10, 9)))];
        let g = [cmd(1, Action::Attack(Pos::new(11, 9)))];
        game.step(&[Answer::Actions(&a), Answer::Actions(&g)])
            .unwrap();
        let lost = MAX_HP - game.robots()[1].hp;
        assert!((8..=10).contains(&lost), "seed {seed}: {lost}");
        seen.insert(lost);
    }
    assert_eq!(seen.len(), 3);
}

/// The spawn squares of seat `s` on turn 0 of a standard game.
fn first_spawn(seats: u8, seed: u64) -> Vec<Vec<Sq>> {
    let mut game = Game::new(&Setup::standard(seats, seed)).unwrap();
    let empty: Vec<Answer<'_>> = (0..seats).map(|_| Answer::Actions(&[])).collect();
    game.step(&empty).unwrap();
    let mut by_seat = vec![Vec::new(); usize::from(seats)];
    for (i, r) in game.robots().iter().enumerate() {
        assert_eq!(r.id.index(), i);
        assert_eq!(r.hp, MAX_HP);
        by_seat[r.seat.index()].push(r.sq);
    }
    // Ids in spawn order: seat 0's five first.
    let seats_in_id_order: Vec<u8> = game.robots().iter().map(|r| r.seat.0).collect();
    let mut sorted = seats_in_id_order.clone();
    sorted.sort();
    assert_eq!(seats_in_id_order, sorted);
    by_seat
}

#[test]
fn two_seats_spawn_on_mirrored_squares() {
    for seed in 0..200 {
        let squares = first_spawn(2, seed);
        assert_eq!(squares[0].len(), SPAWN_PER_SEAT);
        let mirrored: Vec<Sq> = squares[0].iter().map(|s| s.mirror()).collect();
        assert_eq!(squares[1], mirrored, "seed {seed}");
        let all: HashSet<Sq> = squares.iter().flatten().copied().collect();
        assert_eq!(all.len(), 2 * SPAWN_PER_SEAT, "seed {seed}");
        assert!(all.iter().all(|&s| ARENA.is_spawn(s)));
    }
}

#[test]
fn other_seat_counts_spawn_on_distinct_random_squares() {
    for seats in [1u8, 3, 5, 8] {
        let mut used = HashSet::new();
        for seed in 0..100 {
            let squares = first_spawn(seats, seed);
            let all: HashSet<Sq> = squares.iter().flatten().copied().collect();
            assert_eq!(all.len(), SPAWN_PER_SEAT * usize::from(seats));
            assert!(all.iter().all(|&s| ARENA.is_spawn(s)));
            assert!(squares.iter().all(|s| s.len() == SPAWN_PER_SEAT));
            used.extend(all);
        }
        // Every spawn square gets drawn at some point.
        assert_eq!(used.len(), ARENA.spawn_squares().len(), "{seats} seats");
    }
}

/// Random answers, invalid ones included: wrong robots, far targets, silences.
fn wild_answers(game: &Game, seat: Seat, k: u64, out: &mut Vec<Command>) -> Option<Silence> {
    let mut x = k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat.0);
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    if next() % 20 == 0 {
        return Some(Silence::Timeout);
    }
    for &id in game.alive() {
        let r = game.robots()[id.index()];
        if r.seat != seat && next() % 50 != 0 {
            continue;
        }
        let p = r.pos();
        let (dx, dy) = [(0, 1), (1, 0), (0, -1), (-1, 0), (2, 0), (1, 1)][next() as usize % 6];
        let to = Pos::new(p.x + dx, p.y + dy);
        let action = match next() % 5 {
            0 => Action::Guard,
            1 => Action::Suicide,
            2 => Action::Attack(to),
            _ => Action::Move(to),
        };
        if next() % 30 != 0 {
            out.push(Command { robot: id, action });
        }
    }
    None
}

#[test]
fn a_game_replays_exactly_from_its_seed_and_decision_log() {
    for seats in [2u8, 3, 8] {
        let setup = Setup::standard(seats, 99 + u64::from(seats));
        let mut game = Game::new(&setup).unwrap();
        let mut events = Vec::new();
        let mut buffers: Vec<Vec<Command>> = vec![Vec::new(); usize::from(seats)];
        let mut k = 0;
        while !game.is_over() {
            let mut silences = Vec::new();
            for (s, buf) in buffers.iter_mut().enumerate() {
                buf.clear();
                k += 1;
                silences.push(wild_answers(&game, Seat(s as u8), k, buf));
            }
            let answers: Vec<Answer<'_>> = buffers
                .iter()
                .zip(&silences)
                .map(|(b, s)| s.map_or(Answer::Actions(b), Answer::Silent))
                .collect();
            events.push(game.step(&answers).unwrap().to_vec());
        }
        assert!(game.stats().iter().any(|s| s.faults > 0));
        let mut again = Game::new(&setup).unwrap();
        for (turn, logged) in game.log().iter().enumerate() {
            let replayed = again.replay_turn(&logged).unwrap();
            assert_eq!(replayed, events[turn].as_slice(), "turn {turn}");
        }
        assert_eq!(again.robots(), game.robots());
        assert_eq!(again.stats(), game.stats());
        assert_eq!(again.log(), game.log());
        let whole = Game::replay(&setup, game.log()).unwrap();
        assert_eq!(whole.robots(), game.robots());
    }
}

#[test]
fn a_log_for_other_robots_is_refused() {
    let setup = Setup::standard(2, 1);
    let mut game = Game::new(&setup).unwrap();
    let mut players: Vec<_> = (0..2)
        .map(|s| BuiltinAi::Random.player(1, Seat(s)))
        .collect();
    run_game(&mut game, &mut players).unwrap();
    let mut other = Game::new(&Setup::standard(2, 2)).unwrap();
    let mut result = Ok(());
    for t in game.log().iter() {
        if let Err(e) = other.replay_turn(&t) {
            result = Err(e);
            break;
        }
    }
    assert!(
        matches!(result, Err(GameError::Replay { .. })),
        "{result:?}"
    );
}

#[test]
fn bad_setups_and_calls_are_refused() {
    assert_eq!(
        Game::new(&Setup::standard(0, 1)).err(),
        Some(GameError::Seats(0))
    );
    assert_eq!(
        Game::new(&Setup::standard(9, 1)).err(),
        Some(GameError::Seats(9))
    );
    let mut s = setup(&[(0, 9, 9), (1, 9, 9)]);
    assert!(matches!(
        Game::new(&s),
        Err(GameError::Placement { index: 1, .. })
    ));
    s.robots[1].pos = Pos::new(0, 0);
    assert!(matches!(
        Game::new(&s),
        Err(GameError::Placement { index: 1, .. })
    ));
    let mut game = Game::new(&setup(&[(0, 9, 9), (1, 10, 9)])).unwrap();
    assert!(matches!(
        game.step(&[Answer::Actions(&[])]),
        Err(GameError::Answers { got: 1, seats: 2 })
    ));
    let mut last = Setup::standard(2, 1);
    last.first_turn = 99;
    let mut game = Game::new(&last).unwrap();
    let none = [Answer::Actions(&[]), Answer::Actions(&[])];
    game.step(&none).unwrap();
    assert!(game.is_over());
    assert_eq!(game.step(&none).err(), Some(GameError::Over));
}

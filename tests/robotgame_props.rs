//! Property tests of the RobotGame engine with random setups and random answers, invalid
//! ones included: it never panics, the board invariants (one robot per square, on walkable
//! squares, HP in 1..=50 for the living) hold after every turn, every HP change is an event and adds up to the damage dealt,
//! scores are the robots alive, and a game is a function of its setup and its answers.

use lrs_tourney::games::robotgame::arena::{ARENA, Sq};
use lrs_tourney::games::robotgame::engine::{MAX_HP, MAX_SEATS, TURNS};
use lrs_tourney::games::robotgame::*;
use proptest::prelude::*;
use std::collections::HashMap;

/// One scripted answer entry, cycled through: what to do and how wrong to get it.
#[derive(Debug, Clone, Copy)]
struct Step {
    kind: u8,
    dx: i8,
    dy: i8,
    /// Selects the mistakes: other seats' robots, unknown ids, duplicates, silence, gaps.
    fault: u8,
}

#[derive(Debug, Clone)]
struct Case {
    setup: Setup,
    script: Vec<Step>,
}

fn step() -> impl Strategy<Value = Step> {
    (any::<u8>(), -2i8..=2, -2i8..=2, any::<u8>()).prop_map(|(kind, dx, dy, fault)| Step {
        kind,
        dx,
        dy,
        fault,
    })
}

fn case() -> impl Strategy<Value = Case> {
    let walkable: Vec<Sq> = ARENA.walkable_squares().collect();
    (
        1u8..=MAX_SEATS as u8,
        any::<u64>(),
        0u8..TURNS,
        any::<bool>(),
        prop::option::of(0i32..=20),
        prop::collection::vec((0u8..8, 0usize..225, 1i32..=MAX_HP), 0..40),
        prop::collection::vec(step(), 1..64),
    )
        .prop_map(
            move |(seats, seed, first_turn, spawn, damage, robots, script)| {
                let mut placed: Vec<Placement> = Vec::new();
                for (seat, i, hp) in robots {
                    let pos = walkable[i].pos();
                    if placed.iter().all(|p| p.pos != pos) {
                        placed.push(Placement {
                            seat: Seat(seat % seats),
                            pos,
                            hp,
                        });
                    }
                }
                Case {
                    setup: Setup {
                        seats,
                        seed,
                        first_turn,
                        settings: Settings {
                            spawn,
                            attack_damage: damage,
                        },
                        robots: placed,
                    },
                    script,
                }
            },
        )
}

/// One seat's answer from the script, starting at entry `k`; may be wrong in many ways.
fn answer(
    game: &Game,
    seat: Seat,
    script: &[Step],
    k: &mut usize,
    out: &mut Vec<Command>,
) -> Option<Silence> {
    let mut next = || {
        *k += 1;
        script[*k % script.len()]
    };
    let first = next();
    match first.fault % 41 {
        0 => return Some(Silence::Timeout),
        1 => return Some(Silence::Crash),
        2 => return Some(Silence::Malformed),
        _ => {}
    }
    for &id in game.alive() {
        let r = game.robots()[id.index()];
        let s = next();
        let robot = match s.fault % 23 {
            // Someone else's robot, or an id that may not exist.
            0 => RobotId(id.0.wrapping_add(u16::from(s.kind % 7))),
            1 => RobotId(u16::from(s.kind) * 5),
            _ if r.seat != seat => continue,
            2 => continue,
            _ => id,
        };
        let p = r.pos();
        let to = Pos::new(p.x + i32::from(s.dx), p.y + i32::from(s.dy));
        let action = match s.kind % 4 {
            0 => Action::Guard,
            1 => Action::Suicide,
            2 => Action::Attack(to),
            _ => Action::Move(to),
        };
        out.push(Command { robot, action });
        if s.fault % 29 == 3 {
            out.push(Command { robot, action });
        }
    }
    None
}

/// Plays the case to the end; returns the game and every turn's events.
fn play(case: &Case) -> (Game, Vec<Vec<Event>>) {
    let mut game = Game::new(&case.setup).expect("valid setup");
    let seats = usize::from(case.setup.seats);
    let mut buffers: Vec<Vec<Command>> = vec![Vec::new(); seats];
    let mut k = 0;
    let mut turns = Vec::new();
    while !game.is_over() {
        let mut silent = Vec::with_capacity(seats);
        for (s, buf) in buffers.iter_mut().enumerate() {
            buf.clear();
            silent.push(answer(&game, Seat(s as u8), &case.script, &mut k, buf));
        }
        let answers: Vec<Answer<'_>> = buffers
            .iter()
            .zip(&silent)
            .map(|(b, s)| s.map_or(Answer::Actions(b), Answer::Silent))
            .collect();
        turns.push(game.step(&answers).expect("turn").to_vec());
    }
    (game, turns)
}

/// What an event takes off its victim's HP.
fn damage_to(e: &Event) -> Option<(RobotId, i32)> {
    match e.kind {
        EventKind::Collision { victim, damage, .. } => Some((victim, damage)),
        EventKind::Attack {
            victim: Some(victim),
            damage,
            ..
        }
        | EventKind::Suicide {
            victim: Some(victim),
            damage,
            ..
        } => Some((victim, damage)),
        _ => None,
    }
}

fn check_board(game: &Game) -> Result<(), TestCaseError> {
    let mut seen: HashMap<Sq, RobotId> = HashMap::new();
    let mut alive_by_seat = vec![0u32; usize::from(game.seats())];
    for r in game.robots() {
        if r.alive {
            prop_assert!(ARENA.is_walkable(r.sq), "robot {} off the disc", r.id);
            prop_assert!((1..=MAX_HP).contains(&r.hp), "robot {} hp {}", r.id, r.hp);
            if let Some(other) = seen.insert(r.sq, r.id) {
                prop_assert!(false, "robots {} and {} on {:?}", other, r.id, r.sq);
            }
            prop_assert_eq!(game.occupant(r.sq), Some(r.id));
            alive_by_seat[r.seat.index()] += 1;
        } else {
            prop_assert_eq!(r.hp, 0);
        }
    }
    prop_assert_eq!(game.scores(), alive_by_seat);
    let alive: Vec<RobotId> = game
        .robots()
        .iter()
        .filter(|r| r.alive)
        .map(|r| r.id)
        .collect();
    prop_assert_eq!(game.alive(), alive.as_slice());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn invariants_hold_after_every_turn(case in case()) {
        let mut game = Game::new(&case.setup).expect("valid setup");
        let mut hp: Vec<i32> = case.setup.robots.iter().map(|p| p.hp).collect();
        let seats = usize::from(case.setup.seats);
        let mut buffers: Vec<Vec<Command>> = vec![Vec::new(); seats];
        let mut k = 0;
        let mut dealt = 0i64;
        let max_damage = case.setup.settings.attack_damage.unwrap_or(10).max(15);
        while !game.is_over() {
            let mut silent = Vec::with_capacity(seats);
            for (s, buf) in buffers.iter_mut().enumerate() {
                buf.clear();
                silent.push(answer(&game, Seat(s as u8), &case.script, &mut k, buf));
            }
            let answers: Vec<Answer<'_>> = buffers
                .iter()
                .zip(&silent)
                .map(|(b, s)| s.map_or(Answer::Actions(b), Answer::Silent))
                .collect();
            let events = game.step(&answers).expect("turn").to_vec();
            let mut faulted = vec![false; seats];
            for e in &events {
                if let EventKind::Fault { seat, .. } = e.kind {
                    prop_assert!(!faulted[seat.index()], "two faults for seat {}", seat.0);
                    faulted[seat.index()] = true;
                }
                if let EventKind::Spawn { robot, .. } = e.kind {
                    prop_assert_eq!(robot.index(), hp.len());
                    hp.push(MAX_HP);
                }
                if let Some((victim, d)) = damage_to(e) {
                    prop_assert!((0..=max_damage).contains(&d), "damage {}", d);
                    hp[victim.index()] -= d;
                    dealt += i64::from(d);
                }
            }
            check_board(&game)?;
            // Every HP change of a living robot is an event.
            for r in game.robots().iter().filter(|r| r.alive) {
                prop_assert_eq!(r.hp, hp[r.id.index()], "robot {}", r.id);
            }
        }
        let stats: i64 = game.stats().iter().map(|s| i64::from(s.damage_dealt)).sum();
        prop_assert_eq!(stats, dealt);
    }

    #[test]
    fn same_setup_and_answers_same_game(case in case()) {
        let (a, a_events) = play(&case);
        let (b, b_events) = play(&case);
        prop_assert_eq!(a.robots(), b.robots());
        prop_assert_eq!(a.stats(), b.stats());
        prop_assert_eq!(a.log(), b.log());
        prop_assert_eq!(&a_events, &b_events);
        let replayed = Game::replay(&case.setup, a.log()).expect("replay");
        prop_assert_eq!(replayed.robots(), a.robots());
        prop_assert_eq!(replayed.stats(), a.stats());
    }
}

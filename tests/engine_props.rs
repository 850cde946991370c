//! Property tests of the engine on random boards with random replies: the invariants of
//! R2, R9.4, R10 and R14 hold after every step, every turn's hands follow R4.2 to R4.4, and
//! a game is a function of its seed and its replies.

use lrs_tourney::games::lrs::boards::random_board;
use lrs_tourney::games::lrs::engine::*;
use proptest::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// One scripted reply per query, cycling through the script.
#[derive(Debug, Clone)]
struct Script {
    turn: Vec<(u8, bool, u8)>,
    start: Vec<(u8, u8, u8)>,
}

fn turn_reply(script: &Script, i: usize, hand: usize) -> TurnReply {
    let (card, power_down, fault) = script.turn[i % script.turn.len()];
    match fault % 16 {
        0 => TurnReply::Fault(Fault::Timeout),
        1 => TurnReply::Fault(Fault::Crash),
        // An index past the hand: an invalid reply.
        2 => TurnReply::Play {
            card: hand + card as usize,
            power_down,
        },
        // No card, stay and power down (R5.3).
        3 => TurnReply::StayAndPowerDown,
        // A Windward empty card list without a power-down: stay, powered up.
        5 => TurnReply::Stay,
        // The card left to the game (engine version 2's reading of a Windward reply with
        // no card, kept for its stored games).
        4 => TurnReply::AnyCard { power_down },
        _ => TurnReply::Play {
            card: card as usize % hand,
            power_down: power_down && fault % 5 == 0,
        },
    }
}

fn start_reply(script: &Script, i: usize, q: &StartQuery) -> StartReply {
    let (option, facing, fault) = script.start[i % script.start.len()];
    if fault % 10 == 0 {
        return StartReply::Fault(Fault::Timeout);
    }
    StartReply::Choose {
        pos: q.options[option as usize % q.options.len()],
        facing: Direction::from_index(facing),
    }
}

fn check_invariants(game: &Game, before: &[Robot]) -> Result<(), TestCaseError> {
    let mut squares = HashSet::new();
    for (seat, (r, old)) in game.robots().iter().zip(before).enumerate() {
        prop_assert!(r.damage <= 10, "seat {seat} damage {}", r.damage);
        prop_assert!(r.lives <= old.lives, "seat {seat} lives went up");
        prop_assert!(r.score >= old.score, "seat {seat} score went down");
        prop_assert!(r.lives <= 3);
        if r.is_active() {
            prop_assert!(game.board().contains(r.pos));
            prop_assert!(!game.board().square(r.pos).tile.is_pit());
            prop_assert!(squares.insert(r.pos), "two robots on {}", r.pos);
        }
        if r.status == Status::Dead {
            prop_assert_eq!(r.lives, 0);
        }
    }
    Ok(())
}

/// R4.2 to R4.4 on one turn's queries, dealt to `game.robots()`: in seat order, exactly the
/// ACTIVE robots not powered DOWN, `9 - damage` cards each (one locked card at damage 9),
/// no more copies of a move than the deck holds, and priorities unique multiples of ten
/// from 10 to 990 over all hands, locked cards included.
fn check_hands(game: &Game, queries: &[TurnQuery]) -> Result<(), TestCaseError> {
    let robots = game.robots();
    let dealt: Vec<Seat> = (0..robots.len())
        .filter(|&s| robots[s].status == Status::Active && !robots[s].power.is_down())
        .collect();
    let seats: Vec<Seat> = queries.iter().map(|q| q.seat).collect();
    prop_assert_eq!(&seats, &dealt, "turn {}: dealt seats", game.turn());
    let mut priorities = HashSet::new();
    let mut from_deck: Vec<usize> = vec![0; Move::ALL.len()];
    for q in queries {
        let r = &robots[q.seat];
        let cards = q.hand.as_slice();
        if r.damage >= 9 {
            prop_assert!(
                q.locked,
                "turn {}: seat {} at damage 9",
                game.turn(),
                q.seat
            );
            prop_assert_eq!(cards.len(), 1);
            match r.last_card {
                Some(mv) => prop_assert_eq!(cards[0].mv, mv),
                None => from_deck[move_index(cards[0].mv)] += 1,
            }
        } else {
            prop_assert!(!q.locked);
            prop_assert_eq!(
                cards.len(),
                9 - usize::from(r.damage),
                "turn {}: seat {} at damage {}",
                game.turn(),
                q.seat,
                r.damage
            );
            for c in cards {
                from_deck[move_index(c.mv)] += 1;
            }
        }
        for c in cards {
            prop_assert!(
                c.priority % 10 == 0 && (10..=990).contains(&c.priority),
                "turn {}: seat {} priority {}",
                game.turn(),
                q.seat,
                c.priority
            );
            prop_assert!(
                priorities.insert(c.priority),
                "turn {}: priority {} dealt twice",
                game.turn(),
                c.priority
            );
        }
    }
    for (m, n) in Move::ALL.iter().zip(&from_deck) {
        prop_assert!(
            *n <= m.copies(),
            "turn {}: {} {:?} dealt",
            game.turn(),
            n,
            m
        );
    }
    Ok(())
}

fn move_index(mv: Move) -> usize {
    Move::ALL.iter().position(|&m| m == mv).unwrap()
}

/// Whether the engine must record a fault event for `reply` to a query with `hand` cards.
fn turn_fault(reply: &TurnReply, hand: usize) -> bool {
    match *reply {
        TurnReply::Play { card, .. } => card >= hand,
        TurnReply::StayAndPowerDown | TurnReply::Stay | TurnReply::AnyCard { .. } => false,
        TurnReply::Fault(_) => true,
    }
}

/// Plays a whole game, checking the invariants after every answered query and the hands of
/// every turn query, and that faulty replies, and only they, are fault events (R5.2).
fn play(
    board: Arc<Board>,
    players: usize,
    seed: u64,
    script: &Script,
) -> Result<Game, TestCaseError> {
    let mut game = Game::new(board, players, seed, GameConfig::default()).unwrap();
    let (mut ti, mut si) = (0, 0);
    let mut faults = 0;
    while !game.is_over() {
        let before = game.robots().to_vec();
        match game.pending() {
            Pending::Start(qs) => {
                let replies: Vec<_> = qs
                    .iter()
                    .map(|q| {
                        si += 1;
                        start_reply(script, si, q)
                    })
                    .collect();
                faults += replies
                    .iter()
                    .zip(qs.iter())
                    .filter(|(r, q)| match r {
                        StartReply::Fault(_) => true,
                        StartReply::Choose { pos, .. } => !q.options.contains(pos),
                    })
                    .count();
                game.answer_start(&replies).unwrap();
            }
            Pending::Turn(qs) => {
                check_hands(&game, qs)?;
                let replies: Vec<_> = qs
                    .iter()
                    .map(|q| {
                        ti += 1;
                        turn_reply(script, ti, q.hand.len())
                    })
                    .collect();
                faults += replies
                    .iter()
                    .zip(qs.iter())
                    .filter(|(r, q)| turn_fault(r, q.hand.len()))
                    .count();
                game.answer_turn(&replies).unwrap();
            }
            other => panic!("unexpected {other:?}"),
        }
        check_invariants(&game, &before)?;
    }
    prop_assert!(game.turn() <= 60);
    let fault_events = game.events().iter().filter(|e| e.kind.is_fault()).count();
    prop_assert_eq!(fault_events, faults, "fault events against faulty replies");
    Ok(game)
}

fn script() -> impl Strategy<Value = Script> {
    (
        prop::collection::vec((0u8..9, any::<bool>(), any::<u8>()), 1..64),
        prop::collection::vec((0u8..8, 0u8..4, any::<u8>()), 1..16),
    )
        .prop_map(|(turn, start)| Script { turn, start })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn invariants_hold_on_random_boards(
        board_seed in any::<u64>(),
        w in 4i32..=16,
        h in 4i32..=16,
        players in 2usize..=8,
        seed in any::<u64>(),
        script in script(),
    ) {
        let board = Arc::new(random_board(board_seed, w, h, players));
        play(board, players, seed, &script)?;
    }

    #[test]
    fn same_seed_and_replies_same_game(
        board_seed in any::<u64>(),
        players in 2usize..=8,
        seed in any::<u64>(),
        script in script(),
    ) {
        let board = Arc::new(random_board(board_seed, 12, 12, players));
        let a = play(board.clone(), players, seed, &script)?;
        let b = play(board, players, seed, &script)?;
        prop_assert_eq!(a.events(), b.events());
        prop_assert_eq!(a.robots(), b.robots());
        prop_assert_eq!(a.decisions(), b.decisions());
    }
}

//! Robots rules the scenario format cannot express (level layouts, the next level and its
//! safe teleports, the last level, the turn limit, several seats side by side, silent
//! seats) and exact replay from the decision log.

use lrs_tourney::games::robots::board::{CLASSIC_HEIGHT, CLASSIC_WIDTH, robots_on_level};
use lrs_tourney::games::robots::*;

fn position(level: u8, player: (i32, i32), robots: &[(i32, i32)], can_blast: bool) -> Position {
    Position {
        width: CLASSIC_WIDTH,
        height: CLASSIC_HEIGHT,
        level,
        player: Pos::new(player.0, player.1),
        robots: robots.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        heaps: Vec::new(),
        teleports: 1,
        can_blast,
    }
}

fn moves(names: &[&str]) -> Vec<Move> {
    names.iter().map(|n| Move::parse(n).unwrap()).collect()
}

/// Plays `names` on `board` and starts the next level as a game would.
fn turn(board: &mut Board, names: &[&str]) {
    board.play_turn(Answer::Moves(&moves(names))).unwrap();
    board.next_level();
}

#[test]
fn every_seat_starts_on_the_same_level_one() {
    let game = Game::new(&Setup::standard(4, 77)).unwrap();
    let first = game.board(Seat(0));
    assert_eq!(first.robots().len(), 10);
    for b in game.boards() {
        assert_eq!((b.robots(), b.player()), (first.robots(), first.player()));
        assert_eq!((b.level(), b.teleports(), b.can_blast()), (1, 2, true));
    }
}

#[test]
fn a_completed_level_with_the_blaster_used_gains_one_safe_teleport() {
    let mut board = Board::from_position(&position(1, (5, 5), &[(5, 4)], true), 9).unwrap();
    turn(&mut board, &["BN"]);
    assert_eq!(board.status(), Status::Playing);
    assert_eq!(board.level(), 2);
    assert_eq!(board.teleports(), 2);
    assert!(board.can_blast());
    assert_eq!(board.levels_cleared(), 1);
    assert!(board.heaps().is_empty(), "a fresh board");
    // Level 2 is laid out as for any seat of a game with this seed.
    let fresh = Board::new(CLASSIC_WIDTH, CLASSIC_HEIGHT, 2, 9).unwrap();
    assert_eq!(board.robots(), fresh.robots());
    assert_eq!(board.player(), fresh.player());
    assert_eq!(board.robots().len() as u32, robots_on_level(2));
    let kinds: Vec<&str> = board.events().iter().map(|e| e.kind.name()).collect();
    assert_eq!(kinds, ["blast", "kill", "level_done", "level_start"]);
}

#[test]
fn the_next_level_is_laid_out_the_same_wherever_the_player_ended_the_last_one() {
    for seed in 0..30 {
        let fresh = Board::new(CLASSIC_WIDTH, CLASSIC_HEIGHT, 2, seed).unwrap();
        for (x, y) in [(1, 1), (5, 5), (30, 10), (57, 20)] {
            let p = position(1, (x, y), &[(x, y - 1)], true);
            let mut board = Board::from_position(&p, seed).unwrap();
            turn(&mut board, &["BN"]);
            assert_eq!(board.robots(), fresh.robots(), "seed {seed} from ({x},{y})");
            assert_eq!(board.player(), fresh.player(), "seed {seed} from ({x},{y})");
        }
    }
}

#[test]
fn a_completed_level_without_the_blaster_gains_two_safe_teleports() {
    // The two robots crash into each other in the first step.
    let mut board = Board::from_position(&position(3, (5, 5), &[(2, 4), (2, 6)], true), 9).unwrap();
    turn(&mut board, &["P"]);
    assert_eq!(board.level(), 4);
    assert_eq!(board.teleports(), 3);
    assert_eq!(board.robots().len(), 40);
    assert_eq!(board.kills(), 2);
}

#[test]
fn completing_level_20_ends_the_game() {
    let mut board = Board::from_position(&position(20, (5, 5), &[(5, 4)], true), 9).unwrap();
    turn(&mut board, &["BN"]);
    assert_eq!(board.status(), Status::Cleared);
    assert!(board.status().is_over());
    assert_eq!(board.levels_cleared(), 1);
    assert!(board.play_turn(Answer::Moves(&moves(&["P"]))).is_err());
}

#[test]
fn a_game_can_start_at_a_later_level() {
    let mut setup = Setup::standard(1, 5);
    setup.settings.start_level = 5;
    let game = Game::new(&setup).unwrap();
    assert_eq!(game.board(Seat(0)).level(), 5);
    assert_eq!(game.board(Seat(0)).robots().len(), 40);
    assert_eq!(game.board(Seat(0)).teleports(), 2);
    setup.settings.start_level = 21;
    assert!(Game::new(&setup).is_err());
}

#[test]
fn the_turn_limit_ends_a_seats_game() {
    let mut setup = Setup::standard(1, 3);
    setup.settings.max_turns = 4;
    let mut game = Game::new(&setup).unwrap();
    let mut players = vec![BuiltinAi::Dodger.player(3, Seat(0))];
    run_game(&mut game, &mut players).unwrap();
    let board = game.board(Seat(0));
    assert_eq!(board.status(), Status::OutOfTurns);
    assert_eq!(board.turns(), 4);
    assert!(game.is_over());
}

#[test]
fn a_silent_seat_passes_once_and_has_a_fault() {
    for silence in [Silence::Timeout, Silence::Crash, Silence::Malformed] {
        let mut game = Game::new(&Setup::standard(2, 11)).unwrap();
        let before = game.board(Seat(0)).robots();
        let pass = moves(&["P"]);
        game.step(&[Answer::Silent(silence), Answer::Moves(&pass)])
            .unwrap();
        let (silent, passing) = (game.board(Seat(0)), game.board(Seat(1)));
        // The forced pass is the pass of the other seat: the same robot step.
        assert_eq!(silent.robots(), passing.robots());
        assert_ne!(silent.robots(), before);
        assert_eq!(game.stats()[0].faults, 1);
        assert_eq!(game.stats()[1].faults, 0);
        assert_eq!(silent.events()[0].kind.name(), "fault");
        assert_eq!(game.scores(), vec![-1, -1]);
    }
}

#[test]
fn a_seat_whose_game_ended_is_skipped_and_the_others_play_on() {
    let mut game = Game::new(&Setup::standard(2, 21)).unwrap();
    let quit = moves(&["Q"]);
    let pass = moves(&["P"]);
    game.step(&[Answer::Moves(&quit), Answer::Moves(&pass)])
        .unwrap();
    assert_eq!(game.board(Seat(0)).status(), Status::Quit);
    assert!(!game.playing(Seat(0)));
    assert!(game.playing(Seat(1)));
    // Whatever seat 0 answers now is ignored.
    game.step(&[Answer::Silent(Silence::Crash), Answer::Moves(&pass)])
        .unwrap();
    assert_eq!(game.board(Seat(0)).turns(), 1);
    assert_eq!(game.board(Seat(1)).turns(), 2);
    assert_eq!(game.stats()[0].faults, 0);
    assert_eq!(game.scores(), vec![-1, -2]);
    assert!(game.won(Seat(0)));
    assert!(!game.won(Seat(1)));
}

#[test]
fn a_game_replays_exactly_from_its_decision_log() {
    for seed in 0..20 {
        let setup = Setup::standard(3, seed);
        let mut game = Game::new(&setup).unwrap();
        let mut players: Vec<_> = [BuiltinAi::Dodger, BuiltinAi::Random, BuiltinAi::Dodger]
            .iter()
            .enumerate()
            .map(|(s, ai)| ai.player(seed, Seat(s as u8)))
            .collect();
        run_game(&mut game, &mut players).unwrap();
        let replayed = Game::replay(&setup, game.log()).unwrap();
        assert_eq!(replayed.log(), game.log());
        assert_eq!(replayed.scores(), game.scores());
        assert_eq!(replayed.stats(), game.stats());
        for (a, b) in replayed.boards().iter().zip(game.boards()) {
            assert_eq!(a.status(), b.status());
            assert_eq!(
                (a.robots(), a.heaps(), a.player()),
                (b.robots(), b.heaps(), b.player())
            );
            assert_eq!(a.events(), b.events());
        }
    }
}

#[test]
fn a_replay_of_a_foreign_log_is_refused() {
    let setup = Setup::standard(1, 4);
    let mut game = Game::new(&setup).unwrap();
    let quit = moves(&["Q"]);
    game.step(&[Answer::Moves(&quit)]).unwrap();
    let two_seats = Setup::standard(2, 4);
    assert!(Game::replay(&two_seats, game.log()).is_err());
}

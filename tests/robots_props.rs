//! Property tests of the Robots engine with random settings and random answers, invalid ones
//! included: it never panics, the player never shares a square with a robot or a heap,
//! kills never decrease and match the kill events, the robots of a level are either on the
//! board or killed, scores are kills minus turns, and a game is a function of its setup and
//! its answers (and replays from its log).

use lrs_tourney::games::robots::board::robots_on_level;
use lrs_tourney::games::robots::protocol::read_answer;
use lrs_tourney::games::robots::*;
use proptest::prelude::*;

/// One seat's answer in one turn, drawn from the script.
#[derive(Debug, Clone)]
enum Scripted {
    /// Indices into [`Move::ALL`]; 0 or more than 8 moves is malformed.
    Moves(Vec<usize>),
    Silent(Silence),
    /// A raw answer line, read as the protocol reads it.
    Line(String),
}

#[derive(Debug, Clone)]
struct Case {
    setup: Setup,
    script: Vec<Scripted>,
}

fn scripted() -> impl Strategy<Value = Scripted> {
    // Quits are rare so that games last.
    let mv = prop_oneof![20 => 0usize..19, 1 => Just(19usize)];
    prop_oneof![
        12 => prop::collection::vec(mv, 0..11).prop_map(Scripted::Moves),
        1 => prop_oneof![
            Just(Silence::Timeout),
            Just(Silence::Crash),
            Just(Silence::Malformed)
        ]
        .prop_map(Scripted::Silent),
        2 => prop_oneof![
            "\\PC{0,40}",
            r#"\{"turn":[0-9]{1,2},"moves":\["(N|NE|BS|T|L|P|X)"(,"(S|W|BN|Q)")?\]\}"#
        ]
        .prop_map(Scripted::Line),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u8..=4,
        any::<u64>(),
        (19u16..=70, 19u16..=30),
        1u8..=20,
        1u32..=200,
        prop::collection::vec(scripted(), 1..40),
    )
        .prop_map(
            |(seats, seed, (width, height), start_level, max_turns, script)| Case {
                setup: Setup {
                    seats,
                    seed,
                    settings: Settings {
                        width,
                        height,
                        start_level,
                        max_turns,
                    },
                },
                script,
            },
        )
}

/// Plays the case to its end, checking every board after every turn with `check`.
fn play(
    case: &Case,
    mut check: impl FnMut(&Game, &Game) -> Result<(), TestCaseError>,
) -> Result<Game, TestCaseError> {
    let mut game = Game::new(&case.setup).expect("valid setup");
    let seats = usize::from(case.setup.seats);
    let mut buffers: Vec<Vec<Move>> = vec![Vec::new(); seats];
    let mut k = 0;
    while !game.is_over() {
        let before = game.clone();
        let mut silent = vec![None; seats];
        for (s, buf) in buffers.iter_mut().enumerate() {
            buf.clear();
            k += 1;
            match &case.script[k % case.script.len()] {
                Scripted::Moves(ix) => buf.extend(ix.iter().map(|&i| Move::ALL[i])),
                Scripted::Silent(x) => silent[s] = Some(*x),
                Scripted::Line(line) => {
                    let turn = game.board(Seat(s as u8)).turns() + 1;
                    silent[s] = read_answer(line, turn, buf).err();
                }
            }
        }
        let answers: Vec<Answer<'_>> = buffers
            .iter()
            .zip(&silent)
            .map(|(b, s)| s.map_or(Answer::Moves(b), Answer::Silent))
            .collect();
        game.step(&answers).expect("turn");
        check(&before, &game)?;
    }
    Ok(game)
}

fn check_turn(before: &Game, after: &Game) -> Result<(), TestCaseError> {
    for (b, a) in before.boards().iter().zip(after.boards()) {
        prop_assert!(a.kills() >= b.kills(), "kills went down");
        prop_assert_eq!(a.score(), i64::from(a.kills()) - i64::from(a.turns()));
        if let Some(p) = a.player() {
            prop_assert_eq!(a.cell(p), Some(Cell::Empty), "the player shares {:?}", p);
        }
        if b.status() != Status::Playing {
            prop_assert_eq!(a.turns(), b.turns(), "a finished seat played");
            continue;
        }
        prop_assert_eq!(a.turns(), b.turns() + 1);
        let killed = a
            .events()
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Kill { .. }))
            .count() as u32;
        prop_assert_eq!(a.kills() - b.kills(), killed, "kills without kill events");
        // Robots are conserved: on the board, or killed, level by level.
        let started = a
            .events()
            .iter()
            .any(|e| matches!(e.kind, EventKind::LevelStart { .. }));
        if a.status() == Status::Playing && !started && a.level() == b.level() {
            prop_assert_eq!(
                a.robots().len() as u32 + killed,
                b.robots().len() as u32,
                "robots appeared or vanished"
            );
        }
        if started {
            prop_assert_eq!(a.robots().len() as u32, robots_on_level(a.level()));
        }
        prop_assert!(a.teleports() <= b.teleports() + 2);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn invariants_hold_after_every_turn_whatever_the_answers(case in case()) {
        let game = play(&case, check_turn)?;
        prop_assert!(game.is_over());
        for b in game.boards() {
            prop_assert!(b.turns() <= case.setup.settings.max_turns);
        }
    }

    #[test]
    fn same_setup_and_answers_same_game(case in case()) {
        let a = play(&case, |_, _| Ok(()))?;
        let b = play(&case, |_, _| Ok(()))?;
        prop_assert_eq!(a.log(), b.log());
        prop_assert_eq!(a.scores(), b.scores());
        prop_assert_eq!(a.stats(), b.stats());
        let replayed = Game::replay(&case.setup, a.log()).expect("replay");
        prop_assert_eq!(replayed.stats(), a.stats());
        for (x, y) in replayed.boards().iter().zip(a.boards()) {
            prop_assert_eq!((x.robots(), x.heaps(), x.player()), (y.robots(), y.heaps(), y.player()));
        }
    }

    #[test]
    fn any_board_answer_line_is_read_or_malformed(line in "\\PC{0,80}", turn in 0u32..50) {
        let mut out = Vec::new();
        match read_answer(&line, turn, &mut out) {
            Ok(()) => prop_assert!((1..=8).contains(&out.len())),
            Err(s) => prop_assert_eq!(s, Silence::Malformed),
        }
    }
}

#[test]
fn the_same_seed_plays_the_same_game_with_built_in_ais() {
    let play = |seed| {
        let mut game = Game::new(&Setup::standard(2, seed)).unwrap();
        let mut players: Vec<_> = (0..2)
            .map(|s| BuiltinAi::ALL[s].player(seed, Seat(s as u8)))
            .collect();
        run_game(&mut game, &mut players).unwrap();
        game
    };
    for seed in [1, 2, 3] {
        let (a, b) = (play(seed), play(seed));
        assert_eq!(a.log(), b.log());
        assert_eq!(a.scores(), b.scores());
    }
}

//! The one JSON-lines player of every game, through real subprocesses: a bot whose leader
//! exits while a child of it keeps stdout open is a crash as soon as the leader is gone,
//! not a timeout after the time per answer of every turn. In a PID namespace of its own the
//! child dies with the leader and stdout closes; without one (a machine that lacks them)
//! only the player's check of the leader sees it, so the bots here run without one.

use lrs_tourney::bots::{BotCommand, JsonlOptions, Sandbox, SandboxConfig};
use lrs_tourney::games::robotgame::BuiltinAi;
use lrs_tourney::games::robotgame::engine::TURNS;
use lrs_tourney::games::robotgame::remote::{Seatholder, play_game};
use lrs_tourney::games::{ArenaFlags, BuiltinBot, GameKind, Match, SeatBot};
use std::path::Path;

/// Far longer than the game takes when the crash is seen: a timeout would show.
const LIMIT_MS: u64 = 20_000;

/// The default sandbox but for the PID namespace.
fn without_pid_namespace() -> JsonlOptions {
    JsonlOptions {
        sandbox: Sandbox::new(SandboxConfig {
            containers: false,
            ..SandboxConfig::default()
        }),
        ..JsonlOptions::default()
    }
}

fn leader_exits() -> BotCommand {
    BotCommand {
        argv: vec!["python3".into(), "leader_exits.py".into()],
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_robotgame_bot_whose_leader_exits_while_a_child_holds_stdout_crashes_at_once() {
    let seats = [
        Seatholder::External(leader_exits().into()),
        Seatholder::Builtin(BuiltinAi::Random),
    ];
    let names = ["leader_exits".to_string(), "builtin:random".to_string()];
    let (game, logs) = play_game(&seats, &names, 5, LIMIT_MS, &without_pid_namespace())
        .await
        .unwrap();
    assert!(game.is_over());
    let log = logs[0].as_ref().expect("the bot's log");
    // Gone during the first query (RobotGame's turns count from 0), never a timeout.
    assert_eq!(log.crashed_at_turn, Some(0), "{log:?}");
    assert_eq!(log.timeouts(), 0, "{log:?}");
    assert_eq!(log.malformed(), 0, "{log:?}");
    assert_eq!(log.crashed_turns(), u32::from(TURNS), "{log:?}");
    assert_eq!(log.exit_status(), "exit 0");
}

/// The same bot in every game, through the seam as `play` and tournaments play it: each
/// game's bots are the one player, so each gets the check.
#[tokio::test(flavor = "current_thread")]
async fn in_every_game_a_bot_whose_leader_exits_while_a_child_holds_stdout_crashes_at_once() {
    let options = without_pid_namespace();
    for kind in GameKind::all() {
        // Its first shipped board, for a game that makes `play` name one.
        let board = kind.game().shipped_arenas().first().map(|a| a.name.clone());
        let (arena, _) = kind
            .game()
            .play_arena(ArenaFlags {
                board: None,
                turns: None,
                bots: 2,
            })
            .or_else(|_| {
                kind.game().play_arena(ArenaFlags {
                    board: board.as_deref(),
                    turns: None,
                    bots: 2,
                })
            })
            .unwrap();
        let builtin = BuiltinBot::parse(kind, kind.best_builtin()).unwrap();
        let names = ["leader_exits".to_string(), kind.best_builtin().to_string()];
        let (_, logs) = arena
            .play(Match {
                seed: 3,
                seats: vec![
                    SeatBot::External(leader_exits().into()),
                    SeatBot::Builtin(builtin),
                ],
                names: &names,
                time_limit_ms: LIMIT_MS,
                options: &options,
            })
            .await
            .unwrap();
        let log = logs[0].as_ref().expect("the bot's log");
        let game = kind.id();
        assert!(log.crashed_at_turn.is_some(), "{game}: {log:?}");
        assert_eq!(log.timeouts(), 0, "{game}: {log:?}");
        assert_eq!(log.malformed(), 0, "{game}: {log:?}");
        assert!(log.stats.queries > 0, "{game}: {log:?}");
        assert_eq!(log.crashed_turns(), log.stats.queries, "{game}: {log:?}");
    }
}

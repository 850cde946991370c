//! JSON-lines bots through the real subprocess path: a well-behaved bot and the hostile bots
//! of tests/hostile/, each in a short game against a built-in AI.
//!
//! For every bot: the game completes, the right fault events appear, no process of the bot
//! survives the game (its process group is empty, grandchildren are gone, nothing runs as
//! its uid) and its scratch copy is removed; and the built-in opponent's game is exactly the
//! game it would have had against a stand-in that gives the same replies in the same order
//! (`Absent` with the same fault when every reply was that fault): whatever the bot did, it
//! reached the game only through its replies.
//!
//! The tests run one at a time (a lock): flooding bots burn CPU, and the memory checks
//! read this process's RSS.

// The lock serialises whole tests, each on its own runtime: holding it across awaits is
// the point.
#![allow(clippy::await_holding_lock)]

use lrs_tourney::bots::sandbox::{Sandbox, SandboxConfig, scan_processes};
use lrs_tourney::bots::{BotCommand, JsonlOptions, Limits};
use lrs_tourney::games::SeatLog;
use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::engine::{
    Decision, EventKind, Fault, Game, GameConfig, StartQuery, StartReply, TurnQuery, TurnReply,
};
use lrs_tourney::games::lrs::remote::{
    Absent, BoxFuture, GameSetup, JsonlPlayer, RemotePlayer, SeatPlayer, View, drive_game,
};
use nix::errno::Errno;
use nix::sys::signal::kill;
use nix::unistd::Pid;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const BOARD: &str = "gear-works";
const SEED: u64 = 11;
const TURNS: u16 = 6;
const LIMIT_MS: u64 = 250;
const STARTUP_MS: u64 = 700;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn hostile_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

fn setups(
    board: &std::sync::Arc<lrs_tourney::games::lrs::engine::Board>,
    turns: u16,
) -> Vec<GameSetup> {
    (0..2)
        .map(|seat| GameSetup {
            seat,
            players: vec!["builtin:runner".into(), "bot".into()],
            board: board.clone(),
            turn_limit: turns,
            time_limit_ms: LIMIT_MS,
        })
        .collect()
}

struct Played {
    game: Game,
    log: SeatLog,
    elapsed: Duration,
}

/// Plays one game: seat 0 the built-in runner, seat 1 `python3 SCRIPT ARGS...`.
async fn play(script: &str, args: &[String], turns: u16) -> Played {
    play_in(Sandbox::default(), script, args, turns).await
}

async fn play_in(sandbox: Sandbox, script: &str, args: &[String], turns: u16) -> Played {
    let board = lrs_tourney::games::lrs::boards::load_board(BOARD).unwrap();
    let mut game = Game::new(board.clone(), 2, SEED, GameConfig { turn_limit: turns }).unwrap();
    let mut argv = vec!["python3".to_string(), script.to_string()];
    argv.extend(args.iter().cloned());
    let player = JsonlPlayer::new(
        BotCommand {
            argv,
            dir: hostile_dir(),
        },
        JsonlOptions {
            limits: Limits::default(),
            sandbox,
            startup_ms: STARTUP_MS,
        },
    );
    let log = player.log_handle();
    let mut seats = vec![
        SeatPlayer::Local(BuiltinAi::Runner.player(SEED, 0)),
        SeatPlayer::Remote(Box::new(player)),
    ];
    let started = Instant::now();
    drive_game(&mut game, &mut seats, &setups(&board, turns))
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert!(game.is_over());
    let log = log.lock().unwrap().clone();
    eprintln!(
        "{script}: {} queries of the bot, {} turns, game {elapsed:?}",
        queries_of(&game, 1),
        game.turn()
    );
    Played { game, log, elapsed }
}

/// The replies of `seat`, in the order the engine consumed them.
fn replies(game: &Game, seat: usize) -> (Vec<StartReply>, Vec<TurnReply>) {
    let mut starts = Vec::new();
    let mut turns = Vec::new();
    for d in game.decisions() {
        match *d {
            Decision::Start { seat: s, reply } if s == seat => starts.push(reply),
            Decision::Turn { seat: s, reply } if s == seat => turns.push(reply),
            _ => {}
        }
    }
    (starts, turns)
}

fn fault_of_start(r: &StartReply) -> Option<Fault> {
    match r {
        StartReply::Fault(f) => Some(*f),
        _ => None,
    }
}

fn fault_of_turn(r: &TurnReply) -> Option<Fault> {
    match r {
        TurnReply::Fault(f) => Some(*f),
        _ => None,
    }
}

/// A stand-in that gives recorded replies in order.
struct Replay {
    starts: VecDeque<StartReply>,
    turns: VecDeque<TurnReply>,
}

impl RemotePlayer for Replay {
    fn begin_game<'a>(&'a mut self, _: &'a GameSetup) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
    fn start<'a>(&'a mut self, _: &'a View, _: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        let r = self.starts.pop_front().expect("a recorded start reply");
        Box::pin(async move { r })
    }
    fn turn<'a>(&'a mut self, _: &'a View, _: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        let r = self.turns.pop_front().expect("a recorded turn reply");
        Box::pin(async move { r })
    }
    fn game_over<'a>(&'a mut self, _: &'a View) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// Plays the same game with the bot replaced by `Absent` (when all its replies were the
/// same fault) or by a replay of its replies, and checks that nothing differs: the
/// built-in opponent's result, and every event, are the same.
async fn assert_same_as_stand_in(played: &Played, turns: u16) -> &'static str {
    let (starts, turn_replies) = replies(&played.game, 1);
    let faults: Vec<Option<Fault>> = starts
        .iter()
        .map(fault_of_start)
        .chain(turn_replies.iter().map(fault_of_turn))
        .collect();
    let (stand_in, name): (Box<dyn RemotePlayer>, &'static str) = match faults.first() {
        Some(Some(f)) if faults.iter().all(|x| *x == Some(*f)) => {
            (Box::new(Absent { fault: Some(*f) }), "Absent")
        }
        _ => (
            Box::new(Replay {
                starts: starts.into(),
                turns: turn_replies.into(),
            }),
            "replay",
        ),
    };
    let board = lrs_tourney::games::lrs::boards::load_board(BOARD).unwrap();
    let mut game = Game::new(board.clone(), 2, SEED, GameConfig { turn_limit: turns }).unwrap();
    let mut seats = vec![
        SeatPlayer::Local(BuiltinAi::Runner.player(SEED, 0)),
        SeatPlayer::Remote(stand_in),
    ];
    drive_game(&mut game, &mut seats, &setups(&board, turns))
        .await
        .unwrap();
    assert_eq!(
        game.robots()[0],
        played.game.robots()[0],
        "opponent's robot"
    );
    assert_eq!(game.events(), played.game.events(), "events");
    assert_eq!(game.robots(), played.game.robots());
    name
}

fn seat_faults(game: &Game, seat: usize) -> Vec<EventKind> {
    game.events()
        .iter()
        .filter(|e| e.robot == seat && e.kind.is_fault())
        .map(|e| e.kind)
        .collect()
}

fn queries_of(game: &Game, seat: usize) -> usize {
    let (s, t) = replies(game, seat);
    s.len() + t.len()
}

fn pgid_is_empty(pgid: i32) -> bool {
    kill(Pid::from_raw(-pgid), None) == Err(Errno::ESRCH)
}

fn pid_is_gone(pid: i32) -> bool {
    kill(Pid::from_raw(pid), None) == Err(Errno::ESRCH)
}

/// Nothing of the bot is left: its process group is empty, nothing runs as its uid, its
/// scratch copy is gone; the built-in seat never faulted.
fn assert_cleaned_up(name: &str, played: &Played) {
    let log = &played.log;
    assert!(log.spawn_error.is_none(), "{name}: {:?}", log.spawn_error);
    let pgid = log.pgid.expect("the bot was started");
    assert!(
        pgid_is_empty(pgid),
        "{name}: process group {pgid} still has processes: {:?}",
        scan_processes()
            .into_iter()
            .filter(|p| p.pgrp == pgid)
            .collect::<Vec<_>>()
    );
    if let Some(uid) = log.uid {
        let left: Vec<_> = scan_processes()
            .into_iter()
            .filter(|p| p.real_uid == uid || p.saved_uid == uid)
            .collect();
        assert!(
            left.is_empty(),
            "{name}: processes of uid {uid} left: {left:?}"
        );
    }
    let scratch = log.scratch.as_ref().expect("a scratch dir");
    assert!(
        !scratch.exists(),
        "{name}: {} not removed",
        scratch.display()
    );
    let exit = log.exit.as_ref().expect("an exit report");
    assert_eq!(exit.survivors, 0, "{name}");
    assert!(
        seat_faults(&played.game, 0).is_empty(),
        "{name}: seat 0 faulted"
    );
}

fn vm_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

/// CI runs as root: there every protection must be active, and is checked.
fn is_root() -> bool {
    (unsafe { nix::libc::geteuid() }) == 0
}

fn protections_note() -> String {
    Sandbox::default().protections().one_line()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_well_behaved_bot_plays_without_faults() {
    let _g = serial();
    let played = play("good.py", &["--flag".into(), "lib/*".into()], TURNS).await;
    let (starts, turns) = replies(&played.game, 1);
    assert!(!turns.is_empty());
    assert!(seat_faults(&played.game, 1).is_empty(), "{:?}", played.log);
    assert!(turns.iter().all(|r| *r
        == TurnReply::Play {
            card: 0,
            power_down: false
        }));
    assert!(starts
        .iter()
        .all(|r| matches!(r, StartReply::Choose { facing, .. } if *facing == lrs_tourney::games::lrs::engine::Direction::North)));
    let stderr = played.log.stderr_text();
    assert!(
        stderr.contains("good bot started with ['--flag', 'lib/*']"),
        "{stderr}"
    );
    assert!(
        stderr.contains("good bot done"),
        "the bot saw game_over: {stderr}"
    );
    let exit = played.log.exit.as_ref().unwrap();
    assert_eq!(exit.status, "exit 0");
    assert!(!exit.killed);
    // Its reply to hello, and nothing else, was set aside.
    assert_eq!(played.log.stats.discarded(), 1, "{:?}", played.log.stats);
    assert_cleaned_up("good", &played);
    assert_same_as_stand_in(&played, TURNS).await;
    eprintln!(
        "good bot: {} queries in {:?}; {}",
        queries_of(&played.game, 1),
        played.elapsed,
        protections_note()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_60_turn_game_with_a_python_bot_is_quick() {
    let _g = serial();
    let played = play("spinner.py", &[], 60).await;
    assert!(seat_faults(&played.game, 1).is_empty(), "{:?}", played.log);
    let queries = queries_of(&played.game, 1);
    assert_eq!(played.game.turn(), 60, "the game went the distance");
    assert!(queries >= 50, "{queries} queries");
    let stderr = played.log.stderr_text();
    assert!(stderr.contains(&format!("answered {queries}")), "{stderr}");
    assert_cleaned_up("spinner", &played);
    assert_same_as_stand_in(&played, 60).await;
    eprintln!(
        "spinner: 60 turns, {queries} answered queries in {:?} ({:?} per query, start-up and shut-down included)",
        played.elapsed,
        played.elapsed / queries as u32
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_never_answers_times_out_on_every_query() {
    let _g = serial();
    let played = play("silent.py", &[], TURNS).await;
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(
        faults.iter().all(|k| *k == EventKind::Timeout),
        "{faults:?}"
    );
    // It reads until its input closes, then exits by itself.
    assert_eq!(played.log.exit.as_ref().unwrap().status, "exit 0");
    assert_cleaned_up("silent", &played);
    assert_eq!(assert_same_as_stand_in(&played, TURNS).await, "Absent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_answer_is_never_used_for_the_next_query() {
    let _g = serial();
    let played = play("late.py", &[], 8).await;
    let events = played.game.events();
    let timeouts: Vec<u16> = events
        .iter()
        .filter(|e| e.robot == 1 && e.kind == EventKind::Timeout)
        .map(|e| e.turn)
        .collect();
    // Late answers say card 99: taken for any query, they would be invalid.
    assert!(
        !events
            .iter()
            .any(|e| e.robot == 1 && e.kind == EventKind::Invalid),
        "a late answer was used: {:?}",
        played.log
    );
    assert!(!timeouts.is_empty());
    assert!(timeouts.iter().all(|t| t % 2 == 0), "{timeouts:?}");
    let (_, turns) = replies(&played.game, 1);
    let played_cards: Vec<&TurnReply> = turns
        .iter()
        .filter(|r| fault_of_turn(r).is_none())
        .collect();
    assert!(!played_cards.is_empty());
    assert!(played_cards.iter().all(|r| **r
        == TurnReply::Play {
            card: 0,
            power_down: false
        }));
    assert!(played.log.stats.late >= 1, "{:?}", played.log.stats);
    assert_cleaned_up("late", &played);
    assert_same_as_stand_in(&played, 8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_answers_are_invalid() {
    let _g = serial();
    let played = play("garbage.py", &[], TURNS).await;
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(
        faults.iter().all(|k| *k == EventKind::Invalid),
        "{faults:?}"
    );
    assert_cleaned_up("garbage", &played);
    assert_eq!(assert_same_as_stand_in(&played, TURNS).await, "Absent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_indices_and_squares_are_invalid() {
    let _g = serial();
    let played = play("wrong_index.py", &[], TURNS).await;
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(
        faults.iter().all(|k| *k == EventKind::Invalid),
        "{faults:?}"
    );
    assert!(played.log.last_invalid.is_some());
    assert_cleaned_up("wrong_index", &played);
    assert_eq!(assert_same_as_stand_in(&played, TURNS).await, "Absent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_10_mb_line_is_invalid_and_not_buffered() {
    let _g = serial();
    let before = vm_rss_kib();
    let played = play("huge_line.py", &[], TURNS).await;
    let growth_mib = vm_rss_kib().saturating_sub(before) / 1024;
    assert!(growth_mib < 64, "RSS grew by {growth_mib} MiB");
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    // Every answer is refused: invalid when its line is read whole in time; on a loaded
    // machine a 10 MB line may still be arriving at the deadline (a timeout).
    assert!(
        faults
            .iter()
            .all(|k| matches!(k, EventKind::Invalid | EventKind::Timeout)),
        "{faults:?}"
    );
    assert!(faults.contains(&EventKind::Invalid), "{faults:?}");
    assert!(played.log.stats.overlong >= 1);
    assert_cleaned_up("huge_line", &played);
    assert_eq!(assert_same_as_stand_in(&played, TURNS).await, "Absent");
    eprintln!("huge_line: RSS growth {growth_mib} MiB");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn infinite_stdout_and_stderr_are_capped() {
    let _g = serial();
    let before = vm_rss_kib();
    let played = play("flood.py", &[], TURNS).await;
    let growth_mib = vm_rss_kib().saturating_sub(before) / 1024;
    assert!(growth_mib < 64, "RSS grew by {growth_mib} MiB");
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(
        faults
            .iter()
            .all(|k| *k == EventKind::Invalid || *k == EventKind::Timeout),
        "{faults:?}"
    );
    let stderr = played.log.stderr().unwrap();
    assert_eq!(stderr.kept.len(), 1 << 20);
    assert!(stderr.dropped > 0);
    assert!(played.log.stderr_text().contains("more bytes dropped"));
    assert!(played.log.stats.unsolicited > 0);
    assert!(played.log.exit.as_ref().unwrap().killed);
    assert_cleaned_up("flood", &played);
    assert_same_as_stand_in(&played, TURNS).await;
    eprintln!(
        "flood: RSS growth {growth_mib} MiB, stderr dropped {} bytes",
        stderr.dropped
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_exits_at_once_crashes_every_query() {
    let _g = serial();
    let played = play("exit_now.py", &[], TURNS).await;
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(faults.iter().all(|k| *k == EventKind::Crash), "{faults:?}");
    assert_eq!(played.log.crashed_at_turn, Some(1));
    assert_eq!(played.log.exit.as_ref().unwrap().status, "exit 0");
    assert_cleaned_up("exit_now", &played);
    assert_eq!(assert_same_as_stand_in(&played, TURNS).await, "Absent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_crashes_mid_game_is_crashed_for_the_rest_of_it() {
    let _g = serial();
    let played = play("crash_mid.py", &[], TURNS).await;
    let (starts, turns) = replies(&played.game, 1);
    let all: Vec<Option<Fault>> = starts
        .iter()
        .map(fault_of_start)
        .take(1)
        .chain(turns.iter().map(fault_of_turn))
        .collect();
    assert!(all.len() > 3, "{all:?}");
    // The first three queries (the start query and two turns) were answered.
    assert!(all[..3].iter().all(Option::is_none), "{all:?}");
    let rest_faults: Vec<Fault> = starts
        .iter()
        .skip(1)
        .filter_map(fault_of_start)
        .chain(turns.iter().skip(2).filter_map(fault_of_turn))
        .collect();
    assert_eq!(
        rest_faults.len(),
        starts.len() - 1 + turns.len() - 2,
        "every later query faulted"
    );
    assert!(rest_faults.iter().all(|f| *f == Fault::Crash));
    assert!(played.log.crashed_at_turn.is_some());
    assert!(played.log.stderr_text().contains("RuntimeError: bot bug"));
    assert_eq!(played.log.exit.as_ref().unwrap().status, "exit 1");
    assert_cleaned_up("crash_mid", &played);
    assert_same_as_stand_in(&played, TURNS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_ignoring_sigterm_and_its_grandchildren_are_killed() {
    let _g = serial();
    let played = play("sigterm_grandchild.py", &[], TURNS).await;
    assert!(seat_faults(&played.game, 1).is_empty());
    let stderr = played.log.stderr_text();
    let grandchild = |kind: &str| -> i32 {
        stderr
            .lines()
            .find(|l| l.starts_with("grandchild") && l.ends_with(kind))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no {kind} grandchild in {stderr}"))
    };
    let in_group = grandchild("in-group");
    let escaped = grandchild("escaped");
    let exit = played.log.exit.as_ref().unwrap();
    assert!(exit.killed, "the bot ignored the end of its input");
    assert_eq!(exit.status, "signal SIGKILL");
    assert_cleaned_up("sigterm_grandchild", &played);
    let protections = Sandbox::default().protections();
    if protections.pid_namespace.is_active() || is_root() {
        // The pids it printed are its own namespace's: nothing of the host is that small
        // a number for a fresh process, and the namespace died whole.
        assert!(in_group < 100 && escaped < 100, "{stderr}");
        eprintln!("sigterm_grandchild: both grandchildren died with the bot's PID namespace");
    } else if protections.separate_uid.is_active() {
        assert!(pid_is_gone(in_group), "grandchild {in_group} survived");
        assert!(
            pid_is_gone(escaped),
            "escaped grandchild {escaped} survived"
        );
    } else {
        let alive = !pid_is_gone(escaped);
        if alive {
            let _ = kill(Pid::from_raw(escaped), nix::sys::signal::Signal::SIGKILL);
        }
        eprintln!(
            "sigterm_grandchild: NOT CHECKED: no PID namespace or separate uid ({}); a \
             grandchild that calls setsid() {} the game",
            protections.separate_uid.detail(),
            if alive { "outlived" } else { "did not outlive" }
        );
    }
    assert_same_as_stand_in(&played, TURNS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_forking_200_children_is_limited_and_cleaned_up() {
    let _g = serial();
    let played = play("fork200.py", &["400".to_string()], TURNS).await;
    let stderr = played.log.stderr_text();
    let forked: u32 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("forked "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no fork count in {stderr}"));
    let protections = Sandbox::default().protections();
    if protections.process_limit.is_active() || is_root() {
        let limit = Limits::default().processes as u32;
        assert!(
            forked < limit,
            "the bot's task limit is {limit}, yet it forked {forked}"
        );
    } else {
        eprintln!(
            "fork200: process limit not asserted ({}); it forked {forked}",
            protections.separate_uid.detail()
        );
    }
    assert!(seat_faults(&played.game, 1).is_empty(), "{stderr}");
    assert_cleaned_up("fork200", &played);
    assert_same_as_stand_in(&played, TURNS).await;
    eprintln!("fork200: forked {forked} of 400");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_allocating_4_gib_dies_and_the_game_goes_on() {
    let _g = serial();
    // Writing a gigabyte takes ~0.3 s here, but seconds when the machine must first reclaim
    // memory (a full page cache after a build): a longer game leaves it time to die.
    let turns = 5 * TURNS;
    let played = play("mem4g.py", &[], turns).await;
    let stderr = played.log.stderr_text();
    let exit = played.log.exit.as_ref().expect("an exit report");
    if Sandbox::default().protections().memory_limit.is_active() || is_root() {
        // The control group stops it at its limit: the kernel kills it for using memory
        // (an allocation of address space alone would have succeeded).
        assert!(exit.oom_kills >= 1, "{exit:?}");
        let peak = exit.peak_memory.expect("peak memory");
        assert!(peak <= Limits::default().memory_mb << 20, "peak {peak}");
        eprintln!("mem4g: killed at {} MiB", peak >> 20);
    } else {
        assert!(stderr.contains("MemoryError"), "{stderr}");
    }
    // Touching a gigabyte takes a while: the first queries may time out before it dies.
    let faults = seat_faults(&played.game, 1);
    assert_eq!(faults.len(), queries_of(&played.game, 1));
    assert!(
        faults
            .iter()
            .all(|k| matches!(k, EventKind::Crash | EventKind::Timeout)),
        "{faults:?}"
    );
    assert_eq!(faults.last(), Some(&EventKind::Crash), "{faults:?}");
    assert_cleaned_up("mem4g", &played);
    assert_same_as_stand_in(&played, turns).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_cannot_connect_to_a_local_port() {
    let _g = serial();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let played = play("net.py", &[port.to_string()], TURNS).await;
    assert!(seat_faults(&played.game, 1).is_empty());
    let stderr = played.log.stderr_text();
    let connected = match listener.accept() {
        Ok(_) => true,
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
        Err(e) => panic!("accept: {e}"),
    };
    let p = Sandbox::default().protections();
    if p.network_namespace.is_active() || is_root() {
        assert!(!connected, "a connection arrived from the bot");
        assert!(stderr.contains("connect: failed"), "{stderr}");
        eprintln!(
            "net: no connection arrived; relied on: {}",
            [
                ("network namespace", &p.network_namespace),
                ("landlock", &p.landlock)
            ]
            .iter()
            .filter(|(_, x)| x.is_active())
            .map(|(n, x)| format!("{n} ({})", x.detail()))
            .collect::<Vec<_>>()
            .join(" and ")
        );
    } else {
        eprintln!(
            "net: NETWORK ISOLATION NOT CHECKED: no network namespace ({}); the bot {} connect",
            p.network_namespace.detail(),
            if connected { "DID" } else { "did not" }
        );
    }
    assert_cleaned_up("net", &played);
    assert_same_as_stand_in(&played, TURNS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_cannot_read_another_teams_directory() {
    use std::os::unix::fs::PermissionsExt;
    let _g = serial();
    let other = tempfile::tempdir().unwrap();
    // World-readable, so that only the sandbox (not file modes) can keep the bot out.
    std::fs::set_permissions(other.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let secret = other.path().join("secret.txt");
    std::fs::write(&secret, "TOP-SECRET-STRATEGY").unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    let played = play("snoop.py", &[other.path().display().to_string()], TURNS).await;
    assert!(seat_faults(&played.game, 1).is_empty());
    let stderr = played.log.stderr_text();
    let p = Sandbox::default().protections();
    if p.mount_namespace.is_active() || p.landlock.is_active() || is_root() {
        assert!(!stderr.contains("TOP-SECRET"), "{stderr}");
        assert!(stderr.contains("read: denied"), "{stderr}");
        assert!(stderr.contains("list: denied"), "{stderr}");
        eprintln!("snoop: denied; relied on {}", p.mount_namespace.detail());
    } else {
        eprintln!(
            "snoop: FILESYSTEM ISOLATION NOT CHECKED: no mount namespace or Landlock ({}); the \
             bot {} read the world-readable secret; it only ran in its own scratch copy",
            p.landlock.detail(),
            if stderr.contains("TOP-SECRET") {
                "COULD"
            } else {
                "could not"
            }
        );
    }
    assert_cleaned_up("snoop", &played);
    assert_same_as_stand_in(&played, TURNS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_only_the_mandatory_protections_a_bot_still_plays_and_is_cleaned_up() {
    let _g = serial();
    let bare = || {
        Sandbox::new(SandboxConfig {
            separate_uid: false,
            network_namespace: false,
            landlock: false,
            ..SandboxConfig::default()
        })
    };
    let played = play_in(bare(), "good.py", &[], TURNS).await;
    assert!(seat_faults(&played.game, 1).is_empty(), "{:?}", played.log);
    assert_eq!(played.log.uid, None);
    assert_cleaned_up("good (bare)", &played);
    let played = play_in(bare(), "silent.py", &[], 3).await;
    assert!(
        seat_faults(&played.game, 1)
            .iter()
            .all(|k| *k == EventKind::Timeout)
    );
    assert_cleaned_up("silent (bare)", &played);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_that_cannot_be_started_crashes_every_query() {
    let _g = serial();
    let board = lrs_tourney::games::lrs::boards::load_board(BOARD).unwrap();
    let mut game = Game::new(board.clone(), 2, SEED, GameConfig { turn_limit: 3 }).unwrap();
    let player = JsonlPlayer::new(
        BotCommand {
            argv: vec!["./no-such-program".into()],
            dir: hostile_dir(),
        },
        JsonlOptions::default(),
    );
    let log = player.log_handle();
    let mut seats = vec![
        SeatPlayer::Local(BuiltinAi::Runner.player(SEED, 0)),
        SeatPlayer::Remote(Box::new(player)),
    ];
    drive_game(&mut game, &mut seats, &setups(&board, 3))
        .await
        .unwrap();
    let log = log.lock().unwrap().clone();
    assert!(log.spawn_error.is_some());
    let faults = seat_faults(&game, 1);
    assert_eq!(faults.len(), queries_of(&game, 1));
    assert!(faults.iter().all(|k| *k == EventKind::Crash));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_dropped_mid_game_kills_its_bot() {
    let _g = serial();
    let board = lrs_tourney::games::lrs::boards::load_board(BOARD).unwrap();
    let game = Game::new(board.clone(), 2, SEED, GameConfig { turn_limit: 5 }).unwrap();
    let mut player = JsonlPlayer::new(
        BotCommand {
            argv: vec!["python3".into(), "fork200.py".into()],
            dir: hostile_dir(),
        },
        JsonlOptions {
            startup_ms: 3000,
            ..JsonlOptions::default()
        },
    );
    player.begin_game(&setups(&board, 5)[1]).await;
    let view = View {
        turn: 0,
        repair_on: false,
        robots: game.robots().to_vec(),
    };
    let query = match game.pending() {
        lrs_tourney::games::lrs::engine::Pending::Start(q) => q[1].clone(),
        other => panic!("{other:?}"),
    };
    let reply = player.start(&view, &query).await;
    assert!(matches!(reply, StartReply::Choose { .. }), "{reply:?}");
    let log = player.log();
    let (pgid, uid) = (log.pgid.unwrap(), log.uid);
    let children = scan_processes().iter().filter(|p| p.pgrp == pgid).count();
    assert!(children > 1, "the bot forked");
    drop(player);
    let deadline = Instant::now() + Duration::from_secs(3);
    let gone = || {
        pgid_is_empty(pgid) && uid.is_none_or(|u| !scan_processes().iter().any(|p| p.real_uid == u))
    };
    while !gone() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone(), "processes of the dropped bot remain");
    assert!(!log.scratch.unwrap().exists());
}

#[test]
fn the_protection_report_is_printed() {
    let p = Sandbox::default().protections();
    eprintln!("{}", p.summary());
    assert!(p.session.is_active());
}

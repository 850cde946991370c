//! Attacks on the bot sandbox, each done the way a hostile student would do it, through
//! the real binary (`lrs-tourney play`) or the library's real subprocess path, with the
//! hostile programs of tests/hostile/. Every test asserts the protection (CI runs as
//! root, like the machines tournaments run on): nothing is skipped.
//!
//! A bot run by the binary reports what it managed through the game itself: a JSON-lines
//! bot answers with garbage (faults) when an attack worked, a Windward client puts its
//! report in its join name, which the gateway logs on stderr.
//!
//! The tests run one at a time (a lock): several measure CPU, memory or descriptors.

// The lock serialises whole tests, some on their own runtime: holding it across awaits is
// the point.
#![allow(clippy::await_holding_lock)]

mod common;

use lrs_tourney::bots::sandbox::Sandbox;
use lrs_tourney::bots::{BotCommand, JsonlOptions, Limits};
use lrs_tourney::games::SeatLog;
use lrs_tourney::games::lrs::ai::BuiltinAi;
use lrs_tourney::games::lrs::engine::{EventKind, Game, GameConfig};
use lrs_tourney::games::lrs::remote::{GameSetup, JsonlPlayer, SeatPlayer, drive_game};
use nix::libc;
use serde_json::Value;
use std::io::{ErrorKind, Read};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

const BOARD: &str = "gear-works";

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_lrs-tourney"))
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn hostile() -> String {
    repo().join("tests/hostile").display().to_string()
}

fn example(name: &str) -> String {
    repo()
        .join("examples/bots")
        .join(name)
        .display()
        .to_string()
}

/// A port nobody listens on right now.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// `play --board gear-works` with `args`, run in a fresh directory.
fn play_command(args: &[&str]) -> (Command, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(bin());
    cmd.args(["play", "--board", BOARD])
        .args(args)
        .current_dir(dir.path());
    (cmd, dir)
}

struct Run {
    stdout: String,
    stderr: String,
    report: Value,
}

fn finish(out: Output, what: &str) -> Run {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{what}: play failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
    let report = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{what}: no JSON report ({e}):\n{stdout}\n{stderr}"));
    Run {
        stdout,
        stderr,
        report,
    }
}

/// Runs `play ... --json`, which must succeed; returns its output and JSON report.
fn play(args: &[&str]) -> Run {
    let (mut cmd, _dir) = play_command(args);
    finish(cmd.arg("--json").output().unwrap(), &format!("{args:?}"))
}

fn faults(run: &Run, slot: usize) -> u64 {
    run.report["bots"][slot]["faults"]
        .as_u64()
        .unwrap_or_else(|| panic!("no faults for bot {slot}: {}", run.stdout))
}

fn assert_no_faults(run: &Run, slot: usize, what: &str) {
    assert_eq!(
        faults(run, slot),
        0,
        "{what} faulted:\n{}\n{}",
        run.stdout,
        run.stderr
    );
}

/// The gateway's log line of the join of a client whose join name starts with `prefix`.
fn join_line<'a>(stderr: &'a str, prefix: &str) -> &'a str {
    stderr
        .lines()
        .find(|l| {
            l.contains(&format!("\"{prefix}"))
                && (l.contains("\" joined from") || l.contains("\" reconnected from"))
        })
        .unwrap_or_else(|| panic!("no join of {prefix:?} in:\n{stderr}"))
}

fn gateway_args(port: u16) -> String {
    format!("127.0.0.1:{port}")
}

// ---------------------------------------------------------------------------------------
// The library path: one game of a JSON-lines bot against a built-in AI.

struct Played {
    game: Game,
    log: SeatLog,
}

async fn play_lib(script: &str, args: &[String], turns: u16, startup_ms: u64) -> Played {
    play_lib_in(Sandbox::default(), script, args, turns, startup_ms).await
}

async fn play_lib_in(
    sandbox: Sandbox,
    script: &str,
    args: &[String],
    turns: u16,
    startup_ms: u64,
) -> Played {
    play_lib_with(
        sandbox,
        Limits::default(),
        Path::new(&hostile()),
        script,
        args,
        turns,
        startup_ms,
    )
    .await
}

async fn play_lib_with(
    sandbox: Sandbox,
    limits: Limits,
    dir: &Path,
    script: &str,
    args: &[String],
    turns: u16,
    startup_ms: u64,
) -> Played {
    let board = lrs_tourney::games::lrs::boards::load_board(BOARD).unwrap();
    let mut game = Game::new(board.clone(), 2, 7, GameConfig { turn_limit: turns }).unwrap();
    let mut argv = vec!["python3".to_string(), script.to_string()];
    argv.extend(args.iter().cloned());
    let player = JsonlPlayer::new(
        BotCommand {
            argv,
            dir: dir.to_path_buf(),
        },
        JsonlOptions {
            limits,
            sandbox,
            startup_ms,
        },
    );
    let log = player.log_handle();
    let mut seats = vec![
        SeatPlayer::Local(BuiltinAi::Runner.player(7, 0)),
        SeatPlayer::Remote(Box::new(player)),
    ];
    let setups: Vec<GameSetup> = (0..2)
        .map(|seat| GameSetup {
            seat,
            players: vec!["builtin:runner".into(), "bot".into()],
            board: board.clone(),
            turn_limit: turns,
            time_limit_ms: 500,
        })
        .collect();
    drive_game(&mut game, &mut seats, &setups).await.unwrap();
    assert!(game.is_over(), "{script}: the game did not finish");
    let log = log.lock().unwrap().clone();
    Played { game, log }
}

fn seat_faults(game: &Game, seat: usize) -> Vec<EventKind> {
    game.events()
        .iter()
        .filter(|e| e.robot == seat && e.kind.is_fault())
        .map(|e| e.kind)
        .collect()
}

/// The bot's scratch area is gone and nothing of it survived.
fn assert_cleaned_up(name: &str, played: &Played) {
    let log = &played.log;
    assert!(log.spawn_error.is_none(), "{name}: {:?}", log.spawn_error);
    let scratch = log.scratch.as_ref().expect("a scratch area");
    assert!(
        !scratch.exists(),
        "{name}: {} not removed",
        scratch.display()
    );
    assert_eq!(log.exit.as_ref().expect("an exit report").survivors, 0);
    assert!(seat_faults(&played.game, 0).is_empty(), "{name}: seat 0");
}

// ---------------------------------------------------------------------------------------
// Host processes

/// Pids of host processes whose command line contains `pattern`.
fn pids_with(pattern: &str) -> Vec<i32> {
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&cmdline).contains(pattern)
        {
            pids.push(pid);
        }
    }
    pids
}

fn status_kib(pid: u32, field: &str) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

// ---------------------------------------------------------------------------------------
// 1. Terminal injection

#[test]
fn a_bot_cannot_inject_keystrokes_into_the_runners_terminal() {
    let _g = serial();
    let (master, slave) = common::openpty();
    let hostile = hostile();
    let (mut cmd, _dir) = play_command(&[
        "--bot-dir",
        &hostile,
        "--bot",
        "jsonl:python3 tty_inject.py",
        "--bot",
        "builtin:runner",
        "--turns",
        "4",
        "--json",
    ]);
    cmd.stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave.try_clone().unwrap()));
    // The runner's session, with the terminal as its controlling terminal.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    nix::fcntl::fcntl(
        &master,
        nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
    )
    .unwrap();
    let mut terminal = std::fs::File::from(master);
    let mut output = Vec::new();
    let mut buf = [0u8; 4096];
    let mut drain = |output: &mut Vec<u8>| {
        loop {
            match terminal.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => output.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => panic!("reading the terminal: {e}"),
            }
        }
    };
    let status = loop {
        drain(&mut output);
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    std::thread::sleep(Duration::from_millis(100));
    drain(&mut output);
    let text = String::from_utf8_lossy(&output).replace("\r\n", "\n");
    assert!(status.success(), "{status:?}:\n{text}");
    // Whatever was pushed into the terminal would wait there as input (and be echoed).
    let mut queued: libc::c_int = 0;
    assert_eq!(
        unsafe { libc::ioctl(slave.as_raw_fd(), libc::FIONREAD, &mut queued) },
        0
    );
    assert_eq!(queued, 0, "{queued} bytes were injected into the terminal");
    assert!(!text.contains("PWNED"), "injected and echoed:\n{text}");
    let start = text.find("{\n  \"game\"").expect("the JSON report");
    let end = start + text[start..].find("\n}").expect("its end") + 2;
    let report: Value = serde_json::from_str(&text[start..end]).unwrap();
    assert_eq!(report["games"], 1, "the game finished");
    // The bot plays garbage when any keystroke went in.
    assert_eq!(report["bots"][0]["faults"], 0, "{text}");
}

// ---------------------------------------------------------------------------------------
// 2. UNIX sockets of the host

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_cannot_connect_to_host_unix_sockets() {
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::net::{SocketAddr, UnixListener};
    let _g = serial();
    let dir = tempfile::Builder::new()
        .prefix("open-sockets")
        .tempdir_in("/tmp")
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let path = dir.path().join("service.sock");
    let listener = UnixListener::bind(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777)).unwrap();
    let name = format!("lrs-attacks-{}", std::process::id());
    let abstract_listener =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    listener.set_nonblocking(true).unwrap();
    abstract_listener.set_nonblocking(true).unwrap();
    let played = play_lib(
        "unix_connect.py",
        &[path.display().to_string(), name.clone()],
        4,
        3000,
    )
    .await;
    let stderr = played.log.stderr_text();
    for (label, l) in [("unix", &listener), ("abstract", &abstract_listener)] {
        match l.accept() {
            Ok(_) => panic!("{label}: a connection arrived from the bot\n{stderr}"),
            Err(e) => assert_eq!(e.kind(), ErrorKind::WouldBlock, "{label}: {e}"),
        }
        assert!(
            stderr.contains(&format!("{label}: failed")),
            "{label}: {stderr}"
        );
    }
    assert!(seat_faults(&played.game, 1).is_empty(), "{stderr}");
    assert_cleaned_up("unix_connect", &played);
}

// ---------------------------------------------------------------------------------------
// 3. A Windward client leaving its network

/// The machine's own non-loopback IPv4 address (of the default route).
fn own_ip() -> std::net::Ipv4Addr {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    // No packet is sent: this only picks the route.
    s.connect("192.0.2.1:9")
        .or_else(|_| s.connect("8.8.8.8:53"))
        .expect("a route off this machine");
    match s.local_addr().unwrap().ip() {
        std::net::IpAddr::V4(ip) if !ip.is_loopback() => ip,
        other => panic!("no non-loopback address: {other}"),
    }
}

#[test]
fn a_windward_client_reaches_nothing_but_its_gateway() {
    let _g = serial();
    let gw = free_port();
    let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let udp = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let ip = own_ip();
    // Listeners on the gateway's port at the other addresses the client tries.
    let lo2 = std::net::TcpListener::bind(("127.0.0.2", gw)).unwrap();
    let on_ip = std::net::TcpListener::bind((ip, gw)).unwrap();
    // The host's port 1707 (where another run's gateway could listen): the client may
    // connect to 1707 inside its own namespace only.
    let host_1707 = std::net::TcpListener::bind("127.0.0.1:1707")
        .expect("port 1707 of 127.0.0.1 is free for this test");
    for l in [&tcp, &lo2, &on_ip, &host_1707] {
        l.set_nonblocking(true).unwrap();
    }
    udp.set_nonblocking(true).unwrap();
    let spec = format!(
        "windward:python3 ww_escape.py {gw} {} {} {ip}",
        tcp.local_addr().unwrap().port(),
        udp.local_addr().unwrap().port()
    );
    let hostile = hostile();
    let listen = gateway_args(gw);
    let run = play(&[
        "--windward-listen",
        &listen,
        "--bot-dir",
        &hostile,
        "--bot",
        &spec,
        "--bot",
        "builtin:runner",
        "--games",
        "1",
        "--turns",
        "10",
        "--time-limit-ms",
        "2000",
    ]);
    for (label, l) in [
        ("tcp", &tcp),
        ("127.0.0.2", &lo2),
        ("own address", &on_ip),
        ("the host's 1707", &host_1707),
    ] {
        match l.accept() {
            Ok((_, peer)) => panic!("{label}: a connection from {peer}\n{}", run.stderr),
            Err(e) => assert_eq!(e.kind(), ErrorKind::WouldBlock, "{label}: {e}"),
        }
    }
    let mut buf = [0u8; 64];
    match udp.recv_from(&mut buf) {
        Ok((_, peer)) => panic!("a datagram from {peer}\n{}", run.stderr),
        Err(e) => assert_eq!(e.kind(), ErrorKind::WouldBlock, "udp: {e}"),
    }
    let report = join_line(&run.stderr, "escape");
    for label in ["mptcp", "tcp", "tcp2", "tcpip"] {
        assert!(report.contains(&format!(" {label}=no(")), "{report}");
    }
    assert_no_faults(&run, 0, "the escaping client");
    eprintln!("escape: {report}");
}

// ---------------------------------------------------------------------------------------
// 4. Seat theft

#[test]
fn a_windward_client_cannot_see_or_steal_another_clients_seat() {
    let _g = serial();
    let gw = free_port();
    let listen = gateway_args(gw);
    let victim_dir = example("windward");
    let victim = format!("windward:python3 client.py --port {gw}");
    let hostile = hostile();
    let thief = format!("windward:python3 ww_thief.py {gw}");
    let run = play(&[
        "--windward-listen",
        &listen,
        "--bot-dir",
        &victim_dir,
        "--bot",
        &victim,
        "--bot-dir",
        &hostile,
        "--bot",
        &thief,
        "--games",
        "1",
        "--turns",
        "10",
        "--time-limit-ms",
        "2000",
    ]);
    assert_no_faults(&run, 0, "the victim");
    let report = join_line(&run.stderr, "thief");
    let saw: usize = report
        .split("saw=")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    let words: usize = report
        .split("words=")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    // It saw no process but its own: nothing to take a token, a command line or a
    // directory from.
    assert_eq!(saw, 0, "the thief saw other processes: {report}");
    assert_eq!(words, 0, "{report}");
    for leak in ["client.py", "lrs-tourney", "--windward-listen", &victim_dir] {
        assert!(!report.contains(leak), "{leak} leaked: {report}");
    }
    // The victim joined once and was never replaced.
    let victim_joins = run
        .stderr
        .lines()
        .filter(|l| l.contains("\"bot1\""))
        .collect::<Vec<_>>();
    assert_eq!(victim_joins.len(), 1, "{}", run.stderr);
    assert!(!run.stderr.contains("\"stolen\""), "{}", run.stderr);
}

// ---------------------------------------------------------------------------------------
// 5. System V IPC

fn sysv_keys(table: &str) -> Vec<(i64, i64)> {
    std::fs::read_to_string(format!("/proc/sysvipc/{table}"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cells = l.split_whitespace();
            Some((cells.next()?.parse().ok()?, cells.next()?.parse().ok()?))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sysv_ipc_objects_of_a_bot_do_not_reach_the_host() {
    let _g = serial();
    let key = 0x4c52_0000_i64 + i64::from(std::process::id() & 0xffff);
    let played = play_lib("sysv.py", &[key.to_string()], 4, 3000).await;
    let stderr = played.log.stderr_text();
    // The bot did create them (in its own IPC namespace).
    assert!(!stderr.contains("shmget: -1"), "{stderr}");
    assert!(!stderr.contains("msgget: -1"), "{stderr}");
    let shm: Vec<i64> = sysv_keys("shm")
        .into_iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, id)| id)
        .collect();
    let msg: Vec<i64> = sysv_keys("msg")
        .into_iter()
        .filter(|(k, _)| *k == key)
        .map(|(_, id)| id)
        .collect();
    for id in &shm {
        unsafe { libc::shmctl(*id as i32, libc::IPC_RMID, std::ptr::null_mut()) };
    }
    for id in &msg {
        unsafe { libc::msgctl(*id as i32, libc::IPC_RMID, std::ptr::null_mut()) };
    }
    assert!(
        shm.is_empty() && msg.is_empty(),
        "left on the host: shm {shm:?}, msg {msg:?}\n{stderr}"
    );
    assert!(seat_faults(&played.game, 1).is_empty(), "{stderr}");
    assert_cleaned_up("sysv", &played);
}

// ---------------------------------------------------------------------------------------
// 6. Daemons when the runner dies

fn runner_dirs(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("{pid}-");
    let mut found = Vec::new();
    let base = std::env::temp_dir().join("lrs-tourney-sandbox");
    let mut parents = vec![base];
    for controller in ["memory", "pids", "cpu"] {
        parents.push(
            Path::new("/sys/fs/cgroup")
                .join(controller)
                .join("lrs-tourney"),
        );
    }
    parents.push(PathBuf::from("/sys/fs/cgroup/lrs-tourney"));
    parents.push(PathBuf::from("/sys/fs/cgroup/unified/lrs-tourney"));
    for parent in parents {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                found.push(entry.path());
            }
        }
    }
    found
}

fn start_daemon_game(marker: &str) -> (Child, tempfile::TempDir) {
    let hostile = hostile();
    let spec = format!("jsonl:python3 daemon.py {marker}");
    let (mut cmd, dir) = play_command(&[
        "--bot-dir",
        &hostile,
        "--bot",
        &spec,
        "--bot",
        "builtin:runner",
        "--turns",
        "60",
        "--json",
    ]);
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    // The daemon itself (the runner and the bot have the marker on their command lines too).
    while pids_with(&format!("time.sleep(1)\0{marker}")).is_empty() {
        assert!(Instant::now() < deadline, "the daemon never started");
        assert!(child.try_wait().unwrap().is_none(), "the game ended early");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, dir)
}

#[test]
fn daemons_die_with_the_runner_and_the_next_run_sweeps_its_leftovers() {
    use nix::sys::signal::{Signal, kill};
    let _g = serial();
    let mut killed = Vec::new();
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGKILL] {
        let marker = format!("lrs-daemon-{}-{signal}", std::process::id());
        let (mut runner, _dir) = start_daemon_game(&marker);
        kill(nix::unistd::Pid::from_raw(runner.id() as i32), signal).unwrap();
        runner.wait().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        let left = loop {
            let left = pids_with(&marker);
            if left.is_empty() || Instant::now() > deadline {
                break left;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        for pid in &left {
            let _ = kill(nix::unistd::Pid::from_raw(*pid), Signal::SIGKILL);
        }
        assert!(
            left.is_empty(),
            "after {signal}: the daemon outlived the runner: {left:?}"
        );
        killed.push((signal, runner.id()));
    }
    // A runner killed by SIGKILL cleaned nothing: its scratch directory and groups remain.
    let (_, sigkilled) = killed[2];
    let before = runner_dirs(sigkilled);
    assert!(
        !before.is_empty(),
        "nothing of the SIGKILLed runner to sweep"
    );
    // The next run sweeps what dead runners left.
    let hostile = hostile();
    play(&[
        "--bot-dir",
        &hostile,
        "--bot",
        "jsonl:python3 good.py",
        "--bot",
        "builtin:runner",
        "--turns",
        "2",
    ]);
    for (signal, pid) in &killed {
        let left = runner_dirs(*pid);
        assert!(
            left.is_empty(),
            "left by the runner killed with {signal}: {left:?}"
        );
    }
    eprintln!("daemons: swept {before:?}");
}

// ---------------------------------------------------------------------------------------
// 7. Descriptor exhaustion

#[test]
fn a_client_holding_2000_connections_does_not_starve_the_others() {
    let _g = serial();
    let gw = free_port();
    let listen = gateway_args(gw);
    let hostile = hostile();
    let hog = format!("windward:python3 ww_fdhog.py {gw}");
    let client_dir = example("windward");
    // A client slow to start (as a JVM is), connecting after the hog's flood began.
    let client =
        format!("windward:sh -c 'sleep 1; exec python3 client.py --port {gw} \"$@\"' slow-client");
    let python_dir = example("python");
    let (mut cmd, _dir) = play_command(&[
        "--windward-listen",
        &listen,
        "--bot-dir",
        &hostile,
        "--bot",
        &hog,
        "--bot-dir",
        &client_dir,
        "--bot",
        &client,
        "--bot-dir",
        &python_dir,
        "--bot",
        "jsonl:python3 bot.py",
        "--games",
        "1",
        "--turns",
        "10",
        "--time-limit-ms",
        "2000",
        "--json",
    ]);
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1024,
                rlim_max: 4096,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let run = finish(cmd.output().unwrap(), "fd hog");
    assert_eq!(run.report["games"], 1);
    assert_no_faults(&run, 1, "the example Windward client");
    assert_no_faults(&run, 2, "the JSON-lines bot");
}

// ---------------------------------------------------------------------------------------
// 8. Pre-join flood

#[test]
fn a_pre_join_flood_does_not_grow_the_runner() {
    let _g = serial();
    let gw = free_port();
    let listen = gateway_args(gw);
    let hostile = hostile();
    let spec = format!("windward:python3 ww_prejoin.py {gw}");
    let (mut cmd, _dir) = play_command(&[
        "--windward-listen",
        &listen,
        "--bot-dir",
        &hostile,
        "--bot",
        &spec,
        "--bot",
        "builtin:runner",
        "--games",
        "1",
        "--turns",
        "10",
        "--time-limit-ms",
        "2000",
        "--json",
    ]);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let stdout = std::thread::spawn(move || {
        let mut s = Vec::new();
        out.read_to_end(&mut s).unwrap();
        s
    });
    let stderr = std::thread::spawn(move || {
        let mut s = Vec::new();
        err.read_to_end(&mut s).unwrap();
        s
    });
    let mut peak_kib = 0;
    let status = loop {
        if let Some(hwm) = status_kib(pid, "VmHWM:") {
            peak_kib = peak_kib.max(hwm);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let run = finish(
        Output {
            status,
            stdout: stdout.join().unwrap(),
            stderr: stderr.join().unwrap(),
        },
        "pre-join flood",
    );
    assert_eq!(run.report["games"], 1);
    assert!(peak_kib > 0, "the runner's memory was never read");
    assert!(
        peak_kib < 300 << 10,
        "the runner peaked at {} MiB",
        peak_kib >> 10
    );
    eprintln!(
        "pre-join flood: the runner peaked at {} MiB",
        peak_kib >> 10
    );
}

// ---------------------------------------------------------------------------------------
// 9. CPU hog

#[test]
fn a_cpu_hog_does_not_slow_down_its_opponent() {
    let _g = serial();
    let hostile = hostile();
    let run = play(&[
        "--bot-dir",
        &hostile,
        "--bot",
        "jsonl:python3 cpu_hog.py",
        "--bot-dir",
        &hostile,
        "--bot",
        "jsonl:python3 burn50.py",
        "--time-limit-ms",
        "300",
        "--turns",
        "15",
    ]);
    assert_eq!(run.report["games"], 1);
    assert_no_faults(&run, 1, "the bot burning 50 ms per answer");
}

// ---------------------------------------------------------------------------------------
// 10. Memory fork bomb

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_fork_bomb_is_held_to_the_bots_limit() {
    let _g = serial();
    let played = play_lib("fork_mem.py", &[], 4, 10_000).await;
    let exit = played.log.exit.clone().expect("an exit report");
    let limit = Limits::default().memory_mb << 20;
    let peak = exit
        .peak_memory
        .unwrap_or_else(|| panic!("no peak memory: {exit:?}"));
    assert!(peak <= limit, "peak {} MiB", peak >> 20);
    assert!(exit.oom_kills >= 1, "{exit:?}");
    assert!(seat_faults(&played.game, 1).is_empty(), "{exit:?}");
    assert_cleaned_up("fork_mem", &played);
    eprintln!(
        "fork_mem: peak {} MiB, {} OOM kills",
        peak >> 20,
        exit.oom_kills
    );
}

// ---------------------------------------------------------------------------------------
// 11. Disk filler

fn written(stderr: &str, place: &str) -> (u64, String) {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{place} wrote ")))
        .unwrap_or_else(|| panic!("no {place} report: {stderr}"));
    let (bytes, errors) = line.split_once(" errors ").unwrap();
    (bytes.parse().unwrap(), errors.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_filler_stops_at_its_scratch_quota() {
    let _g = serial();
    let played = play_lib("disk_fill.py", &[], 4, 10_000).await;
    let stderr = played.log.stderr_text();
    let (tmp, tmp_errors) = written(&stderr, "tmp");
    let (work, work_errors) = written(&stderr, "work");
    assert!(tmp_errors.contains("ENOSPC"), "{stderr}");
    assert!(work_errors.contains("ENOSPC"), "{stderr}");
    let quota = Limits::default().max_copy_bytes;
    assert!(
        tmp + work <= quota,
        "wrote {} MiB, the quota is {} MiB",
        (tmp + work) >> 20,
        quota >> 20
    );
    assert!(seat_faults(&played.game, 1).is_empty(), "{stderr}");
    assert_cleaned_up("disk_fill", &played);
    eprintln!("disk_fill: /tmp {} MiB, work {} MiB", tmp >> 20, work >> 20);
}

// ---------------------------------------------------------------------------------------
// 11b. Files in memory count against the memory limit

/// The scratch area is a tmpfs, held in memory: what the bot writes to /tmp and the copy
/// of its folder count against its memory limit. With 256 MiB, a bot whose folder copy
/// takes 160 MiB cannot allocate 128 MiB more, nor can one that wrote 160 MiB to /tmp.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_in_the_scratch_area_count_against_the_memory_limit() {
    let _g = serial();
    let limits = Limits {
        memory_mb: 256,
        ..Limits::default()
    };
    let dir = tempfile::tempdir_in("/dev/shm").unwrap();
    for file in ["common.py", "mem_after_files.py"] {
        std::fs::copy(Path::new(&hostile()).join(file), dir.path().join(file)).unwrap();
    }
    let args = |tmp: u64, alloc: u64| vec![tmp.to_string(), alloc.to_string()];
    // Measured: 160 MiB written to /tmp are charged to the bot's group.
    let played = play_lib_with(
        Sandbox::default(),
        limits.clone(),
        dir.path(),
        "mem_after_files.py",
        &args(160, 0),
        3,
        10_000,
    )
    .await;
    let exit = played.log.exit.clone().expect("an exit report");
    let peak = exit.peak_memory.expect("a peak memory");
    assert!(
        peak >= 160 << 20,
        "peak {} MiB: /tmp not charged",
        peak >> 20
    );
    assert!(seat_faults(&played.game, 1).is_empty(), "{exit:?}");
    eprintln!("tmp 160 MiB: peak {} MiB", peak >> 20);
    let played = play_lib_with(
        Sandbox::default(),
        limits.clone(),
        dir.path(),
        "mem_after_files.py",
        &args(160, 128),
        3,
        10_000,
    )
    .await;
    let exit = played.log.exit.clone().expect("an exit report");
    assert!(exit.oom_kills >= 1, "tmp + allocation: {exit:?}");
    // The folder's copy: 160 MiB of data files.
    let blob = vec![7u8; 1 << 20];
    let mut file = std::fs::File::create(dir.path().join("data.bin")).unwrap();
    for _ in 0..160 {
        std::io::Write::write_all(&mut file, &blob).unwrap();
    }
    drop(file);
    let played = play_lib_with(
        Sandbox::default(),
        limits,
        dir.path(),
        "mem_after_files.py",
        &args(0, 128),
        3,
        10_000,
    )
    .await;
    let exit = played.log.exit.clone().expect("an exit report");
    assert!(
        exit.oom_kills >= 1,
        "the folder's copy did not count: {exit:?}\n{}",
        played.log.stderr_text()
    );
    assert_cleaned_up("mem_after_files", &played);
}

// ---------------------------------------------------------------------------------------
// 12. A 50,000-level directory

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50000_level_directory_is_removed() {
    let _g = serial();
    let played = play_lib("deep_dirs.py", &[], 4, 10_000).await;
    let stderr = played.log.stderr_text();
    let depth: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("depth "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "no depth: {stderr}\n{:?}\n{:?}",
                played.log,
                played.game.events()
            )
        });
    assert!(depth > 1000, "{stderr}");
    assert!(seat_faults(&played.game, 1).is_empty(), "{stderr}");
    assert_cleaned_up("deep_dirs", &played);
    // The file-count quota stops the bot early: remove a full 50,000-level tree directly,
    // on a small stack (in memory, where a disk busy with other work cannot slow it down).
    let base = tempfile::tempdir_in("/dev/shm").unwrap();
    let root = base.path().join("deep");
    std::fs::create_dir(&root).unwrap();
    let mut current = nix::fcntl::open(
        &root,
        nix::fcntl::OFlag::O_DIRECTORY,
        nix::sys::stat::Mode::empty(),
    )
    .unwrap();
    for _ in 0..50_000 {
        nix::sys::stat::mkdirat(
            &current,
            "d",
            nix::sys::stat::Mode::from_bits_truncate(0o700),
        )
        .unwrap();
        current = nix::fcntl::openat(
            &current,
            "d",
            nix::fcntl::OFlag::O_DIRECTORY,
            nix::sys::stat::Mode::empty(),
        )
        .unwrap();
    }
    drop(current);
    let target = root.clone();
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || lrs_tourney::bots::sandbox::scratch::remove_tree(&target))
        .unwrap()
        .join()
        .expect("remove_tree survived")
        .unwrap();
    assert!(!root.exists());
    eprintln!("deep_dirs: the bot reached depth {depth}");
}

// ---------------------------------------------------------------------------------------
// 13. A JSON-lines bot in Java

const JAVA_BOT: &str = r#"import java.io.*;
import java.util.regex.*;

public class Bot {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        Pattern type = Pattern.compile("\"type\"\\s*:\\s*\"(\\w+)\"");
        Pattern option = Pattern.compile("\"options\"\\s*:\\s*\\[\\s*\\[\\s*(\\d+)\\s*,\\s*(\\d+)");
        String line;
        while ((line = in.readLine()) != null) {
            Matcher t = type.matcher(line);
            if (!t.find()) continue;
            String kind = t.group(1);
            if (kind.equals("start")) {
                Matcher o = option.matcher(line);
                o.find();
                System.out.println("{\"x\":" + o.group(1) + ",\"y\":" + o.group(2) + ",\"facing\":\"N\"}");
            } else if (kind.equals("turn")) {
                System.out.println("{\"card\":0}");
            } else if (kind.equals("game_over")) {
                break;
            }
            System.out.flush();
        }
    }
}
"#;

#[test]
fn a_java_bot_plays_under_the_default_limits() {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Bot.java"), JAVA_BOT).unwrap();
    let javac = Command::new("javac")
        .arg("Bot.java")
        .current_dir(dir.path())
        .output()
        .unwrap_or_else(|e| panic!("javac is needed for this test (install a JDK): {e}"));
    assert!(
        javac.status.success(),
        "javac failed: {}",
        String::from_utf8_lossy(&javac.stderr)
    );
    let bot_dir = dir.path().display().to_string();
    let run = play(&[
        "--bot-dir",
        &bot_dir,
        "--bot",
        "jsonl:java -cp . Bot",
        "--bot",
        "builtin:runner",
        "--games",
        "2",
        "--turns",
        "10",
    ]);
    assert_eq!(run.report["games"], 2);
    assert_no_faults(&run, 0, "the Java bot");
}

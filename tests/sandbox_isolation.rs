//! What a bot can see of the machine beyond its own container, each checked the way a
//! hostile student would try it, through the real binary: descriptors inherited from the
//! organiser's shell, host-wide counters in /proc used as a channel between two bots of a
//! game, the contest's own files under a system directory, and what a run leaves in
//! TMPDIR. CI runs as root, like the machines tournaments run on: nothing is skipped.
//!
//! A JSON-lines bot reports a successful attack by answering with garbage (faults).
//! The tests run one at a time (a lock): several start many processes.

mod common;

use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn hostile() -> String {
    common::repo().join("tests/hostile").display().to_string()
}

/// `lrs-tourney play --board gear-works ARGS --json` in `dir`, with `TMPDIR` set to `tmp`.
fn play_command(dir: &Path, tmp: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(common::bin());
    cmd.args(["play", "--board", "gear-works"])
        .args(args)
        .arg("--json")
        .env("TMPDIR", tmp)
        .current_dir(dir);
    cmd
}

/// The JSON report of a `play` that must have succeeded.
fn report(out: &Output, what: &str) -> Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what}: play failed ({:?}):\n{stdout}\n{stderr}",
        out.status
    );
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{what}: no JSON report ({e}):\n{stdout}\n{stderr}"))
}

#[track_caller]
fn assert_no_faults(report: &Value, slot: usize, what: &str, stderr: &[u8]) {
    assert_eq!(
        report["bots"][slot]["faults"].as_u64(),
        Some(0),
        "{what} faulted (its attack worked):\n{report:#}\n{}",
        String::from_utf8_lossy(stderr)
    );
}

// ---------------------------------------------------------------------------------------
// Descriptors

/// The organiser's shell has a log open on descriptor 7 (`exec 7>>organiser.log`) when it
/// starts `play`: the bot finds no descriptor but 0, 1 and 2, and writes nothing there.
#[test]
fn a_bot_gets_no_descriptor_inherited_from_the_organisers_shell() {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("organiser.log");
    let file = std::fs::File::create(&log).unwrap();
    let raw = std::os::fd::AsRawFd::as_raw_fd(&file);
    let hostile = hostile();
    let mut cmd = play_command(
        dir.path(),
        &std::env::temp_dir(),
        &[
            "--turns",
            "3",
            "--bot-dir",
            &hostile,
            "--bot",
            "jsonl:python3 fd_leak.py",
            "--bot",
            "builtin:runner",
        ],
    );
    // SAFETY: dup2 only, in the forked child before exec.
    unsafe {
        cmd.pre_exec(move || {
            if nix::libc::dup2(raw, 7) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let report = report(&out, "fd_leak");
    assert_no_faults(&report, 0, "the bot looking for descriptors", &out.stderr);
    let written = std::fs::read_to_string(&log).unwrap();
    assert!(written.is_empty(), "the bot wrote to fd 7: {written:?}");
}

// ---------------------------------------------------------------------------------------
// Host-wide counters

/// Two bots of one game: one starts and stops 100 threads and 64 MiB every other turn,
/// the other reads /proc's host-wide counters every turn. What the reader sees never
/// changes and its memory total is its own limit, so nothing can be passed that way.
#[test]
fn host_wide_proc_counters_carry_no_message_between_bots() {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let hostile = hostile();
    let limit = (1024u64 << 20).to_string();
    let spy = format!("jsonl:python3 proc_spy.py {limit}");
    let out = play_command(
        dir.path(),
        &std::env::temp_dir(),
        &[
            "--turns",
            "8",
            "--bot-dir",
            &hostile,
            "--bot",
            &spy,
            "--bot-dir",
            &hostile,
            "--bot",
            "jsonl:python3 proc_sender.py",
        ],
    )
    .output()
    .unwrap();
    let report = report(&out, "proc channel");
    assert_no_faults(&report, 0, "the bot reading /proc", &out.stderr);
    assert_no_faults(&report, 1, "the bot starting threads", &out.stderr);
}

// ---------------------------------------------------------------------------------------
// The contest's files

const FAST_BRACKET: &str = "name = \"Fast\"\nset_size = 8\ngames_per_series = 1\nadvance_per_set = 2\nturns_per_game = 4\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n";

/// A folder of world-readable copies of hostile bots (an organiser's umask is 022).
fn team_folder(dir: &Path, files: &[&str]) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    for file in files {
        let to = dir.join(file);
        std::fs::copy(Path::new(&hostile()).join(file), &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
}

/// The organiser keeps the contest under /opt, which is bound into every container: the
/// tournament file (with its seed), the database and every team's folder are covered
/// there, `check` lists what it covered, and a spy bot reads nothing of them.
#[test]
fn a_contest_kept_under_opt_is_hidden_from_the_bots() {
    use std::os::unix::fs::PermissionsExt;
    let _g = serial();
    let contest = tempfile::Builder::new()
        .prefix("lrs-tourney-contest-")
        .tempdir_in("/opt")
        .expect("a folder under /opt (the tests run as root)");
    let root = contest.path().canonicalize().unwrap();
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
    team_folder(&root.join("teams/spy"), &["common.py", "contest_spy.py"]);
    team_folder(&root.join("teams/victim"), &["common.py", "good.py"]);
    std::fs::write(root.join("teams/victim/secret.txt"), "the victim's code\n").unwrap();
    let victim = root.join("teams/victim");
    let config = format!(
        r#"name = "Hidden"
seed = 424242
bracket = "fast.toml"
[limits]
start_limit_ms = 5000
[[school]]
name = "Lab"
  [[school.team]]
  name = "Spy"
  bot = "python3 contest_spy.py {tournament} {victim} {secret} {db} {own}"
  dir = "teams/spy"
  [[school.team]]
  name = "Victim"
  bot = "python3 good.py"
  dir = "teams/victim"
"#,
        tournament = root.join("t.toml").display(),
        victim = victim.display(),
        secret = victim.join("secret.txt").display(),
        db = root.join("t.sqlite").display(),
        own = root.join("teams/spy").display(),
    );
    for (name, text) in [("t.toml", config.as_str()), ("fast.toml", FAST_BRACKET)] {
        std::fs::write(root.join(name), text).unwrap();
        std::fs::set_permissions(root.join(name), std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    common::ok_both(&root, &["run", "t.toml", "--quiet"]);
    let (logs, _) = common::ok_both(&root, &["logs", "t.toml", "lab/final", "--team", "Spy"]);
    assert!(logs.contains("HIDDEN "), "the spy did not report:\n{logs}");
    let seen: Vec<&str> = logs.lines().filter(|l| l.contains("SEEN ")).collect();
    assert!(seen.is_empty(), "a bot read the contest's files: {seen:#?}");
    let (check, _) = common::ok_both(&root, &["check", "t.toml", "--no-smoke"]);
    assert!(
        check.contains(&format!("\n  {}\n", root.display())),
        "check does not list the contest folder as covered:\n{check}"
    );
}

// ---------------------------------------------------------------------------------------
// TMPDIR

/// What is left in `tmp`, every entry at any depth.
fn left_in(tmp: &Path) -> Vec<PathBuf> {
    let mut left = Vec::new();
    let mut pending = vec![tmp.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(entry.path());
            }
            left.push(entry.path());
        }
    }
    left
}

/// Waits (generously) until a bot's scratch area exists under `tmp`.
fn wait_for_a_bot(tmp: &Path, child: &mut std::process::Child) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !left_in(tmp).iter().any(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("bot-"))
    }) {
        assert!(
            std::time::Instant::now() < deadline,
            "no bot started under {}",
            tmp.display()
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "the runner ended early"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `play` and `check` leave TMPDIR as they found it, and so do `play` ended by SIGTERM and
/// `run` ended by Ctrl-C (SIGINT) while their bots run (one of them a daemon).
#[test]
fn a_runner_leaves_nothing_in_tmpdir_however_it_ends() {
    use nix::sys::signal::{Signal, kill};
    let _g = serial();
    let hostile = hostile();
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let played = play_command(
        dir.path(),
        tmp.path(),
        &[
            "--turns",
            "2",
            "--bot-dir",
            &hostile,
            "--bot",
            "jsonl:python3 good.py",
            "--bot",
            "builtin:runner",
        ],
    )
    .output()
    .unwrap();
    report(&played, "play");
    assert_eq!(left_in(tmp.path()), Vec::<PathBuf>::new(), "after play");

    // A slow game with a daemon, ended by SIGTERM.
    let marker = format!("lrs-tmpdir-{}", std::process::id());
    let daemon = format!("jsonl:python3 daemon.py {marker}");
    let mut child = play_command(
        dir.path(),
        tmp.path(),
        &[
            "--turns",
            "60",
            "--bot-dir",
            &hostile,
            "--bot",
            &daemon,
            "--bot",
            "builtin:runner",
        ],
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    wait_for_a_bot(tmp.path(), &mut child);
    kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        Signal::SIGTERM,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert_eq!(left_in(tmp.path()), Vec::<PathBuf>::new(), "after SIGTERM");

    // A tournament run ended by Ctrl-C.
    team_folder(&dir.path().join("slow"), &["common.py", "daemon.py"]);
    let config = format!(
        r#"name = "Interrupted"
seed = 5
bracket = "fast.toml"
[[school]]
name = "Lab"
  [[school.team]]
  name = "Slow"
  bot = "python3 daemon.py {marker}"
  dir = "slow"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
"#
    );
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    std::fs::write(
        dir.path().join("fast.toml"),
        FAST_BRACKET.replace("turns_per_game = 4", "turns_per_game = 60"),
    )
    .unwrap();
    let mut child = Command::new(common::bin())
        .args(["run", "t.toml", "--quiet"])
        .env("TMPDIR", tmp.path())
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_a_bot(tmp.path(), &mut child);
    kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: 0 games stored"), "{stderr}");
    assert_eq!(left_in(tmp.path()), Vec::<PathBuf>::new(), "after SIGINT");

    // `check` with its smoke games (whether the slow bot passes does not matter here).
    let checked = Command::new(common::bin())
        .args(["check", "t.toml"])
        .env("TMPDIR", tmp.path())
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(checked.status.code().is_some(), "check died: {checked:?}");
    assert_eq!(left_in(tmp.path()), Vec::<PathBuf>::new(), "after check");
}

// ---------------------------------------------------------------------------------------
// Network namespaces, reused from game to game

/// Four bots a game, six games one after the other: each bot looks for an abstract UNIX
/// socket left by another bot as it starts, then leaves one, held by a daemon. Network
/// namespaces are reused once their bot is gone, so this is what would show one shared
/// between two bots of a game or handed on with something still in it.
#[test]
fn no_bot_meets_another_bots_abstract_socket_in_a_reused_network_namespace() {
    let _g = serial();
    let dir = tempfile::tempdir().unwrap();
    let hostile = hostile();
    let mut args = vec!["--games", "6", "--jobs", "1", "--turns", "3"];
    for _ in 0..4 {
        args.extend([
            "--bot-dir",
            &hostile,
            "--bot",
            "jsonl:python3 abstract_mark.py",
        ]);
    }
    let out = play_command(dir.path(), &std::env::temp_dir(), &args)
        .output()
        .unwrap();
    let report = report(&out, "abstract sockets");
    for slot in 0..4 {
        assert_no_faults(&report, slot, "a bot looking for marks", &out.stderr);
    }
}

//! Windward clients that send XML nested hundreds of thousands of levels deep
//! (`tests/hostile/ww_deep.py`), against the real binary: `play`, `run` (and running it
//! again) and `serve` each finish normally, every game completes, and each deep reply is
//! one `invalid` fault. A deep join is refused and the client joins again.

mod common;

use common::{lrs, ok_both as ok, repo};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A port nobody listens on right now (tests run in parallel: each asks the OS).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

fn hostile_dir() -> String {
    repo().join("tests/hostile").display().to_string()
}

/// The exit status of `out`, with its output when it is not a normal exit 0 (a crash by a
/// signal has no code: 134 in a shell is SIGABRT).
#[track_caller]
fn assert_success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn play_survives_a_deep_join_start_and_turn_and_records_each_as_a_fault() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let spec = format!("windward:python3 ww_deep.py {port} join start turn");
    let out = lrs(
        dir.path(),
        &[
            "play",
            "--board",
            "gear-works",
            "--bot-dir",
            &hostile_dir(),
            "--bot",
            &spec,
            "--bot",
            "builtin:runner",
            "--windward-listen",
            &listen,
            "--games",
            "2",
            "--turns",
            "8",
            "--time-limit-ms",
            "30000",
            "--json",
        ],
    );
    assert_success(&out);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 2);
    // Per game: the deep start reply and the deep reply to the first turn.
    assert_eq!(report["bots"][0]["faults"], 4, "{report}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("joined"), "{stderr}");
}

const BRACKET: &str = "name = \"Fast\"\nset_size = 8\ngames_per_series = 2\nadvance_per_set = 2\nturns_per_game = 8\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\"]\n";

/// Columns of `export standings`.
const GAMES_PLAYED: usize = 8;
const FAULTS: usize = 15;

fn standings(dir: &Path) -> Vec<Vec<String>> {
    let (csv, _) = ok(dir, &["export", "standings", "t.toml", "--out", "-"]);
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn column(rows: &[Vec<String>], team: &str, index: usize) -> u32 {
    rows.iter()
        .find(|r| r[1] == team)
        .unwrap_or_else(|| panic!("no team {team} in {rows:?}"))[index]
        .parse()
        .unwrap()
}

#[test]
fn a_tournament_with_a_deep_xml_client_finishes_and_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), BRACKET).unwrap();
    let config = format!(
        r#"name = "Deep"
seed = 5
bracket = "fast.toml"

[limits]
time_limit_ms = 30000
start_limit_ms = 30000

[windward]
listen = "127.0.0.1:{port}"

[[school]]
name = "Lab"
  [[school.team]]
  name = "Deep"
  bot = "python3 ww_deep.py {port} join start turn"
  dir = "{dir}"
  protocol = "windward"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
  [[school.team]]
  name = "Random"
  bot = "builtin:random"
"#,
        dir = hostile_dir()
    );
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    let out = lrs(dir.path(), &["run", "t.toml", "--quiet"]);
    assert_success(&out);
    let rows = standings(dir.path());
    for team in ["Deep", "Runner", "Random"] {
        assert_eq!(column(&rows, team, GAMES_PLAYED), 2, "{team}: {rows:?}");
    }
    assert_eq!(column(&rows, "Deep", FAULTS), 4, "{rows:?}");
    assert_eq!(column(&rows, "Runner", FAULTS), 0, "{rows:?}");

    // Running it again resumes a finished tournament: nothing to play, the same standings.
    let out = lrs(dir.path(), &["run", "t.toml", "--quiet"]);
    assert_success(&out);
    assert_eq!(standings(dir.path()), rows);
}

/// Waits for `child` to exit, for at most `limit`.
fn wait_for(child: &mut std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the process did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_survives_a_hand_started_deep_xml_client() {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_lrs-tourney"))
        .args([
            "serve",
            "--board",
            "gear-works",
            "--players",
            "1",
            "--games",
            "2",
            "--turns",
            "8",
            "--bot",
            "builtin:runner",
            "--port",
            "0",
            "--seed",
            "4",
            // 1000 s per answer: the deep replies are faults for their shape, never late.
            "--debug",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start lrs-tourney serve");
    let mut lines = std::io::BufReader::new(serve.stdout.take().unwrap()).lines();
    let first = lines.next().expect("serve prints its address").unwrap();
    let addr = first
        .strip_prefix("listening on ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
        .to_string();
    let (host, port) = addr.rsplit_once(':').unwrap();
    let mut client = Command::new("python3")
        .args([
            "ww_deep.py",
            port,
            "join",
            "start",
            "turn",
            host,
            "deep",
            "",
        ])
        .current_dir(hostile_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the client");
    // The rest of serve's output, read while it plays (a full pipe would stall it).
    let reader = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let status = wait_for(&mut serve, Duration::from_secs(300));
    let out = reader.join().unwrap().join("\n");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut serve.stderr.take().unwrap(), &mut err).unwrap();
    let _ = client.stdin.take().unwrap().write_all(b"exit\n");
    let client_status = wait_for(&mut client, Duration::from_secs(30));
    let mut client_err = String::new();
    std::io::Read::read_to_string(&mut client.stderr.take().unwrap(), &mut client_err).unwrap();
    assert!(
        status.success(),
        "status {status:?}\nstdout:\n{out}\nstderr:\n{err}\nclient:\n{client_err}"
    );
    assert!(client_status.success(), "{client_err}");
    assert!(client_err.contains("deep join refused"), "{client_err}");
    for g in 1..=2 {
        assert!(out.contains(&format!("game {g} of 2 over")), "{out}");
    }
    // Each game's row of the client (seat, name, score, flags, deaths, timeouts, invalid,
    // crash), not the totals' (seat, name, total).
    let rows: Vec<Vec<&str>> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|t| t.len() == 8 && t[1] == "deep")
        .collect();
    assert_eq!(rows.len(), 2, "{out}");
    for row in rows {
        assert_eq!(row[row.len() - 3..], ["0", "2", "0"], "{out}");
    }
}

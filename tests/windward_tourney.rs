//! Windward 2012 clients in tournaments and in `play`, and the bot logs stored per game:
//! real client processes (the shipped example client) joining a real TCP gateway, through
//! the real binary.

mod common;

use common::{bin, lrs, ok_both as ok, repo};
use std::path::Path;
use std::process::Command;

/// A port nobody listens on right now (tests run in parallel: each asks the OS).
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// A short bracket, so the tests stay quick.
const FAST_BRACKET: &str = "name = \"Fast\"\nset_size = 8\ngames_per_series = 3\nadvance_per_set = 2\nturns_per_game = 20\nfill_nationals_to_multiple_of = 8\nboards = [\"gear-works\", \"corridor-dash\"]\n";

fn client_dir() -> String {
    repo().join("examples/bots/windward").display().to_string()
}

/// Standings rows by team name: the cells of `export standings`.
fn standings(dir: &Path, target: &str) -> Vec<Vec<String>> {
    let (csv, _) = ok(dir, &["export", "standings", target, "--out", "-"]);
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

const GAMES_PLAYED: usize = 8;
const FAULTS: usize = 15;

fn school_config(port: u16, extra_team: &str) -> String {
    format!(
        r#"name = "Old clients"
seed = 11
bracket = "fast.toml"

[limits]
time_limit_ms = 5000
start_limit_ms = 5000

[windward]
listen = "127.0.0.1:{port}"

[[school]]
name = "Legacy"
  [[school.team]]
  name = "Old Timers"
  bot = "python3 client.py --port {port}"
  dir = "{dir}"
  protocol = "windward"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
  [[school.team]]
  name = "Random"
  bot = "builtin:random"
{extra_team}"#,
        dir = client_dir()
    )
}

#[test]
fn a_tournament_plays_a_windward_client_over_one_connection_per_series() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    std::fs::write(dir.path().join("t.toml"), school_config(port, "")).unwrap();
    let (_, stderr) = ok(dir.path(), &["run", "t.toml", "--plain"]);
    // One series, one client, one join: every game went over the same connection.
    assert_eq!(
        stderr.matches("\"Old Timers\" joined").count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("reconnected"), "{stderr}");
    let rows = standings(dir.path(), "t.toml");
    assert_eq!(column(&rows, "Old Timers", GAMES_PLAYED), 3);
    assert_eq!(
        column(&rows, "Old Timers", FAULTS),
        0,
        "the client answered every query in time with a hand card: {rows:?}"
    );
    // The client's log: it was ended by `exit` on stdin (status 0), stored once for the
    // series, with the last game (game 2: games count from 0, as in `export games`).
    let (logs, _) = ok(dir.path(), &["logs", "t.toml", "legacy/final"]);
    assert_eq!(logs.matches("== legacy/final").count(), 1, "{logs}");
    assert!(
        logs.contains("== legacy/final game 2 (run 0): Old Timers (Legacy): exit 0"),
        "{logs}"
    );
    // No client process outlives the run.
    let left = Command::new("pgrep")
        .args(["-f", &format!("client.py --port {port}")])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "client processes left: {}",
        String::from_utf8_lossy(&left.stdout)
    );

    // A rerun with the same seeds plays the series again over a new connection and
    // reproduces it (the example client is deterministic).
    let before = rows;
    ok(
        dir.path(),
        &["rerun", "t.toml", "legacy/final", "--reason", "check"],
    );
    assert_eq!(standings(dir.path(), "t.toml"), before);
}

#[test]
fn a_windward_client_that_never_joins_gets_crash_faults_and_the_games_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    // A client that runs but never connects (and ignores its arguments and stdin).
    std::fs::create_dir(dir.path().join("mute")).unwrap();
    let script = format!("never_joins_{port}.py");
    write_sleeper(&dir.path().join("mute"), &script);
    let extra = format!(
        "  [[school.team]]\n  name = \"Never Joins\"\n  bot = \"python3 {script}\"\n  dir = \"mute\"\n  protocol = \"windward\"\n"
    );
    // Long enough for the example client to join even on a loaded machine.
    let config =
        school_config(port, &extra).replace("start_limit_ms = 5000", "start_limit_ms = 2000");
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    let (_, stderr) = ok(dir.path(), &["run", "t.toml", "--quiet"]);
    // --quiet is quiet: the gateway's joins and refusals do not bypass it.
    assert!(!stderr.contains("windward:"), "{stderr}");
    let rows = standings(dir.path(), "t.toml");
    for team in ["Old Timers", "Runner", "Random", "Never Joins"] {
        assert_eq!(column(&rows, team, GAMES_PLAYED), 3, "{team}: {rows:?}");
    }
    // Every query of the absent client is a crash fault: a start query and a turn query
    // per turn while its robot lives (random fallback cards may kill it early).
    assert!(column(&rows, "Never Joins", FAULTS) >= 3 * 10, "{rows:?}");
    assert_eq!(column(&rows, "Old Timers", FAULTS), 0, "{rows:?}");
    let (logs, _) = ok(
        dir.path(),
        &["logs", "t.toml", "legacy/final", "--team", "Never Joins"],
    );
    assert!(logs.contains("did not join in time"), "{logs}");
    assert!(
        pids_matching(&script).is_empty(),
        "the client's process group outlived the series"
    );
}

#[test]
fn windward_results_do_not_depend_on_jobs_with_two_schools_on_one_gateway() {
    let run = |jobs: &str| -> (String, Vec<Vec<String>>) {
        let dir = tempfile::tempdir().unwrap();
        let port = free_port();
        std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
        let mut config = format!(
            "name = \"Two schools\"\nseed = 5\nbracket = \"fast.toml\"\n[limits]\ntime_limit_ms = 5000\n[windward]\nlisten = \"127.0.0.1:{port}\"\n"
        );
        for (school, builtins) in [("East", 3), ("West", 2)] {
            config += &format!(
                "[[school]]\nname = \"{school}\"\n  [[school.team]]\n  name = \"{school} Client\"\n  bot = \"python3 client.py --port {port}\"\n  dir = \"{}\"\n  protocol = \"windward\"\n",
                client_dir()
            );
            for i in 0..builtins {
                let ai = ["runner", "hunter", "random"][i % 3];
                config += &format!(
                    "  [[school.team]]\n  name = \"{school} {ai}\"\n  bot = \"builtin:{ai}\"\n"
                );
            }
        }
        std::fs::write(dir.path().join("t.toml"), config).unwrap();
        ok(dir.path(), &["run", "t.toml", "--quiet", "--jobs", jobs]);
        let (games, _) = ok(dir.path(), &["export", "games", "t.toml", "--out", "-"]);
        // Without the attempts column, which records how a run went.
        let games = games
            .lines()
            .map(|l| {
                let mut cells: Vec<&str> = l.split(',').collect();
                if cells.len() > 6 {
                    cells.remove(6);
                }
                cells.join(",")
            })
            .collect::<Vec<_>>()
            .join("\n");
        (games, standings(dir.path(), "t.toml"))
    };
    let (games1, standings1) = run("1");
    let (games2, standings2) = run("2");
    assert_eq!(games1, games2);
    assert_eq!(standings1, standings2);
    // Both clients played the school stage and the nationals with no fault.
    for team in ["East Client", "West Client"] {
        assert_eq!(column(&standings1, team, FAULTS), 0, "{standings1:?}");
        assert!(column(&standings1, team, GAMES_PLAYED) >= 3);
    }
}

#[test]
fn json_lines_bots_leave_their_capped_stderr_in_the_database() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    let config = format!(
        r#"name = "Logs"
seed = 2
bracket = "fast.toml"
[limits]
time_limit_ms = 200
start_limit_ms = 2000
[[school]]
name = "Lab"
  [[school.team]]
  name = "Flood"
  bot = "python3 flood.py"
  dir = "{hostile}"
  [[school.team]]
  name = "Starter"
  bot = "python3 bot.py"
  dir = "{starter}"
  [[school.team]]
  name = "Runner"
  bot = "builtin:runner"
"#,
        hostile = repo().join("tests/hostile").display(),
        starter = repo().join("examples/bots/python").display(),
    );
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let (flood, _) = ok(
        dir.path(),
        &[
            "logs",
            "t.toml",
            "lab/final",
            "--team",
            "Flood",
            "--game",
            "2",
        ],
    );
    assert_eq!(
        flood.matches("== lab/final game 2").count(),
        1,
        "{}",
        &flood[..flood.len().min(300)]
    );
    assert!(flood.contains("stderr limit of 1048576 bytes reached"));
    assert!(
        flood.len() < (1 << 20) + 4096,
        "the stored stderr is capped: {} bytes",
        flood.len()
    );
    let (all, _) = ok(
        dir.path(),
        &["logs", "t.toml", "lab/final", "--team", "Starter"],
    );
    assert_eq!(all.matches("== lab/final game").count(), 3, "{all}");
    let (builtin, _) = ok(
        dir.path(),
        &["logs", "t.toml", "lab/final", "--team", "Runner"],
    );
    assert_eq!(
        builtin.trim(),
        "Runner plays the built-in AI builtin:runner, which leaves no bot logs"
    );
    let out = lrs(dir.path(), &["logs", "t.toml", "lab/r9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no set \"lab/r9\""));
}

#[test]
fn play_seats_a_windward_client_for_all_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let spec = format!("windward:python3 client.py --port {port}");
    let client = client_dir();
    let play = |more: &[&str]| -> Vec<String> {
        let mut args = vec![
            "play",
            "--board",
            "gear-works",
            "--bot-dir",
            &client,
            "--bot",
            &spec,
            "--bot",
            "builtin:runner",
            "--windward-listen",
            &listen,
        ];
        args.extend_from_slice(more);
        args.into_iter().map(str::to_string).collect()
    };
    let args = play(&[
        "--games",
        "3",
        "--turns",
        "30",
        "--time-limit-ms",
        "5000",
        "--json",
    ]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (stdout, stderr) = ok(dir.path(), &args);
    assert_eq!(stderr.matches("joined").count(), 1, "{stderr}");
    assert!(
        stderr.contains("windward clients (may connect to"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["games"], 3);
    assert_eq!(report["bots"][0]["bot"], spec.as_str());
    assert_eq!(report["bots"][0]["faults"], 0, "{stdout}");

    // The gateway's port taken: a clear error before anything runs.
    let _taken = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    let args = play(&[]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = lrs(dir.path(), &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!("cannot listen on {listen}")),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn check_smoke_tests_windward_clients_through_the_gateway() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    std::fs::write(dir.path().join("good.toml"), school_config(port, "")).unwrap();
    let (stdout, _) = ok(dir.path(), &["check", "good.toml"]);
    assert!(
        stdout.contains("Old Timers (Legacy): ok (joined"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("note: [windward]"),
        "no note when all joined: {stdout}"
    );
    assert!(
        stdout.contains("seat binding       active")
            || stdout.contains("seat binding       MISSING"),
        "the clients' sandbox is reported: {stdout}"
    );
    std::fs::create_dir(dir.path().join("mute")).unwrap();
    let extra = "  [[school.team]]\n  name = \"Never Joins\"\n  bot = \"sleep 986.5\"\n  dir = \"mute\"\n  protocol = \"windward\"\n";
    let config =
        school_config(port, extra).replace("start_limit_ms = 5000", "start_limit_ms = 300");
    std::fs::write(dir.path().join("bad.toml"), config).unwrap();
    let out = lrs(dir.path(), &["check", "bad.toml"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("Never Joins (Legacy): FAILED: did not join within 300 ms"),
        "{stdout}"
    );
    // The 2012 sample clients connect to port 1707 whatever the configuration says: on
    // the host's network (no private namespace) a failed client under another port gets
    // the reason most likely.
    let private = lrs_tourney::bots::Sandbox::default().private_client_network();
    assert_eq!(
        stdout.contains(&format!(
            "note: [windward] listen uses port {port}, but the 2012 sample clients always connect to port 1707"
        )),
        !private,
        "{stdout}"
    );
    assert!(
        !dir.path().join("bad.sqlite").exists(),
        "check writes nothing"
    );
}

/// Writes a Python script that runs until killed and ignores its arguments and stdin.
fn write_sleeper(dir: &Path, name: &str) {
    std::fs::write(
        dir.join(name),
        "import time\nwhile True:\n    time.sleep(1)\n",
    )
    .unwrap();
}

/// Pids of processes whose command line contains `pattern`.
fn pids_matching(pattern: &str) -> Vec<String> {
    let out = Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn bots_die_with_a_runner_killed_by_sigkill_and_the_next_run_finishes() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    // Bots that ignore the end of their stdin, under names no other test uses: a JSON-lines
    // bot that never answers, and a Windward client that never joins.
    let mute = format!("mute_{port}.py");
    std::fs::create_dir(dir.path().join("mute")).unwrap();
    write_sleeper(&dir.path().join("mute"), &mute);
    // `sleep` itself would reject the client's three extra arguments.
    let sleeper = format!("sleeper_{port}.py");
    write_sleeper(&dir.path().join("mute"), &sleeper);
    let extra = format!(
        "  [[school.team]]\n  name = \"Mute\"\n  bot = \"python3 {mute}\"\n  dir = \"mute\"\n  [[school.team]]\n  name = \"Sleeper\"\n  bot = \"python3 {sleeper}\"\n  dir = \"mute\"\n  protocol = \"windward\"\n"
    );
    let config = school_config(port, &extra)
        .replace("time_limit_ms = 5000", "time_limit_ms = 200")
        .replace("start_limit_ms = 5000", "start_limit_ms = 500");
    std::fs::write(dir.path().join("t.toml"), config).unwrap();

    let mut runner = Command::new(bin())
        .args(["run", "t.toml", "--quiet"])
        .current_dir(dir.path())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while pids_matching(&sleeper).is_empty() || pids_matching(&mute).is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the bots never started"
        );
        assert!(runner.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    runner.kill().unwrap(); // SIGKILL: the runner gets no chance to clean up
    runner.wait().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let left: Vec<String> = [pids_matching(&sleeper), pids_matching(&mute)].concat();
        if left.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "bot processes outlived the runner: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // The next run resumes and finishes every game.
    ok(dir.path(), &["run", "t.toml", "--quiet"]);
    let rows = standings(dir.path(), "t.toml");
    assert_eq!(rows.len(), 5);
    for row in &rows {
        assert_eq!(row[GAMES_PLAYED], "3", "{row:?}");
    }
}

/// The 2012 clients always connect to port 1707. Given their own network namespace (as
/// root), a client finds its gateway there whatever `[windward] listen` says, so an
/// organiser whose port 1707 is taken can move the gateway; without one, the client
/// reaches the host's port 1707 and `check` says why it failed.
#[test]
fn a_client_with_the_built_in_port_joins_a_gateway_on_another_port() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    std::fs::write(dir.path().join("fast.toml"), FAST_BRACKET).unwrap();
    // The example client without --port connects to 1707, like the 2012 clients.
    let config = school_config(port, "").replace(&format!(" --port {port}"), "");
    assert!(config.contains("bot = \"python3 client.py\""), "{config}");
    std::fs::write(dir.path().join("t.toml"), config).unwrap();
    let private = lrs_tourney::bots::Sandbox::default().private_client_network();
    let out = lrs(dir.path(), &["check", "t.toml"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    if private {
        assert_eq!(out.status.code(), Some(0), "{stdout}");
        assert!(
            stdout.contains("Old Timers (Legacy): ok (joined"),
            "{stdout}"
        );
        ok(dir.path(), &["run", "t.toml", "--quiet"]);
        let rows = standings(dir.path(), "t.toml");
        assert_eq!(column(&rows, "Old Timers", 15), 0, "no faults: {rows:?}");
    } else {
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        assert!(
            stdout.contains("note: [windward] listen uses port"),
            "{stdout}"
        );
    }
}

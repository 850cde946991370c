//! Real bots against their own CPU time: how close a tournament of the Python starter kits
//! comes to the physical limit of the machine.
//!
//! For each game with a Python kit, a tournament of 16 teams in 2 schools of 8, every team
//! the kit (`bot = "python3 bot.py"`), is played by `run FILE --jobs 2` on a new SQLite
//! file, through the real binary: its wall time is measured. The physical limit is the
//! bots' own CPU time over 2 cores: the same tournament is played once more with every
//! bot wrapped in `capture.py`, which passes its input on to the kit and, when its input
//! ends, writes that input (compressed, base64) to stderr, where the store keeps it
//! (`logs`). The kits play a whole set in one process (docs/bots.md), so one input holds
//! every game the process played. Each captured input is then replayed outside the
//! orchestrator, one process at a time, `python3 bot.py < input > /dev/null` in the kit's
//! folder with the
//! environment the harness gives bots (its PATH, HOME, TMPDIR and LANG only), and the user and
//! system CPU of those replays (`getrusage` of the children) is summed. The kits are
//! deterministic, so the capturing tournament asks them what the timed one asked; its
//! champion is checked to be the same. RoboRally is left out: its kit searches until a
//! clock deadline, so its CPU time is its own choice, not a cost of its input.
//!
//! Printed per game: wall time, the bots' CPU, the limit, wall / limit (target <= 1.25),
//! the CPU of the timed run (orchestrator, containers and bots) over the bots' own (what
//! the harness costs, apart from idle time), and the load average before each timed run
//! (other work on the machine shows there).
//! `cargo bench --bench real_bots [GAME]`; `LRS_BENCH_ROUNDS` (default 1) timed runs per
//! game, `LRS_BENCH_BIN` another `lrs-tourney` binary to time (the limit does not depend
//! on it).

use nix::sys::resource::{UsageWho, getrusage};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Cores the limit divides the bots' CPU time by: `--jobs 2`.
const CORES: f64 = 2.0;

/// The games measured: name, bracket file and kit folder (both in this repository).
const GAMES: [(&str, &str, &str); 4] = [
    ("lrs", "brackets/windward.toml", "examples/bots/python"),
    (
        "robotgame",
        "brackets/robotgame.toml",
        "examples/bots/robotgame",
    ),
    ("robots", "brackets/robots.toml", "examples/bots/robots"),
    (
        "roborunner",
        "brackets/roborunner.toml",
        "examples/bots/roborunner",
    ),
];

/// Passes stdin on to the kit line by line and writes what it passed, compressed, to
/// stderr when stdin ends; the kit's own stderr is dropped so the capture fits in the
/// stored log.
const CAPTURE: &str = r#"import base64, subprocess, sys, zlib
child = subprocess.Popen([sys.executable, "bot.py"], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
seen = []
while True:
    line = sys.stdin.buffer.readline()
    if not line:
        break
    seen.append(line)
    try:
        child.stdin.write(line)
        child.stdin.flush()
    except BrokenPipeError:
        pass
try:
    child.stdin.close()
except BrokenPipeError:
    pass
child.wait()
sys.stderr.write("CAPTURE " + base64.b64encode(zlib.compress(b"".join(seen), 9)).decode() + "\n")
"#;

/// Turns every `CAPTURE` line of stdin into a file `N.in` in the folder named by argv[1].
const DECODE: &str = r#"import base64, sys, zlib
n = 0
for line in sys.stdin:
    if line.startswith("CAPTURE "):
        with open("%s/%d.in" % (sys.argv[1], n), "wb") as f:
            f.write(zlib.decompress(base64.b64decode(line[8:].strip())))
        n += 1
print(n)
"#;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes a 16-team tournament (2 schools of 8) whose every team runs `bot` in `kit`.
fn tournament(dir: &Path, name: &str, bracket: &str, bot: &str, kit: &Path) -> PathBuf {
    let mut text = format!(
        "name = \"Real bots {name}\"\nseed = 2026\nbracket = \"{}\"\ndatabase = \"{name}.sqlite\"\n\
         [limits]\ntime_limit_ms = 1000\n",
        repo().join(bracket).display()
    );
    for school in 0..2 {
        text += &format!("[[school]]\nname = \"School {school}\"\n");
        for team in 0..8 {
            text += &format!(
                "  [[school.team]]\n  name = \"Team {school}-{team}\"\n  bot = \"{bot}\"\n  dir = \"{}\"\n",
                kit.display()
            );
        }
    }
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).expect("tournament file");
    file
}

/// Plays `file` on a new database with `--jobs 2`; wall seconds, CPU seconds (the
/// orchestrator and its bots together) and the champion line.
fn run(bin: &Path, file: &Path) -> (f64, f64, String) {
    let db = file.with_extension("sqlite");
    for suffix in ["", "-wal", "-shm"] {
        let mut p = db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
    let cpu = children_cpu();
    let started = Instant::now();
    let out = Command::new(bin)
        .arg("run")
        .arg(file)
        .args(["--jobs", "2", "--quiet"])
        .stdin(Stdio::null())
        .output()
        .expect("start lrs-tourney");
    let secs = started.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("faults: none"),
        "{}: {text}{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let champion = text
        .lines()
        .find(|l| l.starts_with("champion:"))
        .unwrap_or_default()
        .to_string();
    (secs, cpu, champion)
}

/// The sets of a played tournament, as `status` names them.
fn sets(bin: &Path, db: &Path) -> Vec<String> {
    let out = Command::new(bin)
        .arg("status")
        .arg(db)
        .output()
        .expect("status");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let set = words.next()?;
            (set.contains('/') && words.next() == Some("done")).then(|| set.to_string())
        })
        .collect()
}

/// User plus system CPU seconds of the reaped children so far.
fn children_cpu() -> f64 {
    let u = getrusage(UsageWho::RUSAGE_CHILDREN).expect("getrusage");
    let secs = |t: nix::sys::time::TimeVal| t.tv_sec() as f64 + t.tv_usec() as f64 / 1e6;
    secs(u.user_time()) + secs(u.system_time())
}

/// The bots' own CPU seconds over the whole tournament, and the number of bot-games.
fn bots_cpu(bin: &Path, dir: &Path, name: &str, bracket: &str, kit: &Path) -> (f64, usize) {
    let wrapped = dir.join(format!("{name}-capture-kit"));
    std::fs::create_dir_all(&wrapped).expect("capture kit");
    std::fs::copy(kit.join("bot.py"), wrapped.join("bot.py")).expect("copy the kit");
    std::fs::write(wrapped.join("capture.py"), CAPTURE).expect("capture.py");
    let file = tournament(
        dir,
        &format!("{name}-capture"),
        bracket,
        "python3 capture.py",
        &wrapped,
    );
    let (_, _, champion) = run(bin, &file);
    let db = file.with_extension("sqlite");
    let inputs = dir.join(format!("{name}-inputs"));
    std::fs::create_dir_all(&inputs).expect("inputs dir");
    let mut logs = String::new();
    for set in sets(bin, &db) {
        let out = Command::new(bin)
            .arg("logs")
            .arg(&db)
            .arg(&set)
            .output()
            .expect("logs");
        assert!(out.status.success(), "logs {set}");
        logs += &String::from_utf8_lossy(&out.stdout);
    }
    let bot_games = logs.lines().filter(|l| l.starts_with("== ")).count();
    let mut decode = Command::new("python3")
        .args(["-c", DECODE])
        .arg(&inputs)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    {
        use std::io::Write;
        let mut stdin = decode.stdin.take().expect("stdin");
        stdin.write_all(logs.as_bytes()).expect("decode input");
    }
    let out = decode.wait_with_output().expect("decode");
    let captured: usize = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("decoded count");
    assert!(
        captured > 0 && captured <= bot_games,
        "{name}: {captured} captures of {bot_games} bot-games"
    );
    println!("{name}: {bot_games} bot-games captured in {captured} processes ({champion})");

    let home = dir.join(format!("{name}-home"));
    std::fs::create_dir_all(&home).expect("home");
    let before = children_cpu();
    for n in 0..captured {
        let input = std::fs::File::open(inputs.join(format!("{n}.in"))).expect("input");
        // The environment the harness gives a bot: `python3` is found on the same PATH
        // (not, say, a version manager's shim script on the caller's PATH).
        let status = Command::new("python3")
            .arg("bot.py")
            .current_dir(kit)
            .env_clear()
            .env("PATH", lrs_tourney::bots::process::BOT_PATH)
            .env("HOME", &home)
            .env("TMPDIR", &home)
            .env("LANG", "C.UTF-8")
            .stdin(input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("replay");
        assert!(status.success(), "{name}: replay {n} failed");
    }
    (children_cpu() - before, bot_games)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    // `cargo bench` passes `--bench`; a filter names games (or this benchmark).
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let bin = std::env::var_os("LRS_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_lrs-tourney")));
    let rounds: usize = std::env::var("LRS_BENCH_ROUNDS")
        .map(|r| r.parse().expect("LRS_BENCH_ROUNDS: a number"))
        .unwrap_or(1);
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bracket, kit) in GAMES {
        if !filters.is_empty() && !filters.iter().any(|f| f == name || f == "real_bots") {
            continue;
        }
        let kit = repo().join(kit);
        let file = tournament(dir.path(), name, bracket, "python3 bot.py", &kit);
        let mut walls = Vec::new();
        let mut champion = String::new();
        for _ in 0..rounds {
            let load = load();
            let (secs, run_cpu, c) = run(&bin, &file);
            println!(
                "{name}: run --jobs 2: {secs:.2} s wall, {run_cpu:.2} s CPU with its bots \
                 (load before: {load})"
            );
            walls.push((secs, run_cpu));
            champion = c;
        }
        let (cpu, bot_games) = bots_cpu(&bin, dir.path(), name, bracket, &kit);
        let limit = cpu / CORES;
        for (secs, run_cpu) in &walls {
            println!(
                "{name}: {bot_games} bot-games, bots' own CPU {cpu:.2} s, limit {limit:.2} s; \
                 wall {secs:.2} s = {:.2} x the limit (target <= 1.25); the run's CPU = {:.2} x \
                 the bots' own; {champion}",
                secs / limit,
                run_cpu / cpu
            );
        }
    }
}

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
//! A replay from a file hands a bot all its input at once, which no game can: a game asks
//! every seat a question, waits for all the answers and only then knows the next question.
//! So the same inputs are also played back by the smallest driver that asks as a game
//! does ([`floor`]): per set, every bot's next question, then every answer, and so on,
//! with the sets run as `run --jobs 2` runs them. Its wall time is what an orchestrator
//! that cost nothing would take with these games and bots on this machine (a floor, up to
//! the machine's noise); the run's wall over the floor is what the orchestrator itself
//! costs.
//!
//! Printed per game: the bots' CPU and the limit; then per round a timed run and a floor
//! right after it (so both meet the machine alike): the run's wall, wall / limit (target
//! <= 1.25), wall / floor, the run's CPU (orchestrator, containers and bots) over the
//! bots' own (what the harness costs, apart from idle time), the load average before it
//! (other work on the machine shows there), and the floor's wall and its bots' CPU.
//! `cargo bench --bench real_bots [-- GAME...]`; `LRS_BENCH_ROUNDS` (default 1) rounds per
//! game, `LRS_BENCH_BIN` another `lrs-tourney` binary to time (the limit and the floor do
//! not depend on it).

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

/// What the capturing tournament gave: the bots' own CPU seconds replayed from files, the
/// number of bot-games, and each set's captured inputs by stage, in the order played.
struct Captured {
    champion: String,
    cpu: f64,
    bot_games: usize,
    stages: Vec<(String, Vec<Vec<PathBuf>>)>,
}

/// Captures every bot's input in a tournament like the timed one and replays each from a
/// file, one process at a time.
fn bots_cpu(bin: &Path, dir: &Path, name: &str, bracket: &str, kit: &Path) -> Captured {
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
    let mut bot_games = 0;
    let mut captured = 0;
    let mut stages: Vec<(String, Vec<Vec<PathBuf>>)> = Vec::new();
    for set in sets(bin, &db) {
        let out = Command::new(bin)
            .arg("logs")
            .arg(&db)
            .arg(&set)
            .output()
            .expect("logs");
        assert!(out.status.success(), "logs {set}");
        let logs = String::from_utf8_lossy(&out.stdout);
        bot_games += logs.lines().filter(|l| l.starts_with("== ")).count();
        let folder = inputs.join(set.replace('/', "-"));
        std::fs::create_dir_all(&folder).expect("set inputs dir");
        let files: Vec<PathBuf> = (0..decode(&logs, &folder))
            .map(|n| folder.join(format!("{n}.in")))
            .collect();
        captured += files.len();
        let stage = set.split('/').next().unwrap_or_default().to_string();
        match stages.last_mut() {
            Some((last, sets)) if *last == stage => sets.push(files),
            _ => stages.push((stage, vec![files])),
        }
    }
    assert!(
        captured > 0 && captured <= bot_games,
        "{name}: {captured} captures of {bot_games} bot-games"
    );
    println!("{name}: {bot_games} bot-games captured in {captured} processes ({champion})");

    let home = dir.join(format!("{name}-home"));
    std::fs::create_dir_all(&home).expect("home");
    let before = children_cpu();
    for path in stages.iter().flat_map(|(_, sets)| sets.iter().flatten()) {
        let input = std::fs::File::open(path).expect("input");
        let status = kit_command(kit, &home)
            .stdin(input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("replay");
        assert!(
            status.success(),
            "{name}: replay of {} failed",
            path.display()
        );
    }
    Captured {
        champion,
        cpu: children_cpu() - before,
        bot_games,
        stages,
    }
}

/// The kit's bot with the environment the harness gives a bot: `python3` is found on the
/// same PATH (not, say, a version manager's shim script on the caller's PATH).
fn kit_command(kit: &Path, home: &Path) -> Command {
    let mut command = Command::new("python3");
    command
        .arg("bot.py")
        .current_dir(kit)
        .env_clear()
        .env("PATH", lrs_tourney::bots::process::BOT_PATH)
        .env("HOME", home)
        .env("TMPDIR", home)
        .env("LANG", "C.UTF-8");
    command
}

/// Writes every `CAPTURE` line of `logs` to a file `N.in` in `folder`; how many.
fn decode(logs: &str, folder: &Path) -> usize {
    let mut decode = Command::new("python3")
        .args(["-c", DECODE])
        .arg(folder)
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
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .expect("decoded count")
}

/// The floor no orchestrator gets under: the captured inputs played back as a game asks
/// them, by a driver that does nothing else. Each set is one thread that writes every
/// bot its next question (with the lines before it), then reads every bot's answer, and
/// so on, as a game asks all its seats each turn and waits for their answers; the sets of
/// the school stages are played at the same time, then the later stages, as `run --jobs 2`
/// plays this tournament. No engine, store, container or JSON parsing: what is left is
/// the bots' own thinking plus what it costs them to be asked one question at a time.
/// Wall seconds and the bots' CPU seconds.
fn floor(kit: &Path, home: &Path, stages: &[(String, Vec<Vec<PathBuf>>)]) -> (f64, f64) {
    let before = children_cpu();
    let started = Instant::now();
    let (schools, later): (Vec<_>, Vec<_>) = stages
        .iter()
        .partition(|(stage, _)| stage.starts_with("school"));
    for phase in [schools, later] {
        let sets: Vec<&Vec<PathBuf>> = phase.iter().flat_map(|(_, sets)| sets).collect();
        std::thread::scope(|scope| {
            for set in sets {
                scope.spawn(move || lockstep(kit, home, set));
            }
        });
    }
    (started.elapsed().as_secs_f64(), children_cpu() - before)
}

/// Plays one set's captured inputs in lockstep (see [`floor`]), with the same I/O as the
/// orchestrator's games: a current-thread tokio runtime, every seat asked at once and its
/// answer awaited.
fn lockstep(kit: &Path, home: &Path, inputs: &[PathBuf]) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    struct Seat {
        child: tokio::process::Child,
        stdin: Option<tokio::process::ChildStdin>,
        stdout: BufReader<tokio::process::ChildStdout>,
        lines: Vec<String>,
        next: usize,
    }
    /// Writes the seat's lines up to its next question and reads the answer; whether it
    /// had anything left to write.
    async fn step(seat: &mut Seat) -> bool {
        let Some(stdin) = seat.stdin.as_mut() else {
            return false;
        };
        let mut batch = String::new();
        let mut asked = false;
        while let Some(line) = seat.lines.get(seat.next) {
            seat.next += 1;
            batch.push_str(line);
            batch.push('\n');
            if asks_for_an_answer(line) {
                asked = true;
                break;
            }
        }
        if !batch.is_empty() {
            stdin
                .write_all(batch.as_bytes())
                .await
                .expect("write a question");
        }
        if asked {
            let mut answer = String::new();
            seat.stdout
                .read_line(&mut answer)
                .await
                .expect("read an answer");
            assert!(!answer.is_empty(), "a kit ended without answering");
        } else {
            seat.stdin = None;
        }
        !batch.is_empty()
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let mut seats: Vec<Seat> = inputs
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path).expect("captured input");
                let mut child = tokio::process::Command::from(kit_command(kit, home))
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .expect("start the kit");
                Seat {
                    stdin: child.stdin.take(),
                    stdout: BufReader::new(child.stdout.take().expect("stdout")),
                    child,
                    lines: text.lines().map(str::to_string).collect(),
                    next: 0,
                }
            })
            .collect();
        while futures_util::future::join_all(seats.iter_mut().map(step))
            .await
            .contains(&true)
        {}
        for mut seat in seats {
            drop(seat.stdin.take());
            assert!(
                seat.child.wait().await.expect("wait").success(),
                "a kit failed"
            );
        }
    });
}

/// Whether a message asks for one answer line: a `start` (Last Robot Standing) or a
/// `turn` (every game here); `hello` and `game_over` do not.
fn asks_for_an_answer(line: &str) -> bool {
    let message: serde_json::Value = serde_json::from_str(line).expect("a captured message");
    matches!(message["type"].as_str(), Some("start" | "turn"))
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
        let captured = bots_cpu(&bin, dir.path(), name, bracket, &kit);
        let (cpu, bot_games) = (captured.cpu, captured.bot_games);
        let limit = cpu / CORES;
        println!("{name}: {bot_games} bot-games, bots' own CPU {cpu:.2} s, limit {limit:.2} s");
        let home = dir.path().join(format!("{name}-home"));
        // The run and the floor alternate, so that both see the machine alike.
        for _ in 0..rounds {
            let load = load();
            let (secs, run_cpu, champion) = run(&bin, &file);
            assert_eq!(
                champion, captured.champion,
                "{name}: the timed run's champion differs from the capturing run's"
            );
            let (floor_wall, floor_cpu) = floor(&kit, &home, &captured.stages);
            println!(
                "{name}: run --jobs 2: {secs:.2} s wall = {:.2} x the limit (target <= 1.25), \
                 {:.2} x the floor; the run's CPU {run_cpu:.2} s = {:.2} x the bots' own; \
                 {champion} (load before: {load})",
                secs / limit,
                secs / floor_wall,
                run_cpu / cpu,
            );
            println!(
                "{name}: floor (the inputs played back in lockstep, nothing else): \
                 {floor_wall:.2} s wall = {:.2} x the limit, the bots' CPU {floor_cpu:.2} s = \
                 {:.2} x their own",
                floor_wall / limit,
                floor_cpu / cpu
            );
        }
    }
}

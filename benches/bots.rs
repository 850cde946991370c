//! The harness overhead per answer of JSON-lines bots, against the bare cost of a pipe round
//! trip: `pipe_round_trip` writes one line to a `cat` subprocess and reads it back;
//! `jsonl_answer` asks one turn query of the Rust starter kit in `--card0` mode through a
//! real `JsonlPlayer` on a current-thread runtime, as tournaments and `play` drive bots (the
//! printed summary also gives the same bot on plain pipes, and a multi-thread runtime); `game_60_turns_8_bots` plays a whole 60-turn game with eight such
//! bots (process start-up included) through `drive_game` with the default sandbox.
//!
//! Targets (reported, not asserted): median answer under 50 us; a 60-turn 8-bot game under
//! 100 ms.

use criterion::{Criterion, criterion_group, criterion_main};
use lrs_tourney::bots::{BotCommand, JsonlOptions};
use lrs_tourney::games::lrs::boards::load_board;
use lrs_tourney::games::lrs::engine::{
    Board, Game, GameConfig, Pending, StartReply, TurnQuery, TurnReply,
};
use lrs_tourney::games::lrs::remote::{
    GameSetup, JsonlPlayer, RemotePlayer, SeatPlayer, View, drive_game,
};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use tokio::runtime::Runtime;

const BOT: &str = "lrs-starter-bot";
const TURN_LIMIT: u16 = 60;
const TIME_LIMIT_MS: u64 = 1000;

/// A temporary bot directory holding only the starter kit binary (built if needed).
fn bot_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let manifest = root.join("examples/bots/rust/Cargo.toml");
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "--quiet", "--manifest-path"])
            .arg(&manifest)
            .status()
            .expect("run cargo for the starter kit");
        assert!(status.success(), "building the starter kit failed");
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::copy(
            root.join("examples/bots/rust/target/release").join(BOT),
            dir.path().join(BOT),
        )
        .expect("copy the starter kit binary");
        dir
    })
    .path()
}

fn card0_command() -> BotCommand {
    BotCommand {
        argv: vec![format!("./{BOT}"), "--card0".into()],
        dir: bot_dir().to_path_buf(),
    }
}

fn setup(board: &Arc<Board>, seat: usize, players: usize) -> GameSetup {
    GameSetup {
        seat,
        players: (0..players).map(|s| format!("bot{s}")).collect(),
        board: board.clone(),
        turn_limit: TURN_LIMIT,
        time_limit_ms: TIME_LIMIT_MS,
    }
}

fn view(game: &Game) -> View {
    View {
        turn: game.turn(),
        repair_on: game.repair_on(),
        robots: game.robots().to_vec(),
    }
}

/// A real first turn query: a 2-player game on gear-works, starts answered with the first
/// option facing as the query suggests.
fn first_turn(board: &Arc<Board>) -> (View, TurnQuery) {
    let mut game = Game::new(board.clone(), 2, 7, GameConfig::default()).unwrap();
    loop {
        match game.pending() {
            Pending::Start(queries) => {
                let replies: Vec<StartReply> = queries
                    .iter()
                    .map(|q| StartReply::Choose {
                        pos: q.options[0],
                        facing: lrs_tourney::games::lrs::engine::Direction::North,
                    })
                    .collect();
                game.answer_start(&replies).unwrap();
            }
            Pending::Turn(queries) => return (view(&game), queries[0]),
            Pending::Cards | Pending::Over => panic!("no turn query"),
        }
    }
}

/// One `cat` subprocess on plain pipes.
struct Cat {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Cat {
    fn new() -> Cat {
        let mut child = Command::new("cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn cat");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Cat {
            child,
            stdin,
            stdout,
            line: String::new(),
        }
    }

    fn round_trip(&mut self) {
        self.stdin
            .write_all(b"{\"type\":\"ping\",\"turn\":1}\n")
            .unwrap();
        self.stdin.flush().unwrap();
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        assert!(!self.line.is_empty());
    }
}

impl Drop for Cat {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The card0 bot on plain blocking pipes, asked the harness's own turn line: the bot's
/// share of an answer (process wake-ups, JSON parsing and printing), without the harness.
struct RawBot {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
    query: String,
}

impl RawBot {
    fn new(board: &Arc<Board>, v: &View, q: &TurnQuery) -> RawBot {
        let command = card0_command();
        let mut child = Command::new(command.dir.join(BOT))
            .arg("--card0")
            .current_dir(&command.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn the card0 bot");
        let mut stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut hello =
            lrs_tourney::games::lrs::remote::jsonl::messages::hello(&setup(board, 0, 2));
        hello.push('\n');
        stdin.write_all(hello.as_bytes()).unwrap();
        let mut query = lrs_tourney::games::lrs::remote::jsonl::messages::turn(1, v, q);
        query.push('\n');
        RawBot {
            child,
            stdin,
            stdout,
            line: String::new(),
            query,
        }
    }

    fn round_trip(&mut self) {
        self.stdin.write_all(self.query.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        assert!(self.line.contains("\"card\""), "{}", self.line);
    }
}

impl Drop for RawBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A card0 bot that has begun a game (its first answer, with start-up, already given).
fn started_player(rt: &Runtime, board: &Arc<Board>, v: &View, q: &TurnQuery) -> JsonlPlayer {
    let mut player = JsonlPlayer::new(card0_command(), JsonlOptions::default());
    rt.block_on(async {
        player.begin_game(&setup(board, 0, 2)).await;
        let reply = player.turn(v, q).await;
        assert!(
            matches!(reply, TurnReply::Play { card: 0, .. }),
            "card0 bot answered {reply:?} (log: {:?})",
            player.log()
        );
    });
    player
}

fn ask(rt: &Runtime, player: &mut JsonlPlayer, v: &View, q: &TurnQuery) {
    let reply = rt.block_on(player.turn(v, q));
    debug_assert!(matches!(reply, TurnReply::Play { card: 0, .. }));
    std::hint::black_box(reply);
}

/// Median and mean, in microseconds.
fn stats(mut xs: Vec<Duration>) -> (f64, f64) {
    xs.sort();
    let mean = xs.iter().sum::<Duration>().as_secs_f64() / xs.len() as f64;
    (xs[xs.len() / 2].as_secs_f64() * 1e6, mean * 1e6)
}

/// A quick manual measurement of both round trips, printed as one line.
fn summary(label: &str, rt: &Runtime, board: &Arc<Board>, v: &View, q: &TurnQuery) {
    const N: usize = 2000;
    let mut cat = Cat::new();
    for _ in 0..100 {
        cat.round_trip();
    }
    let pipe: Vec<Duration> = (0..N)
        .map(|_| {
            let t = Instant::now();
            cat.round_trip();
            t.elapsed()
        })
        .collect();
    let mut raw = RawBot::new(board, v, q);
    for _ in 0..100 {
        raw.round_trip();
    }
    let bot: Vec<Duration> = (0..N)
        .map(|_| {
            let t = Instant::now();
            raw.round_trip();
            t.elapsed()
        })
        .collect();
    drop(raw);
    let mut player = started_player(rt, board, v, q);
    for _ in 0..100 {
        ask(rt, &mut player, v, q);
    }
    let answer: Vec<Duration> = (0..N)
        .map(|_| {
            let t = Instant::now();
            ask(rt, &mut player, v, q);
            t.elapsed()
        })
        .collect();
    let end = view(&Game::new(board.clone(), 2, 7, GameConfig::default()).unwrap());
    rt.block_on(player.game_over(&end));
    let (pipe, pipe_mean) = stats(pipe);
    let (bot, bot_mean) = stats(bot);
    let (answer, answer_mean) = stats(answer);
    println!(
        "bots summary, {label} ({N} iterations each): median pipe round trip {pipe:.1} us, median \
         card0 bot on plain pipes {bot:.1} us, median harness answer {answer:.1} us \
         (harness share {:.1} us), ratio to the pipe {:.1}x (means {pipe_mean:.1} / \
         {bot_mean:.1} / {answer_mean:.1} us; target: answer < 50 us)",
        answer - bot,
        answer / pipe
    );
}

async fn play_game(board: &Arc<Board>, seed: u64) {
    const PLAYERS: usize = 8;
    let mut game = Game::new(
        board.clone(),
        PLAYERS,
        seed,
        GameConfig {
            turn_limit: TURN_LIMIT,
        },
    )
    .unwrap();
    let mut seats: Vec<SeatPlayer> = (0..PLAYERS)
        .map(|_| {
            SeatPlayer::Remote(Box::new(JsonlPlayer::new(
                card0_command(),
                JsonlOptions::default(),
            )))
        })
        .collect();
    let setups: Vec<GameSetup> = (0..PLAYERS).map(|s| setup(board, s, PLAYERS)).collect();
    drive_game(&mut game, &mut seats, &setups).await.unwrap();
    assert!(game.is_over());
    let faults = game.events().iter().filter(|e| e.kind.is_fault()).count();
    assert_eq!(faults, 0, "a card0 bot faulted");
}

fn bots(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let board = load_board("gear-works").unwrap();
    let (v, q) = first_turn(&board);
    // Tournaments and `play` drive JSON-lines bots from current-thread runtimes; the
    // multi-thread figure shows what a wake-up across threads costs.
    let current = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    summary("current-thread runtime", &current, &board, &v, &q);
    summary("multi-thread runtime", &rt, &board, &v, &q);

    let mut group = c.benchmark_group("bots");
    let mut cat = Cat::new();
    group.bench_function("pipe_round_trip", |b| b.iter(|| cat.round_trip()));
    drop(cat);

    let mut player = started_player(&current, &board, &v, &q);
    group.bench_function("jsonl_answer", |b| {
        b.iter(|| ask(&current, &mut player, &v, &q))
    });
    let end = view(&Game::new(board.clone(), 2, 7, GameConfig::default()).unwrap());
    current.block_on(player.game_over(&end));
    group.finish();

    let mut group = c.benchmark_group("bots");
    group.sample_size(10);
    let mut seed = 0;
    group.bench_function("game_60_turns_8_bots", |b| {
        b.iter(|| {
            seed += 1;
            current.block_on(play_game(&board, seed))
        })
    });
    group.finish();
}

criterion_group!(benches, bots);
criterion_main!(benches);

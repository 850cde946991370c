//! `play`: many games of the same bots on one board, with per-bot statistics.
//!
//! Game `g` uses seed `seed + g` and rotates the seats, so every bot starts from every start
//! square in turn. Games of built-in AIs only run on a rayon pool; games with JSON-lines bots
//! (`jsonl:COMMAND`) run on `jobs` threads, each with its own current-thread tokio runtime
//! and one game at a time, each bot a fresh process per game (the one place besides the
//! signal watcher that builds a runtime of its own: see [`play_games_threaded`]); games with
//! Windward clients (`windward:COMMAND`) are one series, played in order on the caller's
//! runtime. Both kinds of threads are started off the caller's runtime, from a blocking
//! thread ([`play_games`]). Each game's outcome depends only on its seed and its bots'
//! answers, and results are folded in game order, so `--jobs` never changes a figure.

pub mod lineup;
pub mod series;

pub use crate::games::lrs::remote::{LrsMatch, LrsSeat, play_lrs_match};
pub use crate::games::lrs::stats::{
    BotStats, Diagnosis, FaultKinds, GameSummary, STDERR_TAIL_LINES, summarize_game, tail_lines,
};

use crate::bots::SplitError;
use crate::bots::{BotCommand, JsonlOptions};
use crate::games::Arena;
use crate::games::lrs::ai::{BuiltinAi, FlagDistances};
use crate::games::lrs::engine::{
    Board, Game, GameConfig, GameError, MAX_PLAYERS, MIN_PLAYERS, Player, run_game,
};
use crate::games::lrs::remote::BotGameLog;
use crate::games::lrs::windward::DEFAULT_PORT;
use crate::games::lrs::windward::SeriesSeat;
use crate::tourney::model::ProgramError;
use rayon::prelude::*;
use series::{SeriesClient, SeriesHost, SeriesLogger};
use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// A bot as named on the command line (`builtin:NAME`, `jsonl:COMMAND` or
/// `windward:COMMAND`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotSpec {
    Builtin(BuiltinAi),
    /// A program speaking docs/bots.md, started afresh for every game.
    Jsonl(JsonlBot),
    /// A 2012 Windward client (docs/bots.md), started once for all the games and
    /// given `<host> <name> <token>` after its command.
    Windward(JsonlBot),
}

/// An external bot: its command as given, split into words, and the directory it runs
/// from (copied to a scratch directory for every game, or for the series). The same
/// [`Program`](crate::tourney::model::Program) a tournament's command bots are.
pub use crate::tourney::model::Program as JsonlBot;

/// Why a bot spec is not understood.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BotSpecError {
    #[error("unknown built-in AI {name:?}; expected one of: {}", builtin_names())]
    UnknownBuiltin { name: String },
    #[error(
        "bot {spec:?} has no kind; expected builtin:NAME (e.g. builtin:runner), jsonl:COMMAND or windward:COMMAND"
    )]
    MissingKind { spec: String },
    #[error(
        "unknown bot kind {kind:?} in {spec:?}; expected builtin:NAME, jsonl:COMMAND or windward:COMMAND"
    )]
    UnknownKind { kind: String, spec: String },
    #[error("bot {spec:?} has an empty command")]
    EmptyCommand { spec: String },
    #[error("bot command {command:?}: {error}")]
    BadCommand { command: String, error: SplitError },
}

fn builtin_names() -> String {
    BuiltinAi::ALL
        .iter()
        .map(|ai| ai.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl BotSpec {
    /// Parses `builtin:NAME` or `jsonl:COMMAND` (a JSON-lines bot run from the current
    /// directory; see [`BotSpec::with_dir`]). COMMAND is split into words like a shell
    /// does, without globbing or expansion.
    pub fn parse(spec: &str) -> Result<BotSpec, BotSpecError> {
        let Some((kind, rest)) = spec.split_once(':') else {
            return Err(BotSpecError::MissingKind {
                spec: spec.to_string(),
            });
        };
        match kind {
            "builtin" => BuiltinAi::from_name(rest)
                .map(BotSpec::Builtin)
                .ok_or_else(|| BotSpecError::UnknownBuiltin {
                    name: rest.to_string(),
                }),
            "jsonl" | "windward" => {
                let bot = JsonlBot::parse(rest, PathBuf::from(".")).map_err(|e| match e {
                    ProgramError::Split { command, error } => {
                        BotSpecError::BadCommand { command, error }
                    }
                    ProgramError::Empty => BotSpecError::EmptyCommand {
                        spec: spec.to_string(),
                    },
                })?;
                Ok(if kind == "jsonl" {
                    BotSpec::Jsonl(bot)
                } else {
                    BotSpec::Windward(bot)
                })
            }
            _ => Err(BotSpecError::UnknownKind {
                kind: kind.to_string(),
                spec: spec.to_string(),
            }),
        }
    }

    /// The same bot run from `dir` (only external bots have a directory).
    pub fn with_dir(self, dir: impl Into<PathBuf>) -> BotSpec {
        match self {
            BotSpec::Jsonl(bot) => BotSpec::Jsonl(JsonlBot {
                dir: dir.into(),
                ..bot
            }),
            BotSpec::Windward(bot) => BotSpec::Windward(JsonlBot {
                dir: dir.into(),
                ..bot
            }),
            other => other,
        }
    }

    /// Whether this bot runs outside the orchestrator.
    pub fn is_external(&self) -> bool {
        !matches!(self, BotSpec::Builtin(_))
    }

    fn player(
        &self,
        game_seed: u64,
        seat: usize,
        maps: &Arc<FlagDistances>,
    ) -> Box<dyn Player + Send> {
        match self {
            BotSpec::Builtin(ai) => ai.player_with(game_seed, seat, Some(maps.clone())),
            BotSpec::Jsonl(_) | BotSpec::Windward(_) => {
                unreachable!("external bots play through play_one_async")
            }
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Builtin(ai) => write!(f, "builtin:{}", ai.name()),
            BotSpec::Jsonl(bot) => write!(f, "jsonl:{}", bot.command),
            BotSpec::Windward(bot) => write!(f, "windward:{}", bot.command),
        }
    }
}

/// A checked request to play games.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    pub board: Arc<Board>,
    /// One entry per bot, in command-line order (the bot's index is its "slot").
    pub bots: Vec<BotSpec>,
    pub games: u32,
    pub seed: u64,
    pub config: GameConfig,
}

/// How external bots play (see [`play_with`]).
#[derive(Debug, Clone)]
pub struct ExternalOptions {
    /// Time for each answer (docs/bots.md).
    pub time_limit_ms: u64,
    /// Limits, sandbox, start-up time.
    pub bots: JsonlOptions,
    /// Where the gateway for `windward:` bots listens (the 2012 clients connect to port
    /// 1707 of the IP they are given).
    pub windward_listen: SocketAddr,
}

impl Default for ExternalOptions {
    fn default() -> ExternalOptions {
        ExternalOptions {
            time_limit_ms: 1000,
            bots: JsonlOptions::default(),
            windward_listen: SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, DEFAULT_PORT)),
        }
    }
}

/// Why games cannot be played as asked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("a game needs {MIN_PLAYERS} to {MAX_PLAYERS} bots, got {0}")]
    BotCount(usize),
    #[error("board {board:?} has {starts} start squares, too few for {bots} bots")]
    NotEnoughStarts {
        board: String,
        starts: usize,
        bots: usize,
    },
    #[error("--games must be at least 1")]
    NoGames,
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    #[error("--time-limit-ms must be at least 1")]
    NoTimeLimit,
    #[error("games with external bots are played by play_one_async")]
    NeedsAsync,
    #[error("cannot listen on {addr} for the Windward clients: {error}")]
    Gateway { addr: SocketAddr, error: String },
    #[error("game with seed {seed} failed: {source}")]
    Game { seed: u64, source: GameError },
}

impl PlayOptions {
    /// Checks that the bots fit the board before any game starts.
    pub fn validate(&self) -> Result<(), PlayError> {
        let n = self.bots.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n) {
            return Err(PlayError::BotCount(n));
        }
        if self.board.starts().len() < n {
            return Err(PlayError::NotEnoughStarts {
                board: self.board.name().to_string(),
                starts: self.board.starts().len(),
                bots: n,
            });
        }
        if self.games == 0 {
            return Err(PlayError::NoGames);
        }
        Ok(())
    }

    /// The seat of bot `slot` in game `g`: seats rotate by one each game.
    pub fn seat_of(&self, slot: usize, g: u32) -> usize {
        (slot + g as usize) % self.bots.len()
    }
}

/// Plays one game (index `g`) and summarises it per bot slot; `maps` are the board's AI
/// maps, shared by all games.
pub fn play_one(
    opts: &PlayOptions,
    g: u32,
    maps: &Arc<FlagDistances>,
) -> Result<GameSummary, PlayError> {
    if opts.bots.iter().any(BotSpec::is_external) {
        return Err(PlayError::NeedsAsync);
    }
    let seed = opts.seed.wrapping_add(u64::from(g));
    let k = opts.bots.len();
    let mut game = Game::new(opts.board.clone(), k, seed, opts.config)
        .map_err(|source| PlayError::Game { seed, source })?;
    // players[seat]: the bot whose rotation puts it in that seat.
    let mut by_seat: Vec<Option<Box<dyn Player + Send>>> = (0..k).map(|_| None).collect();
    for (slot, bot) in opts.bots.iter().enumerate() {
        let seat = opts.seat_of(slot, g);
        by_seat[seat] = Some(bot.player(seed, seat, maps));
    }
    let mut players: Vec<Box<dyn Player + Send>> = by_seat.into_iter().flatten().collect();
    run_game(&mut game, &mut players).map_err(|source| PlayError::Game { seed, source })?;
    let seat_of_slot: Vec<usize> = (0..k).map(|slot| opts.seat_of(slot, g)).collect();
    Ok(summarize_game(&game, &seat_of_slot))
}

/// Plays game `g` with external bots: each one a fresh process for this game.
pub async fn play_one_async(
    opts: &PlayOptions,
    external: &ExternalOptions,
    g: u32,
    maps: &Arc<FlagDistances>,
) -> Result<GameSummary, PlayError> {
    play_one_in_series(opts, external, g, maps, &HashMap::new()).await
}

/// Plays game `g`; Windward bots are played by their series' clients (`series`, by slot).
async fn play_one_in_series(
    opts: &PlayOptions,
    external: &ExternalOptions,
    g: u32,
    maps: &Arc<FlagDistances>,
    series: &HashMap<usize, SeriesSeat>,
) -> Result<GameSummary, PlayError> {
    let seed = opts.seed.wrapping_add(u64::from(g));
    let k = opts.bots.len();
    let mut seats = vec![LrsSeat::Absent; k];
    let mut names = vec![String::new(); k];
    for (slot, bot) in opts.bots.iter().enumerate() {
        let seat = opts.seat_of(slot, g);
        seats[seat] = match (bot, series.get(&slot)) {
            (_, Some(client)) => LrsSeat::Windward(client.clone()),
            (BotSpec::Builtin(ai), None) => LrsSeat::Builtin(*ai),
            (BotSpec::Jsonl(bot), None) => LrsSeat::Jsonl(BotCommand {
                argv: bot.argv.clone(),
                dir: bot.dir.clone(),
            }),
            // A Windward client not started (see `play_windward_series`).
            (BotSpec::Windward(_), None) => LrsSeat::Absent,
        };
        names[seat] = bot.to_string();
    }
    let (game, logs) = play_lrs_match(LrsMatch {
        board: &opts.board,
        maps,
        turn_limit: opts.config.turn_limit,
        seed,
        seats,
        names,
        time_limit_ms: external.time_limit_ms,
        options: &external.bots,
    })
    .await
    .map_err(|source| PlayError::Game { seed, source })?;
    let seat_of_slot: Vec<usize> = (0..k).map(|slot| opts.seat_of(slot, g)).collect();
    let mut summary = summarize_game(&game, &seat_of_slot);
    for (slot, &seat) in seat_of_slot.iter().enumerate() {
        if summary.per_slot[slot].faults == 0 {
            continue;
        }
        if let Some(log) = &logs[seat] {
            summary.diagnoses[slot] = Some(diagnose(g, log));
        }
    }
    Ok(summary)
}

/// What went wrong for a JSON-lines bot in game `g`, from its log.
fn diagnose(g: u32, log: &BotGameLog) -> Diagnosis {
    Diagnosis {
        game: g,
        start_error: log.spawn_error.clone(),
        exit: log.exit.as_ref().map(|e| {
            if e.oom_kills > 0 {
                format!("{} (over the memory limit)", e.status)
            } else {
                e.status.clone()
            }
        }),
        first_bad_line: log.first_bad_line.as_ref().map(|b| b.text.clone()),
        bad_line_reason: log.first_bad_line.as_ref().map(|b| b.why.clone()),
        stderr_tail: tail_lines(&log.stderr_text()),
    }
}

/// Plays every game of `opts` (with external bots), up to `jobs` at once, and returns the
/// summaries in game order.
///
/// Each of the `jobs` threads runs its own current-thread runtime and plays one game at a
/// time: a game's bots and the tasks reading their pipes then share one thread, so an
/// answer never waits for a wake-up across threads (measured: a median answer of about
/// 22 us on one thread, 50-90 us when the reader and the player sit on different workers
/// of a multi-thread runtime; docs/performance.md), and the games' engines and in-process
/// AIs use every core. This is why these threads build runtimes of their own instead of
/// running on the command's one runtime. The runtimes are built on new threads, so this may
/// be called from anywhere, but it blocks its caller until every game is played: async code
/// calls it through `tokio::task::spawn_blocking`, as [`play_games`] does.
pub fn play_games_threaded(
    opts: &PlayOptions,
    external: &ExternalOptions,
    jobs: usize,
    maps: &Arc<FlagDistances>,
) -> Result<Vec<GameSummary>, PlayError> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU32, Ordering};
    if external.time_limit_ms == 0 {
        return Err(PlayError::NoTimeLimit);
    }
    let next = AtomicU32::new(0);
    let results: Mutex<Vec<Option<Result<GameSummary, PlayError>>>> =
        Mutex::new((0..opts.games).map(|_| None).collect());
    let threads = jobs.clamp(1, opts.games.max(1) as usize);
    let worker = || -> Result<(), PlayError> {
        let runtime = crate::runtime::runtime().map_err(|e| PlayError::Threads(e.to_string()))?;
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            if g >= opts.games {
                return Ok(());
            }
            let outcome = runtime.block_on(play_one_async(opts, external, g, maps));
            results.lock().unwrap_or_else(|e| e.into_inner())[g as usize] = Some(outcome);
        }
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        for handle in handles {
            handle
                .join()
                .map_err(|_| PlayError::Threads("a game thread panicked".to_string()))??;
        }
        Ok::<(), PlayError>(())
    })?;
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err(PlayError::Threads("a game was not played".into()))))
        .collect()
}

/// Plays every game of `opts` in order as one series: each `windward:` bot is started
/// once, joins the gateway once and plays every game over that connection (as in a
/// tournament); `jsonl:` bots start afresh for each game. Games run one at a time, since
/// a client plays one game at a time.
pub async fn play_windward_series(
    opts: &PlayOptions,
    external: &ExternalOptions,
    maps: &Arc<FlagDistances>,
) -> Result<Vec<GameSummary>, PlayError> {
    let addr = external.windward_listen;
    let log: SeriesLogger = Arc::new(|line| eprintln!("{line}"));
    let host = SeriesHost::bind(addr, external.bots.startup_ms, log)
        .await
        .map_err(|e| PlayError::Gateway {
            addr,
            error: e.to_string(),
        })?;
    let arena = Arena::new(crate::games::lrs::play::LrsArena {
        board: opts.board.clone(),
        maps: maps.clone(),
        turn_limit: opts.config.turn_limit,
    });
    let starts = opts
        .bots
        .iter()
        .enumerate()
        .filter_map(|(slot, bot)| match bot {
            BotSpec::Windward(bot) => Some((slot, bot)),
            _ => None,
        })
        .map(|(slot, bot)| {
            let command = BotCommand {
                argv: bot.argv.clone(),
                dir: bot.dir.clone(),
            };
            (slot, command, format!("bot{}", slot + 1))
        })
        .collect();
    let clients: Vec<(usize, SeriesClient)> = host
        .start_all(
            &arena,
            u64::from(opts.games),
            external.time_limit_ms,
            &external.bots,
            starts,
        )
        .await
        .map_err(|error| PlayError::Gateway { addr, error })?;
    let series: HashMap<usize, SeriesSeat> = clients
        .iter()
        .map(|(slot, client)| (*slot, client.seat()))
        .collect();
    let mut summaries = Vec::with_capacity(opts.games as usize);
    let mut failure = None;
    for g in 0..opts.games {
        match play_one_in_series(opts, external, g, maps, &series).await {
            Ok(summary) => summaries.push(summary),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    drop(series);
    for (slot, client) in clients {
        let log = client.finish().await;
        if !log.joined {
            eprintln!(
                "{}: the client never joined ({}){}",
                opts.bots[slot],
                log.status,
                first_lines(&log.stderr)
            );
        }
        // A client's log covers the whole series: it goes with its first faulty game.
        if let Some(g) = summaries.iter().position(|s| s.per_slot[slot].faults > 0) {
            let summary = &mut summaries[g];
            let mut tail = tail_lines(&log.stderr);
            if tail.is_empty() {
                tail = log.stdout_tail[log.stdout_tail.len().saturating_sub(STDERR_TAIL_LINES)..]
                    .to_vec();
            }
            summary.diagnoses[slot] = Some(Diagnosis {
                game: g as u32,
                exit: Some(log.status.clone()),
                stderr_tail: tail,
                ..Diagnosis::default()
            });
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(summaries),
    }
}

/// The first lines of a log, for a one-line diagnostic.
fn first_lines(text: &str) -> String {
    let lines: Vec<&str> = text.lines().take(3).collect();
    if lines.is_empty() {
        String::new()
    } else {
        format!("; stderr: {}", lines.join(" | "))
    }
}

/// Plays every game on up to `jobs` threads and returns the per-bot totals in slot order.
/// External bots get the default [`ExternalOptions`].
pub async fn play(opts: &PlayOptions, jobs: usize) -> Result<Vec<BotStats>, PlayError> {
    play_with(opts, &ExternalOptions::default(), jobs).await
}

/// Like [`play`], with external bots run as `external` says.
pub async fn play_with(
    opts: &PlayOptions,
    external: &ExternalOptions,
    jobs: usize,
) -> Result<Vec<BotStats>, PlayError> {
    play_games(opts, external, jobs)
        .await
        .map(|(totals, _)| totals)
}

/// Like [`play_with`], also returning every game's summary (with its decision log, for
/// replays), in game order.
///
/// A series with Windward clients plays on the caller's runtime (one game at a time, its
/// gateway and clients shared by all games). Every other game plays off it: built-in AIs on
/// a rayon pool, JSON-lines bots on game threads with runtimes of their own
/// ([`play_games_threaded`]), both started from a blocking thread so that the caller's
/// runtime is never blocked and never asked to start another one inside it.
pub async fn play_games(
    opts: &PlayOptions,
    external: &ExternalOptions,
    jobs: usize,
) -> Result<(Vec<BotStats>, Vec<GameSummary>), PlayError> {
    opts.validate()?;
    if external.time_limit_ms == 0 {
        return Err(PlayError::NoTimeLimit);
    }
    let maps = Arc::new(FlagDistances::new(&opts.board));
    let summaries = if opts.bots.iter().any(|b| matches!(b, BotSpec::Windward(_))) {
        play_windward_series(opts, external, &maps).await?
    } else {
        let (on_threads, external) = (opts.clone(), external.clone());
        let played = tokio::task::spawn_blocking(move || {
            play_games_on_threads(&on_threads, &external, jobs, &maps)
        })
        .await;
        match played {
            Ok(summaries) => summaries?,
            Err(e) => match e.try_into_panic() {
                Ok(panic) => std::panic::resume_unwind(panic),
                Err(e) => return Err(PlayError::Threads(e.to_string())),
            },
        }
    };
    Ok((totals(opts, &summaries), summaries))
}

/// Plays every game of `opts` without a series: with external bots on game threads of
/// their own, else on a rayon pool of `jobs` threads (on the calling thread for one job).
/// Blocks until every game is played.
fn play_games_on_threads(
    opts: &PlayOptions,
    external: &ExternalOptions,
    jobs: usize,
    maps: &Arc<FlagDistances>,
) -> Result<Vec<GameSummary>, PlayError> {
    if opts.bots.iter().any(BotSpec::is_external) {
        return play_games_threaded(opts, external, jobs, maps);
    }
    if jobs == 1 {
        return (0..opts.games).map(|g| play_one(opts, g, maps)).collect();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| PlayError::Threads(e.to_string()))?;
    pool.install(|| {
        (0..opts.games)
            .into_par_iter()
            .map(|g| play_one(opts, g, maps))
            .collect()
    })
}

/// Folds game summaries (in game order) into per-bot totals.
fn totals(opts: &PlayOptions, summaries: &[GameSummary]) -> Vec<BotStats> {
    let mut totals: Vec<BotStats> = opts
        .bots
        .iter()
        .map(|b| BotStats::new(b.to_string()))
        .collect();
    for summary in summaries {
        for (slot, stats) in totals.iter_mut().enumerate() {
            stats.add(&summary.per_slot[slot]);
            stats.diagnose(summary.diagnoses[slot].as_ref());
        }
    }
    totals
}

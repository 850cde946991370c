//! Smoke tests of teams' bots (`lrs-tourney check`): a short game against a built-in
//! random AI, in the real sandbox and with the tournament's limits, to find bots that do
//! not start, do not join (Windward clients) or do not answer before a tournament is run.

use super::{BoxFuture, GameSetup, JsonlPlayer, RemotePlayer, SeatPlayer, View, drive_game};
use crate::bots::JsonlOptions;
use crate::bots::process::BotCommand;
use crate::games::SeatLog;
use crate::games::lrs::ai::BuiltinAi;
use crate::games::lrs::engine::{
    Board, Fault, Game, GameConfig, StartQuery, StartReply, TurnQuery, TurnReply,
};
use crate::games::lrs::windward::{SeriesClientLog, SeriesShape, WindwardHost};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The most stderr lines a failure report quotes.
pub const STDERR_LINES: usize = 5;

/// One bot to smoke-test.
#[derive(Debug, Clone)]
pub struct SmokeSpec {
    pub name: String,
    /// The bot's command, already split into words (at load).
    pub argv: Vec<String>,
    pub dir: PathBuf,
    pub board: Arc<Board>,
    pub seed: u64,
    /// The game's length: the tournament's, so a bot that fails late in a game fails here.
    pub turns: u16,
    pub time_limit_ms: u64,
    pub options: JsonlOptions,
}

/// What a smoke game showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmokeReport {
    pub passed: bool,
    /// `ok (...)` or `FAILED: ...`.
    pub verdict: String,
    /// The first lines of the bot's stderr (for failures).
    pub stderr: Vec<String>,
}

/// Times the first answer of the wrapped player.
struct Timed {
    inner: JsonlPlayer,
    first: Arc<Mutex<Option<u64>>>,
}

impl Timed {
    fn note(&self, started: Instant, fault: bool) {
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() && !fault {
            *first = Some(started.elapsed().as_millis() as u64);
        }
    }
}

impl RemotePlayer for Timed {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        self.inner.begin_game(setup)
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move {
            let started = Instant::now();
            let reply = self.inner.start(view, query).await;
            self.note(started, matches!(reply, StartReply::Fault(_)));
            reply
        })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move {
            let started = Instant::now();
            let reply = self.inner.turn(view, query).await;
            self.note(started, matches!(reply, TurnReply::Fault(_)));
            reply
        })
    }

    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()> {
        self.inner.game_over(view)
    }
}

fn failed(verdict: String, stderr: Vec<String>) -> SmokeReport {
    SmokeReport {
        passed: false,
        verdict: format!("FAILED: {verdict}"),
        stderr,
    }
}

/// Plays one smoke game of `spec`'s bot (seat 0) against `builtin:random` (seat 1).
pub async fn smoke_test(spec: &SmokeSpec) -> SmokeReport {
    if spec.argv.is_empty() {
        return failed("could not start: empty command".to_string(), Vec::new());
    }
    let argv = spec.argv.clone();
    let player = JsonlPlayer::new(
        BotCommand {
            argv,
            dir: spec.dir.clone(),
        },
        spec.options.clone(),
    );
    let log = player.log_handle();
    let first = Arc::new(Mutex::new(None));
    let timed = Timed {
        inner: player,
        first: first.clone(),
    };
    if let Err(why) = play_smoke_game(spec, Box::new(timed)).await {
        return failed(why, Vec::new());
    }
    let log = log.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let first = *first.lock().unwrap_or_else(|e| e.into_inner());
    judge(&log, first, spec.time_limit_ms)
}

/// Plays the smoke game: `remote` in seat 0 against `builtin:random` in seat 1, for the
/// spec's turns. The error says why the game could not be set up or played.
async fn play_smoke_game(spec: &SmokeSpec, remote: Box<dyn RemotePlayer>) -> Result<(), String> {
    let config = GameConfig {
        turn_limit: spec.turns,
    };
    let mut game = Game::new(spec.board.clone(), 2, spec.seed, config)
        .map_err(|e| format!("cannot set up the smoke game: {e}"))?;
    let mut seats = vec![
        SeatPlayer::Remote(remote),
        SeatPlayer::Local(BuiltinAi::Random.player_with(spec.seed, 1, None)),
    ];
    let players = vec![spec.name.clone(), "builtin:random".to_string()];
    let setups: Vec<GameSetup> = (0..2)
        .map(|seat| GameSetup {
            seat,
            players: players.clone(),
            board: spec.board.clone(),
            turn_limit: spec.turns,
            time_limit_ms: spec.time_limit_ms,
        })
        .collect();
    drive_game(&mut game, &mut seats, &setups)
        .await
        .map_err(|e| format!("the smoke game failed: {e}"))
}

/// The verdict on a finished smoke game.
fn judge(log: &SeatLog, first_ms: Option<u64>, time_limit_ms: u64) -> SmokeReport {
    let stderr: Vec<String> = log
        .stderr_text()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(STDERR_LINES)
        .map(str::to_string)
        .collect();
    let s = &log.stats;
    if let Some(e) = &log.spawn_error {
        return failed(format!("could not start: {e}"), stderr);
    }
    if s.timeouts > 0 {
        return failed(
            format!(
                "no answer within {time_limit_ms} ms (timeout x{}, answered {}/{} queries)",
                s.timeouts, s.answered, s.queries
            ),
            stderr,
        );
    }
    if s.invalid > 0 {
        let why = log
            .last_invalid
            .as_deref()
            .map(|r| format!(": {r}"))
            .unwrap_or_default();
        return failed(
            format!(
                "invalid answers x{} (answered {}/{} queries){why}",
                s.invalid, s.answered, s.queries
            ),
            stderr,
        );
    }
    if let Some(turn) = log.crashed_at_turn {
        let exit = log
            .exit
            .as_ref()
            .map(|e| format!(" ({})", e.status))
            .unwrap_or_default();
        return failed(format!("crashed at turn {turn}{exit}"), stderr);
    }
    if s.crashes > 0 || s.queries == 0 || s.answered < s.queries {
        return failed(
            format!("answered {}/{} queries", s.answered, s.queries),
            stderr,
        );
    }
    let first = first_ms.map_or_else(String::new, |ms| format!(", first answer in {ms} ms"));
    SmokeReport {
        passed: true,
        verdict: format!("ok (answered {}/{} queries{first})", s.answered, s.queries),
        stderr: Vec::new(),
    }
}

/// Counts a remote player's queries and fault replies.
struct Counted<P> {
    inner: P,
    counts: Arc<Mutex<FaultCounts>>,
}

/// Queries asked and faults returned, by kind.
#[derive(Debug, Clone, Copy, Default)]
struct FaultCounts {
    queries: u32,
    timeouts: u32,
    invalid: u32,
    crashes: u32,
}

impl FaultCounts {
    fn note(&mut self, fault: Option<Fault>) {
        self.queries += 1;
        match fault {
            Some(Fault::Timeout) => self.timeouts += 1,
            Some(Fault::Invalid) => self.invalid += 1,
            Some(Fault::Crash) => self.crashes += 1,
            None => {}
        }
    }
}

impl<P> Counted<P> {
    fn note(&self, fault: Option<Fault>) {
        self.counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .note(fault);
    }
}

impl<P: RemotePlayer> RemotePlayer for Counted<P> {
    fn begin_game<'a>(&'a mut self, setup: &'a GameSetup) -> BoxFuture<'a, ()> {
        self.inner.begin_game(setup)
    }

    fn start<'a>(&'a mut self, view: &'a View, query: &'a StartQuery) -> BoxFuture<'a, StartReply> {
        Box::pin(async move {
            let reply = self.inner.start(view, query).await;
            self.note(match reply {
                StartReply::Fault(f) => Some(f),
                _ => None,
            });
            reply
        })
    }

    fn turn<'a>(&'a mut self, view: &'a View, query: &'a TurnQuery) -> BoxFuture<'a, TurnReply> {
        Box::pin(async move {
            let reply = self.inner.turn(view, query).await;
            self.note(match reply {
                TurnReply::Fault(f) => Some(f),
                _ => None,
            });
            reply
        })
    }

    fn game_over<'a>(&'a mut self, view: &'a View) -> BoxFuture<'a, ()> {
        self.inner.game_over(view)
    }
}

/// Plays one smoke game of `spec`'s Windward client (seat 0, started with its
/// `<host> <team> <token>` and joined through `host`) against `builtin:random`.
pub async fn smoke_test_windward(host: &WindwardHost, spec: &SmokeSpec) -> SmokeReport {
    if spec.argv.is_empty() {
        return failed("could not start: empty command".to_string(), Vec::new());
    }
    let argv = spec.argv.clone();
    let command = BotCommand {
        argv,
        dir: spec.dir.clone(),
    };
    let shape = SeriesShape {
        games: 1,
        turn_limit: spec.turns,
        time_limit_ms: spec.time_limit_ms,
    };
    let started = Instant::now();
    let client = host.start(&command, &spec.name, &spec.options, shape).await;
    let joined_ms = started.elapsed().as_millis();
    let stderr_of = |log: &SeriesClientLog| -> Vec<String> {
        log.stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(STDERR_LINES)
            .map(str::to_string)
            .collect()
    };
    if client.spawn_error.is_some() || !client.joined {
        let log = client.finish().await;
        let why = if let Some(reason) = log.status.strip_prefix("not started") {
            format!(
                "could not start: {}",
                reason.trim_start_matches(':').trim_start()
            )
        } else {
            format!(
                "did not join within {} ms ({})",
                spec.options.startup_ms, log.status
            )
        };
        return failed(why, stderr_of(&log));
    }
    let counts = Arc::new(Mutex::new(FaultCounts::default()));
    let seat = Counted {
        inner: client.seat(),
        counts: counts.clone(),
    };
    let result = play_smoke_game(spec, Box::new(seat)).await;
    let log = client.finish().await;
    if let Err(why) = result {
        return failed(why, stderr_of(&log));
    }
    let c = *counts.lock().unwrap_or_else(|e| e.into_inner());
    let answered = c.queries - c.timeouts - c.invalid - c.crashes;
    if c.queries == 0 || answered < c.queries {
        return failed(
            format!(
                "answered {answered}/{} queries (timeout x{}, invalid x{}, disconnected x{})",
                c.queries, c.timeouts, c.invalid, c.crashes
            ),
            stderr_of(&log),
        );
    }
    SmokeReport {
        passed: true,
        verdict: format!(
            "ok (joined in {joined_ms} ms, answered {answered}/{} queries)",
            c.queries
        ),
        stderr: Vec::new(),
    }
}

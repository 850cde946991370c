//! `check`'s smoke games: every external bot of a tournament plays one whole game, of the
//! tournament's length, in seat 0 against the game's first built-in AI, in the real sandbox
//! with the tournament's limits, played the one way `play` plays ([`Lineup`]), so a bot that
//! does not start, does not join, does not answer or fails late in a game is found before the
//! day. JSON-lines bots play their games side by side; series clients one after another,
//! since each game's host listens where the tournament's does.

use super::bots::BotSpec;
use super::lineup::{ExternalOptions, Keep, Lineup};
use super::series::SeriesClientLog;
use crate::games::{Arena, BuiltinBot, SeatLog};
use futures_util::StreamExt;
use std::sync::{Arc, Mutex};

/// The most stderr lines a failure report quotes.
pub const STDERR_LINES: usize = 5;

/// One bot to smoke-test: its label in the report and how it plays.
#[derive(Debug, Clone)]
pub struct SmokeBot {
    pub label: String,
    pub bot: BotSpec,
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

/// Plays a smoke game of each of `bots` in `arena` (game seed `seed`) against `opponent`,
/// `jobs` JSON-lines games at a time; the reports are in the order of `bots`.
pub async fn smoke_games(
    arena: &Arena,
    opponent: BuiltinBot,
    bots: Vec<SmokeBot>,
    seed: u64,
    external: &ExternalOptions,
    jobs: usize,
) -> Vec<SmokeReport> {
    let lineup = |bot: &SmokeBot| Lineup {
        arena: arena.clone(),
        slots: vec![bot.bot.clone(), BotSpec::Builtin(opponent)],
        labels: vec![bot.label.clone(), format!("builtin:{}", opponent.name())],
        games: 1,
        seed,
        keep: Keep::Games,
    };
    let (clients, programs): (Vec<_>, Vec<_>) = bots
        .iter()
        .enumerate()
        .partition(|(_, b)| matches!(b.bot, BotSpec::Windward(_)));
    let mut reports: Vec<(usize, SmokeReport)> = futures_util::stream::iter(programs)
        .map(|(i, bot)| {
            let lineup = lineup(bot);
            async move { (i, smoke_program(&lineup, external).await) }
        })
        .buffered(jobs.max(1))
        .collect()
        .await;
    if !clients.is_empty() {
        // One host for every client's game, as a tournament has; what it says of the
        // clients goes with each verdict instead.
        let quiet = ExternalOptions {
            series_log: Arc::new(|_| {}),
            ..external.clone()
        };
        match quiet.bind_series_host().await {
            Ok(host) => {
                let external = ExternalOptions {
                    series_host: Some(Arc::new(host)),
                    ..external.clone()
                };
                for (i, bot) in clients {
                    reports.push((i, smoke_client(&lineup(bot), &external).await));
                }
            }
            Err(why) => {
                for (i, _) in clients {
                    reports.push((i, failed(why.clone(), Vec::new())));
                }
            }
        }
    }
    reports.sort_by_key(|(i, _)| *i);
    reports.into_iter().map(|(_, r)| r).collect()
}

fn failed(verdict: String, stderr: Vec<String>) -> SmokeReport {
    SmokeReport {
        passed: false,
        verdict: format!("FAILED: {verdict}"),
        stderr,
    }
}

/// The last non-empty lines of `text`: a traceback ends with what went wrong.
fn last_lines(text: &str) -> Vec<String> {
    super::faults::last_lines(text.lines().filter(|l| !l.trim().is_empty()), STDERR_LINES)
}

/// The smoke game of a JSON-lines bot (slot 0 of `lineup`).
async fn smoke_program(lineup: &Lineup, external: &ExternalOptions) -> SmokeReport {
    match lineup.play(1, external).await {
        Err(e) => failed(format!("the smoke game failed: {e}"), Vec::new()),
        Ok(played) => match played
            .logs
            .first()
            .and_then(|g| g.first())
            .cloned()
            .flatten()
        {
            Some(log) => judge(
                &log,
                played.totals.first().map_or(0, |t| t.faults),
                external.time_limit_ms,
            ),
            None => failed("the bot played no game".to_string(), Vec::new()),
        },
    }
}

/// The verdict on a JSON-lines bot's finished smoke game, in which its seat had `faults`
/// faults in all (the transport's and those of answers the game's rules refused).
fn judge(log: &SeatLog, faults: u64, time_limit_ms: u64) -> SmokeReport {
    let stderr = last_lines(&log.stderr_text());
    let s = &log.stats;
    // " at turn 5", " from turn 5": where a student starts looking.
    let turn = |word: &str| {
        log.first_fault_turn
            .map(|t| format!(" {word} turn {t}"))
            .unwrap_or_default()
    };
    if let Some(e) = &log.spawn_error {
        return failed(format!("could not start: {e}"), stderr);
    }
    if s.timeouts > 0 {
        return failed(
            format!(
                "no answer within {time_limit_ms} ms{} (timeout x{}, answered {}/{} queries); {}",
                turn("at"),
                s.timeouts,
                s.answered,
                s.queries,
                super::faults::timeout_hint(s.answered, s.late)
            ),
            stderr,
        );
    }
    if s.invalid > 0 {
        // The first bad line as `play` shows it, else the last reason.
        let why = match &log.first_bad_line {
            Some(bad) => {
                let hint = bad
                    .hint()
                    .map(|hint| format!("; {hint}"))
                    .unwrap_or_default();
                format!(": first bad line \"{}\" ({}){hint}", bad.text, bad.why)
            }
            None => log
                .last_invalid
                .as_deref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default(),
        };
        return failed(
            format!(
                "invalid answers x{}{} (answered {}/{} queries){why}",
                s.invalid,
                turn("from"),
                s.answered,
                s.queries
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
    let refused = faults.saturating_sub(u64::from(log.faults()));
    if refused > 0 {
        let first = log
            .first_bad_line
            .as_ref()
            .map(|bad| format!(": {}", bad.why))
            .unwrap_or_default();
        return failed(
            format!("{refused} answer(s) refused by the game's rules{first}"),
            stderr,
        );
    }
    let first = log
        .first_answer_ms
        .map_or_else(String::new, |ms| format!(", first answer in {ms} ms"));
    SmokeReport {
        passed: true,
        verdict: format!("ok (answered {}/{} queries{first})", s.answered, s.queries),
        stderr: Vec::new(),
    }
}

/// The smoke game of a series client (slot 0 of `lineup`): it must join the host, then
/// answer every query of the game.
async fn smoke_client(lineup: &Lineup, external: &ExternalOptions) -> SmokeReport {
    // What the host says about the client goes with the verdict, not to the terminal.
    let said = Arc::new(Mutex::new(Vec::<String>::new()));
    let options = ExternalOptions {
        series_log: {
            let said = said.clone();
            Arc::new(move |line| said.lock().unwrap_or_else(|e| e.into_inner()).push(line))
        },
        ..external.clone()
    };
    let played = match lineup.play(1, &options).await {
        Err(e) => return failed(format!("the smoke game failed: {e}"), Vec::new()),
        Ok(played) => played,
    };
    let Some(log) = played.clients.first().cloned().flatten() else {
        return failed("the client played no game".to_string(), Vec::new());
    };
    judge_client(
        &log,
        played.totals.first().map_or(0, |t| t.faults),
        played.outcomes.first().map_or(0, |o| o.turns),
        external.bots.startup_ms,
    )
}

/// The verdict on a series client's smoke game: `faults` of its seat in a game of `turns`.
fn judge_client(log: &SeriesClientLog, faults: u64, turns: u32, startup_ms: u64) -> SmokeReport {
    let stderr = last_lines(&log.stderr);
    if !log.joined {
        let why = match log.status.strip_prefix("not started") {
            Some(reason) => format!(
                "could not start: {}",
                reason.trim_start_matches(':').trim_start()
            ),
            None => format!("did not join within {startup_ms} ms ({})", log.status),
        };
        return failed(why, stderr);
    }
    if faults > 0 {
        return failed(
            format!(
                "{faults} fault(s) in a game of {turns} turns ({})",
                log.status
            ),
            stderr,
        );
    }
    SmokeReport {
        passed: true,
        verdict: format!("ok (joined, answered every query of {turns} turns)"),
        stderr: Vec::new(),
    }
}

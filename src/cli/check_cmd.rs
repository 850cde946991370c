//! `lrs-tourney check FILE`: validate a tournament file, then smoke-test its command bots
//! (one short game each against `builtin:random`, in the real sandbox): JSON-lines bots as
//! in a game, Windward clients through the gateway at `[windward] listen`.

use super::CliError;
use crate::games::lrs::remote::smoke::{SmokeReport, SmokeSpec, smoke_test, smoke_test_windward};
use crate::games::lrs::windward::DEFAULT_PORT;
use crate::tourney::config::check_summary;
use crate::tourney::model::{Bot, Protocol, Tournament};
use clap::Args;
use futures_util::StreamExt;
use std::path::PathBuf;

/// The seed of smoke games. They are no game of the tournament, so they take none of its
/// seeds (a bot seeing one learns nothing of them), and a fixed one makes a check repeatable.
const SMOKE_SEED: u64 = 1;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The tournament file (.toml).
    file: PathBuf,
    /// Only validate: do not start the command bots in smoke games.
    #[arg(long)]
    no_smoke: bool,
}

pub async fn run(args: CheckArgs) -> Result<(), CliError> {
    let t = super::run_cmd::load_and_warn(&args.file)?;
    super::interrupt::clean_up_on_signals(None, false);
    print!("{}", check_summary(&t));
    // On stdout with the summary it explains: the file is valid, this is advice.
    if t.seed.is_some() {
        println!(
            "warning: {}: `seed` is written in the file: anyone who reads it (a shared folder, a \
             repository, a bot in a careless sandbox) can predict every game; remove it and the \
             first run draws a secret seed and keeps it in the database",
            args.file.display()
        );
    }
    let external = t
        .teams
        .iter()
        .any(|team| matches!(team.bot, Bot::Command { .. }));
    if external {
        let sandbox = crate::bots::JsonlOptions::for_tournament(&t).sandbox;
        println!(
            "bot sandbox on this machine:\n{}",
            sandbox.protections().summary()
        );
        let covered = sandbox.covered_paths();
        if covered.is_empty() {
            println!(
                "contest files: none lies inside a directory bound into the bots' containers\n"
            );
        } else {
            println!(
                "contest files inside directories bound into the bots' containers, each \
                 covered there by an empty mount:"
            );
            for path in &covered {
                println!("  {}", path.display());
            }
            println!();
        }
        if crate::runner::has_series_teams(&t) {
            let port = t.limits.windward_listen.port();
            let clients = crate::games::lrs::windward::series::client_sandbox(&sandbox, port);
            println!(
                "Windward clients (they must reach {}):\n{}",
                t.limits.windward_listen,
                clients.protections().summary()
            );
        }
    }
    crate::runner::check_sandbox(&t).map_err(CliError::input)?;
    println!("ok: {} is valid", args.file.display());
    if !external || args.no_smoke {
        return Ok(());
    }
    let failed = smoke(&t).await?;
    if failed > 0 {
        return Err(CliError::failure(format!("check: {failed} bot(s) failed")));
    }
    Ok(())
}

/// Smoke-tests every command bot of `t` and prints a line per team; returns how many failed.
async fn smoke(t: &Tournament) -> Result<usize, CliError> {
    if !t.bracket.game.kind().speaks_windward() {
        return smoke_other_game(t).await;
    }
    let board_name = t
        .bracket
        .boards
        .first()
        .ok_or_else(|| CliError::input("the tournament has no boards"))?;
    let board =
        crate::games::lrs::boards::library::load_board(board_name).map_err(CliError::input)?;
    let options = crate::bots::JsonlOptions::for_tournament(t);
    let label = |i: usize| {
        let team = &t.teams[i];
        format!("{} ({})", team.name, t.schools[team.school.index()].name)
    };
    let spec = |i: usize, program: &crate::tourney::model::Program| SmokeSpec {
        name: label(i),
        argv: program.argv.clone(),
        dir: program.dir.clone(),
        board: board.clone(),
        seed: SMOKE_SEED,
        turns: t.bracket.turns_per_game,
        time_limit_ms: t.limits.time_limit_ms,
        options: options.clone(),
    };
    let mut specs = Vec::new();
    let mut windward = Vec::new();
    for (i, team) in t.teams.iter().enumerate() {
        match &team.bot {
            Bot::Builtin(_) => {}
            Bot::Command {
                program,
                protocol: Protocol::Jsonl,
            } => specs.push((i, spec(i, program))),
            Bot::Command {
                program,
                protocol: Protocol::Windward,
            } => windward.push((i, spec(i, program))),
        }
    }
    if !specs.is_empty() || !windward.is_empty() {
        println!(
            "smoke games: {} turns on {board_name} against builtin:random \
             (time limit {} ms, start limit {} ms)",
            t.bracket.turns_per_game, t.limits.time_limit_ms, t.limits.start_limit_ms
        );
    }
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut reports: Vec<(usize, SmokeReport)> = futures_util::stream::iter(specs)
        .map(|(i, spec)| async move { (i, smoke_test(&spec).await) })
        .buffered(jobs)
        .collect()
        .await;
    if !windward.is_empty() {
        // The gateway closes once the smoke games are played, before the verdicts.
        let windward_reports: Vec<(usize, SmokeReport)> = {
            let host = crate::runner::bind_series_host(t, crate::runner::ProgressMode::Plain)
                .await
                .map_err(CliError::failure)?
                .ok_or_else(|| CliError::failure("no Windward gateway was started"))?;
            futures_util::stream::iter(windward)
                .map(|(i, spec)| {
                    let host = host.windward();
                    async move { (i, smoke_test_windward(host, &spec).await) }
                })
                .buffered(jobs)
                .collect()
                .await
        };
        reports.extend(windward_reports);
        reports.sort_by_key(|(i, _)| *i);
    }
    let mut failed = 0;
    let mut windward_failed = false;
    for (i, report) in &reports {
        println!("  {}: {}", label(*i), report.verdict);
        if !report.passed {
            failed += 1;
            windward_failed |= t.teams[*i].bot.plays_series();
            for line in &report.stderr {
                println!("    stderr: {line}");
            }
        }
    }
    // The clients' sandbox says whether they can reach a gateway at 1707 (in their own
    // network namespace it is there too, whatever the configured port).
    let port = t.limits.windward_listen.port();
    let reaches_default = crate::games::lrs::windward::client_sandbox(&options.sandbox, port)
        .client_ports()
        .contains(&DEFAULT_PORT);
    if windward_failed && !reaches_default {
        println!(
            "  note: [windward] listen uses port {port}, but the 2012 sample clients always \
             connect to port {DEFAULT_PORT}; use port {DEFAULT_PORT}, or give the clients the \
             port some other way"
        );
    }
    Ok(failed)
}

/// The smoke games of a tournament of another game than Last Robot Standing: each JSON-lines
/// bot plays one game in seat 0 against the game's first built-in AI (`random`), in the real
/// sandbox; it passes when it answered every turn in time with a readable answer.
async fn smoke_other_game(t: &Tournament) -> Result<usize, CliError> {
    use crate::games::{Arena, BuiltinBot, SeatBot};
    let game = t.bracket.game.kind();
    let (random_name, _) = game.builtin_ais()[0];
    let random = BuiltinBot::parse(game, random_name)
        .ok_or_else(|| CliError::failure("the game has no built-in AI"))?;
    // A short game: at most 50 turns (RobotGame's 100 turns are short).
    let pool = Arena::pool(&t.bracket.game, &t.bracket.boards);
    let arena = Arena::load(&t.bracket.game, &pool[0], t.bracket.turns_per_game)
        .map_err(CliError::failure)?
        .shortened(50);
    let options = crate::bots::JsonlOptions::for_tournament(t);
    let bots: Vec<(usize, BotCommandOf)> = t
        .teams
        .iter()
        .enumerate()
        .filter_map(|(i, team)| team.bot.program().map(|p| (i, p.clone())))
        .collect();
    if bots.is_empty() {
        return Ok(0);
    }
    println!(
        "smoke games: one game of {} against builtin:{random_name} (time limit {} ms, start limit {} ms)",
        game.title(),
        t.limits.time_limit_ms,
        t.limits.start_limit_ms
    );
    let mut failed = 0;
    for (i, program) in bots {
        let team = &t.teams[i];
        let label = format!("{} ({})", team.name, t.schools[team.school.index()].name);
        let seats = [
            SeatBot::External(crate::bots::process::BotCommand {
                argv: program.argv.clone(),
                dir: program.dir.clone(),
            }),
            SeatBot::Builtin(random),
        ];
        let names = [team.name.clone(), format!("builtin:{random_name}")];
        let played = arena
            .play(crate::games::Match {
                seed: SMOKE_SEED,
                seats: seats.to_vec(),
                names: &names,
                time_limit_ms: t.limits.time_limit_ms,
                options: &options,
            })
            .await;
        let verdict = match &played {
            Err(e) => Err(e.clone()),
            Ok((outcome, logs)) => match logs.first().and_then(Option::as_ref) {
                Some(log) if log.spawn_error.is_some() => Err(format!(
                    "not started: {}",
                    log.spawn_error.clone().unwrap_or_default()
                )),
                Some(log) if log.faults() > 0 => Err(format!(
                    "{} timeouts, {} unreadable answers, {} turns silent after exiting{}",
                    log.timeouts(),
                    log.malformed(),
                    log.crashed_turns(),
                    log.first_bad_line
                        .as_ref()
                        .map(|l| format!(" (first bad line: {})", l.text))
                        .unwrap_or_default()
                )),
                _ => Ok(format!(
                    "ok ({} turns, score {})",
                    outcome.turns,
                    outcome.seats.first().map_or(0, |s| s.score)
                )),
            },
        };
        match verdict {
            Ok(text) => println!("  {label}: {text}"),
            Err(text) => {
                failed += 1;
                println!("  {label}: FAILED: {text}");
                if let Ok((_, logs)) = &played
                    && let Some(Some(exit)) = logs
                        .first()
                        .map(|l| l.as_ref().and_then(|l| l.exit.as_ref()))
                {
                    for line in crate::play::tail_lines(&exit.stderr.text()) {
                        println!("    stderr: {line}");
                    }
                }
            }
        }
    }
    Ok(failed)
}

type BotCommandOf = crate::tourney::model::Program;

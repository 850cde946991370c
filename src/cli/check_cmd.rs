//! `lrs-tourney check FILE`: validate a tournament file, then smoke-test its command bots
//! (one whole game each against the game's first built-in AI, in the real sandbox, played as
//! `play` plays: [`crate::play::smoke`]): JSON-lines bots as in a game, series clients
//! (Windward) through a host at `[windward] listen`.

use super::CliError;
use crate::games::{Arena, BuiltinBot};
use crate::play::series::{DEFAULT_SERIES_PORT, series_client_sandbox};
use crate::play::smoke::{SmokeBot, smoke_games};
use crate::play::{BotSpec, ExternalOptions};
use crate::tourney::config::check_summary;
use crate::tourney::model::{Bot, Protocol, Tournament};
use clap::Args;
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
            let clients = series_client_sandbox(&sandbox, port);
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

/// Smoke-tests every command bot of `t` (one game of the tournament's length in its first
/// arena, against the game's first built-in AI) and prints a line per team; returns how many
/// failed.
async fn smoke(t: &Tournament) -> Result<usize, CliError> {
    let game = t.bracket.game.kind();
    let (opponent_name, _) = game.builtin_ais()[0];
    let opponent = BuiltinBot::parse(game, opponent_name)
        .ok_or_else(|| CliError::failure("the game has no built-in AI"))?;
    let pool = Arena::pool(&t.bracket.game, &t.bracket.boards);
    let first = pool
        .first()
        .ok_or_else(|| CliError::input("the tournament has no arena"))?;
    let arena =
        Arena::load(&t.bracket.game, first, t.bracket.turns_per_game).map_err(CliError::input)?;
    let label = |i: usize| {
        let team = &t.teams[i];
        format!("{} ({})", team.name, t.schools[team.school.index()].name)
    };
    let mut teams = Vec::new();
    let mut bots = Vec::new();
    for (i, team) in t.teams.iter().enumerate() {
        let Bot::Command { program, protocol } = &team.bot else {
            continue;
        };
        let bot = match protocol {
            Protocol::Jsonl => BotSpec::Jsonl(program.clone()),
            Protocol::Windward => BotSpec::Windward(program.clone()),
        };
        teams.push(i);
        bots.push(SmokeBot {
            label: label(i),
            bot,
        });
    }
    if bots.is_empty() {
        return Ok(0);
    }
    println!(
        "smoke games: one game of {} turns in {} against builtin:{opponent_name} \
         (time limit {} ms, start limit {} ms)",
        arena.turn_limit(),
        first,
        t.limits.time_limit_ms,
        t.limits.start_limit_ms
    );
    let options = crate::bots::JsonlOptions::for_tournament(t);
    let external = ExternalOptions {
        time_limit_ms: t.limits.time_limit_ms,
        bots: options.clone(),
        series_listen: t.limits.windward_listen,
        ..ExternalOptions::default()
    };
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let reports = smoke_games(&arena, opponent, bots, SMOKE_SEED, &external, jobs).await;
    let mut failed = 0;
    let mut client_failed = false;
    for (&i, report) in teams.iter().zip(&reports) {
        println!("  {}: {}", label(i), report.verdict);
        if !report.passed {
            failed += 1;
            client_failed |= t.teams[i].bot.plays_series();
            for line in &report.stderr {
                println!("    stderr: {line}");
            }
        }
    }
    // The clients' sandbox says whether they can reach a host at the default port (in
    // their own network namespace it is there too, whatever the configured port).
    let port = t.limits.windward_listen.port();
    let reaches_default = series_client_sandbox(&options.sandbox, port)
        .client_ports()
        .contains(&DEFAULT_SERIES_PORT);
    if client_failed && !reaches_default {
        println!(
            "  note: [windward] listen uses port {port}, but the 2012 sample clients always \
             connect to port {DEFAULT_SERIES_PORT}; use port {DEFAULT_SERIES_PORT}, or give the clients the \
             port some other way"
        );
    }
    Ok(failed)
}

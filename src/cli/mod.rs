//! The command line: parse with clap, check the request, call the library, print.
//!
//! `run` builds the one async runtime of a command and runs the command on it; commands
//! and the library only `.await`.
//!
//! Only this module prints and picks exit codes: 0 success, 1 failure while running,
//! 2 bad usage or bad input (arguments, files).

mod boards_cmd;
mod check_cmd;
mod export_cmd;
mod games_cmd;
mod generate_cmd;
mod interrupt;
mod logs_cmd;
mod play_cmd;
mod play_out;
mod replay_cmd;
mod report_cmd;
mod rerun_cmd;
mod run_cmd;
mod scenario_cmd;
mod serve_cmd;
mod standings_cmd;
mod status_cmd;
mod target;
mod worker_cmd;

use crate::games::GameKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::fmt;
use std::process::ExitCode;

/// Tournament orchestrator for the Last Robot Standing bot-programming contest.
#[derive(Debug, Parser)]
#[command(name = "lrs-tourney", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run (or resume) a tournament: every stage, stored in its database.
    Run(run_cmd::RunArgs),
    /// Validate a tournament file and show what it would play.
    Check(check_cmd::CheckArgs),
    /// Show what is planned, running and done (tournament file or database).
    Status(status_cmd::StatusArgs),
    /// Print the standings as a table (tournament file or database).
    Standings(standings_cmd::StandingsArgs),
    /// Export standings, games or sets as CSV.
    Export(export_cmd::ExportArgs),
    /// Play a set again (disputes), keeping the old results as history.
    Rerun(rerun_cmd::RerunArgs),
    /// Show how the external bots of a set ended and what they wrote on stderr.
    Logs(logs_cmd::LogsArgs),
    /// Replay a stored game turn by turn from its seed and decisions, checked against the
    /// stored scores (`--text`, `--json`).
    Replay(replay_cmd::ReplayArgs),
    /// Write the tournament as a static site: champion, bracket, wild cards, a page per
    /// set and team, every game's replay (opens from file://, no network).
    Report(report_cmd::ReportArgs),
    /// Write a generated nationals tournament of built-in AIs (dry runs, benchmarks).
    Generate(generate_cmd::GenerateArgs),
    /// List the games this build plays (seats, arenas, built-in AIs).
    Games(games_cmd::GamesArgs),
    /// Play games between bots on one board and print per-bot statistics.
    Play(play_cmd::PlayArgs),
    /// List the shipped boards, or show one.
    Boards(boards_cmd::BoardsArgs),
    /// Run a rules scenario file and print the outcome.
    Scenario(scenario_cmd::ScenarioArgs),
    /// Serve Windward games to clients started by hand (students testing their client).
    Serve(serve_cmd::ServeArgs),
    /// Play the sets a planner (`run --workers 0`) deals, from a PostgreSQL database, until
    /// the tournament is complete (any number of workers, on any machines).
    Worker(worker_cmd::WorkerArgs),
}

impl Command {
    /// Runs the command on the caller's runtime. Commands that wait on nothing (a database,
    /// bots, the network) stay synchronous.
    async fn run(self) -> Result<(), CliError> {
        match self {
            Command::Run(args) => run_cmd::run(args).await,
            Command::Check(args) => check_cmd::run(args).await,
            Command::Generate(args) => generate_cmd::run(args),
            Command::Status(args) => status_cmd::run(args).await,
            Command::Standings(args) => standings_cmd::run(args).await,
            Command::Export(args) => export_cmd::run(args).await,
            Command::Rerun(args) => rerun_cmd::run(args).await,
            Command::Logs(args) => logs_cmd::run(args).await,
            Command::Replay(args) => replay_cmd::run(args).await,
            Command::Games(args) => games_cmd::run(args),
            Command::Report(args) => report_cmd::run(args).await,
            Command::Play(args) => play_cmd::run(args).await,
            Command::Boards(args) => boards_cmd::run(args),
            Command::Scenario(args) => scenario_cmd::run(args),
            Command::Serve(args) => serve_cmd::run(args).await,
            Command::Worker(args) => worker_cmd::run(args).await,
        }
    }
}

/// An error with the exit code it deserves.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// Bad usage or bad input: exit code 2.
    pub fn input(message: impl fmt::Display) -> CliError {
        CliError {
            code: 2,
            message: message.to_string(),
        }
    }

    /// A failure while running: exit code 1.
    pub fn failure(message: impl fmt::Display) -> CliError {
        CliError {
            code: 1,
            message: message.to_string(),
        }
    }
}

/// Raises the soft limit on open files to the hard limit: a tournament holds pipes and
/// sockets for many bots at once, and 1024 (a common default) is too few.
fn raise_open_file_limit() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE)
        && soft < hard
    {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, hard, hard);
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let matches = command_with_games().get_matches();
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => run(cli),
        Err(e) => e.exit(),
    }
}

/// The command line with the help of every `--game` and `--bot` naming the registered games
/// and their built-in AIs, so a game added to the registry is listed without editing a help
/// text.
fn command_with_games() -> clap::Command {
    let games: Vec<String> = GameKind::all()
        .map(|kind| format!("{} = {}", kind.id(), kind.title()))
        .collect();
    let game_help = format!(
        "The game: {}; `lrs-tourney games` lists them",
        games.join(", ")
    );
    let ais: Vec<String> = GameKind::all()
        .map(|kind| {
            let names: Vec<&str> = kind.builtin_ais().iter().map(|(name, _)| *name).collect();
            format!("{}: {}", kind.id(), names.join(", "))
        })
        .collect();
    let bot_help = format!(
        "A bot, once per seat: builtin:NAME, one of the game's AIs ({}), jsonl:COMMAND, a \
         program speaking JSON lines, or windward:COMMAND, a 2012 Windward client (run as \
         COMMAND <host> <name> <token>, once for all games; for the games with that \
         protocol). COMMAND is split into words like a shell does, without globbing or \
         variables: 'jsonl:java -cp lib/* Bot'",
        ais.join("; ")
    );
    Cli::command()
        .mut_subcommand("play", |play| {
            play.mut_arg("game", |a| a.help(game_help.clone()))
                .mut_arg("bots", |a| a.help(bot_help))
        })
        .mut_subcommand("generate", |generate| {
            generate.mut_arg("game", |a| a.help(game_help))
        })
}

/// Runs the command line `args` (the program name first), as the binary does, and returns
/// its exit code: for a program that embeds the library with games of its own
/// ([`crate::games::register`]), and for tests.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    match command_with_games()
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => run(cli),
        Err(e) => {
            let _ = e.print();
            ExitCode::from(2)
        }
    }
}

/// Runs the command on the one async runtime of the process, a current-thread runtime
/// ([`crate::runtime::runtime`]) built here: commands and the library only await, so no
/// runtime is ever started inside another (see [`crate::runtime`] for the two threads that
/// build their own). The runtime is dropped when the command returns, ending whatever it left
/// running, before the signal check and the clean-up below.
fn run(cli: Cli) -> ExitCode {
    raise_open_file_limit();
    let result = match crate::runtime::runtime() {
        Ok(runtime) => runtime.block_on(cli.command.run()),
        Err(e) => Err(CliError::failure(crate::runtime::runtime_error(e))),
    };
    interrupt::wait_for_a_signal_under_way();
    // Whatever the command made for bots in TMPDIR and the control groups goes with it.
    crate::bots::sandbox::remove_runner_files();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

//! `lrs-tourney play`: games between bots on one board, as a table or JSON.

use super::CliError;
use crate::boards::load_board;
use crate::engine::GameConfig;
use crate::play::{BotSpec, BotStats, PlayOptions, play};
use clap::Args;
use serde::Serialize;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Shipped board name (see `lrs-tourney boards`) or path to a board .toml file.
    #[arg(long)]
    board: String,
    /// A bot, once per seat: builtin:random, builtin:runner or builtin:hunter.
    #[arg(long = "bot", value_name = "SPEC", required = true)]
    bots: Vec<String>,
    /// Number of games; game g uses seed S+g and seats rotate by one each game.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    jobs: Option<usize>,
    /// Turns per game.
    #[arg(long, default_value_t = 60)]
    turns: u16,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PlayReport<'a> {
    games: u32,
    board: &'a str,
    seed: u64,
    bots: &'a [BotStats],
}

pub fn run(args: PlayArgs) -> Result<(), CliError> {
    let board = load_board(&args.board).map_err(CliError::input)?;
    let bots = args
        .bots
        .iter()
        .map(|s| BotSpec::parse(s).map_err(|e| CliError::input(format!("--bot {s}: {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    if args.turns == 0 {
        return Err(CliError::input("--turns must be at least 1"));
    }
    let jobs = match args.jobs {
        Some(0) => return Err(CliError::input("--jobs must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let opts = PlayOptions {
        board,
        bots,
        games: args.games,
        seed: args.seed,
        config: GameConfig {
            turn_limit: args.turns,
        },
    };
    opts.validate().map_err(CliError::input)?;
    let mut stats = play(&opts, jobs).map_err(CliError::failure)?;
    // The spec as given on the command line names each entry.
    for (s, given) in stats.iter_mut().zip(&args.bots) {
        s.bot = given.clone();
    }
    if args.json {
        let report = PlayReport {
            games: args.games,
            board: opts.board.name(),
            seed: args.seed,
            bots: &stats,
        };
        let text = serde_json::to_string_pretty(&report).map_err(CliError::failure)?;
        println!("{text}");
    } else {
        print!("{}", table(&opts, &stats));
    }
    Ok(())
}

fn table(opts: &PlayOptions, stats: &[BotStats]) -> String {
    let last = opts.seed.wrapping_add(u64::from(opts.games) - 1);
    let mut out = format!(
        "{} game(s) on {} (seeds {}..={}), seats rotating\n\n",
        opts.games,
        opts.board.name(),
        opts.seed,
        last
    );
    let width = stats.iter().map(|s| s.bot.len()).max().unwrap_or(3).max(3);
    out += &format!(
        "{:<width$}  {:>8} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>5} {:>6}\n",
        "bot", "mean", "total", "flags", "hits", "pushes", "push_kills", "deaths", "wins", "faults"
    );
    for s in stats {
        out += &format!(
            "{:<width$}  {:>8.2} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>5} {:>6}\n",
            s.bot,
            s.mean_score,
            s.total_score,
            s.flags,
            s.hits,
            s.pushes,
            s.push_kills,
            s.deaths,
            s.wins,
            s.faults
        );
    }
    out
}

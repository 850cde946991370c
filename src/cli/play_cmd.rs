//! `lrs-tourney play`: games between bots in one arena of any game, as a table or JSON
//! (printed by `play_out.rs`). Every game is played by one driver, `play::Lineup`.

use super::CliError;
use crate::bots::{JsonlOptions, Protections};
use crate::games::{Arena, ArenaFlags, GameKind};
use crate::play::series::series_client_sandbox;
use crate::play::{BotSpec, ExternalOptions, Keep, Lineup};
use clap::{ArgAction, ArgMatches, Args, FromArgMatches};
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Args)]
struct PlayFlags {
    /// The game (`lrs-tourney games` lists them; the help names them from the registry).
    #[arg(long, default_value = "lrs")]
    game: String,
    /// A shipped board's name (`lrs-tourney boards --game ID` lists them) or the path of a
    /// board file, for the games played on boards (default: the game's first).
    #[arg(long)]
    board: Option<String>,
    /// A bot, once per seat: builtin:NAME, jsonl:COMMAND or windward:COMMAND (the help
    /// names every game's AIs from the registry).
    #[arg(long = "bot", value_name = "SPEC", required = true, action = ArgAction::Append)]
    bots: Vec<String>,
    /// The directory of the external bot given by the next --bot (default: the current
    /// directory). The bot runs in a scratch copy of it, made for every game.
    #[arg(long = "bot-dir", value_name = "DIR", action = ArgAction::Append)]
    bot_dirs: Vec<PathBuf>,
    /// A name for the next --bot in the results (default: its spec; copies of one bot
    /// get #2, #3, ...).
    #[arg(long = "bot-name", value_name = "NAME", action = ArgAction::Append)]
    bot_names: Vec<String>,
    /// Where the gateway for windward: bots listens; they are given its IP (the 2012
    /// clients connect to port 1707, hard-coded in them).
    #[arg(
        long = "windward-listen",
        value_name = "IP:PORT",
        default_value = "127.0.0.1:1707"
    )]
    windward_listen: std::net::SocketAddr,
    /// Time for each answer of an external bot, in milliseconds.
    #[arg(long = "time-limit-ms", value_name = "MS", default_value_t = 1000)]
    time_limit_ms: u64,
    /// Number of games; game g uses seed S+g and seats rotate by one each game.
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seed of the first game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    jobs: Option<usize>,
    /// Turns per game, for the games that take a number (default: the game's).
    #[arg(long)]
    turns: Option<u16>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// `strict`: refuse to start external bots unless every protection of the sandbox is
    /// active on this machine (`best-effort`: use what the machine allows, and say what).
    #[arg(long, value_name = "MODE", default_value = "best-effort", value_parser = ["best-effort", "strict"])]
    sandbox: String,
    /// Write each game's replay into this directory, rebuilt from its decisions:
    /// `game-G.html` (the viewer: open it in a browser) and `game-G.json` (the format of
    /// `lrs-tourney replay --json`, with the game's seed).
    #[arg(long, value_name = "DIR")]
    replay: Option<PathBuf>,
}

/// `play`'s arguments: the flags, and for each `--bot` the `--bot-dir` given before it.
#[derive(Debug)]
pub struct PlayArgs {
    flags: PlayFlags,
    /// Per `--bot`, in order: the `--bot-dir` that precedes it (after the previous `--bot`).
    bot_dirs: Vec<Option<PathBuf>>,
    /// Per `--bot`, in order: the `--bot-name` that precedes it.
    bot_names: Vec<Option<String>>,
}

fn usage_error(message: String) -> clap::Error {
    clap::Error::raw(clap::error::ErrorKind::ArgumentConflict, message + "\n")
}

/// Assigns each `--bot-dir` (by its position on the command line) to the first `--bot`
/// after it.
fn assign_bot_dirs(
    bot_positions: &[usize],
    dirs: &[(usize, PathBuf)],
) -> Result<Vec<Option<PathBuf>>, String> {
    let named: Vec<(usize, String)> = dirs
        .iter()
        .map(|(p, d)| (*p, d.display().to_string()))
        .collect();
    Ok(assign_to_next_bot("--bot-dir", bot_positions, &named)?
        .into_iter()
        .map(|d| d.map(PathBuf::from))
        .collect())
}

/// Assigns each value of `flag` (by its position on the command line) to the first `--bot`
/// after it.
fn assign_to_next_bot(
    flag: &str,
    bot_positions: &[usize],
    values: &[(usize, String)],
) -> Result<Vec<Option<String>>, String> {
    let mut out = vec![None; bot_positions.len()];
    for (pos, value) in values {
        let Some(bot) = bot_positions.iter().position(|b| b > pos) else {
            return Err(format!(
                "{flag} {value} is not followed by a --bot; give {flag} just before its --bot"
            ));
        };
        if out[bot].is_some() {
            return Err(format!("two {flag} for one --bot (the second is {value})"));
        }
        out[bot] = Some(value.clone());
    }
    Ok(out)
}

/// The label of each bot in the results: its `--bot-name`, else its spec; a label that
/// repeats gets ` #2`, ` #3`, ... so that copies of one bot can be told apart.
fn bot_labels(specs: &[String], names: &[Option<String>]) -> Vec<String> {
    let base: Vec<String> = specs
        .iter()
        .zip(names)
        .map(|(spec, name)| name.clone().unwrap_or_else(|| spec.clone()))
        .collect();
    base.iter()
        .enumerate()
        .map(|(i, label)| {
            let before = base[..i].iter().filter(|l| *l == label).count();
            let total = base.iter().filter(|l| *l == label).count();
            if total > 1 && before > 0 {
                format!("{label} #{}", before + 1)
            } else {
                label.clone()
            }
        })
        .collect()
}

/// Where on the command line each value of the repeatable flag `id` stands.
fn positions(m: &ArgMatches, id: &str) -> Vec<usize> {
    m.indices_of(id).map(|i| i.collect()).unwrap_or_default()
}

/// The values of the repeatable flag `id` with where each stands on the command line.
fn positioned<T: Clone>(m: &ArgMatches, id: &str, values: &[T]) -> Vec<(usize, T)> {
    positions(m, id)
        .into_iter()
        .zip(values.iter().cloned())
        .collect()
}

impl FromArgMatches for PlayArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<PlayArgs, clap::Error> {
        let flags = PlayFlags::from_arg_matches(m)?;
        let bot_positions = positions(m, "bots");
        let dirs = positioned(m, "bot_dirs", &flags.bot_dirs);
        let bot_dirs = assign_bot_dirs(&bot_positions, &dirs).map_err(usage_error)?;
        let names = positioned(m, "bot_names", &flags.bot_names);
        let bot_names =
            assign_to_next_bot("--bot-name", &bot_positions, &names).map_err(usage_error)?;
        Ok(PlayArgs {
            flags,
            bot_dirs,
            bot_names,
        })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = PlayArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for PlayArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        PlayFlags::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        PlayFlags::augment_args_for_update(cmd)
    }
}

/// One protection in the JSON report.
#[derive(Serialize)]
struct ProtectionEntry {
    name: &'static str,
    active: bool,
    detail: String,
}

fn protection_entries(p: &Protections) -> Vec<ProtectionEntry> {
    p.list()
        .iter()
        .map(|(name, x)| ProtectionEntry {
            name,
            active: x.is_active(),
            detail: x.detail().to_string(),
        })
        .collect()
}

/// The options of `play`'s external bots: the defaults, with every `--bot-dir` and the
/// current directory (the folder of a bot without one) hidden from the bots.
fn play_options(args: &PlayFlags) -> JsonlOptions {
    let mut hidden = args.bot_dirs.clone();
    hidden.push(PathBuf::from("."));
    JsonlOptions::default().hiding(&hidden)
}

pub async fn run(args: PlayArgs) -> Result<(), CliError> {
    super::interrupt::clean_up_on_signals(None, false);
    let PlayArgs {
        flags: args,
        bot_dirs,
        bot_names: names,
    } = args;
    let kind = GameKind::parse(&args.game).map_err(|e| CliError::input(format!("--game: {e}")))?;
    let slots = bot_specs(&args, &bot_dirs, kind)?;
    let (arena, arena_name) = arena_of(&args, kind, slots.len())?;
    let jobs = match args.jobs {
        Some(0) => return Err(CliError::input("--jobs must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let lineup = Lineup {
        arena,
        labels: bot_labels(&args.bots, &names),
        slots,
        games: args.games,
        seed: args.seed,
        keep: if args.replay.is_some() {
            Keep::Games
        } else {
            Keep::Totals
        },
    };
    let external = ExternalOptions {
        time_limit_ms: args.time_limit_ms,
        bots: play_options(&args),
        series_listen: args.windward_listen,
        ..ExternalOptions::default()
    };
    let protections = announce_sandbox(&args, &lineup, &external)?;
    let played = lineup
        .play(jobs, &external)
        .await
        .map_err(CliError::failure)?;
    if let Some(dir) = &args.replay {
        super::play_out::write_replays(dir, &lineup, &arena_name, &played.outcomes)?;
    }
    let faults = crate::play::faults::fault_reports(&lineup, &played);
    if args.json {
        let report = super::play_out::PlayReport {
            game: kind.id(),
            games: args.games,
            arena: &arena_name,
            seed: args.seed,
            bots: &played.totals,
            external: &faults,
            sandbox: protections.as_ref().map(protection_entries),
        };
        let text = serde_json::to_string_pretty(&report).map_err(CliError::failure)?;
        println!("{text}");
    } else {
        print!(
            "{}",
            super::play_out::table(&lineup, &arena_name, &played.totals)
        );
        print!("{}", crate::play::faults::render(&faults));
    }
    Ok(())
}

/// The `--bot`s parsed for `kind`, each external one with its `--bot-dir` made absolute
/// (checked before any game starts); also checks the seat count and the flags every game
/// shares.
fn bot_specs(
    args: &PlayFlags,
    bot_dirs: &[Option<PathBuf>],
    kind: GameKind,
) -> Result<Vec<BotSpec>, CliError> {
    let mut slots = Vec::new();
    for (s, dir) in args.bots.iter().zip(bot_dirs) {
        let bot =
            BotSpec::parse(kind, s).map_err(|e| CliError::input(format!("--bot {s}: {e}")))?;
        let bot = match (dir, bot.program()) {
            (Some(dir), None) => {
                return Err(CliError::input(format!(
                    "--bot-dir {} is given for --bot {s}, which is built in",
                    dir.display()
                )));
            }
            (dir, Some(program)) => {
                let dir = dir.clone().unwrap_or_else(|| program.dir.clone());
                match std::fs::canonicalize(&dir) {
                    Ok(abs) if abs.is_dir() => bot.with_dir(abs),
                    _ => {
                        return Err(CliError::input(format!(
                            "--bot {s}: bot directory {} does not exist",
                            dir.display()
                        )));
                    }
                }
            }
            (None, None) => bot,
        };
        slots.push(bot);
    }
    let seats = kind.seats();
    if !seats.contains(&slots.len()) {
        return Err(CliError::input(format!(
            "a game of {} takes {} to {} bots, got {}",
            kind.id(),
            seats.start(),
            seats.end(),
            slots.len()
        )));
    }
    if args.games == 0 {
        return Err(CliError::input("--games must be at least 1"));
    }
    if args.time_limit_ms == 0 {
        return Err(CliError::input("--time-limit-ms must be at least 1"));
    }
    Ok(slots)
}

/// The arena of the games and its name in the results, as the game chooses it from
/// `--board` and `--turns` for `bots` bots.
fn arena_of(args: &PlayFlags, kind: GameKind, bots: usize) -> Result<(Arena, String), CliError> {
    kind.game()
        .play_arena(ArenaFlags {
            board: args.board.as_deref(),
            turns: args.turns,
            bots,
        })
        .map_err(CliError::input)
}

/// Says on stderr what protects the machine from the external bots (never run untrusted
/// code silently), refuses to start them with `--sandbox strict` unless every protection
/// is active, and gives the protections for the JSON report: the JSON-lines bots', else
/// the series clients'.
fn announce_sandbox(
    args: &PlayFlags,
    lineup: &Lineup,
    external: &ExternalOptions,
) -> Result<Option<Protections>, CliError> {
    let has_jsonl = lineup
        .slots
        .iter()
        .any(|b| b.is_external() && !b.is_series_client());
    let jsonl = has_jsonl.then(|| external.bots.sandbox.protections());
    let clients = lineup.has_series_clients().then(|| {
        series_client_sandbox(&external.bots.sandbox, external.series_listen.port()).protections()
    });
    if let Some(p) = &jsonl {
        eprintln!("{}", p.one_line());
    }
    if let Some(p) = &clients {
        eprintln!(
            "windward clients (may connect to {}): {}",
            external.series_listen,
            p.one_line()
        );
    }
    if args.sandbox == "strict" {
        for p in jsonl.iter().chain(&clients) {
            p.require_all().map_err(CliError::input)?;
        }
    }
    Ok(jsonl.or(clients))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bot_dir_belongs_to_the_next_bot() {
        let dirs = vec![(2, PathBuf::from("a")), (8, PathBuf::from("c"))];
        assert_eq!(
            assign_bot_dirs(&[4, 6, 10], &dirs).unwrap(),
            vec![Some(PathBuf::from("a")), None, Some(PathBuf::from("c"))]
        );
        assert!(assign_bot_dirs(&[4], &[(6, PathBuf::from("late"))]).is_err());
        assert!(
            assign_bot_dirs(&[6], &[(2, PathBuf::from("x")), (4, PathBuf::from("y"))]).is_err()
        );
    }

    #[test]
    fn clap_reports_positions_of_bot_and_bot_dir() {
        use clap::{CommandFactory, Parser};
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            play: PlayArgs,
        }
        let w = Wrap::try_parse_from([
            "x",
            "--board",
            "b",
            "--bot",
            "builtin:runner",
            "--bot-dir",
            "teams/a",
            "--bot",
            "jsonl:python3 bot.py",
            "--bot",
            "jsonl:./b",
        ])
        .unwrap();
        assert_eq!(
            w.play.bot_dirs,
            vec![None, Some(PathBuf::from("teams/a")), None]
        );
        assert_eq!(w.play.flags.time_limit_ms, 1000);
        let err = Wrap::try_parse_from("x --board b --bot builtin:runner --bot-dir d".split(' '))
            .err()
            .unwrap();
        assert!(err.to_string().contains("not followed by a --bot"), "{err}");
        Wrap::command().debug_assert();
    }
}

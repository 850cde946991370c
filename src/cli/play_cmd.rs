//! `lrs-tourney play`: games between bots on one board, as a table or JSON.

use super::CliError;
use crate::bots::{JsonlOptions, Protections};
use crate::games::lrs::boards::load_board;
use crate::games::lrs::engine::GameConfig;
use crate::games::lrs::windward::series::client_sandbox;
use crate::games::{Arena, BuiltinBot, GameKind, SeatBot, SeatLog};
use crate::play::lineup::Lineup;
use crate::play::{BotSpec, BotStats, ExternalOptions, GameSummary, PlayOptions, play_games};
use clap::{ArgAction, ArgMatches, Args, FromArgMatches};
use serde::Serialize;
use std::path::PathBuf;

/// The flags of `play`; [`PlayArgs`] adds which `--bot-dir` belongs to which `--bot`.
#[derive(Debug, Args)]
struct PlayFlags {
    /// The game: `lrs` (Last Robot Standing), `robotgame` or `robots`; `lrs-tourney games`
    /// lists them.
    #[arg(long, default_value = "lrs")]
    game: String,
    /// Shipped board name (see `lrs-tourney boards`) or path to a board .toml file (for
    /// `lrs`; RobotGame has one arena).
    #[arg(long)]
    board: Option<String>,
    /// A bot, once per seat: builtin:random, builtin:runner, builtin:hunter,
    /// jsonl:COMMAND, a program speaking JSON lines, or windward:COMMAND, a 2012 Windward
    /// client (run as COMMAND <host> <name> <token>, once for all games). COMMAND is split
    /// into words like a shell does, without globbing or variables:
    /// 'jsonl:java -cp lib/* Bot'.
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
    /// Turns per game (`lrs`; default 60).
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
    /// `lrs-tourney replay --json`).
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

impl FromArgMatches for PlayArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<PlayArgs, clap::Error> {
        let flags = PlayFlags::from_arg_matches(m)?;
        let bot_positions: Vec<usize> = m
            .indices_of("bots")
            .map(|i| i.collect())
            .unwrap_or_default();
        let dir_positions: Vec<usize> = m
            .indices_of("bot_dirs")
            .map(|i| i.collect())
            .unwrap_or_default();
        let dirs: Vec<(usize, PathBuf)> = dir_positions
            .into_iter()
            .zip(flags.bot_dirs.iter().cloned())
            .collect();
        let bot_dirs = assign_bot_dirs(&bot_positions, &dirs).map_err(usage_error)?;
        let name_positions: Vec<usize> = m
            .indices_of("bot_names")
            .map(|i| i.collect())
            .unwrap_or_default();
        let names: Vec<(usize, String)> = name_positions
            .into_iter()
            .zip(flags.bot_names.iter().cloned())
            .collect();
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

#[derive(Serialize)]
struct PlayReport<'a> {
    games: u32,
    board: &'a str,
    seed: u64,
    bots: &'a [BotStats],
    /// The sandbox of external bots (only when there are some).
    #[serde(skip_serializing_if = "Option::is_none")]
    sandbox: Option<Vec<ProtectionEntry>>,
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
    if !kind.has_arena_pool() {
        return play_on_seam(&args, &names, &bot_dirs, kind).await;
    }
    let board_name = args.board.as_deref().ok_or_else(|| {
        CliError::input("--board is required for lrs games (`lrs-tourney boards` lists them)")
    })?;
    let board = load_board(board_name).map_err(CliError::input)?;
    let turns = args.turns.unwrap_or(60);
    let mut bots = Vec::new();
    for (s, dir) in args.bots.iter().zip(bot_dirs) {
        let bot = BotSpec::parse(s).map_err(|e| CliError::input(format!("--bot {s}: {e}")))?;
        let bot = match dir {
            Some(dir) if !bot.is_external() => {
                return Err(CliError::input(format!(
                    "--bot-dir {} is given for --bot {s}, which is built in",
                    dir.display()
                )));
            }
            Some(dir) => bot.with_dir(dir),
            None => bot,
        };
        // An absolute directory, checked before any game starts.
        let bot = match &bot {
            BotSpec::Jsonl(j) | BotSpec::Windward(j) => match std::fs::canonicalize(&j.dir) {
                Ok(dir) if dir.is_dir() => bot.with_dir(dir),
                _ => {
                    return Err(CliError::input(format!(
                        "--bot {s}: bot directory {} does not exist",
                        j.dir.display()
                    )));
                }
            },
            BotSpec::Builtin(_) => bot,
        };
        bots.push(bot);
    }
    if turns == 0 {
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
        config: GameConfig { turn_limit: turns },
    };
    opts.validate().map_err(CliError::input)?;
    if args.time_limit_ms == 0 {
        return Err(CliError::input("--time-limit-ms must be at least 1"));
    }
    let external_options = ExternalOptions {
        time_limit_ms: args.time_limit_ms,
        bots: play_options(&args),
        windward_listen: args.windward_listen,
    };
    let has_jsonl = opts.bots.iter().any(|b| matches!(b, BotSpec::Jsonl(_)));
    let has_windward = opts.bots.iter().any(|b| matches!(b, BotSpec::Windward(_)));
    let jsonl_protections = has_jsonl.then(|| external_options.bots.sandbox.protections());
    let windward_protections = has_windward.then(|| {
        client_sandbox(&external_options.bots.sandbox, args.windward_listen.port()).protections()
    });
    // Never run untrusted code silently without saying what protects the machine.
    if let Some(p) = &jsonl_protections {
        eprintln!("{}", p.one_line());
    }
    if let Some(p) = &windward_protections {
        eprintln!(
            "windward clients (may connect to {}): {}",
            args.windward_listen,
            p.one_line()
        );
    }
    if args.sandbox == "strict" {
        for p in jsonl_protections.iter().chain(&windward_protections) {
            p.require_all().map_err(CliError::input)?;
        }
    }
    // The JSON report lists the JSON-lines bots' sandbox, else the clients'.
    let protections = jsonl_protections.or(windward_protections);
    let (mut stats, games) = play_games(&opts, &external_options, jobs)
        .await
        .map_err(CliError::failure)?;
    // The name given, else the spec as given on the command line, names each entry.
    let labels = bot_labels(&args.bots, &names);
    for (s, label) in stats.iter_mut().zip(&labels) {
        s.bot = label.clone();
    }
    if let Some(dir) = &args.replay {
        write_replays(dir, &opts, &labels, &games)?;
    }
    if args.json {
        let report = PlayReport {
            games: args.games,
            board: opts.board.name(),
            seed: args.seed,
            bots: &stats,
            sandbox: protections.as_ref().map(protection_entries),
        };
        let text = serde_json::to_string_pretty(&report).map_err(CliError::failure)?;
        println!("{text}");
    } else {
        print!("{}", table(&opts, &stats));
        print!("{}", fault_report(&stats));
    }
    Ok(())
}

/// The `--bot`s of a game played through the seam alone: its built-in AIs (`builtin:NAME`)
/// or JSON-lines programs (`jsonl:COMMAND`, in the `--bot-dir` given before). Also checks
/// the seat count and the flags every such game shares.
fn seat_bots(
    args: &PlayFlags,
    bot_dirs: &[Option<PathBuf>],
    kind: GameKind,
) -> Result<Vec<SeatBot>, CliError> {
    use crate::bots::process::BotCommand;
    let game = kind.id();
    let mut slots = Vec::new();
    for (spec, dir) in args.bots.iter().zip(bot_dirs) {
        let slot = match BotSpec::parse(spec) {
            Ok(BotSpec::Jsonl(program)) => {
                let dir = dir.clone().unwrap_or_else(|| PathBuf::from("."));
                let dir = std::fs::canonicalize(&dir)
                    .ok()
                    .filter(|d| d.is_dir())
                    .ok_or_else(|| {
                        CliError::input(format!(
                            "--bot {spec}: bot directory {} does not exist",
                            dir.display()
                        ))
                    })?;
                SeatBot::External(BotCommand {
                    argv: program.argv,
                    dir,
                })
            }
            Ok(BotSpec::Windward(_)) => {
                return Err(CliError::input(format!(
                    "--bot windward: does not apply to {game}: the 2012 clients play Last Robot Standing"
                )));
            }
            _ => {
                if dir.is_some() {
                    return Err(CliError::input(format!(
                        "--bot-dir does not apply to {game}: --bot {spec} is built in"
                    )));
                }
                let ai = spec
                    .strip_prefix("builtin:")
                    .and_then(|name| BuiltinBot::parse(kind, name))
                    .ok_or_else(|| {
                        CliError::input(format!(
                            "--bot {spec}: expected one of {game}'s built-in AIs ({}) or jsonl:COMMAND",
                            BuiltinBot::names_of(kind)
                        ))
                    })?;
                SeatBot::Builtin(ai)
            }
        };
        slots.push(slot);
    }
    let seats = kind.seats();
    if !seats.contains(&slots.len()) {
        return Err(CliError::input(format!(
            "{game} takes {} to {} bots, got {}",
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

/// `play --game ID` for a game without an arena pool: built-in AIs and external JSON-lines
/// bots through the seam, a table or JSON per bot.
async fn play_on_seam(
    args: &PlayFlags,
    names: &[Option<String>],
    bot_dirs: &[Option<PathBuf>],
    kind: GameKind,
) -> Result<(), CliError> {
    let game = kind.id();
    if args.board.is_some() {
        return Err(CliError::input(format!(
            "--board does not apply to {game}: it plays {}",
            kind.arenas()
        )));
    }
    if args.turns.is_some() {
        return Err(CliError::input(format!(
            "--turns does not apply to {game}: its games last as its rules say"
        )));
    }
    let slots = seat_bots(args, bot_dirs, kind)?;
    let settings = crate::games::GameSettings::default_for(kind);
    let pool = Arena::pool(&settings, &[]);
    let lineup = Lineup {
        arena: Arena::load(&settings, &pool[0], 0).map_err(CliError::failure)?,
        labels: bot_labels(&args.bots, names),
        slots,
        games: args.games,
        seed: args.seed,
    };
    let options = play_options(args);
    if !lineup.all_builtin() {
        eprintln!("{}", options.sandbox.protections().one_line());
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let played = lineup
        .play(jobs.max(1), args.time_limit_ms, &options)
        .await
        .map_err(CliError::failure)?;
    let faults = (!lineup.all_builtin()).then(|| fault_reports(&lineup, &played.logs));
    if let Some(dir) = &args.replay {
        write_seam_replays(dir, &lineup, &played.outcomes)?;
    }
    let totals = &played.totals;
    if args.json {
        let report = serde_json::json!({
            "game": game,
            "games": args.games,
            "seed": args.seed,
            "bots": totals,
            "external": faults,
        });
        let text = serde_json::to_string_pretty(&report).map_err(CliError::failure)?;
        println!("{text}");
        return Ok(());
    }
    let last = args.seed.wrapping_add(u64::from(args.games) - 1);
    println!(
        "{} game(s) of {game} (seeds {}..={last}), seats rotating\n",
        args.games, args.seed
    );
    let width = totals.iter().map(|t| t.bot.len()).max().unwrap_or(3).max(3);
    let stats = kind.statistics();
    let mut head = format!(
        "{:<width$}  {:>8} {:>8} {:>5}",
        "bot", "mean", "total", "wins"
    );
    for name in stats {
        head += &format!(" {:>w$}", name, w = name.len().max(6));
    }
    println!("{head} {:>6}", "faults");
    for t in totals {
        let mut line = format!(
            "{:<width$}  {:>8.2} {:>8} {:>5}",
            t.bot, t.mean_score, t.total_score, t.wins
        );
        for (i, name) in stats.iter().enumerate() {
            line += &format!(" {:>w$}", t.stats.get(i), w = name.len().max(6));
        }
        println!("{line} {:>6}", t.faults);
    }
    println!("\nscore: {}", kind.score_rule());
    print_fault_reports(faults.as_deref().unwrap_or_default());
    Ok(())
}

/// Each external bot's faults over a series, as JSON; `logs[g][slot]` is the log of game
/// `g`.
fn fault_reports(lineup: &Lineup, logs: &[Vec<Option<SeatLog>>]) -> Vec<serde_json::Value> {
    (0..lineup.labels.len())
        .filter(|&slot| matches!(lineup.slots[slot], SeatBot::External(_)))
        .map(|slot| {
            let mine: Vec<&SeatLog> = logs.iter().filter_map(|l| l[slot].as_ref()).collect();
            let sum = |f: fn(&SeatLog) -> u32| -> u32 { mine.iter().map(|l| f(l)).sum() };
            let stderr_tail = mine.iter().rev().find_map(|l| {
                l.exit.as_ref().map(|e| {
                    let text = e.stderr.text();
                    let lines: Vec<&str> = text.lines().collect();
                    lines[lines.len().saturating_sub(10)..].join("\n")
                })
            });
            serde_json::json!({
                "bot": lineup.labels[slot],
                "timeouts": sum(|l| l.timeouts),
                "malformed": sum(|l| l.malformed),
                "crashed_turns": sum(|l| l.crashed_turns),
                "discarded": sum(|l| l.discarded),
                "spawn_error": mine.iter().find_map(|l| l.spawn_error.clone()),
                "first_bad_line": mine.iter().find_map(|l| l.first_bad_line.clone()),
                "first_bad_why": mine.iter().find_map(|l| l.first_bad_why.clone()),
                "stderr_tail": stderr_tail,
                "ended": mine.last().and_then(|l| l.exit.as_ref()).map(|e| e.status.clone()),
            })
        })
        .collect()
}

/// The fault lines under a table: for each external bot with faults, what a student needs
/// to fix it.
fn print_fault_reports(faults: &[serde_json::Value]) {
    for f in faults {
        let total = f["timeouts"].as_u64().unwrap_or(0)
            + f["malformed"].as_u64().unwrap_or(0)
            + f["crashed_turns"].as_u64().unwrap_or(0);
        if total == 0 && f["spawn_error"].is_null() {
            continue;
        }
        println!(
            "\n{}: {} timeout(s), {} unreadable answer(s), {} turn(s) after it exited",
            f["bot"].as_str().unwrap_or_default(),
            f["timeouts"],
            f["malformed"],
            f["crashed_turns"]
        );
        if let Some(e) = f["spawn_error"].as_str() {
            println!("  could not start: {e}");
        }
        if let Some(l) = f["first_bad_line"].as_str() {
            match f["first_bad_why"].as_str() {
                Some(why) => println!("  first line that was not an answer ({why}): {l}"),
                None => println!("  first line that was not an answer: {l}"),
            }
        }
        if let Some(e) = f["stderr_tail"].as_str().filter(|e| !e.is_empty()) {
            println!("  end of its stderr:\n{e}");
        }
    }
}

/// Two replay files per game played: `DIR/game-G.json`, what `replay --json` prints for a
/// stored game, and `DIR/game-G.html`, the viewer.
fn write_seam_replays(
    dir: &std::path::Path,
    lineup: &Lineup,
    outcomes: &[crate::games::GameOutcome],
) -> Result<(), CliError> {
    use crate::games::view::{ReplayAbout, SeatEntry};
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    let kind = lineup.arena.kind();
    for (g, outcome) in outcomes.iter().enumerate() {
        let g = g as u32;
        let seed = lineup.seed_of(g);
        let n = lineup.labels.len();
        let replayed = lineup
            .arena
            .replay_for_view(n, seed, &outcome.decisions)
            .map_err(|e| CliError::failure(format!("game {g}: {e}")))?;
        let names = lineup.by_seat(g, &lineup.labels);
        let about = ReplayAbout {
            set: "play".to_string(),
            game: g,
            arena: Arena::pool(&crate::games::GameSettings::default_for(kind), &[])[0].clone(),
            seats: names
                .iter()
                .enumerate()
                .map(|(seat, team)| SeatEntry {
                    seat,
                    team: team.clone(),
                    score: outcome.seats[seat].score,
                })
                .collect(),
            stored_bytes: outcome.decisions.len(),
        };
        let path = dir.join(format!("game-{g}.json"));
        std::fs::write(&path, replayed.report_json(&about).to_string())
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
        let info = crate::report::viewer::PageInfo {
            title: format!("{}, game {g}", kind.id()),
            meta: format!("seed {seed} · engine version {}", kind.engine_version()),
            back: None,
            seats: names,
            stored_scores: None,
        };
        super::replay_cmd::write_page(&dir.join(format!("game-{g}.html")), &replayed.page(&info))?;
    }
    eprintln!(
        "replays: {} game(s) in {} (game-G.html opens in a browser; game-G.json is the trace)",
        outcomes.len(),
        dir.display()
    );
    Ok(())
}

/// Two replay files per game: `DIR/game-G.json`, in the format of `replay --json`, and
/// `DIR/game-G.html`, the viewer.
fn write_replays(
    dir: &std::path::Path,
    opts: &PlayOptions,
    labels: &[String],
    games: &[GameSummary],
) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::failure(format!("cannot create {}: {e}", dir.display())))?;
    for (g, summary) in games.iter().enumerate() {
        let g = g as u32;
        let seed = opts.seed.wrapping_add(u64::from(g));
        let replay = crate::games::lrs::replay::replay(
            opts.board.clone(),
            opts.bots.len(),
            seed,
            opts.config.turn_limit,
            &summary.decisions,
        )
        .map_err(|e| CliError::failure(format!("game {g}: {e}")))?;
        let mut seats: Vec<serde_json::Value> = labels
            .iter()
            .enumerate()
            .map(|(slot, label)| {
                let seat = opts.seat_of(slot, g);
                serde_json::json!({"seat": seat, "team": label, "score": replay.scores[seat]})
            })
            .collect();
        seats.sort_by_key(|s| s["seat"].as_u64());
        let full_state_bytes = serde_json::to_vec(&replay).map_or(0, |v| v.len());
        let report = serde_json::json!({
            "set": "play",
            "game": g,
            "board": opts.board.name(),
            "seed": seed,
            "turn_limit": opts.config.turn_limit,
            "seats": seats,
            "stored_bytes": summary.decisions.len(),
            "full_state_bytes": full_state_bytes,
            "replay": replay,
        });
        let path = dir.join(format!("game-{g}.json"));
        std::fs::write(&path, report.to_string())
            .map_err(|e| CliError::failure(format!("cannot write {}: {e}", path.display())))?;
        let mut names = vec![String::new(); labels.len()];
        for (slot, label) in labels.iter().enumerate() {
            names[opts.seat_of(slot, g)] = label.clone();
        }
        let info = crate::report::viewer::PageInfo {
            title: format!("play, game {g}"),
            meta: format!(
                "board {} · seed {seed} · engine version {}",
                opts.board.name(),
                crate::games::lrs::engine::ENGINE_VERSION
            ),
            back: None,
            seats: names,
            stored_scores: None,
        };
        let html = crate::report::viewer::page(&opts.board, &replay, &info);
        super::replay_cmd::write_page(&dir.join(format!("game-{g}.html")), &html)?;
    }
    eprintln!(
        "replays: {} game(s) in {} (game-G.html opens in a browser; game-G.json is the trace)",
        games.len(),
        dir.display()
    );
    Ok(())
}

/// For each bot that faulted: its faults by kind, how it ended, the first line it printed
/// that was not an answer, and the end of its stderr (what a student needs to fix it).
fn fault_report(stats: &[BotStats]) -> String {
    let mut out = String::new();
    for s in stats.iter().filter(|s| s.faults > 0) {
        let k = &s.fault_kinds;
        out += &format!(
            "\n{}: {} fault(s): {} timeout, {} invalid, {} crash\n",
            s.bot, s.faults, k.timeout, k.invalid, k.crash
        );
        let Some(d) = &s.diagnosis else { continue };
        out += &format!("  first faulty game: {}\n", d.game);
        if let Some(e) = &d.start_error {
            out += &format!("  could not start: {e}\n");
        }
        if let Some(exit) = &d.exit {
            out += &format!("  the bot ended with: {exit}\n");
        }
        if let (Some(line), Some(why)) = (&d.first_bad_line, &d.bad_line_reason) {
            out += &format!("  first bad line ({why}): {line:?}\n");
            if why.contains("not JSON") || why.contains("no question was pending") {
                out += "  hint: stdout is for answers only: print debug output to stderr\n";
            }
        }
        if k.timeout > 0 && k.invalid == 0 && k.crash == 0 && d.first_bad_line.is_none() {
            out += "  hint: no answer arrived in time: does the bot flush stdout after each \
                    answer (Python: print(..., flush=True))?\n";
        }
        if d.stderr_tail.is_empty() {
            out += "  stderr: (empty)\n";
        } else {
            out += "  last lines of stderr:\n";
            for line in &d.stderr_tail {
                out += &format!("    {line}\n");
            }
        }
    }
    out
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
        let err = Wrap::try_parse_from([
            "x",
            "--board",
            "b",
            "--bot",
            "builtin:runner",
            "--bot-dir",
            "d",
        ])
        .err()
        .unwrap();
        assert!(err.to_string().contains("not followed by a --bot"), "{err}");
        Wrap::command().debug_assert();
    }
}

//! `lrs-tourney run FILE`: play (or resume) a tournament to its end.

use super::{CliError, target};
use crate::runner::{FaultyTeam, ProgressMode, RunOptions, plan_tournament, run_tournament};
use crate::tourney::config::load_tournament_with_warnings;
use crate::tourney::model::{TeamId, Tournament};
use clap::Args;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The tournament file (.toml).
    file: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// Games played at once (default: all cores). Results do not depend on it.
    #[arg(long, conflicts_with = "workers")]
    jobs: Option<usize>,
    /// Only `--workers 0`: plan only, and let workers started with `lrs-tourney worker URL`
    /// on any machine play the games (PostgreSQL databases only; see "Running on several
    /// machines" in the README). Leave it out to play every game in this process.
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// No progress output, only the result.
    #[arg(long, conflicts_with = "plain")]
    quiet: bool,
    /// Progress as plain log lines instead of bars (the default when stderr is not a terminal).
    #[arg(long)]
    plain: bool,
}

pub fn jobs_or_cores(jobs: Option<usize>) -> Result<usize, CliError> {
    match jobs {
        Some(0) => Err(CliError::input("--jobs must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// Loads the tournament file at `path`, printing its warnings on stderr (`warning: ...`).
pub fn load_and_warn(path: &Path) -> Result<Tournament, CliError> {
    let loaded = load_tournament_with_warnings(path).map_err(CliError::input)?;
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    Ok(loaded.tournament)
}

pub async fn run(args: RunArgs) -> Result<(), CliError> {
    let mut t = load_and_warn(&args.file)?;
    if let Some(db) = args.db.location()? {
        t.database = db;
    }
    super::interrupt::clean_up_on_signals(Some(&t.database), true);
    let progress = if args.quiet {
        ProgressMode::Quiet
    } else if args.plain {
        ProgressMode::Plain
    } else {
        ProgressMode::auto()
    };
    let opts = RunOptions {
        jobs: jobs_or_cores(args.jobs)?,
        progress,
    };
    let plans_only = match args.workers {
        None => false,
        Some(0) => true,
        Some(_) => {
            return Err(CliError::input(
                "--workers takes 0 (plan only, workers play); leave it out to play every game in this process",
            ));
        }
    };
    let summary = if plans_only {
        plan_tournament(&t, opts).await
    } else {
        run_tournament(&t, opts).await
    };
    let summary = summary.map_err(|e| match e {
        crate::runner::RunError::BadRequest(_) => CliError::input(e),
        _ => CliError::failure(e),
    })?;
    let name = |team: TeamId| {
        let team = t.team(team);
        format!("{} ({})", team.name, t.schools[team.school.index()].name)
    };
    println!("{}: done", t.name);
    let now = if plans_only {
        "stored by workers now"
    } else {
        "played now"
    };
    println!(
        "games: {} ({} resumed from {}, {} {now})",
        summary.games_total, summary.games_resumed, t.database, summary.games_played
    );
    if let Some(&champion) = summary.final_ranking.first() {
        if t.has_nationals() {
            println!("champion: {}", name(champion));
            println!("national final:");
        } else {
            println!("school winner: {}", name(champion));
            println!("school final:");
        }
        for (place, &team) in summary.final_ranking.iter().enumerate() {
            println!("  {:>2}. {}", place + 1, name(team));
        }
    }
    if !summary.qualifiers.is_empty() {
        let names: Vec<String> = summary.qualifiers.iter().map(|&q| name(q)).collect();
        println!("qualified: {}", names.join(", "));
    }
    print_faults(&t, &args.file, &summary.faulty);
    Ok(())
}

/// Teams whose bots faulted the most, shown after a run so a broken bot is noticed on the
/// day, not in the report afterwards.
const FAULTY_TEAMS_SHOWN: usize = 10;

/// The fault summary of the run (`faulty`: worst first): how many teams' bots faulted and
/// the worst of them, with where to read what the worst printed.
fn print_faults(t: &Tournament, file: &Path, faulty: &[FaultyTeam]) {
    let Some(worst) = faulty.first() else {
        println!("faults: none");
        return;
    };
    println!(
        "faults: {} faulted (timeouts, unreadable answers, crashes); the worst:",
        match faulty.len() {
            1 => "1 team's bot".to_string(),
            n => format!("{n} teams' bots"),
        }
    );
    let name = |team: TeamId| {
        let team = t.team(team);
        (
            team.name.as_str(),
            t.schools[team.school.index()].name.as_str(),
        )
    };
    for f in faulty.iter().take(FAULTY_TEAMS_SHOWN) {
        let (team, school) = name(f.team);
        println!(
            "  {team} ({school}): {} fault(s) in {} game(s)",
            f.faults, f.games
        );
    }
    println!(
        "  what a bot printed and how it ended, set by set: lrs-tourney logs {} {} --team {:?}",
        file.display(),
        worst.worst_set,
        name(worst.team).0
    );
}

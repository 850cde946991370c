//! `lrs-tourney report FILE|DB --out DIR`: the tournament as a static site (index with the
//! champion, bracket, wild cards, a page per set, team and game with its replay).
//!
//! Works while a tournament runs: it reads what is stored so far, read-only, and the
//! pages of an unfinished tournament reload themselves every minute.

use super::{CliError, target};
use crate::report::site::ReplayPages;
use crate::report::site::write_site;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// The folder to write the site into (created if missing; pages already there are
    /// replaced one by one).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Publish the tournament's secret seed and every game's seed, so that anyone can check
    /// the seed against the commitment shown all along and replay every game. Only for a
    /// finished tournament: before, it would let bots predict the games to come.
    #[arg(long)]
    reveal_seed: bool,
    /// Which games get a replay page: `all`, `finals` (the games of final sets) or `none`.
    /// Default: all up to 10,000 stored games, else finals.
    #[arg(long, value_enum, value_name = "WHICH")]
    replays: Option<ReplayChoice>,
}

/// `--replays`.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum ReplayChoice {
    All,
    Finals,
    None,
}

pub async fn run(args: ReportArgs) -> Result<(), CliError> {
    let (snap, db) =
        target::load_snapshot(&args.target, &args.db, target::Reading::Everything).await?;
    if args.reveal_seed && !crate::report::is_finished(&snap) {
        return Err(CliError::input(format!(
            "{}: the tournament is not finished; its seed is revealed only once every game is played (it would let bots predict the games to come)",
            args.target.display()
        )));
    }
    let (logs, stored, pages) = async {
        let store = crate::store::Store::open_read_only(&db).await?;
        let stored = store.current_decision_count().await?;
        let pages = match args.replays {
            Some(ReplayChoice::All) => ReplayPages::All,
            Some(ReplayChoice::Finals) => ReplayPages::Finals,
            Some(ReplayChoice::None) => ReplayPages::None,
            None => ReplayPages::default_for(stored),
        };
        // Only the logs of the games that get a replay page are read.
        let logs = match pages {
            ReplayPages::All => store.current_decisions().await?,
            ReplayPages::Finals => store.current_decisions_of_final_sets().await?,
            ReplayPages::None => Default::default(),
        };
        store.close().await;
        Ok::<_, crate::store::StoreError>((logs, stored, pages))
    }
    .await
    .map_err(CliError::input)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let generated = crate::report::utc_text(now);
    let summary = write_site(&snap, &logs, &args.out, &generated, args.reveal_seed, pages)
        .map_err(CliError::input)?;
    let which = match (args.replays, pages) {
        (None, ReplayPages::Finals) => format!(
            " of final sets only: {stored} games are stored, more than {}; --replays all writes every one",
            crate::report::site::ALL_REPLAYS_UP_TO
        ),
        (_, ReplayPages::Finals) => " of final sets".to_string(),
        _ => String::new(),
    };
    println!(
        "report: {} pages ({} game replays{which}, {:.1} MB) in {}; open {}",
        summary.pages,
        summary.replays,
        summary.bytes as f64 / 1_000_000.0,
        args.out.display(),
        summary.index.display()
    );
    Ok(())
}

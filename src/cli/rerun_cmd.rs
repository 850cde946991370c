//! `lrs-tourney rerun FILE|DB SET --reason TEXT [--reseed] [--cascade]`.

use super::run_cmd::jobs_or_cores;
use super::{CliError, target};
use crate::runner::{
    CodeChange, ProgressMode, RerunOutcome, RerunRequest, RunOptions, rerun_set,
    tournament_from_store,
};
use crate::tourney::config::load_tournament;
use crate::tourney::model::SetId;
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The tournament file (.toml) or its database (an SQLite file or a postgres:// URL).
    target: PathBuf,
    #[command(flatten)]
    db: target::DbArg,
    /// The set to play again, as `status` shows it (e.g. westfield-high/r1/s2, nationals/final).
    set: SetId,
    /// Why (kept in the audit log with the superseded results).
    #[arg(long)]
    reason: String,
    /// Play with new seeds instead of the same games again.
    #[arg(long)]
    reseed: bool,
    /// Also invalidate and replay later sets that the new result changes.
    #[arg(long)]
    cascade: bool,
    /// Games played at once (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
}

pub async fn run(args: RerunArgs) -> Result<(), CliError> {
    if args.reason.trim().is_empty() {
        return Err(CliError::input("--reason must say why the set is re-run"));
    }
    let t = if target::is_tournament_file(&args.target) {
        let mut t = load_tournament(&args.target).map_err(CliError::input)?;
        if let Some(db) = args.db.location()? {
            t.database = db;
        }
        t
    } else {
        let db = target::database_of(&args.target, &args.db)?;
        tournament_from_store(&db).await.map_err(CliError::input)?
    };
    super::interrupt::clean_up_on_signals(Some(&t.database), false);
    let request = RerunRequest {
        set_id: args.set.clone(),
        reason: args.reason.clone(),
        reseed: args.reseed,
        cascade: args.cascade,
    };
    let opts = RunOptions {
        jobs: jobs_or_cores(args.jobs)?,
        progress: if args.quiet {
            ProgressMode::Quiet
        } else {
            ProgressMode::auto()
        },
    };
    let outcome = rerun_set(&t, &request, opts).await.map_err(|e| match e {
        crate::runner::RunError::BadRequest(_) => CliError::input(e),
        _ => CliError::failure(e),
    })?;
    match outcome {
        RerunOutcome::NeedsCascade {
            affected,
            code_changed,
        } => Err(CliError::failure(format!(
            "{}re-running {} changes what {} set(s) already played were dealt from (who advanced, their order or the nationals seeding): {}\nits games were played but none was stored: nothing was changed; add --cascade to invalidate and replay them",
            code_text(&args.set, &code_changed),
            args.set,
            affected.len(),
            ids_text(&affected)
        ))),
        RerunOutcome::Requeued => {
            println!(
                "{}: failed on workers; queued again (its failures and refusals are cleared): `lrs-tourney run FILE --db URL --workers 0` and workers play it",
                args.set
            );
            Ok(())
        }
        RerunOutcome::Done {
            run_no,
            advancement_changed,
            invalidated,
            summary,
            code_changed,
        } => {
            print!("{}", code_text(&args.set, &code_changed));
            println!(
                "{}: re-run {run_no} stored; the previous results are kept as superseded history",
                args.set
            );
            println!(
                "advancement from {}: {}",
                args.set,
                if advancement_changed {
                    "changed"
                } else {
                    "unchanged"
                }
            );
            if !invalidated.is_empty() {
                println!(
                    "invalidated and replayed {} set(s): {}",
                    invalidated.len(),
                    ids_text(&invalidated)
                );
            }
            println!("games played now: {}", summary.games_played);
            if let Some(&champion) = summary.final_ranking.first() {
                let team = t.team(champion);
                println!(
                    "{}: {} ({})",
                    if t.has_nationals() {
                        "champion"
                    } else {
                        "school winner"
                    },
                    team.name,
                    t.schools[team.school.index()].name
                );
            }
            Ok(())
        }
    }
}

/// The teams whose bot code changed since `set` was played, one line each (nothing when
/// none did).
fn code_text(set: &SetId, changed: &[CodeChange]) -> String {
    if changed.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "{set}: the bot code of {} team(s) changed since the set was played; this rerun plays the code as it is now:\n",
        changed.len()
    );
    for c in changed {
        out += &format!("  {}\n", c.describe());
    }
    out
}

/// Set ids as a comma-separated list.
fn ids_text(ids: &[SetId]) -> String {
    ids.iter().map(SetId::as_str).collect::<Vec<_>>().join(", ")
}

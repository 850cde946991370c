//! `lrs-tourney worker URL`: play the sets a planner (`run --workers 0`) deals, on this
//! machine, until the tournament is complete. SIGTERM (or Ctrl-C) drains: the games in
//! progress are finished and stored, the worker's sets are given back, and it exits 0.

use super::CliError;
use crate::runner::{ProgressMode, RunError, WorkerOptions, run_worker};
use crate::store::DbLocation;
use clap::Args;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Debug, Args)]
pub struct WorkerArgs {
    /// The tournament's PostgreSQL database (postgres://USER@HOST:PORT/DATABASE).
    url: String,
    /// Sets played at once, each set's games one after the other (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// This worker's name (default: HOST-PID). A worker restarted under the same name gets
    /// the sets it held back first.
    #[arg(long)]
    name: Option<String>,
    /// Seconds a claimed set stays this worker's without a heartbeat (beats come every
    /// third of it); a worker that dies loses its sets after this long. 1 to 180, so that a
    /// live worker beats at least once a minute and `status` can tell a silent one.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    lease_seconds: u64,
    /// STORED=LOCAL: the bot folders the database names under STORED are under LOCAL on
    /// this machine (default: the same paths on every machine).
    #[arg(long, value_name = "STORED=LOCAL")]
    bots_root: Option<String>,
    /// No progress lines, only the result.
    #[arg(long)]
    quiet: bool,
}

/// `STORED=LOCAL` as two folders.
fn bots_root(value: &str) -> Result<(PathBuf, PathBuf), CliError> {
    match value.split_once('=') {
        Some((stored, local)) if !stored.is_empty() && !local.is_empty() => {
            Ok((PathBuf::from(stored), PathBuf::from(local)))
        }
        _ => Err(CliError::input(format!(
            "--bots-root {value:?}: write STORED=LOCAL, e.g. /srv/contest/bots=/home/judge/bots"
        ))),
    }
}

/// Sets `drain` on the first SIGTERM or SIGINT.
fn drain_on_signals(drain: Arc<AtomicBool>) -> Result<(), CliError> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| CliError::failure(format!("cannot watch for SIGTERM: {e}")))?;
    let mut int = signal(SignalKind::interrupt())
        .map_err(|e| CliError::failure(format!("cannot watch for SIGINT: {e}")))?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        drain.store(true, Ordering::Relaxed);
    });
    Ok(())
}

/// The longest lease: its beats, every third of it, come at least once a minute.
const MAX_LEASE_SECONDS: u64 = 180;

pub async fn run(args: WorkerArgs) -> Result<(), CliError> {
    let database = DbLocation::parse(&args.url, None).map_err(CliError::input)?;
    if !(1..=MAX_LEASE_SECONDS).contains(&args.lease_seconds) {
        return Err(CliError::input(format!(
            "--lease-seconds must be 1 to {MAX_LEASE_SECONDS} (a worker beats every third of it, and `status` calls a worker silent after {} s without a beat)",
            crate::report::SILENT_AFTER_MS / 1000
        )));
    }
    let drain = Arc::new(AtomicBool::new(false));
    drain_on_signals(drain.clone())?;
    let opts = WorkerOptions {
        name: args.name,
        jobs: super::run_cmd::jobs_or_cores(args.jobs)?,
        lease: Duration::from_secs(args.lease_seconds),
        bots_root: args.bots_root.as_deref().map(bots_root).transpose()?,
        progress: if args.quiet {
            ProgressMode::Quiet
        } else {
            ProgressMode::Plain
        },
        drain,
    };
    let summary = run_worker(&database, opts).await.map_err(|e| match e {
        RunError::BadRequest(_) => CliError::input(e),
        _ => CliError::failure(e),
    })?;
    let end = if summary.drained {
        "stopped on request"
    } else {
        "tournament complete"
    };
    println!(
        "worker {}: {end}; {} game(s) stored, {} already stored by another worker, {} set(s) refused, {} failed here",
        summary.name, summary.stored, summary.already_stored, summary.refused, summary.failed
    );
    Ok(())
}

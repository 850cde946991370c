//! What `status` shows of a tournament played by workers (docs/workers.md): each worker
//! with its heartbeat, current set and pace, the leases held now, the sets workers refused
//! and the sets that failed. Shown only when workers ever played in the database.

use super::snapshot::Snapshot;
use crate::store::{
    DbLocation, FAILURES_BEFORE_FAILED, FailureRow, LeaseRow, RefusalRow, Store, StoreError,
    WorkerRow,
};
use crate::tourney::model::TeamId;
use std::fmt::Write;

/// The workers' side of a database, read once.
#[derive(Debug, Clone, Default)]
pub struct WorkStatus {
    pub workers: Vec<WorkerRow>,
    pub leases: Vec<LeaseRow>,
    pub refusals: Vec<RefusalRow>,
    pub failures: Vec<FailureRow>,
}

impl WorkStatus {
    /// Reads it from the database at `db` (read only).
    pub async fn load(db: &DbLocation) -> Result<WorkStatus, StoreError> {
        let store = Store::open_read_only(db).await?;
        let read = async {
            Ok(WorkStatus {
                workers: store.workers().await?,
                leases: store.leases().await?,
                refusals: store.refusals().await?,
                failures: store.set_failures().await?,
            })
        }
        .await;
        store.close().await;
        read
    }

    fn is_empty(&self) -> bool {
        self.workers.is_empty()
            && self.leases.is_empty()
            && self.refusals.is_empty()
            && self.failures.is_empty()
    }
}

/// A worker that has not beaten for this long is shown `silent`: with leases of at most
/// 180 s (`worker --lease-seconds`) a live worker beats at least once a minute, so it died,
/// lost its machine or cannot reach the database.
pub const SILENT_AFTER_MS: i64 = 90_000;

/// A worker's state as `status` shows it: `silent` when a worker that never said it
/// stopped has not beaten for [`SILENT_AFTER_MS`].
fn shown_state(w: &WorkerRow) -> &str {
    if w.state != "stopped" && w.heartbeat_age_ms > SILENT_AFTER_MS {
        "silent"
    } else {
        &w.state
    }
}

/// The set `w` plays now: the one it holds a lease on (leases are claimed and given back
/// at once, its recorded current set only at its beats), or the one its last beat named.
fn current_set<'a>(w: &'a WorkerRow, work: &'a WorkStatus) -> Option<&'a str> {
    work.leases
        .iter()
        .find(|l| l.worker.as_str() == w.name.as_str() && l.expires_in_ms >= 0)
        .map(|l| l.set_id.as_str())
        .or(w.current_set.as_ref().map(|s| s.as_str()))
        .filter(|_| shown_state(w) != "stopped")
}

/// Seconds, rounded, for ages and expiries.
fn secs(ms: i64) -> String {
    format!("{}s", (ms + 500).div_euclid(1000))
}

/// Games per minute over `ms` milliseconds.
fn per_minute(games: u64, ms: i64) -> f64 {
    if ms <= 0 {
        return 0.0;
    }
    games as f64 * 60_000.0 / ms as f64
}

/// The status lines of workers, leases, refusals and failed sets; empty when no worker
/// ever played in the database.
pub fn work_text(snap: &Snapshot, work: &WorkStatus) -> String {
    let mut out = String::new();
    if work.is_empty() {
        return out;
    }
    let team = |id: TeamId| {
        snap.teams
            .iter()
            .find(|t| t.id == id)
            .map(|t| {
                let school = snap.schools.get(t.school).map_or("", |s| s.name.as_str());
                format!("{} ({school})", t.name)
            })
            .unwrap_or_else(|| format!("team {}", id.index()))
    };
    let in_state = |state: &str| {
        work.workers
            .iter()
            .filter(|w| shown_state(w) == state)
            .count()
    };
    let pace = work
        .workers
        .iter()
        .filter(|w| matches!(shown_state(w), "working" | "draining"))
        .fold(0.0, |sum, w| sum + per_minute(w.games_done, w.running_ms));
    out.push('\n');
    if !work.workers.is_empty() {
        let _ = writeln!(
            out,
            "workers: {} working, {} draining, {} silent (no heartbeat for {} s: dead or cut off), {} stopped; {pace:.1} games/min together",
            in_state("working"),
            in_state("draining"),
            in_state("silent"),
            SILENT_AFTER_MS / 1000,
            in_state("stopped")
        );
    }
    for w in &work.workers {
        let set = current_set(w, work).unwrap_or("-");
        let _ = writeln!(
            out,
            "  {:<16} {:<8} host {} pid {} v{}  heartbeat {} ago  set {set}  {} games, {:.1}/min",
            w.name.as_str(),
            shown_state(w),
            w.host,
            w.pid,
            w.version,
            secs(w.heartbeat_age_ms),
            w.games_done,
            per_minute(w.games_done, w.running_ms)
        );
    }
    if !work.leases.is_empty() {
        let _ = writeln!(out, "leases:");
        for l in &work.leases {
            let expiry = if l.expires_in_ms >= 0 {
                format!("expires in {}", secs(l.expires_in_ms))
            } else {
                format!(
                    "expired {} ago, free for another worker",
                    secs(-l.expires_in_ms)
                )
            };
            let _ = writeln!(
                out,
                "  {:<28} {} (lease {}), {expiry}, {} interruption(s)",
                l.set_id.as_str(),
                l.worker,
                l.token.0,
                l.interruptions
            );
        }
    }
    if !work.refusals.is_empty() {
        let _ = writeln!(out, "refused sets (given back, not failures):");
        for r in &work.refusals {
            let who = r.team.map_or_else(|| "the worker".to_string(), team);
            let _ = writeln!(
                out,
                "  {} refused by {}: {who}: {}",
                r.set_id, r.worker, r.reason
            );
        }
    }
    if !work.failures.is_empty() {
        let _ = writeln!(
            out,
            "sets that failed on workers (failed on {FAILURES_BEFORE_FAILED}: no worker plays it until `lrs-tourney rerun` queues it again):"
        );
        for f in &work.failures {
            let state = if f.failed { "failed" } else { "failing" };
            let _ = writeln!(out, "  {} {state} on {}: {}", f.set_id, f.worker, f.reason);
        }
    }
    out
}

/// The same as [`work_text`] for `status --json`: `None` when no worker ever played.
pub fn work_json(work: &WorkStatus) -> Option<serde_json::Value> {
    use serde_json::json;
    if work.is_empty() {
        return None;
    }
    Some(json!({
        "workers": work.workers.iter().map(|w| json!({
            "name": w.name.as_str(),
            "state": shown_state(w),
            "host": w.host,
            "pid": w.pid,
            "version": w.version,
            "heartbeat_age_ms": w.heartbeat_age_ms,
            "current_set": current_set(w, work),
            "games_done": w.games_done,
            "games_per_minute": per_minute(w.games_done, w.running_ms),
        })).collect::<Vec<_>>(),
        "leases": work.leases.iter().map(|l| json!({
            "set": l.set_id.as_str(),
            "worker": l.worker.as_str(),
            "token": l.token.0,
            "expires_in_ms": l.expires_in_ms,
            "interruptions": l.interruptions,
        })).collect::<Vec<_>>(),
        "refusals": work.refusals.iter().map(|r| json!({
            "set": r.set_id.as_str(),
            "worker": r.worker.as_str(),
            "team": r.team.map(|t| t.index()),
            "reason": r.reason,
        })).collect::<Vec<_>>(),
        "failures": work.failures.iter().map(|f| json!({
            "set": f.set_id.as_str(),
            "worker": f.worker.as_str(),
            "reason": f.reason,
            "failed": f.failed,
        })).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{LeaseToken, WorkerName};
    use crate::tourney::model::SetId;

    fn worker(name: &str, state: &str, heartbeat_age_ms: i64) -> WorkerRow {
        WorkerRow {
            name: WorkerName::new(name),
            host: "lab".to_string(),
            pid: 7,
            version: "0.1.0".to_string(),
            state: state.to_string(),
            current_set: None,
            games_done: 3,
            running_ms: 60_000,
            heartbeat_age_ms,
        }
    }

    fn lease(set: &str, worker: &str, expires_in_ms: i64) -> LeaseRow {
        LeaseRow {
            set_id: SetId::new(set),
            worker: WorkerName::new(worker),
            token: LeaseToken(2),
            expires_in_ms,
            interruptions: 0,
        }
    }

    /// A worker killed with -9 never says it stopped: once its beats are overdue it is
    /// shown silent, not working, and holds no set.
    #[test]
    fn a_worker_whose_beats_stopped_is_silent() {
        assert_eq!(shown_state(&worker("a", "working", 5_000)), "working");
        assert_eq!(shown_state(&worker("a", "working", 95_000)), "silent");
        assert_eq!(shown_state(&worker("a", "draining", 95_000)), "silent");
        assert_eq!(shown_state(&worker("a", "stopped", 95_000)), "stopped");
    }

    /// The current set is the one the worker holds a live lease on, even before its next
    /// beat records it; an expired lease is no longer its set.
    #[test]
    fn the_current_set_is_the_live_lease_held() {
        let work = WorkStatus {
            workers: vec![worker("a", "working", 1_000), worker("b", "working", 1_000)],
            leases: vec![
                lease("north/r1/s1", "a", 20_000),
                lease("north/r1/s2", "b", -1),
            ],
            ..WorkStatus::default()
        };
        assert_eq!(current_set(&work.workers[0], &work), Some("north/r1/s1"));
        assert_eq!(current_set(&work.workers[1], &work), None);
    }
}

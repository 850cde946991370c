//! The workers table and what `status` shows of work spread over machines: workers with
//! their heartbeats, leases, refusals and failed sets (docs/workers.md).

use super::backend::StoreRow;
use super::lease::{LeaseToken, WorkerName};
use super::read::{ReadRow, opt_count};
use super::{Store, StoreError};
use crate::tourney::model::{SetId, TeamId};

/// Who a worker is, as it registers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerInfo {
    pub name: WorkerName,
    pub host: String,
    pub pid: u32,
    /// The lrs-tourney version it runs.
    pub version: String,
}

/// What a worker is doing, as its heartbeat says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerState {
    Working,
    /// SIGTERM: finishing its games, claiming nothing more.
    Draining,
    Stopped,
}

impl WorkerState {
    fn as_sql(self) -> &'static str {
        match self {
            WorkerState::Working => "working",
            WorkerState::Draining => "draining",
            WorkerState::Stopped => "stopped",
        }
    }
}

/// A stored worker, with its ages on the database's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerRow {
    pub name: WorkerName,
    pub host: String,
    pub pid: u32,
    pub version: String,
    /// `working`, `draining` or `stopped`.
    pub state: String,
    pub current_set: Option<SetId>,
    /// Games it stored since it (re)started.
    pub games_done: u64,
    /// Milliseconds since it (re)started and since its last heartbeat.
    pub running_ms: i64,
    pub heartbeat_age_ms: i64,
}

impl ReadRow for WorkerRow {
    fn read(r: &StoreRow) -> Result<WorkerRow, sqlx::Error> {
        Ok(WorkerRow {
            name: WorkerName::new(r.text("id")?),
            host: r.text("host")?,
            pid: super::read::count(r, "pid")?,
            version: r.text("version")?,
            state: r.text("state")?,
            current_set: r.opt_text("current_set")?.map(SetId::new),
            games_done: super::read::count(r, "games_done")?,
            running_ms: r.int("running_ms")?,
            heartbeat_age_ms: r.int("heartbeat_age_ms")?,
        })
    }
}

/// A set leased to a worker now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRow {
    pub set_id: SetId,
    pub worker: WorkerName,
    pub token: LeaseToken,
    /// Milliseconds until it expires (negative: expired, free for another worker).
    pub expires_in_ms: i64,
    pub interruptions: u32,
}

impl ReadRow for LeaseRow {
    fn read(r: &StoreRow) -> Result<LeaseRow, sqlx::Error> {
        Ok(LeaseRow {
            set_id: SetId::new(r.text("id")?),
            worker: WorkerName::new(r.text("lease_worker")?),
            token: LeaseToken(r.int("lease_token")?),
            expires_in_ms: r.opt_int("expires_in_ms")?.unwrap_or(0),
            interruptions: super::read::count(r, "interruptions")?,
        })
    }
}

/// A set a worker would not play, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusalRow {
    pub set_id: SetId,
    pub worker: WorkerName,
    /// The team whose bot folder differs; `None` when the worker itself differs.
    pub team: Option<TeamId>,
    pub reason: String,
}

impl ReadRow for RefusalRow {
    fn read(r: &StoreRow) -> Result<RefusalRow, sqlx::Error> {
        Ok(RefusalRow {
            set_id: SetId::new(r.text("set_id")?),
            worker: WorkerName::new(r.text("worker")?),
            team: opt_count(r, "team_id")?.map(TeamId),
            reason: r.text("reason")?,
        })
    }
}

/// A failure of a set on one worker; `failed`: the set is failed (no worker claims it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailureRow {
    pub set_id: SetId,
    pub worker: WorkerName,
    pub reason: String,
    pub failed: bool,
}

impl ReadRow for FailureRow {
    fn read(r: &StoreRow) -> Result<FailureRow, sqlx::Error> {
        Ok(FailureRow {
            set_id: SetId::new(r.text("set_id")?),
            worker: WorkerName::new(r.text("worker")?),
            reason: r.text("reason")?,
            failed: r.flag("failed")?,
        })
    }
}

impl Store {
    /// Registers `worker` (again, under the same name after a restart): working, no games
    /// done yet, its heartbeat now.
    pub async fn register_worker(&self, worker: &WorkerInfo) -> Result<(), StoreError> {
        self.timed(
            "INSERT INTO workers (id, host, pid, version, started_ms, heartbeat_ms, state, current_set, games_done)
             VALUES ($1, $2, $3, $4, {now}, {now}, 'working', NULL, 0)
             ON CONFLICT (id) DO UPDATE
             SET host = excluded.host, pid = excluded.pid, version = excluded.version,
                 started_ms = excluded.started_ms, heartbeat_ms = excluded.heartbeat_ms,
                 state = 'working', current_set = NULL, games_done = 0",
        )
        .bind(worker.name.as_str())
        .bind(worker.host.as_str())
        .bind(i64::from(worker.pid))
        .bind(worker.version.as_str())
        .execute(self.pool())
        .await
        .map_err(self.db_err())?;
        Ok(())
    }

    /// A worker's heartbeat: alive now, in `state`, playing `current_set`.
    pub async fn worker_heartbeat(
        &self,
        worker: &WorkerName,
        state: WorkerState,
        current_set: Option<&SetId>,
    ) -> Result<(), StoreError> {
        self.timed(
            "UPDATE workers SET heartbeat_ms = {now}, state = $2, current_set = $3 WHERE id = $1",
        )
        .bind(worker.as_str())
        .bind(state.as_sql())
        .bind(current_set.map(|s| s.as_str().to_string()))
        .execute(self.pool())
        .await
        .map_err(self.db_err())?;
        Ok(())
    }

    /// Every worker that registered, by name.
    pub async fn workers(&self) -> Result<Vec<WorkerRow>, StoreError> {
        self.all_of(self.timed(
            "SELECT id, host, pid, version, state, current_set, games_done,
                    {now} - started_ms AS running_ms, {now} - heartbeat_ms AS heartbeat_age_ms
             FROM workers ORDER BY id",
        ))
        .await
    }

    /// Every set leased now, by id.
    pub async fn leases(&self) -> Result<Vec<LeaseRow>, StoreError> {
        self.all_of(self.timed(
            "SELECT id, lease_worker, lease_token, lease_expires_ms - {now} AS expires_in_ms, interruptions
             FROM sets WHERE lease_worker IS NOT NULL ORDER BY id",
        ))
        .await
    }

    /// Every refusal, by set and worker.
    pub async fn refusals(&self) -> Result<Vec<RefusalRow>, StoreError> {
        self.all_of(self.timed(
            "SELECT set_id, worker, team_id, reason FROM set_refusals ORDER BY set_id, worker",
        ))
        .await
    }

    /// Every failure of a set on a worker, by set and worker.
    pub async fn set_failures(&self) -> Result<Vec<FailureRow>, StoreError> {
        self.all_of(self.timed(
            "SELECT f.set_id, f.worker, f.reason, s.failed
             FROM set_failures f JOIN sets s ON s.id = f.set_id ORDER BY f.set_id, f.worker",
        ))
        .await
    }
}

//! Leases: how workers on several machines share a tournament's sets (docs/workers.md).
//!
//! A worker claims a whole set (a series keeps its clients) with one statement that picks
//! a claimable set, skipping rows other claims hold (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL; SQLite has one writer), and bumps its lease token. The lease expires on the
//! database's clock unless the worker's heartbeat extends it; once expired, another worker
//! may claim the set and play its remaining games again from the same seeds. Every game a
//! worker stores checks its lease token in the same transaction, so a worker that lost its
//! lease (it stalled, or its machine came back) can never store a result twice.

use super::backend::{Cell, Dialect, Query, SqlText, StoreRow};
use super::read::{GAME_COLUMNS, ReadRow, count, set_id_col};
use super::wake::News;
use super::{GameNo, GameRow, GameStatus, Store, StoreError};
use crate::tourney::model::{SetId, TeamId};
use crate::tourney::played::PlayedGame;

/// A worker's name: given with `--name`, else its host and process id. A worker restarted
/// under the same name gets its own leases back first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorkerName(String);

impl WorkerName {
    pub fn new(name: impl Into<String>) -> WorkerName {
        WorkerName(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for WorkerName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The token of one claim of a set: bumped by every claim, checked by every write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LeaseToken(pub i64);

/// A set claimed by a worker.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lease {
    pub set_id: SetId,
    pub token: LeaseToken,
}

/// What became of a game a worker played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeasedWrite {
    /// Stored under the worker's lease.
    Stored,
    /// Not stored: the game was stored already, or the worker's lease was taken over (the
    /// worker that holds it now stores the game). Never retried.
    AlreadyStored,
}

/// A claimed set as a worker plays it: its current run, members and the games of that run
/// still to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetToPlay {
    pub set_id: SetId,
    pub run_no: u32,
    /// Teams by set position, each with the content hash of the code the set was dealt
    /// with (`None` for a built-in AI).
    pub members: Vec<(TeamId, Option<String>)>,
    /// The games not stored yet, in game order.
    pub games: Vec<GameRow>,
}

/// The database's clock in milliseconds since 1970, as an SQL expression.
fn now_ms(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
        Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    }
}

/// The clause that makes a claim skip sets another claim is taking.
fn skip_locked(dialect: Dialect) -> &'static str {
    match dialect {
        // One writer at a time: nothing to skip.
        Dialect::Sqlite => "",
        Dialect::Postgres => "FOR UPDATE SKIP LOCKED",
    }
}

/// A claim: the first set that `$1` may play, free or with an expired lease (`own`: only
/// the sets whose lease `$1` holds, expired or not), gets a new token and an expiry `$2`
/// milliseconds away. Sets with nothing left to play, failed sets and sets `$1` refused or
/// failed are never claimed by it. Taking over another worker's lease counts an
/// interruption.
const CLAIM: &str = "UPDATE sets
    SET lease_token = lease_token + 1, lease_worker = $1, lease_expires_ms = {now} + $2,
        interruptions = interruptions + CASE WHEN lease_worker IS NOT NULL AND lease_worker <> $1 THEN 1 ELSE 0 END
    WHERE id = (
        SELECT s.id FROM sets s
        WHERE s.status = 'planned' AND s.failed = FALSE AND {which}
          AND EXISTS (SELECT 1 FROM games g
                      WHERE g.set_id = s.id AND g.run_no = s.run_no
                        AND g.status = 'planned' AND g.superseded = FALSE)
          AND NOT EXISTS (SELECT 1 FROM set_refusals r WHERE r.set_id = s.id AND r.worker = $1)
          AND NOT EXISTS (SELECT 1 FROM set_failures f WHERE f.set_id = s.id AND f.worker = $1)
        ORDER BY s.id
        LIMIT 1 {skip_locked})
    RETURNING id, lease_token";

/// Which sets a claim may take.
const OWN_LEASE: &str = "s.lease_worker = $1";
const FREE_OR_EXPIRED: &str =
    "(s.lease_worker IS NULL OR (s.lease_worker <> $1 AND s.lease_expires_ms < {now}))";

/// How many distinct workers a set may fail on before it is marked failed.
pub const FAILURES_BEFORE_FAILED: i64 = 3;

impl Store {
    /// `sql` with the database's clock (`{now}`) and its claim clause (`{skip_locked}`).
    pub(super) fn timed(&self, sql: &str) -> Query {
        let dialect = self.dialect();
        Query::built(
            SqlText::Owned(
                sql.replace("{now}", now_ms(dialect))
                    .replace("{skip_locked}", skip_locked(dialect)),
            ),
            Vec::new(),
        )
    }

    /// Claims a set for `worker` for `lease_ms` milliseconds: first a set whose lease it
    /// holds (a restarted worker gets its own back), when `own`; else a free set or one whose
    /// lease expired. `None` when there is no such set now.
    pub async fn claim_set(
        &self,
        worker: &WorkerName,
        lease_ms: i64,
        own: bool,
    ) -> Result<Option<Lease>, StoreError> {
        let err = self.db_err();
        let which = if own { OWN_LEASE } else { FREE_OR_EXPIRED };
        let row = self
            .timed(&CLAIM.replace("{which}", which))
            .bind(worker.as_str())
            .bind(lease_ms)
            .fetch_optional(self.pool())
            .await
            .map_err(&err)?;
        row.map(|r| read_lease(&r)).transpose().map_err(&err)
    }

    /// The claimed set's current run, members and games still to play.
    pub async fn set_to_play(&self, set_id: &SetId) -> Result<SetToPlay, StoreError> {
        let err = self.db_err();
        let run_no: u32 = Query::new("SELECT run_no FROM sets WHERE id = $1")
            .bind(set_id.as_str())
            .fetch_one(self.pool())
            .await
            .and_then(|r| count(&r, "run_no"))
            .map_err(&err)?;
        let members = self.set_code(set_id).await?;
        let games: Vec<GameRow> = Query::built(
            SqlText::Owned(format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE set_id = $1 AND run_no = $2 AND superseded = FALSE ORDER BY game_index"
            )),
            vec![
                Cell::Text(set_id.as_str().to_string()),
                Cell::Int(run_no.into()),
            ],
        )
        .fetch_all(self.pool())
        .await
        .and_then(|rows| rows.iter().map(GameRow::read).collect())
        .map_err(&err)?;
        Ok(SetToPlay {
            set_id: set_id.clone(),
            run_no,
            members,
            games: games
                .into_iter()
                .filter(|g| g.status == GameStatus::Planned)
                .collect(),
        })
    }

    /// Extends the leases `worker` holds by `lease_ms` from now; returns those it no longer
    /// holds (another worker claimed them after they expired).
    pub async fn extend_leases(
        &self,
        worker: &WorkerName,
        leases: &[Lease],
        lease_ms: i64,
    ) -> Result<Vec<Lease>, StoreError> {
        let err = self.db_err();
        let mut lost = Vec::new();
        for lease in leases {
            let kept = self
                .timed(
                    "UPDATE sets SET lease_expires_ms = {now} + $1
                     WHERE id = $2 AND lease_token = $3 AND lease_worker = $4",
                )
                .bind(lease_ms)
                .bind(lease.set_id.as_str())
                .bind(lease.token.0)
                .bind(worker.as_str())
                .execute(self.pool())
                .await
                .map_err(&err)?;
            if kept == 0 {
                lost.push(lease.clone());
            }
        }
        Ok(lost)
    }

    /// Stores a game `worker` played under `lease`, in one transaction with the check that
    /// the lease is still its own: a worker whose lease was taken over stores nothing.
    pub async fn record_leased_game(
        &self,
        worker: &WorkerName,
        lease: &Lease,
        game_no: GameNo,
        game: PlayedGame,
    ) -> Result<LeasedWrite, StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        // Takes the set's row (PostgreSQL) or the write lock (SQLite) first, so that no
        // claim can slip between the check and the write.
        let held = while_held("lease_token = lease_token", worker, lease)
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        if held == 0 {
            tx.rollback().await.map_err(&err)?;
            return Ok(LeasedWrite::AlreadyStored);
        }
        let record = super::GameRecord { game_no, game };
        if self
            .write_games(&mut tx, std::slice::from_ref(&record))
            .await?
            == 0
        {
            tx.rollback().await.map_err(&err)?;
            return Ok(LeasedWrite::AlreadyStored);
        }
        Query::new("UPDATE games SET worker = $1, lease_token = $2 WHERE no = $3")
            .bind(worker.as_str())
            .bind(lease.token.0)
            .bind(game_no)
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        self.timed(
            "UPDATE workers SET games_done = games_done + 1, heartbeat_ms = {now} WHERE id = $1",
        )
        .bind(worker.as_str())
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        self.announce(&mut tx, News::GameStored).await?;
        tx.commit().await.map_err(&err)?;
        Ok(LeasedWrite::Stored)
    }

    /// Gives a set back (its games are stored, or the worker drains): free for any worker
    /// at once. A lease taken over already is left alone.
    /// The announcement goes out with the commit, like every other, so a woken worker
    /// always finds the set free.
    pub async fn release_set(&self, worker: &WorkerName, lease: &Lease) -> Result<(), StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        while_held(
            "lease_worker = NULL, lease_expires_ms = NULL",
            worker,
            lease,
        )
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        self.announce(&mut tx, News::SetsToClaim).await?;
        tx.commit().await.map_err(&err)
    }

    /// Records that a set failed on `worker` (`reason`) and gives it back; on the
    /// [`FAILURES_BEFORE_FAILED`]th worker it failed on, the set is marked failed and no
    /// worker claims it until a rerun queues it again. Returns whether it is failed now.
    pub async fn fail_set(
        &self,
        worker: &WorkerName,
        lease: &Lease,
        reason: &str,
    ) -> Result<bool, StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        self.timed(
            "INSERT INTO set_failures (set_id, worker, reason, at_ms) VALUES ($1, $2, $3, {now})
             ON CONFLICT (set_id, worker) DO UPDATE SET reason = excluded.reason, at_ms = excluded.at_ms",
        )
        .bind(lease.set_id.as_str())
        .bind(worker.as_str())
        .bind(reason)
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        let row = Query::new(
            "UPDATE sets
             SET failures = failures + 1,
                 failed = ((SELECT COUNT(*) FROM set_failures WHERE set_id = $1) >= $2),
                 lease_worker = NULL, lease_expires_ms = NULL
             WHERE id = $1
             RETURNING failed",
        )
        .bind(lease.set_id.as_str())
        .bind(FAILURES_BEFORE_FAILED)
        .fetch_one(&mut tx)
        .await
        .map_err(&err)?;
        let failed = row.flag("failed").map_err(&err)?;
        self.announce(&mut tx, News::SetsToClaim).await?;
        tx.commit().await.map_err(&err)?;
        Ok(failed)
    }

    /// Records that `worker` refused a set (`team`: whose bot folder differs, `None` when
    /// the worker itself differs) and gives the set back without a failure; this worker
    /// does not claim it again.
    pub async fn refuse_set(
        &self,
        worker: &WorkerName,
        lease: &Lease,
        team: Option<TeamId>,
        reason: &str,
    ) -> Result<(), StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        self.timed(
            "INSERT INTO set_refusals (set_id, worker, team_id, reason, at_ms)
             VALUES ($1, $2, $3, $4, {now})
             ON CONFLICT (set_id, worker) DO UPDATE
             SET team_id = excluded.team_id, reason = excluded.reason, at_ms = excluded.at_ms",
        )
        .bind(lease.set_id.as_str())
        .bind(worker.as_str())
        .bind(Cell::OptInt(team.map(|t| t.index() as i64)))
        .bind(reason)
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        Query::new(
            "UPDATE sets SET lease_worker = NULL, lease_expires_ms = NULL
             WHERE id = $1 AND lease_token = $2",
        )
        .bind(lease.set_id.as_str())
        .bind(lease.token.0)
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        self.announce(&mut tx, News::SetsToClaim).await?;
        tx.commit().await.map_err(&err)
    }

    /// Whether a set failed on [`FAILURES_BEFORE_FAILED`] workers (no worker claims it).
    pub async fn is_failed(&self, set_id: &SetId) -> Result<bool, StoreError> {
        let err = self.db_err();
        let row = Query::new("SELECT failed FROM sets WHERE id = $1")
            .bind(set_id.as_str())
            .fetch_optional(self.pool())
            .await
            .map_err(&err)?;
        row.map_or(Ok(false), |r| r.flag("failed")).map_err(&err)
    }

    /// Queues a set again for every worker: its failures and refusals are forgotten (a
    /// rerun, after the cause was fixed).
    pub async fn requeue_set(&self, set_id: &SetId) -> Result<(), StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        for sql in [
            "DELETE FROM set_failures WHERE set_id = $1",
            "DELETE FROM set_refusals WHERE set_id = $1",
            "UPDATE sets SET failed = FALSE, failures = 0, lease_worker = NULL, lease_expires_ms = NULL
             WHERE id = $1",
        ] {
            Query::new(sql)
                .bind(set_id.as_str())
                .execute(&mut tx)
                .await
                .map_err(&err)?;
        }
        self.announce(&mut tx, News::SetsToClaim).await?;
        tx.commit().await.map_err(&err)
    }
}

/// `UPDATE sets SET {set}` on the set `lease` names, landing only while `worker` still
/// holds that lease: a worker whose lease was taken over meanwhile changes nothing, and the
/// set stays as its new holder has it.
fn while_held(set: &'static str, worker: &WorkerName, lease: &Lease) -> Query {
    let sql =
        format!("UPDATE sets SET {set} WHERE id = $1 AND lease_token = $2 AND lease_worker = $3");
    Query::built(SqlText::Owned(sql), Vec::new())
        .bind(lease.set_id.as_str())
        .bind(lease.token.0)
        .bind(worker.as_str())
}

fn read_lease(r: &StoreRow) -> Result<Lease, sqlx::Error> {
    Ok(Lease {
        set_id: set_id_col(r, "id")?,
        token: LeaseToken(r.int("lease_token")?),
    })
}

//! Reads: what the tournament database holds, as plain rows for resuming, status,
//! standings and exports.

use super::status::{GameStatus, SetStatus, StageStatus, UnknownStatus};
use super::{Store, StoreError};
use crate::games::{GameKind, Stats};
use crate::tourney::bracket::{SeedScheme, TournamentSeed};
use crate::tourney::model::{AdvancementKind, SetGame, SetId, SetRun, StageId, TeamId};
use sqlx::Row;
use sqlx::any::AnyRow;
use std::collections::HashMap;

/// The stored tournament header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTournament {
    pub name: String,
    /// The secret every seed derives from: never to be printed before the tournament is
    /// finished and an organiser reveals it.
    pub seed: TournamentSeed,
    pub config_hash: String,
    pub format_json: String,
    pub engine_version: u32,
    /// `None` in a database started before limits were stored.
    pub limits: Option<StoredLimits>,
    /// The game the tournament plays (`lrs` for databases from before other games).
    pub game: GameKind,
}

/// The limits a tournament's external bots were started with, as stored with it (the ones
/// its fingerprint covers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredLimits {
    pub time_limit_ms: u64,
    pub start_limit_ms: u64,
    pub memory_mb: u64,
}

/// Who left a round upwards (or joined a stage without playing) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdvancementRow {
    pub stage_id: StageId,
    pub round: u32,
    pub team: TeamId,
    /// The set it left; `None` for round 0 (joined without playing).
    pub set_id: Option<SetId>,
    pub place: u32,
    pub kind: AdvancementKind,
    /// The tie-break step that decided it, when the score did not.
    pub tie_break: Option<String>,
}

/// A set (current run only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetRow {
    pub id: SetId,
    pub stage_id: StageId,
    pub round: u32,
    pub set_index: u32,
    pub is_final: bool,
    pub run_no: u32,
    pub seed_generation: u32,
    /// Planned or done (invalidated sets are not read).
    pub status: SetStatus,
    /// Teams by set position.
    pub members: Vec<TeamId>,
}

impl SetRow {
    /// Whether its advancement is stored.
    pub fn is_done(&self) -> bool {
        self.status == SetStatus::Done
    }
}

/// A stage and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageRow {
    pub id: StageId,
    pub status: StageStatus,
}

/// A stored school.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchoolRow {
    pub id: usize,
    pub name: String,
    /// Its stage's id and the first part of its sets' ids.
    pub slug: String,
}

/// A game of a set's current run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    pub board: String,
    pub status: GameStatus,
    pub attempts: u32,
    pub turns: Option<u32>,
    /// The game's number (see [`crate::store::PlannedGame`]).
    pub no: i64,
}

/// One team's line in a stored, current (not superseded) game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultRow {
    pub game_index: u32,
    pub team: TeamId,
    pub seat: usize,
    pub score: i64,
    pub won: bool,
    pub faults: u32,
    pub stats: Stats,
}

impl ResultRow {
    /// The line as the runner holds it (without its game index).
    pub fn team_result(&self) -> super::TeamResult {
        super::TeamResult {
            team: self.team,
            seat: self.seat,
            score: self.score,
            won: self.won,
            faults: self.faults,
            stats: self.stats,
        }
    }
}

fn int(row: &AnyRow, i: usize) -> Result<i64, sqlx::Error> {
    row.try_get::<i64, _>(i)
}

fn team_col(row: &AnyRow, i: usize) -> Result<TeamId, sqlx::Error> {
    Ok(TeamId(int(row, i)? as usize))
}

fn set_id_col(row: &AnyRow, i: usize) -> Result<SetId, sqlx::Error> {
    Ok(SetId::new(row.try_get::<String, _>(i)?))
}

fn stage_id_col(row: &AnyRow, i: usize) -> Result<StageId, sqlx::Error> {
    Ok(StageId::new(row.try_get::<String, _>(i)?))
}

/// A `status` column read with `parse` (an unknown value is a decoding error naming it).
fn status_col<S>(
    row: &AnyRow,
    i: usize,
    parse: fn(&str) -> Result<S, UnknownStatus>,
) -> Result<S, sqlx::Error> {
    parse(&row.try_get::<String, _>(i)?).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

/// A result line from the 11 columns `game_index, team_id, seat, score, won, faults,
/// stat_1, .., stat_5` starting at column `at`.
fn result_row(r: &AnyRow, at: usize) -> Result<ResultRow, sqlx::Error> {
    Ok(ResultRow {
        game_index: int(r, at)? as u32,
        team: team_col(r, at + 1)?,
        seat: int(r, at + 2)? as usize,
        score: int(r, at + 3)?,
        won: int(r, at + 4)? != 0,
        faults: int(r, at + 5)? as u32,
        stats: Stats([
            int(r, at + 6)? as u32,
            int(r, at + 7)? as u32,
            int(r, at + 8)? as u32,
            int(r, at + 9)? as u32,
            int(r, at + 10)? as u32,
        ]),
    })
}

impl Store {
    /// The tournament header, or `None` for a new database.
    pub async fn tournament(&self) -> Result<Option<StoredTournament>, StoreError> {
        let err = self.db_err();
        let row = sqlx::query(
            "SELECT name, seed, config_hash, format_json, engine_version, time_limit_ms,
                                start_limit_ms, memory_mb, game, seed_scheme
             FROM tournament WHERE id = 1",
        )
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?;
        row.map(|r| {
            Ok(StoredTournament {
                name: r.try_get(0)?,
                seed: {
                    let scheme: String = r.try_get(9)?;
                    let scheme = SeedScheme::parse(&scheme).ok_or_else(|| {
                        sqlx::Error::Decode(
                            format!("unknown seed scheme {scheme:?} (a newer version stored it)")
                                .into(),
                        )
                    })?;
                    TournamentSeed::new(int(&r, 1)? as u64, scheme)
                },
                config_hash: r.try_get(2)?,
                format_json: r.try_get(3)?,
                engine_version: int(&r, 4)? as u32,
                limits: match (
                    r.try_get::<Option<i64>, _>(5)?,
                    r.try_get::<Option<i64>, _>(6)?,
                    r.try_get::<Option<i64>, _>(7)?,
                ) {
                    (Some(time), Some(start), Some(memory)) => Some(StoredLimits {
                        time_limit_ms: time as u64,
                        start_limit_ms: start as u64,
                        memory_mb: memory as u64,
                    }),
                    _ => None,
                },
                game: {
                    let id: String = r.try_get(8)?;
                    GameKind::parse(&id).map_err(|e| sqlx::Error::Decode(Box::new(e)))?
                },
            })
        })
        .transpose()
        .map_err(&err)
    }

    /// Every current set with its members, in id order.
    pub async fn sets(&self) -> Result<Vec<SetRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT id, stage_id, round, set_index, is_final, run_no, seed_generation, status
             FROM sets WHERE status <> 'invalidated' ORDER BY id",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        let mut sets = rows
            .iter()
            .map(|r| {
                Ok(SetRow {
                    id: set_id_col(r, 0)?,
                    stage_id: stage_id_col(r, 1)?,
                    round: int(r, 2)? as u32,
                    set_index: int(r, 3)? as u32,
                    is_final: int(r, 4)? != 0,
                    run_no: int(r, 5)? as u32,
                    seed_generation: int(r, 6)? as u32,
                    status: status_col(r, 7, SetStatus::parse)?,
                    members: Vec::new(),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)?;
        let members = sqlx::query(
            "SELECT m.set_id, m.position, m.team_id FROM set_members m JOIN sets s ON s.id = m.set_id
             WHERE s.status <> 'invalidated' ORDER BY m.set_id, m.position",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        let by_id: std::collections::HashMap<SetId, usize> = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        for m in &members {
            let set_id: String = m.try_get(0).map_err(&err)?;
            let team = team_col(m, 2).map_err(&err)?;
            if let Some(&i) = by_id.get(set_id.as_str()) {
                sets[i].members.push(team);
            }
        }
        Ok(sets)
    }

    /// Every game of every set's current run.
    pub async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT set_id, run_no, game_index, seed, board, status, attempts, turns, no
             FROM games WHERE superseded = 0 ORDER BY set_id, game_index",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(GameRow {
                    set_id: set_id_col(r, 0)?,
                    run_no: int(r, 1)? as u32,
                    game_index: int(r, 2)? as u32,
                    seed: int(r, 3)? as u64,
                    board: r.try_get(4)?,
                    status: status_col(r, 5, GameStatus::parse)?,
                    attempts: int(r, 6)? as u32,
                    turns: r.try_get::<Option<i64>, _>(7)?.map(|t| t as u32),
                    no: int(r, 8)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// The number the next dealt game gets: one more than any stored.
    pub async fn next_game_no(&self) -> Result<i64, StoreError> {
        self.next_game_no_on(self.pool()).await
    }

    /// [`Store::next_game_no`] on a connection or inside a transaction.
    pub(super) async fn next_game_no_on<'e>(
        &self,
        executor: impl sqlx::Executor<'e, Database = sqlx::Any>,
    ) -> Result<i64, StoreError> {
        sqlx::query_scalar("SELECT COALESCE(MAX(no), 0) + 1 FROM games")
            .fetch_one(executor)
            .await
            .map_err(self.db_err())
    }

    /// Per set id, the result lines of its current run's stored games.
    pub async fn results(&self) -> Result<HashMap<SetId, Vec<ResultRow>>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT g.set_id, g.game_index, r.team_id, r.seat, r.score, r.won, r.faults,
                    r.stat_1, r.stat_2, r.stat_3, r.stat_4, r.stat_5
             FROM game_results r
             JOIN games g ON g.no = r.game_no
             WHERE g.superseded = 0
             ORDER BY g.set_id, g.game_index, r.seat",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        let mut out: HashMap<SetId, Vec<ResultRow>> = HashMap::new();
        for r in &rows {
            let row = (|| -> Result<(SetId, ResultRow), sqlx::Error> {
                Ok((set_id_col(r, 0)?, result_row(r, 1)?))
            })()
            .map_err(&err)?;
            out.entry(row.0).or_default().push(row.1);
        }
        Ok(out)
    }

    /// Every result line ever stored, superseded runs included, keyed by (set id, run).
    pub async fn result_history(&self) -> Result<HashMap<SetRun, Vec<ResultRow>>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT g.set_id, g.run_no, g.game_index, r.team_id, r.seat, r.score, r.won,
                    r.faults, r.stat_1, r.stat_2, r.stat_3, r.stat_4, r.stat_5
             FROM game_results r
             JOIN games g ON g.no = r.game_no
             ORDER BY g.set_id, g.run_no, g.game_index, r.seat",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        let mut out: HashMap<SetRun, Vec<ResultRow>> = HashMap::new();
        for r in &rows {
            let row = (|| -> Result<(SetRun, ResultRow), sqlx::Error> {
                let run = SetRun {
                    set: set_id_col(r, 0)?,
                    run: int(r, 1)? as u32,
                };
                Ok((run, result_row(r, 2)?))
            })()
            .map_err(&err)?;
            out.entry(row.0).or_default().push(row.1);
        }
        Ok(out)
    }

    /// Every advancement row, by stage, round, place and team.
    pub async fn advancement(&self) -> Result<Vec<AdvancementRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT stage_id, round, team_id, set_id, place, kind, tie_break FROM advancement
             ORDER BY stage_id, round, place, team_id",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                let kind: String = r.try_get(5)?;
                Ok(AdvancementRow {
                    stage_id: stage_id_col(r, 0)?,
                    round: int(r, 1)? as u32,
                    team: team_col(r, 2)?,
                    set_id: r.try_get::<Option<String>, _>(3)?.map(SetId::new),
                    place: int(r, 4)? as u32,
                    kind: AdvancementKind::parse(&kind).ok_or_else(|| {
                        sqlx::Error::Decode(format!("unknown advancement kind {kind:?}").into())
                    })?,
                    tie_break: r.try_get(6)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// Every stage and its status, by id.
    pub async fn stages(&self) -> Result<Vec<StageRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query("SELECT id, status FROM stages ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(StageRow {
                    id: stage_id_col(r, 0)?,
                    status: status_col(r, 1, StageStatus::parse)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// Stored decisions of every finished game of the current runs, for reports that replay
    /// them all.
    pub async fn current_decisions(&self) -> Result<HashMap<SetGame, Vec<u8>>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT set_id, game_index, decisions FROM games \
             WHERE superseded = 0 AND decisions IS NOT NULL",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                let game = SetGame {
                    set: set_id_col(r, 0)?,
                    index: int(r, 1)? as u32,
                };
                let log: Vec<u8> = r.try_get(2)?;
                Ok((game, log))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(&err)
    }

    /// Stored decisions of a game of any run, superseded ones included (a rerun keeps the
    /// games it replaced, and they can still be watched).
    pub async fn decisions_of_run(
        &self,
        set_id: &SetId,
        run_no: u32,
        game_index: u32,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let err = self.db_err();
        let row = sqlx::query(
            "SELECT decisions FROM games WHERE set_id = $1 AND run_no = $2 AND game_index = $3",
        )
        .bind(set_id.as_str())
        .bind(i64::from(run_no))
        .bind(i64::from(game_index))
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?;
        row.map(|r| r.try_get::<Option<Vec<u8>>, _>(0))
            .transpose()
            .map(Option::flatten)
            .map_err(&err)
    }

    /// Stored decisions of a current game, for replays.
    pub async fn decisions(
        &self,
        set_id: &SetId,
        game_index: u32,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let err = self.db_err();
        let run: Option<i64> = sqlx::query(
            "SELECT run_no FROM games WHERE set_id = $1 AND game_index = $2 AND superseded = 0",
        )
        .bind(set_id.as_str())
        .bind(i64::from(game_index))
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?
        .map(|r| r.try_get::<i64, _>(0))
        .transpose()
        .map_err(&err)?;
        match run {
            Some(run) => self.decisions_of_run(set_id, run as u32, game_index).await,
            None => Ok(None),
        }
    }
}

/// A stored bot log (see `migrations/sqlite/0002_bot_logs.sql` and `0003_game_numbers.sql`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotLogRow {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub team: TeamId,
    pub exit_status: String,
    pub stderr: String,
    /// The game belongs to a run that a rerun replaced.
    pub superseded: bool,
}

/// A row of the audit log: what a rerun did and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    /// Seconds since the Unix epoch, as stored (text).
    pub at: String,
    /// `rerun`, `invalidate`, ...
    pub action: String,
    pub set_id: Option<SetId>,
    pub reason: Option<String>,
    pub details: Option<String>,
}

/// A stored team.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    pub id: TeamId,
    pub school: usize,
    pub name: String,
    /// `builtin:NAME` or `PROTOCOL:COMMAND`.
    pub bot: String,
    /// Command bots: `jsonl` or `windward`.
    pub protocol: Option<String>,
    /// Command bots: the command line as written.
    pub command: Option<String>,
    /// Command bots: the words the command is started with, as a JSON array (absent in a
    /// database started before they were stored).
    pub argv: Option<String>,
    /// Command bots: the directory the bot ran in.
    pub dir: Option<String>,
    /// Command bots: the hash of that directory's files when the tournament started.
    pub content_hash: Option<String>,
}

/// A stored game's header (any run, superseded included), for exports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHistoryRow {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    pub board: String,
    pub status: GameStatus,
    pub attempts: u32,
    pub turns: Option<u32>,
    pub superseded: bool,
    pub engine_version: Option<u32>,
}

impl GameHistoryRow {
    /// Whether it counts now: stored, and of its set's current run.
    pub fn is_current_result(&self) -> bool {
        !self.superseded && self.status == GameStatus::Done
    }
}

impl Store {
    /// Schools by id.
    pub async fn schools(&self) -> Result<Vec<SchoolRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query("SELECT id, name, slug FROM schools ORDER BY id")
            .fetch_all(self.pool())
            .await
            .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(SchoolRow {
                    id: int(r, 0)? as usize,
                    name: r.try_get(1)?,
                    slug: r.try_get(2)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// Teams by id.
    pub async fn teams(&self) -> Result<Vec<TeamRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT id, school_id, name, bot, protocol, command, argv, dir, content_hash
             FROM teams ORDER BY id",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(TeamRow {
                    id: team_col(r, 0)?,
                    school: int(r, 1)? as usize,
                    name: r.try_get(2)?,
                    bot: r.try_get(3)?,
                    protocol: r.try_get(4)?,
                    command: r.try_get(5)?,
                    argv: r.try_get(6)?,
                    dir: r.try_get(7)?,
                    content_hash: r.try_get(8)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// Every game ever stored, superseded runs included, by set and run.
    pub async fn game_history(&self) -> Result<Vec<GameHistoryRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT set_id, run_no, game_index, seed, board, status, attempts, turns, superseded, engine_version
             FROM games ORDER BY set_id, run_no, game_index",
        )
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(GameHistoryRow {
                    set_id: set_id_col(r, 0)?,
                    run_no: int(r, 1)? as u32,
                    game_index: int(r, 2)? as u32,
                    seed: int(r, 3)? as u64,
                    board: r.try_get(4)?,
                    status: status_col(r, 5, GameStatus::parse)?,
                    attempts: int(r, 6)? as u32,
                    turns: r.try_get::<Option<i64>, _>(7)?.map(|t| t as u32),
                    superseded: int(r, 8)? != 0,
                    engine_version: r.try_get::<Option<i64>, _>(9)?.map(|v| v as u32),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// The audit log, oldest first.
    pub async fn audit_log(&self) -> Result<Vec<AuditRow>, StoreError> {
        let err = self.db_err();
        let rows =
            sqlx::query("SELECT at, action, set_id, reason, details FROM audit_log ORDER BY id")
                .fetch_all(self.pool())
                .await
                .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(AuditRow {
                    at: r.try_get(0)?,
                    action: r.try_get(1)?,
                    set_id: r.try_get::<Option<String>, _>(2)?.map(SetId::new),
                    reason: r.try_get(3)?,
                    details: r.try_get(4)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// The logs of external bots in the games of `set_id` (every run), by run, game and
    /// team.
    pub async fn bot_logs(&self, set_id: &SetId) -> Result<Vec<BotLogRow>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query(
            "SELECT g.set_id, g.run_no, g.game_index, l.team_id, l.exit_status, l.stderr, g.superseded
             FROM bot_logs l
             JOIN games g ON g.no = l.game_no
             WHERE g.set_id = $1
             ORDER BY g.run_no, g.game_index, l.team_id",
        )
        .bind(set_id.as_str())
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| {
                Ok(BotLogRow {
                    set_id: set_id_col(r, 0)?,
                    run_no: int(r, 1)? as u32,
                    game_index: int(r, 2)? as u32,
                    team: team_col(r, 3)?,
                    exit_status: r.try_get(4)?,
                    stderr: r.try_get(5)?,
                    superseded: int(r, 6)? != 0,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err(&err)
    }

    /// Sets a rerun invalidated (to be dealt again), by id, with their run numbers.
    pub async fn invalidated_sets(&self) -> Result<HashMap<SetId, u32>, StoreError> {
        let err = self.db_err();
        let rows = sqlx::query("SELECT id, run_no FROM sets WHERE status = 'invalidated'")
            .fetch_all(self.pool())
            .await
            .map_err(&err)?;
        rows.iter()
            .map(|r| Ok((set_id_col(r, 0)?, int(r, 1)? as u32)))
            .collect::<Result<HashMap<_, _>, sqlx::Error>>()
            .map_err(&err)
    }
}

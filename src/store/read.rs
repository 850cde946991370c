//! Reads: what the tournament database holds, as plain rows for resuming, status,
//! standings and exports.

use super::GameNo;
use super::backend::{Dialect, Query, SqlText, StoreRow, Tx};
use super::status::{GameStatus, SetStatus, StageStatus, UnknownStatus};
use super::{Store, StoreError};
use crate::games::{GameKind, SeatOutcome, Stats, TieStep};
use crate::tourney::bracket::{SeedScheme, TournamentSeed};
use crate::tourney::model::{AdvancementKind, SetGame, SetId, SetRun, StageId, TeamId, TieBreak};
use crate::tourney::played::{BotLog, TeamResult};
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
    pub tie_break: Option<TieBreak>,
}

/// An advancement row as stored: its tie-break step still the stored name, which only the
/// tournament's game can read (see [`Store::advancement`]).
struct StoredAdvancement {
    row: AdvancementRow,
    tie_break: Option<String>,
}

impl StoredAdvancement {
    /// The row with its tie-break step read among the game's `steps`, or what is wrong
    /// with it.
    fn read(self, steps: &[TieStep]) -> Result<AdvancementRow, String> {
        let Some(name) = self.tie_break else {
            return Ok(self.row);
        };
        let Some(step) = TieBreak::parse(&name, steps) else {
            let row = &self.row;
            let from = match &row.set_id {
                Some(set) => format!("set {set}"),
                None => format!("stage {} round {}", row.stage_id, row.round),
            };
            return Err(format!(
                "the advancement of team {} from {from} names an unknown tie-break step {name:?} (a newer version stored it?)",
                row.team.index()
            ));
        };
        Ok(AdvancementRow {
            tie_break: Some(step),
            ..self.row
        })
    }
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

/// The set that decides a tournament of `schools` schools, among its stored `sets`: the
/// nationals' final with two schools or more (`None` until it is dealt), the school's final
/// with one. The tournament is over when it is done.
pub fn decisive_final(sets: &[SetRow], schools: usize) -> Option<&SetRow> {
    let mut finals = sets.iter().filter(|s| s.is_final);
    if schools > 1 {
        finals.find(|s| s.stage_id.is_nationals())
    } else {
        finals.next()
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

/// A stored game: of a set's current run, or (in [`Store::game_history`]) of a run a
/// rerun superseded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub seed: u64,
    /// The game's arena, by name (a board for the games played on one).
    pub arena: String,
    pub status: GameStatus,
    pub attempts: u32,
    pub turns: Option<u32>,
    /// The game's number (see [`crate::store::PlannedGame`]).
    pub no: GameNo,
    /// Its run was replaced by a rerun.
    pub superseded: bool,
    /// The rules engine version that played it (`None` until it is played).
    pub engine_version: Option<u32>,
}

impl GameRow {
    /// Whether it counts now: stored, and of its set's current run.
    pub fn is_current_result(&self) -> bool {
        !self.superseded && self.status == GameStatus::Done
    }
}

/// The name the exports and replays read stored games by: every game is one [`GameRow`].
pub type GameHistoryRow = GameRow;

/// The columns a [`GameRow`] is read from.
pub(super) const GAME_COLUMNS: &str = "set_id, run_no, game_index, seed, arena, status, attempts, turns, no, superseded, engine_version";

/// One team's line in a stored game: the line as the game was played, and which game of
/// its set's run it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultRow {
    pub game_index: u32,
    pub line: TeamResult,
}

/// A value read from a row by column names.
pub(super) trait ReadRow: Sized {
    fn read(r: &StoreRow) -> Result<Self, sqlx::Error>;
}

/// Column `name` as an integer.
fn int(row: &StoreRow, name: &str) -> Result<i64, sqlx::Error> {
    row.int(name)
}

/// Column `name` as a count, a number or an index that cannot be negative: a stored value
/// out of range is a decoding error naming the column, never a silently wrapped number.
pub(super) fn count<T: TryFrom<i64>>(row: &StoreRow, name: &str) -> Result<T, sqlx::Error> {
    in_range(name, int(row, name)?)
}

/// Column `name`, which may be NULL, as a count (see [`count`]).
pub(super) fn opt_count<T: TryFrom<i64>>(
    row: &StoreRow,
    name: &str,
) -> Result<Option<T>, sqlx::Error> {
    row.opt_int(name)?
        .map(|value| in_range(name, value))
        .transpose()
}

/// `value` of column `name` as a `T`, or a decoding error naming the column.
fn in_range<T: TryFrom<i64>>(name: &str, value: i64) -> Result<T, sqlx::Error> {
    T::try_from(value).map_err(|_| sqlx::Error::ColumnDecode {
        index: name.to_string(),
        source: format!("{value} is out of range").into(),
    })
}

/// Column `name`, a boolean (0 or 1 in SQLite).
fn flag(row: &StoreRow, name: &str) -> Result<bool, sqlx::Error> {
    row.flag(name)
}

pub(super) fn team_col(row: &StoreRow, name: &str) -> Result<TeamId, sqlx::Error> {
    Ok(TeamId(count(row, name)?))
}

pub(super) fn set_id_col(row: &StoreRow, name: &str) -> Result<SetId, sqlx::Error> {
    Ok(SetId::new(row.text(name)?))
}

/// A `status` column read with `parse` (an unknown value is a decoding error naming it).
fn status_col<S>(
    row: &StoreRow,
    name: &str,
    parse: fn(&str) -> Result<S, UnknownStatus>,
) -> Result<S, sqlx::Error> {
    parse(&row.text(name)?).map_err(|e| sqlx::Error::Decode(Box::new(e)))
}

impl ReadRow for ResultRow {
    /// A result line from the columns `game_index, team_id, seat, score, won, faults,
    /// stat_1, .., stat_5`.
    fn read(r: &StoreRow) -> Result<ResultRow, sqlx::Error> {
        Ok(ResultRow {
            game_index: count(r, "game_index")?,
            line: TeamResult {
                team: team_col(r, "team_id")?,
                seat: count(r, "seat")?,
                outcome: SeatOutcome {
                    score: int(r, "score")?,
                    won: flag(r, "won")?,
                    faults: count(r, "faults")?,
                    stats: Stats([
                        count(r, "stat_1")?,
                        count(r, "stat_2")?,
                        count(r, "stat_3")?,
                        count(r, "stat_4")?,
                        count(r, "stat_5")?,
                    ]),
                },
            },
        })
    }
}

impl ReadRow for GameRow {
    /// A game from the columns of [`GAME_COLUMNS`].
    fn read(r: &StoreRow) -> Result<GameRow, sqlx::Error> {
        Ok(GameRow {
            set_id: set_id_col(r, "set_id")?,
            run_no: count(r, "run_no")?,
            game_index: count(r, "game_index")?,
            seed: int(r, "seed")? as u64,
            arena: r.text("arena")?,
            status: status_col(r, "status", GameStatus::parse)?,
            attempts: count(r, "attempts")?,
            turns: opt_count(r, "turns")?,
            no: GameNo(int(r, "no")?),
            superseded: flag(r, "superseded")?,
            engine_version: opt_count(r, "engine_version")?,
        })
    }
}

impl ReadRow for BotLogRow {
    fn read(r: &StoreRow) -> Result<BotLogRow, sqlx::Error> {
        Ok(BotLogRow {
            set_id: set_id_col(r, "set_id")?,
            run_no: count(r, "run_no")?,
            game_index: count(r, "game_index")?,
            log: BotLog {
                team: team_col(r, "team_id")?,
                exit_status: r.text("exit_status")?,
                stderr: r.text("stderr")?,
            },
            superseded: flag(r, "superseded")?,
        })
    }
}

/// The typed rows the reads of whole tables decode, by column name, on either database
/// (`#[derive(sqlx::FromRow)]`), and what they become.
mod typed {
    use super::*;

    #[derive(sqlx::FromRow)]
    pub(super) struct School {
        id: i64,
        name: String,
        slug: String,
    }

    impl School {
        pub(super) fn read(self) -> Result<SchoolRow, sqlx::Error> {
            Ok(SchoolRow {
                id: in_range("id", self.id)?,
                name: self.name,
                slug: self.slug,
            })
        }
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Team {
        id: i64,
        school_id: i64,
        name: String,
        bot: String,
        protocol: Option<String>,
        command: Option<String>,
        argv: Option<String>,
        dir: Option<String>,
        content_hash: Option<String>,
    }

    impl Team {
        pub(super) fn read(self) -> Result<TeamRow, sqlx::Error> {
            Ok(TeamRow {
                id: TeamId(in_range("id", self.id)?),
                school: in_range("school_id", self.school_id)?,
                name: self.name,
                bot: self.bot,
                protocol: self.protocol,
                command: self.command,
                argv: self.argv,
                dir: self.dir,
                content_hash: self.content_hash,
            })
        }
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Set {
        id: String,
        stage_id: String,
        round: i64,
        set_index: i64,
        is_final: bool,
        run_no: i64,
        seed_generation: i64,
        status: String,
    }

    impl Set {
        /// The set without its members (read apart).
        pub(super) fn read(self) -> Result<SetRow, sqlx::Error> {
            Ok(SetRow {
                id: SetId::new(self.id),
                stage_id: StageId::new(self.stage_id),
                round: in_range("round", self.round)?,
                set_index: in_range("set_index", self.set_index)?,
                is_final: self.is_final,
                run_no: in_range("run_no", self.run_no)?,
                seed_generation: in_range("seed_generation", self.seed_generation)?,
                status: SetStatus::parse(&self.status)
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                members: Vec::new(),
            })
        }
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Member {
        pub(super) set_id: String,
        pub(super) team_id: i64,
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Advancement {
        stage_id: String,
        round: i64,
        team_id: i64,
        set_id: Option<String>,
        place: i64,
        kind: String,
        tie_break: Option<String>,
    }

    impl Advancement {
        pub(super) fn read(self) -> Result<StoredAdvancement, sqlx::Error> {
            let kind = &self.kind;
            let row = AdvancementRow {
                stage_id: StageId::new(self.stage_id),
                round: in_range("round", self.round)?,
                team: TeamId(in_range("team_id", self.team_id)?),
                set_id: self.set_id.map(SetId::new),
                place: in_range("place", self.place)?,
                kind: AdvancementKind::parse(kind).ok_or_else(|| {
                    sqlx::Error::Decode(format!("unknown advancement kind {kind:?}").into())
                })?,
                tie_break: None,
            };
            Ok(StoredAdvancement {
                row,
                tie_break: self.tie_break,
            })
        }
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Stage {
        id: String,
        status: String,
    }

    impl Stage {
        pub(super) fn read(self) -> Result<StageRow, sqlx::Error> {
            Ok(StageRow {
                id: StageId::new(self.id),
                status: StageStatus::parse(&self.status)
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
            })
        }
    }

    #[derive(sqlx::FromRow)]
    pub(super) struct Audit {
        at: String,
        action: String,
        set_id: Option<String>,
        reason: Option<String>,
        details: Option<String>,
    }

    impl Audit {
        pub(super) fn read(self) -> AuditRow {
            AuditRow {
                at: self.at,
                action: self.action,
                set_id: self.set_id.map(SetId::new),
                reason: self.reason,
                details: self.details,
            }
        }
    }
}

impl Store {
    /// Every row `sql` selects, decoded as a `T` by column name and made a `U` by `read`,
    /// one at a time as the database returns them.
    async fn typed<T: super::backend::TypedRow, U>(
        &self,
        sql: &'static str,
        mut read: impl FnMut(T) -> Result<U, sqlx::Error>,
    ) -> Result<Vec<U>, StoreError> {
        let mut out = Vec::new();
        self.pool()
            .for_each_as(Query::new(sql), |row: T| {
                out.push(read(row)?);
                Ok(())
            })
            .await
            .map_err(|e| match e {
                super::backend::Streamed::Db(e) | super::backend::Streamed::Each(e) => {
                    self.db_err()(e)
                }
            })?;
        Ok(out)
    }
}

impl Store {
    /// Every row `q` selects, each read by column name.
    pub(super) async fn all_of<T: ReadRow>(&self, q: Query) -> Result<Vec<T>, StoreError> {
        q.fetch_all(self.pool())
            .await
            .and_then(|rows| rows.iter().map(T::read).collect())
            .map_err(self.db_err())
    }

    /// The tournament header, or `None` for a new database.
    pub async fn tournament(&self) -> Result<Option<StoredTournament>, StoreError> {
        let err = self.db_err();
        let row = Query::new(
            "SELECT name, seed, config_hash, format_json, engine_version, time_limit_ms,
                                start_limit_ms, memory_mb, game, seed_scheme
             FROM tournament WHERE id = 1",
        )
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?;
        row.map(|r| {
            Ok(StoredTournament {
                name: r.text("name")?,
                seed: {
                    let scheme: String = r.text("seed_scheme")?;
                    let scheme = SeedScheme::parse(&scheme).ok_or_else(|| {
                        sqlx::Error::Decode(
                            format!("unknown seed scheme {scheme:?} (a newer version stored it)")
                                .into(),
                        )
                    })?;
                    // The secret's 64 bits, stored as the signed integer they spell.
                    TournamentSeed::new(int(&r, "seed")? as u64, scheme)
                },
                config_hash: r.text("config_hash")?,
                format_json: r.text("format_json")?,
                engine_version: count(&r, "engine_version")?,
                limits: match (
                    opt_count(&r, "time_limit_ms")?,
                    opt_count(&r, "start_limit_ms")?,
                    opt_count(&r, "memory_mb")?,
                ) {
                    (Some(time_limit_ms), Some(start_limit_ms), Some(memory_mb)) => {
                        Some(StoredLimits {
                            time_limit_ms,
                            start_limit_ms,
                            memory_mb,
                        })
                    }
                    _ => None,
                },
                game: {
                    let id: String = r.text("game")?;
                    GameKind::parse(&id).map_err(|e| sqlx::Error::Decode(Box::new(e)))?
                },
            })
        })
        .transpose()
        .map_err(&err)
    }

    /// The code each member of `set` last played it with, by set position: the content
    /// hash of its bot folder stored when the set was dealt or re-run, else (a set dealt
    /// before these were stored) the team's hash from the tournament's start.
    pub async fn set_code(&self, set: &SetId) -> Result<Vec<(TeamId, Option<String>)>, StoreError> {
        let err = self.db_err();
        let rows = Query::new(
            "SELECT m.team_id, COALESCE(m.content_hash, t.content_hash) AS content_hash
             FROM set_members m JOIN teams t ON t.id = m.team_id
             WHERE m.set_id = $1 ORDER BY m.position",
        )
        .bind(set.as_str())
        .fetch_all(self.pool())
        .await
        .map_err(&err)?;
        rows.iter()
            .map(|r| Ok((team_col(r, "team_id")?, r.opt_text("content_hash")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(&err)
    }

    /// Every current set with its members, in id order.
    pub async fn sets(&self) -> Result<Vec<SetRow>, StoreError> {
        let mut sets: Vec<SetRow> = self
            .typed(
                "SELECT id, stage_id, round, set_index, is_final, run_no, seed_generation, status
                 FROM sets WHERE status <> 'invalidated' ORDER BY id",
                typed::Set::read,
            )
            .await?;
        let by_id: HashMap<SetId, usize> = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        let members: Vec<(usize, TeamId)> = self
            .typed(
                "SELECT m.set_id, m.team_id FROM set_members m JOIN sets s ON s.id = m.set_id
                 WHERE s.status <> 'invalidated' ORDER BY m.set_id, m.position",
                |m: typed::Member| {
                    let team = TeamId(in_range("team_id", m.team_id)?);
                    Ok((
                        by_id.get(m.set_id.as_str()).copied().unwrap_or(usize::MAX),
                        team,
                    ))
                },
            )
            .await?;
        for (i, team) in members {
            if let Some(set) = sets.get_mut(i) {
                set.members.push(team);
            }
        }
        Ok(sets)
    }

    /// Every game of every set's current run.
    pub async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.all_of(Query::built(
            SqlText::Owned(format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE superseded = FALSE ORDER BY set_id, game_index"
            )),
            Vec::new(),
        ))
        .await
    }

    /// The number the next dealt game gets (only the run holding the run lock deals
    /// games). SQLite: one more than any stored. PostgreSQL: the next value of the sequence
    /// `game_no_seq` (read, not taken), which every plan written moves past the numbers it
    /// stored (see [`Store::game_nos_used`]): the same numbers as on SQLite.
    pub async fn next_game_no(&self) -> Result<GameNo, StoreError> {
        let sql = match self.dialect() {
            Dialect::Sqlite => "SELECT COALESCE(MAX(no), 0) + 1 AS next FROM games",
            Dialect::Postgres => {
                "SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END AS next
                 FROM game_no_seq"
            }
        };
        Query::new(sql)
            .fetch_one(self.pool())
            .await
            .and_then(|row| row.int("next"))
            .map(GameNo)
            .map_err(self.db_err())
    }

    /// The first of `count` consecutive game numbers no game has, inside `tx` (a rerun's
    /// new games). PostgreSQL takes them from the sequence `game_no_seq`.
    pub(super) async fn reserve_game_nos(
        &self,
        tx: &mut Tx,
        count: usize,
    ) -> Result<GameNo, StoreError> {
        let err = self.db_err();
        match self.dialect() {
            Dialect::Sqlite => Query::new("SELECT COALESCE(MAX(no), 0) + 1 AS next FROM games")
                .fetch_one(&mut *tx)
                .await
                .and_then(|row| row.int("next"))
                .map(GameNo)
                .map_err(&err),
            Dialect::Postgres => {
                let first = Query::new("SELECT nextval('game_no_seq') AS next")
                    .fetch_one(&mut *tx)
                    .await
                    .and_then(|row| row.int("next"))
                    .map_err(&err)?;
                if count > 1 {
                    self.game_nos_used(tx, GameNo(first + count as i64 - 1))
                        .await?;
                }
                Ok(GameNo(first))
            }
        }
    }

    /// Moves PostgreSQL's sequence of game numbers past `last`, a number just stored, so
    /// that [`Store::next_game_no`] never hands it out again. Nothing to do on SQLite.
    pub(super) async fn game_nos_used(&self, tx: &mut Tx, last: GameNo) -> Result<(), StoreError> {
        if self.dialect() == Dialect::Sqlite {
            return Ok(());
        }
        Query::new(
            "SELECT setval('game_no_seq', GREATEST($1, (SELECT last_value FROM game_no_seq))) AS last",
        )
        .bind(last)
        .fetch_one(tx)
        .await
        .map(drop)
        .map_err(self.db_err())
    }

    /// Per set id, the result lines of its current run's stored games.
    pub async fn results(&self) -> Result<HashMap<SetId, Vec<ResultRow>>, StoreError> {
        self.results_by_set(Query::new(
            "SELECT g.set_id, g.game_index, r.team_id, r.seat, r.score, r.won, r.faults,
                    r.stat_1, r.stat_2, r.stat_3, r.stat_4, r.stat_5
             FROM game_results r
             JOIN games g ON g.no = r.game_no
             WHERE g.superseded = FALSE
             ORDER BY g.set_id, g.game_index, r.seat",
        ))
        .await
    }

    /// The result lines of the stored games of sets whose advancement is not stored yet
    /// (current runs only): what a planner that plays nothing learns of the games workers
    /// stored since it last looked.
    pub async fn results_of_open_sets(&self) -> Result<HashMap<SetId, Vec<ResultRow>>, StoreError> {
        self.results_by_set(Query::new(
            "SELECT g.set_id, g.game_index, r.team_id, r.seat, r.score, r.won, r.faults,
                    r.stat_1, r.stat_2, r.stat_3, r.stat_4, r.stat_5
             FROM game_results r
             JOIN games g ON g.no = r.game_no
             JOIN sets s ON s.id = g.set_id
             WHERE g.superseded = FALSE AND g.status = 'done' AND s.status = 'planned'
               AND g.run_no = s.run_no
             ORDER BY g.set_id, g.game_index, r.seat",
        ))
        .await
    }

    /// The result lines `q` selects (`set_id` and a [`ResultRow`]'s columns), by set id.
    async fn results_by_set(&self, q: Query) -> Result<HashMap<SetId, Vec<ResultRow>>, StoreError> {
        let err = self.db_err();
        let rows = q.fetch_all(self.pool()).await.map_err(&err)?;
        let mut out: HashMap<SetId, Vec<ResultRow>> = HashMap::new();
        for r in &rows {
            let row = (|| -> Result<(SetId, ResultRow), sqlx::Error> {
                Ok((set_id_col(r, "set_id")?, ResultRow::read(r)?))
            })()
            .map_err(&err)?;
            out.entry(row.0).or_default().push(row.1);
        }
        Ok(out)
    }

    /// Every result line ever stored, superseded runs included, keyed by (set id, run).
    pub async fn result_history(&self) -> Result<HashMap<SetRun, Vec<ResultRow>>, StoreError> {
        let err = self.db_err();
        let rows = Query::new(
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
                    set: set_id_col(r, "set_id")?,
                    run: count(r, "run_no")?,
                };
                Ok((run, ResultRow::read(r)?))
            })()
            .map_err(&err)?;
            out.entry(row.0).or_default().push(row.1);
        }
        Ok(out)
    }

    /// Every advancement row, by stage, round, place and team, its tie-break step read
    /// among the stored game's steps.
    pub async fn advancement(&self) -> Result<Vec<AdvancementRow>, StoreError> {
        let steps = self.game().await?.tie_steps();
        let stored: Vec<StoredAdvancement> = self
            .typed(
                "SELECT stage_id, round, team_id, set_id, place, kind, tie_break FROM advancement
                 ORDER BY stage_id, round, place, team_id",
                typed::Advancement::read,
            )
            .await?;
        stored
            .into_iter()
            .map(|row| {
                row.read(steps).map_err(|what| StoreError::Corrupt {
                    path: self.label().to_string(),
                    what,
                })
            })
            .collect()
    }

    /// The game the stored tournament plays (the default game before one is stored).
    async fn game(&self) -> Result<GameKind, StoreError> {
        let err = self.db_err();
        let id: Option<String> = Query::new("SELECT game FROM tournament WHERE id = 1")
            .fetch_optional(self.pool())
            .await
            .and_then(|row| row.map(|r| r.text("game")).transpose())
            .map_err(&err)?;
        id.map_or(Ok(GameKind::default()), |id| {
            GameKind::parse(&id)
                .map_err(|e| sqlx::Error::Decode(Box::new(e)))
                .map_err(&err)
        })
    }

    /// Every stage and its status, by id.
    pub async fn stages(&self) -> Result<Vec<StageRow>, StoreError> {
        self.typed(
            "SELECT id, status FROM stages ORDER BY id",
            typed::Stage::read,
        )
        .await
    }

    /// Stored decisions of every finished game of the current runs, for reports that replay
    /// them all.
    pub async fn current_decisions(&self) -> Result<HashMap<SetGame, Vec<u8>>, StoreError> {
        self.current_decisions_where(
            "SELECT set_id, game_index, decisions FROM games \
             WHERE superseded = FALSE AND decisions IS NOT NULL",
        )
        .await
    }

    /// Stored decisions of the finished games of the current runs of final sets only (a
    /// report with `--replays finals` reads no other game's log).
    pub async fn current_decisions_of_final_sets(
        &self,
    ) -> Result<HashMap<SetGame, Vec<u8>>, StoreError> {
        self.current_decisions_where(
            "SELECT set_id, game_index, decisions FROM games \
             WHERE superseded = FALSE AND decisions IS NOT NULL \
             AND set_id IN (SELECT id FROM sets WHERE is_final = TRUE)",
        )
        .await
    }

    /// How many finished games of the current runs have stored decisions (what
    /// [`Store::current_decisions`] would read), counted without reading them.
    pub async fn current_decision_count(&self) -> Result<usize, StoreError> {
        let err = self.db_err();
        let row = Query::new(
            "SELECT COUNT(*) AS n FROM games WHERE superseded = FALSE AND decisions IS NOT NULL",
        )
        .fetch_one(self.pool())
        .await
        .map_err(&err)?;
        count::<usize>(&row, "n").map_err(&err)
    }

    /// The decisions `sql` selects (`set_id`, `game_index`, `decisions` of games).
    async fn current_decisions_where(
        &self,
        sql: &'static str,
    ) -> Result<HashMap<SetGame, Vec<u8>>, StoreError> {
        let err = self.db_err();
        let rows = Query::new(sql).fetch_all(self.pool()).await.map_err(&err)?;
        rows.iter()
            .map(|r| {
                let game = SetGame {
                    set: set_id_col(r, "set_id")?,
                    index: count(r, "game_index")?,
                };
                let log: Vec<u8> = r.opt_blob("decisions")?.unwrap_or_default();
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
        let row = Query::new(
            "SELECT decisions FROM games WHERE set_id = $1 AND run_no = $2 AND game_index = $3",
        )
        .bind(set_id.as_str())
        .bind(i64::from(run_no))
        .bind(i64::from(game_index))
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?;
        row.map(|r| r.opt_blob("decisions"))
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
        let run: Option<u32> = Query::new(
            "SELECT run_no FROM games WHERE set_id = $1 AND game_index = $2 AND superseded = FALSE",
        )
        .bind(set_id.as_str())
        .bind(i64::from(game_index))
        .fetch_optional(self.pool())
        .await
        .map_err(&err)?
        .map(|r| count::<u32>(&r, "run_no"))
        .transpose()
        .map_err(&err)?;
        match run {
            Some(run) => self.decisions_of_run(set_id, run, game_index).await,
            None => Ok(None),
        }
    }
}

/// A stored bot log (see `migrations/sqlite/0002_bot_logs.sql` and `0003_game_numbers.sql`):
/// the log as the game left it, and which game of which run it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotLogRow {
    pub set_id: SetId,
    pub run_no: u32,
    pub game_index: u32,
    pub log: BotLog,
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

impl Store {
    /// Schools by id.
    pub async fn schools(&self) -> Result<Vec<SchoolRow>, StoreError> {
        self.typed(
            "SELECT id, name, slug FROM schools ORDER BY id",
            typed::School::read,
        )
        .await
    }

    /// Teams by id.
    pub async fn teams(&self) -> Result<Vec<TeamRow>, StoreError> {
        self.typed(
            "SELECT id, school_id, name, bot, protocol, command, argv, dir, content_hash
             FROM teams ORDER BY id",
            typed::Team::read,
        )
        .await
    }

    /// Every game ever stored, superseded runs included, by set and run.
    pub async fn game_history(&self) -> Result<Vec<GameRow>, StoreError> {
        self.all_of(Query::built(
            SqlText::Owned(format!(
                "SELECT {GAME_COLUMNS} FROM games ORDER BY set_id, run_no, game_index"
            )),
            Vec::new(),
        ))
        .await
    }

    /// The audit log, oldest first.
    pub async fn audit_log(&self) -> Result<Vec<AuditRow>, StoreError> {
        self.typed(
            "SELECT at, action, set_id, reason, details FROM audit_log ORDER BY id",
            |row: typed::Audit| Ok(row.read()),
        )
        .await
    }

    /// The logs of external bots in the games of `set_id` (every run), by run, game and
    /// team.
    pub async fn bot_logs(&self, set_id: &SetId) -> Result<Vec<BotLogRow>, StoreError> {
        self.all_of(
            Query::new(
            "SELECT g.set_id, g.run_no, g.game_index, l.team_id, l.exit_status, l.stderr, g.superseded
             FROM bot_logs l
             JOIN games g ON g.no = l.game_no
             WHERE g.set_id = $1
             ORDER BY g.run_no, g.game_index, l.team_id",
        )
        .bind(set_id.as_str()),
        )
        .await
    }

    /// Sets a rerun invalidated (to be dealt again), by id, with their run numbers.
    pub async fn invalidated_sets(&self) -> Result<HashMap<SetId, u32>, StoreError> {
        let err = self.db_err();
        let rows = Query::new("SELECT id, run_no FROM sets WHERE status = 'invalidated'")
            .fetch_all(self.pool())
            .await
            .map_err(&err)?;
        rows.iter()
            .map(|r| Ok((set_id_col(r, "id")?, count(r, "run_no")?)))
            .collect::<Result<HashMap<_, _>, sqlx::Error>>()
            .map_err(&err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn final_of(stage: &str, status: SetStatus) -> SetRow {
        SetRow {
            id: SetId::new(format!("{stage}/final")),
            stage_id: StageId::new(stage),
            round: 1,
            set_index: 1,
            is_final: true,
            run_no: 0,
            seed_generation: 0,
            status,
            members: Vec::new(),
        }
    }

    #[test]
    fn a_stored_tie_break_reads_by_its_game_and_an_unknown_one_names_its_row() {
        let steps = GameKind::default().tie_steps();
        let stored = |name: &str| StoredAdvancement {
            row: AdvancementRow {
                stage_id: StageId::new("north"),
                round: 2,
                team: TeamId(5),
                set_id: Some(SetId::new("north/r2/s1")),
                place: 1,
                kind: AdvancementKind::Top,
                tie_break: None,
            },
            tie_break: Some(name.to_string()),
        };
        let read = stored(steps[0].name).read(steps).unwrap();
        assert_eq!(read.tie_break, Some(TieBreak::Stat(0, steps[0])));
        assert_eq!(
            stored("games_won").read(steps).unwrap().tie_break,
            Some(TieBreak::GamesWon)
        );
        assert_eq!(
            stored("coin_toss").read(steps).unwrap_err(),
            "the advancement of team 5 from set north/r2/s1 names an unknown tie-break step \"coin_toss\" (a newer version stored it?)"
        );
    }

    #[test]
    fn the_decisive_final_is_the_nationals_one_with_two_schools() {
        // A one-team school plays no set: the other school's final is not the last word.
        let before = [final_of("b", SetStatus::Done)];
        assert_eq!(decisive_final(&before, 2), None);
        let after = [
            final_of("b", SetStatus::Done),
            final_of("nationals", SetStatus::Planned),
        ];
        assert_eq!(
            decisive_final(&after, 2).map(|s| s.id.as_str()),
            Some("nationals/final")
        );
        assert_eq!(
            decisive_final(&before, 1).map(|s| s.id.as_str()),
            Some("b/final")
        );
        assert_eq!(decisive_final(&[], 1), None);
    }
}

//! Reads that the database aggregates: each team's totals per set and each set's game
//! counts (what standings, status and exports need instead of every result line), and the
//! games export's rows streamed one at a time.
//!
//! Every statement is read into a `#[derive(sqlx::FromRow)]` struct by column name, on
//! either database; sums are cast to `BIGINT` (PostgreSQL sums a `BIGINT` column as a
//! `NUMERIC`) and a flag is summed as `CASE WHEN .. THEN 1 ELSE 0 END` (a `BOOLEAN` on
//! PostgreSQL, 0 or 1 on SQLite).

use super::backend::{Query, Streamed};
use super::{Store, StoreError};
use crate::games::Stats;
use crate::tourney::model::{SetId, TeamId};
use std::collections::HashMap;

/// One team's totals over the stored games of a set's current run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub team: TeamId,
    /// The series score.
    pub score: i64,
    /// Games with a result line of the team.
    pub games: u32,
    pub won: u32,
    pub faults: u32,
    /// The game's statistics, summed.
    pub stats: Stats,
}

impl Tally {
    /// The sum of two tallies (saturating, as [`Stats::plus`]), keeping `self.team`.
    pub fn plus(self, other: &Tally) -> Tally {
        Tally {
            team: self.team,
            score: self.score + other.score,
            games: self.games.saturating_add(other.games),
            won: self.won.saturating_add(other.won),
            faults: self.faults.saturating_add(other.faults),
            stats: self.stats.plus(&other.stats),
        }
    }
}

/// A set's games of its current run (superseded runs left out).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Stored (played).
    pub done: usize,
    /// Planned, stored or not.
    pub planned: usize,
    /// Started more than once (after an interrupted run).
    pub restarted: usize,
}

/// A row of [`Store::set_tallies`].
#[derive(sqlx::FromRow)]
struct TallyRow {
    set_id: String,
    team_id: i64,
    score: i64,
    games: i64,
    won: i64,
    faults: i64,
    stat_1: i64,
    stat_2: i64,
    stat_3: i64,
    stat_4: i64,
    stat_5: i64,
}

/// A sum or count as a `u32`: negative ones cannot be stored, and larger ones saturate as
/// the sums in memory do.
fn sum_u32(value: i64) -> u32 {
    u32::try_from(value.max(0)).unwrap_or(u32::MAX)
}

/// A row of [`Store::game_counts`].
#[derive(sqlx::FromRow)]
struct CountRow {
    set_id: String,
    done: i64,
    planned: i64,
    restarted: i64,
}

/// One row of the games export: a stored game (of any run) and one team's line in it, or
/// the game alone (`seat` and the line's columns `None`) when it has no line yet.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct GameLine {
    pub set_id: String,
    pub run_no: i64,
    pub game_index: i64,
    pub arena: String,
    pub status: String,
    pub attempts: i64,
    pub turns: Option<i64>,
    pub superseded: bool,
    pub engine_version: Option<i64>,
    /// The team's name (`?` for a team not stored).
    pub team: Option<String>,
    /// Its school's name (`?` for one not stored).
    pub school: Option<String>,
    pub seat: Option<i64>,
    pub score: Option<i64>,
    pub won: Option<bool>,
    pub faults: Option<i64>,
    pub stat_1: Option<i64>,
    pub stat_2: Option<i64>,
    pub stat_3: Option<i64>,
    pub stat_4: Option<i64>,
    pub stat_5: Option<i64>,
}

impl GameLine {
    /// The line's statistics (`None` without a line).
    pub fn stats(&self) -> Option<Stats> {
        Some(Stats([
            sum_u32(self.stat_1?),
            sum_u32(self.stat_2?),
            sum_u32(self.stat_3?),
            sum_u32(self.stat_4?),
            sum_u32(self.stat_5?),
        ]))
    }
}

/// Why a streamed read stopped: the database failed, or what the rows were handed to did.
#[derive(Debug, thiserror::Error)]
pub enum StreamError<E: std::error::Error + 'static> {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Each(E),
}

impl Store {
    /// Per set, each team's totals over its current run's stored games, by team id (every
    /// team with a line there, members or not). One row per set and team is read: the
    /// result lines are summed by the database.
    pub async fn set_tallies(&self) -> Result<HashMap<SetId, Vec<Tally>>, StoreError> {
        let mut out: HashMap<SetId, Vec<Tally>> = HashMap::new();
        let mut current: Option<(String, Vec<Tally>)> = None;
        self.pool()
            .for_each_as(
                Query::new(
                    "SELECT g.set_id, r.team_id,
                            CAST(SUM(r.score) AS BIGINT) AS score,
                            COUNT(*) AS games,
                            CAST(SUM(CASE WHEN r.won THEN 1 ELSE 0 END) AS BIGINT) AS won,
                            CAST(SUM(r.faults) AS BIGINT) AS faults,
                            CAST(SUM(r.stat_1) AS BIGINT) AS stat_1,
                            CAST(SUM(r.stat_2) AS BIGINT) AS stat_2,
                            CAST(SUM(r.stat_3) AS BIGINT) AS stat_3,
                            CAST(SUM(r.stat_4) AS BIGINT) AS stat_4,
                            CAST(SUM(r.stat_5) AS BIGINT) AS stat_5
                     FROM game_results r
                     JOIN games g ON g.no = r.game_no
                     WHERE g.superseded = FALSE
                     GROUP BY g.set_id, r.team_id
                     ORDER BY g.set_id, r.team_id",
                ),
                |row: TallyRow| -> Result<(), std::convert::Infallible> {
                    let tally = Tally {
                        team: TeamId(usize::try_from(row.team_id.max(0)).unwrap_or(usize::MAX)),
                        score: row.score,
                        games: sum_u32(row.games),
                        won: sum_u32(row.won),
                        faults: sum_u32(row.faults),
                        stats: Stats([
                            sum_u32(row.stat_1),
                            sum_u32(row.stat_2),
                            sum_u32(row.stat_3),
                            sum_u32(row.stat_4),
                            sum_u32(row.stat_5),
                        ]),
                    };
                    match &mut current {
                        Some((set, tallies)) if *set == row.set_id => tallies.push(tally),
                        _ => {
                            if let Some((set, tallies)) = current.replace((row.set_id, vec![tally]))
                            {
                                out.insert(SetId::new(set), tallies);
                            }
                        }
                    }
                    Ok(())
                },
            )
            .await
            .map_err(|e| self.db_err()(e.db()))?;
        if let Some((set, tallies)) = current {
            out.insert(SetId::new(set), tallies);
        }
        Ok(out)
    }

    /// Per set id, its current run's games: stored, planned and restarted (counted by the
    /// database).
    pub async fn game_counts(&self) -> Result<HashMap<SetId, GameCounts>, StoreError> {
        let mut out = HashMap::new();
        self.pool()
            .for_each_as(
                Query::new(
                    "SELECT set_id,
                            CAST(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END) AS BIGINT) AS done,
                            COUNT(*) AS planned,
                            CAST(SUM(CASE WHEN attempts > 1 THEN 1 ELSE 0 END) AS BIGINT) AS restarted
                     FROM games WHERE superseded = FALSE
                     GROUP BY set_id",
                ),
                |row: CountRow| -> Result<(), std::convert::Infallible> {
                    let n = |v: i64| usize::try_from(v.max(0)).unwrap_or(usize::MAX);
                    out.insert(
                        SetId::new(row.set_id),
                        GameCounts {
                            done: n(row.done),
                            planned: n(row.planned),
                            restarted: n(row.restarted),
                        },
                    );
                    Ok(())
                },
            )
            .await
            .map_err(|e| self.db_err()(e.db()))?;
        Ok(out)
    }

    /// Hands `each` every stored game of every run, superseded ones included, by set, run
    /// and game, once per team line in seat order (once alone when it has no line), as the
    /// database returns them.
    pub async fn for_each_game_line<E: std::error::Error + 'static>(
        &self,
        each: impl FnMut(GameLine) -> Result<(), E>,
    ) -> Result<(), StreamError<E>> {
        // A game's lines are keyed game_no * 16 + seat (no game has more than 16 seats):
        // the range finds them by that key, in seat order, so SQLite walks the games in the
        // order of their unique index and each game's lines in the order of the table's
        // key, and sorts nothing (joined on `game_no`, it built a temporary index of every
        // line and sorted the whole export).
        self.pool()
            .for_each_as(
                Query::new(
                    "SELECT g.set_id, g.run_no, g.game_index, g.arena, g.status, g.attempts,
                            g.turns, g.superseded, g.engine_version,
                            CASE WHEN r.line IS NULL THEN NULL ELSE COALESCE(t.name, '?') END
                                AS team,
                            CASE WHEN r.line IS NULL THEN NULL ELSE COALESCE(s.name, '?') END
                                AS school,
                            r.seat, r.score, r.won, r.faults,
                            r.stat_1, r.stat_2, r.stat_3, r.stat_4, r.stat_5
                     FROM games g
                     LEFT JOIN game_results r ON r.line BETWEEN g.no * 16 AND g.no * 16 + 15
                     LEFT JOIN teams t ON t.id = r.team_id
                     LEFT JOIN schools s ON s.id = t.school_id
                     ORDER BY g.set_id, g.run_no, g.game_index, r.line",
                ),
                each,
            )
            .await
            .map_err(|e| match e {
                Streamed::Db(e) => StreamError::Store(self.db_err()(e)),
                Streamed::Each(e) => StreamError::Each(e),
            })
    }
}

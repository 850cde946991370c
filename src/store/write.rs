//! Writes: the tournament's teams, planned sets and games, finished games, advancement and
//! reruns. Each call is one transaction: it happens entirely or not at all.

use super::backend::{Cell, Query, Tx};
use super::batch::{PLANNED_GAMES, planned_game_rows};
use super::rows::RowsSql;
use super::{GameNo, Store, StoreError};
use crate::tourney::bracket::TournamentSeed;
use crate::tourney::model::{Bot, Limits, SetId, StageId, TeamId, Tournament};
use crate::tourney::played::PlayedGame;

/// A set about to be played, with its games' seeds and boards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSet {
    pub id: SetId,
    pub stage_id: StageId,
    pub round: u32,
    pub set_index: u32,
    pub is_final: bool,
    /// Teams by set position.
    pub members: Vec<TeamId>,
    /// The content hash of each member's bot folder as dealt, by set position (`None`
    /// for a built-in AI): the code the set is played with.
    pub code: Vec<Option<String>>,
    pub games: Vec<PlannedGame>,
}

/// What a rerun's audit entry and set record say: its reason, whether it drew new seeds,
/// the code it played (each member's content hash, `None` for a built-in AI), and a
/// description of each team whose code differs from what the set was played with before.
#[derive(Debug, Clone, Copy)]
pub struct RerunWhy<'a> {
    pub reason: &'a str,
    pub reseed: bool,
    pub played_code: &'a [(TeamId, Option<String>)],
    pub code_changed: &'a [String],
}

/// A game as dealt: its number (the application assigns it, unique in the database: the
/// key of its result lines), its index in the series, its seed and its board's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedGame {
    pub no: GameNo,
    pub index: u32,
    pub seed: u64,
    /// The arena's name (a board for the games played on one).
    pub arena: String,
}

/// A finished game as stored: the game dealt as `game_no`, and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number (see [`PlannedGame`]).
    pub game_no: GameNo,
    pub game: PlayedGame,
}

/// Finished games: planned games become done, with their decisions. Rows are
/// `(game number, engine_version, turns, decisions)`; the finishing time is bound after
/// them.
const GAMES_DONE: RowsSql<'static> = RowsSql {
    head: "WITH v (no, engine_version, turns, decisions) AS (VALUES",
    cols: 4,
    row_suffix: "",
    tail: ") UPDATE games SET status = 'done', engine_version = v.engine_version, turns = v.turns,
                            decisions = v.decisions, finished_at = ?
           FROM v
           WHERE games.no = v.no AND games.status = 'planned' AND games.superseded = FALSE",
};

/// The teams' lines of finished games.
const RESULT_LINES: RowsSql<'static> = RowsSql {
    head: "INSERT INTO game_results (line, game_no, team_id, seat, score, won, faults,
                                      stat_1, stat_2, stat_3, stat_4, stat_5) VALUES",
    cols: 12,
    row_suffix: "",
    tail: "ON CONFLICT DO NOTHING",
};

/// Schools.
const SCHOOLS: RowsSql<'static> = RowsSql::values("INSERT INTO schools (id, name, slug) VALUES", 3);

/// The school stages.
const SCHOOL_STAGES: RowsSql<'static> = RowsSql {
    row_suffix: ", 'school', 'planned'",
    ..RowsSql::values("INSERT INTO stages (id, school_id, kind, status) VALUES", 2)
};

/// Teams, with their bots.
const TEAMS: RowsSql<'static> = RowsSql::values(
    "INSERT INTO teams (id, school_id, name, bot, protocol, dir, content_hash, command, argv) VALUES",
    9,
);

/// The key of a game's result line for `seat` (see migration 0005): `game_no * 16 + seat`.
fn result_line(game_no: GameNo, seat: usize) -> i64 {
    game_no.0 * 16 + seat as i64
}

fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    secs.to_string()
}

impl Store {
    /// Stores the tournament, its schools, teams and stages (a new database).
    pub async fn init_tournament(
        &self,
        t: &Tournament,
        seed: &TournamentSeed,
        config_hash: &str,
        format_json: &str,
        engine_version: u32,
    ) -> Result<(), StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        Query::new(
            "INSERT INTO tournament (id, name, seed, config_hash, format_json, engine_version, created_at,
                                     time_limit_ms, start_limit_ms, memory_mb, game, seed_scheme)
             VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(t.name.clone())
        // The secret's 64 bits, stored as the signed integer they spell.
        .bind(seed.secret() as i64)
        .bind(config_hash.to_string())
        .bind(format_json.to_string())
        .bind(i64::from(engine_version))
        .bind(now())
        .bind(t.limits.time_limit_ms as i64)
        .bind(t.limits.start_limit_ms as i64)
        .bind(t.limits.memory_mb as i64)
        .bind(t.bracket.game.kind().id().to_string())
        .bind(seed.scheme().as_str())
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        // Multi-row statements: a generated nationals has tens of thousands of teams, and
        // one statement each would keep the game threads waiting for a second.
        let schools: Vec<Vec<Cell>> = t
            .schools
            .iter()
            .enumerate()
            .map(|(id, school)| {
                vec![
                    Cell::Int(id as i64),
                    Cell::Text(school.name.clone()),
                    Cell::Text(school.slug.clone()),
                ]
            })
            .collect();
        self.insert_rows(&mut tx, SCHOOLS, schools).await?;
        let stages: Vec<Vec<Cell>> = t
            .schools
            .iter()
            .enumerate()
            .map(|(id, school)| vec![Cell::Text(school.slug.clone()), Cell::Int(id as i64)])
            .collect();
        self.insert_rows(&mut tx, SCHOOL_STAGES, stages).await?;
        if t.has_nationals() {
            Query::new(
                "INSERT INTO stages (id, kind, school_id, status) VALUES ('nationals', 'nationals', NULL, 'planned')",
            )
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        }
        let teams: Vec<Vec<Cell>> = t
            .teams
            .iter()
            .enumerate()
            .map(|(id, team)| {
                let (protocol, dir, hash, command, argv) = match &team.bot {
                    Bot::Builtin(_) => (None, None, None, None, None),
                    Bot::Command { program, protocol } => {
                        // Absolute, so that a rerun from the database alone finds it from
                        // any folder.
                        let dir = std::fs::canonicalize(&program.dir)
                            .unwrap_or_else(|_| program.dir.clone());
                        (
                            Some(protocol.name().to_string()),
                            Some(dir.display().to_string()),
                            crate::tourney::dir_hash::dir_hash(&dir).ok(),
                            Some(program.command.clone()),
                            serde_json::to_string(&program.argv).ok(),
                        )
                    }
                };
                vec![
                    Cell::Int(id as i64),
                    Cell::Int(team.school.index() as i64),
                    Cell::Text(team.name.clone()),
                    Cell::Text(team.bot.to_string()),
                    Cell::OptText(protocol),
                    Cell::OptText(dir),
                    Cell::OptText(hash),
                    Cell::OptText(command),
                    Cell::OptText(argv),
                ]
            })
            .collect();
        self.insert_rows(&mut tx, TEAMS, teams).await?;
        tx.commit().await.map_err(&err)
    }

    /// Records the configuration fingerprint and limits of a tournament started by a version
    /// that did not store its limits (see `migrations/sqlite/0004_bots_and_limits.sql`).
    pub async fn record_limits(
        &self,
        config_hash: &str,
        limits: &Limits,
    ) -> Result<(), StoreError> {
        let err = self.db_err();
        Query::new(
            "UPDATE tournament SET config_hash = $1, time_limit_ms = $2, start_limit_ms = $3, memory_mb = $4
             WHERE id = 1",
        )
        .bind(config_hash.to_string())
        .bind(limits.time_limit_ms as i64)
        .bind(limits.start_limit_ms as i64)
        .bind(limits.memory_mb as i64)
        .execute(self.pool())
        .await
        .map_err(&err)?;
        Ok(())
    }

    /// Counts one more attempt for every game that a new run will (re)start: those planned
    /// but not finished when the previous run stopped.
    pub async fn count_restarts(&self) -> Result<u64, StoreError> {
        let err = self.db_err();
        let done = Query::new(
            "UPDATE games SET attempts = attempts + 1 WHERE status = 'planned' AND superseded = FALSE",
        )
        .execute(self.pool())
        .await
        .map_err(&err)?;
        Ok(done)
    }

    /// Stores a finished game and its per-team results in one transaction. Returns false
    /// (and changes nothing) if that game was already stored, so a result is never counted
    /// twice.
    pub async fn record_game(&self, game: &GameRecord) -> Result<bool, StoreError> {
        Ok(self.record_games(std::slice::from_ref(game)).await? == 1)
    }

    /// Stores finished games, each whole, in one transaction (group commit: games that
    /// finish together share a commit, which is what lets the store keep up with thousands
    /// of games a second). A game already stored, or superseded, is left alone and not
    /// counted. Returns how many games were newly stored.
    pub async fn record_games(&self, games: &[GameRecord]) -> Result<u64, StoreError> {
        if games.is_empty() {
            return Ok(0);
        }
        let err = self.db_err();
        let mut tx = self.begin().await?;
        let stored = self.write_games(&mut tx, games).await?;
        if stored as usize != games.len() {
            // Some game was stored before: keep the earlier result, write nothing now.
            tx.rollback().await.map_err(&err)?;
            let mut fresh = 0;
            for g in games {
                fresh += self.record_one(g).await?;
            }
            return Ok(fresh);
        }
        tx.commit().await.map_err(&err)?;
        Ok(stored)
    }

    /// Writes finished games inside `tx`; returns how many planned games became done.
    pub(super) async fn write_games(
        &self,
        tx: &mut Tx,
        games: &[GameRecord],
    ) -> Result<u64, StoreError> {
        let mut done = Vec::with_capacity(games.len() * GAMES_DONE.cols);
        for g in games {
            done.extend([
                Cell::Int(g.game_no.0),
                Cell::Int(i64::from(g.game.engine_version)),
                Cell::Int(i64::from(g.game.turns)),
                Cell::Blob(g.game.decisions.clone()),
            ]);
        }
        let stored = self
            .execute_rows(tx, GAMES_DONE, done, &[Cell::Text(now())])
            .await?;

        let lines: usize = games.iter().map(|g| g.game.results.len()).sum();
        let mut results = Vec::with_capacity(lines * RESULT_LINES.cols);
        for g in games {
            for r in &g.game.results {
                results.extend([
                    Cell::Int(result_line(g.game_no, r.seat)),
                    Cell::Int(g.game_no.0),
                    Cell::Int(r.team.index() as i64),
                    Cell::Int(r.seat as i64),
                    Cell::Int(r.outcome.score),
                    Cell::Bool(r.outcome.won),
                    Cell::Int(i64::from(r.outcome.faults)),
                ]);
                results.extend(r.outcome.stats.0.iter().map(|&v| Cell::Int(i64::from(v))));
            }
        }
        self.execute_rows(tx, RESULT_LINES, results, &[]).await?;
        for g in games {
            self.write_logs(tx, g).await?;
        }
        Ok(stored)
    }

    /// Writes the bot logs of one game inside `tx` (external bots only, so few rows).
    async fn write_logs(&self, tx: &mut Tx, game: &GameRecord) -> Result<(), StoreError> {
        let err = self.db_err();
        for log in &game.game.logs {
            Query::new(
                "INSERT INTO bot_logs (game_no, team_id, exit_status, stderr)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
            )
            .bind(game.game_no)
            .bind(log.team.index() as i64)
            .bind(log.exit_status.clone())
            .bind(log.stderr.clone())
            .execute(&mut *tx)
            .await
            .map_err(&err)?;
        }
        Ok(())
    }

    /// The careful path: one game, stored only if still planned.
    async fn record_one(&self, game: &GameRecord) -> Result<u64, StoreError> {
        let err = self.db_err();
        let mut tx = self.begin().await?;
        let updated = Query::new(
            "UPDATE games SET status = 'done', engine_version = $1, turns = $2, decisions = $3, finished_at = $4
             WHERE no = $5 AND status = 'planned' AND superseded = FALSE",
        )
        .bind(i64::from(game.game.engine_version))
        .bind(i64::from(game.game.turns))
        .bind(game.game.decisions.clone())
        .bind(now())
        .bind(game.game_no)
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        if updated != 1 {
            return Ok(0);
        }
        for r in &game.game.results {
            Query::new(
                "INSERT INTO game_results (line, game_no, team_id, seat, score, won, faults,
                                           stat_1, stat_2, stat_3, stat_4, stat_5)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(result_line(game.game_no, r.seat))
            .bind(game.game_no)
            .bind(r.team.index() as i64)
            .bind(r.seat as i64)
            .bind(r.outcome.score)
            .bind(r.outcome.won)
            .bind(i64::from(r.outcome.faults))
            .bind(i64::from(r.outcome.stats.get(0)))
            .bind(i64::from(r.outcome.stats.get(1)))
            .bind(i64::from(r.outcome.stats.get(2)))
            .bind(i64::from(r.outcome.stats.get(3)))
            .bind(i64::from(r.outcome.stats.get(4)))
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        }
        self.write_logs(&mut tx, game).await?;
        tx.commit().await.map_err(&err)?;
        Ok(1)
    }

    /// Stores a rerun in one transaction: the set's current games become superseded
    /// history, the new games (`games`: index, seed, board) are numbered and stored with
    /// their finished `played` games (matched by game index), the sets the new result
    /// `invalidate`s are marked for dealing again, the set's members record the code played,
    /// and the reason (with any changed bot code) goes to the audit log. A crash leaves either all of it or none. Returns
    /// the set's new run number.
    pub async fn store_rerun(
        &self,
        set_id: &SetId,
        why: &RerunWhy<'_>,
        games: &[(u32, u64, String)],
        played: &[PlayedGame],
        invalidate: &[SetId],
    ) -> Result<u32, StoreError> {
        let RerunWhy {
            reason,
            reseed,
            played_code,
            code_changed,
        } = *why;
        let err = self.db_err();
        let mut tx = self.begin().await?;
        let row = Query::new("SELECT run_no, seed_generation FROM sets WHERE id = $1")
            .bind(set_id.as_str())
            .fetch_one(&mut tx)
            .await
            .map_err(&err)?;
        let run_no = row.int("run_no").map_err(&err)? as u32 + 1;
        let generation = row.int("seed_generation").map_err(&err)? as u32 + u32::from(reseed);
        Query::new("UPDATE games SET superseded = TRUE WHERE set_id = $1")
            .bind(set_id.as_str())
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        Query::new(
            "UPDATE sets SET run_no = $1, seed_generation = $2, status = 'planned' WHERE id = $3",
        )
        .bind(i64::from(run_no))
        .bind(i64::from(generation))
        .bind(set_id.as_str())
        .execute(&mut tx)
        .await
        .map_err(&err)?;
        let first_no = self.reserve_game_nos(&mut tx, games.len()).await?;
        let games: Vec<PlannedGame> = games
            .iter()
            .zip(0..)
            .map(|((index, seed, arena), offset)| PlannedGame {
                no: first_no.after(offset),
                index: *index,
                seed: *seed,
                arena: arena.clone(),
            })
            .collect();
        let rows: Vec<Vec<Cell>> = planned_game_rows(set_id, run_no, &games).collect();
        self.insert_rows(&mut tx, PLANNED_GAMES, rows).await?;
        Query::new("DELETE FROM advancement WHERE set_id = $1")
            .bind(set_id.as_str())
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        for (team, hash) in played_code {
            Query::new(
                "UPDATE set_members SET content_hash = $1 WHERE set_id = $2 AND team_id = $3",
            )
            .bind(hash.clone())
            .bind(set_id.as_str())
            .bind(team.index() as i64)
            .execute(&mut tx)
            .await
            .map_err(&err)?;
        }
        let mut details = format!("run {run_no}, seed generation {generation}");
        if !code_changed.is_empty() {
            details += &format!(
                "; bot code changed since the set was played: {}",
                code_changed.join("; ")
            );
        }
        self.audit(&mut tx, "rerun", Some(set_id), reason, &details)
            .await?;
        let records: Vec<GameRecord> = played
            .iter()
            .map(|p| {
                let game_no = games
                    .iter()
                    .find(|g| g.index == p.game_index)
                    .map(|g| g.no)
                    .ok_or_else(|| StoreError::Corrupt {
                        path: self.label().to_string(),
                        what: format!("rerun of {set_id}: no game {} was dealt", p.game_index),
                    })?;
                Ok(GameRecord {
                    game_no,
                    game: PlayedGame {
                        run_no,
                        ..p.clone()
                    },
                })
            })
            .collect::<Result<_, StoreError>>()?;
        self.write_games(&mut tx, &records).await?;
        let why = format!("re-run of {set_id}: {reason}");
        for id in invalidate {
            self.invalidate_one(&mut tx, id, &why).await?;
        }
        tx.commit().await.map_err(&err)?;
        Ok(run_no)
    }

    /// Marks a set that a rerun changed the inputs of: its games become superseded
    /// history, its advancement is removed, and the next run deals it again.
    async fn invalidate_one(
        &self,
        tx: &mut Tx,
        id: &SetId,
        reason: &str,
    ) -> Result<(), StoreError> {
        let err = self.db_err();
        Query::new("UPDATE games SET superseded = TRUE WHERE set_id = $1")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await
            .map_err(&err)?;
        Query::new("DELETE FROM advancement WHERE set_id = $1")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await
            .map_err(&err)?;
        Query::new("UPDATE sets SET status = 'invalidated', run_no = run_no + 1 WHERE id = $1")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await
            .map_err(&err)?;
        Query::new(
            "UPDATE stages SET status = 'running' WHERE id = (SELECT stage_id FROM sets WHERE id = $1)",
        )
        .bind(id.as_str())
        .execute(&mut *tx)
        .await
        .map_err(&err)?;
        self.audit(
            tx,
            "invalidate",
            Some(id),
            reason,
            "dealt again by the next run",
        )
        .await
    }

    async fn audit(
        &self,
        tx: &mut Tx,
        action: &str,
        set_id: Option<&SetId>,
        reason: &str,
        details: &str,
    ) -> Result<(), StoreError> {
        let err = self.db_err();
        let next = Query::new("SELECT COALESCE(MAX(id), 0) + 1 AS next FROM audit_log")
            .fetch_one(&mut *tx)
            .await
            .and_then(|row| row.int("next"))
            .map_err(&err)?;
        Query::new(
            "INSERT INTO audit_log (id, at, action, set_id, reason, details) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(next)
        .bind(now())
        .bind(action.to_string())
        .bind(set_id.map(|id| id.as_str().to_string()))
        .bind(reason.to_string())
        .bind(details.to_string())
        .execute(&mut *tx)
        .await
        .map_err(&err)?;
        Ok(())
    }
}

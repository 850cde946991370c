//! Planning writes for many sets at once: newly dealt sets with their members and games,
//! finished sets with their advancement, finished stages.
//!
//! A big tournament deals thousands of sets in one planning pass (round 1 of every
//! school). Written one set at a time, that is tens of thousands of statements, each a
//! round trip to the database thread that wakes it and the runner; here a pass is a
//! handful of multi-row statements in one transaction.

use super::backend::{Cell, Tx};
use super::rows::RowsSql;
use super::status::SetStatus;
use super::wake::News;
use super::write::{NewSet, PlannedGame};
use super::{Store, StoreError};
use crate::tourney::model::{AdvancementKind, SetId, StageId, TeamId, TieBreak};
use std::collections::{BTreeSet, HashMap};

/// What exists already of the sets about to be stored, by id.
const EXISTING_SETS: RowsSql<'static> = RowsSql {
    head: "SELECT id, status, run_no FROM sets WHERE id IN (VALUES",
    cols: 1,
    row_suffix: "",
    tail: ")",
};

/// Planned games (rows from [`planned_game_rows`]), attempted once.
pub(super) const PLANNED_GAMES: RowsSql<'static> = RowsSql {
    row_suffix: ", 'planned', 1",
    ..RowsSql::values(
        "INSERT INTO games (no, set_id, run_no, game_index, seed, arena, status, attempts) VALUES",
        6,
    )
};

/// The rounds of newly dealt sets.
const ROUNDS: RowsSql<'static> = RowsSql {
    tail: "ON CONFLICT (stage_id, round) DO NOTHING",
    ..RowsSql::values("INSERT INTO rounds (stage_id, round, is_final) VALUES", 3)
};

/// Newly dealt sets.
const NEW_SETS: RowsSql<'static> = RowsSql {
    row_suffix: ", 0, 0, 'planned'",
    ..RowsSql::values(
        "INSERT INTO sets (id, stage_id, round, set_index, is_final, run_no, seed_generation, status) VALUES",
        5,
    )
};

/// The teams of newly dealt sets, by position.
const SET_MEMBERS: RowsSql<'static> = RowsSql::values(
    "INSERT INTO set_members (set_id, position, team_id, content_hash) VALUES",
    4,
);

/// Advancement rows (from [`advancement_row`]).
const ADVANCEMENT: RowsSql<'static> = RowsSql::values(
    "INSERT INTO advancement (stage_id, round, team_id, set_id, place, kind, tie_break) VALUES",
    7,
);

/// One team going up: its place (in its set, or among the wild cards), why, and the
/// tie-break step that decided it when the score did not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advance {
    pub team: TeamId,
    pub place: u32,
    pub kind: AdvancementKind,
    pub tie_break: Option<TieBreak>,
}

/// A finished set: its id, stage, round, and the advancing teams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedSet {
    pub set_id: SetId,
    pub stage_id: StageId,
    pub round: u32,
    pub advancing: Vec<Advance>,
}

/// Teams that joined a stage without playing for it (round 0 of the advancement table): a
/// single-team school's qualifier, or the nationals' wild cards. Storing them replaces what
/// was recorded before for that stage, so a rerun that changes the wild cards leaves no
/// stale rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageEntries {
    pub stage_id: StageId,
    pub entries: Vec<Advance>,
}

/// The rows of a set's planned games under `run_no`, for [`PLANNED_GAMES`].
pub(super) fn planned_game_rows<'a>(
    set_id: &'a SetId,
    run_no: u32,
    games: &'a [PlannedGame],
) -> impl Iterator<Item = Vec<Cell>> + 'a {
    games.iter().map(move |g| {
        vec![
            Cell::Int(g.no.0),
            Cell::Text(set_id.as_str().to_string()),
            Cell::Int(i64::from(run_no)),
            Cell::Int(i64::from(g.index)),
            Cell::Int(g.seed as i64),
            Cell::Text(g.arena.clone()),
        ]
    })
}

impl Store {
    /// Runs the multi-row statement `shape` for `rows` (each `shape.cols` cells), in cached
    /// statements of fixed sizes.
    pub(super) async fn insert_rows(
        &self,
        tx: &mut Tx,
        shape: RowsSql<'_>,
        rows: Vec<Vec<Cell>>,
    ) -> Result<(), StoreError> {
        let cells = rows.into_iter().flatten().collect();
        self.execute_rows(tx, shape, cells, &[]).await?;
        Ok(())
    }

    /// Runs `head (VALUES (?), (?), ...)` for the ids `ids` (text keys), in cached
    /// statements of fixed sizes; `head` ends with `IN`.
    async fn for_ids<I: AsRef<str>>(
        &self,
        tx: &mut Tx,
        head: &str,
        ids: &[I],
    ) -> Result<(), StoreError> {
        let head = format!("{head} (VALUES");
        let shape = RowsSql {
            head: &head,
            cols: 1,
            row_suffix: "",
            tail: ")",
        };
        let cells = ids
            .iter()
            .map(|id| Cell::Text(id.as_ref().to_string()))
            .collect();
        self.execute_rows(tx, shape, cells, &[]).await?;
        Ok(())
    }

    /// Writes what a planning pass decided, in one transaction: the finished sets (see
    /// `Store::finish_sets`), the teams that joined stages without playing, the
    /// finished stages, then the newly dealt sets (see `Store::insert_sets`), whose run
    /// numbers it returns.
    pub async fn write_plan(
        &self,
        finished_sets: &[FinishedSet],
        finished_stages: &[StageId],
        entries: &[StageEntries],
        new_sets: &[NewSet],
    ) -> Result<Vec<u32>, StoreError> {
        if finished_sets.is_empty()
            && finished_stages.is_empty()
            && entries.is_empty()
            && new_sets.is_empty()
        {
            return Ok(Vec::new());
        }
        let err = self.db_err();
        let mut tx = self.begin().await?;
        self.finish_sets(&mut tx, finished_sets).await?;
        self.record_entries(&mut tx, entries).await?;
        self.for_ids(
            &mut tx,
            "UPDATE stages SET status = 'done' WHERE id IN",
            finished_stages,
        )
        .await?;
        let run_nos = self.insert_sets(&mut tx, new_sets).await?;
        // New sets to claim, or the last stage done (idle workers then exit).
        self.announce(&mut tx, News::SetsToClaim).await?;
        tx.commit().await.map_err(&err)?;
        Ok(run_nos)
    }

    /// Stores newly planned sets with their members and planned games, and returns for
    /// each the run number its games are stored under. A set that exists already is left
    /// as it is (a resumed run plans the same sets again); an invalidated set is dealt again
    /// under its current run number (its old games were superseded when it was
    /// invalidated).
    async fn insert_sets(&self, tx: &mut Tx, sets: &[NewSet]) -> Result<Vec<u32>, StoreError> {
        if sets.is_empty() {
            return Ok(Vec::new());
        }
        let err = self.db_err();

        // What exists already: id -> (whether a rerun invalidated it, run_no).
        let mut existing: HashMap<SetId, (bool, u32)> = HashMap::new();
        let ids = sets
            .iter()
            .map(|s| Cell::Text(s.id.as_str().to_string()))
            .collect();
        for row in self.fetch_rows(tx, EXISTING_SETS, ids).await? {
            let id: String = row.text("id").map_err(&err)?;
            let status: String = row.text("status").map_err(&err)?;
            let status = SetStatus::parse(&status).map_err(|e| StoreError::Corrupt {
                path: self.label().to_string(),
                what: format!("set {id}: {e}"),
            })?;
            let run_no = row.int("run_no").map_err(&err)? as u32;
            existing.insert(SetId::new(id), (status == SetStatus::Invalidated, run_no));
        }

        let rounds: BTreeSet<(StageId, u32, bool)> = sets
            .iter()
            .map(|s| (s.stage_id.clone(), s.round, s.is_final))
            .collect();
        let round_rows: Vec<Vec<Cell>> = rounds
            .into_iter()
            .map(|(stage, round, is_final)| {
                vec![
                    Cell::Text(stage.into()),
                    Cell::Int(i64::from(round)),
                    Cell::Bool(is_final),
                ]
            })
            .collect();
        self.insert_rows(tx, ROUNDS, round_rows).await?;

        let mut run_nos = Vec::with_capacity(sets.len());
        let mut new_sets = Vec::new();
        let mut dealt_again = Vec::new();
        let mut to_fill: Vec<(&NewSet, u32)> = Vec::new();
        for set in sets {
            match existing.get(&set.id) {
                None => {
                    new_sets.push(vec![
                        Cell::Text(set.id.as_str().to_string()),
                        Cell::Text(set.stage_id.as_str().to_string()),
                        Cell::Int(i64::from(set.round)),
                        Cell::Int(i64::from(set.set_index)),
                        Cell::Bool(set.is_final),
                    ]);
                    to_fill.push((set, 0));
                    run_nos.push(0);
                }
                Some((true, run_no)) => {
                    dealt_again.push(set.id.clone());
                    to_fill.push((set, *run_no));
                    run_nos.push(*run_no);
                }
                Some((_, run_no)) => run_nos.push(*run_no),
            }
        }
        self.insert_rows(tx, NEW_SETS, new_sets).await?;
        // Dealt anew, with new teams: its games use generation-0 seeds again.
        self.for_ids(
            tx,
            "UPDATE sets SET status = 'planned', seed_generation = 0 WHERE id IN",
            &dealt_again,
        )
        .await?;
        self.for_ids(tx, "DELETE FROM set_members WHERE set_id IN", &dealt_again)
            .await?;

        let members: Vec<Vec<Cell>> = to_fill
            .iter()
            .flat_map(|(set, _)| {
                set.members.iter().enumerate().map(|(position, team)| {
                    vec![
                        Cell::Text(set.id.as_str().to_string()),
                        Cell::Int(position as i64),
                        Cell::Int(team.index() as i64),
                        Cell::OptText(set.code.get(position).cloned().flatten()),
                    ]
                })
            })
            .collect();
        self.insert_rows(tx, SET_MEMBERS, members).await?;
        let games: Vec<Vec<Cell>> = to_fill
            .iter()
            .flat_map(|(set, run_no)| planned_game_rows(&set.id, *run_no, &set.games))
            .collect();
        self.insert_rows(tx, PLANNED_GAMES, games).await?;
        let last_no = to_fill
            .iter()
            .flat_map(|(set, _)| set.games.iter().map(|g| g.no))
            .max();
        if let Some(last) = last_no {
            self.game_nos_used(tx, last).await?;
        }
        let stages: Vec<&StageId> = to_fill
            .iter()
            .map(|(set, _)| &set.stage_id)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        self.for_ids(
            tx,
            "UPDATE stages SET status = 'running' WHERE status <> 'running' AND id IN",
            &stages,
        )
        .await?;
        Ok(run_nos)
    }

    /// Records the teams that joined stages without playing for them, replacing what was
    /// recorded before for those stages.
    async fn record_entries(
        &self,
        tx: &mut Tx,
        entries: &[StageEntries],
    ) -> Result<(), StoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        let stages: Vec<&StageId> = entries.iter().map(|e| &e.stage_id).collect();
        self.for_ids(
            tx,
            "DELETE FROM advancement WHERE round = 0 AND stage_id IN",
            &stages,
        )
        .await?;
        let rows: Vec<Vec<Cell>> = entries
            .iter()
            .flat_map(|e| {
                e.entries
                    .iter()
                    .map(|entry| advancement_row(&e.stage_id, 0, None, entry))
            })
            .collect();
        self.insert_rows(tx, ADVANCEMENT, rows).await
    }

    /// Marks sets done and records who advanced from them and why (replacing what was
    /// recorded for them before).
    async fn finish_sets(&self, tx: &mut Tx, sets: &[FinishedSet]) -> Result<(), StoreError> {
        if sets.is_empty() {
            return Ok(());
        }
        let ids: Vec<&SetId> = sets.iter().map(|s| &s.set_id).collect();
        self.for_ids(tx, "UPDATE sets SET status = 'done' WHERE id IN", &ids)
            .await?;
        self.for_ids(tx, "DELETE FROM advancement WHERE set_id IN", &ids)
            .await?;
        let rows: Vec<Vec<Cell>> = sets
            .iter()
            .flat_map(|s| {
                s.advancing
                    .iter()
                    .map(|entry| advancement_row(&s.stage_id, s.round, Some(&s.set_id), entry))
            })
            .collect();
        self.insert_rows(tx, ADVANCEMENT, rows).await
    }
}

/// An advancement row: a team leaving `set_id` of `round` upwards, or (round 0, no set)
/// joining the stage without playing.
fn advancement_row(
    stage_id: &StageId,
    round: u32,
    set_id: Option<&SetId>,
    entry: &Advance,
) -> Vec<Cell> {
    vec![
        Cell::Text(stage_id.as_str().to_string()),
        Cell::Int(i64::from(round)),
        Cell::Int(entry.team.index() as i64),
        Cell::OptText(set_id.map(|id| id.as_str().to_string())),
        Cell::Int(i64::from(entry.place)),
        Cell::Text(entry.kind.as_str().to_string()),
        Cell::OptText(entry.tie_break.map(|step| step.name().to_string())),
    ]
}

//! The run's in-memory mirror of the store: sets, their games and the results stored so
//! far, loaded at start (resume) and updated after every committed write.

use crate::store::{GameNo, GameStatus, NewSet, ResultRow, Store, StoreError};
use crate::tourney::bracket::SeriesTotals;
use crate::tourney::model::{SchoolId, SetGame, SetId, SetKey, Stage, StageId, TeamId, Tournament};
use crate::tourney::played::TeamResult;
use std::collections::HashMap;

/// One game of a set's current run.
#[derive(Debug, Clone)]
pub struct GameSlot {
    /// The game's number in the store.
    pub no: GameNo,
    pub seed: u64,
    /// The arena's name.
    pub arena: String,
    pub results: Option<Vec<TeamResult>>,
}

/// A set as stored.
#[derive(Debug, Clone)]
pub struct SetState {
    pub id: SetId,
    pub key: SetKey,
    pub stage_id: StageId,
    pub is_final: bool,
    pub members: Vec<TeamId>,
    pub run_no: u32,
    pub games: Vec<GameSlot>,
    /// Advancement stored and status done.
    pub finished: bool,
}

impl SetState {
    pub fn is_complete(&self) -> bool {
        !self.games.is_empty() && self.games.iter().all(|g| g.results.is_some())
    }

    /// Each member's totals over the set's games (member order).
    pub fn totals(&self) -> Vec<SeriesTotals> {
        series_totals(
            &self.members,
            self.games
                .iter()
                .filter_map(|g| g.results.as_ref())
                .flatten(),
        )
    }
}

/// Each member's series totals (member order) from the result lines of a set's games.
/// Lines are borrowed (a game's results) or owned (built from stored rows).
pub fn series_totals<L: std::borrow::Borrow<TeamResult>>(
    members: &[TeamId],
    results: impl Iterator<Item = L> + Clone,
) -> Vec<SeriesTotals> {
    members
        .iter()
        .map(|&team| {
            let mut t = SeriesTotals::zero(team);
            for line in results.clone() {
                let TeamResult {
                    team: of,
                    outcome: r,
                    ..
                } = line.borrow();
                if *of != team {
                    continue;
                }
                t.score += r.score;
                t.games_won += u32::from(r.won);
                t.stats = t.stats.plus(&r.stats);
            }
            t
        })
        .collect()
}

/// Every stored set by id, the totals of complete sets by key (what the planner asks), and
/// the number the next dealt game gets.
#[derive(Debug, Default, Clone)]
pub struct Mirror {
    pub sets: HashMap<SetId, SetState>,
    pub complete: HashMap<SetKey, Vec<SeriesTotals>>,
    pub next_game_no: GameNo,
}

/// The stage of a stored stage id (a school slug or `nationals`).
pub fn stage_of(t: &Tournament, stage_id: &StageId) -> Option<Stage> {
    if stage_id.is_nationals() && t.has_nationals() {
        return Some(Stage::Nationals);
    }
    t.schools
        .iter()
        .position(|s| stage_id == s.slug.as_str())
        .map(|s| Stage::School(SchoolId(s)))
}

/// The stored stage id of a stage.
pub fn stage_id(t: &Tournament, stage: Stage) -> StageId {
    match stage {
        Stage::Nationals => StageId::nationals(),
        Stage::School(s) => StageId::new(t.schools[s.index()].slug.as_str()),
    }
}

impl Mirror {
    /// Loads every current set, game and result.
    pub async fn load(store: &Store, t: &Tournament) -> Result<Mirror, StoreError> {
        let mut mirror = Mirror {
            next_game_no: store.next_game_no().await?,
            ..Mirror::default()
        };
        let mut games_by_set: HashMap<SetId, Vec<crate::store::GameRow>> = HashMap::new();
        for g in store.games().await? {
            games_by_set.entry(g.set_id.clone()).or_default().push(g);
        }
        let mut results = store.results().await?;
        for row in store.sets().await? {
            let Some(stage) = stage_of(t, &row.stage_id) else {
                return Err(StoreError::Corrupt {
                    path: store.label().to_string(),
                    what: format!(
                        "set {} belongs to an unknown stage {}",
                        row.id, row.stage_id
                    ),
                });
            };
            let key = SetKey {
                stage,
                round: row.round,
                set: row.set_index,
            };
            let lines: Vec<ResultRow> = results.remove(&row.id).unwrap_or_default();
            let mut rows: Vec<crate::store::GameRow> = games_by_set
                .remove(&row.id)
                .unwrap_or_default()
                .into_iter()
                .filter(|g| g.run_no == row.run_no)
                .collect();
            rows.sort_by_key(|g| g.game_index);
            let slots: Vec<GameSlot> = rows
                .iter()
                .map(|g| GameSlot {
                    no: g.no,
                    seed: g.seed,
                    arena: g.arena.clone(),
                    results: (g.status == GameStatus::Done).then(|| {
                        lines
                            .iter()
                            .filter(|r| r.game_index == g.game_index)
                            .map(|r| r.line)
                            .collect()
                    }),
                })
                .collect();
            let set = SetState {
                id: row.id.clone(),
                key,
                stage_id: row.stage_id.clone(),
                is_final: row.is_final,
                members: row.members.clone(),
                run_no: row.run_no,
                games: slots,
                finished: row.is_done(),
            };
            if set.is_complete() {
                mirror.complete.insert(key, set.totals());
            }
            mirror.sets.insert(row.id, set);
        }
        Ok(mirror)
    }

    /// Stores a game's results in the mirror; returns whether its set is now complete.
    pub fn add_game(&mut self, set_id: &SetId, game_index: u32, results: Vec<TeamResult>) -> bool {
        let Some(set) = self.sets.get_mut(set_id) else {
            return false;
        };
        if let Some(slot) = set.games.get_mut(game_index as usize) {
            slot.results = Some(results);
        }
        if set.is_complete() {
            self.complete.insert(set.key, set.totals());
            return true;
        }
        false
    }

    /// A newly dealt set, stored under `run_no` once the pass is written; the next dealt
    /// game is numbered after its games.
    pub(crate) fn insert_dealt(&mut self, new: &NewSet, key: SetKey, run_no: u32) {
        self.next_game_no = self.next_game_no.after(new.games.len() as u32);
        let set = SetState {
            id: new.id.clone(),
            key,
            stage_id: new.stage_id.clone(),
            is_final: new.is_final,
            members: new.members.clone(),
            run_no,
            games: new
                .games
                .iter()
                .map(|g| GameSlot {
                    no: g.no,
                    seed: g.seed,
                    arena: g.arena.clone(),
                    results: None,
                })
                .collect(),
            finished: false,
        };
        self.sets.insert(new.id.clone(), set);
    }

    /// The number `game` was dealt with.
    pub fn game_no(&self, game: &SetGame) -> Option<GameNo> {
        let set = self.sets.get(&game.set)?;
        Some(set.games.get(game.index as usize)?.no)
    }

    pub fn games_done(&self) -> u64 {
        self.sets
            .values()
            .flat_map(|s| s.games.iter())
            .filter(|g| g.results.is_some())
            .count() as u64
    }
}

//! A read of a tournament database, for status, standings and exports (taken while no run
//! writes, or from WAL snapshots that only ever add whole games).
//!
//! Reports are computed from the database alone, so `status`, `standings` and `export`
//! work with just the `.sqlite` file, without the configuration it came from.

use crate::store::{
    AuditRow, GameHistoryRow, ResultRow, SetRow, Store, StoreError, StoredTournament, TeamRow,
};
use crate::tourney::bracket::{NATIONALS_LABEL, SeriesTotals, TieDraw};
use std::collections::HashMap;

/// Who left a round upwards and why (the stored row).
pub use crate::store::AdvancementRow as Advancement;

/// Everything reports need.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tournament: StoredTournament,
    /// `(name, slug)` by school id.
    pub schools: Vec<(String, String)>,
    pub teams: Vec<TeamRow>,
    pub sets: Vec<SetRow>,
    pub results: HashMap<String, Vec<ResultRow>>,
    /// Every result line, superseded runs included, by (set id, run).
    pub history: HashMap<(String, u32), Vec<ResultRow>>,
    pub games: Vec<GameHistoryRow>,
    pub advancement: Vec<Advancement>,
    pub stages: Vec<(String, String)>,
    pub audit: Vec<AuditRow>,
}

impl Snapshot {
    pub async fn load(store: &Store) -> Result<Snapshot, StoreError> {
        let Some(tournament) = store.tournament().await? else {
            return Err(StoreError::Corrupt {
                path: store.label().to_string(),
                what: "no tournament stored yet (run `lrs-tourney run` first)".to_string(),
            });
        };
        let schools = store
            .schools()
            .await?
            .into_iter()
            .map(|(_, name, slug)| (name, slug))
            .collect();
        Ok(Snapshot {
            tournament,
            schools,
            teams: store.teams().await?,
            sets: store.sets().await?,
            results: store.results().await?,
            history: store.result_history().await?,
            games: store.game_history().await?,
            advancement: store.advancement().await?,
            stages: store.stages().await?,
            audit: store.audit_log().await?,
        })
    }

    pub fn has_nationals(&self) -> bool {
        self.stages.iter().any(|(id, _)| id == NATIONALS_LABEL)
    }

    pub fn team_name(&self, team: usize) -> &str {
        self.teams.get(team).map_or("?", |t| t.name.as_str())
    }

    pub fn school_of(&self, team: usize) -> &str {
        self.teams
            .get(team)
            .and_then(|t| self.schools.get(t.school))
            .map_or("?", |s| s.0.as_str())
    }

    /// The seeded draw of the tie-break chain, as the runner built it.
    pub fn draw(&self) -> TieDraw {
        let keys = self.teams.iter().map(|t| {
            let slug = self.schools.get(t.school).map_or("", |s| s.1.as_str());
            format!("{slug}/{}", t.name)
        });
        TieDraw::new(self.tournament.game.tie_steps(), self.tournament.seed, keys)
    }

    /// Games stored for a set's current run.
    pub fn games_done(&self, set_id: &str) -> usize {
        self.games
            .iter()
            .filter(|g| g.set_id == set_id && !g.superseded && g.done)
            .count()
    }

    /// Games planned for a set's current run.
    pub fn games_planned(&self, set_id: &str) -> usize {
        self.games
            .iter()
            .filter(|g| g.set_id == set_id && !g.superseded)
            .count()
    }

    /// Each member's totals over a set's stored games (member order).
    pub fn set_totals(&self, set: &SetRow) -> Vec<SeriesTotals> {
        let lines = self.results.get(&set.id).map_or(&[][..], Vec::as_slice);
        crate::runner::series_totals(&set.members, lines.iter().map(ResultRow::team_result))
    }
}

//! A read of a tournament database, for status, standings and exports (taken while no run
//! writes, or from WAL snapshots that only ever add whole games).
//!
//! Reports are computed from the database alone, so `status`, `standings` and `export`
//! work with just the `.sqlite` file, without the configuration it came from.

use crate::store::{
    AuditRow, GameHistoryRow, ResultRow, SchoolRow, SetRow, StageRow, Store, StoreError,
    StoredTournament, TeamRow,
};
use crate::tourney::bracket::{SeriesTotals, TieDraw};
use crate::tourney::model::{SetId, SetRun, TeamId};
use std::collections::HashMap;

/// Who left a round upwards and why (the stored row).
pub use crate::store::AdvancementRow as Advancement;

/// Everything reports need.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tournament: StoredTournament,
    /// By school id.
    pub schools: Vec<SchoolRow>,
    pub teams: Vec<TeamRow>,
    pub sets: Vec<SetRow>,
    pub results: HashMap<SetId, Vec<ResultRow>>,
    /// Every result line, superseded runs included, by set run.
    pub history: HashMap<SetRun, Vec<ResultRow>>,
    pub games: Vec<GameHistoryRow>,
    pub advancement: Vec<Advancement>,
    pub stages: Vec<StageRow>,
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
        Ok(Snapshot {
            tournament,
            schools: store.schools().await?,
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
        self.stages.iter().any(|s| s.id.is_nationals())
    }

    pub fn team_name(&self, team: TeamId) -> &str {
        self.teams
            .get(team.index())
            .map_or("?", |t| t.name.as_str())
    }

    pub fn school_of(&self, team: TeamId) -> &str {
        self.teams
            .get(team.index())
            .and_then(|t| self.schools.get(t.school))
            .map_or("?", |s| s.name.as_str())
    }

    /// The seeded draw of the tie-break chain, as the runner built it.
    pub fn draw(&self) -> TieDraw {
        let keys = self.teams.iter().map(|t| {
            let slug = self.schools.get(t.school).map_or("", |s| s.slug.as_str());
            format!("{slug}/{}", t.name)
        });
        TieDraw::new(self.tournament.game.tie_steps(), self.tournament.seed, keys)
    }

    /// Games stored for a set's current run.
    pub fn games_done(&self, set_id: &SetId) -> usize {
        self.games
            .iter()
            .filter(|g| g.set_id == *set_id && g.is_current_result())
            .count()
    }

    /// Games planned for a set's current run.
    pub fn games_planned(&self, set_id: &SetId) -> usize {
        self.games
            .iter()
            .filter(|g| g.set_id == *set_id && !g.superseded)
            .count()
    }

    /// Each member's totals over a set's stored games (member order).
    pub fn set_totals(&self, set: &SetRow) -> Vec<SeriesTotals> {
        let lines = self.results.get(&set.id).map_or(&[][..], Vec::as_slice);
        crate::runner::series_totals(&set.members, lines.iter().map(|r| r.line))
    }
}

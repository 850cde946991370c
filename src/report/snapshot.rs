//! A read of a tournament database, for status, standings and exports (taken while no run
//! writes, or from WAL snapshots that only ever add whole games).
//!
//! Reports are computed from the database alone, so `status`, `standings` and `export`
//! work with just the `.sqlite` file, without the configuration it came from.

use crate::store::{
    AuditRow, GameCounts, GameHistoryRow, ResultRow, SchoolRow, SetRow, StageRow, Store,
    StoreError, StoredTournament, Tally, TeamRow,
};
use crate::tourney::bracket::{SeriesTotals, TieDraw};
use crate::tourney::model::{SetId, SetRun, TeamId};
use std::collections::HashMap;

/// Who left a round upwards and why (the stored row).
pub use crate::store::AdvancementRow as Advancement;

/// Everything reports need.
///
/// [`Snapshot::load`] reads every stored game and result line, for the report site.
/// [`Snapshot::summary`] reads what standings and exports need, summed by the
/// database: its `results`, `history` and `games` stay empty, and its `tallies` and
/// `game_counts` (which both loads fill) hold one row per set and team and one per set,
/// however many games are stored. [`Snapshot::progress`] (status) reads the counts alone.
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
    /// Per set, each team's totals over its current run's stored games, by team id.
    pub tallies: HashMap<SetId, Vec<Tally>>,
    /// Per set, its current run's games stored and planned.
    pub game_counts: HashMap<SetId, GameCounts>,
}

impl Snapshot {
    pub async fn load(store: &Store) -> Result<Snapshot, StoreError> {
        let mut snap = Snapshot::header(store).await?;
        snap.results = store.results().await?;
        snap.history = store.result_history().await?;
        snap.games = store.game_history().await?;
        snap.tallies = snap
            .results
            .iter()
            .map(|(set, lines)| (set.clone(), tally(lines)))
            .collect();
        for g in snap.games.iter().filter(|g| !g.superseded) {
            let counts = snap.game_counts.entry(g.set_id.clone()).or_default();
            counts.done += usize::from(g.is_current_result());
            counts.planned += 1;
            counts.restarted += usize::from(g.attempts > 1);
        }
        Ok(snap)
    }

    /// The snapshot without the stored games and result lines: their totals per set and
    /// team and their counts per set, summed by the database (see [`Snapshot`]).
    pub async fn summary(store: &Store) -> Result<Snapshot, StoreError> {
        let mut snap = Snapshot::header(store).await?;
        snap.tallies = store.set_tallies().await?;
        snap.game_counts = store.game_counts().await?;
        Ok(snap)
    }

    /// The snapshot with only the games' counts per set (no totals): what `status` shows,
    /// without summing every result line of the tournament.
    pub async fn progress(store: &Store) -> Result<Snapshot, StoreError> {
        let mut snap = Snapshot::header(store).await?;
        snap.game_counts = store.game_counts().await?;
        Ok(snap)
    }

    /// The stored tournament's header, or why there is none to report on.
    pub async fn tournament_of(store: &Store) -> Result<StoredTournament, StoreError> {
        store
            .tournament()
            .await?
            .ok_or_else(|| StoreError::Corrupt {
                path: store.label().to_string(),
                what: "no tournament stored yet (run `lrs-tourney run` first)".to_string(),
            })
    }

    /// Everything but the games, their lines and their sums.
    async fn header(store: &Store) -> Result<Snapshot, StoreError> {
        Ok(Snapshot {
            tournament: Snapshot::tournament_of(store).await?,
            schools: store.schools().await?,
            teams: store.teams().await?,
            sets: store.sets().await?,
            results: HashMap::new(),
            history: HashMap::new(),
            games: Vec::new(),
            advancement: store.advancement().await?,
            stages: store.stages().await?,
            audit: store.audit_log().await?,
            tallies: HashMap::new(),
            game_counts: HashMap::new(),
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
        self.game_counts.get(set_id).map_or(0, |c| c.done)
    }

    /// Games planned for a set's current run.
    pub fn games_planned(&self, set_id: &SetId) -> usize {
        self.game_counts.get(set_id).map_or(0, |c| c.planned)
    }

    /// The current runs' games of every set: stored, planned and restarted.
    pub fn game_totals(&self) -> GameCounts {
        self.game_counts
            .values()
            .fold(GameCounts::default(), |sum, c| GameCounts {
                done: sum.done + c.done,
                planned: sum.planned + c.planned,
                restarted: sum.restarted + c.restarted,
            })
    }

    /// Each member's totals over a set's stored games (member order).
    pub fn set_totals(&self, set: &SetRow) -> Vec<SeriesTotals> {
        let tallies = self.tallies.get(&set.id).map_or(&[][..], Vec::as_slice);
        set.members
            .iter()
            .map(|&team| {
                tallies.iter().filter(|t| t.team == team).fold(
                    SeriesTotals::zero(team),
                    |sum, t| SeriesTotals {
                        team,
                        score: sum.score + t.score,
                        games_won: sum.games_won.saturating_add(t.won),
                        stats: sum.stats.plus(&t.stats),
                    },
                )
            })
            .collect()
    }
}

/// Each team's totals over `lines`, by team id.
fn tally(lines: &[ResultRow]) -> Vec<Tally> {
    let mut by_team: std::collections::BTreeMap<TeamId, Tally> = Default::default();
    for r in lines {
        let o = &r.line.outcome;
        let line = Tally {
            team: r.line.team,
            score: o.score,
            games: 1,
            won: u32::from(o.won),
            faults: o.faults,
            stats: o.stats,
        };
        by_team
            .entry(r.line.team)
            .and_modify(|t| *t = t.plus(&line))
            .or_insert(line);
    }
    by_team.into_values().collect()
}

//! Defines [`Planner`]: the one place that turns the bracket's plans into what `run`,
//! `rerun` and verification act on.
//!
//! The bracket (`tourney::bracket::plan_stage`) says, from the results stored so far,
//! which sets exist, which are ready and who advanced. The planner asks it and turns the
//! answer into plain data: for `run`, what a planning pass of a stage decided (finished
//! sets with their advancement, teams that join a stage without playing, finished stages,
//! the sets to play now) and the stored form of newly dealt sets; for `rerun`, the whole
//! tournament planned again with a set's new result (which stored sets it invalidates,
//! whether the set's advancement changed) and the seeds of the replayed games; for
//! verification, every way a database differs from the plan of its own results. It
//! writes nothing and plays nothing: the runner applies what it decides to the store, the
//! executor and the display.
//!
//! A stored result counts only for the seating it was played in: a stored set whose teams
//! (or their order) differ from the ones the plan deals it is stale for `run`, unplayed for
//! `rerun`, a problem for verification.

use super::{Consistency, Mirror, RunError, stage_id};
use crate::store::{
    Advance, AdvancementRow, FinishedSet, GameNo, NewSet, PlannedGame, StageEntries,
};
use crate::tourney::bracket::{
    BracketError, NationalsField, PlannedSet, Roster, SetPlan, SetResult, StageEntry, StageOutcome,
    StagePlan, TournamentSeed, nationals_field,
};
use crate::tourney::model::{
    AdvancementKind, QualifiedBy, SchoolId, SetId, SetKey, Stage, StageId, TeamId, TieBreak,
    Tournament,
};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Plans a tournament from its stored results; keeps the latest plan of every stage a run
/// has planned, so that rounds are released one at a time.
pub(super) struct Planner<'t> {
    t: &'t Tournament,
    roster: Roster,
    /// Every school's stage, in school order.
    schools: Vec<StageEntry>,
    /// The run's latest plan of each stage.
    plans: HashMap<Stage, StagePlan>,
    /// The nationals' field, once every school stage is finished.
    nationals: Option<StageEntry>,
    /// Stages whose end is recorded, by the store or by this run's passes.
    finished: HashSet<Stage>,
}

/// What one planning pass of a stage decided.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Decisions {
    pub stage_id: StageId,
    /// Sets whose result is complete and not yet recorded, with who advanced and why.
    pub finished_sets: Vec<FinishedSet>,
    /// Teams that join the next stage without playing (a single-team school).
    pub entries: Option<StageEntries>,
    /// Whether the stage finished in this pass.
    pub stage_finished: bool,
    /// Sets to play now.
    pub ready: Vec<SetPlan>,
    /// Lines for the progress display (`westfield-high/r1/s1 set done`).
    pub notes: Vec<String>,
}

/// Why a stage cannot be planned for `run`.
pub(super) enum PlanError {
    /// This stored set was played by other teams (or in another order) than the bracket
    /// deals it from the stored results.
    Stale(SetId),
    Bracket(BracketError),
}

/// The nationals' field as a pass enters it.
pub(super) struct NationalsEntry {
    /// The wild cards, stored with the nationals' first round.
    pub wild_cards: StageEntries,
    /// The line for the progress display.
    pub note: String,
}

/// What a rerun's new result changes.
pub(super) struct RerunEffects {
    /// Stored sets (other than the rerun one) that the new plan deals other teams, or no
    /// longer reaches.
    pub affected: Vec<SetId>,
    /// Whether other teams advance from the rerun set.
    pub advancement_changed: bool,
}

/// Every stage planned from scratch: the school stages in school order, then the nationals
/// when every school stage is finished.
struct Whole {
    plans: Vec<StagePlan>,
    field: Option<NationalsField>,
}

impl<'t> Planner<'t> {
    pub(super) fn new(t: &'t Tournament, seed: TournamentSeed) -> Planner<'t> {
        let roster = Roster::from_tournament(t, seed);
        let schools = (0..t.schools.len())
            .filter_map(|s| roster.school_entry(SchoolId(s)))
            .collect();
        Planner {
            t,
            roster,
            schools,
            plans: HashMap::new(),
            nationals: None,
            finished: HashSet::new(),
        }
    }

    /// The tournament's seed, which every game seed and the draw derive from.
    pub(super) fn seed(&self) -> &TournamentSeed {
        &self.roster.seed
    }

    /// The stages a run plans first: every school's.
    pub(super) fn school_stages(&self) -> impl Iterator<Item = Stage> + '_ {
        self.schools.iter().map(|e| e.stage)
    }

    /// Forgets what this run planned (after a rerun changed the stored results).
    pub(super) fn restart(&mut self) {
        self.plans.clear();
        self.finished.clear();
        self.nationals = None;
    }

    /// Plans `stage` from the results in `mirror` and says what became final and what to
    /// play (`None`: the stage has no field yet). The plan is kept for the next pass.
    pub(super) fn plan(
        &mut self,
        stage: Stage,
        mirror: &Mirror,
    ) -> Result<Option<Decisions>, PlanError> {
        let entry = match stage {
            Stage::Nationals => self.nationals.as_ref(),
            Stage::School(_) => self.schools.iter().find(|e| e.stage == stage),
        };
        let Some(entry) = entry else { return Ok(None) };
        let plan = match self
            .roster
            .plan(entry, |key| mirror.complete.get(key).cloned())
        {
            Ok(plan) => plan,
            Err(BracketError::ResultsMismatch { set, .. }) => return Err(PlanError::Stale(set)),
            Err(e) => return Err(PlanError::Bracket(e)),
        };
        if let Some(set) = reseated(&plan, mirror) {
            return Err(PlanError::Stale(set.plan.id.clone()));
        }
        let decisions = decide(
            &plan,
            stage_id(self.t, stage),
            |id| mirror.sets.get(id).map(|s| s.finished),
            self.finished.contains(&stage),
        );
        if decisions.stage_finished {
            self.finished.insert(stage);
        }
        self.plans.insert(stage, plan);
        Ok(Some(decisions))
    }

    /// Whether every set of the stage's current round is stored in full: the next round
    /// can be dealt (planning a big nationals round after each of its sets would be
    /// wasted work).
    pub(super) fn round_complete(&self, stage: Stage, mirror: &Mirror) -> bool {
        self.plans
            .get(&stage)
            .and_then(|p| p.rounds.last())
            .is_some_and(|r| {
                r.sets
                    .iter()
                    .all(|s| mirror.complete.contains_key(&s.plan.key))
            })
    }

    /// Whether the nationals' field can be entered now: the tournament has nationals, they
    /// are not entered yet, and every school stage is finished.
    pub(super) fn nationals_due(&self) -> bool {
        self.nationals.is_none()
            && self.t.has_nationals()
            && self
                .schools
                .iter()
                .all(|e| self.finished.contains(&e.stage))
    }

    /// Builds the nationals' field from the finished school stages (planned next as
    /// [`Stage::Nationals`]).
    pub(super) fn enter_nationals(&mut self) -> Result<NationalsEntry, BracketError> {
        let school_plans: Vec<StagePlan> = self
            .schools
            .iter()
            .filter_map(|e| self.plans.get(&e.stage).cloned())
            .collect();
        let field = self.field(&school_plans)?;
        let entry = NationalsEntry {
            wild_cards: wild_card_entries(&field, StageId::nationals()),
            note: format!(
                "school stages done: {} qualifiers + {} wild cards go to nationals",
                field.qualifiers.len(),
                field.wild_cards.len()
            ),
        };
        self.nationals = Some(field.entry);
        Ok(entry)
    }

    /// The stages being played, for the progress display: `3 school stage(s), nationals
    /// round 2 of 4`.
    pub(super) fn playing(&self) -> String {
        let mut rounds: Vec<String> = Vec::new();
        let mut schools_playing = 0;
        for (stage, plan) in &self.plans {
            if plan.outcome.is_some() || plan.ready.is_empty() {
                continue;
            }
            match stage {
                Stage::Nationals => {
                    let r = plan.rounds.last().map_or(0, |r| r.round);
                    rounds.push(format!("nationals round {r} of {}", plan.total_rounds));
                }
                Stage::School(_) => schools_playing += 1,
            }
        }
        if schools_playing > 0 {
            rounds.insert(0, format!("{schools_playing} school stage(s)"));
        }
        rounds.join(", ")
    }

    /// The outcome of the decisive stage (the nationals, or the only school's), once this
    /// run planned it to its end.
    pub(super) fn decisive_outcome(&self) -> Option<&StageOutcome> {
        let stage = if self.t.has_nationals() {
            Stage::Nationals
        } else {
            self.schools.first()?.stage
        };
        self.plans.get(&stage)?.outcome.as_ref()
    }

    /// The stored form of a newly dealt set: its members with the `code` each plays it
    /// with (by position, read by the caller: the planner reads no file), and its games'
    /// numbers (from `first_no`, in game order), seeds and arenas (`arena(g)` names game
    /// `g`'s).
    pub(super) fn deal(
        &self,
        plan: &SetPlan,
        code: Vec<Option<String>>,
        first_no: GameNo,
        arena: impl Fn(u32) -> String,
    ) -> NewSet {
        NewSet {
            id: plan.id.clone(),
            stage_id: plan.stage_label.clone(),
            round: plan.key.round,
            set_index: plan.key.set,
            is_final: plan.is_final,
            members: plan.teams.clone(),
            code,
            games: (0..self.t.bracket.games_per_series)
                .map(|g| PlannedGame {
                    no: first_no.after(g),
                    index: g,
                    seed: plan.game_seed(&self.roster.seed, g, 0),
                    arena: arena(g),
                })
                .collect(),
        }
    }

    /// The seed of game `g` of the set at `key` under seed generation `generation` (a
    /// rerun with `--reseed` counts one more).
    pub(super) fn game_seed(&self, key: SetKey, g: u32, generation: u32) -> u64 {
        crate::tourney::bracket::game_seed(
            &self.roster.seed,
            stage_id(self.t, key.stage).as_str(),
            key.round,
            key.set,
            g,
            generation,
        )
    }

    /// What replacing the results of `set` in `before` by those in `after` changes.
    pub(super) fn rerun_effects(
        &self,
        before: &Mirror,
        after: &Mirror,
        set: &SetId,
    ) -> Result<RerunEffects, RunError> {
        let old = self.whole_excluding_reseated(before)?;
        let new = self.whole_excluding_reseated(after)?;
        let mut affected: Vec<SetId> = after
            .sets
            .values()
            .filter(|s| s.id != *set)
            .filter(|s| {
                let planned = new
                    .plans
                    .iter()
                    .find(|p| p.stage == s.key.stage)
                    .and_then(|p| p.set_by_id(&s.id));
                planned.is_none_or(|p| p.plan.teams != s.members)
            })
            .map(|s| s.id.clone())
            .collect();
        affected.sort();
        Ok(RerunEffects {
            affected,
            advancement_changed: advancing_of(&old.plans, set) != advancing_of(&new.plans, set),
        })
    }

    /// Compares what a database holds (`mirror`, its `advancement` rows, whether some set
    /// waits to be dealt again) with the plan of its own results: the same sets, dealt the
    /// same teams in the same positions, with the same teams advancing.
    pub(super) fn check(
        &self,
        mirror: &Mirror,
        advancement: &[AdvancementRow],
        some_invalidated: bool,
    ) -> Result<Consistency, RunError> {
        let mut problems = Vec::new();
        let whole = self.whole(|entry| {
            Ok(
                match self.roster.plan(entry, |k| mirror.complete.get(k).cloned()) {
                    Ok(plan) => Some(plan),
                    Err(e) => {
                        problems.push(format!("{}: {e}", entry.label));
                        None
                    }
                },
            )
        })?;
        let plans = &whole.plans;

        // Every planned set that is stored holds the planned teams in the planned order.
        let mut planned_ids = BTreeSet::new();
        for set in plans.iter().flat_map(StagePlan::sets) {
            planned_ids.insert(set.plan.id.clone());
            if let Some(stored) = mirror.sets.get(&set.plan.id)
                && stored.members != set.plan.teams
            {
                problems.push(format!(
                    "{}: stored with teams {:?}, the bracket deals {:?}",
                    set.plan.id, stored.members, set.plan.teams
                ));
            }
        }
        // Every stored set is one the bracket deals.
        for id in mirror.sets.keys() {
            if !planned_ids.contains(id) {
                problems.push(format!("{id}: stored, but the bracket does not deal it"));
            }
        }
        // Stored advancement is the plan's.
        let mut advanced: BTreeMap<SetId, BTreeSet<TeamId>> = BTreeMap::new();
        let mut stored_wild = BTreeSet::new();
        for row in advancement {
            match &row.set_id {
                Some(set) => {
                    advanced.entry(set.clone()).or_default().insert(row.team);
                }
                None if row.stage_id.is_nationals()
                    && row.round == 0
                    && row.kind == AdvancementKind::WildCard =>
                {
                    stored_wild.insert(row.team);
                }
                None => {}
            }
        }
        for set in plans.iter().flat_map(StagePlan::sets) {
            let done = mirror.sets.get(&set.plan.id).is_some_and(|s| s.finished);
            let want: BTreeSet<TeamId> = set
                .result
                .as_ref()
                .map(|r| r.advancing.iter().map(|(team, _)| *team).collect())
                .unwrap_or_default();
            let have = advanced.remove(&set.plan.id).unwrap_or_default();
            if done && want != have {
                problems.push(format!(
                    "{}: stored advancement {have:?}, the results give {want:?}",
                    set.plan.id
                ));
            }
        }
        for (set, teams) in advanced {
            if !teams.is_empty() {
                problems.push(format!(
                    "{set}: advancement {teams:?} is stored for a set the bracket does not finish"
                ));
            }
        }
        if let Some(field) = &whole.field {
            let wild: BTreeSet<TeamId> = field.wild_cards.iter().map(|(team, _)| *team).collect();
            if mirror
                .sets
                .keys()
                .any(|id| id.as_str().starts_with("nationals/"))
                && wild != stored_wild
            {
                problems.push(format!(
                    "nationals: stored wild cards {stored_wild:?}, the results give {wild:?}"
                ));
            }
        }

        let decisive = if self.t.has_nationals() {
            plans.iter().find(|p| p.stage == Stage::Nationals)
        } else {
            plans.first()
        };
        let complete = decisive.is_some_and(|p| p.outcome.is_some())
            && !some_invalidated
            && plans.iter().all(|p| p.ready.is_empty())
            && mirror.sets.values().all(|s| s.finished);
        Ok(Consistency { problems, complete })
    }

    /// The nationals' field of the finished `school_plans`.
    fn field(&self, school_plans: &[StagePlan]) -> Result<NationalsField, BracketError> {
        nationals_field(
            school_plans,
            self.t.bracket.fill_nationals_to_multiple_of,
            &self.roster.draw,
        )
    }

    /// Every stage planned from scratch by `plan_stage` (`None`: the stage could not be
    /// planned, and the nationals are not either).
    fn whole(
        &self,
        mut plan_stage: impl FnMut(&StageEntry) -> Result<Option<StagePlan>, RunError>,
    ) -> Result<Whole, RunError> {
        let mut plans = Vec::new();
        let mut schools_done = true;
        for entry in &self.schools {
            match plan_stage(entry)? {
                Some(plan) => {
                    schools_done &= plan.outcome.is_some();
                    plans.push(plan);
                }
                None => schools_done = false,
            }
        }
        let mut field = None;
        if self.t.has_nationals() && schools_done {
            let nationals = self.field(&plans)?;
            plans.extend(plan_stage(&nationals.entry)?);
            field = Some(nationals);
        }
        Ok(Whole { plans, field })
    }

    /// Every stage planned from `mirror`, without writing anything, stored sets whose
    /// teams differ from the plan's counting as unplayed.
    fn whole_excluding_reseated(&self, mirror: &Mirror) -> Result<Whole, RunError> {
        let mut excluded: HashSet<SetKey> = HashSet::new();
        self.whole(|entry| self.plan_excluding(entry, mirror, &mut excluded).map(Some))
    }

    /// Plans one stage, treating as unplayed every stored set whose teams differ from the
    /// plan's (and remembering it in `excluded`), until none is left.
    fn plan_excluding(
        &self,
        entry: &StageEntry,
        mirror: &Mirror,
        excluded: &mut HashSet<SetKey>,
    ) -> Result<StagePlan, RunError> {
        loop {
            let lookup = |k: &SetKey| {
                if excluded.contains(k) {
                    None
                } else {
                    mirror.complete.get(k).cloned()
                }
            };
            let key = match self.roster.plan(entry, lookup) {
                Ok(plan) => match reseated(&plan, mirror) {
                    Some(set) => set.plan.key,
                    None => return Ok(plan),
                },
                Err(BracketError::ResultsMismatch { set, .. }) => mirror
                    .sets
                    .get(&set)
                    .map(|s| s.key)
                    .ok_or_else(|| RunError::Setup(format!("set {set} is not stored")))?,
                Err(e) => return Err(e.into()),
            };
            if !excluded.insert(key) {
                return Err(RunError::Setup(format!(
                    "stage {} cannot be planned",
                    entry.label
                )));
            }
        }
    }
}

/// The first set of `plan` with a result whose stored teams (or their order, hence their
/// seats) are not the ones the plan deals it: results stand only for the seating they
/// were played in.
fn reseated<'p>(plan: &'p StagePlan, mirror: &Mirror) -> Option<&'p PlannedSet> {
    plan.sets().find(|ps| {
        ps.result.is_some()
            && mirror
                .sets
                .get(&ps.plan.id)
                .is_some_and(|s| s.members != ps.plan.teams)
    })
}

/// The decisions of `plan` for the stage `stage_id`: `recorded(set_id)` says whether a set
/// is already recorded as finished (`None`: not stored at all); `stage_recorded` whether
/// the stage is.
fn decide(
    plan: &StagePlan,
    stage_id: StageId,
    recorded: impl Fn(&SetId) -> Option<bool>,
    stage_recorded: bool,
) -> Decisions {
    let mut d = Decisions {
        stage_id,
        finished_sets: Vec::new(),
        entries: None,
        stage_finished: false,
        ready: plan.ready.clone(),
        notes: Vec::new(),
    };
    for ps in plan.sets() {
        let Some(result) = &ps.result else { continue };
        if recorded(&ps.plan.id) != Some(false) {
            continue;
        }
        d.finished_sets.push(FinishedSet {
            set_id: ps.plan.id.clone(),
            stage_id: d.stage_id.clone(),
            round: ps.plan.key.round,
            advancing: advancing(result),
        });
        let what = if ps.plan.is_final { "final" } else { "set" };
        d.notes.push(format!("{} {what} done", ps.plan.id));
    }
    if let Some(outcome) = &plan.outcome
        && !stage_recorded
    {
        d.stage_finished = true;
        if matches!(plan.stage, Stage::School(_)) {
            let singles: Vec<Advance> = outcome
                .qualifiers
                .iter()
                .filter(|(_, by)| *by == QualifiedBy::SingleTeam)
                .map(|(team, _)| Advance {
                    team: *team,
                    place: 1,
                    kind: AdvancementKind::SingleTeam,
                    tie_break: None,
                })
                .collect();
            if !singles.is_empty() {
                d.entries = Some(StageEntries {
                    stage_id: d.stage_id.clone(),
                    entries: singles,
                });
            }
        }
    }
    d
}

/// Who advanced from a finished set: place in its ranking, and the tie-break step that
/// separated it from the first team left out when the score did not.
fn advancing(result: &SetResult) -> Vec<Advance> {
    result
        .advancing
        .iter()
        .map(|(team, by)| Advance {
            team: *team,
            place: result
                .ranking
                .iter()
                .position(|r| r.totals.team == *team)
                .map_or(0, |p| p as u32 + 1),
            kind: AdvancementKind::Top,
            tie_break: tie_break_of(by),
        })
        .collect()
}

/// The nationals' wild cards in their ranking order, as rows of `stage_id`'s round 0.
fn wild_card_entries(field: &NationalsField, stage_id: StageId) -> StageEntries {
    StageEntries {
        stage_id,
        entries: field
            .wild_cards
            .iter()
            .enumerate()
            .map(|(i, (team, by))| Advance {
                team: *team,
                place: i as u32 + 1,
                kind: AdvancementKind::WildCard,
                tie_break: tie_break_of(by),
            })
            .collect(),
    }
}

fn tie_break_of(by: &QualifiedBy) -> Option<TieBreak> {
    match by {
        QualifiedBy::Top { tie_break } | QualifiedBy::WildCard { tie_break } => *tie_break,
        QualifiedBy::SingleTeam => None,
    }
}

/// Who advanced out of `set_id` in a plan.
fn advancing_of(plans: &[StagePlan], set_id: &SetId) -> Vec<TeamId> {
    plans
        .iter()
        .find_map(|p| p.set_by_id(set_id))
        .and_then(|s| s.result.as_ref())
        .map(|r| r.advancing.iter().map(|(t, _)| *t).collect())
        .unwrap_or_default()
}

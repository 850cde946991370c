//! The runner: plays a tournament to its end on the store, resuming where a previous run
//! stopped.
//!
//! One async task owns the store and the bracket: it asks the stage planner what is ready,
//! stores newly planned sets, hands their games to a rayon pool, and stores each finished
//! game in its own transaction as it arrives. When a set's last game is stored, the set's
//! stage is planned again, which releases the next round. Nothing depends on the order in
//! which games finish: seeds come from the bracket, results are folded by the planner, so
//! `--jobs` never changes a result.

mod executor;
mod fingerprint;
mod game;
mod planner;
mod progress;
mod reconstruct;
mod rerun;
mod state;
mod verify;

pub use fingerprint::{config_differences, config_fingerprint, legacy_fingerprint, resolve_seed};
pub use game::{ExternalSetup, GameJob, GameJobError, play_series};
pub use progress::{Progress, ProgressMode};
pub use reconstruct::tournament_from_store;
pub use rerun::{RerunOutcome, RerunRequest, rerun_set};
pub use state::{Mirror, SetState, series_totals, stage_id, stage_of};
pub use verify::{Consistency, check_store};

use crate::play::series::{SeriesHost, SeriesLogger, series_client_sandbox};
use crate::store::{FinishedSet, NewSet, PlannedGame, RunLock, StageEntries, Store, StoreError};
use crate::tourney::bracket::{
    BracketError, Roster, SetPlan, StageEntry, StagePlan, balanced_sizes, nationals_field,
    round_sizes, wild_card_count,
};
use crate::tourney::model::{SchoolId, SetId, Stage, StageId, TeamId, Tournament};
use executor::Executor;
use std::collections::{BTreeSet, HashMap, HashSet};
use thiserror::Error;

/// How to run.
#[derive(Debug, Clone, Copy)]
pub struct RunOptions {
    /// Games played at once.
    pub jobs: usize,
    pub progress: ProgressMode,
}

/// Why a run stopped.
#[derive(Debug, Error)]
pub enum RunError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Bracket(#[from] BracketError),
    #[error(transparent)]
    Game(#[from] GameJobError),
    #[error("{0}")]
    Setup(String),
    /// The request names something that does not exist or cannot be done (bad input).
    #[error("{0}")]
    BadRequest(String),
    #[error(
        "{database} holds a tournament played with a different configuration: {what}; restore the original configuration, or start afresh with a new database (another `database` path in the tournament file, or delete {database})"
    )]
    ConfigChanged { database: String, what: String },
}

/// What a finished run reports.
#[derive(Debug, Clone)]
pub struct RunSummary {
    pub games_total: u64,
    /// Games found already stored when the run started.
    pub games_resumed: u64,
    /// Games played and stored by this run.
    pub games_played: u64,
    /// The decisive final's ranking: nationals, or the only school's final.
    pub final_ranking: Vec<TeamId>,
    /// Qualifiers of a single-school run (its result), else empty.
    pub qualifiers: Vec<TeamId>,
}

/// Runs (or resumes) the tournament to its end.
pub fn run_tournament(t: &Tournament, opts: RunOptions) -> Result<RunSummary, RunError> {
    with_runner(t, opts, OpenAs::CreateOrResume, |runner, store| {
        Box::pin(async move {
            store.count_restarts().await?;
            runner.run().await
        })
    })
}

/// How `run` and `rerun` open a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OpenAs {
    /// Created (and migrated) if new: `run`.
    CreateOrResume,
    /// It must exist: `rerun`.
    Existing,
}

/// The set-up `run` and `rerun` share, in order: the tournament is runnable, one runtime,
/// the run lock, the series host (bound before anything is written, so a taken port
/// fails cleanly), the store, the stored school slugs and the runner; then `work`, and the
/// store is closed whatever it returned.
fn with_runner<T>(
    t: &Tournament,
    opts: RunOptions,
    open: OpenAs,
    work: impl for<'a> FnOnce(
        Runner<'a>,
        &'a Store,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<T, RunError>>,
) -> Result<T, RunError> {
    check_runnable(t)?;
    let runtime =
        crate::runtime::runtime().map_err(|e| RunError::Setup(crate::runtime::runtime_error(e)))?;
    runtime.block_on(async {
        let _lock = RunLock::acquire(&t.database)?;
        let series = bind_series_host(t, opts.progress).await?;
        let store = match open {
            OpenAs::CreateOrResume => Store::open(&t.database).await?,
            OpenAs::Existing => Store::open_existing(&t.database).await?,
        };
        let result = async {
            let t = with_stored_slugs(t, &store).await?;
            let runner = Runner::new(&t, &store, opts, series).await?;
            work(runner, &store).await
        }
        .await;
        store.close().await;
        result
    })
}

/// `t` with the slugs its database stored for its schools (matched by position and name).
///
/// Slugs are part of set ids, stage ids, seeds and the configuration fingerprint, and a
/// database keeps those of the version that started it: when slugs were made to
/// transliterate (`École` -> `ecole`, not `cole`), a tournament started before still opens
/// and resumes under its stored ids. A school whose stored name differs keeps its new slug
/// (the fingerprint then refuses the database, as for any other change of configuration).
pub(crate) async fn with_stored_slugs<'t>(
    t: &'t Tournament,
    store: &Store,
) -> Result<std::borrow::Cow<'t, Tournament>, RunError> {
    let stored = store.schools().await?;
    let differs = |(school, row): (&crate::tourney::model::School, &crate::store::SchoolRow)| {
        school.name == row.name && school.slug != row.slug
    };
    if !t.schools.iter().zip(&stored).any(differs) {
        return Ok(std::borrow::Cow::Borrowed(t));
    }
    let mut adopted = t.clone();
    for (school, row) in adopted.schools.iter_mut().zip(&stored) {
        if school.name == row.name {
            school.slug.clone_from(&row.slug);
        }
    }
    Ok(std::borrow::Cow::Owned(adopted))
}

/// Whether the stored tournament is over: its decisive final (the nationals' final, or the
/// only school's final) is played.
async fn is_finished(store: &Store) -> Result<bool, RunError> {
    let sets = store.sets().await?;
    let schools = store.schools().await?.len();
    Ok(crate::store::decisive_final(&sets, schools).is_some_and(|set| set.is_done()))
}

/// Whether any team of the tournament plays with a series client (one connection for all
/// the games of its set: the Windward 2012 clients).
pub fn has_series_teams(t: &Tournament) -> bool {
    t.teams.iter().any(|team| team.bot.plays_series())
}

/// Starts the series host on `[windward] listen` when some team needs it, before anything
/// is written: a port already taken is a clear error, not a run of crashes.
pub async fn bind_series_host(
    t: &Tournament,
    mode: ProgressMode,
) -> Result<Option<SeriesHost>, RunError> {
    if !has_series_teams(t) {
        return Ok(None);
    }
    let addr = t.limits.windward_listen;
    // Joins and refusals are shown like progress: above the bars, or not with --quiet.
    progress::set_line_mode(mode);
    let log: SeriesLogger = std::sync::Arc::new(|line| progress::line(&line));
    let host = SeriesHost::bind(addr, t.limits.start_limit_ms, log)
        .await
        .map_err(|e| {
            RunError::Setup(format!(
                "cannot listen on {addr} for the Windward clients: {e} (is another run or `lrs-tourney serve` using it? set [windward] listen in {})",
                t.source.display()
            ))
        })?;
    Ok(Some(host))
}

/// What this version cannot run, checked before anything is written.
pub fn check_runnable(t: &Tournament) -> Result<(), RunError> {
    if t.database.to_string_lossy().contains("://") {
        return Err(RunError::BadRequest(format!(
            "database {}: only SQLite files are supported by this version; give a file path",
            t.database.display()
        )));
    }
    crate::tourney::bracket::check_format(&t.bracket)?;
    check_sandbox(t).map_err(RunError::BadRequest)?;
    Ok(())
}

/// With `[limits] sandbox = "strict"`, refuses a tournament with command bots unless this
/// machine gives them every protection of the sandbox (JSON-lines bots, and series clients
/// if there are any); the error names each missing protection and why.
pub fn check_sandbox(t: &Tournament) -> Result<(), String> {
    use crate::tourney::model::{Bot, SandboxMode};
    if t.limits.sandbox != SandboxMode::Strict
        || !t
            .teams
            .iter()
            .any(|team| matches!(team.bot, Bot::Command { .. }))
    {
        return Ok(());
    }
    let sandbox = crate::bots::JsonlOptions::for_tournament(t).sandbox;
    sandbox.protections().require_all()?;
    if has_series_teams(t) {
        series_client_sandbox(&sandbox, t.limits.windward_listen.port())
            .protections()
            .require_all()
            .map_err(|e| format!("Windward clients: {e}"))?;
    }
    Ok(())
}

/// The number of games the whole bracket will have (known before any game is played: round
/// sizes depend only on team counts).
pub fn planned_game_count(t: &Tournament) -> u64 {
    let f = &t.bracket;
    let stage_games = |n: usize| -> u64 {
        round_sizes(n, f)
            .iter()
            .map(|&m| balanced_sizes(m, f.set_size).len() as u64)
            .sum::<u64>()
            * u64::from(f.games_per_series)
    };
    let mut total: u64 = t.schools.iter().map(|s| stage_games(s.teams.len())).sum();
    if t.has_nationals() {
        let q: usize = t
            .schools
            .iter()
            .map(|s| s.teams.len().min(f.advance_per_set.max(1)))
            .sum();
        let others = t.teams.len() - q;
        let wild = wild_card_count(q, f.fill_nationals_to_multiple_of).min(others);
        total += stage_games(q + wild);
    }
    total
}

/// Newly planned sets are started in groups of this many while a planning pass goes on,
/// so the workers do not wait for thousands of stages to be planned.
const START_CHUNK: usize = 16;

struct Runner<'a> {
    t: &'a Tournament,
    store: &'a Store,
    roster: Roster,
    /// Where the games are played.
    exec: Executor,
    mirror: Mirror,
    school_entries: Vec<StageEntry>,
    plans: HashMap<Stage, StagePlan>,
    nationals: Option<StageEntry>,
    finished_stages: HashSet<Stage>,
    progress: Progress,
    resumed: u64,
    played: u64,
    /// Writes decided by the plans of the current pass, flushed together.
    pending: PendingWrites,
    /// Sets a rerun invalidated, by id, with their run numbers: dealt again under them.
    invalidated: HashMap<SetId, u32>,
    /// A new database's tournament, schools, teams and stages, stored by the first
    /// `flush_plans`: the first games play while they are written.
    setup: Option<TournamentSetup>,
    /// The rules engine version that played the stored games, when it is not this one's
    /// (a finished tournament, which opens but must not be played again).
    older_engine: Option<u32>,
}

/// The refusal to play a tournament whose games an `older` rules engine played; `advice`
/// says what to do instead.
fn engine_changed(database: &str, older: u32, current: u32, advice: &str) -> RunError {
    RunError::ConfigChanged {
        database: database.to_string(),
        what: format!(
            "its games were played by rules engine version {older}, this is version {current} (the rules changed: {advice})"
        ),
    }
}

/// What the first `flush_plans` writes before anything else.
enum TournamentSetup {
    /// A new database's tournament (see [`Store::init_tournament`]).
    New { fingerprint: String, format: String },
    /// The limits of a tournament started before they were stored, with the fingerprint
    /// that includes them.
    Limits { fingerprint: String },
}

/// What a planning pass decided, written in one transaction by `flush_plans`.
#[derive(Default)]
struct PendingWrites {
    finished_sets: Vec<FinishedSet>,
    finished_stages: Vec<StageId>,
    /// Teams that joined a stage without playing for it (single-team schools' qualifiers,
    /// the nationals' wild cards).
    entries: Vec<StageEntries>,
    /// Ready sets with their stage id, in planning order, not started yet.
    ready: Vec<(SetPlan, StageId)>,
    /// Newly dealt sets, started already, with the run number each is expected to be
    /// stored under.
    new_sets: Vec<(NewSet, u32)>,
}

impl<'a> Runner<'a> {
    async fn new(
        t: &'a Tournament,
        store: &'a Store,
        opts: RunOptions,
        series: Option<SeriesHost>,
    ) -> Result<Runner<'a>, RunError> {
        let stored = store.tournament().await?;
        let current = t.bracket.game.kind().engine_version();
        let older_engine = stored
            .as_ref()
            .map(|s| s.engine_version)
            .filter(|&v| v != current);
        let seed = resolve_seed(stored.as_ref(), t, store.label())?;
        let fingerprint = config_fingerprint(t, &seed);
        let mut setup = None;
        match stored {
            // A finished tournament plays no game: this run only brings its database up to
            // date (its schema), whatever rules played it.
            Some(stored) if older_engine.is_some() && !is_finished(store).await? => {
                return Err(engine_changed(
                    store.label(),
                    stored.engine_version,
                    current,
                    "finish it with the build that started it",
                ));
            }
            // Started before limits were stored: the same configuration otherwise; this
            // run records the file's limits (with the current fingerprint) when it first
            // writes.
            Some(stored)
                if stored.limits.is_none()
                    && stored.config_hash == legacy_fingerprint(t, &seed) =>
            {
                // A tournament read back from that database has no limits to record.
                if t.source != t.database {
                    setup = Some(TournamentSetup::Limits { fingerprint });
                }
            }
            Some(stored) if stored.config_hash != fingerprint => {
                let what = config_differences(store, &stored, t).await?.join("; ");
                return Err(RunError::ConfigChanged {
                    database: store.label().to_string(),
                    what,
                });
            }
            Some(_) => {}
            None => {
                let format = serde_json::to_string(&t.bracket).map_err(|e| {
                    RunError::Setup(format!("cannot store the bracket format: {e}"))
                })?;
                setup = Some(TournamentSetup::New {
                    fingerprint,
                    format,
                });
            }
        }
        let roster = Roster::from_tournament(t, seed);
        let school_entries = (0..t.schools.len())
            .filter_map(|s| roster.school_entry(SchoolId(s)))
            .collect();
        let mirror = Mirror::load(store, t).await?;
        let resumed = mirror.games_done();
        let external = ExternalSetup {
            options: crate::bots::JsonlOptions::for_tournament(t),
            time_limit_ms: t.limits.time_limit_ms,
            names: t
                .teams
                .iter()
                .map(|team| format!("{} ({})", team.name, t.schools[team.school.index()].name))
                .collect(),
            team_names: t.teams.iter().map(|team| team.name.clone()).collect(),
            series,
        };
        let exec = Executor::new(t, opts.jobs, external)?;
        let progress = Progress::new(opts.progress, planned_game_count(t), resumed);
        Ok(Runner {
            t,
            store,
            roster,
            exec,
            mirror,
            school_entries,
            plans: HashMap::new(),
            nationals: None,
            finished_stages: HashSet::new(),
            progress,
            resumed,
            played: 0,
            pending: PendingWrites::default(),
            invalidated: store.invalidated_sets().await?,
            setup,
            older_engine,
        })
    }

    async fn run(mut self) -> Result<RunSummary, RunError> {
        let mut dirty: BTreeSet<Stage> = self.school_entries.iter().map(|e| e.stage).collect();
        loop {
            if !dirty.is_empty() {
                for stage in std::mem::take(&mut dirty) {
                    self.plan(stage)?;
                    if self.pending.ready.len() >= START_CHUNK {
                        self.start_pending()?;
                    }
                }
                self.flush_plans().await?;
                if self.nationals.is_none() && self.t.has_nationals() && self.schools_done() {
                    self.enter_nationals()?;
                    self.plan(Stage::Nationals)?;
                    self.flush_plans().await?;
                }
                self.show_current();
            }
            if self.exec.is_idle() {
                break;
            }
            let batch = self.exec.next_batch().await?;
            let mut records = Vec::with_capacity(batch.len());
            for outcome in batch {
                records.push(outcome.record?);
            }
            let stored = self.store.record_games(&records).await?;
            if stored as usize != records.len() {
                // Never expected within one run; the store kept the earlier results.
                self.progress
                    .note("some games were stored already and were not counted again");
            }
            for record in records {
                self.played += 1;
                self.progress.game_done();
                // A stage is planned again when a whole round is stored: that is when the
                // next round can be dealt (planning a big nationals round after each of
                // its sets would be wasted work).
                if self
                    .mirror
                    .add_game(&record.set_id, record.game_index, record.results)
                    && let Some(set) = self.mirror.sets.get(&record.set_id)
                    && self.round_complete(set.key.stage)
                {
                    dirty.insert(set.key.stage);
                }
            }
        }
        // A tournament without any stage to plan still gets its rows.
        self.store_setup().await?;
        self.progress.finish();
        self.summary()
    }

    /// Whether every set of the stage's current round is stored in full.
    fn round_complete(&self, stage: Stage) -> bool {
        self.plans
            .get(&stage)
            .and_then(|p| p.rounds.last())
            .is_some_and(|r| {
                r.sets
                    .iter()
                    .all(|s| self.mirror.complete.contains_key(&s.plan.key))
            })
    }

    fn schools_done(&self) -> bool {
        self.finished_stages
            .iter()
            .filter(|s| matches!(s, Stage::School(_)))
            .count()
            == self.school_entries.len()
    }

    /// Plans a stage from the stored results: what became final and the ready sets go to
    /// the pending writes (started by `start_pending`, stored by `flush_plans`).
    fn plan(&mut self, stage: Stage) -> Result<(), RunError> {
        let entry = match stage {
            Stage::Nationals => self.nationals.clone(),
            Stage::School(s) => self
                .school_entries
                .iter()
                .find(|e| e.stage == Stage::School(s))
                .cloned(),
        };
        let Some(entry) = entry else { return Ok(()) };
        let complete = &self.mirror.complete;
        let plan = match self.roster.plan(&entry, |key| complete.get(key).cloned()) {
            Ok(plan) => plan,
            Err(BracketError::ResultsMismatch { set, .. }) => return Err(self.stale(&set)),
            Err(e) => return Err(e.into()),
        };
        // Results stand only for the seating they were played in.
        if let Some(ps) = plan.sets().find(|ps| {
            ps.result.is_some()
                && self
                    .mirror
                    .sets
                    .get(&ps.plan.id)
                    .is_some_and(|s| s.members != ps.plan.teams)
        }) {
            return Err(self.stale(&ps.plan.id));
        }
        let stage_id = stage_id(self.t, stage);
        let mirror = &self.mirror;
        let decisions = planner::decide(
            &plan,
            &stage_id,
            |id| mirror.sets.get(id).map(|s| s.finished),
            self.finished_stages.contains(&stage),
        );
        for finished in &decisions.finished_sets {
            if let Some(set) = self.mirror.sets.get_mut(&finished.set_id) {
                set.finished = true;
            }
        }
        for note in &decisions.notes {
            self.progress.note(note);
        }
        self.pending.finished_sets.extend(decisions.finished_sets);
        self.pending.entries.extend(decisions.entries);
        if decisions.stage_finished {
            self.finished_stages.insert(stage);
            self.pending.finished_stages.push(stage_id.clone());
        }
        self.plans.insert(stage, plan);
        for set in decisions.ready {
            self.pending.ready.push((set, stage_id.clone()));
        }
        Ok(())
    }

    /// The error for a stored set whose teams (or their order) are not those the bracket
    /// deals it from the stored results: left by a rerun of an earlier version, which did
    /// not invalidate every set it changed. Any rerun with `--cascade` invalidates it.
    fn stale(&self, set_id: &SetId) -> RunError {
        let names = |teams: &[TeamId]| {
            teams
                .iter()
                .map(|&m| {
                    let team = self.t.team(m);
                    format!(
                        "{} ({})",
                        team.name,
                        self.t.schools[team.school.index()].name
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let held = self
            .mirror
            .sets
            .get(set_id)
            .map(|s| names(&s.members))
            .unwrap_or_default();
        let feeder = self
            .mirror
            .sets
            .values()
            .filter(|s| s.id != *set_id && s.is_complete())
            .map(|s| s.id.as_str())
            .min()
            .unwrap_or("SET");
        RunError::Setup(format!(
            "{}: set {set_id} was played by {held}, which is not how the bracket deals it from the stored results (a rerun by an earlier version did not replay it); to deal it again and replay it, re-run any finished set with --cascade, e.g. `lrs-tourney rerun {} {feeder} --reason \"replay {set_id}\" --cascade` (built-in AIs replay the same games without --reseed)",
            self.store.label(),
            self.t.source.display()
        ))
    }

    /// Starts the games of the sets planned so far in this pass. A set missing from the
    /// mirror is new (run 0) or was invalidated by a rerun (dealt again under its stored
    /// run number): known without asking the store, so its games start now and play while
    /// the plan is written. Their results are stored only after `flush_plans` has written
    /// the set, so sets are always stored first.
    fn start_pending(&mut self) -> Result<(), RunError> {
        let ready = std::mem::take(&mut self.pending.ready);
        for (plan, stage_id) in &ready {
            match self.mirror.sets.get(&plan.id) {
                Some(existing) if existing.members != plan.teams => {
                    return Err(RunError::ConfigChanged {
                        database: self.store.label().to_string(),
                        what: format!("set {} was dealt other teams", plan.id),
                    });
                }
                Some(_) => {}
                None => {
                    let new = self.new_set(plan, stage_id);
                    let run_no = self.invalidated.get(&new.id).copied().unwrap_or(0);
                    self.mirror.sets.insert(
                        new.id.clone(),
                        SetState {
                            id: new.id.clone(),
                            key: plan.key,
                            stage_id: new.stage_id.clone(),
                            is_final: new.is_final,
                            members: new.members.clone(),
                            run_no,
                            games: new
                                .games
                                .iter()
                                .map(|g| state::GameSlot {
                                    no: g.no,
                                    seed: g.seed,
                                    arena: g.arena.clone(),
                                    results: None,
                                })
                                .collect(),
                            finished: false,
                        },
                    );
                    self.pending.new_sets.push((new, run_no));
                }
            }
            self.start_set(plan)?;
        }
        Ok(())
    }

    /// Starts what this pass planned and writes what it decided — finished sets and
    /// stages, teams that joined without playing, newly dealt sets — in one transaction.
    async fn flush_plans(&mut self) -> Result<(), RunError> {
        self.start_pending()?;
        self.store_setup().await?;
        let pending = std::mem::take(&mut self.pending);
        let (new_sets, expected): (Vec<NewSet>, Vec<u32>) = pending.new_sets.into_iter().unzip();
        let run_nos = self
            .store
            .write_plan(
                &pending.finished_sets,
                &pending.finished_stages,
                &pending.entries,
                &new_sets,
            )
            .await?;
        if run_nos != expected {
            return Err(RunError::Setup(format!(
                "{}: the stored run numbers of newly dealt sets differ from the expected ones; is another program writing to this database?",
                self.store.label()
            )));
        }
        for set in &new_sets {
            self.invalidated.remove(&set.id);
        }
        Ok(())
    }

    /// Stores a new database's tournament, schools, teams and stages, once.
    async fn store_setup(&mut self) -> Result<(), RunError> {
        match self.setup.take() {
            Some(TournamentSetup::New {
                fingerprint,
                format,
            }) => {
                self.store
                    .init_tournament(
                        self.t,
                        &self.roster.seed,
                        &fingerprint,
                        &format,
                        self.t.bracket.game.kind().engine_version(),
                    )
                    .await?
            }
            Some(TournamentSetup::Limits { fingerprint }) => {
                self.store
                    .record_limits(&fingerprint, &self.t.limits)
                    .await?
            }
            None => {}
        }
        Ok(())
    }

    /// The stored form of a newly dealt set: its members and its games' numbers, seeds and
    /// boards. Games are numbered in the order they are dealt.
    fn new_set(&mut self, plan: &SetPlan, stage_id: &StageId) -> NewSet {
        let f = &self.t.bracket;
        let first_no = self.mirror.next_game_no;
        self.mirror.next_game_no = first_no.after(f.games_per_series);
        NewSet {
            id: plan.id.clone(),
            stage_id: stage_id.clone(),
            round: plan.key.round,
            set_index: plan.key.set,
            is_final: plan.is_final,
            members: plan.teams.clone(),
            games: (0..f.games_per_series)
                .map(|g| PlannedGame {
                    no: first_no.after(g),
                    index: g,
                    seed: plan.game_seed(&self.roster.seed, g, 0),
                    arena: self.exec.arena_name(g).to_string(),
                })
                .collect(),
        }
    }

    /// Starts every game of a stored set that is not stored as played yet.
    fn start_set(&mut self, plan: &SetPlan) -> Result<(), RunError> {
        let Some(set) = self.mirror.sets.get(&plan.id) else {
            return Ok(());
        };
        let mut jobs = Vec::new();
        for (g, slot) in set.games.iter().enumerate() {
            if slot.results.is_some() || self.exec.is_playing(&set.id, g as u32) {
                continue;
            }
            let arena = self.exec.arena(self.t, &slot.arena)?;
            jobs.push(GameJob {
                game_no: slot.no,
                set_id: set.id.clone(),
                run_no: set.run_no,
                game_index: g as u32,
                seed: slot.seed,
                arena,
                teams: set
                    .members
                    .iter()
                    .map(|&m| (m, self.t.team(m).bot.clone()))
                    .collect(),
            });
        }
        self.exec.start(jobs);
        Ok(())
    }

    /// Builds the nationals' field from the finished school stages; the wild cards go to
    /// the pending writes.
    fn enter_nationals(&mut self) -> Result<(), RunError> {
        let school_plans: Vec<StagePlan> = self
            .school_entries
            .iter()
            .filter_map(|e| self.plans.get(&e.stage).cloned())
            .collect();
        let field = nationals_field(
            &school_plans,
            self.t.bracket.fill_nationals_to_multiple_of,
            &self.roster.draw,
        )?;
        // Stored with the nationals' first round, in the same transaction.
        self.pending
            .entries
            .push(planner::wild_card_entries(&field, StageId::nationals()));
        self.progress.note(&format!(
            "school stages done: {} qualifiers + {} wild cards go to nationals",
            field.qualifiers.len(),
            field.wild_cards.len()
        ));
        self.nationals = Some(field.entry);
        Ok(())
    }

    fn show_current(&self) {
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
        self.progress
            .set_current(format!("playing: {}", rounds.join(", ")));
    }

    fn summary(&self) -> Result<RunSummary, RunError> {
        let decisive = if self.t.has_nationals() {
            self.plans.get(&Stage::Nationals)
        } else {
            self.school_entries
                .first()
                .and_then(|e| self.plans.get(&e.stage))
        };
        let outcome = decisive.and_then(|p| p.outcome.as_ref());
        let final_ranking = outcome
            .map(|o| o.ranking.iter().map(|r| r.totals.team).collect())
            .unwrap_or_default();
        let qualifiers = if self.t.has_nationals() {
            Vec::new()
        } else {
            outcome
                .map(|o| o.qualifiers.iter().map(|(t, _)| *t).collect())
                .unwrap_or_default()
        };
        Ok(RunSummary {
            games_total: self.resumed + self.played,
            games_resumed: self.resumed,
            games_played: self.played,
            final_ranking,
            qualifiers,
        })
    }
}

//! The runner: plays a tournament to its end on the store, resuming where a previous run
//! stopped.
//!
//! One async task owns the store and the bracket: it asks the planner (`planner.rs`) what
//! is ready, stores newly planned sets, hands their games to the executor, and stores
//! finished games in batches as they arrive. When a round's last game is stored, its stage is planned
//! again, which releases the next round. Nothing depends on the order in which games
//! finish: seeds come from the bracket, results are folded by the planner, so `--jobs`
//! never changes a result.

mod executor;
mod fingerprint;
mod game;
mod inbox;
mod planner;
mod played_code;
mod progress;
mod reconstruct;
mod rerun;
mod state;
mod verify;
mod worker;
mod writes;

pub use fingerprint::{config_differences, config_fingerprint, legacy_fingerprint, resolve_seed};
pub use game::{ExternalSetup, GameJob, GameJobError, play_series};
pub use played_code::CodeChange;
pub use progress::{Progress, ProgressMode};
pub use reconstruct::tournament_from_store;
pub use rerun::{RerunOutcome, RerunRequest, rerun_set};
pub use state::{Mirror, SetState, series_totals, stage_id, stage_of};
pub use verify::{Consistency, check_store};
pub use worker::{WorkerOptions, WorkerSummary, run_worker};

use crate::play::series::{SeriesHost, SeriesLogger, series_client_sandbox};
use crate::store::{GameRecord, News, RunLock, Store, StoreError};
use crate::tourney::bracket::{
    BracketError, SetPlan, balanced_sizes, round_sizes, wild_card_count,
};
use crate::tourney::model::{SetGame, SetId, Stage, TeamId, Tournament};
use executor::Executor;
use inbox::Inbox;
use planner::{PlanError, Planner};
use std::collections::{BTreeSet, HashMap};
use thiserror::Error;
use writes::{TournamentSetup, Writes};

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
    /// The teams whose bots faulted in the current games, worst first: (team, faults,
    /// games played). Read from what the run holds, not from the database again.
    pub faulty: Vec<FaultyTeam>,
}

/// A team whose bot faulted, for the run's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultyTeam {
    pub team: TeamId,
    pub faults: u32,
    pub games: u32,
    /// The set where it faulted most (the first by id on a tie): where its logs tell why.
    pub worst_set: SetId,
}

/// Runs (or resumes) the tournament to its end, on the caller's runtime (games with
/// built-in AIs only play on a rayon pool of `opts.jobs` threads).
pub async fn run_tournament(t: &Tournament, opts: RunOptions) -> Result<RunSummary, RunError> {
    with_runner(
        t,
        opts,
        Plays::Here,
        OpenAs::CreateOrResume,
        |runner, store| {
            Box::pin(async move {
                store.count_restarts().await?;
                runner.run().await
            })
        },
    )
    .await
}

/// Plans the tournament to its end and plays nothing (`run --workers 0`): workers
/// (`lrs-tourney worker`, on any machine) claim and play its sets, and this planner deals
/// each round as the games they store complete the one before. It holds the run lock for
/// its whole life, so a second planner, a `run` or a `rerun` is refused meanwhile; it
/// returns when the tournament is complete.
pub async fn plan_tournament(t: &Tournament, opts: RunOptions) -> Result<RunSummary, RunError> {
    if t.database.as_file().is_some() {
        return Err(RunError::BadRequest(format!(
            "{}: workers play from a PostgreSQL database (`--db postgres://...`); on an SQLite file `run` plays every game itself (leave out --workers)",
            t.database
        )));
    }
    let opts = RunOptions { jobs: 1, ..opts };
    with_runner(
        t,
        opts,
        Plays::Elsewhere,
        OpenAs::CreateOrResume,
        |runner, _| Box::pin(runner.run()),
    )
    .await
}

/// Where a run's games are played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plays {
    /// By this process's executor (`run`, `rerun`).
    Here,
    /// By workers (`run --workers 0`): the runner plans, and learns of finished games from
    /// the store.
    Elsewhere,
}

/// How long a planner that plays nothing waits for news of a stored game
/// (`store::News::GameStored`) before it looks at the database anyway.
const STORED_GAMES_LOOK: std::time::Duration = std::time::Duration::from_secs(2);

/// How `run` and `rerun` open a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OpenAs {
    /// Created (and migrated) if new: `run`.
    CreateOrResume,
    /// It must exist: `rerun`.
    Existing,
}

/// The set-up `run` and `rerun` share, in order: the tournament is runnable, the run lock, the series host (bound before anything is written, so a taken port
/// fails cleanly), the store, the stored school slugs and the runner; then `work`, and the
/// store is closed whatever it returned.
async fn with_runner<T>(
    t: &Tournament,
    opts: RunOptions,
    plays: Plays,
    open: OpenAs,
    work: impl for<'a> FnOnce(
        Runner<'a>,
        &'a Store,
    ) -> futures_util::future::LocalBoxFuture<'a, Result<T, RunError>>,
) -> Result<T, RunError> {
    check_runnable(t)?;
    let lock = RunLock::acquire(&t.database).await?;
    let result = async {
        let series = match plays {
            Plays::Here => bind_series_host(t, opts.progress).await?,
            // Workers start their own series clients.
            Plays::Elsewhere => None,
        };
        let store = match open {
            OpenAs::CreateOrResume => Store::open(&t.database).await?,
            OpenAs::Existing => Store::open_existing(&t.database).await?,
        };
        let result = async {
            let t = with_stored_slugs(t, &store).await?;
            let runner = Runner::new(&t, &store, opts, plays, series).await?;
            work(runner, &store).await
        }
        .await;
        store.close().await;
        result
    }
    .await;
    // Released before returning, so that a `status` right after sees the run ended.
    lock.release().await;
    result
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

/// A run in progress: the planner decides, the executor plays, the writes go to the store,
/// and the mirror holds what is stored, for the planner to read.
struct Runner<'a> {
    t: &'a Tournament,
    planner: Planner<'a>,
    /// The stored sets and results, updated after every write.
    mirror: Mirror,
    /// Where the games are played: by `exec`, or by workers.
    plays: Plays,
    /// The arenas (and, when games are played here, where they are played).
    exec: Executor,
    /// Where finished games come back.
    inbox: Inbox,
    writes: Writes<'a>,
    /// Ready sets of the current planning pass, in planning order, not started yet.
    ready: Vec<SetPlan>,
    progress: Progress,
    /// Faults of each team's bot in this run's games, for a warning on the day.
    faults: progress::FaultWatch,
    /// Games stored when the run started, and stored by it since.
    resumed: u64,
    played: u64,
    /// The rules engine version that played the stored games, when it is not this one's
    /// (a finished tournament, which opens but must not be played again).
    older_engine: Option<u32>,
    /// Wakes a planner that plays nothing when a worker stores a game (listening from the
    /// start, so that no game stored before its first wait is missed); deaf when games
    /// are played here.
    games_news: crate::store::Waiter,
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

impl<'a> Runner<'a> {
    async fn new(
        t: &'a Tournament,
        store: &'a Store,
        opts: RunOptions,
        plays: Plays,
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
                if !reconstruct::is_read_from_store(t) {
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
        let mirror = Mirror::load(store, t).await?;
        let resumed = mirror.games_done();
        let external = ExternalSetup::for_tournament(t, series);
        let (inbox, finished) = Inbox::new();
        let exec = Executor::new(t, opts.jobs, external, finished)?;
        let progress = Progress::new(opts.progress, planned_game_count(t), resumed);
        let games_news = match plays {
            Plays::Elsewhere => store.waiter(News::GameStored).await,
            Plays::Here => crate::store::Waiter::deaf(),
        };
        Ok(Runner {
            t,
            planner: Planner::new(t, seed),
            mirror,
            plays,
            exec,
            inbox,
            writes: Writes::new(store, setup).await?,
            ready: Vec::new(),
            progress,
            faults: progress::FaultWatch::default(),
            resumed,
            played: 0,
            older_engine,
            games_news,
        })
    }

    fn store(&self) -> &'a Store {
        self.writes.store
    }

    async fn run(mut self) -> Result<RunSummary, RunError> {
        let mut dirty: BTreeSet<Stage> = self.planner.school_stages().collect();
        loop {
            if !dirty.is_empty() {
                for stage in std::mem::take(&mut dirty) {
                    self.plan(stage)?;
                    if self.ready.len() >= START_CHUNK {
                        self.start_ready()?;
                    }
                }
                self.flush_plans().await?;
                if self.planner.nationals_due() {
                    let entry = self.planner.enter_nationals()?;
                    // Stored with the nationals' first round, in the same transaction.
                    self.writes.entered(entry.wild_cards);
                    self.progress.note(&entry.note);
                    self.plan(Stage::Nationals)?;
                    self.flush_plans().await?;
                }
                self.progress
                    .set_current(format!("playing: {}", self.planner.playing()));
            }
            if self.inbox.is_idle() {
                break;
            }
            if self.plays == Plays::Elsewhere {
                for (set_id, game_index, results) in self.stored_elsewhere().await? {
                    self.game_stored(&set_id, game_index, results, &mut dirty);
                }
                continue;
            }
            let batch = self.inbox.next_batch().await?;
            let mut records = Vec::with_capacity(batch.len());
            for finished in batch {
                let game_no = self.mirror.game_no(&finished.game).ok_or_else(|| {
                    RunError::Setup(format!(
                        "set {} game {} finished but was never dealt",
                        finished.game.set, finished.game.index
                    ))
                })?;
                records.push(GameRecord {
                    game_no,
                    game: finished.played?,
                });
            }
            let stored = self.writes.record_games(&records).await?;
            if stored as usize != records.len() {
                // Never expected within one run; the store kept the earlier results.
                self.progress
                    .note("some games were stored already and were not counted again");
            }
            for GameRecord { game, .. } in records {
                self.game_stored(&game.set_id, game.game_index, game.results, &mut dirty);
            }
        }
        // A tournament without any stage to plan still gets its rows.
        self.writes.store_setup(self.t, self.planner.seed()).await?;
        self.progress.finish();
        Ok(self.summary())
    }

    /// Takes a stored game into the mirror; its stage goes to `dirty` when that completes
    /// a round: a stage is planned again when a whole round is stored, which is when the
    /// next round can be dealt.
    fn game_stored(
        &mut self,
        set_id: &SetId,
        game_index: u32,
        results: Vec<crate::tourney::played::TeamResult>,
        dirty: &mut BTreeSet<Stage>,
    ) {
        self.played += 1;
        self.progress.game_done();
        for line in &results {
            if let Some(total) = self.faults.add(line.team, line.outcome.faults) {
                let team = self.t.team(line.team);
                self.progress.note(&format!(
                    "warning: {} ({}): {total} faults so far (timeouts, unreadable answers, \
                     crashes), the latest in {set_id}; `lrs-tourney logs` shows what its bot \
                     printed",
                    team.name,
                    self.t.schools[team.school.index()].name
                ));
            }
        }
        if self.mirror.add_game(set_id, game_index, results)
            && let Some(set) = self.mirror.sets.get(set_id)
            && self.planner.round_complete(set.key.stage, &self.mirror)
        {
            dirty.insert(set.key.stage);
        }
    }

    /// The games workers stored that this planner waits for, as soon as there are some
    /// (woken by the workers' news, and looking at least every [`STORED_GAMES_LOOK`]); each
    /// is waited for no more.
    async fn stored_elsewhere(
        &mut self,
    ) -> Result<Vec<(SetId, u32, Vec<crate::tourney::played::TeamResult>)>, RunError> {
        loop {
            let mut stored = Vec::new();
            for (set_id, rows) in self.store().results_of_open_sets().await? {
                let mut games: std::collections::BTreeMap<u32, Vec<_>> = Default::default();
                for row in rows {
                    games.entry(row.game_index).or_default().push(row.line);
                }
                for (index, lines) in games {
                    let game = SetGame {
                        set: set_id.clone(),
                        index,
                    };
                    if self.inbox.arrived(&game) {
                        stored.push((set_id.clone(), index, lines));
                    }
                }
            }
            if !stored.is_empty() {
                return Ok(stored);
            }
            self.games_news.wait(STORED_GAMES_LOOK).await;
        }
    }

    /// Plans a stage from the stored results: what became final goes to the writes, the
    /// ready sets to `ready` (started by `start_ready`, stored by `flush_plans`).
    fn plan(&mut self, stage: Stage) -> Result<(), RunError> {
        let decisions = match self.planner.plan(stage, &self.mirror) {
            Ok(Some(decisions)) => decisions,
            Ok(None) => return Ok(()),
            Err(PlanError::Stale(set)) => return Err(self.stale(&set)),
            Err(PlanError::Bracket(e)) => return Err(e.into()),
        };
        for finished in &decisions.finished_sets {
            if let Some(set) = self.mirror.sets.get_mut(&finished.set_id) {
                set.finished = true;
            }
        }
        for note in &decisions.notes {
            self.progress.note(note);
        }
        self.ready.extend(decisions.ready.iter().cloned());
        self.writes.decided(decisions);
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
            self.store().label(),
            self.t.source.display()
        ))
    }

    /// Starts the games of the sets planned so far in this pass. A set missing from the
    /// mirror is new (run 0) or was invalidated by a rerun (dealt again under its stored
    /// run number): known without asking the store, so its games start now and play while
    /// the plan is written. Their results are stored only after `flush_plans` has written
    /// the set, so sets are always stored first.
    fn start_ready(&mut self) -> Result<(), RunError> {
        for plan in std::mem::take(&mut self.ready) {
            match self.mirror.sets.get(&plan.id) {
                Some(existing) if existing.members != plan.teams => {
                    return Err(RunError::ConfigChanged {
                        database: self.store().label().to_string(),
                        what: format!("set {} was dealt other teams", plan.id),
                    });
                }
                Some(_) => {}
                None => {
                    let exec = &self.exec;
                    let code = played_code::members_code(self.t, &plan.teams);
                    let new = self
                        .planner
                        .deal(&plan, code, self.mirror.next_game_no, |g| {
                            exec.arena_name(g).to_string()
                        });
                    let run_no = self.writes.run_no_of(&new.id);
                    self.mirror.insert_dealt(&new, plan.key, run_no);
                    self.writes.dealt(new, run_no);
                }
            }
            self.start_set(&plan.id)?;
        }
        Ok(())
    }

    /// Starts what this pass planned and writes what it decided — finished sets and
    /// stages, teams that joined without playing, newly dealt sets — in one transaction.
    async fn flush_plans(&mut self) -> Result<(), RunError> {
        self.start_ready()?;
        self.writes.flush(self.t, self.planner.seed()).await
    }

    /// Starts every game of a stored set that is not stored as played yet.
    fn start_set(&mut self, set_id: &SetId) -> Result<(), RunError> {
        let Some(set) = self.mirror.sets.get(set_id) else {
            return Ok(());
        };
        let games = set
            .games
            .iter()
            .zip(0..)
            .filter(|(slot, g)| {
                let game = SetGame {
                    set: set.id.clone(),
                    index: *g,
                };
                slot.results.is_none() && !self.inbox.is_playing(&game)
            })
            .map(|(slot, g)| (g, slot.seed, slot.arena.clone()))
            .collect();
        let jobs = set_jobs(self.t, &mut self.exec, set, set.run_no, games)?;
        self.inbox.expect(jobs.iter().map(GameJob::key));
        if self.plays == Plays::Here {
            self.exec.start(jobs);
        }
        Ok(())
    }

    fn summary(&self) -> RunSummary {
        let outcome = self.planner.decisive_outcome();
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
        RunSummary {
            games_total: self.resumed + self.played,
            games_resumed: self.resumed,
            games_played: self.played,
            final_ranking,
            qualifiers,
            faulty: self.faulty_teams(),
        }
    }

    /// Each team's faults over the current games of every set, for the teams that have
    /// some, worst first (then by team).
    fn faulty_teams(&self) -> Vec<FaultyTeam> {
        let mut by_team: HashMap<TeamId, FaultyTeam> = HashMap::new();
        // The worst set of a team so far: (its faults there, the set).
        let mut worst: HashMap<TeamId, (u32, &SetId)> = HashMap::new();
        for set in self.mirror.sets.values() {
            let mut here: HashMap<TeamId, u32> = HashMap::new();
            let lines = set
                .games
                .iter()
                .filter_map(|g| g.results.as_ref())
                .flatten();
            for line in lines {
                let total = by_team.entry(line.team).or_insert(FaultyTeam {
                    team: line.team,
                    faults: 0,
                    games: 0,
                    worst_set: set.id.clone(),
                });
                total.faults += line.outcome.faults;
                total.games += 1;
                *here.entry(line.team).or_default() += line.outcome.faults;
            }
            for (team, faults) in here {
                let better = worst.get(&team).is_none_or(|&(f, id)| {
                    faults > f || (faults == f && set.id.as_str() < id.as_str())
                });
                if better {
                    worst.insert(team, (faults, &set.id));
                }
            }
        }
        let mut faulty: Vec<FaultyTeam> = by_team
            .into_values()
            .filter(|f| f.faults > 0)
            .map(|mut f| {
                if let Some((_, id)) = worst.get(&f.team) {
                    f.worst_set = (*id).clone();
                }
                f
            })
            .collect();
        faulty.sort_by(|a, b| b.faults.cmp(&a.faults).then(a.team.cmp(&b.team)));
        faulty
    }
}

/// The jobs of `games` (index, seed, arena name) of `set` under `run_no`, its members
/// seated with their bots.
fn set_jobs(
    t: &Tournament,
    exec: &mut Executor,
    set: &SetState,
    run_no: u32,
    games: Vec<(u32, u64, String)>,
) -> Result<Vec<GameJob>, RunError> {
    games
        .into_iter()
        .map(|(game_index, seed, arena)| {
            Ok(GameJob {
                set_id: set.id.clone(),
                run_no,
                game_index,
                seed,
                arena: exec.arena(t, &arena)?,
                teams: set
                    .members
                    .iter()
                    .map(|&m| (m, t.team(m).bot.clone()))
                    .collect(),
            })
        })
        .collect()
}

//! `lrs-tourney worker URL`: plays the sets a planner (`run --workers 0`) deals, from any
//! machine that reaches the database (docs/workers.md).
//!
//! A worker rebuilds the tournament from the database, claims whole sets (a series keeps
//! its clients), plays their games with the runner's executor from the seeds stored with
//! them, and stores each game under its lease. It exits when the tournament is complete,
//! or, after SIGTERM, once its games in progress are stored (draining: it claims nothing
//! more and gives its sets back). Games are the same whichever worker plays them: a game
//! is a function of its stored seed, arena and bots.

mod checks;
mod keeper;

use super::executor::{Executor, FinishedGame};
use super::inbox::Inbox;
use super::{
    ExternalSetup, GameJob, GameJobError, ProgressMode, RunError, bind_series_host, is_finished,
};
use crate::store::{
    DbLocation, GameNo, Lease, LeasedWrite, News, SetToPlay, Store, Waiter, WorkerInfo, WorkerName,
    WorkerState,
};
use crate::tourney::model::{SetId, Tournament};
use keeper::LeaseKeeper;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Its name; default: host and process id (`--name` lets a restarted worker get its
    /// own leases back).
    pub name: Option<String>,
    /// Sets played at once (each set's games one after the other).
    pub jobs: usize,
    /// How long a claim lasts without a heartbeat.
    pub lease: Duration,
    /// `STORED=LOCAL`: bot folders stored under `STORED` are found under `LOCAL` here.
    pub bots_root: Option<(PathBuf, PathBuf)>,
    pub progress: ProgressMode,
    /// Set on SIGTERM: finish the games in progress, give the sets back, exit.
    pub drain: Arc<AtomicBool>,
}

/// What a worker did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkerSummary {
    pub name: String,
    /// Games it stored.
    pub stored: u64,
    /// Games it played whose result another worker had stored (it lost the lease).
    pub already_stored: u64,
    /// Sets it refused (a bot folder differs here) and sets that failed here.
    pub refused: u64,
    pub failed: u64,
    /// It stopped on SIGTERM, before the tournament was complete.
    pub drained: bool,
}

/// How often a busy worker looks for a drain request and more sets.
const IDLE_POLL: Duration = Duration::from_millis(250);

/// How long an idle worker (or one started before its planner) waits for news of sets to
/// claim (`store::News`) before it looks at the database anyway: leases of dead workers
/// expire without news, and a drain request is seen at the next look.
const IDLE_LOOK: Duration = Duration::from_secs(2);

/// How long a worker waits with nothing to claim before it says why.
const IDLE_SAY_AFTER: Duration = Duration::from_secs(10);

/// A line on stderr (the runner's output channel).
fn say(text: &str) {
    super::progress::line(text);
}

/// A set this worker plays now.
struct HeldSet {
    lease: Lease,
    /// Game numbers of the games not returned yet, by game index.
    waiting: BTreeMap<u32, GameNo>,
    /// A game of it failed here: the set is given back as failed; its other games are
    /// stored when they finish all the same.
    failed: bool,
}

/// Plays sets of the tournament in `database` until it is complete (or a drain).
pub async fn run_worker(
    database: &DbLocation,
    opts: WorkerOptions,
) -> Result<WorkerSummary, RunError> {
    if database.as_file().is_some() {
        return Err(RunError::BadRequest(format!(
            "{database}: workers play from a PostgreSQL database (postgres://...); on an SQLite file `lrs-tourney run` plays every game itself"
        )));
    }
    super::progress::set_line_mode(opts.progress);
    let store = Store::open_existing(database).await?;
    let result = work(&store, database, &opts).await;
    store.close().await;
    result
}

async fn work(
    store: &Store,
    database: &DbLocation,
    opts: &WorkerOptions,
) -> Result<WorkerSummary, RunError> {
    let host = nix::unistd::gethostname()
        .map(|h| h.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "unknown-host".to_string());
    let pid = std::process::id();
    let name = WorkerName::new(opts.name.clone().unwrap_or_else(|| format!("{host}-{pid}")));
    // Listening before the first look: news sent between the look and the wait is kept.
    let mut sets_news = store.waiter(News::SetsToClaim).await;
    // A planner creates the tournament: wait for it rather than fail when started first.
    let mut said_waiting = false;
    let stored = loop {
        if let Some(stored) = store.tournament().await? {
            break stored;
        }
        if opts.drain.load(Ordering::Relaxed) {
            return Ok(WorkerSummary {
                name: name.as_str().to_string(),
                drained: true,
                ..WorkerSummary::default()
            });
        }
        if !said_waiting {
            said_waiting = true;
            say(&format!(
                "worker {name}: no tournament in {database} yet; waiting for `lrs-tourney run FILE --db URL --workers 0` to plan it"
            ));
        }
        sets_news.wait(IDLE_LOOK).await;
    };
    let t =
        super::reconstruct::tournament_for_worker(store, database, opts.bots_root.as_ref()).await?;
    let differs = checks::worker_differs(&t, &stored);
    store
        .register_worker(&WorkerInfo {
            name: name.clone(),
            host,
            pid,
            version: env!("CARGO_PKG_VERSION").to_string(),
        })
        .await?;
    say(&format!(
        "worker {name}: playing {} from {database}",
        t.name
    ));
    let mut worker = Worker::new(&t, store, name, opts, sets_news).await?;
    let result = worker.run(differs.as_deref()).await;
    worker.stop().await;
    result.map(|()| worker.summary)
}

/// A worker at work: the sets it holds, the executor that plays them and the heartbeat.
struct Worker<'a> {
    t: &'a Tournament,
    store: &'a Store,
    name: WorkerName,
    opts: &'a WorkerOptions,
    lease_ms: i64,
    exec: Executor,
    inbox: Inbox,
    keeper: LeaseKeeper,
    held: HashMap<SetId, HeldSet>,
    summary: WorkerSummary,
    /// Wakes the worker when sets are dealt or given back.
    sets_news: Waiter,
}

impl<'a> Worker<'a> {
    async fn new(
        t: &'a Tournament,
        store: &'a Store,
        name: WorkerName,
        opts: &'a WorkerOptions,
        sets_news: Waiter,
    ) -> Result<Worker<'a>, RunError> {
        let external = ExternalSetup::for_tournament(t, bind_series_host(t, opts.progress).await?);
        let (inbox, finished) = Inbox::new();
        // A set's games play one after the other (as a series does); `jobs` sets at once.
        let exec = Executor::new(t, opts.jobs, external, finished)?;
        let keeper = LeaseKeeper::start(store.clone(), name.clone(), opts.lease);
        Ok(Worker {
            t,
            store,
            summary: WorkerSummary {
                name: name.to_string(),
                ..WorkerSummary::default()
            },
            name,
            opts,
            lease_ms: i64::try_from(opts.lease.as_millis()).unwrap_or(i64::MAX),
            exec,
            inbox,
            keeper,
            held: HashMap::new(),
            sets_news,
        })
    }

    fn draining(&self) -> bool {
        self.opts.drain.load(Ordering::Relaxed)
    }

    /// Claims, plays and stores until the tournament is complete or a drain is asked and
    /// the games in progress are stored. `differs`: why this worker may play no set.
    async fn run(&mut self, differs: Option<&str>) -> Result<(), RunError> {
        // A restarted worker first takes back the sets it held under its name.
        let mut own_first = true;
        // Since when it has had nothing to play, and whether it said so.
        let mut idle_since: Option<Instant> = None;
        let mut said_idle = false;
        loop {
            if self.draining() {
                if !self.summary.drained {
                    self.summary.drained = true;
                    self.keeper.set_state(WorkerState::Draining);
                    say(&format!(
                        "worker {}: SIGTERM: finishing the games in progress, then giving the sets back",
                        self.name
                    ));
                }
            } else {
                while self.held.len() < self.opts.jobs.max(1) {
                    match self
                        .store
                        .claim_set(&self.name, self.lease_ms, own_first)
                        .await?
                    {
                        Some(lease) => self.take(lease, differs).await?,
                        None if own_first => own_first = false,
                        None => break,
                    }
                }
            }
            if self.held.is_empty() {
                if self.draining() || is_finished(self.store).await? {
                    return Ok(());
                }
                let since = *idle_since.get_or_insert_with(Instant::now);
                if !said_idle && since.elapsed() >= IDLE_SAY_AFTER {
                    said_idle = true;
                    say(&self.idle_line().await?);
                }
                self.sets_news.wait(IDLE_LOOK).await;
                continue;
            }
            idle_since = None;
            said_idle = false;
            for finished in self.inbox.next_within(IDLE_POLL).await? {
                self.finished(finished).await?;
            }
        }
    }

    /// Why the worker has nothing to play, said once when it has waited a while. Its name's
    /// refusals are read from the database: a worker restarted under the same name (after
    /// its bot folder was fixed, say) still never claims what the name refused.
    async fn idle_line(&self) -> Result<String, RunError> {
        let by_name = self
            .store
            .refusals()
            .await?
            .iter()
            .filter(|r| r.worker == self.name)
            .count() as u64;
        let earlier = by_name.saturating_sub(self.summary.refused);
        Ok(if earlier > 0 {
            format!(
                "worker {}: no set to claim here: the name {} refused {by_name} set(s), {earlier} of them before this start, and a worker never claims a set its name refused; if its bot folders are fixed now, start it under a new --name. Any of them still unplayed waits for another worker (`lrs-tourney status` shows why); waiting",
                self.name, self.name
            )
        } else if self.summary.refused > 0 {
            format!(
                "worker {}: no set to claim here: this worker refused {} set(s) so far, and any of them still unplayed waits for another worker (`lrs-tourney status` shows why); waiting",
                self.name, self.summary.refused
            )
        } else {
            format!(
                "worker {}: no set to claim yet (the planner deals the next round when the sets playing now are stored); waiting",
                self.name
            )
        })
    }

    /// Starts the games of a claimed set, or refuses it.
    async fn take(&mut self, lease: Lease, differs: Option<&str>) -> Result<(), RunError> {
        if let Some(why) = differs {
            self.store.refuse_set(&self.name, &lease, None, why).await?;
            return Err(RunError::Setup(format!(
                "worker {}: refused set {}: {why}",
                self.name, lease.set_id
            )));
        }
        let set = self.store.set_to_play(&lease.set_id).await?;
        if let Some((team, why)) = checks::bot_differs(self.t, &set) {
            self.store
                .refuse_set(&self.name, &lease, Some(team), &why)
                .await?;
            self.summary.refused += 1;
            say(&format!(
                "worker {}: refused set {} for team {}: {why}",
                self.name,
                set.set_id,
                self.t.team(team).name
            ));
            return Ok(());
        }
        if set.games.is_empty() {
            self.store.release_set(&self.name, &lease).await?;
            return Ok(());
        }
        let jobs = self.jobs_of(&set)?;
        say(&format!(
            "worker {}: playing set {} ({} game(s) left, lease {})",
            self.name,
            set.set_id,
            jobs.len(),
            lease.token.0
        ));
        self.keeper.hold(&lease);
        self.held.insert(
            set.set_id.clone(),
            HeldSet {
                lease,
                waiting: set.games.iter().map(|g| (g.game_index, g.no)).collect(),
                failed: false,
            },
        );
        self.inbox.expect(jobs.iter().map(GameJob::key));
        // One set's games in order, one at a time: `jobs` sets share the executor.
        self.exec.start_in_order(jobs, self.opts.drain.clone());
        Ok(())
    }

    /// The games of `set` still to play, its members seated with their bots.
    fn jobs_of(&mut self, set: &SetToPlay) -> Result<Vec<GameJob>, RunError> {
        set.games
            .iter()
            .map(|g| {
                Ok(GameJob {
                    set_id: set.set_id.clone(),
                    run_no: set.run_no,
                    game_index: g.game_index,
                    seed: g.seed,
                    arena: self.exec.arena(self.t, &g.arena)?,
                    teams: set
                        .members
                        .iter()
                        .map(|(m, _)| (*m, self.t.team(*m).bot.clone()))
                        .collect(),
                })
            })
            .collect()
    }

    /// Stores a finished game under its set's lease (or records the set's failure); gives
    /// the set back when its last game is in.
    async fn finished(&mut self, finished: FinishedGame) -> Result<(), RunError> {
        let FinishedGame { game, played } = finished;
        let Some(set) = self.held.get_mut(&game.set) else {
            return Ok(());
        };
        let Some(game_no) = set.waiting.remove(&game.index) else {
            return Ok(());
        };
        let lease = set.lease.clone();
        match played {
            Ok(played) => {
                match self
                    .store
                    .record_leased_game(&self.name, &lease, game_no, played)
                    .await?
                {
                    LeasedWrite::Stored => self.summary.stored += 1,
                    LeasedWrite::AlreadyStored => {
                        self.summary.already_stored += 1;
                        say(&format!(
                            "worker {}: set {} game {}: already stored (another worker took the set over); not stored again",
                            self.name, game.set, game.index
                        ));
                    }
                }
            }
            // Left for another worker by a drain: given back below, not a failure.
            Err(GameJobError::NotPlayed { .. }) => {}
            Err(e) if !set.failed => {
                set.failed = true;
                self.summary.failed += 1;
                let now_failed = self
                    .store
                    .fail_set(&self.name, &lease, &e.to_string())
                    .await?;
                say(&format!(
                    "worker {}: set {} failed here: {e}{}",
                    self.name,
                    game.set,
                    if now_failed {
                        " (it failed on 3 workers: marked failed; `lrs-tourney status` shows why, `rerun` queues it again)"
                    } else {
                        ""
                    }
                ));
            }
            Err(_) => {}
        }
        let set = &self.held[&game.set];
        if set.waiting.is_empty() {
            if !set.failed {
                self.store.release_set(&self.name, &lease).await?;
            }
            self.keeper.drop_lease(&lease);
            self.held.remove(&game.set);
        }
        Ok(())
    }

    /// Gives back what is still held (an error ended the work) and says the worker
    /// stopped.
    async fn stop(&mut self) {
        for (_, set) in std::mem::take(&mut self.held) {
            let _ = self.store.release_set(&self.name, &set.lease).await;
        }
        let _ = self
            .store
            .worker_heartbeat(&self.name, WorkerState::Stopped, None)
            .await;
        say(&format!(
            "worker {}: stopped ({} game(s) stored, {} already stored elsewhere)",
            self.name, self.summary.stored, self.summary.already_stored
        ));
    }
}

//! Defines [`LeaseKeeper`]: a worker's heartbeat, which keeps its leases alive.
//!
//! Every third of the lease, it extends the expiry of each set the worker holds (on the
//! database's clock) and records the worker's heartbeat, state and current set. It runs as
//! a task of its own, so a worker busy storing games still beats; a worker that dies stops
//! beating, and its sets are claimed by others once their leases expire.

use crate::store::{Lease, Store, WorkerName, WorkerState};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the heartbeat reports: the leases held and the worker's state.
#[derive(Debug)]
struct Held {
    leases: Vec<Lease>,
    state: WorkerState,
}

/// The heartbeat task of one worker; it stops when dropped.
pub(super) struct LeaseKeeper {
    held: Arc<Mutex<Held>>,
    task: tokio::task::JoinHandle<()>,
}

impl LeaseKeeper {
    /// Starts beating for `worker`, whose leases last `lease`.
    pub(super) fn start(store: Store, worker: WorkerName, lease: Duration) -> LeaseKeeper {
        let held = Arc::new(Mutex::new(Held {
            leases: Vec::new(),
            state: WorkerState::Working,
        }));
        let shared = held.clone();
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        let task = tokio::spawn(async move {
            let mut beat = tokio::time::interval(lease / 3);
            beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                beat.tick().await;
                let (leases, state) = {
                    let held = shared.lock().unwrap_or_else(|e| e.into_inner());
                    (held.leases.clone(), held.state)
                };
                // A beat that fails (the server restarting, say) is tried again at the next
                // one; the leases last three beats.
                match store.extend_leases(&worker, &leases, lease_ms).await {
                    Ok(lost) => {
                        for lease in &lost {
                            super::say(&format!(
                                "set {}: the lease was taken over by another worker; its games left are stored by that worker",
                                lease.set_id
                            ));
                        }
                        // Said once: a lease taken over is not extended again.
                        let mut held = shared.lock().unwrap_or_else(|e| e.into_inner());
                        held.leases.retain(|l| !lost.contains(l));
                    }
                    Err(e) => super::say(&format!("heartbeat: {e}")),
                }
                let current = leases.first().map(|l| &l.set_id);
                if let Err(e) = store.worker_heartbeat(&worker, state, current).await {
                    super::say(&format!("heartbeat: {e}"));
                }
            }
        });
        LeaseKeeper { held, task }
    }

    fn with_held(&self, change: impl FnOnce(&mut Held)) {
        change(&mut self.held.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// Keeps `lease` alive from now on.
    pub(super) fn hold(&self, lease: &Lease) {
        self.with_held(|h| h.leases.push(lease.clone()));
    }

    /// Stops keeping `lease` alive (its set is done, failed or given back).
    pub(super) fn drop_lease(&self, lease: &Lease) {
        self.with_held(|h| h.leases.retain(|l| l != lease));
    }

    /// The state the next beats report.
    pub(super) fn set_state(&self, state: WorkerState) {
        self.with_held(|h| h.state = state);
    }
}

impl Drop for LeaseKeeper {
    fn drop(&mut self) {
        self.task.abort();
    }
}

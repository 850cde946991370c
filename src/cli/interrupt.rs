//! SIGINT and SIGTERM while bots may run (`run`, `rerun`, `play`, `check`): the runner
//! removes what it made for its bots before it goes, and `run` says how far it got.

use crate::store::DbLocation;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set when SIGINT or SIGTERM arrived: the signal thread ends the process.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Called when a command returns: if a signal arrived meanwhile, waits for the signal
/// thread to end the process by it. Without this, a command whose bots were just killed by
/// the shutdown can finish its game at once and return, and the process would exit 0.
pub fn wait_for_a_signal_under_way() {
    if STOPPING.load(Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Watches for SIGINT and SIGTERM on a thread of its own for the rest of the process.
///
/// The thread runs a current-thread runtime of its own, one of the two exceptions to the one
/// runtime of a command (see [`crate::runtime`]): the command's runtime lives on the main
/// thread, which may be busy (planning, storing a batch, waiting on a rayon pool) when the
/// signal comes, and the watcher must act at once.
///
/// On either signal: when the command stores games in `database`, SQLite's write lock is
/// taken first (waiting for a commit under way), so that no game ended by the shutdown
/// is stored; then the bots still running are killed and everything the runner made for
/// them (scratch areas and skeleton in TMPDIR, control groups) is removed. With
/// `report_games` (a `run`), Ctrl-C then prints `interrupted: N games stored; run again to
/// resume` on stderr and exits with 130, the shell's code for a SIGINT. Otherwise the
/// process ends by the signal, as it would without a handler. Games in flight are lost as
/// with any interruption and played again by the next run. Returns once the handler is
/// installed.
pub fn clean_up_on_signals(database: Option<&DbLocation>, report_games: bool) {
    let database: Option<DbLocation> = database.cloned();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let Ok(rt) = crate::runtime::runtime() else {
                let _ = ready_tx.send(());
                return;
            };
            rt.block_on(async move {
                use tokio::signal::unix::{SignalKind, signal};
                let interrupt = signal(SignalKind::interrupt());
                let terminate = signal(SignalKind::terminate());
                let _ = ready_tx.send(());
                let (Ok(mut interrupt), Ok(mut terminate)) = (interrupt, terminate) else {
                    return;
                };
                let sig = tokio::select! {
                    _ = interrupt.recv() => nix::libc::SIGINT,
                    _ = terminate.recv() => nix::libc::SIGTERM,
                };
                STOPPING.store(true, Ordering::SeqCst);
                let stored = match &database {
                    Some(db) if db.as_file().is_none_or(Path::exists) => {
                        crate::store::Store::final_stored_count(db).await
                    }
                    _ => Some(0),
                };
                let _ =
                    tokio::task::spawn_blocking(crate::bots::sandbox::remove_runner_files).await;
                if report_games && sig == nix::libc::SIGINT {
                    use std::io::IsTerminal;
                    let lead = if std::io::stderr().is_terminal() {
                        "\n"
                    } else {
                        ""
                    };
                    match stored {
                        Some(n) => {
                            eprintln!("{lead}interrupted: {n} games stored; run again to resume")
                        }
                        None => eprintln!(
                            "{lead}interrupted: the games stored so far are kept; run again to \
                             resume"
                        ),
                    }
                    std::process::exit(130);
                }
                // SAFETY: restores the default action of `sig` and raises it: the process
                // ends the way it would have without this handler.
                unsafe {
                    nix::libc::signal(sig, nix::libc::SIG_DFL);
                    nix::libc::raise(sig);
                }
                std::process::exit(128 + sig);
            });
        });
    if spawned.is_ok() {
        let _ = ready_rx.recv();
    }
}

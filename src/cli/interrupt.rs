//! Ctrl-C during `run`: say how far the run got before exiting with code 130.

use std::path::{Path, PathBuf};

/// Watches for SIGINT on a thread of its own for the rest of the process. On Ctrl-C it
/// counts the games stored in `database` (holding SQLite's write lock, so the run commits
/// nothing more), prints `interrupted: N games stored; run again to resume` on stderr and
/// exits with 130, the shell's code for a SIGINT. Games in flight are lost as with any
/// interruption and played again by the next run. Returns once the handler is installed.
pub fn report_on_ctrl_c(database: &Path) {
    let database: PathBuf = database.to_path_buf();
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            let Ok(rt) = crate::runtime::runtime() else {
                let _ = ready_tx.send(());
                return;
            };
            rt.block_on(async move {
                let signal =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt());
                let _ = ready_tx.send(());
                let Ok(mut signal) = signal else { return };
                if signal.recv().await.is_none() {
                    return;
                }
                let stored = if database.exists() {
                    crate::store::Store::final_stored_count(&database).await
                } else {
                    Some(0)
                };
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
                        "{lead}interrupted: the games stored so far are kept; run again to resume"
                    ),
                }
                std::process::exit(130);
            });
        });
    if spawned.is_ok() {
        let _ = ready_rx.recv();
    }
}

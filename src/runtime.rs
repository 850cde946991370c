//! Defines [`runtime`]: how every part of lrs-tourney gets its async runtime.
//!
//! All async work is I/O with bots and the database, driven from one thread: a command
//! builds one current-thread runtime and drives its whole run on it (`run`, `rerun`, `serve`,
//! the read-only commands). Two places build their own, on purpose: each game thread of
//! `play` with external bots (a game's bots and the tasks reading their pipes then share one
//! thread, so an answer never waits for a wake-up across threads; docs/performance.md), and
//! the Ctrl-C watcher, which must run while the main thread is busy.

/// A current-thread runtime with I/O and timers.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// The message of a runtime that could not start.
pub fn runtime_error(e: std::io::Error) -> String {
    format!("cannot start the async runtime: {e}")
}

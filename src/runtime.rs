//! Defines [`runtime`]: how every part of lrs-tourney gets its async runtime.
//!
//! All async work is I/O with bots and the database, driven from one thread: `cli::run`
//! builds one current-thread runtime and runs the whole command on it (`run`, `rerun`,
//! `check`, `play`, `serve`, the read-only commands). The library's async functions
//! (`runner::run_tournament`, `runner::rerun_set`, `play::Lineup::play`, ...) only await and
//! never build a runtime, so none is started inside another (tokio panics: "Cannot start a
//! runtime from within a runtime"). CPU-heavy work (games of built-in AIs, report replays)
//! runs on rayon pools, not on this thread.
//!
//! Two places build their own, on purpose, each on a thread it starts:
//! - each game thread of `play` with JSON-lines bots (`Lineup::play_on_threads`, in
//!   `play/threads.rs`): a game's
//!   bots and the tasks reading their pipes then share one thread, so an answer never waits
//!   for a wake-up across threads, and `--jobs` games use every core (docs/performance.md).
//!   `play::Lineup::play` starts these threads from a blocking thread (`spawn_blocking`), so
//!   the command's runtime is neither blocked nor nested.
//! - the Ctrl-C watcher (`cli::interrupt`), which must run while the main thread is busy
//!   (planning, storing a batch, waiting on a rayon pool).

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

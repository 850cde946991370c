//! The `lrs-tourney` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    // Behave like other command-line tools when the reader of stdout goes away
    // (`lrs-tourney standings x.toml | head`): end quietly instead of panicking.
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        let _ = nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigDfl,
        );
    }
    lrs_tourney::cli::main()
}

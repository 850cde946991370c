//! The `lrs-tourney` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    lrs_tourney::cli::main()
}

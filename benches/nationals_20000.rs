//! The big nationals: 20,000 teams of built-in `runner` AIs in 2,500 schools, all stages,
//! through the real binary (`generate`, then `run --quiet`), against the same games played
//! in memory without a database. One measurement each (a run takes tens of seconds, too
//! long for criterion's ten samples); run it with `cargo bench --bench nationals_20000`.
//!
//! Targets (reported, not asserted): the whole run under 60 s with peak memory (the
//! child's maximum resident set) under 1 GiB, on a 2-core machine; the store's overhead is
//! the ratio of the two times. A shared virtual machine's speed drifts by several percent
//! between runs, so the two are measured in alternating pairs (`LRS_BENCH_PAIRS`, default
//! 3) and the median ratio is the figure.

mod common;

use common::{games_only, remove_database};
use lrs_tourney::tourney::config::load_tournament;
use std::process::Command;
use std::time::Instant;

const TEAMS: &str = "20000";
const SCHOOLS: &str = "2500";

/// CPU seconds (user + system) so far of `who`: `RUSAGE_SELF` or `RUSAGE_CHILDREN`.
fn cpu_seconds(who: nix::libc::c_int) -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { nix::libc::getrusage(who, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    let secs = |t: nix::libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

fn own_cpu_seconds() -> f64 {
    cpu_seconds(nix::libc::RUSAGE_SELF)
}

fn children_cpu_seconds() -> f64 {
    cpu_seconds(nix::libc::RUSAGE_CHILDREN)
}

/// The largest resident set of any waited-for child so far, in bytes.
fn children_peak_rss() -> u64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { nix::libc::getrusage(nix::libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    // ru_maxrss is in KiB on Linux.
    usage.ru_maxrss as u64 * 1024
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that does not name this benchmark skips it.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .iter()
        .any(|a| !a.starts_with("--") && !"nationals_20000".contains(a.as_str()))
    {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_lrs-tourney");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("big");
    let status = Command::new(bin)
        .args(["generate", "--teams", TEAMS, "--schools", SCHOOLS, "--out"])
        .arg(&out)
        .output()
        .expect("generate");
    assert!(status.status.success(), "{status:?}");
    let config = std::fs::read_dir(&out)
        .expect("generated dir")
        .map(|e| e.expect("entry").path())
        .find(|p| p.extension().is_some_and(|e| e == "toml"))
        .expect("a generated tournament file");
    let t = load_tournament(&config).expect("generated config loads");

    let pairs: usize = std::env::var("LRS_BENCH_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3)
        .max(1);
    let mut ratios = Vec::with_capacity(pairs);
    for pair in 1..=pairs {
        // Alternate which goes first, so a drift of the machine's speed during a pair
        // favours neither.
        let (without, with) = if pair % 2 == 1 {
            let without = time_games_only(&t, pair);
            (without, time_run(bin, &config, &t, pair))
        } else {
            let with = time_run(bin, &config, &t, pair);
            (time_games_only(&t, pair), with)
        };
        let ratio = with / without;
        println!("pair {pair}: store overhead: run / games only = {ratio:.3}");
        ratios.push(ratio);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "nationals {TEAMS} teams / {SCHOOLS} schools: store overhead over {pairs} pair(s): median {:.3} (range {:.3}-{:.3})",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1]
    );
}

/// Plays the bracket's games in memory; returns the seconds it took.
fn time_games_only(t: &lrs_tourney::tourney::model::Tournament, pair: usize) -> f64 {
    let cpu_before = own_cpu_seconds();
    let started = Instant::now();
    let games = games_only(t);
    let without = started.elapsed().as_secs_f64();
    println!(
        "pair {pair}: games only (no database): {games} games in {without:.2} s ({:.0} games/s), {:.2} CPU s",
        games as f64 / without,
        own_cpu_seconds() - cpu_before
    );
    without
}

/// Runs the tournament through the binary on a new database; returns the seconds it took.
fn time_run(
    bin: &str,
    config: &std::path::Path,
    t: &lrs_tourney::tourney::model::Tournament,
    pair: usize,
) -> f64 {
    remove_database(&t.database);
    let children_before = children_cpu_seconds();
    let started = Instant::now();
    let run = Command::new(bin)
        .args(["run", "--quiet"])
        .arg(config)
        .output()
        .expect("run");
    let with = started.elapsed().as_secs_f64();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    println!(
        "pair {pair}: lrs-tourney run with SQLite: {with:.2} s, {:.2} CPU s, peak RSS {:.0} MiB",
        children_cpu_seconds() - children_before,
        children_peak_rss() as f64 / (1024.0 * 1024.0)
    );
    with
}

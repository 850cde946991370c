//! Standings, status and exports as the nationals grow: generated nationals of 2,000,
//! 20,000 and 100,000 teams (8 teams a school on average) are played once through the real
//! binary (`generate`, then `run --quiet`), then each reading command is timed with its
//! peak memory (the child's maximum resident set, from `wait4`). Run it with `cargo bench
//! --bench standings_scale`; `LRS_BENCH_TEAMS` picks the sizes (default
//! `2000,20000,100000`), `LRS_BENCH_PAIRS` how many times each command runs (default 1).
//!
//! `LRS_BENCH_BASELINE=PATH` names another build of `lrs-tourney` (an older one): each
//! command then runs on both, alternating which goes first, and the table shows both. With
//! `LRS_BENCH_REPORT=1`, `report --replays none` is measured too.
//!
//! What to look at (reported, not asserted): each 10x step in teams should cost at most
//! 11x in time and in memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// What one command cost.
#[derive(Debug, Clone, Copy)]
struct Cost {
    seconds: f64,
    peak_mib: f64,
}

/// Runs `bin args` in `dir` with its output thrown away; panics unless it succeeds.
fn measure(bin: &Path, args: &[&str], dir: &Path) -> Cost {
    let started = Instant::now();
    // Reaped by wait4 below, which also reports its peak memory.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start lrs-tourney");
    let pid = child.id() as nix::libc::pid_t;
    let mut status = 0;
    // SAFETY: wait4 only writes into the two values we pass.
    let mut usage: nix::libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { nix::libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(rc, pid, "wait4: {}", std::io::Error::last_os_error());
    assert!(
        nix::libc::WIFEXITED(status) && nix::libc::WEXITSTATUS(status) == 0,
        "{} {args:?} failed ({status})",
        bin.display()
    );
    Cost {
        seconds,
        // ru_maxrss is in KiB on Linux.
        peak_mib: usage.ru_maxrss as f64 / 1024.0,
    }
}

/// A played nationals of `teams` teams in `root`; returns its folder.
fn played(bin: &Path, root: &Path, teams: usize) -> PathBuf {
    let dir = root.join(format!("n{teams}"));
    let schools = (teams / 8).max(2).to_string();
    let teams_text = teams.to_string();
    let out = dir.to_str().expect("a UTF-8 temp dir");
    measure(
        bin,
        &[
            "generate",
            "--teams",
            &teams_text,
            "--schools",
            &schools,
            "--out",
            out,
        ],
        root,
    );
    let run = measure(bin, &["run", "--quiet", "tournament.toml"], &dir);
    println!(
        "{teams} teams: run {:.1} s, peak {:.0} MiB",
        run.seconds, run.peak_mib
    );
    dir
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that does not name this benchmark skips it.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args
        .iter()
        .any(|a| !a.starts_with("--") && !"standings_scale".contains(a.as_str()))
    {
        return;
    }
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_lrs-tourney"));
    let baseline = std::env::var_os("LRS_BENCH_BASELINE").map(PathBuf::from);
    let sizes: Vec<usize> = std::env::var("LRS_BENCH_TEAMS")
        .unwrap_or_else(|_| "2000,20000,100000".to_string())
        .split(',')
        .map(|s| s.trim().parse().expect("LRS_BENCH_TEAMS: numbers"))
        .collect();
    let pairs: usize = std::env::var("LRS_BENCH_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut commands: Vec<(&str, Vec<&str>)> = vec![
        ("standings", vec!["standings", "tournament.sqlite"]),
        (
            "standings --json",
            vec!["standings", "--json", "tournament.sqlite"],
        ),
        ("status", vec!["status", "tournament.sqlite"]),
        (
            "export standings",
            vec!["export", "standings", "tournament.sqlite", "--out", "s.csv"],
        ),
        (
            "export sets",
            vec!["export", "sets", "tournament.sqlite", "--out", "sets.csv"],
        ),
        (
            "export games",
            vec!["export", "games", "tournament.sqlite", "--out", "g.csv"],
        ),
    ];
    if std::env::var_os("LRS_BENCH_REPORT").is_some() {
        commands.push((
            "report --replays none",
            vec![
                "report",
                "tournament.sqlite",
                "--out",
                "site",
                "--replays",
                "none",
            ],
        ));
    }
    let root = tempfile::tempdir().expect("temp dir");
    // Per command and size: (this build, the baseline).
    let mut table: Vec<(String, usize, Cost, Option<Cost>)> = Vec::new();
    for &teams in &sizes {
        let dir = played(&bin, root.path(), teams);
        for (name, args) in &commands {
            let mut ours = Vec::new();
            let mut theirs = Vec::new();
            for pair in 0..pairs {
                let order: Vec<(bool, &Path)> = match &baseline {
                    Some(old) if pair % 2 == 0 => vec![(false, old), (true, &bin)],
                    Some(old) => vec![(true, &bin), (false, old)],
                    None => vec![(true, &bin)],
                };
                for (is_ours, b) in order {
                    let cost = measure(b, args, &dir);
                    if is_ours { &mut ours } else { &mut theirs }.push(cost);
                }
            }
            let pick = |costs: &[Cost]| Cost {
                seconds: median(costs.iter().map(|c| c.seconds).collect()),
                peak_mib: median(costs.iter().map(|c| c.peak_mib).collect()),
            };
            let ours = pick(&ours);
            let theirs = (!theirs.is_empty()).then(|| pick(&theirs));
            match theirs {
                Some(t) => println!(
                    "{teams} teams, {name}: {:.2} s, {:.0} MiB (baseline {:.2} s, {:.0} MiB)",
                    ours.seconds, ours.peak_mib, t.seconds, t.peak_mib
                ),
                None => println!(
                    "{teams} teams, {name}: {:.2} s, {:.0} MiB",
                    ours.seconds, ours.peak_mib
                ),
            }
            table.push((name.to_string(), teams, ours, theirs));
        }
        // The next size needs the disk more than this one.
        let _ = std::fs::remove_dir_all(&dir);
    }
    println!("\nratios of each size to the one before (time, memory):");
    for (name, _) in &commands {
        let rows: Vec<_> = table.iter().filter(|r| r.0 == *name).collect();
        for w in rows.windows(2) {
            let (a, b) = (w[0], w[1]);
            let line = |x: Cost, y: Cost| {
                format!(
                    "{:.2}x, {:.2}x",
                    y.seconds / x.seconds,
                    y.peak_mib / x.peak_mib
                )
            };
            let base = match (a.3, b.3) {
                (Some(x), Some(y)) => format!("  (baseline {})", line(x, y)),
                _ => String::new(),
            };
            println!(
                "  {name}: {} -> {} teams: {}{base}",
                a.1,
                b.1,
                line(a.2, b.2)
            );
        }
    }
}

//! The host-wide counters of `/proc` as a bot sees them: constants (docs/sandbox.md).
//!
//! A bot's own procfs shows only its own processes, but some of its files describe the
//! whole machine: the load and thread count (`/proc/loadavg`), CPU times (`/proc/stat`),
//! free memory (`/proc/meminfo`), pressure stall figures (`/proc/pressure/*`), open files
//! and locks. Two bots of one game can pass a message through them, one bit per change
//! (one starts 100 threads, the other reads the thread count), so they are covered inside
//! the container, the way LXCFS does for containers, by read-only files of constant,
//! plausible content: the bot's own memory limit as the machine's memory, the CPUs it may
//! run on with zero times, no load, no swap. Directories of counters (`/proc/pressure`,
//! `/proc/irq`) are covered by an empty directory.
//!
//! The files are written once per runner (one `meminfo` per memory limit) in the runner's
//! directory, and bound by the bot's init over its fresh procfs ([`cover_plan`]). Files
//! the kernel does not have are skipped; files only root may read (`/proc/slabinfo`) need
//! no cover, since the bot runs as its own uid. What stays host-wide is listed in
//! docs/sandbox.md: `sysinfo(2)`, and the timing of processes sharing one machine.

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// How a covered file's content is made from the host's.
#[derive(Debug, Clone, Copy)]
enum Content {
    /// Fixed text.
    Fixed(&'static str),
    /// The host's text read once, every number in it replaced by 0 (keeps its lines and
    /// keys, so that parsers find what they look for).
    Zeroed,
    /// The host's text read once (static descriptions with a changing figure in them:
    /// `/proc/cpuinfo`'s clock frequency).
    Snapshot,
    /// Synthesised: see [`stat`], [`uptime`].
    Stat,
    Uptime,
}

/// The covered files (relative to /proc) and how their content is made.
const FILES: &[(&str, Content)] = &[
    ("loadavg", Content::Fixed("0.00 0.00 0.00 1/1 1\n")),
    ("stat", Content::Stat),
    ("uptime", Content::Uptime),
    ("vmstat", Content::Zeroed),
    ("cpuinfo", Content::Snapshot),
    ("diskstats", Content::Fixed("")),
    ("interrupts", Content::Fixed("")),
    ("softirqs", Content::Fixed("")),
    ("schedstat", Content::Fixed("")),
    ("zoneinfo", Content::Fixed("")),
    ("buddyinfo", Content::Fixed("")),
    ("locks", Content::Fixed("")),
    ("key-users", Content::Fixed("")),
    ("sched_debug", Content::Fixed("")),
    (
        "swaps",
        Content::Fixed("Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"),
    ),
    ("sys/fs/file-nr", Content::Zeroed),
    ("sys/fs/inode-nr", Content::Zeroed),
    ("sys/fs/inode-state", Content::Zeroed),
    ("sys/fs/dentry-state", Content::Zeroed),
    ("sys/fs/aio-nr", Content::Zeroed),
    ("sys/kernel/pty/nr", Content::Zeroed),
    ("sys/kernel/random/entropy_avail", Content::Fixed("256\n")),
];

/// Directories of host-wide counters (relative to /proc), covered by an empty directory.
const DIRS: &[&str] = &["pressure", "irq"];

/// One cover: a host file or directory bound read-only over `/proc/TARGET` inside.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cover {
    pub source: PathBuf,
    /// Relative to /proc.
    pub target: &'static str,
}

/// The constant files of this runner, written once.
struct Written {
    dir: PathBuf,
    /// Each present file and its source.
    files: Vec<(PathBuf, &'static str)>,
    /// The empty directory.
    empty: PathBuf,
    dirs: Vec<&'static str>,
    /// `/proc/meminfo`'s keys and units, for each limit's copy.
    meminfo_keys: Vec<(String, bool)>,
}

static WRITTEN: OnceLock<Result<Written, String>> = OnceLock::new();
static MEMINFO: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// Every number (a run of ASCII digits, with its decimals) replaced by 0.
fn zeroed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() || (in_number && c == '.') {
            if !in_number {
                out.push('0');
                in_number = true;
            }
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// `/proc/stat` with the host's CPUs (so that counting its `cpuN` lines gives the CPUs a
/// bot may run on) and boot time, every time and count zero.
fn stat(host: &str) -> String {
    let zeros = " 0 0 0 0 0 0 0 0 0 0\n";
    let mut out = format!("cpu {zeros}");
    for line in host.lines() {
        if let Some(cpu) = line.split_whitespace().next()
            && cpu.len() > 3
            && cpu.starts_with("cpu")
            && cpu[3..].bytes().all(|b| b.is_ascii_digit())
        {
            out += &format!("{cpu}{zeros}");
        }
    }
    let btime = host
        .lines()
        .find_map(|l| l.strip_prefix("btime "))
        .unwrap_or("0")
        .trim();
    out += &format!(
        "intr 0\nctxt 0\nbtime {btime}\nprocesses 0\nprocs_running 1\nprocs_blocked 0\n\
         softirq 0 0 0 0 0 0 0 0 0 0 0\n"
    );
    out
}

/// The host's uptime when the runner started, with no idle time.
fn uptime(host: &str) -> String {
    let up = host.split_whitespace().next().unwrap_or("0.00");
    format!("{up} 0.00\n")
}

/// `/proc/meminfo` of a machine whose memory is `limit` bytes, all of it free: the host's
/// keys, the totals and free figures set to the limit, every other figure zero.
fn meminfo(keys: &[(String, bool)], limit: u64) -> String {
    let kib = limit / 1024;
    let mut out = String::new();
    for (key, unit) in keys {
        let value = match key.as_str() {
            "MemTotal" | "MemFree" | "MemAvailable" | "CommitLimit" => kib,
            _ => 0,
        };
        let unit = if *unit { " kB" } else { "" };
        out += &format!("{:<16}{value:>8}{unit}\n", format!("{key}:"));
    }
    out
}

fn meminfo_keys(host: &str) -> Vec<(String, bool)> {
    let keys: Vec<(String, bool)> = host
        .lines()
        .filter_map(|l| {
            let (key, rest) = l.split_once(':')?;
            Some((key.to_string(), rest.trim_end().ends_with("kB")))
        })
        .collect();
    if keys.is_empty() {
        [
            "MemTotal",
            "MemFree",
            "MemAvailable",
            "SwapTotal",
            "SwapFree",
        ]
        .iter()
        .map(|k| (k.to_string(), true))
        .collect()
    } else {
        keys
    }
}

fn write_file(path: &Path, text: &str) -> io::Result<()> {
    let tmp = path.with_extension("new");
    fs::write(&tmp, text)?;
    fs::set_permissions(&tmp, fs::Permissions::from_mode(0o444))?;
    fs::rename(&tmp, path)
}

fn write_all(runner_dir: &Path) -> io::Result<Written> {
    let dir = runner_dir.join("proc");
    let _ = fs::create_dir(&dir);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755))?;
    let host = |name: &str| fs::read_to_string(Path::new("/proc").join(name)).unwrap_or_default();
    let mut files = Vec::new();
    for &(target, content) in FILES {
        if !Path::new("/proc").join(target).exists() {
            continue;
        }
        let text = match content {
            Content::Fixed(text) => text.to_string(),
            Content::Zeroed => zeroed(&host(target)),
            Content::Snapshot => host(target),
            Content::Stat => stat(&host(target)),
            Content::Uptime => uptime(&host(target)),
        };
        let source = dir.join(target.replace('/', "_"));
        write_file(&source, &text)?;
        files.push((source, target));
    }
    let empty = dir.join("empty");
    let _ = fs::create_dir(&empty);
    fs::set_permissions(&empty, fs::Permissions::from_mode(0o555))?;
    let dirs = DIRS
        .iter()
        .copied()
        .filter(|d| Path::new("/proc").join(d).is_dir())
        .collect();
    Ok(Written {
        dir,
        files,
        empty,
        dirs,
        meminfo_keys: meminfo_keys(&host("meminfo")),
    })
}

/// The covers of a bot whose memory limit is `memory` bytes, writing the runner's files
/// on first use (in `runner_dir`).
pub fn cover_plan(runner_dir: &Path, memory: u64) -> io::Result<Vec<Cover>> {
    let written = WRITTEN
        .get_or_init(|| write_all(runner_dir).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| io::Error::other(format!("the constant /proc files: {e}")))?;
    let mut covers: Vec<Cover> = written
        .files
        .iter()
        .map(|(source, target)| Cover {
            source: source.clone(),
            target,
        })
        .collect();
    if Path::new("/proc/meminfo").exists() {
        let source = written.dir.join(format!("meminfo-{memory}"));
        let mut done = MEMINFO.lock().unwrap_or_else(|e| e.into_inner());
        if !done.contains(&memory) {
            write_file(&source, &meminfo(&written.meminfo_keys, memory))?;
            done.push(memory);
        }
        covers.push(Cover {
            source,
            target: "meminfo",
        });
    }
    covers.extend(written.dirs.iter().map(|target| Cover {
        source: written.empty.clone(),
        target,
    }));
    Ok(covers)
}

/// The covered files and directories, for the protections report.
pub fn covered_names() -> Vec<&'static str> {
    FILES
        .iter()
        .map(|(name, _)| *name)
        .chain(std::iter::once("meminfo"))
        .chain(DIRS.iter().copied())
        .filter(|name| Path::new("/proc").join(name).exists())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_keeps_keys_and_drops_every_figure() {
        assert_eq!(
            zeroed("nr_free_pages 12345\npgpgin 7\n"),
            "nr_free_pages 0\npgpgin 0\n"
        );
        assert_eq!(zeroed("1.25 0.50 3/812 991\n"), "0 0 0/0 0\n");
    }

    #[test]
    fn stat_lists_the_hosts_cpus_with_zero_times() {
        let host = "cpu  5 6 7\ncpu0 1 2 3\ncpu1 4 5 6\nintr 99 1\nctxt 5\nbtime 1700000000\n";
        let text = stat(host);
        assert!(text.starts_with("cpu  0 0"), "{text}");
        assert!(text.contains("\ncpu0 0 0 0"), "{text}");
        assert!(text.contains("\ncpu1 "), "{text}");
        assert!(text.contains("btime 1700000000\n"), "{text}");
        assert!(!text.contains("99"), "{text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("cpu")).count(), 3);
    }

    #[test]
    fn meminfo_shows_the_limit_as_the_machines_memory() {
        let keys = meminfo_keys("MemTotal: 24684084 kB\nMemFree: 1 kB\nHugePages_Total: 0\n");
        let text = meminfo(&keys, 1 << 30);
        assert!(text.contains("MemTotal:        1048576 kB\n"), "{text}");
        assert!(text.contains("MemFree:         1048576 kB\n"), "{text}");
        assert!(text.contains("HugePages_Total:       0\n"), "{text}");
    }
}

//! Processes of bots: the runner's identity (for sweeping what a crashed run left), the
//! separate uids bots run as, listing processes from /proc, and killing and reaping them.

use nix::libc;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, waitpid};
use nix::unistd::{ForkResult, Pid, fork};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};

/// A runner process, told apart from a later process with the same pid by its start time
/// (clock ticks since boot, field 22 of /proc/PID/stat).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunnerId {
    pub pid: i32,
    pub start: u64,
}

static CURRENT: OnceLock<RunnerId> = OnceLock::new();

fn start_time(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    // Fields after the command: state is field 3, start time field 22.
    after.split_whitespace().nth(19)?.parse().ok()
}

impl RunnerId {
    /// This process.
    pub fn current() -> RunnerId {
        *CURRENT.get_or_init(|| {
            let pid = std::process::id() as i32;
            RunnerId {
                pid,
                start: start_time(pid).unwrap_or(0),
            }
        })
    }

    /// `PID-START`, the prefix of every name this runner gives to groups and scratch areas.
    pub fn tag(&self) -> String {
        format!("{}-{}", self.pid, self.start)
    }

    /// The runner named by a `PID-START[-...]` name.
    pub fn from_tag_prefix(name: &str) -> Option<RunnerId> {
        let mut parts = name.splitn(3, '-');
        let pid = parts.next()?.parse().ok()?;
        let start = parts.next()?.parse().ok()?;
        Some(RunnerId { pid, start })
    }

    /// Whether that runner is still running.
    pub fn is_alive(&self) -> bool {
        start_time(self.pid) == Some(self.start)
    }
}

/// Drops to `uid`/`gid` with no supplementary groups (raw syscalls: this thread only,
/// which is all a forked child has).
///
/// # Safety
/// For a forked child before `exec`.
pub unsafe fn drop_ids(uid: u32, gid: u32) -> bool {
    unsafe {
        libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) == 0
            && libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0
            && libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0
    }
}

/// First uid of the range bots run as (`0x4C520000`, far above any regular account).
pub const UID_BASE: u32 = 0x4C52_0000;
const UIDS_PER_RUNNER: u32 = 256;

static LEASED: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// A uid reserved for one running bot; released on drop (with its lock, which keeps
/// other runners on this machine off it: every lease is locked whenever the lock file
/// opened, and whether it did is settled before the first lease).
#[derive(Debug)]
pub struct UidLease(u32);

impl UidLease {
    pub fn uid(&self) -> u32 {
        self.0
    }
}

impl Drop for UidLease {
    fn drop(&mut self) {
        if let Some(file) = uid_locks() {
            lock_byte(file, self.0 - UID_BASE, false);
        }
        if let Ok(mut leased) = LEASED.lock() {
            leased.remove(&self.0);
        }
    }
}

/// Where runners on this machine lock the uids they lease: one byte of this file a uid
/// (an open-file-description lock, let go by the kernel when a runner dies). Only a runner
/// that can switch uids (root) leases them, and root can write here.
const UID_LOCKS: &str = "/run/lrs-tourney/uids.lock";

/// The lock file, opened once per process (`None` when it cannot be).
fn uid_locks() -> Option<&'static std::fs::File> {
    static FILE: OnceLock<Option<std::fs::File>> = OnceLock::new();
    FILE.get_or_init(|| {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        let path = std::path::Path::new(UID_LOCKS);
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(path.parent()?)
            .ok()?;
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .mode(0o600)
            .open(path)
            .ok()
    })
    .as_ref()
}

/// Locks (or unlocks) byte `at` of `file` without waiting; whether that worked. The lock
/// belongs to the open file description: another one, in this process or another,
/// cannot take it meanwhile.
fn lock_byte(file: &std::fs::File, at: u32, lock: bool) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: a plain `struct flock`, all fields set below.
    let mut range: libc::flock = unsafe { std::mem::zeroed() };
    range.l_type = if lock { libc::F_WRLCK } else { libc::F_UNLCK } as libc::c_short;
    range.l_whence = libc::SEEK_SET as libc::c_short;
    range.l_start = libc::off_t::from(at);
    range.l_len = 1;
    unsafe { libc::fcntl(file.as_raw_fd(), libc::F_OFD_SETLK, &range) == 0 }
}

/// The uids of processes that were running when this runner leased its first uid: what
/// an earlier runner may have left. Read once: scanning every process's `/proc` files for
/// each bot cost about 6% of a short game's CPU, and after the first lease the locks are
/// what keeps runners apart.
fn in_use_at_start() -> &'static BTreeSet<u32> {
    static SEEN: OnceLock<BTreeSet<u32>> = OnceLock::new();
    SEEN.get_or_init(uids_in_use)
}

/// The real and saved uids of every process now.
fn uids_in_use() -> BTreeSet<u32> {
    scan_processes()
        .iter()
        .flat_map(|p| [p.real_uid, p.saved_uid])
        .collect()
}

/// Reserves a uid that no process uses: from a block derived from the runner's pid (so
/// runners on one machine rarely meet), skipping uids leased here, uids in use when this
/// runner started leasing, and uids another runner holds the lock of. Where the lock file
/// cannot be opened, every lease scans `/proc` instead.
pub fn lease_uid() -> Option<UidLease> {
    let block = (std::process::id() % 2048) * UIDS_PER_RUNNER;
    let locks = uid_locks();
    let in_use = match locks {
        Some(_) => Cow::Borrowed(in_use_at_start()),
        None => Cow::Owned(uids_in_use()),
    };
    let mut leased = LEASED.lock().ok()?;
    // The last uid of each block is the detection probe's.
    (0..UIDS_PER_RUNNER - 1)
        .map(|i| UID_BASE + block + i)
        .filter(|uid| !leased.contains(uid) && !in_use.contains(uid))
        .find(|&uid| locks.is_none_or(|file| lock_byte(file, uid - UID_BASE, true)))
        .map(|uid| {
            leased.insert(uid);
            UidLease(uid)
        })
}

// ---------------------------------------------------------------------------------------
// Processes: listing, killing, reaping

/// One line of /proc about a process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: i32,
    pub ppid: i32,
    pub pgrp: i32,
    /// `R`, `S`, `D`, `Z`, ...
    pub state: char,
    pub real_uid: u32,
    pub saved_uid: u32,
}

impl ProcInfo {
    pub fn is_zombie(&self) -> bool {
        self.state == 'Z' || self.state == 'X'
    }
}

/// Reads /proc/PID/stat and status.
pub fn proc_info(pid: i32) -> Option<ProcInfo> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    let mut fields = after.split_whitespace();
    let state = fields.next()?.chars().next()?;
    let ppid = fields.next()?.parse().ok()?;
    let pgrp = fields.next()?.parse().ok()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let uids = status.lines().find_map(|l| l.strip_prefix("Uid:"))?;
    let mut ids = uids.split_whitespace().map(|s| s.parse::<u32>());
    let real_uid = ids.next()?.ok()?;
    let _effective = ids.next()?.ok()?;
    let saved_uid = ids.next()?.ok()?;
    Some(ProcInfo {
        pid,
        ppid,
        pgrp,
        state,
        real_uid,
        saved_uid,
    })
}

/// Every process visible in /proc.
pub fn scan_processes() -> Vec<ProcInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(proc_info)
        .collect()
}

/// The processes that belong to a bot: in its process group, or running as its uid.
pub fn bot_processes(pgid: i32, uid: Option<u32>) -> Vec<ProcInfo> {
    scan_processes()
        .into_iter()
        .filter(|p| p.pgrp == pgid || uid.is_some_and(|u| p.real_uid == u || p.saved_uid == u))
        .collect()
}

/// Sends SIGKILL to every process running as `uid`: a forked helper switches to that uid
/// and calls `kill(-1, SIGKILL)`, which the kernel applies to all of them at once (a fork
/// bomb cannot outrun it).
pub fn kill_uid(uid: u32) {
    // SAFETY: the child makes raw syscalls only and `_exit`s.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => unsafe {
            if libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0 {
                libc::kill(-1, libc::SIGKILL);
            }
            libc::_exit(0)
        },
        Ok(ForkResult::Parent { child }) => {
            while waitpid(child, None) == Err(nix::errno::Errno::EINTR) {}
        }
        Err(_) => {}
    }
}

/// SIGKILLs a bot's process group and, when it had its own uid, every process of that uid.
pub fn kill_bot(pgid: i32, uid: Option<u32>) {
    let _ = killpg(Pid::from_raw(pgid), Signal::SIGKILL);
    if let Some(uid) = uid {
        kill_uid(uid);
    }
}

/// Reaps the bot's processes that became the runner's children (orphans, with the runner
/// as subreaper), except `skip` (the leader, reaped by its owner). Returns how many of the
/// bot's processes still exist (alive, or zombies someone else must reap).
pub fn reap_bot(pgid: i32, uid: Option<u32>, skip: i32) -> usize {
    let me = std::process::id() as i32;
    let mut left = 0;
    for p in bot_processes(pgid, uid) {
        if p.pid == skip {
            continue;
        }
        if p.ppid == me && p.is_zombie() {
            let _ = waitpid(Pid::from_raw(p.pid), Some(WaitPidFlag::WNOHANG));
            if proc_info(p.pid).is_some() {
                left += 1;
            }
        } else {
            left += 1;
        }
    }
    left
}

static SIGPIPE_IGNORED: OnceLock<()> = OnceLock::new();

/// Ignores SIGPIPE in the runner (once): writing to a bot that exited must be an `EPIPE`
/// error, not the death of the runner. (The `lrs-tourney` binary restores the default
/// disposition at start-up so that `... | head` ends quietly; games with external bots need
/// it ignored.)
pub fn ignore_sigpipe() {
    SIGPIPE_IGNORED.get_or_init(|| unsafe {
        let _ = nix::sys::signal::signal(Signal::SIGPIPE, nix::sys::signal::SigHandler::SigIgn);
    });
}

static SUBREAPER: OnceLock<bool> = OnceLock::new();

/// Makes the runner the child subreaper (once), so that orphaned bot processes become its
/// children and can be reaped by [`reap_bot`] instead of lingering.
pub fn become_subreaper() -> bool {
    *SUBREAPER.get_or_init(|| unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lock is what keeps two runners whose uid blocks meet off each other's uids; two
    /// open file descriptions conflict even within one process, as across two.
    #[test]
    fn a_locked_uid_is_refused_until_its_lease_ends() {
        let path = std::env::temp_dir().join(format!("lrs-uid-locks-{}", std::process::id()));
        let open = || {
            std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .unwrap()
        };
        let (runner_a, runner_b) = (open(), open());
        assert!(lock_byte(&runner_a, 7, true), "a free uid locks");
        assert!(
            !lock_byte(&runner_b, 7, true),
            "a held uid was locked twice"
        );
        assert!(lock_byte(&runner_b, 8, true), "another uid is free");
        assert!(lock_byte(&runner_a, 7, false));
        assert!(lock_byte(&runner_b, 7, true), "a released uid stays locked");
        drop((runner_a, runner_b));
        std::fs::remove_file(&path).unwrap();
    }
}

//! What this machine lets us do to contain an untrusted bot (protocol-sandbox.md), and the
//! code that does it in the forked child before `exec`.
//!
//! Always active: the bot's own process group and resource limits (address space, CPU
//! seconds, processes, file size, open files), a scrubbed environment and a scratch copy of
//! the bot directory (see [`crate::bots::process`]). Used when the machine allows it, and
//! otherwise reported as inactive — never pretended:
//! - a separate unprivileged uid per running bot (needs root): makes the limits stick (root
//!   ignores `RLIMIT_NPROC` and may raise its limits), keeps the bot out of files that are
//!   not world-readable, and lets the runner kill every process of the bot even if it left
//!   its process group;
//! - a network namespace with no interfaces (`unshare(CLONE_NEWNET)`, or with a user
//!   namespace when not root);
//! - Landlock: read-only access to system directories, full access to the scratch copy,
//!   nothing else (other teams' directories, /tmp, home directories are invisible); from
//!   ABI 4 on also no TCP connect/bind, from ABI 6 on no signals outside the bot;
//! - the runner as child subreaper, so that orphaned bot processes are reaped by the runner
//!   instead of lingering as zombies.
//!
//! Detection forks small probe children that try each mechanism; the result is cached.

use nix::libc;
use nix::sys::resource::Resource;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
use nix::unistd::{ForkResult, Pid, fork};
use std::collections::BTreeSet;
use std::ffi::CString;
use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// Whether one protection is in force, and what it does or why not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protection {
    Active(String),
    Inactive(String),
}

impl Protection {
    pub fn is_active(&self) -> bool {
        matches!(self, Protection::Active(_))
    }

    pub fn detail(&self) -> &str {
        match self {
            Protection::Active(s) | Protection::Inactive(s) => s,
        }
    }
}

/// The protections a bot gets on this machine with a given [`SandboxConfig`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protections {
    pub process_group: Protection,
    pub rlimits: Protection,
    pub scratch_copy: Protection,
    pub separate_uid: Protection,
    pub network_namespace: Protection,
    pub landlock_fs: Protection,
    pub landlock_net: Protection,
    pub reaper: Protection,
}

impl Protections {
    /// Every protection with its name, in report order.
    pub fn list(&self) -> [(&'static str, &Protection); 8] {
        [
            ("process group", &self.process_group),
            ("resource limits", &self.rlimits),
            ("scratch copy", &self.scratch_copy),
            ("separate uid", &self.separate_uid),
            ("network namespace", &self.network_namespace),
            ("landlock filesystem", &self.landlock_fs),
            ("landlock network", &self.landlock_net),
            ("orphan reaping", &self.reaper),
        ]
    }

    /// Whether the bot cannot reach the network over TCP (a namespace or Landlock rules).
    pub fn network_blocked(&self) -> bool {
        self.network_namespace.is_active() || self.landlock_net.is_active()
    }

    /// A human summary, one line per protection.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (name, p) in self.list() {
            let state = if p.is_active() { "active" } else { "INACTIVE" };
            out += &format!("{name:<20} {state:<8} {}\n", p.detail());
        }
        out
    }

    /// One line: the active protections, and the inactive ones flagged.
    pub fn one_line(&self) -> String {
        let active: Vec<&str> = self
            .list()
            .iter()
            .filter(|(_, p)| p.is_active())
            .map(|(n, _)| *n)
            .collect();
        let inactive: Vec<&str> = self
            .list()
            .iter()
            .filter(|(_, p)| !p.is_active())
            .map(|(n, _)| *n)
            .collect();
        if inactive.is_empty() {
            format!("bot sandbox: {}", active.join(", "))
        } else {
            format!(
                "bot sandbox: {}; NOT active: {}",
                active.join(", "),
                inactive.join(", ")
            )
        }
    }
}

impl fmt::Display for Protections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.summary())
    }
}

/// Which optional protections to use (each only where the machine allows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxConfig {
    pub separate_uid: bool,
    pub network_namespace: bool,
    pub landlock: bool,
    /// Directories the bot may read and execute from besides the system ones (e.g. a
    /// language runtime under /opt).
    pub extra_readable: Vec<PathBuf>,
}

impl Default for SandboxConfig {
    fn default() -> SandboxConfig {
        SandboxConfig {
            separate_uid: true,
            network_namespace: true,
            landlock: true,
            extra_readable: Vec::new(),
        }
    }
}

/// System directories a bot may read and execute from under Landlock.
pub const SYSTEM_READABLE: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
];
/// Read-only pseudo file systems (no execute).
const PSEUDO_READABLE: &[&str] = &["/proc", "/sys", "/dev"];
/// Device files a bot may read and write.
const DEVICES_RW: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

// ---------------------------------------------------------------------------------------
// Detection

/// What the machine supports, probed once.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Detected {
    root: bool,
    uid_drop: Result<(), String>,
    /// The unshare flags that work for a network namespace.
    netns: Result<libc::c_int, String>,
    landlock_abi: Result<i32, String>,
    subreaper: Result<(), String>,
}

static DETECTED: OnceLock<Detected> = OnceLock::new();

fn detected() -> &'static Detected {
    DETECTED.get_or_init(detect)
}

/// Runs `f` in a forked child and reports whether it returned true. `f` must only make
/// async-signal-safe calls (raw syscalls): the runner is multi-threaded.
fn probe(f: impl FnOnce() -> bool) -> bool {
    // SAFETY: the child only runs `f` (raw syscalls) and `_exit`s.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => {
            let ok = f();
            unsafe { libc::_exit(if ok { 0 } else { 1 }) }
        }
        Ok(ForkResult::Parent { child }) => loop {
            match waitpid(child, None) {
                Ok(WaitStatus::Exited(_, code)) => return code == 0,
                Ok(_) => return false,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return false,
            }
        },
        Err(_) => false,
    }
}

fn detect() -> Detected {
    let root = unsafe { libc::geteuid() } == 0;
    let uid_drop = if !root {
        Err("the runner is not root, so bots run as the runner's own uid".to_string())
    } else {
        let id = UID_BASE + 255;
        if probe(move || unsafe { drop_ids(id, id) }) {
            Ok(())
        } else {
            Err("switching to an unprivileged uid failed".to_string())
        }
    };
    let netns = {
        let flags = if root {
            libc::CLONE_NEWNET
        } else {
            libc::CLONE_NEWUSER | libc::CLONE_NEWNET
        };
        if probe(move || unsafe { libc::unshare(flags) } == 0) {
            Ok(flags)
        } else {
            Err(format!(
                "unshare({}) is not permitted here",
                if root {
                    "CLONE_NEWNET"
                } else {
                    "CLONE_NEWUSER|CLONE_NEWNET"
                }
            ))
        }
    };
    let landlock_abi = match landlock_abi() {
        Err(e) => Err(e),
        Ok(abi) => {
            // Enforce a small ruleset in a child to be sure it works.
            match Ruleset::new(abi).and_then(|r| {
                r.allow(Path::new("/"), FS_READ)?;
                Ok(r)
            }) {
                Ok(ruleset) => {
                    let fd = ruleset.fd.as_raw_fd();
                    if probe(move || unsafe { landlock_restrict(fd) }) {
                        Ok(abi)
                    } else {
                        Err(format!("Landlock ABI {abi} present but enforcing failed"))
                    }
                }
                Err(e) => Err(format!("Landlock ABI {abi} present but unusable: {e}")),
            }
        }
    };
    let subreaper =
        if probe(|| unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0) {
            Ok(())
        } else {
            Err("prctl(PR_SET_CHILD_SUBREAPER) failed".to_string())
        };
    Detected {
        root,
        uid_drop,
        netns,
        landlock_abi,
        subreaper,
    }
}

// ---------------------------------------------------------------------------------------
// Policy

/// A sandbox policy: a configuration checked against what the machine supports.
#[derive(Debug, Clone)]
pub struct Sandbox {
    config: SandboxConfig,
    tcp_connect_ports: Vec<u16>,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new(SandboxConfig::default())
    }
}

fn choose<T: Clone>(wanted: bool, available: &Result<T, String>) -> Result<T, String> {
    if !wanted {
        return Err("disabled by configuration".to_string());
    }
    available.clone()
}

impl Sandbox {
    pub fn new(config: SandboxConfig) -> Sandbox {
        Sandbox {
            config,
            tcp_connect_ports: Vec::new(),
        }
    }

    /// The same policy, letting the bot connect to these TCP ports when Landlock network
    /// rules are active (e.g. a Windward gateway). A network namespace has no route
    /// anywhere, so such bots also need `network_namespace: false`.
    pub fn allowing_tcp_connect(mut self, ports: impl IntoIterator<Item = u16>) -> Sandbox {
        self.tcp_connect_ports.extend(ports);
        self
    }

    pub fn config(&self) -> &SandboxConfig {
        &self.config
    }

    fn uid_drop(&self) -> Result<(), String> {
        choose(self.config.separate_uid, &detected().uid_drop)
    }

    fn netns(&self) -> Result<libc::c_int, String> {
        choose(self.config.network_namespace, &detected().netns)
    }

    fn landlock(&self) -> Result<i32, String> {
        choose(self.config.landlock, &detected().landlock_abi)
    }

    /// Whether bots run as their own uid.
    pub fn uses_separate_uid(&self) -> bool {
        self.uid_drop().is_ok()
    }

    /// The protections a bot spawned with this policy gets.
    pub fn protections(&self) -> Protections {
        let d = detected();
        let uid = self.uid_drop();
        let nproc_note = if uid.is_ok() {
            "address space, CPU seconds, processes, file size, open files"
        } else if d.root {
            "address space, CPU seconds, file size, open files; the process limit does not bind root"
        } else {
            "address space, CPU seconds, processes (shared with the runner's uid), file size, open files"
        };
        let landlock = self.landlock();
        Protections {
            process_group: Protection::Active(
                "own process group, SIGKILLed as a whole at game end; the bot dies with the runner".to_string(),
            ),
            rlimits: Protection::Active(nproc_note.to_string()),
            scratch_copy: Protection::Active(
                "runs in a fresh copy of its directory, removed after the game; scrubbed environment"
                    .to_string(),
            ),
            separate_uid: match &uid {
                Ok(()) => Protection::Active(format!(
                    "each bot process tree runs as its own unprivileged uid (from {UID_BASE})"
                )),
                Err(e) => Protection::Inactive(e.clone()),
            },
            network_namespace: match self.netns() {
                Ok(flags) if flags & libc::CLONE_NEWUSER != 0 => Protection::Active(
                    "empty network namespace (inside a user namespace)".to_string(),
                ),
                Ok(_) => Protection::Active("empty network namespace".to_string()),
                Err(e) => Protection::Inactive(e),
            },
            landlock_fs: match &landlock {
                Ok(abi) => Protection::Active(format!(
                    "Landlock ABI {abi}: system directories read-only, scratch copy read-write, \
                     everything else (other bots, /tmp, homes) denied"
                )),
                Err(e) => Protection::Inactive(e.clone()),
            },
            landlock_net: match &landlock {
                Ok(abi) if *abi >= 4 => Protection::Active(format!(
                    "Landlock ABI {abi}: TCP bind denied, TCP connect denied{}{}",
                    if self.tcp_connect_ports.is_empty() {
                        String::new()
                    } else {
                        format!(" except to ports {:?}", self.tcp_connect_ports)
                    },
                    if *abi >= 6 {
                        "; signals and abstract sockets scoped to the bot"
                    } else {
                        ""
                    }
                )),
                Ok(abi) => Protection::Inactive(format!(
                    "Landlock ABI {abi} has no network rules (needs 4)"
                )),
                Err(e) => Protection::Inactive(e.clone()),
            },
            reaper: match &d.subreaper {
                Ok(()) => Protection::Active(
                    "the runner is child subreaper and reaps orphaned bot processes".to_string(),
                ),
                Err(e) => Protection::Inactive(e.clone()),
            },
        }
    }

    /// Everything the forked child must do before `exec`, prepared in the parent (the
    /// child may not allocate).
    pub fn prepare(
        &self,
        scratch: &Path,
        limits: RlimitValues,
        uid: Option<&UidLease>,
    ) -> io::Result<ChildSetup> {
        let mut rlimits = vec![
            (
                Resource::RLIMIT_AS,
                limits.address_space,
                limits.address_space,
            ),
            (
                Resource::RLIMIT_CPU,
                limits.cpu_seconds,
                limits.cpu_seconds + 1,
            ),
            (Resource::RLIMIT_FSIZE, limits.file_size, limits.file_size),
            (
                Resource::RLIMIT_NOFILE,
                limits.open_files,
                limits.open_files,
            ),
            (Resource::RLIMIT_CORE, 0, 0),
        ];
        let nproc = if uid.is_some() {
            limits.processes
        } else {
            // The count is per real uid: leave room for the runner's own processes.
            let own = unsafe { libc::getuid() };
            let running = scan_processes()
                .iter()
                .filter(|p| p.real_uid == own)
                .count() as u64;
            running + limits.processes
        };
        rlimits.push((Resource::RLIMIT_NPROC, nproc, nproc));
        let landlock = match self.landlock() {
            Ok(abi) => Some(bot_ruleset(abi, scratch, &self.config, &self.tcp_connect_ports)?.fd),
            Err(_) => None,
        };
        let unshare = self.netns().ok();
        if uid.is_some() || detected().subreaper.is_ok() {
            become_subreaper();
        }
        Ok(ChildSetup {
            rlimits,
            unshare,
            ids: uid.map(|u| (u.uid(), u.uid())),
            landlock,
            runner: std::process::id() as libc::pid_t,
        })
    }
}

/// Resource limit values in the units `setrlimit` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RlimitValues {
    /// Bytes.
    pub address_space: u64,
    pub cpu_seconds: u64,
    pub processes: u64,
    /// Bytes.
    pub file_size: u64,
    pub open_files: u64,
}

/// What the child does between `fork` and `exec`.
#[derive(Debug)]
pub struct ChildSetup {
    rlimits: Vec<(Resource, u64, u64)>,
    unshare: Option<libc::c_int>,
    ids: Option<(u32, u32)>,
    landlock: Option<OwnedFd>,
    /// The runner's pid: the bot is killed when the runner dies (`PR_SET_PDEATHSIG`).
    runner: libc::pid_t,
}

impl ChildSetup {
    /// Applies the limits and protections to the calling process. Order matters: limits
    /// and namespaces need root, so they come before the uid switch; Landlock comes last.
    ///
    /// # Safety
    /// Only for a `pre_exec` hook: makes raw syscalls and does not allocate.
    pub unsafe fn apply(&self) -> io::Result<()> {
        for &(resource, soft, hard) in &self.rlimits {
            nix::sys::resource::setrlimit(resource, soft, hard).map_err(io::Error::from)?;
        }
        if let Some(flags) = self.unshare
            && unsafe { libc::unshare(flags) } != 0
        {
            return Err(io::Error::last_os_error());
        }
        if let Some((uid, gid)) = self.ids
            && !unsafe { drop_ids(uid, gid) }
        {
            return Err(io::Error::last_os_error());
        }
        if let Some(fd) = &self.landlock
            && !unsafe { landlock_restrict(fd.as_raw_fd()) }
        {
            return Err(io::Error::last_os_error());
        }
        // A runner killed outright (kill -9, power cut of the terminal) cannot end its bots;
        // the kernel does it: the bot gets SIGKILL when the runner's thread that started it
        // ends (the runtime's threads live as long as the runner). Set after the uid
        // switch, which clears it; if the runner is already gone, do not start at all.
        if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        if unsafe { libc::getppid() } != self.runner {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        Ok(())
    }
}

/// Drops to `uid`/`gid` with no supplementary groups (raw syscalls: this thread only,
/// which is all a forked child has).
unsafe fn drop_ids(uid: u32, gid: u32) -> bool {
    unsafe {
        libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) == 0
            && libc::syscall(libc::SYS_setresgid, gid, gid, gid) == 0
            && libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0
    }
}

// ---------------------------------------------------------------------------------------
// Landlock (raw syscalls; see the kernel's include/uapi/linux/landlock.h)

const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
const LANDLOCK_RULE_PATH_BENEATH: u32 = 1;
const LANDLOCK_RULE_NET_PORT: u32 = 2;
const FS_EXECUTE: u64 = 1 << 0;
const FS_WRITE_FILE: u64 = 1 << 1;
const FS_READ_FILE: u64 = 1 << 2;
const FS_READ_DIR: u64 = 1 << 3;
const FS_TRUNCATE: u64 = 1 << 14;
/// Rights that apply to files (not only directories).
const FS_FILE_RIGHTS: u64 = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE;
const FS_READ: u64 = FS_READ_FILE | FS_READ_DIR;
const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C)]
struct NetPortAttr {
    allowed_access: u64,
    port: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI version of the running kernel.
pub fn landlock_abi() -> Result<i32, String> {
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if v < 0 {
        let e = io::Error::last_os_error();
        return Err(match e.raw_os_error() {
            Some(libc::ENOSYS) => "the kernel has no Landlock".to_string(),
            Some(libc::EOPNOTSUPP) => "Landlock is disabled on this kernel".to_string(),
            _ => format!("Landlock unavailable: {e}"),
        });
    }
    Ok(v as i32)
}

/// Every filesystem right the ABI knows (ioctl on devices left unhandled).
fn fs_rights(abi: i32) -> u64 {
    let mut rights = (1u64 << 13) - 1; // ABI 1: EXECUTE ..= MAKE_SYM
    if abi >= 2 {
        rights |= 1 << 13; // REFER
    }
    if abi >= 3 {
        rights |= FS_TRUNCATE;
    }
    rights
}

struct Ruleset {
    fd: OwnedFd,
    handled_fs: u64,
}

impl Ruleset {
    fn new(abi: i32) -> io::Result<Ruleset> {
        let handled_fs = fs_rights(abi);
        let attr = RulesetAttr {
            handled_access_fs: handled_fs,
            handled_access_net: if abi >= 4 {
                NET_BIND_TCP | NET_CONNECT_TCP
            } else {
                0
            },
            scoped: if abi >= 6 {
                SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
            } else {
                0
            },
        };
        let size = match abi {
            ..=3 => 8,
            4 | 5 => 16,
            _ => std::mem::size_of::<RulesetAttr>(),
        };
        let fd = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                &attr as *const RulesetAttr,
                size,
                0u32,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Ruleset {
            fd: unsafe { OwnedFd::from_raw_fd(fd as i32) },
            handled_fs,
        })
    }

    /// Allows `rights` beneath `path` (a missing path is skipped).
    fn allow(&self, path: &Path, rights: u64) -> io::Result<()> {
        let c = CString::new(path.as_os_str().as_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in path"))?;
        let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        if fd < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::NotFound {
                Ok(())
            } else {
                Err(e)
            };
        }
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
        let mut allowed = rights & self.handled_fs;
        if !is_dir {
            allowed &= FS_FILE_RIGHTS;
        }
        if allowed == 0 {
            return Ok(());
        }
        let attr = PathBeneathAttr {
            allowed_access: allowed,
            parent_fd: fd.as_raw_fd(),
        };
        let r = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.fd.as_raw_fd(),
                LANDLOCK_RULE_PATH_BENEATH,
                &attr as *const PathBeneathAttr,
                0u32,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

impl Ruleset {
    /// Allows TCP connect to `port` (ABI 4 and later).
    fn allow_connect(&self, port: u16) -> io::Result<()> {
        let attr = NetPortAttr {
            allowed_access: NET_CONNECT_TCP,
            port: u64::from(port),
        };
        let r = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.fd.as_raw_fd(),
                LANDLOCK_RULE_NET_PORT,
                &attr as *const NetPortAttr,
                0u32,
            )
        };
        if r < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// The ruleset of one bot: system directories read/execute, a few devices read/write, its
/// scratch copy everything.
fn bot_ruleset(
    abi: i32,
    scratch: &Path,
    config: &SandboxConfig,
    tcp_connect_ports: &[u16],
) -> io::Result<Ruleset> {
    let r = Ruleset::new(abi)?;
    for dir in SYSTEM_READABLE {
        r.allow(Path::new(dir), FS_READ | FS_EXECUTE)?;
    }
    if abi >= 4 {
        for &port in tcp_connect_ports {
            r.allow_connect(port)?;
        }
    }
    for dir in &config.extra_readable {
        r.allow(dir, FS_READ | FS_EXECUTE)?;
    }
    for dir in PSEUDO_READABLE {
        r.allow(Path::new(dir), FS_READ)?;
    }
    for dev in DEVICES_RW {
        r.allow(Path::new(dev), FS_READ_FILE | FS_WRITE_FILE | FS_TRUNCATE)?;
    }
    r.allow(scratch, u64::MAX)?;
    Ok(r)
}

/// Enforces the ruleset `fd` on the calling thread (no new privileges first).
unsafe fn landlock_restrict(fd: i32) -> bool {
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) == 0
    }
}

// ---------------------------------------------------------------------------------------
// Separate uids

/// First uid of the range bots run as (`0x4C520000`, far above any regular account).
pub const UID_BASE: u32 = 0x4C52_0000;
const UIDS_PER_RUNNER: u32 = 256;

static LEASED: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

/// A uid reserved for one running bot; released on drop.
#[derive(Debug)]
pub struct UidLease(u32);

impl UidLease {
    pub fn uid(&self) -> u32 {
        self.0
    }
}

impl Drop for UidLease {
    fn drop(&mut self) {
        if let Ok(mut leased) = LEASED.lock() {
            leased.remove(&self.0);
        }
    }
}

/// Reserves a uid that no process uses: from a block derived from the runner's pid (so
/// runners on one machine do not collide), skipping uids leased here or seen in /proc.
pub fn lease_uid() -> Option<UidLease> {
    let block = (std::process::id() % 2048) * UIDS_PER_RUNNER;
    let in_use: BTreeSet<u32> = scan_processes()
        .iter()
        .flat_map(|p| [p.real_uid, p.saved_uid])
        .collect();
    let mut leased = LEASED.lock().ok()?;
    // The last uid of each block is the detection probe's.
    (0..UIDS_PER_RUNNER - 1)
        .map(|i| UID_BASE + block + i)
        .find(|uid| !leased.contains(uid) && !in_use.contains(uid))
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

    #[test]
    fn the_report_names_every_protection() {
        let p = Sandbox::default().protections();
        let text = p.summary();
        for (name, _) in p.list() {
            assert!(text.contains(name), "{text}");
        }
        assert!(p.process_group.is_active() && p.rlimits.is_active());
        assert!(p.one_line().starts_with("bot sandbox: "));
    }

    #[test]
    fn disabled_protections_are_reported_inactive() {
        let p = Sandbox::new(SandboxConfig {
            separate_uid: false,
            network_namespace: false,
            landlock: false,
            extra_readable: Vec::new(),
        })
        .protections();
        assert!(!p.network_namespace.is_active());
        assert!(!p.landlock_fs.is_active());
        assert!(!p.separate_uid.is_active());
        assert!(p.network_namespace.detail().contains("disabled"));
        assert!(p.one_line().contains("NOT active"));
    }

    #[test]
    fn uid_leases_are_distinct_and_released() {
        let a = lease_uid();
        let b = lease_uid();
        if let (Some(a), Some(b)) = (&a, &b) {
            assert_ne!(a.uid(), b.uid());
            assert!(a.uid() >= UID_BASE && b.uid() >= UID_BASE);
        }
        let ids: Vec<u32> = [&a, &b]
            .iter()
            .filter_map(|l| l.as_ref().map(UidLease::uid))
            .collect();
        drop(a);
        drop(b);
        let leased = LEASED.lock().unwrap();
        assert!(ids.iter().all(|id| !leased.contains(id)));
    }

    #[test]
    fn proc_info_reads_this_process() {
        let me = proc_info(std::process::id() as i32).unwrap();
        assert_eq!(me.pid as u32, std::process::id());
        assert!(!me.is_zombie());
    }
}

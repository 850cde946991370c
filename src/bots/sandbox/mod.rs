//! The container every external bot runs in (docs/sandbox.md): what this machine lets
//! us do, the policy made of it, and the set-up handed to the forked child.
//!
//! Each bot process tree gets, where the machine allows it (the runner is root and the
//! kernel has the features), and otherwise is reported as missing — never pretended:
//! - a new session (no controlling terminal: nothing to inject keystrokes into);
//! - its own PID, mount, IPC, UTS and network namespaces: it sees only its own processes,
//!   a read-only view of the system directories, its scratch area, a private `/tmp` and
//!   `/dev/shm`, a minimal `/dev` and its own `/proc`; no socket of the host, no network (a
//!   TCP client's namespace holds only its gateway's listener, see [`netns`]);
//! - a control group ([`cgroup`]) limiting the memory of the whole bot, its processes and
//!   threads, and its CPU (an equal share, at most one core), killed as a whole;
//! - a scratch area of limited size and file count ([`scratch`]), removed without
//!   recursion;
//! - its own unprivileged uid, resource limits (CPU seconds, file size, open files);
//! - Landlock ([`landlock_rules`]) and a seccomp filter ([`seccomp`]) as defence in depth.
//!
//! Detection tries each mechanism once (small forked probes) and caches the result.
//! Choices of libraries: `landlock` (the Landlock project's own crate) and `seccompiler`
//! (rust-vmm, used by Firecracker) for the two kernel policy languages; `nix` for
//! namespaces, mounts and processes. Container runtimes (hakoniwa, bubblewrap, nsjail)
//! were not used: none lets the runner enter a prepared network namespace holding the
//! gateway's listener, and the cgroup v1 hierarchies of many servers are not covered by
//! hakoniwa; see docs/sandbox.md.

pub mod cgroup;
pub mod container;
pub mod landlock_rules;
pub mod netns;
pub mod proc_view;
pub mod procs;
pub mod scratch;
pub mod seccomp;

pub use procs::{
    ProcInfo, UID_BASE, UidLease, become_subreaper, bot_processes, ignore_sigpipe, kill_bot,
    kill_uid, lease_uid, proc_info, reap_bot, scan_processes,
};

use container::{ChildSetup, MountOp, MountPlan};
use landlock_rules::LandlockPlan;
use nix::libc;
use nix::sched::CloneFlags;
use nix::sys::resource::Resource;
use nix::sys::wait::{WaitStatus, waitpid};
use nix::unistd::{ForkResult, fork};
use scratch::Scratch;
use seccomp::SocketPolicy;
use std::ffi::CString;
use std::fmt;
use std::io;
use std::os::fd::OwnedFd;
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

    fn from_result(r: Result<String, String>) -> Protection {
        match r {
            Ok(s) => Protection::Active(s),
            Err(s) => Protection::Inactive(s),
        }
    }
}

/// The protections a bot gets on this machine with a given [`SandboxConfig`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Protections {
    pub session: Protection,
    pub rlimits: Protection,
    pub separate_uid: Protection,
    pub pid_namespace: Protection,
    pub mount_namespace: Protection,
    /// The contest's own files (tournament, rosters, database, teams' folders) covered
    /// where they lie inside a directory bound into the container.
    pub contest_files: Protection,
    /// Host-wide counters of /proc shown as constants ([`proc_view`]).
    pub host_counters: Protection,
    pub ipc_namespace: Protection,
    pub network_namespace: Protection,
    pub memory_limit: Protection,
    pub process_limit: Protection,
    pub cpu_share: Protection,
    pub scratch_quota: Protection,
    pub landlock: Protection,
    pub seccomp: Protection,
    /// TCP clients only (series protocols such as Windward): how a connection is tied to
    /// its seat.
    pub seat_binding: Option<Protection>,
}

impl Protections {
    /// Every protection with its name, in report order.
    pub fn list(&self) -> Vec<(&'static str, &Protection)> {
        let mut list = vec![
            ("new session", &self.session),
            ("resource limits", &self.rlimits),
            ("separate uid", &self.separate_uid),
            ("pid namespace", &self.pid_namespace),
            ("mount namespace", &self.mount_namespace),
            ("contest files", &self.contest_files),
            ("host counters", &self.host_counters),
            ("ipc namespace", &self.ipc_namespace),
            ("network namespace", &self.network_namespace),
            ("memory limit", &self.memory_limit),
            ("process limit", &self.process_limit),
            ("cpu share", &self.cpu_share),
            ("scratch quota", &self.scratch_quota),
            ("landlock", &self.landlock),
            ("seccomp", &self.seccomp),
        ];
        if let Some(seat) = &self.seat_binding {
            list.push(("seat binding", seat));
        }
        list
    }

    /// The names of the protections that are missing.
    pub fn missing(&self) -> Vec<&'static str> {
        self.list()
            .into_iter()
            .filter(|(_, p)| !p.is_active())
            .map(|(n, _)| n)
            .collect()
    }

    /// For a strict sandbox: an error naming every missing protection and why it is
    /// missing.
    pub fn require_all(&self) -> Result<(), String> {
        let missing: Vec<String> = self
            .list()
            .into_iter()
            .filter(|(_, p)| !p.is_active())
            .map(|(n, p)| format!("  {n}: {}", p.detail()))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "the strict sandbox refuses to start bots: {} protection(s) missing on this machine:
{}",
            missing.len(),
            missing.join("\n")
        ))
    }

    /// A human summary, one line per protection.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        for (name, p) in self.list() {
            let state = if p.is_active() { "active" } else { "MISSING" };
            out += &format!("{name:<18} {state:<8} {}\n", p.detail());
        }
        out
    }

    /// One line: the active protections, and the missing ones flagged.
    pub fn one_line(&self) -> String {
        let active: Vec<&str> = self
            .list()
            .into_iter()
            .filter(|(_, p)| p.is_active())
            .map(|(n, _)| n)
            .collect();
        let missing = self.missing();
        if missing.is_empty() {
            format!("bot sandbox: {}", active.join(", "))
        } else {
            format!(
                "bot sandbox: {}; MISSING: {}",
                active.join(", "),
                missing.join(", ")
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
    /// PID, mount, IPC and UTS namespaces, with the bot's own file system view.
    pub containers: bool,
    pub cgroups: bool,
    pub seccomp: bool,
    /// Directories the bot may read and execute from besides the system ones (e.g. a
    /// language runtime under /opt).
    pub extra_readable: Vec<PathBuf>,
    /// Files and folders of the contest (absolute, symlinks resolved) that no bot may see
    /// ([`Sandbox::hiding`]).
    pub hidden: Vec<PathBuf>,
}

impl Default for SandboxConfig {
    fn default() -> SandboxConfig {
        SandboxConfig {
            separate_uid: true,
            network_namespace: true,
            landlock: true,
            containers: true,
            cgroups: true,
            seccomp: true,
            extra_readable: Vec::new(),
            hidden: Vec::new(),
        }
    }
}

impl SandboxConfig {
    /// Everything optional off (for tests of the fallbacks).
    pub fn minimal() -> SandboxConfig {
        SandboxConfig {
            separate_uid: false,
            network_namespace: false,
            landlock: false,
            containers: false,
            cgroups: false,
            seccomp: false,
            extra_readable: Vec::new(),
            hidden: Vec::new(),
        }
    }
}

/// System directories a bot may read and execute from.
pub const SYSTEM_READABLE: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];
/// The least memory a bot is started with once the copy of its folder is taken off its
/// limit.
const MIN_BOT_MEMORY: u64 = 16 << 20;
/// Device files a bot may read and write.
const DEVICES_RW: &[&str] = &["null", "zero", "full", "random", "urandom"];
/// Where the bot's directory copy appears inside its mount namespace.
pub const CONTAINER_WORKDIR: &str = "/bot";

// ---------------------------------------------------------------------------------------
// Detection

/// What the machine supports, probed once.
#[derive(Debug, Clone)]
struct Detected {
    root: bool,
    uid_drop: Result<(), String>,
    containers: Result<(), String>,
    /// The unshare flags that work for a network namespace.
    netns: Result<CloneFlags, String>,
    tmpfs: Result<(), String>,
    cgroups: Result<&'static cgroup::Layout, String>,
    landlock: Result<String, String>,
    seccomp: Result<(), String>,
}

static DETECTED: OnceLock<Detected> = OnceLock::new();

fn detected() -> &'static Detected {
    DETECTED.get_or_init(detect)
}

/// Runs `f` in a forked child and returns its exit code. `f` runs in a copy of this
/// (possibly multi-threaded) process: it must not take locks other threads may hold.
fn probe_code(f: impl FnOnce() -> i32) -> Option<i32> {
    // SAFETY: the child only runs `f` and `_exit`s.
    match unsafe { fork() } {
        Ok(ForkResult::Child) => {
            let code = f();
            unsafe { libc::_exit(code) }
        }
        Ok(ForkResult::Parent { child }) => loop {
            match waitpid(child, None) {
                Ok(WaitStatus::Exited(_, code)) => return Some(code),
                Ok(_) => return None,
                Err(nix::errno::Errno::EINTR) => continue,
                Err(_) => return None,
            }
        },
        Err(_) => None,
    }
}

fn probe(f: impl FnOnce() -> bool) -> bool {
    probe_code(|| if f() { 0 } else { 1 }) == Some(0)
}

fn not_root<T>(what: &str) -> Result<T, String> {
    Err(format!("needs root ({what}); the runner is not root"))
}

fn detect() -> Detected {
    let root = unsafe { libc::geteuid() } == 0;
    let uid_drop = if !root {
        not_root("bots would run as the runner's own uid")
    } else {
        let id = UID_BASE + 255;
        if probe(move || unsafe { procs::drop_ids(id, id) }) {
            Ok(())
        } else {
            Err("switching to an unprivileged uid failed".to_string())
        }
    };
    let container_flags = CloneFlags::CLONE_NEWNS
        | CloneFlags::CLONE_NEWPID
        | CloneFlags::CLONE_NEWIPC
        | CloneFlags::CLONE_NEWUTS;
    let containers = if !root {
        not_root("to create PID, mount, IPC and UTS namespaces")
    } else if probe(move || nix::sched::unshare(container_flags).is_ok()) {
        Ok(())
    } else {
        Err(
            "unshare(CLONE_NEWNS|CLONE_NEWPID|CLONE_NEWIPC|CLONE_NEWUTS) is not permitted here"
                .to_string(),
        )
    };
    let netns = {
        let flags = if root {
            CloneFlags::CLONE_NEWNET
        } else {
            CloneFlags::CLONE_NEWUSER | CloneFlags::CLONE_NEWNET
        };
        if probe(move || nix::sched::unshare(flags).is_ok()) {
            Ok(flags)
        } else {
            Err(format!("unshare({flags:?}) is not permitted here"))
        }
    };
    let tmpfs = if !root {
        not_root("to mount a size-limited tmpfs")
    } else {
        probe_tmpfs()
    };
    let cgroups = if !root {
        not_root("to create control groups")
    } else {
        cgroup::layout()
    };
    let landlock = landlock_rules::probe();
    let seccomp = match seccomp::bot_filters(SocketPolicy::UnixOnly) {
        Err(e) => Err(e),
        Ok(filters) => {
            if probe(move || seccomp::apply(&filters).is_ok()) {
                Ok(())
            } else {
                Err("installing a seccomp filter failed".to_string())
            }
        }
    };
    Detected {
        root,
        uid_drop,
        containers,
        netns,
        tmpfs,
        cgroups,
        landlock,
        seccomp,
    }
}

fn probe_tmpfs() -> Result<(), String> {
    let _held = scratch::hold_runner().map_err(|e| e.to_string())?;
    let dir = scratch::runner_dir()
        .map_err(|e| format!("no scratch directory: {e}"))?
        .join("probe");
    let _ = std::fs::create_dir(&dir);
    let mounted = nix::mount::mount(
        Some("tmpfs"),
        &dir,
        Some("tmpfs"),
        nix::mount::MsFlags::MS_NOSUID,
        Some("size=1m,nr_inodes=16"),
    );
    let result = match mounted {
        Ok(()) => {
            let _ = nix::mount::umount2(&dir, nix::mount::MntFlags::MNT_DETACH);
            Ok(())
        }
        Err(e) => Err(format!("mounting a tmpfs failed: {e}")),
    };
    let _ = std::fs::remove_dir(&dir);
    result
}

/// Removes what this runner made for its bots, as it ends (normally, or on SIGINT or
/// SIGTERM): kills the bots still running and removes their control groups, then removes
/// its directory in TMPDIR (scratch areas unmounted, the skeleton, the constant /proc
/// files). No bot starts afterwards. Waits for bots being set up to be complete.
pub fn remove_runner_files() {
    scratch::close_runner();
    if let Some(Ok(layout)) = DETECTED.get().map(|d| &d.cgroups) {
        cgroup::remove_own(layout);
    }
    scratch::remove_runner_dir();
}

static SWEPT: OnceLock<(usize, usize)> = OnceLock::new();

/// Removes what runners that crashed left behind (scratch areas, control groups with any
/// process still in them). Done once per process, before the first bot starts; returns
/// how many scratch directories and control groups were removed.
pub fn sweep_leftovers() -> (usize, usize) {
    *SWEPT.get_or_init(|| {
        let areas = scratch::sweep();
        let groups = match &detected().cgroups {
            Ok(layout) => cgroup::sweep(layout),
            Err(_) => 0,
        };
        (areas, groups)
    })
}

/// Files that are never copied into a bot's scratch area (the tournament's database
/// files, registered by the store when it opens them).
static NEVER_COPY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Registers a file (and its SQLite companions) that no bot may get a copy of.
pub fn protect_file(path: &Path) {
    let Ok(path) = std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)) else {
        return;
    };
    let mut list = NEVER_COPY.lock().unwrap_or_else(|e| e.into_inner());
    for suffix in ["", "-wal", "-shm", "-journal", ".lock"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let p = PathBuf::from(name);
        if !list.contains(&p) {
            list.push(p);
        }
    }
}

fn never_copy_list() -> Vec<PathBuf> {
    NEVER_COPY.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

// ---------------------------------------------------------------------------------------
// Policy

/// A sandbox policy: a configuration checked against what the machine supports.
#[derive(Debug, Clone)]
pub struct Sandbox {
    config: SandboxConfig,
    /// For a TCP client: the gateway port inside its private network namespace.
    client_ports: Vec<u16>,
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

/// Resource limits of one bot, in the units the kernel takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotLimits {
    /// Memory of the whole bot, bytes.
    pub memory: u64,
    pub cpu_seconds: u64,
    /// Processes and threads of the whole bot.
    pub tasks: u64,
    /// Largest file, bytes.
    pub file_size: u64,
    pub open_files: u64,
    /// Scratch area size, bytes, and file count.
    pub scratch: scratch::Quota,
}

/// A bot ready to be forked: the child's set-up and the parent's resources that must live
/// as long as the bot.
#[derive(Debug)]
pub struct Prepared {
    pub child: ChildSetup,
    pub group: Option<cgroup::Group>,
    pub scratch: Scratch,
    /// Environment: `HOME` and `TMPDIR` as the bot sees them.
    pub home: PathBuf,
    pub tmpdir: PathBuf,
    /// Whether the bot has its own PID namespace: killing the keeper (the child) then kills
    /// every process of the bot, and none of them is ever the runner's to reap.
    pub contained: bool,
    /// The bot's network namespace, when it came from the pool: given back once the bot's
    /// control group is empty.
    pub pooled_net: Option<netns::PooledNet>,
}

impl Sandbox {
    pub fn new(config: SandboxConfig) -> Sandbox {
        Sandbox {
            config,
            client_ports: Vec::new(),
        }
    }

    /// The policy of a TCP client of the runner (a series protocol's client, such as a
    /// Windward 2012 client): its network namespace (made per client by the caller, see
    /// [`netns::PrivateNet`]) holds its gateway at `127.0.0.1:PORT` for each of `ports`,
    /// and it may open TCP sockets to those ports only (where Landlock can say so).
    pub fn for_tcp_client(mut self, ports: &[u16]) -> Sandbox {
        self.client_ports = ports.to_vec();
        self
    }

    /// The ports a TCP client may connect to (none for other bots).
    pub fn client_ports(&self) -> &[u16] {
        &self.client_ports
    }

    pub fn config(&self) -> &SandboxConfig {
        &self.config
    }

    fn uid_drop(&self) -> Result<(), String> {
        choose(self.config.separate_uid, &detected().uid_drop)
    }

    fn containers(&self) -> Result<(), String> {
        choose(self.config.containers, &detected().containers)
    }

    fn netns(&self) -> Result<CloneFlags, String> {
        choose(self.config.network_namespace, &detected().netns)
    }

    fn cgroups(&self) -> Result<&'static cgroup::Layout, String> {
        choose(self.config.cgroups, &detected().cgroups)
    }

    fn tmpfs(&self) -> Result<(), String> {
        choose(self.config.containers, &detected().tmpfs)
    }

    fn landlock(&self) -> Result<String, String> {
        choose(self.config.landlock, &detected().landlock)
    }

    fn seccomp(&self) -> Result<(), String> {
        choose(self.config.seccomp, &detected().seccomp)
    }

    /// This policy with `paths` (the contest's files and folders) hidden from the bots:
    /// each one inside a directory bound into the container is covered there by an empty
    /// mount, so that a contest kept under /opt shows no team's code and no tournament
    /// file (with its seed) to any bot. A bot's own folder reaches it as a copy at /bot.
    pub fn hiding(mut self, paths: &[PathBuf]) -> Sandbox {
        for path in paths {
            // As the container shows it: symlinks resolved (a link into /opt is covered
            // where it points).
            let Ok(path) = std::fs::canonicalize(path).or_else(|_| std::path::absolute(path))
            else {
                continue;
            };
            if !self.config.hidden.contains(&path) {
                self.config.hidden.push(path);
            }
        }
        self
    }

    /// The directories bound into a bot's container: the system directories that are
    /// real directories here (a symlink such as `/bin -> usr/bin` is a symlink inside
    /// too), and the extra readable ones.
    fn bound_dirs(&self) -> Vec<PathBuf> {
        SYSTEM_READABLE
            .iter()
            .map(PathBuf::from)
            .filter(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir()))
            .chain(
                self.config
                    .extra_readable
                    .iter()
                    .filter(|d| d.is_dir())
                    .cloned(),
            )
            .collect()
    }

    /// The hidden paths a bot could otherwise see (those inside a bound directory), each
    /// covered by an empty mount; a path inside another one covered is left out (its
    /// cover hides it). Sorted.
    pub fn covered_paths(&self) -> Vec<PathBuf> {
        let bound = self.bound_dirs();
        let mut inside: Vec<PathBuf> = self
            .config
            .hidden
            .iter()
            .filter(|p| bound.iter().any(|b| p.starts_with(b)))
            .cloned()
            .collect();
        inside.sort();
        inside.dedup();
        let outer = inside.clone();
        inside.retain(|p| !outer.iter().any(|q| q != p && p.starts_with(q)));
        inside
    }

    /// Whether bots run as their own uid.
    pub fn uses_separate_uid(&self) -> bool {
        self.uid_drop().is_ok()
    }

    /// Whether a TCP client gets a private network namespace with its gateway inside
    /// (so its seat needs no token on its command line).
    pub fn private_client_network(&self) -> bool {
        self.netns()
            .is_ok_and(|f| !f.contains(CloneFlags::CLONE_NEWUSER))
            && detected().root
    }

    /// Whether the bot sees its own file system (paths inside differ from the host's).
    pub fn uses_mount_namespace(&self) -> bool {
        self.containers().is_ok()
    }

    /// The protections a bot spawned with this policy gets.
    pub fn protections(&self) -> Protections {
        let d = detected();
        let uid = self.uid_drop();
        let containers = self.containers();
        let cgroups = self.cgroups();
        let ns = |what: &str| -> Protection {
            Protection::from_result(containers.clone().map(|()| what.to_string()))
        };
        let tcp_client = !self.client_ports.is_empty();
        Protections {
            session: Protection::Active(
                "own session and process group: no controlling terminal".to_string(),
            ),
            rlimits: Protection::Active(
                "CPU seconds per game, file size, open files, no core dumps".to_string(),
            ),
            separate_uid: Protection::from_result(
                uid.clone().map(|()| {
                    format!("each bot runs as its own unprivileged uid (from {UID_BASE})")
                }),
            ),
            pid_namespace: ns("sees only its own processes; all of them die with it"),
            mount_namespace: ns(
                "system directories read-only, its scratch copy at /bot, private /tmp and /dev/shm, \
                 minimal /dev, own /proc; no other files, no host sockets",
            ),
            contest_files: match &containers {
                Ok(()) => {
                    let covered = self.covered_paths();
                    Protection::Active(if covered.is_empty() {
                        "none lies inside a directory bound into the container".to_string()
                    } else {
                        format!(
                            "{} path(s) inside system directories covered by an empty mount",
                            covered.len()
                        )
                    })
                }
                Err(e) => Protection::Inactive(format!(
                    "{e}; a contest kept inside a system directory (/opt, /usr/local, ...) \
                     is readable by every bot"
                )),
            },
            host_counters: ns(&format!(
                "constant /proc/{}: no load, CPU times or memory of the machine",
                proc_view::covered_names().join(", /proc/")
            )),
            ipc_namespace: ns("own System V IPC and POSIX message queues, gone with the bot"),
            network_namespace: match self.netns() {
                Ok(_) if tcp_client && self.private_client_network() => Protection::Active(
                    "own network namespace holding only its gateway at 127.0.0.1".to_string(),
                ),
                Ok(_) if tcp_client => Protection::Inactive(
                    "a TCP client (windward) without root shares the host network".to_string(),
                ),
                Ok(flags) if flags.contains(CloneFlags::CLONE_NEWUSER) => Protection::Active(
                    "empty network namespace (inside a user namespace)".to_string(),
                ),
                Ok(_) => Protection::Active("empty network namespace".to_string()),
                Err(e) => Protection::Inactive(e),
            },
            memory_limit: match &cgroups {
                Ok(layout) => Protection::Active(format!(
                    "the whole bot's memory use ({}), not address space",
                    layout.describe()
                )),
                Err(e) => Protection::Inactive(format!(
                    "{e}; fallback: a per-process data-segment limit (RLIMIT_DATA)"
                )),
            },
            process_limit: match (&cgroups, &uid) {
                (Ok(layout), _) => Protection::Active(format!(
                    "processes and threads of the whole bot ({})",
                    layout.describe()
                )),
                (Err(_), Ok(())) => {
                    Protection::Active("RLIMIT_NPROC of the bot's own uid".to_string())
                }
                (Err(e), Err(_)) => Protection::Inactive(format!(
                    "{e}; RLIMIT_NPROC is shared with the runner's uid{}",
                    if d.root {
                        " and does not bind root"
                    } else {
                        ""
                    }
                )),
            },
            cpu_share: Protection::from_result(cgroups.clone().map(|layout| {
                format!(
                    "an equal CPU share, at most one core ({})",
                    layout.describe()
                )
            })),
            scratch_quota: Protection::from_result(self.tmpfs().map(|()| {
                "a tmpfs of limited size and file count, unmounted at the end".to_string()
            })),
            landlock: Protection::from_result(self.landlock()),
            seccomp: Protection::from_result(self.seccomp().map(|()| {
                format!(
                    "no namespaces, mounts, ptrace, BPF, keyrings, perf, io_uring, TIOCSTI; \
                     sockets: {}",
                    if tcp_client {
                        "UNIX and TCP"
                    } else {
                        "UNIX only"
                    }
                )
            })),
            seat_binding: tcp_client.then(|| {
                if self.private_client_network() {
                    Protection::Active(
                        "the seat belongs to the client's private endpoint; no token on its \
                         command line"
                            .to_string(),
                    )
                } else {
                    Protection::Inactive(
                        "no private network namespace: the join token is on the client's \
                         command line, visible to other processes"
                            .to_string(),
                    )
                }
            }),
        }
    }

    /// Everything needed to start a bot from `source` (its directory): the scratch area,
    /// the control group, and the child's set-up. `netns` is a prepared network namespace
    /// to enter (a TCP client's).
    pub fn prepare(
        &self,
        source: &Path,
        limits: BotLimits,
        owner: Option<u32>,
        mut netns: Option<OwnedFd>,
    ) -> Result<Prepared, PrepareError> {
        sweep_leftovers();
        // Until everything is made (the runner, ending, removes it only then).
        let _held = scratch::hold_runner().map_err(PrepareError::Setup)?;
        let containers = self.containers().is_ok();
        let scratch = Scratch::create(
            source,
            limits.scratch,
            owner,
            self.tmpfs().is_ok(),
            &never_copy_list(),
        )
        .map_err(PrepareError::Scratch)?;
        // The copy of its folder is in memory (a tmpfs) but charged to the runner, which
        // wrote it: it is taken off the bot's own limit. What the bot writes is charged to
        // the bot by the kernel.
        let copied = scratch.copied_bytes();
        let memory = limits
            .memory
            .checked_sub(copied)
            .filter(|left| *left >= MIN_BOT_MEMORY)
            .ok_or_else(|| {
                PrepareError::Setup(io::Error::other(format!(
                    "the copy of the bot's folder ({} MiB, held in memory) leaves less than {} \
                     MiB of its {} MiB memory limit",
                    copied >> 20,
                    MIN_BOT_MEMORY >> 20,
                    limits.memory >> 20
                )))
            })?;
        let group = match self.cgroups() {
            Ok(layout) => Some(
                cgroup::Group::create(
                    layout,
                    &cgroup::next_group_name(),
                    cgroup::GroupLimits {
                        memory_bytes: memory,
                        max_tasks: limits.tasks,
                    },
                )
                .map_err(PrepareError::Setup)?,
            ),
            Err(_) => None,
        };
        let cgroup_procs = match &group {
            Some(g) => g.procs_files().map_err(PrepareError::Setup)?,
            None => Vec::new(),
        };
        let mut rlimits = vec![
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
        if group.is_none() {
            rlimits.push((Resource::RLIMIT_DATA, limits.memory, limits.memory));
            let nproc = if owner.is_some() {
                limits.tasks
            } else {
                // The count is per real uid: leave room for the runner's own processes.
                let own = unsafe { libc::getuid() };
                let running = scan_processes()
                    .iter()
                    .filter(|p| p.real_uid == own)
                    .count() as u64;
                running + limits.tasks
            };
            rlimits.push((Resource::RLIMIT_NPROC, nproc, nproc));
        }
        let mut unshare = CloneFlags::empty();
        if containers {
            unshare |= CloneFlags::CLONE_NEWNS
                | CloneFlags::CLONE_NEWPID
                | CloneFlags::CLONE_NEWIPC
                | CloneFlags::CLONE_NEWUTS;
        }
        // A TCP client without a prepared namespace (no root) keeps the host network:
        // it must reach the gateway (reported as missing by `protections`).
        let mut pooled_net = None;
        if netns.is_none()
            && self.client_ports.is_empty()
            && let Ok(flags) = self.netns()
        {
            // A namespace from the pool where one can be given back safely: the runner
            // made it (no user namespace) and the control group tells when the bot is gone.
            if flags == CloneFlags::CLONE_NEWNET && group.is_some() {
                let net = netns::PooledNet::take().map_err(PrepareError::Setup)?;
                netns = Some(net.for_child().map_err(PrepareError::Setup)?);
                pooled_net = Some(net);
            } else {
                unshare |= flags;
            }
        }
        let (mounts, workdir, home, tmpdir, full) = if containers {
            let skeleton = skeleton().map_err(PrepareError::Setup)?;
            let proc_covers = proc_view::cover_plan(
                &scratch::runner_dir().map_err(PrepareError::Setup)?,
                // The memory the bot may still take: its limit less its folder's copy.
                memory,
            )
            .map_err(PrepareError::Setup)?;
            let plan = mount_plan(
                skeleton,
                &scratch,
                &self.config.extra_readable,
                &self.covered_paths(),
                &proc_covers,
            )
            .map_err(PrepareError::Setup)?;
            let work = PathBuf::from(CONTAINER_WORKDIR);
            (
                Some(plan),
                work.clone(),
                work.clone(),
                PathBuf::from("/tmp"),
                vec![work, PathBuf::from("/tmp"), PathBuf::from("/dev/shm")],
            )
        } else {
            let work = scratch.work();
            (
                None,
                work.clone(),
                work.clone(),
                scratch.tmp(),
                vec![scratch.root().to_path_buf()],
            )
        };
        let landlock = self.landlock().ok().map(|_| LandlockPlan {
            read_exec: SYSTEM_READABLE
                .iter()
                .map(PathBuf::from)
                .chain(self.config.extra_readable.iter().cloned())
                .collect(),
            read: vec![PathBuf::from("/proc"), PathBuf::from("/dev")],
            rw_files: DEVICES_RW
                .iter()
                .map(|d| Path::new("/dev").join(d))
                .collect(),
            full,
            connect_ports: self.client_ports.clone(),
        });
        let seccomp = match self.seccomp() {
            Ok(()) => Some(
                seccomp::bot_filters(if !self.client_ports.is_empty() {
                    SocketPolicy::UnixAndTcp
                } else {
                    SocketPolicy::UnixOnly
                })
                .map_err(|e| PrepareError::Setup(io::Error::other(e)))?,
            ),
            Err(_) => None,
        };
        // Without a PID namespace, orphans of the bot become the runner's to reap.
        if !containers {
            become_subreaper();
        }
        let child = ChildSetup {
            runner: std::process::id() as libc::pid_t,
            cgroup_procs,
            netns,
            unshare,
            mounts,
            rlimits,
            ids: owner.map(|u| (u, u)),
            workdir: cstring(&workdir).map_err(PrepareError::Setup)?,
            landlock,
            seccomp,
        };
        Ok(Prepared {
            child,
            group,
            scratch,
            home,
            tmpdir,
            contained: containers,
            pooled_net,
        })
    }
}

/// Why a bot's sandbox could not be prepared.
#[derive(Debug)]
pub enum PrepareError {
    Scratch(scratch::ScratchError),
    Setup(io::Error),
}

fn cstring(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in path"))
}

/// The read-only root every bot's mount namespace starts from: empty directories (mount
/// points) for the system directories, symlinks where the host has them (`/bin ->
/// usr/bin`), `/dev` with empty files for the device mounts, and `/proc`, `/tmp`, `/bot`.
/// Made once per runner.
struct Skeleton {
    root: PathBuf,
    /// System directories to bind (real directories on the host).
    system: Vec<PathBuf>,
    /// An empty directory and an empty file (read-only), bound over what is hidden.
    empty_dir: PathBuf,
    empty_file: PathBuf,
}

static SKELETON: OnceLock<Result<Skeleton, String>> = OnceLock::new();

fn skeleton() -> io::Result<&'static Skeleton> {
    SKELETON
        .get_or_init(|| make_skeleton().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| io::Error::other(e.clone()))
}

fn make_skeleton() -> io::Result<Skeleton> {
    use std::os::unix::fs::PermissionsExt;
    let root = scratch::runner_dir()?.join("root");
    std::fs::create_dir_all(&root)?;
    std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755))?;
    let mut system = Vec::new();
    for dir in SYSTEM_READABLE {
        let host = Path::new(dir);
        let inside = root.join(&dir[1..]);
        let Ok(meta) = std::fs::symlink_metadata(host) else {
            continue;
        };
        if inside.symlink_metadata().is_ok() {
            if meta.is_dir() {
                system.push(host.to_path_buf());
            }
            continue;
        }
        if meta.file_type().is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(host)?, &inside)?;
        } else if meta.is_dir() {
            std::fs::create_dir(&inside)?;
            system.push(host.to_path_buf());
        }
    }
    for dir in ["proc", "tmp", "dev", "dev/shm", &CONTAINER_WORKDIR[1..]] {
        let _ = std::fs::create_dir(root.join(dir));
    }
    for dev in DEVICES_RW {
        let path = root.join("dev").join(dev);
        if !path.exists() {
            std::fs::File::create(&path)?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        let path = root.join("dev").join(name);
        if path.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(target, &path)?;
        }
    }
    let empty_dir = root.with_file_name("empty");
    let _ = std::fs::create_dir(&empty_dir);
    std::fs::set_permissions(&empty_dir, std::fs::Permissions::from_mode(0o555))?;
    let empty_file = root.with_file_name("empty-file");
    std::fs::write(&empty_file, b"")?;
    std::fs::set_permissions(&empty_file, std::fs::Permissions::from_mode(0o444))?;
    Ok(Skeleton {
        root,
        system,
        empty_dir,
        empty_file,
    })
}

/// The mounts of one bot over the skeleton.
fn mount_plan(
    skeleton: &Skeleton,
    scratch: &Scratch,
    extra_readable: &[PathBuf],
    contest: &[PathBuf],
    proc_covers: &[proc_view::Cover],
) -> io::Result<MountPlan> {
    let inside = |p: &Path| skeleton.root.join(p.strip_prefix("/").unwrap_or(p));
    let mut ops = Vec::new();
    let bind = |source: &Path, target: &Path, writable: bool| -> io::Result<MountOp> {
        Ok(MountOp::Bind {
            source: cstring(source)?,
            target: cstring(target)?,
            writable,
        })
    };
    for dir in &skeleton.system {
        ops.push(bind(dir, &inside(dir), false)?);
    }
    for dir in extra_readable {
        let target = inside(dir);
        if !dir.is_dir() || !target.starts_with(&skeleton.root) {
            continue;
        }
        // Mount points inside a system directory exist already (it is bound first).
        if SYSTEM_READABLE.iter().all(|s| !dir.starts_with(s)) {
            std::fs::create_dir_all(&target)?;
        }
        ops.push(bind(dir, &target, false)?);
    }
    // Over the system directories: the contest's own files and folders.
    for path in contest {
        let empty = if path.is_dir() {
            &skeleton.empty_dir
        } else {
            &skeleton.empty_file
        };
        ops.push(bind(empty, &inside(path), false)?);
    }
    for dev in DEVICES_RW {
        let host = Path::new("/dev").join(dev);
        if host.exists() {
            ops.push(MountOp::Device {
                source: cstring(&host)?,
                target: cstring(&skeleton.root.join("dev").join(dev))?,
            });
        }
    }
    ops.push(MountOp::Proc {
        target: cstring(&skeleton.root.join("proc"))?,
    });
    for cover in proc_covers {
        ops.push(bind(
            &cover.source,
            &skeleton.root.join("proc").join(cover.target),
            false,
        )?);
    }
    ops.push(bind(&scratch.tmp(), &skeleton.root.join("tmp"), true)?);
    ops.push(bind(&scratch.shm(), &skeleton.root.join("dev/shm"), true)?);
    ops.push(bind(
        &scratch.work(),
        &inside(Path::new(CONTAINER_WORKDIR)),
        true,
    )?);
    Ok(MountPlan {
        root: cstring(&skeleton.root)?,
        ops,
    })
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
        assert!(p.session.is_active() && p.rlimits.is_active());
        assert!(p.one_line().starts_with("bot sandbox: "));
        assert!(p.seat_binding.is_none());
        let client = Sandbox::default().for_tcp_client(&[1707]).protections();
        assert!(client.list().iter().any(|(n, _)| *n == "seat binding"));
    }

    #[test]
    fn disabled_protections_are_reported_missing() {
        let p = Sandbox::new(SandboxConfig::minimal()).protections();
        for missing in [
            "network namespace",
            "landlock",
            "separate uid",
            "pid namespace",
            "memory limit",
            "seccomp",
        ] {
            assert!(p.missing().contains(&missing), "{missing}: {}", p.summary());
        }
        assert!(p.network_namespace.detail().contains("disabled"));
        assert!(p.one_line().contains("MISSING"));
    }

    #[test]
    fn uid_leases_are_distinct_and_released() {
        let a = lease_uid();
        let b = lease_uid();
        if let (Some(a), Some(b)) = (&a, &b) {
            assert_ne!(a.uid(), b.uid());
            assert!(a.uid() >= UID_BASE && b.uid() >= UID_BASE);
        }
    }

    #[test]
    fn proc_info_reads_this_process() {
        let me = proc_info(std::process::id() as i32).unwrap();
        assert_eq!(me.pid as u32, std::process::id());
        assert!(!me.is_zombie());
    }
}

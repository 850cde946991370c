//! One control group per running bot: a limit on the memory the whole bot uses (every
//! process, counted in pages used, not address space reserved), on its processes and
//! threads, and an equal share of the CPU capped at one core; killed as a whole at the end.
//!
//! Both cgroup layouts are handled. On a cgroup v2 machine (`/sys/fs/cgroup` is the unified
//! hierarchy) the group lives under `/sys/fs/cgroup/lrs-tourney/`; on v1 or hybrid machines
//! (controllers mounted one per directory, as on many servers) one directory per controller
//! (`memory`, `pids`, `cpu`) under `lrs-tourney/` of that controller's mount. The group is
//! written by hand (plain files): the few knobs used do not justify a cgroup library, and
//! every write is checked so that a missing limit is reported rather than assumed.
//!
//! Names carry the runner's pid and start time, so that a later run can tell the groups of
//! a runner that crashed from those of one still running ([`sweep`]).

use super::procs::RunnerId;
use std::fs::{self, OpenOptions};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The directory name of this program's groups in each hierarchy.
const PARENT: &str = "lrs-tourney";

/// Where the machine's cgroup controllers are, and which layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// The unified hierarchy (cgroup v2) at this path, with memory, pids and cpu.
    V2(PathBuf),
    /// One mount per controller (cgroup v1).
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpu: PathBuf,
    },
}

/// The limits of one bot's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupLimits {
    pub memory_bytes: u64,
    pub max_tasks: u64,
}

static LAYOUT: OnceLock<Result<Layout, String>> = OnceLock::new();

/// The usable layout of this machine, probed once (creates the parent groups).
pub fn layout() -> Result<&'static Layout, String> {
    LAYOUT.get_or_init(probe).as_ref().map_err(Clone::clone)
}

fn probe() -> Result<Layout, String> {
    let layout = find_layout()?;
    for dir in layout.parents() {
        fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    // All bots together weigh as much as one busy process per CPU: other work on the
    // machine (a build, a browser) cannot squeeze every bot's answers into one process's
    // share, and the bots, at most one core each, cannot starve the machine either.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    match &layout {
        Layout::V2(root) => {
            let _ = fs::write(
                root.join(PARENT).join("cpu.weight"),
                (100 * cpus).min(10_000).to_string(),
            );
        }
        Layout::V1 { cpu, .. } => {
            let _ = fs::write(
                cpu.join(PARENT).join("cpu.shares"),
                (1024 * cpus).to_string(),
            );
        }
    }
    if let Layout::V2(root) = &layout {
        // Controllers must be enabled in every ancestor's subtree_control.
        for dir in [root.clone(), root.join(PARENT)] {
            let file = dir.join("cgroup.subtree_control");
            fs::write(&file, "+memory +pids +cpu")
                .map_err(|e| format!("cannot enable controllers in {}: {e}", file.display()))?;
        }
    }
    // A trial group with every limit written proves the layout is usable.
    let trial = Group::create(
        &layout,
        &format!("probe-{}", std::process::id()),
        GroupLimits {
            memory_bytes: 64 << 20,
            max_tasks: 8,
        },
    )
    .map_err(|e| format!("cannot create a control group: {e}"))?;
    trial.remove();
    Ok(layout)
}

fn find_layout() -> Result<Layout, String> {
    let mounts = fs::read_to_string("/proc/self/mountinfo")
        .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
    let mut v2 = None;
    let (mut memory, mut pids, mut cpu) = (None, None, None);
    for line in mounts.lines() {
        // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - FSTYPE SOURCE SUPEROPTIONS
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let mount_point = left.split(' ').nth(4).unwrap_or_default();
        let mut right = right.split(' ');
        let fstype = right.next().unwrap_or_default();
        let super_options = right.nth(1).unwrap_or_default();
        let options = |name: &str| super_options.split(',').any(|o| o == name);
        let path = PathBuf::from(mount_point);
        match fstype {
            "cgroup2" => v2 = v2.or(Some(path)),
            "cgroup" => {
                if options("memory") {
                    memory = Some(path.clone());
                }
                if options("pids") {
                    pids = Some(path.clone());
                }
                if options("cpu") {
                    cpu = Some(path);
                }
            }
            _ => {}
        }
    }
    if let (Some(memory), Some(pids), Some(cpu)) = (memory, pids, cpu) {
        return Ok(Layout::V1 { memory, pids, cpu });
    }
    if let Some(root) = v2 {
        let controllers = fs::read_to_string(root.join("cgroup.controllers")).unwrap_or_default();
        let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
        if has("memory") && has("pids") && has("cpu") {
            return Ok(Layout::V2(root));
        }
        return Err(format!(
            "the cgroup v2 hierarchy at {} does not offer the memory, pids and cpu controllers \
             (it offers: {})",
            root.display(),
            controllers.trim()
        ));
    }
    Err("no cgroup hierarchy with the memory, pids and cpu controllers is mounted".to_string())
}

impl Layout {
    /// The parent group directories (one per hierarchy used).
    fn parents(&self) -> Vec<PathBuf> {
        match self {
            Layout::V2(root) => vec![root.join(PARENT)],
            Layout::V1 { memory, pids, cpu } => {
                vec![memory.join(PARENT), pids.join(PARENT), cpu.join(PARENT)]
            }
        }
    }

    /// A short description for the protections report.
    pub fn describe(&self) -> &'static str {
        match self {
            Layout::V2(_) => "cgroup v2",
            Layout::V1 { .. } => "cgroup v1",
        }
    }
}

/// One bot's control group (a directory per hierarchy). [`Group::remove`] kills what is
/// left in it and removes it; dropping it does the same.
#[derive(Debug)]
pub struct Group {
    dirs: Vec<PathBuf>,
    v2: bool,
    removed: bool,
}

static GROUP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh group name: the runner's identity and a counter.
pub fn next_group_name() -> String {
    let n = GROUP_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{}-{n}", RunnerId::current().tag())
}

fn write_knob(dir: &Path, knob: &str, value: &str) -> io::Result<()> {
    fs::write(dir.join(knob), value)
        .map_err(|e| io::Error::new(e.kind(), format!("{}/{knob}: {e}", dir.display())))
}

impl Group {
    /// Creates the group `name` with `limits`.
    pub fn create(layout: &Layout, name: &str, limits: GroupLimits) -> io::Result<Group> {
        let dirs: Vec<PathBuf> = layout.parents().iter().map(|p| p.join(name)).collect();
        let mut group = Group {
            dirs: Vec::new(),
            v2: matches!(layout, Layout::V2(_)),
            removed: false,
        };
        for dir in &dirs {
            match fs::create_dir(dir) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
            group.dirs.push(dir.clone());
        }
        let memory = limits.memory_bytes.to_string();
        let tasks = limits.max_tasks.to_string();
        match layout {
            Layout::V2(_) => {
                let dir = &group.dirs[0];
                write_knob(dir, "memory.max", &memory)?;
                // Swap would let a bot exceed its memory limit on machines that have it.
                let _ = write_knob(dir, "memory.swap.max", "0");
                write_knob(dir, "pids.max", &tasks)?;
                write_knob(dir, "cpu.weight", "100")?;
                write_knob(dir, "cpu.max", "100000 100000")?;
            }
            Layout::V1 { .. } => {
                let (memory_dir, pids_dir, cpu_dir) =
                    (&group.dirs[0], &group.dirs[1], &group.dirs[2]);
                write_knob(memory_dir, "memory.limit_in_bytes", &memory)?;
                if memory_dir.join("memory.memsw.limit_in_bytes").exists() {
                    write_knob(memory_dir, "memory.memsw.limit_in_bytes", &memory)?;
                }
                write_knob(pids_dir, "pids.max", &tasks)?;
                write_knob(cpu_dir, "cpu.shares", "1024")?;
                write_knob(cpu_dir, "cpu.cfs_period_us", "100000")?;
                write_knob(cpu_dir, "cpu.cfs_quota_us", "100000")?;
            }
        }
        Ok(group)
    }

    /// Open `cgroup.procs` files: the forked child writes its pid to each to enter the
    /// group before it starts anything (so nothing it starts is ever outside).
    pub fn procs_files(&self) -> io::Result<Vec<OwnedFd>> {
        self.dirs
            .iter()
            .map(|d| {
                OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))
                    .map(OwnedFd::from)
            })
            .collect()
    }

    /// The pids in the group (all hierarchies).
    pub fn pids(&self) -> Vec<i32> {
        let mut pids: Vec<i32> = self.dirs.iter().flat_map(|d| read_pids(d)).collect();
        pids.sort_unstable();
        pids.dedup();
        pids
    }

    /// SIGKILLs every process of the group (repeatedly, so that a fork in flight is
    /// caught; a frozen group is not needed since the tasks limit bounds the forks).
    pub fn kill_all(&self) {
        if self.v2
            && let Some(dir) = self.dirs.first()
            && fs::write(dir.join("cgroup.kill"), "1").is_ok()
        {
            return;
        }
        for _ in 0..100 {
            let pids = self.pids();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// The most memory the group used, in bytes, where the kernel tells.
    pub fn peak_memory(&self) -> Option<u64> {
        let dir = self.dirs.first()?;
        let file = if self.v2 {
            "memory.peak"
        } else {
            "memory.max_usage_in_bytes"
        };
        fs::read_to_string(dir.join(file)).ok()?.trim().parse().ok()
    }

    /// How many processes of the group the kernel killed for going over the memory limit.
    pub fn oom_kills(&self) -> u64 {
        let Some(dir) = self.dirs.first() else {
            return 0;
        };
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        fs::read_to_string(dir.join(file))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Kills what is left and removes the group's directories.
    pub fn remove(mut self) {
        self.remove_now();
    }

    fn remove_now(&mut self) {
        if self.removed {
            return;
        }
        self.removed = true;
        remove_dirs(&self.dirs, self.v2);
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.remove_now();
    }
}

fn read_pids(dir: &Path) -> Vec<i32> {
    fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Kills every process in the group directories and removes them (retrying while the
/// kernel finishes the kills).
fn remove_dirs(dirs: &[PathBuf], v2: bool) {
    let group = Group {
        dirs: dirs.to_vec(),
        v2,
        removed: true,
    };
    group.kill_all();
    for dir in dirs {
        for attempt in 0..200 {
            match fs::remove_dir(dir) {
                Ok(()) => break,
                Err(e) if e.kind() == io::ErrorKind::NotFound => break,
                Err(_) if attempt < 199 => {
                    group.kill_all();
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(_) => {}
            }
        }
    }
}

/// Removes the groups that runners no longer running left behind (killing what is in
/// them). Returns how many groups were removed.
pub fn sweep(layout: &Layout) -> usize {
    let mut stale: Vec<String> = Vec::new();
    for parent in layout.parents() {
        let Ok(entries) = fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.path().is_dir()
                && RunnerId::from_tag_prefix(&name).is_some_and(|r| !r.is_alive())
                && !stale.contains(&name)
            {
                stale.push(name);
            }
        }
    }
    for name in &stale {
        let dirs: Vec<PathBuf> = layout.parents().iter().map(|p| p.join(name)).collect();
        remove_dirs(&dirs, matches!(layout, Layout::V2(_)));
    }
    stale.len()
}

/// Kills the processes of this runner's own groups and removes the groups (a runner that
/// ends). Returns how many were removed.
pub fn remove_own(layout: &Layout) -> usize {
    let prefix = format!("{}-", RunnerId::current().tag());
    let mut own: Vec<String> = Vec::new();
    for parent in layout.parents() {
        let Ok(entries) = fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) && entry.path().is_dir() && !own.contains(&name) {
                own.push(name);
            }
        }
    }
    for name in &own {
        let dirs: Vec<PathBuf> = layout.parents().iter().map(|p| p.join(name)).collect();
        remove_dirs(&dirs, matches!(layout, Layout::V2(_)));
    }
    own.len()
}

/// Writes the calling process's pid into each open `cgroup.procs` file, without
/// allocating (for the forked child before it starts anything).
///
/// # Safety
/// Raw syscalls on the given descriptors only.
pub unsafe fn enter(procs_files: &[i32]) -> io::Result<()> {
    let mut buf = [0u8; 24];
    let mut pid = unsafe { nix::libc::getpid() } as u64;
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (pid % 10) as u8;
        pid /= 10;
        if pid == 0 {
            break;
        }
    }
    let digits = &buf[i..];
    for &fd in procs_files {
        let n = unsafe { nix::libc::write(fd, digits.as_ptr().cast(), digits.len()) };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

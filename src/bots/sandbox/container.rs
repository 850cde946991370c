//! What the forked child does between `fork` and `exec`: it turns itself into a small
//! container for the bot (docs/sandbox.md).
//!
//! With namespaces available (the runner is root), three processes are involved:
//!
//! ```text
//! runner ── keeper (new session, in the bot's cgroup, outside the new PID namespace)
//!              └── init (PID 1 of the bot's PID namespace: builds the mount namespace,
//!                   │    reaps, reports the bot's exit status to the keeper)
//!                   └── bot (limits, own uid, Landlock, seccomp, then `exec`)
//! ```
//!
//! The keeper is the child the runner sees: its exit status is the bot's (passed up over
//! a pipe, a signal raised again), and killing it kills everything (init has
//! `PR_SET_PDEATHSIG`, and when the PID 1 of a namespace dies the kernel kills every
//! process in it, daemons and double forks included). The bot is not PID 1 itself because
//! PID 1 ignores every signal it has no handler for (SIGPIPE, SIGXCPU, SIGTERM), which
//! would change how bots behave.
//!
//! Without namespaces (no root) the child is the bot: new session, cgroup where there is
//! one, limits, Landlock and seccomp as available.
//!
//! Everything that needs memory is prepared by the parent; the child makes syscalls (the
//! Landlock rules are opened in the bot's own view of the file system, since with a mount
//! namespace the paths are those inside it).

use super::landlock_rules::LandlockPlan;
use super::procs;
use nix::libc;
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sched::{CloneFlags, setns, unshare};
use nix::sys::resource::{Resource, setrlimit};
use nix::unistd::{ForkResult, chdir, fork, pivot_root, sethostname, setsid};
use seccompiler::BpfProgram;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};

/// One mount made by the bot's PID 1 inside the new root (paths already absolute in the
/// host's view of the new root, i.e. `ROOT/usr`).
#[derive(Debug)]
pub enum MountOp {
    /// A bind mount, read-only or writable; `nosuid`, `nodev` always.
    Bind {
        source: CString,
        target: CString,
        writable: bool,
    },
    /// A device file (`/dev/null`, ...) bound over an empty file: `nosuid`, and not `nodev`
    /// (on a `nodev` mount opening the device fails with EACCES).
    Device { source: CString, target: CString },
    /// A fresh procfs for the new PID namespace, showing only the bot's own processes.
    Proc { target: CString },
}

/// The file system the bot sees: a read-only skeleton root with its mounts, then
/// `pivot_root` into it.
#[derive(Debug)]
pub struct MountPlan {
    pub root: CString,
    pub ops: Vec<MountOp>,
}

/// Everything the child does before `exec`.
#[derive(Debug)]
pub struct ChildSetup {
    /// The runner's pid: the child dies with it.
    pub runner: libc::pid_t,
    /// `cgroup.procs` files to enter.
    pub cgroup_procs: Vec<OwnedFd>,
    /// A network namespace prepared by the runner (TCP clients of series protocols) to enter.
    pub netns: Option<OwnedFd>,
    /// Namespaces to create.
    pub unshare: CloneFlags,
    /// The file system (needs a new mount and PID namespace).
    pub mounts: Option<MountPlan>,
    pub rlimits: Vec<(Resource, u64, u64)>,
    /// `(uid, gid)` to become.
    pub ids: Option<(u32, u32)>,
    /// The working directory, as the bot sees it.
    pub workdir: CString,
    pub landlock: Option<LandlockPlan>,
    pub seccomp: Option<Vec<BpfProgram>>,
}

fn errno(e: nix::errno::Errno) -> io::Error {
    io::Error::from_raw_os_error(e as i32)
}

/// `PR_SET_PDEATHSIG` with SIGKILL.
fn die_with_parent() -> io::Result<()> {
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Closes every descriptor from 0 up except `keep`.
fn close_all_but(keep: RawFd) {
    unsafe {
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
    }
}

/// Marks every descriptor from 3 up close-on-exec, so that the bot starts with its
/// standard input, output and error only: a descriptor the organiser's shell left open
/// (`exec 7>>log`) is inherited by the runner and, without this, by every bot. They are
/// not closed here: std's pipe that reports a failed `exec` must stay open until `exec`.
///
/// `close_range(CLOSE_RANGE_CLOEXEC)` (Linux 5.11) in one call; on older kernels the
/// open descriptors are listed from `/proc/self/fd` with `getdents64` into a buffer on
/// the stack (no allocation: this runs between `fork` and `exec`), and failing that every
/// number up to the open-file limit is tried.
fn cloexec_from_3() {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    let set = |fd: libc::c_int| unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFD);
        if flags >= 0 {
            libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
        }
    };
    if unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC) } == 0 {
        return;
    }
    let dir = unsafe {
        libc::open(
            c"/proc/self/fd".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if dir >= 0 {
        let mut buf = [0u8; 4096];
        loop {
            let n =
                unsafe { libc::syscall(libc::SYS_getdents64, dir, buf.as_mut_ptr(), buf.len()) };
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            while at + 19 < n as usize {
                // struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name.
                let reclen = u16::from_ne_bytes([buf[at + 16], buf[at + 17]]) as usize;
                if reclen == 0 {
                    break;
                }
                let mut fd: libc::c_int = 0;
                let mut digits = 0;
                for &b in &buf[at + 19..(at + reclen).min(n as usize)] {
                    if !b.is_ascii_digit() {
                        break;
                    }
                    fd = fd
                        .saturating_mul(10)
                        .saturating_add(libc::c_int::from(b - b'0'));
                    digits += 1;
                }
                if digits > 0 && fd >= 3 && fd != dir {
                    set(fd);
                }
                at += reclen;
            }
        }
        unsafe { libc::close(dir) };
        return;
    }
    let mut limit: libc::rlimit = unsafe { std::mem::zeroed() };
    let max = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        limit.rlim_cur.min(1 << 20) as libc::c_int
    } else {
        1 << 16
    };
    for fd in 3..max {
        set(fd);
    }
}

/// Ends the calling process the way `status` (a `waitpid` status) says a process ended.
fn exit_like(status: libc::c_int) -> ! {
    unsafe {
        if libc::WIFSIGNALED(status) {
            let sig = libc::WTERMSIG(status);
            libc::signal(sig, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, sig);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), sig);
            libc::_exit(128 + sig);
        }
        libc::_exit(if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            1
        })
    }
}

impl ChildSetup {
    /// Runs in the forked child. Returns `Ok` only in the process that is to `exec` the
    /// bot; the keeper and init never return.
    ///
    /// # Safety
    /// Only for a `pre_exec` hook of a freshly forked child.
    pub unsafe fn enter(&mut self) -> io::Result<()> {
        setsid().map_err(errno)?;
        die_with_parent()?;
        if unsafe { libc::getppid() } != self.runner {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
        let procs: Vec<RawFd> = self.cgroup_procs.iter().map(AsRawFd::as_raw_fd).collect();
        unsafe { super::cgroup::enter(&procs) }?;
        for fd in self.cgroup_procs.drain(..) {
            drop(fd);
        }
        if let Some(ns) = self.netns.take() {
            setns(&ns, CloneFlags::CLONE_NEWNET).map_err(errno)?;
        }
        if !self.unshare.is_empty() {
            unshare(self.unshare).map_err(errno)?;
        }
        if self.unshare.contains(CloneFlags::CLONE_NEWPID) {
            unsafe { self.keeper_and_init() }?;
        }
        self.bot()
    }

    /// Forks init (PID 1 of the new namespace) and, from it, the bot; the keeper relays
    /// the bot's exit status. Returns in the bot only.
    unsafe fn keeper_and_init(&mut self) -> io::Result<()> {
        let mut fds = [0 as libc::c_int; 2];
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        let (status_r, status_w) = (fds[0], fds[1]);
        match unsafe { fork() }.map_err(errno)? {
            ForkResult::Parent { child } => {
                // The keeper: the runner's pipes and std's exec-error pipe belong to the
                // bot alone.
                close_all_but(status_r);
                let mut buf = [0u8; 4];
                let mut got = 0usize;
                while got < 4 {
                    let n =
                        unsafe { libc::read(status_r, buf[got..].as_mut_ptr().cast(), 4 - got) };
                    if n > 0 {
                        got += n as usize;
                    } else if n == 0
                        || io::Error::last_os_error().raw_os_error() != Some(libc::EINTR)
                    {
                        break;
                    }
                }
                let mut init_status = 0;
                while unsafe { libc::waitpid(child.as_raw(), &mut init_status, 0) } < 0
                    && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
                {
                }
                if got == 4 {
                    exit_like(libc::c_int::from_ne_bytes(buf));
                }
                exit_like(init_status)
            }
            ForkResult::Child => {}
        }
        // Init. It dies with the keeper, and with it every process of the namespace.
        die_with_parent()?;
        unsafe { libc::close(status_r) };
        if let Some(plan) = &self.mounts {
            plan.apply()?;
        }
        let _ = sethostname("bot");
        let bot = match unsafe { fork() }.map_err(errno)? {
            ForkResult::Child => {
                unsafe { libc::close(status_w) };
                return Ok(());
            }
            ForkResult::Parent { child } => child.as_raw(),
        };
        close_all_but(status_w);
        loop {
            let mut status = 0;
            let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
            if pid == bot {
                let bytes = status.to_ne_bytes();
                unsafe { libc::write(status_w, bytes.as_ptr().cast(), 4) };
                unsafe { libc::_exit(0) };
            }
            if pid < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                unsafe { libc::_exit(1) };
            }
        }
    }

    /// The bot's own set-up, last before `exec`: limits, uid, working directory, Landlock,
    /// seccomp (last: it forbids some of the calls before it).
    fn bot(&mut self) -> io::Result<()> {
        die_with_parent()?;
        for &(resource, soft, hard) in &self.rlimits {
            setrlimit(resource, soft, hard).map_err(errno)?;
        }
        if let Some((uid, gid)) = self.ids
            && !unsafe { procs::drop_ids(uid, gid) }
        {
            return Err(io::Error::last_os_error());
        }
        // The uid switch clears the parent-death signal.
        die_with_parent()?;
        cloexec_from_3();
        chdir(self.workdir.as_c_str()).map_err(errno)?;
        if let Some(plan) = self.landlock.take() {
            plan.restrict_self()?;
        }
        if let Some(filters) = &self.seccomp {
            super::seccomp::apply(filters)?;
        }
        Ok(())
    }
}

impl MountPlan {
    /// Makes the mounts, then moves into the new root.
    fn apply(&self) -> io::Result<()> {
        let none: Option<&str> = None;
        mount(none, "/", none, MsFlags::MS_REC | MsFlags::MS_PRIVATE, none).map_err(errno)?;
        mount(
            Some(self.root.as_c_str()),
            self.root.as_c_str(),
            none,
            MsFlags::MS_BIND,
            none,
        )
        .map_err(errno)?;
        let safe = MsFlags::MS_NOSUID | MsFlags::MS_NODEV;
        for op in &self.ops {
            match op {
                MountOp::Bind {
                    source,
                    target,
                    writable,
                } => {
                    mount(
                        Some(source.as_c_str()),
                        target.as_c_str(),
                        none,
                        MsFlags::MS_BIND | MsFlags::MS_REC,
                        none,
                    )
                    .map_err(errno)?;
                    let mut flags = MsFlags::MS_REMOUNT | MsFlags::MS_BIND | safe;
                    if !writable {
                        flags |= MsFlags::MS_RDONLY;
                    }
                    mount(none, target.as_c_str(), none, flags, none).map_err(errno)?;
                }
                MountOp::Device { source, target } => {
                    mount(
                        Some(source.as_c_str()),
                        target.as_c_str(),
                        none,
                        MsFlags::MS_BIND,
                        none,
                    )
                    .map_err(errno)?;
                    let flags = MsFlags::MS_REMOUNT | MsFlags::MS_BIND | MsFlags::MS_NOSUID;
                    mount(none, target.as_c_str(), none, flags, none).map_err(errno)?;
                }
                MountOp::Proc { target } => {
                    // Processes of other uids hidden: the namespace's PID 1 (this process,
                    // forked from the runner without `exec`) would show the runner's command
                    // line, with every other bot's command and directory.
                    mount(
                        Some("proc"),
                        target.as_c_str(),
                        Some("proc"),
                        safe | MsFlags::MS_NOEXEC,
                        Some("hidepid=2"),
                    )
                    .map_err(errno)?;
                }
            }
        }
        mount(
            none,
            self.root.as_c_str(),
            none,
            MsFlags::MS_REMOUNT | MsFlags::MS_BIND | MsFlags::MS_RDONLY | safe,
            none,
        )
        .map_err(errno)?;
        chdir(self.root.as_c_str()).map_err(errno)?;
        pivot_root(".", ".").map_err(errno)?;
        umount2(".", MntFlags::MNT_DETACH).map_err(errno)?;
        chdir("/").map_err(errno)?;
        Ok(())
    }
}

//! The bot's scratch area: a fresh copy of its directory, plus its private `/tmp` and
//! `/dev/shm`, on one file system of limited size and file count (a tmpfs mounted by the
//! runner where it may mount, a plain directory otherwise).
//!
//! Removal never recurses on the stack, whatever the bot built: a mounted area is
//! unmounted (the kernel frees it at once), a plain one is removed by [`remove_tree`], which
//! walks the tree with one directory descriptor at a time and `..`. A run that starts
//! removes the areas of runners that are no longer running ([`sweep`]).

use super::procs::RunnerId;
use nix::dir::Dir;
use nix::fcntl::{OFlag, openat};
use nix::mount::{MntFlags, MsFlags, mount, umount2};
use nix::sys::stat::{FchmodatFlags, Mode, fchmodat};
use nix::unistd::{UnlinkatFlags, unlinkat};
use std::fs;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{PermissionsExt, lchown};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{RwLock, RwLockReadGuard};

/// Size and file-count limits of a scratch area.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    pub bytes: u64,
    pub files: u64,
}

/// Why a scratch area could not be made.
#[derive(Debug)]
pub enum ScratchError {
    /// The bot's directory is missing, unreadable or too deep.
    Source(io::Error),
    /// The bot's directory does not fit in the quota.
    TooLarge,
    /// Making or mounting the area failed.
    Setup(io::Error),
}

/// A scratch area, removed on drop.
#[derive(Debug)]
pub struct Scratch {
    root: PathBuf,
    mounted: bool,
    /// Memory the copy of the bot's folder takes on a mounted area (whole pages).
    copied: u64,
}

/// The directory under which this program keeps scratch areas (one per runner inside);
/// one per user, so that runners of different users never share one.
pub fn base_dir() -> PathBuf {
    let uid = unsafe { nix::libc::geteuid() };
    let name = if uid == 0 {
        "lrs-tourney-sandbox".to_string()
    } else {
        format!("lrs-tourney-sandbox-{uid}")
    };
    std::env::temp_dir().join(name)
}

/// Whether this runner's directory has been made, and whether the runner has closed it
/// (it is ending, [`close_runner`]): nothing more is made then.
static MADE: AtomicBool = AtomicBool::new(false);
static CLOSED: RwLock<bool> = RwLock::new(false);

/// Held while a bot's files are being made in this runner's directory, so that the
/// runner, when it ends, removes them only once they are complete; an error once the
/// runner is ending.
pub fn hold_runner() -> io::Result<RwLockReadGuard<'static, bool>> {
    let guard = CLOSED.read().unwrap_or_else(|e| e.into_inner());
    if *guard {
        return Err(io::Error::other(
            "the runner is ending: no bot starts any more",
        ));
    }
    Ok(guard)
}

/// Marks this runner as ending, once the bots being set up are complete: nothing more
/// is made in its directory.
pub fn close_runner() {
    *CLOSED.write().unwrap_or_else(|e| e.into_inner()) = true;
}

/// Removes this runner's directory (after [`close_runner`]): every scratch area is
/// unmounted on the host's side and removed, with the skeleton and the constant /proc
/// files; then the common directory if no other runner uses it.
pub fn remove_runner_dir() {
    if !MADE.load(Ordering::SeqCst) {
        return;
    }
    let base = base_dir();
    let dir = base.join(RunnerId::current().tag());
    for _ in 0..3 {
        unmount_under(&dir);
        if remove_tree(&dir).is_ok() {
            break;
        }
    }
    // Fails while another runner has its directory there.
    let _ = fs::remove_dir(&base);
}

/// Detaches every mount below `dir` (deepest first).
fn unmount_under(dir: &Path) {
    let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let prefix = format!("{}/", dir.display());
    let mut stale: Vec<&str> = mounts
        .lines()
        .filter_map(|l| l.split(' ').nth(4))
        .filter(|m| m.starts_with(&prefix))
        .collect();
    stale.sort_by_key(|m| std::cmp::Reverse(m.len()));
    for m in stale {
        let _ = umount2(m, MntFlags::MNT_DETACH);
    }
}

/// This runner's directory of scratch areas (and the root skeleton), created on first use.
pub fn runner_dir() -> io::Result<PathBuf> {
    // Another runner that ends removes the common directory when it is empty: make it
    // again if it went away between the two steps.
    for _ in 0..5 {
        match make_runner_dir() {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            other => return other,
        }
    }
    make_runner_dir()
}

fn make_runner_dir() -> io::Result<PathBuf> {
    let base = base_dir();
    match fs::create_dir(&base) {
        Ok(()) => fs::set_permissions(&base, fs::Permissions::from_mode(0o711))?,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            // Someone else's directory (or a link planted there) is not used.
            let meta = fs::symlink_metadata(&base)?;
            if !meta.is_dir()
                || std::os::unix::fs::MetadataExt::uid(&meta) != unsafe { nix::libc::geteuid() }
            {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!("{} belongs to another user", base.display()),
                ));
            }
        }
        Err(e) => return Err(e),
    }
    let dir = base.join(RunnerId::current().tag());
    match fs::create_dir(&dir) {
        Ok(()) => {
            MADE.store(true, Ordering::SeqCst);
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o711))?
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    Ok(dir)
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

impl Scratch {
    /// Makes an area and copies `source` into its `work` directory, skipping `never_copy`
    /// (the tournament's database files). `owner` is the bot's uid; `mount_tmpfs` whether
    /// the runner may mount a tmpfs.
    pub fn create(
        source: &Path,
        quota: Quota,
        owner: Option<u32>,
        mount_tmpfs: bool,
        never_copy: &[PathBuf],
    ) -> Result<Scratch, ScratchError> {
        let meta = fs::metadata(source).map_err(ScratchError::Source)?;
        if !meta.is_dir() {
            return Err(ScratchError::Source(io::Error::new(
                io::ErrorKind::NotADirectory,
                "not a directory",
            )));
        }
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let root = runner_dir()
            .map_err(ScratchError::Setup)?
            .join(format!("bot-{n}"));
        fs::create_dir(&root).map_err(ScratchError::Setup)?;
        let mut scratch = Scratch {
            root,
            mounted: false,
            copied: 0,
        };
        if mount_tmpfs {
            let options = format!("size={},nr_inodes={},mode=0700", quota.bytes, quota.files);
            mount(
                Some("tmpfs"),
                &scratch.root,
                Some("tmpfs"),
                MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
                Some(options.as_str()),
            )
            .map_err(|e| ScratchError::Setup(io::Error::from_raw_os_error(e as i32)))?;
            scratch.mounted = true;
        }
        fs::set_permissions(&scratch.root, fs::Permissions::from_mode(0o700))
            .map_err(ScratchError::Setup)?;
        for dir in [scratch.work(), scratch.tmp(), scratch.shm()] {
            fs::create_dir(&dir).map_err(ScratchError::Setup)?;
        }
        // Without a tmpfs the byte quota is enforced on the copy only.
        let mut budget = quota.bytes;
        let copied = copy_tree(source, &scratch.work(), &mut budget, never_copy).map_err(|e| {
            if e.kind() == io::ErrorKind::FileTooLarge
                || e.raw_os_error() == Some(nix::libc::ENOSPC)
            {
                ScratchError::TooLarge
            } else {
                ScratchError::Source(e)
            }
        })?;
        if scratch.mounted {
            scratch.copied = copied;
        }
        if let Some(uid) = owner {
            chown_tree(&scratch.root, uid).map_err(ScratchError::Setup)?;
        }
        Ok(scratch)
    }

    /// The area's root on the host.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The copy of the bot's directory (its working directory).
    pub fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    /// Its private temporary directory.
    pub fn tmp(&self) -> PathBuf {
        self.root.join("tmp")
    }

    /// Its private shared-memory directory.
    pub fn shm(&self) -> PathBuf {
        self.root.join("shm")
    }

    /// Whether the area is a tmpfs of its own (the quota holds for everything written).
    pub fn is_mounted(&self) -> bool {
        self.mounted
    }

    /// The memory the copy of the bot's folder holds, in bytes (whole pages; 0 when the
    /// area is not a tmpfs). The runner wrote it, so the kernel charges it to the runner:
    /// the sandbox takes it off the bot's memory limit instead.
    pub fn copied_bytes(&self) -> u64 {
        self.copied
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        remove_area(&self.root, self.mounted);
    }
}

/// Unmounts (if mounted) and removes an area.
fn remove_area(root: &Path, mounted: bool) {
    if mounted {
        let _ = umount2(root, MntFlags::MNT_DETACH);
    }
    let _ = remove_tree(root);
}

/// Copies `from` into the existing directory `to` without recursion: directories, regular
/// files (with their permission bits) and symlinks (as symlinks); other types are skipped.
/// Returns the bytes of the copied files rounded up to whole pages.
fn copy_tree(from: &Path, to: &Path, budget: &mut u64, never_copy: &[PathBuf]) -> io::Result<u64> {
    const PAGE: u64 = 4096;
    let mut pages = 0u64;
    // Canonical, so that entries compare equal to the (canonical) paths never to copy.
    let from = fs::canonicalize(from)?;
    let mut pending = vec![(from, to.to_path_buf())];
    while let Some((src, dst)) = pending.pop() {
        for entry in fs::read_dir(&src)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if never_copy.iter().any(|p| p == &path) {
                continue;
            }
            let target = dst.join(entry.file_name());
            if kind.is_dir() {
                fs::create_dir(&target)?;
                pending.push((path, target));
            } else if kind.is_file() {
                let len = entry.metadata()?.len();
                if len > *budget {
                    return Err(io::Error::new(io::ErrorKind::FileTooLarge, "quota"));
                }
                *budget -= len;
                pages += len.div_ceil(PAGE);
                fs::copy(&path, &target)?;
            } else if kind.is_symlink() {
                std::os::unix::fs::symlink(fs::read_link(&path)?, &target)?;
            }
        }
    }
    Ok(pages * PAGE)
}

/// Gives the tree to `uid` (symlinks themselves, not their targets), without recursion.
fn chown_tree(root: &Path, uid: u32) -> io::Result<()> {
    let mut pending = vec![root.to_path_buf()];
    while let Some(path) = pending.pop() {
        lchown(&path, Some(uid), Some(uid))?;
        if fs::symlink_metadata(&path)?.is_dir() {
            for entry in fs::read_dir(&path)? {
                pending.push(entry?.path());
            }
        }
    }
    Ok(())
}

/// Removes the tree at `root` however deep it is: one directory open at a time, going
/// down by name and back up by `..`, never by path (a 100,000-level tree has paths far
/// longer than the kernel accepts) and never on the stack.
pub fn remove_tree(root: &Path) -> io::Result<()> {
    let dir_flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
    let mut current: OwnedFd = match nix::fcntl::open(root, dir_flags, Mode::empty()) {
        Ok(fd) => fd,
        Err(nix::errno::Errno::ENOENT) => return Ok(()),
        Err(nix::errno::Errno::ENOTDIR | nix::errno::Errno::ELOOP) => {
            return fs::remove_file(root);
        }
        Err(e) => return Err(io::Error::from_raw_os_error(e as i32)),
    };
    let mut depth = 0usize;
    loop {
        let mut descend: Option<OwnedFd> = None;
        let names: Vec<(std::ffi::OsString, bool)> = {
            let dup = current.try_clone()?;
            let mut dir = Dir::from_fd(dup).map_err(|e| io::Error::from_raw_os_error(e as i32))?;
            dir.iter()
                .flatten()
                .filter(|e| {
                    let n = e.file_name().to_bytes();
                    n != b"." && n != b".."
                })
                .map(|e| {
                    use std::os::unix::ffi::OsStrExt;
                    let is_dir = matches!(e.file_type(), Some(nix::dir::Type::Directory));
                    (
                        std::ffi::OsStr::from_bytes(e.file_name().to_bytes()).to_owned(),
                        is_dir,
                    )
                })
                .collect()
        };
        for (name, is_dir) in names {
            if !is_dir {
                let _ = unlinkat(
                    current.as_fd(),
                    name.as_os_str(),
                    UnlinkatFlags::NoRemoveDir,
                );
                continue;
            }
            if unlinkat(current.as_fd(), name.as_os_str(), UnlinkatFlags::RemoveDir).is_ok() {
                continue;
            }
            // Not empty (or not ours to open yet): go down into it.
            let _ = fchmodat(
                current.as_fd(),
                name.as_os_str(),
                Mode::from_bits_truncate(0o700),
                FchmodatFlags::NoFollowSymlink,
            );
            if let Ok(fd) = openat(current.as_fd(), name.as_os_str(), dir_flags, Mode::empty()) {
                descend = Some(fd);
                break;
            }
        }
        match descend {
            Some(fd) => {
                current = fd;
                depth += 1;
            }
            None if depth == 0 => break,
            None => {
                // This directory is empty: back up; the parent's next pass removes it.
                current = openat(current.as_fd(), "..", dir_flags, Mode::empty())
                    .map_err(|e| io::Error::from_raw_os_error(e as i32))?;
                depth -= 1;
            }
        }
    }
    drop(current);
    fs::remove_dir(root).or_else(|e| {
        if e.kind() == io::ErrorKind::NotFound {
            Ok(())
        } else {
            Err(e)
        }
    })
}

/// Removes the scratch areas (and root skeletons) of runners that are no longer running:
/// their mounts are detached first. Returns how many runner directories were removed.
pub fn sweep() -> usize {
    let base = base_dir();
    let Ok(entries) = fs::read_dir(&base) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(runner) = RunnerId::from_tag_prefix(&name) else {
            continue;
        };
        if runner.is_alive() {
            continue;
        }
        let dir = entry.path();
        unmount_under(&dir);
        if remove_tree(&dir).is_ok() {
            removed += 1;
        }
    }
    removed
}

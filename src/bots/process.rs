//! One bot process for one game: spawned in the container of [`super::sandbox`] (a scratch
//! copy of its directory, its own session, namespaces, control group, limits and a scrubbed
//! environment); its stdout read line by line with a length cap, its stderr kept up to a
//! cap; and at the end killed as a whole and cleaned up (docs/sandbox.md).
//!
//! Memory stays bounded whatever the bot prints: a line longer than the cap is dropped as
//! it streams in, at most [`STDOUT_QUEUE`] lines wait to be read (then the bot blocks on
//! its pipe), and stderr beyond its cap is read and thrown away.

use super::sandbox::{self, BotLimits, Sandbox, UidLease, cgroup, scratch};
use nix::sys::wait::{Id, WaitPidFlag, WaitStatus, waitid};
use nix::unistd::Pid;
use std::io;
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Longest accepted stdout line of a bot in bytes, newline excluded (every game's
/// JSON-lines protocol): longer lines are dropped as they stream in.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines read ahead of the player.
pub const STDOUT_QUEUE: usize = 16;
/// The `PATH` a bot gets.
pub const BOT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How a game's log says its bot's process ended when the bot was kept for the next game
/// of its set.
pub const KEPT_STATUS: &str = "kept for the next game of its set";

/// A bot program: its words (program first) and the directory it runs from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotCommand {
    pub argv: Vec<String>,
    pub dir: PathBuf,
}

/// Limits of one bot in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Memory of the whole bot (every process; pages used, not address space), MiB.
    pub memory_mb: u64,
    /// CPU time for the whole game (`RLIMIT_CPU`); `None`: derived from the game's turn
    /// and time limits.
    pub cpu_seconds: Option<u64>,
    /// Processes and threads of the whole bot.
    pub processes: u64,
    /// Largest file the bot may write (`RLIMIT_FSIZE`), MiB.
    pub file_size_mb: u64,
    /// Open files (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// stderr kept per game, bytes.
    pub stderr_bytes: usize,
    /// Longest stdout line, bytes.
    pub line_bytes: usize,
    /// Time between closing stdin and SIGKILL.
    pub grace: Duration,
    /// Size of the scratch area (the copy of the bot directory, /tmp and /dev/shm), bytes.
    pub max_copy_bytes: u64,
    /// Files and directories in the scratch area.
    pub scratch_files: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mb: 1024,
            cpu_seconds: None,
            // A JVM on a many-core machine starts dozens of threads.
            processes: 256,
            file_size_mb: 64,
            open_files: 256,
            stderr_bytes: 1 << 20,
            line_bytes: MAX_LINE_BYTES,
            grace: Duration::from_secs(1),
            max_copy_bytes: 256 << 20,
            scratch_files: 16_384,
        }
    }
}

impl Limits {
    /// The CPU seconds of a game of `turns` turns with `time_limit_ms` per answer: every
    /// answer at the limit plus start-up, at least 10 s.
    pub fn cpu_seconds_for(&self, turns: u16, time_limit_ms: u64, startup_ms: u64) -> u64 {
        self.cpu_seconds.unwrap_or_else(|| {
            let ms = (u64::from(turns) * 2 + 4) * time_limit_ms + startup_ms;
            (ms.div_ceil(1000) + 5).max(10)
        })
    }
}

/// Why a bot could not be started.
#[derive(Debug, Error)]
pub enum SpawnError {
    #[error("empty bot command")]
    EmptyCommand,
    #[error("bot directory {dir}: {source}")]
    Dir { dir: PathBuf, source: io::Error },
    #[error("bot directory {dir} is larger than {limit} bytes")]
    TooLarge { dir: PathBuf, limit: u64 },
    #[error("cannot set up the sandbox: {0}")]
    Sandbox(io::Error),
    #[error("cannot start {program:?}: {source}")]
    Spawn { program: String, source: io::Error },
}

/// What the bot wrote on stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StdoutItem {
    /// A complete line without its newline (and without a trailing `\r`).
    Line(Vec<u8>),
    /// A line longer than the cap; `len` bytes were dropped.
    TooLong { len: usize },
    /// stdout closed (the bot exited or closed it).
    Eof,
    /// Reading failed.
    Error(String),
}

/// The bot's stderr, capped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StderrLog {
    pub kept: Vec<u8>,
    /// Bytes read after the cap and thrown away.
    pub dropped: u64,
}

impl StderrLog {
    /// The log as text to show (controls escaped, see [`shown`]), with a note when some of
    /// it was dropped.
    ///
    /// [`shown`]: crate::bots::shown
    pub fn text(&self) -> String {
        let mut s = crate::bots::shown::shown(&self.kept);
        if self.dropped > 0 {
            if !s.ends_with('\n') && !s.is_empty() {
                s.push('\n');
            }
            s += &format!(
                "[lrs-tourney: stderr limit of {} bytes reached; {} more bytes dropped]\n",
                self.kept.len(),
                self.dropped
            );
        }
        s
    }
}

/// How a bot's process ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExitReport {
    /// `exit N`, `signal SIGKILL`, ... of the process group leader.
    pub status: String,
    /// Whether the leader was still running after the grace period.
    pub killed: bool,
    /// Processes of the bot that were still around after the kill (0 unless something
    /// outside the runner's reach holds them).
    pub survivors: usize,
    pub stderr: StderrLog,
    /// The most memory the whole bot used, where its control group tells.
    pub peak_memory: Option<u64>,
    /// Processes of the bot the kernel killed for going over the memory limit.
    pub oom_kills: u64,
}

/// A running bot.
pub struct BotProcess {
    child: Child,
    pgid: i32,
    uid: Option<UidLease>,
    writer: Option<mpsc::UnboundedSender<Vec<u8>>>,
    writer_task: JoinHandle<()>,
    stdout: mpsc::Receiver<StdoutItem>,
    stdout_task: JoinHandle<()>,
    stderr: Arc<Mutex<StderrLog>>,
    stderr_task: Option<JoinHandle<()>>,
    group: Option<cgroup::Group>,
    scratch: Option<scratch::Scratch>,
    grace: Duration,
    /// In its own PID namespace (see [`sandbox::Prepared::contained`]).
    contained: bool,
    /// Its network namespace from the pool, given back when the bot is gone.
    pooled_net: Option<sandbox::netns::PooledNet>,
    finished: bool,
}

impl std::fmt::Debug for BotProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotProcess")
            .field("pgid", &self.pgid)
            .field("uid", &self.uid)
            .field("scratch", &self.scratch)
            .finish()
    }
}

async fn write_stdin(mut stdin: ChildStdin, mut lines: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(line) = lines.recv().await {
        if stdin.write_all(&line).await.is_err() || stdin.flush().await.is_err() {
            break;
        }
    }
    // Dropping `stdin` closes the bot's standard input.
}

async fn read_stdout(mut out: ChildStdout, tx: mpsc::Sender<StdoutItem>, cap: usize) {
    let mut buf = vec![0u8; 16 * 1024];
    let mut line: Vec<u8> = Vec::new();
    // Bytes of the current line once it is known to be too long (its content is dropped).
    let mut overlong: Option<usize> = None;
    loop {
        let n = match out.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                let _ = tx.send(StdoutItem::Error(e.to_string())).await;
                return;
            }
        };
        let mut rest = &buf[..n];
        while !rest.is_empty() {
            let newline = rest.iter().position(|&b| b == b'\n');
            let part = &rest[..newline.unwrap_or(rest.len())];
            match overlong.as_mut() {
                Some(len) => *len += part.len(),
                None if line.len() + part.len() > cap => {
                    overlong = Some(line.len() + part.len());
                    line = Vec::new();
                }
                None => line.extend_from_slice(part),
            }
            let Some(i) = newline else { break };
            rest = &rest[i + 1..];
            let item = match overlong.take() {
                Some(len) => StdoutItem::TooLong { len },
                None => {
                    let mut l = std::mem::take(&mut line);
                    if l.last() == Some(&b'\r') {
                        l.pop();
                    }
                    StdoutItem::Line(l)
                }
            };
            if tx.send(item).await.is_err() {
                return;
            }
        }
    }
    // A last line without a newline still counts.
    if let Some(len) = overlong {
        let _ = tx.send(StdoutItem::TooLong { len }).await;
    } else if !line.is_empty() {
        let _ = tx.send(StdoutItem::Line(line)).await;
    }
    let _ = tx.send(StdoutItem::Eof).await;
}

async fn read_stderr(mut err: ChildStderr, log: Arc<Mutex<StderrLog>>, cap: usize) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match err.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        let full = {
            let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
            let room = cap.saturating_sub(log.kept.len()).min(n);
            log.kept.extend_from_slice(&buf[..room]);
            log.dropped += (n - room) as u64;
            room < n
        };
        if full {
            // Past the cap: keep draining (so a chatty bot does not block forever) but
            // slowly, so that a flood costs the runner little CPU.
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
}

/// Whether `pid` (our child) has exited, without reaping it (so its pid, which is also the
/// process group id, cannot be reused before the group is killed).
fn exited_unreaped(pid: i32) -> bool {
    loop {
        match waitid(
            Id::Pid(Pid::from_raw(pid)),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT,
        ) {
            Ok(WaitStatus::StillAlive) => return false,
            Ok(_) => return true,
            Err(nix::errno::Errno::EINTR) => continue,
            // ECHILD: already reaped.
            Err(_) => return true,
        }
    }
}

/// Ends a contained bot whose keeper is `keeper`: SIGKILL to the namespace's init (the
/// kernel then kills every process in the namespace, and the keeper, still alive, reaps
/// init and exits the way the bot did); the keeper itself only if that does not end it.
/// Killing the keeper first would leave init's zombie to the machine's PID 1.
fn end_namespace(keeper: i32) {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let children = std::fs::read_to_string(format!("/proc/{keeper}/task/{keeper}/children"))
        .unwrap_or_default();
    for pid in children
        .split_whitespace()
        .filter_map(|p| p.parse::<i32>().ok())
    {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(1);
    let mut poll = Duration::from_micros(200);
    while !exited_unreaped(keeper) && std::time::Instant::now() < deadline {
        std::thread::sleep(poll);
        poll = (poll * 2).min(Duration::from_millis(5));
    }
    if !exited_unreaped(keeper) {
        let _ = kill(Pid::from_raw(keeper), Signal::SIGKILL);
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(code) = status.code() {
        format!("exit {code}")
    } else if let Some(sig) = status.signal() {
        match nix::sys::signal::Signal::try_from(sig) {
            Ok(s) => format!("signal {}", s.as_str()),
            Err(_) => format!("signal {sig}"),
        }
    } else {
        "unknown".to_string()
    }
}

fn prepare(
    command: &BotCommand,
    limits: &Limits,
    cpu_seconds: u64,
    sandbox: &Sandbox,
    uid: Option<&UidLease>,
    netns: Option<OwnedFd>,
) -> Result<sandbox::Prepared, SpawnError> {
    prepare_for(
        command,
        limits,
        cpu_seconds,
        sandbox,
        uid.map(UidLease::uid),
        netns,
    )
}

/// The container of one bot (`owner`: the uid it will run as).
fn prepare_for(
    command: &BotCommand,
    limits: &Limits,
    cpu_seconds: u64,
    sandbox: &Sandbox,
    owner: Option<u32>,
    netns: Option<OwnedFd>,
) -> Result<sandbox::Prepared, SpawnError> {
    let bot_limits = BotLimits {
        memory: limits.memory_mb << 20,
        cpu_seconds,
        tasks: limits.processes,
        file_size: limits.file_size_mb << 20,
        open_files: limits.open_files,
        scratch: scratch::Quota {
            bytes: limits.max_copy_bytes,
            files: limits.scratch_files,
        },
    };
    sandbox
        .prepare(&command.dir, bot_limits, owner, netns)
        .map_err(|e| match e {
            sandbox::PrepareError::Scratch(scratch::ScratchError::Source(source)) => {
                SpawnError::Dir {
                    dir: command.dir.clone(),
                    source,
                }
            }
            sandbox::PrepareError::Scratch(scratch::ScratchError::TooLarge) => {
                SpawnError::TooLarge {
                    dir: command.dir.clone(),
                    limit: limits.max_copy_bytes,
                }
            }
            sandbox::PrepareError::Scratch(scratch::ScratchError::Setup(e))
            | sandbox::PrepareError::Setup(e) => SpawnError::Sandbox(e),
        })
}

impl BotProcess {
    /// Starts `command` in a fresh container (see [`super::sandbox`]). `cpu_seconds` is the
    /// CPU budget of the game (see [`Limits::cpu_seconds_for`]). Needs a tokio runtime;
    /// copies the bot directory on the calling thread (see [`BotProcess::spawn_async`]).
    pub fn spawn(
        command: &BotCommand,
        limits: &Limits,
        cpu_seconds: u64,
        sandbox: &Sandbox,
    ) -> Result<BotProcess, SpawnError> {
        Self::spawn_with_net(command, limits, cpu_seconds, sandbox, None)
    }

    /// Like [`BotProcess::spawn`], entering the prepared network namespace `netns` (a
    /// TCP client's, holding its gateway).
    pub fn spawn_with_net(
        command: &BotCommand,
        limits: &Limits,
        cpu_seconds: u64,
        sandbox: &Sandbox,
        netns: Option<OwnedFd>,
    ) -> Result<BotProcess, SpawnError> {
        let uid = Self::lease(command, sandbox)?;
        let prepared = prepare(command, limits, cpu_seconds, sandbox, uid.as_ref(), netns)?;
        let (c, l) = (command.clone(), limits.clone());
        forker::fork(move || Self::spawn_in(&c, &l, uid, prepared))
    }

    /// Like [`BotProcess::spawn`], preparing the container (copying the bot directory) on a
    /// blocking thread.
    pub async fn spawn_async(
        command: &BotCommand,
        limits: &Limits,
        cpu_seconds: u64,
        sandbox: &Sandbox,
    ) -> Result<BotProcess, SpawnError> {
        let (c, l, s) = (command.clone(), limits.clone(), sandbox.clone());
        // Copying the folder, mounting, and the fork-exec (which waits for the container
        // to be built) all block: on a blocking thread, bots of a game start in parallel
        // and the runtime's thread keeps timing the others.
        tokio::task::spawn_blocking(move || {
            let uid = Self::lease(&c, &s)?;
            let owner = uid.as_ref().map(UidLease::uid);
            let prepared = prepare_for(&c, &l, cpu_seconds, &s, owner, None)?;
            forker::fork(move || Self::spawn_in(&c, &l, uid, prepared))
        })
        .await
        .map_err(|e| SpawnError::Sandbox(io::Error::other(e.to_string())))?
    }

    fn lease(command: &BotCommand, sandbox: &Sandbox) -> Result<Option<UidLease>, SpawnError> {
        if command.argv.is_empty() {
            return Err(SpawnError::EmptyCommand);
        }
        if !sandbox.uses_separate_uid() {
            return Ok(None);
        }
        sandbox::lease_uid()
            .map(Some)
            .ok_or_else(|| SpawnError::Sandbox(io::Error::other("no free uid for the bot")))
    }

    fn spawn_in(
        command: &BotCommand,
        limits: &Limits,
        uid: Option<UidLease>,
        prepared: sandbox::Prepared,
    ) -> Result<BotProcess, SpawnError> {
        let program = command.argv.first().ok_or(SpawnError::EmptyCommand)?;
        sandbox::ignore_sigpipe();
        let sandbox::Prepared {
            child: mut setup,
            group,
            scratch,
            home,
            tmpdir,
            contained,
            pooled_net,
        } = prepared;
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(&command.argv[1..])
            .current_dir(scratch.work())
            .env_clear()
            .env("PATH", BOT_PATH)
            .env("HOME", &home)
            .env("TMPDIR", &tmpdir)
            .env("LANG", "C.UTF-8")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true);
        // SAFETY: `enter` runs in the forked child only, before `exec`.
        unsafe {
            cmd.pre_exec(move || setup.enter());
        }
        // A fork elsewhere in this process (another bot starting) can briefly hold the
        // write end of a freshly copied executable open, and exec then fails with ETXTBSY
        // ("Text file busy"). That is transient: try again a few times before giving up.
        let mut attempt = 0;
        let mut child = loop {
            match cmd.spawn() {
                Ok(child) => break child,
                Err(e) if e.raw_os_error() == Some(nix::libc::ETXTBSY) && attempt < 20 => {
                    attempt += 1;
                    std::thread::sleep(std::time::Duration::from_millis(5 * attempt));
                }
                Err(source) => {
                    return Err(SpawnError::Spawn {
                        program: program.clone(),
                        source,
                    });
                }
            }
        };
        drop(cmd);
        let pgid = child.id().map_or(0, |id| id as i32);
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (writer, lines) = mpsc::unbounded_channel();
        let writer_task = tokio::spawn(write_stdin(stdin, lines));
        let (tx, rx) = mpsc::channel(STDOUT_QUEUE);
        let stdout_task = tokio::spawn(read_stdout(stdout, tx, limits.line_bytes));
        let stderr = Arc::new(Mutex::new(StderrLog::default()));
        let stderr_task = tokio::spawn(read_stderr(
            stderr_pipe,
            stderr.clone(),
            limits.stderr_bytes,
        ));
        Ok(BotProcess {
            child,
            pgid,
            uid,
            group,
            writer: Some(writer),
            writer_task,
            stdout: rx,
            stdout_task,
            stderr,
            stderr_task: Some(stderr_task),
            scratch: Some(scratch),
            grace: limits.grace,
            contained,
            pooled_net,
            finished: false,
        })
    }

    /// The process group id (= the leader's pid).
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// The uid the bot runs as, when it has its own.
    pub fn uid(&self) -> Option<u32> {
        self.uid.as_ref().map(UidLease::uid)
    }

    /// The bot's directory copy, as the host sees it.
    pub fn scratch_path(&self) -> Option<PathBuf> {
        self.scratch.as_ref().map(scratch::Scratch::work)
    }

    /// Queues `line` (newline included) for the bot's stdin; false once stdin is closed.
    pub fn send(&self, line: impl Into<Vec<u8>>) -> bool {
        self.writer
            .as_ref()
            .is_some_and(|w| w.send(line.into()).is_ok())
    }

    /// The next stdout item (waits). `None` once the reader is gone.
    pub async fn next_item(&mut self) -> Option<StdoutItem> {
        self.stdout.recv().await
    }

    /// A stdout item that is already there.
    pub fn try_next_item(&mut self) -> Option<StdoutItem> {
        self.stdout.try_recv().ok()
    }

    /// Whether the process group leader has exited.
    pub fn has_exited(&self) -> bool {
        exited_unreaped(self.pgid)
    }

    /// Sends `farewell` (e.g. `game_over`) and leaves the bot running for its next game:
    /// what it wrote to stderr so far goes with the report, and its stderr log starts
    /// afresh (its cap is per game).
    pub fn farewell_and_keep(&self, farewell: Option<Vec<u8>>) -> ExitReport {
        if let Some(line) = farewell {
            self.send(line);
        }
        let stderr = std::mem::take(&mut *self.stderr.lock().unwrap_or_else(|e| e.into_inner()));
        ExitReport {
            status: KEPT_STATUS.to_string(),
            stderr,
            ..ExitReport::default()
        }
    }

    /// Throws away what the bot printed on stdout since it was last read (between two
    /// games of a set: it answers nothing). Stops at the end of stdout.
    pub fn drain_stdout(&mut self) {
        while let Some(item) = self.try_next_item() {
            if matches!(item, StdoutItem::Eof | StdoutItem::Error(_)) {
                return;
            }
        }
    }

    /// A copy of the stderr kept so far.
    pub fn stderr_so_far(&self) -> StderrLog {
        self.stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Ends the bot: queues `farewell` (e.g. `game_over`), closes stdin, waits up to the
    /// grace period for the leader to exit, SIGKILLs the whole process group (and every
    /// process of its uid), reaps, collects stderr and removes the scratch copy.
    pub async fn finish(mut self, farewell: Option<Vec<u8>>) -> ExitReport {
        if let Some(line) = farewell {
            self.send(line);
        }
        self.writer = None;
        let deadline = Instant::now() + self.grace;
        let mut exited = self.has_exited();
        let mut poll = Duration::from_millis(1);
        while !exited && Instant::now() < deadline {
            tokio::time::sleep(poll).await;
            poll = (poll * 2).min(Duration::from_millis(10));
            exited = self.has_exited();
        }
        let uid = self.uid();
        let (pgid, contained) = (self.pgid, self.contained);
        let group = self.group.take();
        // Killing is blocking work (a control group's processes, /proc scans): off the
        // runtime's thread, so that the bots of a game end in parallel.
        let (group, survivors) = tokio::task::spawn_blocking(move || {
            if contained {
                end_namespace(pgid);
                if let Some(g) = &group {
                    g.kill_all();
                }
                return (group, 0);
            }
            sandbox::kill_bot(pgid, uid);
            if let Some(g) = &group {
                g.kill_all();
            }
            // Orphans of the bot: killed above; reap the ones that became our children.
            let mut survivors = 0;
            let reap_deadline = std::time::Instant::now() + Duration::from_secs(2);
            loop {
                if exited_unreaped(pgid) {
                    survivors = sandbox::reap_bot(pgid, uid, pgid);
                    if survivors == 0 || std::time::Instant::now() > reap_deadline {
                        break;
                    }
                }
                if std::time::Instant::now() > reap_deadline {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
                sandbox::kill_bot(pgid, uid);
            }
            (group, survivors)
        })
        .await
        .unwrap_or((None, 0));
        let status = match tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await {
            Ok(Ok(status)) => describe_status(status),
            Ok(Err(e)) => format!("unknown ({e})"),
            Err(_) => "did not die after SIGKILL".to_string(),
        };
        self.writer_task.abort();
        self.stdout_task.abort();
        if let Some(task) = self.stderr_task.take() {
            // Every writer is dead, so the pipe is at its end unless something escaped.
            let abort = task.abort_handle();
            if tokio::time::timeout(Duration::from_millis(500), task)
                .await
                .is_err()
            {
                abort.abort();
            }
        }
        let stderr = self.stderr_so_far();
        let peak_memory = group.as_ref().and_then(cgroup::Group::peak_memory);
        let oom_kills = group.as_ref().map_or(0, cgroup::Group::oom_kills);
        let survivors = survivors + group.as_ref().map_or(0, |g| g.pids().len());
        // Every process of the bot is gone (its control group is empty): its network
        // namespace can serve another bot.
        if let Some(net) = self.pooled_net.take()
            && group.is_some()
            && survivors == 0
        {
            net.give_back();
        }
        let scratch = self.scratch.take();
        let _ = tokio::task::spawn_blocking(move || {
            drop(group);
            drop(scratch);
        })
        .await;
        self.finished = true;
        ExitReport {
            status,
            killed: !exited,
            survivors,
            stderr,
            peak_memory,
            oom_kills,
        }
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        // Abandoned mid-game: kill everything now; the leader is reaped by tokio.
        let uid = self.uid();
        if self.contained {
            end_namespace(self.pgid);
        }
        sandbox::kill_bot(self.pgid, uid);
        if let Some(group) = &self.group {
            group.kill_all();
        }
        let pgid = self.pgid;
        if !self.contained
            && sandbox::reap_bot(pgid, uid, pgid) > 0
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            // Reap the orphans once they are dead (the uid lease goes with this task, so
            // the uid is not handed out again meanwhile).
            let lease = self.uid.take();
            runtime.spawn(async move {
                let deadline = Instant::now() + Duration::from_secs(2);
                while sandbox::reap_bot(pgid, uid, pgid) > 0 && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                drop(lease);
            });
        }
        let _ = self.child.start_kill();
        let _ = self.child.try_wait();
        self.writer_task.abort();
        self.stdout_task.abort();
        if let Some(t) = self.stderr_task.take() {
            t.abort();
        }
        // `scratch` and the uid lease are released by their own drops.
    }
}

/// The threads every bot is forked from.
///
/// A bot's keeper is set to die with its parent (`PR_SET_PDEATHSIG`), so that a runner
/// killed with SIGKILL leaves no bot behind. The kernel sends that signal when the *thread*
/// that forked the keeper exits, not the process: forked from one of tokio's blocking
/// threads, which are retired after 10 s idle, a bot was killed 10 s into a game whenever
/// that thread had nothing else to do. These threads live as long as the process.
mod forker {
    use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
    use std::sync::{Arc, Mutex, OnceLock};

    type Job = Box<dyn FnOnce() + Send>;

    fn jobs() -> &'static Mutex<Sender<Job>> {
        static JOBS: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
        JOBS.get_or_init(|| {
            let (tx, rx) = channel::<Job>();
            let rx = Arc::new(Mutex::new(rx));
            // Bots of a game start in parallel: as many forking threads as CPUs.
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get().max(2));
            for i in 0..threads {
                let rx = Arc::clone(&rx);
                std::thread::Builder::new()
                    .name(format!("bot-forker-{i}"))
                    .spawn(move || serve(&rx))
                    .expect("start a bot forking thread");
            }
            Mutex::new(tx)
        })
    }

    fn serve(rx: &Mutex<Receiver<Job>>) {
        loop {
            let job = match rx.lock() {
                Ok(rx) => rx.recv(),
                Err(poisoned) => poisoned.into_inner().recv(),
            };
            match job {
                Ok(job) => job(),
                Err(_) => return,
            }
        }
    }

    /// Runs `spawn` (which forks) on a forking thread, inside the caller's tokio runtime,
    /// and returns its result.
    pub(super) fn fork<T: Send + 'static>(spawn: impl FnOnce() -> T + Send + 'static) -> T {
        let runtime = tokio::runtime::Handle::current();
        let (tx, rx) = sync_channel(1);
        let job: Job = Box::new(move || {
            let _entered = runtime.enter();
            let _ = tx.send(spawn());
        });
        jobs()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(job)
            .expect("the bot forking threads live as long as the process");
        rx.recv().expect("a bot forking thread answers every job")
    }
}

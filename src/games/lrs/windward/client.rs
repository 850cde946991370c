//! Starting and ending a team's Windward client process, on top of
//! [`crate::bots::process`]: `COMMAND <host> <team name> <token>` in a scratch copy of the
//! team's directory, its own process group, the sandbox's limits.
//!
//! The 2012 clients reconnect forever and exit only when they read `exit` on stdin, so
//! [`WindwardClient::finish`] sends `exit`, then (after the grace period) kills the process
//! group. The clients also print a lot on stdout: a task drains it for the whole series
//! (keeping the last lines for diagnostics), so the client never blocks on a full pipe.
//!
//! The client must be able to reach the gateway: the sample clients connect to port 1707 of
//! the host given, so the gateway must listen there, and the [`Sandbox`] passed in must let
//! the process connect to it (no empty network namespace, no Landlock rule forbidding TCP
//! connect to that port). That policy belongs to the sandbox configuration.

use crate::bots::process::{BotCommand, BotProcess, ExitReport, Limits, SpawnError, StdoutItem};
use crate::bots::sandbox::Sandbox;
use std::collections::VecDeque;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// The line that makes a 2012 client exit.
pub const EXIT_LINE: &[u8] = b"exit\n";
/// Lines of the client's stdout kept for diagnostics.
pub const STDOUT_TAIL: usize = 50;

/// A running Windward client process. Dropping it ends the client in the background as
/// [`WindwardClient::finish`] would.
#[derive(Debug)]
pub struct WindwardClient {
    pgid: i32,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<(ExitReport, Vec<String>)>,
}

/// Starts `command` with the arguments the 2012 clients expect: `<host> <team name>
/// <token>` (the token is a mere placeholder when the seat is bound to a private endpoint;
/// see [`crate::bots::sandbox::netns`]). `cpu_seconds` is the CPU budget of the whole series;
/// `netns` the client's private network namespace.
#[allow(clippy::too_many_arguments)]
pub fn spawn_windward_client(
    command: &BotCommand,
    host: &str,
    team: &str,
    token: Option<&str>,
    limits: &Limits,
    cpu_seconds: u64,
    sandbox: &Sandbox,
    netns: Option<std::os::fd::OwnedFd>,
) -> Result<WindwardClient, SpawnError> {
    let mut argv = command.argv.clone();
    argv.extend([host, team].map(str::to_owned));
    argv.extend(token.map(str::to_owned));
    let command = BotCommand {
        argv,
        dir: command.dir.clone(),
    };
    let process = BotProcess::spawn_with_net(&command, limits, cpu_seconds, sandbox, netns)?;
    let pgid = process.pgid();
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(drain_until_stopped(process, stopped));
    Ok(WindwardClient {
        pgid,
        stop: Some(stop),
        task,
    })
}

async fn drain_until_stopped(
    mut process: BotProcess,
    mut stopped: oneshot::Receiver<()>,
) -> (ExitReport, Vec<String>) {
    let mut tail: VecDeque<String> = VecDeque::new();
    let mut open = true;
    while open {
        tokio::select! {
            _ = &mut stopped => break,
            item = process.next_item() => match item {
                Some(StdoutItem::Line(line)) => {
                    if tail.len() == STDOUT_TAIL {
                        tail.pop_front();
                    }
                    tail.push_back(crate::bots::shown::shown(&line));
                }
                Some(StdoutItem::TooLong { .. }) => {}
                Some(StdoutItem::Eof | StdoutItem::Error(_)) | None => open = false,
            },
        }
    }
    if !open {
        // stdout is closed: nothing more to drain until we are told to stop.
        let _ = stopped.await;
    }
    let report = process.finish(Some(EXIT_LINE.to_vec())).await;
    (report, tail.into())
}

impl WindwardClient {
    /// The client's process group id.
    pub fn pgid(&self) -> i32 {
        self.pgid
    }

    /// Ends the client at the end of the series: sends `exit`, waits the grace period, kills
    /// the process group. Returns how it ended and the last lines of its stdout.
    pub async fn finish(mut self) -> (ExitReport, Vec<String>) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match (&mut self.task).await {
            Ok(result) => result,
            Err(e) => (
                ExitReport {
                    status: format!("unknown (client task failed: {e})"),
                    killed: false,
                    ..ExitReport::default()
                },
                Vec::new(),
            ),
        }
    }
}

//! Landlock, as defence in depth under the mount namespace (and the main file-system
//! protection where there is none): system directories readable, the bot's own scratch
//! area writable, nothing else; no TCP bind, TCP connect only to a TCP client's
//! gateway port; no signals or abstract sockets outside the bot (where the kernel's
//! Landlock knows them). Built with the `landlock` crate in best-effort mode, so an older
//! kernel enforces what it can and [`probe`] reports how much.

use landlock::{
    ABI, Access, AccessFs, AccessNet, NetPort, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetError, RulesetStatus, Scope,
};
use std::io;
use std::path::PathBuf;

/// The newest Landlock ABI this program asks for (best effort below it).
const WANTED: ABI = ABI::V6;

/// The rules of one bot, as paths it sees.
#[derive(Debug, Clone, Default)]
pub struct LandlockPlan {
    /// Read and execute beneath.
    pub read_exec: Vec<PathBuf>,
    /// Read only beneath (pseudo file systems).
    pub read: Vec<PathBuf>,
    /// Device files read and written.
    pub rw_files: Vec<PathBuf>,
    /// Everything beneath (the scratch area).
    pub full: Vec<PathBuf>,
    /// TCP ports the bot may connect to.
    pub connect_ports: Vec<u16>,
}

impl LandlockPlan {
    fn ruleset(&self) -> Result<RulesetCreated, RulesetError> {
        let read = AccessFs::from_read(WANTED);
        let read_exec = read | AccessFs::Execute;
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(WANTED))?
            .handle_access(AccessNet::from_all(WANTED))?
            .scope(Scope::from_all(WANTED))?
            .create()?;
        let rules = [
            (&self.read_exec, read_exec),
            (&self.read, read),
            (
                &self.rw_files,
                AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
            ),
            (&self.full, AccessFs::from_all(WANTED)),
        ];
        for (paths, access) in rules {
            for path in paths {
                // A path this machine lacks is no hole: skip it.
                let Ok(fd) = PathFd::new(path) else { continue };
                let is_dir = path.is_dir();
                let access = if is_dir {
                    access
                } else {
                    access & AccessFs::from_file(WANTED)
                };
                ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
            }
        }
        for &port in &self.connect_ports {
            ruleset = ruleset.add_rule(NetPort::new(port, AccessNet::ConnectTcp))?;
        }
        Ok(ruleset)
    }

    /// Restricts the calling process (and what it starts) to the plan.
    pub fn restrict_self(self) -> io::Result<()> {
        self.ruleset()
            .and_then(RulesetCreated::restrict_self)
            .map(drop)
            .map_err(|e| io::Error::other(format!("Landlock: {e}")))
    }
}

/// How much of Landlock this kernel enforces, tried in a forked child.
pub fn probe() -> Result<String, String> {
    let plan = LandlockPlan {
        read: vec![PathBuf::from("/")],
        ..LandlockPlan::default()
    };
    let code =
        super::probe_code(
            move || match plan.ruleset().and_then(RulesetCreated::restrict_self) {
                Ok(status) => match status.ruleset {
                    RulesetStatus::FullyEnforced => 0,
                    RulesetStatus::PartiallyEnforced => 1,
                    _ => 2,
                },
                Err(_) => 3,
            },
        );
    match code {
        Some(0) => {
            Ok("fully enforced (file system, TCP, signal and abstract-socket scoping)".into())
        }
        Some(1) => {
            Ok("partly enforced: this kernel's Landlock lacks some of the rights asked for".into())
        }
        Some(2) => Err("the kernel has no usable Landlock (not built in or not enabled)".into()),
        _ => Err("Landlock is present but could not be enforced".into()),
    }
}

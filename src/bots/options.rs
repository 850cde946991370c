//! How an external bot of any game is run: its limits, its sandbox and the time it has to
//! start.

use super::process::Limits;
use super::sandbox::Sandbox;

/// How a bot program is run (every game and protocol: JSON lines, and the clients of
/// series protocols).
#[derive(Debug, Clone)]
pub struct JsonlOptions {
    pub limits: Limits,
    pub sandbox: Sandbox,
    /// Extra time for the first answer of a game, while the program starts.
    pub startup_ms: u64,
}

impl Default for JsonlOptions {
    fn default() -> JsonlOptions {
        JsonlOptions {
            limits: Limits::default(),
            sandbox: Sandbox::default(),
            startup_ms: 2000,
        }
    }
}

impl JsonlOptions {
    /// The options of a tournament's external bots: its memory limit and start-up
    /// allowance, every other limit as default, and its files hidden from the bots
    /// ([`crate::tourney::model::Tournament::contest_paths`]).
    pub fn for_tournament(t: &crate::tourney::model::Tournament) -> JsonlOptions {
        JsonlOptions {
            limits: Limits {
                memory_mb: t.limits.memory_mb,
                ..Limits::default()
            },
            startup_ms: t.limits.start_limit_ms,
            ..JsonlOptions::default()
        }
        .hiding(&t.contest_paths())
    }

    /// These options with `paths` (files or folders of the contest) hidden from the bots
    /// (see [`Sandbox::hiding`]).
    pub fn hiding(mut self, paths: &[std::path::PathBuf]) -> JsonlOptions {
        self.sandbox = self.sandbox.hiding(paths);
        self
    }
}

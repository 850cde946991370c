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
    /// allowance, every other limit as default.
    pub fn for_tournament(limits: &crate::tourney::model::Limits) -> JsonlOptions {
        JsonlOptions {
            limits: Limits {
                memory_mb: limits.memory_mb,
                ..Limits::default()
            },
            startup_ms: limits.start_limit_ms,
            ..JsonlOptions::default()
        }
    }
}

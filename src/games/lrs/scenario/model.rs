//! Defines [`Scenario`]: a fully checked scenario file, ready to run.
//!
//! Parsing turns the TOML text into this once, so the runner never meets an unknown robot
//! name, a bad card or an off-board robot: every such problem was already reported with its
//! place in the file (the ripgrep "low args -> high args" pattern).

use crate::games::lrs::engine::{Board, Direction, Pos, Robot, Scripted, Seat};
use std::sync::Arc;

/// A checked scenario (docs/scenarios.md).
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The file name used in messages.
    pub file: String,
    pub board: Arc<Board>,
    /// The number of the first turn played (R11.3 repair turns depend on it).
    pub first_turn: u16,
    /// The game seed (fixed 0 unless the file says `seed = N`).
    pub seed: u64,
    /// Robot names by seat.
    pub names: Vec<String>,
    /// Robots by seat, as placed by the file.
    pub robots: Vec<Robot>,
    /// Per turn, one slot per seat: the robot's answer, if the turn names it.
    pub turns: Vec<Vec<Option<Scripted>>>,
    /// Re-entry choices, consumed in order per robot.
    pub reentries: Vec<ReentryChoice>,
}

/// One `[[reentry]]` table: where a robot asks to re-enter and which way it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReentryChoice {
    pub seat: Seat,
    /// The chosen square; `None` takes the first option offered.
    pub pos: Option<Pos>,
    /// The chosen facing; `None` is NORTH.
    pub facing: Option<Direction>,
}

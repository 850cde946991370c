//! Defines [`Status`]: whether a robot of the RoboRally family is on the board, off it until
//! its re-entry, or out of the game.

use serde::{Deserialize, Serialize};

/// Whether a robot is on the board (Last Robot Standing's R2.1, RoboRally's RR2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Status {
    Active,
    /// Off the board, re-enters next turn (R13; RoboRally's re-entry).
    Destroyed,
    /// No lives left, out of the game (R10.2).
    Dead,
}

impl Status {
    /// `active`, `destroyed` or `dead`, as in scenario output and replays.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

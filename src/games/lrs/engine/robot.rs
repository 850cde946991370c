//! A player's robot and its state (R2.1).

use super::cards::Move;
use super::geometry::{Direction, Pos};
pub use crate::games::shared::robo::Status;
use serde::{Deserialize, Serialize};

/// A player's 0-based seat in a game (R2.2).
pub type Seat = usize;

/// Lives a robot starts with (R2.1).
pub const START_LIVES: u8 = 3;
/// Damage that destroys a robot (R10.1).
pub const DESTROYING_DAMAGE: u8 = 10;
/// Damage at which the hand is the locked last card (R4.3).
pub const LOCKED_DAMAGE: u8 = 9;
/// Turns a robot stays powered down (R11.4).
pub const POWER_DOWN_TURNS: u8 = 5;
/// Damage a robot has after powering back up (R11.4).
pub const POWER_UP_DAMAGE: u8 = 2;

/// Power state (R2.1, R11.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Power {
    Up,
    /// Played power-down this turn; goes down at the end of the turn.
    Announced,
    /// Powered down with this many turns left (1..=5).
    Down(u8),
}

impl Power {
    pub fn is_down(self) -> bool {
        matches!(self, Power::Down(_))
    }

    /// `up`, `announced` or `down:N`, as in scenario output.
    pub fn label(self) -> String {
        match self {
            Power::Up => "up".to_string(),
            Power::Announced => "announced".to_string(),
            Power::Down(n) => format!("down:{n}"),
        }
    }
}

/// One robot's complete state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Robot {
    /// Current square when active; the last square it stood on otherwise.
    pub pos: Pos,
    pub facing: Direction,
    pub damage: u8,
    pub lives: u8,
    pub score: i32,
    /// Next flag to touch, 1-based; greater than the board's flag count once all are done.
    pub next_flag: u8,
    pub archive: Pos,
    pub power: Power,
    pub last_card: Option<Move>,
    pub status: Status,
}

impl Robot {
    /// A fresh robot on `start`, facing north until its bot chooses (R2.2).
    pub fn new(start: Pos) -> Robot {
        Robot {
            pos: start,
            facing: Direction::North,
            damage: 0,
            lives: START_LIVES,
            score: 0,
            next_flag: 1,
            archive: start,
            power: Power::Up,
            last_card: None,
            status: Status::Active,
        }
    }

    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// Active and not powered down: dealt cards, moves by itself and fires (R4.2, R11.4).
    pub fn is_operational(&self) -> bool {
        self.is_active() && !self.power.is_down()
    }
}

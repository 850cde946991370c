//! Defines [`Walls`] (the walled sides of one square, one bit per direction) and [`Laser`]
//! (a board laser mounted on a square).

use crate::games::shared::grid::Direction;
use serde::{Deserialize, Serialize};

/// What the RoboRally family asks of a direction: its bit in a wall mask.
impl Direction {
    /// Bit used for this side in a [`Walls`] mask.
    pub fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// Walls on the sides of one square, one bit per [`Direction::bit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Walls(pub u8);

impl Walls {
    pub const NONE: Walls = Walls(0);

    pub fn has(self, side: Direction) -> bool {
        self.0 & side.bit() != 0
    }

    pub fn with(self, side: Direction) -> Walls {
        Walls(self.0 | side.bit())
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The sides with a wall, in the order N, E, S, W.
    pub fn sides(self) -> impl Iterator<Item = Direction> {
        Direction::ALL.into_iter().filter(move |d| self.has(*d))
    }
}

/// A board laser mounted on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Laser {
    pub dir: Direction,
    /// What one hit costs (damage, or hit points), 1..=3.
    pub strength: u8,
}

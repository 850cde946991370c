//! Defines the optional stage trace of a game: the robots after each card, belt move, gear
//! turn and laser volley, and every laser beam fired.
//!
//! Replays animate a turn stage by stage from this; the final state of each turn alone
//! cannot show who moved first, who pushed whom or where a beam stopped. The trace is off
//! unless [`Game::enable_trace`] is called, so tournament games pay one branch per stage.

use super::cards::Move;
use super::game::Game;
use super::geometry::{Direction, Pos};
use super::robot::{Robot, Seat};
use serde::Serialize;

/// What a frame shows happening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Stage {
    /// Destroyed robots came back on their chosen squares (R13).
    Reentry,
    /// One robot's card, in priority order (R6), with every push it caused.
    Card { seat: Seat, mv: Move, priority: u16 },
    /// A conveyor sub-step: express belts only, then all belts (R7).
    Belts { express_only: bool },
    /// Gears turned the robots on them (R8).
    Gears,
    /// Board and robot lasers fired (R9), damage applied, robots at 10 destroyed (R10).
    Lasers,
}

/// One laser beam: from its first square to the last square it reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Shot {
    /// The robot that fired, or `None` for a board laser.
    pub shooter: Option<Seat>,
    /// The square the beam starts from: the mount, or the robot's own square.
    pub from: Pos,
    pub dir: Direction,
    /// The last square the beam reached (the target's square on a hit).
    pub to: Pos,
    pub target: Option<Seat>,
    pub strength: u8,
}

/// The robots right after one stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub stage: Stage,
    pub robots: Vec<Robot>,
    pub shots: Vec<Shot>,
}

impl Game {
    /// Starts recording a [`Frame`] after every stage; [`Game::take_frames`] collects them.
    pub fn enable_trace(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// The frames recorded since the last call (empty when tracing is off).
    pub fn take_frames(&mut self) -> Vec<Frame> {
        self.trace.as_mut().map(std::mem::take).unwrap_or_default()
    }

    pub(super) fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    pub(super) fn record(&mut self, stage: Stage, shots: Vec<Shot>) {
        if let Some(trace) = self.trace.as_mut() {
            trace.push(Frame {
                stage,
                robots: self.robots.clone(),
                shots,
            });
        }
    }
}

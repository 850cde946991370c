//! Conveyors (R7) and gears (R8).
//!
//! Each conveyor sub-step is simultaneous: every robot on a moving belt gets a target, then
//! robots that cannot go (wall, a robot that stays, two robots wanting one square, a swap)
//! are held back until nothing changes, and the rest move at once.

use super::game::{Game, MAX_PLAYERS, NO_ROBOT};
use super::geometry::{Direction, Pos};
use super::robot::Seat;

impl Game {
    pub(super) fn conveyor_phase(&mut self) {
        self.conveyor_substep(true);
        self.conveyor_substep(false);
    }

    /// Moves robots on express belts (`express_only`) or on all belts one square (R7.1).
    fn conveyor_substep(&mut self, express_only: bool) {
        let mut moves: [Option<(Pos, Direction)>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut any = false;
        for (seat, robot) in self.robots.iter().enumerate() {
            if !robot.is_active() {
                continue;
            }
            let Some((dir, express)) = self.board.square(robot.pos).tile.conveyor() else {
                continue;
            };
            if express_only && !express {
                continue;
            }
            if self.board.blocked(robot.pos, dir) {
                continue;
            }
            moves[seat] = Some((robot.pos.step(dir), dir));
            any = true;
        }
        if !any {
            return;
        }
        self.hold_back_blocked(&mut moves);
        // Everyone leaves, then everyone arrives: the moves are simultaneous.
        for (seat, m) in moves.iter().enumerate() {
            if m.is_some() {
                let i = self.board.index(self.robots[seat].pos);
                self.occupant[i] = NO_ROBOT;
            }
        }
        for (seat, m) in moves.iter().enumerate() {
            let Some((target, travel)) = *m else { continue };
            // Mark the robot as having left, so relocate does not clear another's square.
            self.robots[seat].pos = target;
            self.place_after_belt(seat, target, travel);
        }
        self.record(super::trace::Stage::Belts { express_only }, Vec::new());
    }

    /// R7.2: removes moves that cannot happen, repeating until nothing changes.
    fn hold_back_blocked(&self, moves: &mut [Option<(Pos, Direction)>; MAX_PLAYERS]) {
        loop {
            let mut hold = [false; MAX_PLAYERS];
            for a in 0..self.robots.len() {
                let Some((target, _)) = moves[a] else {
                    continue;
                };
                if self.board.contains(target)
                    && let Some(b) = self.occupant_at(target)
                {
                    match moves[b] {
                        // The robot ahead stays.
                        None => hold[a] = true,
                        // Two robots would swap squares.
                        Some((tb, _)) if tb == self.robots[a].pos => hold[a] = true,
                        Some(_) => {}
                    }
                }
                let contested = (0..self.robots.len())
                    .any(|b| b != a && matches!(moves[b], Some((tb, _)) if tb == target));
                if contested {
                    hold[a] = true;
                }
            }
            let mut changed = false;
            for (m, h) in moves.iter_mut().zip(hold) {
                if h && m.is_some() {
                    *m = None;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// Finishes a belt move: falls (R7.4) or arrival, turning on curves (R7.5).
    fn place_after_belt(&mut self, seat: Seat, target: Pos, travel: Direction) {
        match self.board.tile(target) {
            None => {
                // Keep the last on-board square as the robot's position.
                self.robots[seat].pos = target.step(travel.opposite());
                self.destroy(seat, super::event::Cause::OffBoard);
            }
            Some(tile) if tile.is_pit() => self.destroy(seat, super::event::Cause::Pit),
            Some(tile) => {
                let i = self.board.index(target);
                self.occupant[i] = seat as u8;
                if let Some((dir, _)) = tile.conveyor() {
                    let robot = &mut self.robots[seat];
                    if dir == travel.right() {
                        robot.facing = robot.facing.right();
                    } else if dir == travel.left() {
                        robot.facing = robot.facing.left();
                    }
                }
            }
        }
    }

    /// R8: gears turn the robots standing on them a quarter turn.
    pub(super) fn gear_phase(&mut self) {
        let mut turned = false;
        for robot in self.robots.iter_mut() {
            if !robot.is_active() {
                continue;
            }
            if let super::board::Tile::Gear(rotation) = self.board.square(robot.pos).tile {
                robot.facing = rotation.apply(robot.facing);
                turned = true;
            }
        }
        if turned {
            self.record(super::trace::Stage::Gears, Vec::new());
        }
    }
}

//! Lasers (R9) and destruction by damage (R10): every beam is traced from one snapshot of
//! positions, damage is applied together, then robots at damage 10 leave the board.

use super::event::{Cause, Event, EventKind};
use super::game::{Game, MAX_PLAYERS};
use super::geometry::{Direction, Pos};
use super::robot::DESTROYING_DAMAGE;
use super::trace::{Shot, Stage};

/// Points per robot hit by a robot laser (R9.3).
pub const HIT_POINTS: i32 = 1;

impl Game {
    pub(super) fn laser_phase(&mut self) {
        let mut damage = [0u8; MAX_PLAYERS];
        // Beams for the stage trace; only filled while tracing.
        let tracing = self.tracing();
        let mut shots = Vec::new();
        // R9.2: board lasers hit the first robot from their own square on.
        for &(mount, laser) in self.board.lasers() {
            let mut at = mount;
            loop {
                if let Some(r) = self.occupant_at(at) {
                    damage[r] = damage[r].saturating_add(laser.strength);
                    if tracing {
                        shots.push(shot(None, mount, laser.dir, at, Some(r), laser.strength));
                    }
                    break;
                }
                let next = at.step(laser.dir);
                if self.board.blocked(at, laser.dir) || !self.board.contains(next) {
                    if tracing {
                        shots.push(shot(None, mount, laser.dir, at, None, laser.strength));
                    }
                    break;
                }
                at = next;
            }
        }
        // R9.3: robot lasers start on the adjacent square.
        for shooter in 0..self.robots.len() {
            let robot = self.robots[shooter];
            if !robot.is_operational() {
                continue;
            }
            let mut at = robot.pos;
            loop {
                let next = at.step(robot.facing);
                if self.board.blocked(at, robot.facing) || !self.board.contains(next) {
                    if tracing {
                        shots.push(shot(Some(shooter), robot.pos, robot.facing, at, None, 1));
                    }
                    break;
                }
                at = next;
                if let Some(victim) = self.occupant_at(at) {
                    if tracing {
                        let s = shot(Some(shooter), robot.pos, robot.facing, at, Some(victim), 1);
                        shots.push(s);
                    }
                    damage[victim] = damage[victim].saturating_add(1);
                    self.robots[shooter].score += HIT_POINTS;
                    let mut e = Event::new(self.turn, EventKind::Hit, shooter);
                    e.victim = Some(victim);
                    e.points = HIT_POINTS;
                    self.events.push(e);
                    break;
                }
            }
        }
        // R9.4 and R10.1.
        for (seat, &dealt) in damage.iter().enumerate().take(self.robots.len()) {
            if dealt == 0 {
                continue;
            }
            let robot = &mut self.robots[seat];
            robot.damage = robot.damage.saturating_add(dealt).min(DESTROYING_DAMAGE);
            if robot.damage >= DESTROYING_DAMAGE {
                self.destroy(seat, Cause::Laser);
            }
        }
        if tracing {
            self.record(Stage::Lasers, shots);
        }
    }
}

fn shot(
    shooter: Option<usize>,
    from: Pos,
    dir: Direction,
    to: Pos,
    target: Option<usize>,
    strength: u8,
) -> Shot {
    Shot {
        shooter,
        from,
        dir,
        to,
        target,
        strength,
    }
}

//! End of turn (R11) and the game-over check with the survivor bonus (R12).

use super::board::Tile;
use super::event::{Event, EventKind};
use super::game::Game;
use super::robot::{POWER_DOWN_TURNS, POWER_UP_DAMAGE, Power, Status};

/// Points for ending a turn on the next flag (R11.1).
pub const FLAG_POINTS: i32 = 5;
/// Repair happens on turns divisible by this (R11.3).
pub const REPAIR_EVERY: u16 = 5;

impl Game {
    /// R11.1–R11.4, in that order for each active robot.
    pub(super) fn end_of_turn(&mut self) {
        let repair_turn = self.turn.is_multiple_of(REPAIR_EVERY);
        let flag_count = self.board.flags().len() as u8;
        for seat in 0..self.robots.len() {
            let robot = &mut self.robots[seat];
            if !robot.is_active() {
                continue;
            }
            let tile = self.board.square(robot.pos).tile;
            if let Tile::Flag(n) = tile
                && n == robot.next_flag
                && n <= flag_count
            {
                robot.score += FLAG_POINTS;
                robot.next_flag += 1;
                let mut e = Event::new(self.turn, EventKind::Flag, seat);
                e.points = FLAG_POINTS;
                e.flag = Some(n);
                self.events.push(e);
            }
            let robot = &mut self.robots[seat];
            if matches!(tile, Tile::Flag(_) | Tile::Repair) {
                robot.archive = robot.pos;
            }
            if repair_turn && tile == Tile::Repair {
                robot.damage = robot.damage.saturating_sub(1);
            }
            robot.power = match robot.power {
                Power::Announced => Power::Down(POWER_DOWN_TURNS),
                Power::Down(n) if n <= 1 => {
                    robot.damage = POWER_UP_DAMAGE;
                    Power::Up
                }
                Power::Down(n) => Power::Down(n - 1),
                Power::Up => Power::Up,
            };
        }
    }

    /// R12: after the turn limit, or when at most one robot is not dead. Games that began
    /// with a single robot (scenarios) end only by the turn limit or their script.
    pub(super) fn game_over_check(&mut self) -> bool {
        let alive = self
            .robots
            .iter()
            .filter(|r| r.status != Status::Dead)
            .count();
        if self.players_at_start >= 2 && alive <= 1 {
            if let Some(seat) = self.robots.iter().position(|r| r.status != Status::Dead) {
                let bonus = self.robots[seat].score;
                self.robots[seat].score += bonus;
                let mut e = Event::new(self.turn, EventKind::SurvivorBonus, seat);
                e.points = bonus;
                self.events.push(e);
            }
            return true;
        }
        self.turn >= self.config.turn_limit
    }
}

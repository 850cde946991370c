//! Re-entry (R13): destroyed robots come back at their archive square, or around it when
//! it is occupied, at the start of each turn.

use super::game::Game;
use super::geometry::Pos;
use super::query::{StartQuery, StartReply};
use super::robot::{Power, Status};
use crate::games::shared::robo::{reentry_options, reentry_square};

impl Game {
    /// Opens re-entry queries for this turn; returns whether any robot is asked.
    /// A robot with no free option is not asked and waits for the next turn (R13.3).
    pub(super) fn open_reentry(&mut self) -> bool {
        self.start_queries.clear();
        for seat in 0..self.robots.len() {
            if self.robots[seat].status != Status::Destroyed {
                continue;
            }
            let options = reentry_options(self.robots[seat].archive, |p| self.is_free(p));
            if !options.is_empty() {
                self.start_queries.push(StartQuery {
                    seat,
                    reentry: true,
                    options,
                });
            }
        }
        !self.start_queries.is_empty()
    }

    fn is_free(&self, p: Pos) -> bool {
        self.board.contains(p)
            && !self.board.square(p).tile.is_pit()
            && self.occupant_at(p).is_none()
    }

    /// Places the re-entering robots in seat order. A square already taken by a lower seat
    /// this phase sends the robot to the first still-free option of its list, or makes it
    /// wait a turn when none is left (R13.3).
    pub(super) fn resolve_reentry(&mut self, queries: &[StartQuery], replies: &[StartReply]) {
        for (q, reply) in queries.iter().zip(replies) {
            let (wanted, facing) = self.checked_choice(q, reply);
            let Some(square) = reentry_square(wanted, &q.options, |p| self.is_free(p)) else {
                continue;
            };
            let robot = &mut self.robots[q.seat];
            robot.status = Status::Active;
            robot.pos = square;
            robot.facing = facing;
            robot.damage = 0;
            robot.power = Power::Up;
            robot.last_card = None;
            let i = self.board.index(square);
            self.occupant[i] = q.seat as u8;
        }
    }
}

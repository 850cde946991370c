//! Movement (R6): cards in descending priority, one step at a time, with push chains,
//! walls, falls, and push / push-kill scoring at the end of the phase.

use super::cards::{Motion, Move};
use super::event::{Cause, Event, EventKind};
use super::game::{Game, MAX_PLAYERS, NO_ROBOT};
use super::geometry::{Direction, Pos};
use super::robot::Seat;
use super::trace::Stage;

/// Points for a push the victim survives, and for one that destroys it (R6.8, R14).
pub const PUSH_POINTS: i32 = 2;
pub const PUSH_KILL_POINTS: i32 = 7;

impl Game {
    pub(super) fn movement_phase(&mut self) {
        let mut order = [(0u16, 0usize); MAX_PLAYERS];
        let mut n = 0;
        for (seat, played) in self.played.iter().enumerate() {
            if let Some(p) = played {
                order[n] = (p.card.priority, seat);
                n += 1;
            }
        }
        // Highest priority first. Dealt priorities are unique (R4.4); the lower seat breaks ties
        // only for callers of `play_cards` that repeat a priority.
        order[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        self.pushes.clear();
        for &(_, seat) in &order[..n] {
            // R6.1: a robot destroyed before its turn does not play its card.
            if !self.robots[seat].is_active() {
                continue;
            }
            let Some(played) = self.played[seat] else {
                continue;
            };
            self.execute_card(seat, played.card.mv);
            if self.tracing() {
                let stage = Stage::Card {
                    seat,
                    mv: played.card.mv,
                    priority: played.card.priority,
                };
                self.record(stage, Vec::new());
            }
        }
        self.score_pushes();
    }

    fn execute_card(&mut self, seat: Seat, mv: Move) {
        match mv.motion(self.robots[seat].facing) {
            Motion::Turn(facing) => self.robots[seat].facing = facing,
            Motion::Steps(dir, steps) => {
                for _ in 0..steps {
                    if !self.step(seat, dir) {
                        break;
                    }
                }
            }
        }
    }

    /// One step of `seat` towards `dir`, pushing any chain ahead (R6.3–R6.7). Returns
    /// whether the robot moved and is still on the board (the rest of the card goes on).
    fn step(&mut self, seat: Seat, dir: Direction) -> bool {
        let from = self.robots[seat].pos;
        if self.board.blocked(from, dir) {
            return false;
        }
        let to = from.step(dir);
        let mut chain = [0usize; MAX_PLAYERS];
        let mut len = 0;
        let mut at = to;
        while self.board.contains(at) {
            let Some(r) = self.occupant_at(at) else { break };
            // R6.5: a chain that would cross a wall does not move at all.
            if self.board.blocked(at, dir) {
                return false;
            }
            chain[len] = r;
            len += 1;
            at = at.step(dir);
        }
        for &r in chain[..len].iter().rev() {
            let dest = self.robots[r].pos.step(dir);
            self.relocate(r, dest);
        }
        for &r in &chain[..len] {
            let killed = !self.robots[r].is_active();
            self.note_push(seat, r, killed);
        }
        self.relocate(seat, to);
        self.robots[seat].is_active()
    }

    /// Moves a robot to `dest`, destroying it there if `dest` is off the board or a pit
    /// (R6.4, R6.6). An off-board robot keeps its last on-board position.
    pub(super) fn relocate(&mut self, seat: Seat, dest: Pos) {
        let from = self.robots[seat].pos;
        let i = self.board.index(from);
        if self.occupant[i] == seat as u8 {
            self.occupant[i] = NO_ROBOT;
        }
        match self.board.tile(dest) {
            None => self.fall(seat, Cause::OffBoard),
            Some(tile) if tile.is_pit() => {
                self.robots[seat].pos = dest;
                self.fall(seat, Cause::Pit);
            }
            Some(_) => {
                self.robots[seat].pos = dest;
                let j = self.board.index(dest);
                self.occupant[j] = seat as u8;
            }
        }
    }

    fn fall(&mut self, seat: Seat, cause: Cause) {
        self.destroy(seat, cause);
    }

    fn note_push(&mut self, mover: Seat, victim: Seat, killed: bool) {
        if let Some(entry) = self
            .pushes
            .iter_mut()
            .find(|(m, v, _)| *m == mover && *v == victim)
        {
            entry.2 |= killed;
        } else {
            self.pushes.push((mover, victim, killed));
        }
    }

    /// R6.8: once per victim per turn, 7 if one of the mover's pushes destroyed it, else 2.
    fn score_pushes(&mut self) {
        for i in 0..self.pushes.len() {
            let (mover, victim, killed) = self.pushes[i];
            let (kind, points) = if killed {
                (EventKind::PushKill, PUSH_KILL_POINTS)
            } else {
                (EventKind::Push, PUSH_POINTS)
            };
            self.robots[mover].score += points;
            let mut e = Event::new(self.turn, kind, mover);
            e.victim = Some(victim);
            e.points = points;
            self.events.push(e);
        }
    }
}

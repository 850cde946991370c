//! One register (RR6 to RR10): the cards by priority with their pushes, fast then slow
//! belts, gears, board lasers, robot lasers, targets and repair.

use super::game::{Game, NO_ROBOT};
use super::{Cause, EventKind, MAX_HP, MAX_SEATS, Power, Seat};
use crate::games::roborally::board::Tile;
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::Motion;

impl Game {
    pub(super) fn run_register(&mut self, reg: usize) {
        self.play_cards(reg);
        self.belts(true);
        self.belts(true);
        self.snapshot("fast belts");
        self.belts(false);
        self.snapshot("slow belts");
        self.gears();
        self.snapshot("gears");
        self.board_lasers();
        self.snapshot("board lasers");
        self.robot_lasers();
        self.snapshot("robot lasers");
        self.targets_and_repair();
        self.snapshot("end");
    }

    /// RR6: every active robot with a card here plays it, highest priority first (a tie,
    /// possible only in scenarios, goes to the lower seat).
    fn play_cards(&mut self, reg: usize) {
        let mut order = [(0u16, 0usize); MAX_SEATS];
        let mut n = 0;
        for (seat, r) in self.robots.iter().enumerate() {
            if let (true, Some(card)) = (r.is_active(), r.registers[reg]) {
                order[n] = (card.priority, seat);
                n += 1;
            }
        }
        order[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, seat) in &order[..n] {
            let r = self.robots[seat];
            let Some(card) = r.registers[reg].filter(|_| r.is_active()) else {
                continue;
            };
            match card.mv.motion(r.facing) {
                Motion::Turn(facing) => self.robots[seat].facing = facing,
                Motion::Steps(dir, steps) => {
                    for _ in 0..steps {
                        if !self.step(seat, dir) {
                            break;
                        }
                    }
                }
            }
            self.snapshot("card");
        }
    }

    /// One step with its push chain (R6.3 to R6.7): `push` events nearest the mover first,
    /// then the falls. Whether the robot moved and is still on the board.
    fn step(&mut self, seat: Seat, dir: Direction) -> bool {
        let from = self.robots[seat].pos;
        if self.board.blocked(from, dir) {
            return false;
        }
        let mut chain = [0usize; MAX_SEATS];
        let mut len = 0;
        let mut at = from.step(dir);
        while let Some(victim) = self.occupant_at(at) {
            if self.board.blocked(at, dir) {
                return false;
            }
            chain[len] = victim;
            len += 1;
            at = at.step(dir);
        }
        for &victim in &chain[..len] {
            self.event(seat, EventKind::Push { victim });
        }
        let mut fell = [None; MAX_SEATS + 1];
        for (k, &r) in chain[..len].iter().enumerate().rev() {
            fell[k] = self.shift(r, dir);
        }
        fell[len] = self.shift(seat, dir);
        for (k, cause) in fell[..=len].iter().enumerate() {
            if let Some(cause) = *cause {
                let who = if k == len { seat } else { chain[k] };
                self.destroy(who, cause);
            }
        }
        self.robots[seat].is_active()
    }

    /// Moves a robot one square towards `dir`; the cause if it fell (it is then still
    /// marked where it was, for [`Game::destroy`]).
    fn shift(&mut self, seat: Seat, dir: Direction) -> Option<Cause> {
        let from = self.robots[seat].pos;
        let to = from.step(dir);
        let i = self.board.index(from);
        if self.occupant[i] == seat as u8 {
            self.occupant[i] = NO_ROBOT;
        }
        match self.board.tile(to) {
            None => Some(Cause::OffBoard),
            Some(Tile::Pit) => {
                self.robots[seat].pos = to;
                Some(Cause::Pit)
            }
            Some(_) => {
                self.robots[seat].pos = to;
                let j = self.board.index(to);
                self.occupant[j] = seat as u8;
                None
            }
        }
    }

    /// RR7: one sub-step of the fast (`fast`) or slow belts, simultaneous (R7.2).
    fn belts(&mut self, fast: bool) {
        let mut moves: [Option<(Pos, Direction)>; MAX_SEATS] = [None; MAX_SEATS];
        let mut any = false;
        for (seat, r) in self.robots.iter().enumerate() {
            if !r.is_active() {
                continue;
            }
            if let Some(Tile::Belt { dir, fast: f }) = self.board.tile(r.pos)
                && f == fast
                && !self.board.blocked(r.pos, dir)
            {
                moves[seat] = Some((r.pos.step(dir), dir));
                any = true;
            }
        }
        if !any {
            return;
        }
        let n = self.robots.len();
        loop {
            let mut hold = [false; MAX_SEATS];
            for a in 0..n {
                let Some((target, _)) = moves[a] else {
                    continue;
                };
                if let Some(b) = self.occupant_at(target) {
                    match moves[b] {
                        None => hold[a] = true,
                        Some((tb, _)) if tb == self.robots[a].pos => hold[a] = true,
                        Some(_) => {}
                    }
                }
                if (0..n).any(|b| b != a && matches!(moves[b], Some((tb, _)) if tb == target)) {
                    hold[a] = true;
                }
            }
            let mut changed = false;
            for (m, h) in moves.iter_mut().zip(hold) {
                if h && m.take().is_some() {
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (seat, m) in moves.iter().enumerate().take(n) {
            if m.is_some() {
                let i = self.board.index(self.robots[seat].pos);
                self.occupant[i] = NO_ROBOT;
            }
        }
        for (seat, m) in moves.into_iter().enumerate().take(n) {
            let Some((target, travel)) = m else {
                continue;
            };
            match self.board.tile(target) {
                None => self.destroy(seat, Cause::OffBoard),
                Some(Tile::Pit) => {
                    self.robots[seat].pos = target;
                    self.destroy(seat, Cause::Pit);
                }
                Some(tile) => {
                    let r = &mut self.robots[seat];
                    r.pos = target;
                    // RR7.3: a quarter turn onto a belt of the same speed turns the robot.
                    if let Tile::Belt { dir, fast: f } = tile
                        && f == fast
                    {
                        if dir == travel.right() {
                            r.facing = r.facing.right();
                        } else if dir == travel.left() {
                            r.facing = r.facing.left();
                        }
                    }
                    let j = self.board.index(target);
                    self.occupant[j] = seat as u8;
                }
            }
        }
    }

    /// RR8.1.
    fn gears(&mut self) {
        for r in &mut self.robots {
            if r.is_active()
                && let Some(Tile::Gear(g)) = self.board.tile(r.pos)
            {
                r.facing = g.apply(r.facing);
            }
        }
    }

    /// RR8.2: every beam traced from the same positions, then the hp lost, then the falls.
    fn board_lasers(&mut self) {
        let mut lost = [0u8; MAX_SEATS];
        let board = self.board.clone();
        for &(mount, laser) in board.lasers() {
            let mut at = mount;
            loop {
                if let Some(r) = self.occupant_at(at) {
                    lost[r] = lost[r].saturating_add(laser.strength);
                    let damage = laser.strength;
                    self.event(r, EventKind::BoardHit { damage });
                    break;
                }
                let next = at.step(laser.dir);
                if board.blocked(at, laser.dir) || !board.contains(next) {
                    break;
                }
                at = next;
            }
        }
        self.take_hp(&lost);
    }

    /// RR8.3: every active robot that is not DOWN fires forward; all beams first.
    fn robot_lasers(&mut self) {
        let mut lost = [0u8; MAX_SEATS];
        for shooter in 0..self.robots.len() {
            let r = self.robots[shooter];
            if !r.is_active() || r.power == Power::Down {
                continue;
            }
            let mut at = r.pos;
            loop {
                let next = at.step(r.facing);
                if self.board.blocked(at, r.facing) || !self.board.contains(next) {
                    break;
                }
                at = next;
                if let Some(victim) = self.occupant_at(at) {
                    lost[victim] = lost[victim].saturating_add(1);
                    self.stats[shooter].hits += 1;
                    self.event(shooter, EventKind::Hit { victim });
                    break;
                }
            }
        }
        self.take_hp(&lost);
    }

    fn take_hp(&mut self, lost: &[u8; MAX_SEATS]) {
        for (seat, &lost) in lost.iter().enumerate().take(self.robots.len()) {
            if lost == 0 {
                continue;
            }
            let r = &mut self.robots[seat];
            r.hp = r.hp.saturating_sub(lost);
            if r.hp == 0 {
                self.destroy(seat, Cause::Laser);
            }
        }
    }

    /// RR9: the next target, then repair.
    fn targets_and_repair(&mut self) {
        for seat in 0..self.robots.len() {
            let r = self.robots[seat];
            if !r.is_active() || r.finished {
                continue;
            }
            if self.board.target(r.checkpoints as usize) != Some(r.pos) {
                continue;
            }
            let r = &mut self.robots[seat];
            if (r.checkpoints as usize) < self.board.flags().len() {
                r.checkpoints += 1;
                r.respawn = r.pos;
                let flag = r.checkpoints;
                self.event(seat, EventKind::Checkpoint { flag });
            } else {
                r.finished = true;
                self.finisher.get_or_insert(seat);
                self.event(seat, EventKind::Finish);
            }
        }
        for seat in 0..self.robots.len() {
            let r = &mut self.robots[seat];
            if !r.is_active() {
                continue;
            }
            if let Some(Tile::Repair(n)) = self.board.tile(r.pos) {
                let hp = n.min(MAX_HP - r.hp);
                if hp > 0 {
                    r.hp += hp;
                    self.event(seat, EventKind::Repair { hp });
                }
            }
        }
    }
}

//! One phase (RN4): chips in turn order (RN8), elements (RN9), lasers (RN10), end of phase
//! (RN11.1).

use super::game::Game;
use super::{Equip, EventKind, MAX_DAMAGE, Move};
use crate::games::roborunner::ship::{Base, RailKind};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::Motion;

/// How one step of a robot's own move ended.
enum Step {
    /// It moved; onto a thruster when `true`.
    Moved(bool),
    Failed,
    /// It left the ship.
    Gone,
}

impl Game {
    pub(super) fn run_phase(&mut self, p: u8) {
        self.phase = p;
        let n = self.robots.len();
        self.entered_tp.clear();
        self.entered_tp.resize(n, false);
        self.moved_own.clear();
        self.moved_own.resize(n, false);
        self.pushes.clear();
        self.finished_before += self.finished_now;
        self.finished_now = 0;
        // RN8: chips in turn order.
        for i in 0..self.order.len() {
            let r = self.order[i];
            let robot = &self.robots[r];
            if !robot.is_active() || robot.rebooting {
                continue;
            }
            if self.works(r, Equip::Clamps) {
                // Clamped: the chip is not executed (nor counted as executed, RN11.2 c).
                self.program[r][p as usize - 1] = None;
                continue;
            }
            if let Some(chip) = self.program[r][p as usize - 1] {
                self.execute(r, chip);
            }
        }
        for r in 0..n {
            if self.moved_own[r] {
                self.robots[r].weight += 1;
            }
        }
        let pushes = std::mem::take(&mut self.pushes);
        for &(pusher, victim, killed) in &pushes {
            self.robots[pusher].weight += match (killed, self.robots[victim].scanner) {
                (false, _) => 10,
                (true, false) => 30,
                (true, true) => 5,
            };
            let kind = if killed {
                EventKind::PushKill { victim }
            } else {
                EventKind::Push { victim }
            };
            self.event(pusher, kind);
        }
        self.pushes = pushes;
        // RN9.
        for sub in 1..=3 {
            self.beams(sub);
        }
        self.arms();
        self.twisters();
        self.transporters();
        self.burns();
        // RN10.
        self.lasers();
        // RN11.1.
        self.end_of_phase();
    }

    /// Whether the option `e` of robot `r` works now: activated for this phase, the robot
    /// real (RN12.2).
    pub(super) fn works(&self, r: usize, e: Equip) -> bool {
        let robot = &self.robots[r];
        robot.option == Some(e) && !robot.virtual_ && self.equipped[r] & (1 << self.phase) != 0
    }

    /// Whether a real, active robot other than `except` stands on `p`.
    fn real_at(&self, p: Pos, except: usize) -> Option<usize> {
        self.robots
            .iter()
            .enumerate()
            .find(|(o, x)| *o != except && x.is_active() && !x.virtual_ && x.pos == p)
            .map(|(o, _)| o)
    }

    /// Puts robot `r` on `to` (its own move, a push, a beam, an arm or a transport).
    fn place(&mut self, r: usize, to: Pos) {
        self.robots[r].pos = to;
        self.entered_tp[r] = matches!(self.ship.tile(to), Some(Base::Transporter(_)));
    }

    /// A robot stopped by a coupling takes its shock (RN8.3); `killer` is credited if the
    /// shock destroys it (a pushed robot's pusher).
    fn shock(&mut self, r: usize, killer: Option<usize>) {
        self.event(r, EventKind::Shock);
        if self.harm(r, 1) {
            self.destroy(r, "shock", killer);
            if let Some(k) = killer {
                self.mark_push_kill(k, r);
            }
        }
    }

    fn mark_push_kill(&mut self, pusher: usize, victim: usize) {
        if let Some(p) = self
            .pushes
            .iter_mut()
            .find(|(a, v, _)| *a == pusher && *v == victim)
        {
            p.2 = true;
        } else {
            self.pushes.push((pusher, victim, true));
        }
    }

    /// One chip; with nitro working (RN12.3) `F`n takes a step more and `B` is followed by
    /// a forward step, a move of its own, even when the back step failed.
    fn execute(&mut self, r: usize, chip: Move) {
        let nitro = self.works(r, Equip::Nitro);
        let facing = self.robots[r].facing;
        match chip.motion(facing) {
            Motion::Turn(d) => self.robots[r].facing = d,
            Motion::Steps(dir, n) if nitro && chip != Move::Back => self.own_move(r, dir, n + 1),
            Motion::Steps(dir, n) => {
                self.own_move(r, dir, n);
                if nitro && self.robots[r].is_active() {
                    self.own_move(r, facing, 1);
                }
            }
        }
    }

    /// A chip's steps (RN8.2-RN8.6): thrusters add a step and lift the robot until the
    /// move ends, when it lands.
    fn own_move(&mut self, r: usize, dir: Direction, steps: u8) {
        let mut left = steps;
        let mut lifted = false;
        while left > 0 {
            left -= 1;
            match self.step(r, dir, lifted) {
                Step::Moved(thruster) => {
                    self.moved_own[r] = true;
                    if thruster {
                        left += 1;
                        lifted = true;
                    }
                }
                Step::Failed => break,
                Step::Gone => return,
            }
        }
        if lifted
            && self.robots[r].is_active()
            && let Some(cause) = self.ship.hole(self.robots[r].pos, self.phase)
        {
            self.destroy(r, cause, None);
        }
    }

    /// The chain of real robots a real robot stepping from `from` towards `dir` would push,
    /// nearest first.
    fn chain(&self, mover: usize, from: Pos, dir: Direction) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut at = from.step(dir);
        while self.ship.contains(at)
            && let Some(o) = self.real_at(at, mover)
        {
            if chain.contains(&o) {
                break;
            }
            chain.push(o);
            at = at.step(dir);
        }
        chain
    }

    /// RN8.4: whether the chain can move one square towards `dir`: it fails at the first
    /// robot clamped (RN12.3; an arm's own robot, `chain[0]` when `arm`, is pushed anyway)
    /// or at a closed rail, where a chain robot at a coupling is shocked (`pusher` credited
    /// if that destroys it).
    fn chain_moves(
        &mut self,
        chain: &[usize],
        dir: Direction,
        pusher: Option<usize>,
        arm: bool,
    ) -> bool {
        for (i, &c) in chain.iter().enumerate() {
            if !(arm && i == 0) && self.works(c, Equip::Clamps) {
                return false;
            }
            let at = self.robots[c].pos;
            if let Some(kind) = self.ship.closed_rail(at, dir, self.phase) {
                if kind == RailKind::Coupling {
                    self.shock(c, pusher);
                }
                return false;
            }
        }
        if let Some(&last) = chain.last() {
            let after = self.robots[last].pos.step(dir);
            if self.damaged(after) {
                return false;
            }
        }
        true
    }

    /// Moves the chain one square; pushed robots entering a hole fall (`pusher` credited).
    fn push_chain(&mut self, chain: &[usize], dir: Direction, pusher: Option<usize>) {
        for &c in chain {
            let to = self.robots[c].pos.step(dir);
            self.place(c, to);
            if let Some(p) = pusher
                && !self.pushes.iter().any(|(a, v, _)| *a == p && *v == c)
            {
                self.pushes.push((p, c, false));
            }
        }
        for &c in chain {
            if let Some(cause) = self.ship.hole(self.robots[c].pos, self.phase) {
                self.destroy(c, cause, pusher);
                if let Some(p) = pusher {
                    self.mark_push_kill(p, c);
                }
            }
        }
    }

    /// One step of `r`'s own move.
    fn step(&mut self, r: usize, dir: Direction, lifted: bool) -> Step {
        let from = self.robots[r].pos;
        if let Some(kind) = self.ship.closed_rail(from, dir, self.phase) {
            if kind == RailKind::Coupling {
                self.shock(r, None);
                if !self.robots[r].is_active() {
                    return Step::Gone;
                }
            }
            return Step::Failed;
        }
        let to = from.step(dir);
        if self.damaged(to) {
            return Step::Failed;
        }
        if !self.robots[r].virtual_ {
            let chain = self.chain(r, from, dir);
            if !chain.is_empty() {
                if !self.chain_moves(&chain, dir, Some(r), false) {
                    return Step::Failed;
                }
                self.push_chain(&chain, dir, Some(r));
            }
        }
        self.place(r, to);
        if !self.ship.contains(to) {
            self.destroy(r, "space", None);
            return Step::Gone;
        }
        if !lifted && let Some(cause) = self.ship.hole(to, self.phase) {
            self.destroy(r, cause, None);
            return Step::Gone;
        }
        Step::Moved(self.ship.tile(to) == Some(Base::Thruster))
    }

    /// RN9.1-RN9.2: beams of sub-step `sub` pull robots one square, all at once.
    fn beams(&mut self, sub: u8) {
        let min_warp = 4 - sub;
        let active_beam = |game: &Game, p: Pos| match game.ship.tile(p) {
            Some(Base::Beam { warp, dir, turning }) if warp >= min_warp => Some((dir, turning)),
            _ => None,
        };
        // (robot, from, to, pull direction)
        let mut pulls: Vec<(usize, Pos, Pos, Direction)> = Vec::new();
        for &r in &self.order {
            let robot = &self.robots[r];
            if !robot.is_active() {
                continue;
            }
            let Some((dir, _)) = active_beam(self, robot.pos) else {
                continue;
            };
            let from = robot.pos;
            let to = from.step(dir);
            if self.ship.closed_rail(from, dir, self.phase).is_some() || self.damaged(to) {
                continue;
            }
            if let Some((back, _)) = active_beam(self, to)
                && back == dir.opposite()
            {
                continue;
            }
            pulls.push((r, from, to, dir));
        }
        if pulls.is_empty() {
            return;
        }
        // Between real robots: drop blocked pulls until none changes.
        loop {
            let real = |g: &Game, r: usize| !g.robots[r].virtual_;
            let mut drop: Vec<usize> = Vec::new();
            for (i, &(r, _, to, _)) in pulls.iter().enumerate() {
                if !real(self, r) {
                    continue;
                }
                let occupied = self.robots.iter().enumerate().any(|(o, x)| {
                    o != r
                        && x.is_active()
                        && !x.virtual_
                        && x.pos == to
                        && !pulls.iter().any(|(q, _, _, _)| *q == o)
                });
                let shared = pulls
                    .iter()
                    .enumerate()
                    .any(|(j, &(q, _, t, _))| j != i && real(self, q) && t == to);
                let swap = pulls.iter().any(|&(q, f, t, _)| {
                    q != r && real(self, q) && f == to && t == self.robots[r].pos
                });
                if occupied || shared || swap {
                    drop.push(i);
                }
            }
            if drop.is_empty() {
                break;
            }
            for i in drop.into_iter().rev() {
                pulls.remove(i);
            }
        }
        for &(r, _, to, dir) in &pulls {
            self.place(r, to);
            if let Some((beam, true)) = active_beam_any(self, to) {
                if beam == dir.right() {
                    self.robots[r].facing = self.robots[r].facing.right();
                } else if beam == dir.left() {
                    self.robots[r].facing = self.robots[r].facing.left();
                }
            }
        }
        for &(r, _, to, _) in &pulls {
            if let Some(cause) = self.ship.hole(to, self.phase) {
                self.destroy(r, cause, None);
            }
        }
    }

    /// RN9.3: docking arms push the robots on their squares away, in turn order.
    fn arms(&mut self) {
        let on_arms: Vec<(usize, Pos, Direction)> = self
            .order
            .iter()
            .filter_map(|&r| {
                let robot = &self.robots[r];
                if !robot.is_active() {
                    return None;
                }
                self.ship
                    .arm(robot.pos)
                    .map(|side| (r, robot.pos, side.opposite()))
            })
            .collect();
        let mut moved = vec![false; self.robots.len()];
        for (r, at, dir) in on_arms {
            if moved[r] || !self.robots[r].is_active() || self.robots[r].pos != at {
                continue;
            }
            let mut chain = vec![r];
            if !self.robots[r].virtual_ {
                chain.extend(self.chain(r, at, dir));
            }
            if self.chain_moves(&chain, dir, None, true) {
                for &c in &chain {
                    moved[c] = true;
                }
                self.push_chain(&chain, dir, None);
            }
        }
    }

    /// RN9.4.
    fn twisters(&mut self) {
        for r in 0..self.robots.len() {
            let robot = &mut self.robots[r];
            if robot.is_active()
                && let Some(Base::Twister(spin)) = self.ship.tile(robot.pos)
            {
                robot.facing = spin.apply(robot.facing);
            }
        }
    }

    /// RN9.5: transporters entered this phase send their robots along the loop, all at
    /// once; squares then holding two real robots make them virtual.
    fn transporters(&mut self) {
        let mut moves: Vec<(usize, Pos, Pos)> = Vec::new();
        for &r in &self.order {
            let robot = &self.robots[r];
            if !robot.is_active() || !self.entered_tp[r] {
                continue;
            }
            if let Some(to) = self.next_tp[self.ship.index(robot.pos)] {
                moves.push((r, robot.pos, to));
            }
        }
        if moves.is_empty() {
            return;
        }
        for &(r, from, to) in &moves {
            let known = self.links.contains(&(from, to));
            if self.alone && !known {
                // RN18.2: the simulation treats an unknown link as a fall.
                self.destroy(r, "space", None);
                continue;
            }
            self.robots[r].pos = to;
            if !known {
                self.links.push((from, to));
            }
            self.event(r, EventKind::Transport { from, to });
        }
        let mut crowded: Vec<usize> = Vec::new();
        for &r in &self.order {
            let robot = &self.robots[r];
            if robot.is_active() && !robot.virtual_ && self.real_at(robot.pos, r).is_some() {
                crowded.push(r);
            }
        }
        for r in crowded {
            self.robots[r].virtual_ = true;
            self.event(r, EventKind::Virtual);
        }
    }

    /// RN9.6.
    fn burns(&mut self) {
        for i in 0..self.order.len() {
            let r = self.order[i];
            let robot = &self.robots[r];
            if robot.is_active() && self.ship.tile(robot.pos) == Some(Base::Thruster) {
                self.event(r, EventKind::Burn);
                if self.harm(r, 1) {
                    self.destroy(r, "burn", None);
                }
            }
        }
    }

    /// Where a beam fired from `from` towards `dir` stops (RN10.1): a real robot other than
    /// `shooter`, damaged hull (an inspection point's number), or nothing.
    fn beam_end(&self, shooter: usize, from: Pos, dir: Direction) -> BeamEnd {
        let mut at = from;
        loop {
            if self.ship.closed_rail(at, dir, self.phase).is_some() {
                return BeamEnd::Nothing;
            }
            at = at.step(dir);
            if !self.ship.contains(at) {
                return BeamEnd::Nothing;
            }
            if let Some(Base::Ip { n, .. }) = self.ship.tile(at)
                && self.hull[n as usize - 1] > 0
            {
                return BeamEnd::Hull(n);
            }
            if let Some(v) = self.real_at(at, shooter) {
                return BeamEnd::Robot(v);
            }
        }
    }

    /// A hit of `shooter` on `victim` for `damage` (RN12.3): shields on either side deal
    /// nothing; repulsors deal it to the shooter instead, as the victim's hit. Pushes the
    /// hits dealing damage, as (hitter, victim, damage), onto `hits`.
    fn hit(&self, shooter: usize, victim: usize, damage: u8, hits: &mut Vec<(usize, usize, u8)>) {
        if self.works(shooter, Equip::Shields) || self.works(victim, Equip::Shields) {
            return;
        }
        if self.works(victim, Equip::Repulsors) {
            hits.push((victim, shooter, damage));
        } else {
            hits.push((shooter, victim, damage));
        }
    }

    /// RN10: one volley from the same positions.
    fn lasers(&mut self) {
        // (hitter, victim, damage) hits dealing damage and (shooter, ip) welds, in turn
        // order, each robot's front beam before its rear one.
        let mut hits: Vec<(usize, usize, u8)> = Vec::new();
        let mut welds: Vec<(usize, u8)> = Vec::new();
        for &r in &self.order {
            let robot = &self.robots[r];
            if !robot.is_active() || robot.virtual_ || robot.rebooting {
                continue;
            }
            let (at, facing) = (robot.pos, robot.facing);
            let front = if self.works(r, Equip::Twin) { 2 } else { 1 };
            match self.beam_end(r, at, facing) {
                BeamEnd::Robot(v) => self.hit(r, v, front, &mut hits),
                BeamEnd::Hull(n) if !robot.scanner => welds.push((r, n)),
                _ => {}
            }
            if self.works(r, Equip::Rear)
                && let BeamEnd::Robot(v) = self.beam_end(r, at, facing.opposite())
            {
                self.hit(r, v, 1, &mut hits);
            }
        }
        let mut struck: Vec<usize> = Vec::new();
        for &(hitter, victim, damage) in &hits {
            self.event(hitter, EventKind::Shot { victim, damage });
            let robot = &mut self.robots[victim];
            robot.damage = (robot.damage + damage).min(MAX_DAMAGE);
            if !struck.contains(&victim) {
                struck.push(victim);
            }
        }
        for &(welder, ip) in &welds {
            let left = &mut self.hull[ip as usize - 1];
            if *left == 0 {
                continue;
            }
            *left -= 1;
            let left = *left;
            self.robots[welder].welds += 1;
            self.robots[welder].weight += 2;
            self.event(welder, EventKind::Weld { ip, left });
        }
        // Shot weights: once per victim per phase; a kill's weight replaces it.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for &(hitter, victim, _) in &hits {
            if !pairs.contains(&(hitter, victim)) {
                pairs.push((hitter, victim));
            }
        }
        let order = self.order.clone();
        for &victim in order.iter().filter(|v| struck.contains(v)) {
            if self.robots[victim].damage >= MAX_DAMAGE {
                let killer = order
                    .iter()
                    .copied()
                    .find(|s| pairs.contains(&(*s, victim)));
                self.destroy(victim, "laser", killer);
                if let Some(k) = killer {
                    self.robots[k].weight += if self.robots[victim].scanner { 20 } else { 35 };
                    pairs.retain(|p| *p != (k, victim));
                }
            }
        }
        for (shooter, _) in pairs {
            self.robots[shooter].weight += 5;
        }
    }

    /// RN11.1: bays closed this phase open; robots on their next inspection point inspect.
    fn end_of_phase(&mut self) {
        let p = self.phase;
        for i in 0..self.order.len() {
            let r = self.order[i];
            let robot = &self.robots[r];
            if robot.is_active()
                && let Some(Base::Bay(closed)) = self.ship.tile(robot.pos)
                && closed & (1 << p) != 0
            {
                self.destroy(r, "bay", None);
            }
        }
        let ips = self.ship.ips().len() as u8;
        for i in 0..self.order.len() {
            let r = self.order[i];
            let robot = &self.robots[r];
            if !robot.is_active() || robot.scanner || robot.next_ip > ips {
                continue;
            }
            let ip = robot.next_ip;
            if self.ship.ips()[ip as usize - 1] != robot.pos {
                continue;
            }
            let robot = &mut self.robots[r];
            robot.next_ip += 1;
            robot.inspections += 1;
            robot.weight += 10;
            self.event(r, EventKind::Inspect { ip });
            if ip == ips {
                let place = 1 + self.finished_before;
                let robot = &mut self.robots[r];
                robot.state = super::State::Finished;
                robot.place = Some(place);
                robot.virtual_ = false;
                self.finished_now += 1;
                self.event(r, EventKind::Finish { place });
            }
        }
    }
}

/// Where a laser beam stops.
enum BeamEnd {
    Robot(usize),
    /// Damaged hull of this inspection point.
    Hull(u8),
    Nothing,
}

/// The beam on `p` whatever its warp: (direction, turning).
fn active_beam_any(game: &Game, p: Pos) -> Option<(Direction, bool)> {
    match game.ship.tile(p) {
        Some(Base::Beam { dir, turning, .. }) => Some((dir, turning)),
        _ => None,
    }
}

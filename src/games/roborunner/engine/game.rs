//! The game's state and its turn outline (RN4): dispatch (RN3.2), deal (RN5), decisions
//! (RN6), the phases (`phase.rs`), the end of the turn (RN11.2), the turn order (RN7.2) and
//! the end of the game (RN14.1).

use super::{
    Answer, CHIPS, Decision, Equip, Event, EventKind, FULL_AMMO, HAND, MAX_DAMAGE, MAX_SCANNERS,
    MAX_SEATS, Move, Query, REGISTERS, Refusal, Reply, Robot, State, canonical_chip, locks_for,
    score_of,
};
use crate::games::roborunner::ship::{Base, NETWORKS, Ship};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::silence::Silence;
use crate::rng::GameRng;
use std::sync::Arc;
use thiserror::Error;

/// The settings the engine plays by (RN1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    /// The last turn.
    pub turns: u16,
    pub lives: u8,
    /// Inspection points start damaged (else repaired).
    pub hull_damage: bool,
    /// Seat robots carry an option (RN12).
    pub equipment: bool,
    /// Robots with no seat running drawn chips (RN13).
    pub scanners: u8,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            turns: 30,
            lives: 3,
            hull_damage: true,
            equipment: false,
            scanners: 0,
        }
    }
}

/// How a game is set up.
#[derive(Debug, Clone)]
pub struct Setup {
    pub ship: Arc<Ship>,
    pub seats: usize,
    pub seed: u64,
    pub rules: Rules,
}

/// Why the engine refused a call.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("{0} seats: expected 1 to {MAX_SEATS}")]
    Seats(usize),
    #[error("{0} scanners: expected 0 to {MAX_SCANNERS}")]
    Scanners(usize),
    #[error("{got} replies for {asked} questions")]
    ReplyCount { got: usize, asked: usize },
    #[error("the game is not waiting for this")]
    NotWaiting,
}

/// What the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending<'a> {
    /// The answers of the robots dealt this turn, in seat order.
    Decisions(&'a [Query]),
    /// A scenario's turn: [`Game::play_scripted`].
    Script,
    Over,
}

/// A scenario's answer for one robot (RN17): a chip per register as written (a locked
/// register keeps its chip, or takes the written one if it holds none), reboot, the phases
/// its option is activated in (RN12.2), facing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scripted {
    pub program: [Option<Move>; REGISTERS],
    pub reboot: bool,
    pub activate: Vec<u8>,
    pub facing: Option<Direction>,
}

/// One game of Robo Runner.
#[derive(Debug, Clone)]
pub struct Game {
    pub(super) ship: Arc<Ship>,
    pub(super) rules: Rules,
    /// The seats' robots by seat, then the scanners by id (RN3.1).
    pub(super) robots: Vec<Robot>,
    /// How many of `robots` are seats' (the others are scanners).
    pub(super) seats: usize,
    /// Robots by rank: rank 1 first (RN7.2).
    pub(super) order: Vec<usize>,
    /// Welds left per inspection point (index n - 1).
    pub(super) hull: Vec<u8>,
    /// Per square: the next transporter of its loop (RN15.1).
    pub(super) next_tp: Vec<Option<Pos>>,
    /// Links used so far, in the order first used.
    pub(super) links: Vec<(Pos, Pos)>,
    pub(super) events: Vec<Event>,
    pub(super) keep_events: bool,
    /// Simulating one robot alone (RN18.2): an unknown link is a fall.
    pub(super) alone: bool,
    pub(super) turn: u16,
    pub(super) phase: u8,
    /// This turn's registers, by robot.
    pub(super) program: Vec<[Option<Move>; REGISTERS]>,
    pub(super) reboot: Vec<bool>,
    /// This turn's phases in which each robot's option works (bit p for phase p, RN12.2).
    pub(super) equipped: Vec<u8>,
    /// Seats that finished before the current phase.
    pub(super) finished_before: u8,
    pub(super) finished_now: u8,
    // Per phase (phase.rs).
    pub(super) entered_tp: Vec<bool>,
    pub(super) moved_own: Vec<bool>,
    /// (pusher, victim, killed) of this phase's chips, in first-push order.
    pub(super) pushes: Vec<(usize, usize, bool)>,
    rng: Option<GameRng>,
    queries: Vec<Query>,
    dispatched: Vec<bool>,
    decisions: Vec<Decision>,
    over: bool,
    /// The state after every turn, when a replay asks for it.
    snapshots: Option<Vec<Snapshot>>,
    /// By robot: why the rules refused its answer of the turn last answered, if they did
    /// (for `play`'s fault report; never part of the game's state).
    refusals: Vec<Option<Refusal>>,
}

/// The robots and the hull after a turn, for replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub turn: u16,
    pub robots: Vec<Robot>,
    /// Each robot's square and facing after each phase of the turn (`None` while it is off
    /// the ship), so a viewer moves it phase by phase.
    pub ways: Vec<[Option<(Pos, Direction)>; REGISTERS]>,
    pub order: Vec<usize>,
    pub hull: Vec<u8>,
    pub links: Vec<(Pos, Pos)>,
}

impl Game {
    fn empty(ship: Arc<Ship>, rules: Rules, robots: Vec<Robot>, rng: Option<GameRng>) -> Game {
        let n = robots.len();
        let seats = robots.iter().filter(|r| !r.scanner).count();
        let hull = (1..=ship.ips().len() as u8)
            .map(|k| {
                if rules.hull_damage {
                    ship.ip_repairs(k)
                } else {
                    0
                }
            })
            .collect();
        let next_tp = vec![None; ship.len()];
        Game {
            ship,
            rules,
            robots,
            seats,
            order: (0..n).collect(),
            hull,
            next_tp,
            links: Vec::new(),
            events: Vec::new(),
            keep_events: true,
            alone: false,
            turn: 0,
            phase: 0,
            program: vec![[None; REGISTERS]; n],
            reboot: vec![false; n],
            equipped: vec![0; n],
            finished_before: 0,
            finished_now: 0,
            entered_tp: vec![false; n],
            moved_own: vec![false; n],
            pushes: Vec::new(),
            rng,
            queries: Vec::new(),
            dispatched: vec![false; n],
            decisions: Vec::new(),
            over: false,
            snapshots: None,
            refusals: vec![None; n],
        }
    }

    /// A new game: every seat DESTROYED with its lives, the scanners after them, the
    /// transporter loops and the options drawn (RN15.1), then the first turn begun.
    pub fn new(setup: &Setup) -> Result<Game, GameError> {
        if !(1..=MAX_SEATS).contains(&setup.seats) {
            return Err(GameError::Seats(setup.seats));
        }
        let scanners = setup.rules.scanners as usize;
        if scanners > MAX_SCANNERS {
            return Err(GameError::Scanners(scanners));
        }
        let mut robots = vec![Robot::new(setup.rules.lives); setup.seats];
        robots.extend(std::iter::repeat_n(Robot::new_scanner(), scanners));
        let mut rng = GameRng::new(setup.seed);
        let mut loops: Vec<Vec<Pos>> = Vec::new();
        for members in setup.ship.networks() {
            if members.len() < 2 {
                continue;
            }
            let mut u: Vec<Pos> = members[1..].to_vec();
            let len = u.len();
            rng.partial_shuffle(&mut u, len);
            let mut lp = vec![members[0]];
            lp.extend(u);
            loops.push(lp);
        }
        if setup.rules.equipment {
            for robot in &mut robots[..setup.seats] {
                robot.option = Some(Equip::ALL[rng.below(Equip::ALL.len() as u32) as usize]);
            }
        }
        let mut game = Game::empty(setup.ship.clone(), setup.rules, robots, Some(rng));
        game.set_loops(&loops);
        game.begin_turn();
        Ok(game)
    }

    /// A scenario's game (RN17): robots placed by hand (the seats' first, then the
    /// scanners), the first turn's order (all robots, rank 1 first), loops as given, nothing
    /// dealt or drawn; each turn is played with [`Game::play_scripted`].
    pub fn scripted(
        ship: Arc<Ship>,
        rules: Rules,
        robots: Vec<Robot>,
        order: Vec<usize>,
        loops: &[Vec<Pos>],
    ) -> Result<Game, GameError> {
        let seats = robots.iter().filter(|r| !r.scanner).count();
        if !(1..=MAX_SEATS).contains(&seats) {
            return Err(GameError::Seats(seats));
        }
        if robots.len() - seats > MAX_SCANNERS {
            return Err(GameError::Scanners(robots.len() - seats));
        }
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if robots[..seats].iter().any(|r| r.scanner)
            || sorted != (0..robots.len()).collect::<Vec<_>>()
        {
            return Err(GameError::NotWaiting);
        }
        let mut game = Game::empty(ship, rules, robots, None);
        game.order = order;
        game.set_loops(loops);
        Ok(game)
    }

    /// The default loops of a ship: each network in row-major order.
    pub fn default_loops(ship: &Ship) -> Vec<Vec<Pos>> {
        ship.networks()
            .iter()
            .filter(|m| m.len() >= 2)
            .cloned()
            .collect()
    }

    fn set_loops(&mut self, loops: &[Vec<Pos>]) {
        for lp in loops {
            for (i, p) in lp.iter().enumerate() {
                let next = lp[(i + 1) % lp.len()];
                let at = self.ship.index(*p);
                self.next_tp[at] = Some(next);
            }
        }
    }

    pub fn pending(&self) -> Pending<'_> {
        if self.over {
            Pending::Over
        } else if self.rng.is_none() {
            Pending::Script
        } else {
            Pending::Decisions(&self.queries)
        }
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    pub fn ship(&self) -> &Arc<Ship> {
        &self.ship
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The seats' robots, by seat.
    pub fn robots(&self) -> &[Robot] {
        &self.robots[..self.seats]
    }

    /// The scanners, by id (RN13).
    pub fn scanners(&self) -> &[Robot] {
        &self.robots[self.seats..]
    }

    /// Every robot: the seats' by seat, then the scanners by id (their index is the seat
    /// count plus their id, as events and the turn order name them).
    pub fn all_robots(&self) -> &[Robot] {
        &self.robots
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// Turns played (the current one while it waits for answers).
    pub fn turns_played(&self) -> u16 {
        if self.over || self.rng.is_none() {
            self.turn
        } else {
            self.turn.saturating_sub(1)
        }
    }

    /// The turn being played or last played.
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// Robots by rank, rank 1 first.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The rank (1-based) of robot `r`.
    pub fn rank(&self, r: usize) -> usize {
        self.order.iter().position(|x| *x == r).map_or(0, |i| i + 1)
    }

    /// Welds left per inspection point.
    pub fn hull(&self) -> &[u8] {
        &self.hull
    }

    /// Links used so far.
    pub fn links(&self) -> &[(Pos, Pos)] {
        &self.links
    }

    /// Whether the robot `r` was dispatched this turn.
    pub fn dispatched(&self, r: usize) -> bool {
        self.dispatched[r]
    }

    /// Why the rules refused `seat`'s answer of the turn last answered (a program that is
    /// not one hand chip per unlocked register, an activation not allowed), if they did.
    pub fn refusal(&self, seat: usize) -> Option<&Refusal> {
        self.refusals.get(seat)?.as_ref()
    }

    pub fn keep_snapshots(&mut self) {
        self.snapshots = Some(Vec::new());
    }

    pub fn snapshots(&self) -> &[Snapshot] {
        self.snapshots.as_deref().unwrap_or(&[])
    }

    /// Whether `p` is damaged hull: an inspection point with welds left (RN2.5).
    #[inline]
    pub fn damaged(&self, p: Pos) -> bool {
        match self.ship.tile(p) {
            Some(Base::Ip { n, .. }) => self.hull[n as usize - 1] > 0,
            _ => false,
        }
    }

    pub fn score(&self, seat: usize) -> i64 {
        score_of(&self.robots[seat])
    }

    pub fn scores(&self) -> Vec<i64> {
        self.robots().iter().map(score_of).collect()
    }

    /// Whether `seat` has the highest score (shared top scores win for each).
    pub fn won(&self, seat: usize) -> bool {
        let scores = self.scores();
        scores.iter().max() == Some(&scores[seat])
    }

    pub(super) fn event(&mut self, robot: usize, kind: EventKind) {
        if self.keep_events {
            self.events.push(Event {
                turn: self.turn,
                phase: self.phase,
                robot,
                kind,
            });
        }
    }

    /// RN3.2: dispatch, then the deal of RN5.3 and the questions.
    fn begin_turn(&mut self) {
        self.turn += 1;
        self.phase = 0;
        self.dispatch();
        let mut deck: Vec<Move> = Vec::with_capacity(CHIPS);
        for m in Move::ALL {
            let mut copies = m.copies();
            for r in self.robots.iter().filter(|r| r.is_active()) {
                copies -= r
                    .locked_chips()
                    .iter()
                    .filter(|c| **c == Some(m))
                    .count()
                    .min(copies);
            }
            deck.extend(std::iter::repeat_n(m, copies));
        }
        let rng = self.rng.as_mut().expect("a dealt game has a generator");
        let n = deck.len();
        rng.partial_shuffle(&mut deck, n);
        let mut top = deck.into_iter();
        for r in self.seats..self.robots.len() {
            for reg in 0..REGISTERS {
                let at = rng.below(CHIPS as u32) as usize;
                self.program[r][reg] = Some(canonical_chip(at));
            }
        }
        self.queries.clear();
        for seat in 0..self.seats {
            let r = &mut self.robots[seat];
            if !r.is_active() || r.rebooting {
                continue;
            }
            let take = HAND.saturating_sub(r.damage as usize);
            let hand: Vec<Move> = top.by_ref().take(take).collect();
            for reg in REGISTERS - r.locked as usize..REGISTERS {
                if r.regs[reg].is_none() {
                    r.regs[reg] = top.next();
                }
            }
            self.queries.push(Query {
                seat,
                hand,
                free: REGISTERS - r.locked as usize,
                dispatched: self.dispatched[seat],
            });
        }
        if self.queries.is_empty() {
            self.play_turn();
        }
    }

    /// RN3.2: every DESTROYED robot to the airlock (it waits without one); RN13.2: scanner
    /// i to depot i mod D, depots in row-major order, or to the airlock with no depot.
    fn dispatch(&mut self) {
        let depots: Vec<Pos> = (0..self.ship.len())
            .map(|i| self.ship.pos(i))
            .filter(|p| matches!(self.ship.tile(*p), Some(Base::Depot(_))))
            .collect();
        for r in 0..self.robots.len() {
            self.dispatched[r] = false;
            self.equipped[r] = 0;
            let square = if r < self.seats || depots.is_empty() {
                self.ship.airlock()
            } else {
                Some(depots[(r - self.seats) % depots.len()])
            };
            let Some(square) = square else {
                continue;
            };
            let robot = &mut self.robots[r];
            if robot.state != State::Destroyed {
                continue;
            }
            robot.state = State::Active;
            robot.pos = square;
            robot.facing = Direction::North;
            robot.virtual_ = true;
            robot.damage = 0;
            robot.locked = 0;
            robot.regs = [None; REGISTERS];
            robot.rebooting = false;
            robot.ammo = FULL_AMMO;
            self.dispatched[r] = true;
            self.event(r, EventKind::Dispatch);
        }
    }

    /// The answers to this turn's questions, one per query in order: each checked (RN6.2),
    /// logged, and the turn played.
    pub fn answer(&mut self, replies: &[Reply]) -> Result<(), GameError> {
        if self.over || self.rng.is_none() {
            return Err(GameError::NotWaiting);
        }
        if replies.len() != self.queries.len() {
            return Err(GameError::ReplyCount {
                got: replies.len(),
                asked: self.queries.len(),
            });
        }
        let queries = std::mem::take(&mut self.queries);
        self.refusals.iter_mut().for_each(|r| *r = None);
        for (q, reply) in queries.iter().zip(replies) {
            self.decisions.push(Decision {
                seat: q.seat,
                reply: reply.clone(),
            });
            let robot = &self.robots[q.seat];
            let problem = match reply {
                Reply::Answer(a) => Refusal::of_program(q, a).or_else(|| {
                    activation(robot, a.activate.iter())
                        .is_none()
                        .then(|| Refusal::Activation {
                            phases: a.activate.clone(),
                            ammo: robot.ammo,
                        })
                }),
                Reply::Fault(_) => None,
            };
            self.refusals[q.seat] = problem.clone();
            let answer = match reply {
                Reply::Answer(a) if problem.is_none() => a.clone(),
                Reply::Answer(_) => {
                    self.fault(q.seat, Silence::Malformed);
                    fallback(q)
                }
                Reply::Fault(s) => {
                    self.fault(q.seat, *s);
                    fallback(q)
                }
            };
            self.apply_answer(q.seat, &answer);
        }
        self.queries = queries;
        self.play_turn();
        Ok(())
    }

    fn fault(&mut self, seat: usize, s: Silence) {
        self.robots[seat].faults += 1;
        self.event(seat, EventKind::Fault(s));
    }

    fn apply_answer(&mut self, seat: usize, a: &Answer) {
        let r = &mut self.robots[seat];
        let mut chips = a.program.iter();
        for reg in 0..REGISTERS {
            self.program[seat][reg] = if r.is_locked(reg) {
                r.regs[reg]
            } else {
                chips.next().copied()
            };
        }
        self.reboot[seat] = a.reboot;
        if self.dispatched[seat] {
            r.facing = a.facing.unwrap_or(Direction::North);
        }
        self.activate(seat, &a.activate);
    }

    /// RN12.2: the option of `r` works in the phases `phases` activate, its ammo spent now;
    /// an activation already checked.
    fn activate(&mut self, r: usize, phases: &[u8]) {
        if let Some((mask, cost)) = activation(&self.robots[r], phases.iter()) {
            self.equipped[r] = mask;
            self.robots[r].ammo -= cost;
        }
    }

    /// Plays one scenario turn: dispatch, the written answers (`None`: the robot executes
    /// nothing), the phases and the end of the turn.
    pub fn play_scripted(&mut self, answers: &[Option<Scripted>]) -> Result<(), GameError> {
        if self.over || self.rng.is_some() {
            return Err(GameError::NotWaiting);
        }
        if answers.len() != self.robots.len() {
            return Err(GameError::ReplyCount {
                got: answers.len(),
                asked: self.robots.len(),
            });
        }
        self.turn += 1;
        self.phase = 0;
        self.dispatch();
        for (seat, a) in answers.iter().enumerate() {
            let r = &mut self.robots[seat];
            let dealt = r.is_active() && !r.rebooting;
            self.program[seat] = [None; REGISTERS];
            self.reboot[seat] = false;
            let Some(a) = a.as_ref().filter(|_| dealt) else {
                // Its locked registers still execute their chips.
                if dealt {
                    for reg in 0..REGISTERS {
                        if r.is_locked(reg) {
                            self.program[seat][reg] = r.regs[reg];
                        }
                    }
                }
                continue;
            };
            for reg in 0..REGISTERS {
                if r.is_locked(reg) {
                    if r.regs[reg].is_none() {
                        r.regs[reg] = a.program[reg];
                    }
                    self.program[seat][reg] = r.regs[reg];
                } else {
                    self.program[seat][reg] = a.program[reg];
                }
            }
            if r.scanner {
                // A scanner runs its chips and decides nothing else (RN13.3).
                continue;
            }
            if activation(r, a.activate.iter()).is_none() {
                // RN6.2: an invalid activation is a fault; the written program stays, with
                // no reboot, no activation and facing N.
                if self.dispatched[seat] {
                    r.facing = Direction::North;
                }
                self.fault(seat, Silence::Malformed);
                continue;
            }
            self.reboot[seat] = a.reboot;
            if self.dispatched[seat] {
                r.facing = a.facing.unwrap_or(Direction::North);
            }
            self.activate(seat, &a.activate);
        }
        self.play_turn_body();
        Ok(())
    }

    fn play_turn(&mut self) {
        self.play_turn_body();
        if !self.over {
            self.begin_turn();
        }
    }

    fn play_turn_body(&mut self) {
        for r in 0..self.robots.len() {
            if !self.robots[r].is_active() || self.robots[r].rebooting {
                self.program[r] = [None; REGISTERS];
            }
        }
        let mut ways = Vec::new();
        if self.snapshots.is_some() {
            ways = vec![[None; REGISTERS]; self.robots.len()];
        }
        for p in 1..=REGISTERS as u8 {
            self.run_phase(p);
            for (way, r) in ways.iter_mut().zip(&self.robots) {
                way[p as usize - 1] = r.is_active().then_some((r.pos, r.facing));
            }
        }
        self.phase = 0;
        self.end_of_turn();
        self.end_check();
        if let Some(snaps) = self.snapshots.as_mut() {
            snaps.push(Snapshot {
                turn: self.turn,
                robots: self.robots.clone(),
                ways,
                order: self.order.clone(),
                hull: self.hull.clone(),
                links: self.links.clone(),
            });
        }
    }

    /// RN11.2.
    fn end_of_turn(&mut self) {
        // (a) repair on depots and inspection points.
        for &r in &self.order.clone() {
            let robot = &self.robots[r];
            if !robot.is_active() {
                continue;
            }
            let value = match self.ship.tile(robot.pos) {
                Some(Base::Depot(v)) => v,
                Some(Base::Ip { .. }) => 1,
                _ => continue,
            };
            let amount = value.min(robot.damage);
            self.robots[r].ammo = FULL_AMMO;
            if amount > 0 {
                self.robots[r].damage -= amount;
                self.event(r, EventKind::Repair { amount });
            }
        }
        // (b) reboots.
        for robot in &mut self.robots {
            robot.rebooting = false;
        }
        for &r in &self.order.clone() {
            if self.robots[r].is_active() && self.reboot[r] {
                self.robots[r].damage = 0;
                self.robots[r].ammo = FULL_AMMO;
                self.robots[r].rebooting = true;
                self.event(r, EventKind::Reboot);
            }
        }
        // (c) locks.
        for r in 0..self.robots.len() {
            let executed = self.program[r];
            let robot = &mut self.robots[r];
            robot.last = executed;
            if !robot.is_active() || robot.scanner {
                continue;
            }
            let before = robot.locked;
            let now = locks_for(robot.damage);
            for (reg, (slot, chip)) in robot.regs.iter_mut().zip(executed).enumerate() {
                let locked_now = reg >= REGISTERS - now as usize;
                let locked_before = reg >= REGISTERS - before as usize;
                *slot = match (locked_now, locked_before) {
                    (false, _) => None,
                    (true, true) => *slot,
                    (true, false) => chip,
                };
            }
            robot.locked = now;
        }
        // (d) virtual robots alone become real.
        for &r in &self.order.clone() {
            let robot = &self.robots[r];
            if !robot.is_active() || !robot.virtual_ {
                continue;
            }
            let at = robot.pos;
            let alone = !self
                .robots
                .iter()
                .enumerate()
                .any(|(o, x)| o != r && x.is_active() && x.pos == at);
            if alone {
                self.robots[r].virtual_ = false;
                self.event(r, EventKind::Real);
            }
        }
        // (e) the next order: by weight, ties keeping this order.
        let weights: Vec<u32> = self.robots.iter().map(|r| r.weight).collect();
        self.order.sort_by_key(|r| std::cmp::Reverse(weights[*r]));
        for robot in &mut self.robots {
            robot.weight = 0;
        }
    }

    /// RN14.1.
    fn end_check(&mut self) {
        let in_play = |r: &Robot| matches!(r.state, State::Active | State::Destroyed);
        let playing: Vec<usize> = (0..self.seats)
            .filter(|s| in_play(&self.robots[*s]))
            .collect();
        let all_others_dead = |s: usize| {
            self.robots()
                .iter()
                .enumerate()
                .all(|(o, r)| o == s || r.state == State::Dead)
        };
        if playing.is_empty() {
            self.over = true;
        } else if self.seats >= 2 && playing.len() == 1 && all_others_dead(playing[0]) {
            let s = playing[0];
            self.robots[s].place = Some(1);
            self.event(s, EventKind::LastStanding);
            self.over = true;
        } else if self.turn >= self.rules.turns {
            self.over = true;
        }
    }

    /// The robot `r` destroyed (RN10.3): it leaves the ship, loses a life (a scanner has
    /// none and comes back, RN13.1), earns weight 20; a seat's `killer` is credited with the
    /// kill of another seat's robot.
    pub(super) fn destroy(&mut self, r: usize, cause: &'static str, killer: Option<usize>) {
        let robot = &mut self.robots[r];
        if !robot.is_active() {
            return;
        }
        if robot.scanner {
            robot.state = State::Destroyed;
        } else {
            robot.lives = robot.lives.saturating_sub(1);
            robot.state = if robot.lives == 0 {
                State::Dead
            } else {
                State::Destroyed
            };
            robot.deaths += 1;
        }
        robot.weight += 20;
        robot.virtual_ = false;
        robot.rebooting = false;
        let victim_seat = !robot.scanner;
        if let Some(k) = killer
            && k != r
            && victim_seat
            && !self.robots[k].scanner
        {
            self.robots[k].kills += 1;
        }
        self.event(r, EventKind::Destroyed { cause, killer });
    }

    /// Adds `amount` damage to `r` (never above 10); `true` if that reaches 10.
    pub(super) fn harm(&mut self, r: usize, amount: u8) -> bool {
        let robot = &mut self.robots[r];
        robot.damage = (robot.damage + amount).min(MAX_DAMAGE);
        robot.damage >= MAX_DAMAGE
    }

    /// A stripped copy of the game holding robot `seat` alone, for RN18.2's simulation:
    /// no events, no log; an unknown link is a fall.
    pub fn alone(&self, seat: usize) -> Game {
        let mut robot = self.robots[seat].clone();
        robot.weight = 0;
        Game {
            ship: self.ship.clone(),
            rules: self.rules,
            robots: vec![robot],
            seats: 1,
            order: vec![0],
            hull: self.hull.clone(),
            next_tp: self.next_tp.clone(),
            links: self.links.clone(),
            events: Vec::new(),
            keep_events: false,
            alone: true,
            turn: self.turn,
            phase: 0,
            program: vec![[None; REGISTERS]],
            reboot: vec![false],
            equipped: vec![0],
            finished_before: 0,
            finished_now: 0,
            entered_tp: vec![false],
            moved_own: vec![false],
            pushes: Vec::new(),
            rng: None,
            queries: Vec::new(),
            dispatched: vec![false],
            decisions: Vec::new(),
            over: false,
            snapshots: None,
            refusals: Vec::new(),
        }
    }

    /// Plays phase `p` of a game made by [`Game::alone`] with `chip` in its register.
    pub fn sim_phase(&mut self, p: u8, chip: Option<Move>) {
        self.program[0][p as usize - 1] = chip;
        self.run_phase(p);
    }

    /// Sets the facing of a game made by [`Game::alone`] (a dispatched robot's choice).
    pub fn sim_face(&mut self, facing: Direction) {
        self.robots[0].facing = facing;
    }

    /// The transporter networks' letters, for messages and views.
    pub fn network_letter(k: u8) -> char {
        NETWORKS[k as usize]
    }
}

/// RN12.2: the phases (bit p) in which the option of `robot` works for an activation of
/// `phases`, and the ammo it costs; `None` if invalid (a phase repeated or not in 1..5, or
/// more ammo than held). A robot without an option ignores activations.
fn activation<'a>(robot: &Robot, phases: impl Iterator<Item = &'a u8>) -> Option<(u8, u8)> {
    let Some(option) = robot.option else {
        return Some((0, 0));
    };
    let mut mask = 0u8;
    for &p in phases {
        if !(1..=REGISTERS as u8).contains(&p) || mask & (1 << p) != 0 {
            return None;
        }
        mask |= 1 << p;
    }
    let cost = activation_cost(option, mask);
    if cost > robot.ammo {
        return None;
    }
    if option.hand_based() && mask != 0 {
        mask = 0b11_1110;
    }
    Some((mask, cost))
}

/// RN12.2: what activating `option` in the phases of `mask` (bit p) costs: 1 a phase for a
/// phase-based option, 1 for the turn for a hand-based one.
pub fn activation_cost(option: Equip, mask: u8) -> u8 {
    match (option.hand_based(), mask) {
        (_, 0) => 0,
        (true, _) => 1,
        (false, m) => m.count_ones() as u8,
    }
}

/// RN6.2's replacement: the first hand chips in hand order, no reboot, facing N.
pub fn fallback(q: &Query) -> Answer {
    Answer {
        program: q.hand.iter().take(q.free).copied().collect(),
        reboot: false,
        activate: Vec::new(),
        facing: None,
    }
}

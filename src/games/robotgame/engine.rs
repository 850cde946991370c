//! Defines [`Game`]: the RobotGame rules (RG2 to RG6) as a pure state machine, one
//! [`Game::step`] per turn from every seat's answer to the next state and the turn's events.
//!
//! No I/O, no clock: a game is a function of its [`Setup`] (seats, seed, starting robots),
//! the answers, and one generator seeded by the game seed that draws attack damage and spawn
//! squares in a fixed order. The state is flat (robots by id, a 19x19 occupancy grid) and the
//! per-turn buffers are kept between turns, so a turn allocates nothing once warmed up.

use super::arena::{ARENA, SPAWNS, SQUARES, Sq};
use super::log::{Decision, DecisionLog, FaultRecord, TurnDecisions};
use super::movement::Movement;
use super::types::{Action, Answer, Event, EventKind, FaultKind, Order, Pos, RobotId, Seat};
use crate::rng::GameRng;
use thiserror::Error;

/// Turns of a game, numbered `0..TURNS` (RG2.1).
pub const TURNS: u8 = 100;
/// Most seats one arena takes.
pub const MAX_SEATS: usize = 8;
/// HP of a new robot, and the most a robot can have.
pub const MAX_HP: i32 = 50;
/// Robots each seat receives per spawn (RG5.1).
pub const SPAWN_PER_SEAT: usize = 5;
/// Spawns happen on turns divisible by this (RG5.1).
pub const SPAWN_EVERY: u8 = 10;
/// Damage of a collision with an enemy (RG3.4).
pub const COLLISION_DAMAGE: i32 = 5;
/// Damage of a suicide to each adjacent enemy (RG4.2).
pub const SUICIDE_DAMAGE: i32 = 15;
/// Attack damage is drawn uniformly from this range (RG4.1).
pub const ATTACK_DAMAGE: std::ops::RangeInclusive<i32> = 8..=10;

/// Marks an empty square of the occupancy grid.
pub(super) const NO_ROBOT: u16 = u16::MAX;

/// Rule switches a scenario may turn (RG8); games use the defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Run RG5 on spawn turns.
    pub spawn: bool,
    /// Every attack deals this instead of a draw (and nothing is drawn).
    pub attack_damage: Option<i32>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            spawn: true,
            attack_damage: None,
        }
    }
}

/// A robot placed before the first turn (scenarios).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    pub seat: Seat,
    pub pos: Pos,
    pub hp: i32,
}

/// Everything a game starts from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    pub seats: u8,
    pub seed: u64,
    /// The number of the first turn played.
    pub first_turn: u8,
    pub settings: Settings,
    /// Robots on the board before the first turn; they take ids 0, 1, ... in this order.
    pub robots: Vec<Placement>,
}

impl Setup {
    /// A normal game: an empty arena from turn 0, robots arriving by spawns.
    pub fn standard(seats: u8, seed: u64) -> Setup {
        Setup {
            seats,
            seed,
            first_turn: 0,
            settings: Settings::default(),
            robots: Vec::new(),
        }
    }
}

/// A setup or a call the engine refuses.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("{0} seats: expected 1 to {MAX_SEATS}")]
    Seats(u8),
    #[error("first turn {0}: expected 0 to 99")]
    FirstTurn(u8),
    #[error("robot {index}: {reason}")]
    Placement { index: usize, reason: String },
    #[error("{got} answers for {seats} seats: expected one per seat")]
    Answers { got: usize, seats: u8 },
    #[error("the game is over (turn 99 was played)")]
    Over,
    #[error("replay of turn {turn}: {reason}")]
    Replay { turn: u8, reason: String },
}

/// One robot, alive or dead (dead robots keep their last square and have 0 HP).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Robot {
    pub id: RobotId,
    pub seat: Seat,
    pub sq: Sq,
    pub hp: i32,
    pub alive: bool,
}

impl Robot {
    pub fn pos(&self) -> Pos {
        self.sq.pos()
    }
}

/// Per-seat statistics (RG6.1); the score is counted from the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatStats {
    /// Damage dealt to enemy robots, as they lost it (after guarding, overkill included).
    pub damage_dealt: u32,
    /// Enemy robots this seat dealt the killing blow to.
    pub kills: u32,
    /// Turns in which the seat's answer was invalid or missing in part or whole.
    pub faults: u32,
}

/// What kind of damage, for the guard rule (RG4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blow {
    Collision,
    Attack,
    Suicide,
}

/// A game of RobotGame in progress.
#[derive(Debug, Clone)]
pub struct Game {
    seats: u8,
    first_turn: u8,
    /// The next turn to play.
    turn: u8,
    settings: Settings,
    rng: GameRng,
    /// Every robot ever, by id.
    robots: Vec<Robot>,
    /// Ids of the living robots, ascending.
    alive: Vec<RobotId>,
    /// Occupant id per square, or [`NO_ROBOT`].
    grid: [u16; SQUARES],
    stats: [SeatStats; MAX_SEATS],
    log: DecisionLog,
    /// The events of the last turn played.
    events: Vec<Event>,
    // Per-turn buffers, indexed by robot id.
    orders: Vec<Order>,
    stamp: Vec<u32>,
    killer: Vec<Option<RobotId>>,
    faults: [Option<(Option<RobotId>, FaultKind)>; MAX_SEATS],
    movement: Movement,
}

impl Game {
    /// A game from `setup`, before its first turn.
    pub fn new(setup: &Setup) -> Result<Game, GameError> {
        if !(1..=MAX_SEATS as u8).contains(&setup.seats) {
            return Err(GameError::Seats(setup.seats));
        }
        if setup.first_turn >= TURNS {
            return Err(GameError::FirstTurn(setup.first_turn));
        }
        let mut game = Game {
            seats: setup.seats,
            first_turn: setup.first_turn,
            turn: setup.first_turn,
            settings: setup.settings,
            rng: GameRng::new(setup.seed),
            robots: Vec::with_capacity(setup.robots.len() + 50 * usize::from(setup.seats)),
            alive: Vec::new(),
            grid: [NO_ROBOT; SQUARES],
            stats: [SeatStats::default(); MAX_SEATS],
            log: DecisionLog::new(setup.first_turn),
            events: Vec::new(),
            orders: Vec::new(),
            stamp: Vec::new(),
            killer: Vec::new(),
            faults: [None; MAX_SEATS],
            movement: Movement::new(),
        };
        for (index, p) in setup.robots.iter().enumerate() {
            let bad = |reason: String| GameError::Placement { index, reason };
            if p.seat.0 >= setup.seats {
                return Err(bad(format!("seat {} of {} seats", p.seat.0, setup.seats)));
            }
            if !(1..=MAX_HP).contains(&p.hp) {
                return Err(bad(format!("hp {}: expected 1 to {MAX_HP}", p.hp)));
            }
            let sq = Sq::from_pos(p.pos).filter(|&s| ARENA.is_walkable(s));
            let Some(sq) = sq else {
                return Err(bad(format!("({}, {}) is not walkable", p.pos.x, p.pos.y)));
            };
            if game.grid[sq.index()] != NO_ROBOT {
                return Err(bad(format!("({}, {}) is taken", p.pos.x, p.pos.y)));
            }
            game.add_robot(p.seat, sq, p.hp);
        }
        Ok(game)
    }

    fn add_robot(&mut self, seat: Seat, sq: Sq, hp: i32) -> RobotId {
        let id = RobotId(self.robots.len() as u16);
        self.robots.push(Robot {
            id,
            seat,
            sq,
            hp,
            alive: true,
        });
        self.alive.push(id);
        self.grid[sq.index()] = id.0;
        self.orders.push(Order::Guard);
        self.stamp.push(0);
        self.killer.push(None);
        id
    }

    pub fn seats(&self) -> u8 {
        self.seats
    }

    /// The next turn to play; [`TURNS`] once the game is over.
    /// The fault of `seat` in the turn last played (RG2.3: the first problem found), with
    /// the robot it is about.
    pub fn fault_of(&self, seat: Seat) -> Option<(Option<RobotId>, FaultKind)> {
        self.faults[seat.index()]
    }

    pub fn turn(&self) -> u8 {
        self.turn
    }

    pub fn is_over(&self) -> bool {
        self.turn >= TURNS
    }

    /// Turns played so far.
    pub fn turns_played(&self) -> u8 {
        self.turn - self.first_turn
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Every robot of the game so far, by id, dead ones included.
    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }

    pub fn robot(&self, id: RobotId) -> Option<&Robot> {
        self.robots.get(id.index())
    }

    /// Ids of the living robots, ascending.
    pub fn alive(&self) -> &[RobotId] {
        &self.alive
    }

    /// The living robot on `sq`, if any.
    pub fn occupant(&self, sq: Sq) -> Option<RobotId> {
        let id = self.grid[sq.index()];
        (id != NO_ROBOT).then_some(RobotId(id))
    }

    /// The living robot at `pos`, if any.
    pub fn robot_at(&self, pos: Pos) -> Option<&Robot> {
        let id = self.occupant(Sq::from_pos(pos)?)?;
        self.robots.get(id.index())
    }

    /// Scores by seat: robots on the board (RG6.1).
    pub fn scores(&self) -> Vec<u32> {
        let mut scores = vec![0; usize::from(self.seats)];
        for &id in &self.alive {
            scores[self.robots[id.index()].seat.index()] += 1;
        }
        scores
    }

    /// Statistics by seat.
    pub fn stats(&self) -> &[SeatStats] {
        &self.stats[..usize::from(self.seats)]
    }

    /// Whether `seat` won: its score is the highest, shared or not (RG6.2).
    pub fn won(&self, seat: Seat) -> bool {
        let scores = self.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        scores.get(seat.index()) == Some(&best)
    }

    /// The events of the last turn played.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// What the engine consumed so far, for replays.
    pub fn log(&self) -> &DecisionLog {
        &self.log
    }

    /// Plays one turn from every seat's answer (`answers[s]` is seat `s`'s) and returns its
    /// events. Invalid parts of answers make robots guard and are faults, never errors.
    pub fn step(&mut self, answers: &[Answer<'_>]) -> Result<&[Event], GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        if answers.len() != usize::from(self.seats) {
            return Err(GameError::Answers {
                got: answers.len(),
                seats: self.seats,
            });
        }
        self.read_answers(answers);
        self.play_turn();
        Ok(&self.events)
    }

    /// Plays one turn from a recorded turn of a decision log.
    pub fn replay_turn(&mut self, logged: &TurnDecisions<'_>) -> Result<&[Event], GameError> {
        if self.is_over() {
            return Err(GameError::Over);
        }
        let mismatch = |reason: String| GameError::Replay {
            turn: logged.turn,
            reason,
        };
        if logged.turn != self.turn {
            return Err(mismatch(format!("the game is at turn {}", self.turn)));
        }
        if logged.decisions.len() != self.alive.len()
            || logged
                .decisions
                .iter()
                .zip(&self.alive)
                .any(|(d, id)| d.robot != *id)
        {
            return Err(mismatch(
                "the decisions are not for the robots alive".into(),
            ));
        }
        self.faults = [None; MAX_SEATS];
        for f in logged.faults {
            if f.seat.0 >= self.seats {
                return Err(mismatch(format!("fault of seat {}", f.seat.0)));
            }
            self.faults[f.seat.index()] = Some((f.robot, f.kind));
        }
        for d in logged.decisions {
            self.orders[d.robot.index()] = d.order;
        }
        self.play_turn();
        Ok(&self.events)
    }

    /// Replays a whole game from its setup and decision log.
    pub fn replay(setup: &Setup, log: &DecisionLog) -> Result<Game, GameError> {
        let mut game = Game::new(setup)?;
        for turn in log.iter() {
            game.replay_turn(&turn)?;
        }
        Ok(game)
    }

    /// RG2.3: turns the answers into one legal order per living robot and at most one fault
    /// per seat.
    fn read_answers(&mut self, answers: &[Answer<'_>]) {
        self.faults = [None; MAX_SEATS];
        for &id in &self.alive {
            self.orders[id.index()] = Order::Guard;
        }
        // Marks robots that got an action this turn; unique per turn and never 0.
        let stamp = u32::from(self.turn) + 1;
        for (s, answer) in answers.iter().enumerate() {
            let seat = Seat(s as u8);
            let commands = match answer {
                Answer::Silent(silence) => {
                    self.faults[s] = Some((None, FaultKind::from(*silence)));
                    continue;
                }
                Answer::Actions(commands) => commands,
            };
            for c in commands.iter() {
                let fault = match self.robots.get(c.robot.index()) {
                    Some(r) if !r.alive => Some(FaultKind::UnknownRobot),
                    None => Some(FaultKind::UnknownRobot),
                    Some(r) if r.seat != seat => Some(FaultKind::NotOwnRobot),
                    Some(r) => {
                        let i = c.robot.index();
                        if self.stamp[i] == stamp {
                            self.orders[i] = Order::Guard;
                            Some(FaultKind::Duplicate)
                        } else {
                            self.stamp[i] = stamp;
                            match legal_order(r.sq, c.action) {
                                Some(order) => {
                                    self.orders[i] = order;
                                    None
                                }
                                None => Some(FaultKind::BadTarget),
                            }
                        }
                    }
                };
                if let Some(kind) = fault {
                    self.faults[s].get_or_insert((Some(c.robot), kind));
                }
            }
        }
        for &id in &self.alive {
            let r = &self.robots[id.index()];
            let s = r.seat.index();
            if self.stamp[id.index()] != stamp && matches!(answers[s], Answer::Actions(_)) {
                self.faults[s].get_or_insert((Some(id), FaultKind::Missing));
            }
        }
    }

    /// Plays the turn from `self.orders` and `self.faults`: logging, movement, attacks,
    /// suicides, removal, spawns.
    fn play_turn(&mut self) {
        self.events.clear();
        self.log.begin_turn();
        for s in 0..usize::from(self.seats) {
            if let Some((robot, kind)) = self.faults[s] {
                let seat = Seat(s as u8);
                self.stats[s].faults += 1;
                self.log.push_fault(FaultRecord { seat, robot, kind });
                self.push(EventKind::Fault {
                    seat,
                    robot,
                    fault: kind,
                });
            }
        }
        for &id in &self.alive {
            self.killer[id.index()] = None;
            self.log.push_decision(Decision {
                robot: id,
                order: self.orders[id.index()],
            });
        }
        self.movement
            .resolve(&mut self.robots, &self.alive, &self.orders, &mut self.grid);
        for k in 0..self.movement.pairs.len() {
            let (a, b) = self.movement.pairs[k];
            let to_b = self.hit(b, a, COLLISION_DAMAGE, Blow::Collision);
            self.push(EventKind::Collision {
                robot: a,
                victim: b,
                damage: to_b,
            });
            let to_a = self.hit(a, b, COLLISION_DAMAGE, Blow::Collision);
            self.push(EventKind::Collision {
                robot: b,
                victim: a,
                damage: to_a,
            });
        }
        self.attacks();
        self.suicides();
        self.remove_dead();
        if self.settings.spawn && self.turn.is_multiple_of(SPAWN_EVERY) {
            self.spawn();
        }
        self.turn += 1;
    }

    fn push(&mut self, kind: EventKind) {
        self.events.push(Event {
            turn: self.turn,
            kind,
        });
    }

    /// Deals `base` damage of kind `blow` from `from` to `victim` (RG3.4, RG4.3, RG4.4) and
    /// returns what the victim lost. The blow that takes a robot from above 0 HP to 0 or
    /// less is the killing blow.
    fn hit(&mut self, victim: RobotId, from: RobotId, base: i32, blow: Blow) -> i32 {
        let (v, f) = (victim.index(), from.index());
        if self.robots[v].seat == self.robots[f].seat {
            return 0;
        }
        let damage = match (self.orders[v], blow) {
            (Order::Guard, Blow::Collision) => 0,
            (Order::Guard, _) => base / 2,
            _ => base,
        };
        let before = self.robots[v].hp;
        self.robots[v].hp -= damage;
        self.stats[self.robots[f].seat.index()].damage_dealt += damage as u32;
        if before > 0 && self.robots[v].hp <= 0 {
            self.killer[v] = Some(from);
        }
        damage
    }

    /// RG4.1: attacks in ascending id order, one damage draw per attacking robot.
    fn attacks(&mut self) {
        for k in 0..self.alive.len() {
            let id = self.alive[k];
            let Order::Attack(dir) = self.orders[id.index()] else {
                continue;
            };
            let base = match self.settings.attack_damage {
                Some(d) => d,
                None => {
                    let span = (ATTACK_DAMAGE.end() - ATTACK_DAMAGE.start() + 1) as u32;
                    ATTACK_DAMAGE.start() + self.rng.below(span) as i32
                }
            };
            let from = self.robots[id.index()].sq;
            let Some(target) = ARENA.neighbour(from, dir) else {
                continue;
            };
            let victim = self.occupant(target);
            let damage = match victim {
                Some(v) => self.hit(v, id, base, Blow::Attack),
                None => 0,
            };
            self.push(EventKind::Attack {
                robot: id,
                target: target.pos(),
                victim,
                damage,
            });
        }
    }

    /// RG4.2: suicides in ascending id order, hitting neighbours in ascending id order.
    fn suicides(&mut self) {
        for k in 0..self.alive.len() {
            let id = self.alive[k];
            if self.orders[id.index()] != Order::Suicide {
                continue;
            }
            let mut near = [RobotId(u16::MAX); 4];
            let mut count = 0;
            for n in ARENA
                .neighbours(self.robots[id.index()].sq)
                .iter()
                .flatten()
            {
                if let Some(v) = self.occupant(*n) {
                    near[count] = v;
                    count += 1;
                }
            }
            near[..count].sort_unstable();
            if count == 0 {
                self.push(EventKind::Suicide {
                    robot: id,
                    victim: None,
                    damage: 0,
                });
            }
            for &v in &near[..count] {
                let damage = self.hit(v, id, SUICIDE_DAMAGE, Blow::Suicide);
                self.push(EventKind::Suicide {
                    robot: id,
                    victim: Some(v),
                    damage,
                });
            }
        }
    }

    /// RG4.2, RG4.5: robots at 0 HP or less and suicides are removed; killing blows count.
    fn remove_dead(&mut self) {
        for k in 0..self.alive.len() {
            let id = self.alive[k];
            let i = id.index();
            let r = self.robots[i];
            if r.hp > 0 && self.orders[i] != Order::Suicide {
                continue;
            }
            let killer = if r.hp <= 0 { self.killer[i] } else { None };
            if let Some(k) = killer {
                self.stats[self.robots[k.index()].seat.index()].kills += 1;
            }
            self.kill(id);
            self.push(EventKind::Death { robot: id, killer });
        }
        self.alive.retain(|id| self.robots[id.index()].alive);
    }

    fn kill(&mut self, id: RobotId) {
        let r = &mut self.robots[id.index()];
        r.alive = false;
        r.hp = 0;
        self.grid[r.sq.index()] = NO_ROBOT;
    }

    /// RG5: robots on spawn squares die, then every seat gets its new robots.
    fn spawn(&mut self) {
        for k in 0..self.alive.len() {
            let id = self.alive[k];
            if ARENA.is_spawn(self.robots[id.index()].sq) {
                self.kill(id);
                self.push(EventKind::SpawnKill { robot: id });
            }
        }
        self.alive.retain(|id| self.robots[id.index()].alive);
        let mut pool = *ARENA.spawn_squares();
        let seats = usize::from(self.seats);
        if seats == 2 {
            // Seat 0 draws one square at a time among those whose mirror is still free;
            // seat 1 gets the mirrors in the same order.
            let mut left = SPAWNS;
            let mut drawn = [Sq(0); SPAWN_PER_SEAT];
            for slot in &mut drawn {
                let j = self.rng.below(left as u32) as usize;
                let sq = pool[j];
                *slot = sq;
                for taken in [sq, sq.mirror()] {
                    if let Some(p) = pool[..left].iter().position(|&s| s == taken) {
                        left -= 1;
                        pool.swap(p, left);
                    }
                }
            }
            for sq in drawn {
                self.spawn_robot(Seat(0), sq);
            }
            for sq in drawn {
                self.spawn_robot(Seat(1), sq.mirror());
            }
        } else {
            let total = SPAWN_PER_SEAT * seats;
            self.rng.partial_shuffle(&mut pool, total);
            for (k, &sq) in pool[..total].iter().enumerate() {
                self.spawn_robot(Seat((k / SPAWN_PER_SEAT) as u8), sq);
            }
        }
    }

    fn spawn_robot(&mut self, seat: Seat, sq: Sq) {
        let robot = self.add_robot(seat, sq, MAX_HP);
        self.push(EventKind::Spawn {
            robot,
            seat,
            pos: sq.pos(),
        });
    }
}

/// The order for `action` by a robot on `from`, if the action is legal (RG2.3): move and
/// attack targets must be adjacent walkable squares.
fn legal_order(from: Sq, action: Action) -> Option<Order> {
    let toward = |pos: Pos| {
        let to = Sq::from_pos(pos).filter(|&s| ARENA.is_walkable(s))?;
        super::arena::Arena::direction(from, to)
    };
    match action {
        Action::Guard => Some(Order::Guard),
        Action::Suicide => Some(Order::Suicide),
        Action::Move(pos) => toward(pos).map(Order::Move),
        Action::Attack(pos) => toward(pos).map(Order::Attack),
    }
}

//! The game's state and its turn outline (RR3): re-entry, power, deal, programs, then the
//! registers (`register.rs`), then the end of the turn.

use super::{
    Decision, Event, EventKind, MAX_HP, MAX_SEATS, Power, ProgramQuery, ProgramReply, REGISTERS,
    Refusal, Robot, Seat, SeatStats, StartQuery, StartReply, Status,
};
use crate::games::roborally::board::Board;
use crate::games::roborally::cards::{DECK, DECK_SIZE};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::{Card, reentry_options, reentry_square};
use crate::games::shared::silence::Silence;
use crate::rng::GameRng;
use std::sync::Arc;

/// Marks an empty square in the occupancy grid.
pub(super) const NO_ROBOT: u8 = u8::MAX;

/// How a game is set up.
#[derive(Debug, Clone)]
pub struct Setup {
    pub board: Arc<Board>,
    pub seats: usize,
    pub seed: u64,
    /// The last turn (RR3, 30 by default).
    pub max_turns: u16,
}

/// What the game waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending<'a> {
    Start(&'a [StartQuery]),
    Program(&'a [ProgramQuery]),
    /// A scenario's turn: [`Game::play_scripted`].
    Cards,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Start,
    Program,
    Cards,
    Over,
}

/// A scenario's program for one robot (RR16.2): a card per register as written (a locked
/// register plays its locked card instead) and the power-down flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scripted {
    pub cards: [Option<Card>; REGISTERS],
    pub power_down: bool,
}

/// One game of classic RoboRally.
#[derive(Debug, Clone)]
pub struct Game {
    pub(super) board: Arc<Board>,
    pub(super) robots: Vec<Robot>,
    pub(super) occupant: Vec<u8>,
    pub(super) stats: Vec<SeatStats>,
    pub(super) events: Vec<Event>,
    pub(super) turn: u16,
    pub(super) register: u8,
    turns_played: u16,
    max_turns: u16,
    registers: u8,
    rng: GameRng,
    /// The deck's order as the last shuffle left it (card ids).
    deck: [u8; DECK_SIZE],
    phase: Phase,
    scripted: bool,
    start_queries: Vec<StartQuery>,
    program_queries: Vec<ProgramQuery>,
    decisions: Vec<Decision>,
    /// Why the rules refused each seat's answer of the round last answered, if they did.
    refusals: Vec<Option<Refusal>>,
    pub(super) finisher: Option<Seat>,
    /// The robots after every register, when a replay asks for them.
    snapshots: Option<Vec<Snapshot>>,
}

/// The robots at the end of one register (or of a turn's re-entry, register 0), and how
/// many events the game had by then: what replays draw.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub turn: u16,
    pub register: u8,
    /// What had just happened: `start` (the turn's robots before register 1), `card`,
    /// `fast belts`, `slow belts`, `gears`, `board lasers`, `robot lasers`, or `end` (the
    /// register's targets and repair: the register's end).
    pub stage: &'static str,
    pub robots: Vec<Robot>,
    pub events: usize,
}

/// Why a call does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("a game needs 1 to {MAX_SEATS} seats, got {0}")]
    Seats(usize),
    #[error("board {board:?} has {starts} start squares; {seats} seats need as many")]
    Starts {
        board: String,
        starts: usize,
        seats: usize,
    },
    #[error("{0} does not fit: the game waits for something else")]
    WrongPhase(&'static str),
    #[error("expected {expected} answers, got {got}")]
    Answers { expected: usize, got: usize },
    #[error("robot {0} is off the board, on a pit or on another robot")]
    Placement(Seat),
}

impl Game {
    /// A game whose robots stand on S1.. and are asked for their facings (RR2.1).
    pub fn new(setup: &Setup) -> Result<Game, GameError> {
        if !(1..=MAX_SEATS).contains(&setup.seats) {
            return Err(GameError::Seats(setup.seats));
        }
        let starts = setup.board.starts();
        if starts.len() < setup.seats {
            return Err(GameError::Starts {
                board: setup.board.name.clone(),
                starts: starts.len(),
                seats: setup.seats,
            });
        }
        let robots = starts[..setup.seats]
            .iter()
            .map(|s| Robot::new(*s))
            .collect();
        let mut game = Game::with_robots(setup, robots, false)?;
        game.start_queries = (0..setup.seats)
            .map(|seat| StartQuery {
                seat,
                reentry: false,
                options: vec![starts[seat]],
            })
            .collect();
        game.phase = Phase::Start;
        Ok(game)
    }

    /// A scenario's game (RR16.2): robots placed by hand, programs written, nothing dealt.
    pub fn scripted(
        board: Arc<Board>,
        robots: Vec<Robot>,
        registers: u8,
        max_turns: u16,
    ) -> Result<Game, GameError> {
        let setup = Setup {
            board,
            seats: robots.len(),
            seed: 0,
            max_turns,
        };
        let mut game = Game::with_robots(&setup, robots, true)?;
        game.registers = registers;
        game.begin_turn(1);
        Ok(game)
    }

    fn with_robots(setup: &Setup, robots: Vec<Robot>, scripted: bool) -> Result<Game, GameError> {
        let board = setup.board.clone();
        let mut occupant = vec![NO_ROBOT; board.squares().len()];
        for (seat, r) in robots.iter().enumerate() {
            if r.status != Status::Active {
                continue;
            }
            let ok = board.contains(r.pos)
                && !matches!(board.tile(r.pos), Some(super::super::board::Tile::Pit))
                && occupant[board.index(r.pos)] == NO_ROBOT;
            if !ok {
                return Err(GameError::Placement(seat));
            }
            occupant[board.index(r.pos)] = seat as u8;
        }
        let mut deck = [0u8; DECK_SIZE];
        for (i, c) in deck.iter_mut().enumerate() {
            *c = i as u8;
        }
        Ok(Game {
            stats: vec![SeatStats::default(); robots.len()],
            board,
            robots,
            occupant,
            events: Vec::new(),
            turn: 0,
            register: 0,
            turns_played: 0,
            max_turns: setup.max_turns,
            registers: REGISTERS as u8,
            rng: GameRng::new(setup.seed),
            deck,
            phase: Phase::Over,
            scripted,
            start_queries: Vec::new(),
            program_queries: Vec::new(),
            decisions: Vec::new(),
            refusals: Vec::new(),
            finisher: None,
            snapshots: None,
        })
    }

    pub fn pending(&self) -> Pending<'_> {
        match self.phase {
            Phase::Start => Pending::Start(&self.start_queries),
            Phase::Program => Pending::Program(&self.program_queries),
            Phase::Cards => Pending::Cards,
            Phase::Over => Pending::Over,
        }
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }

    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }

    pub fn stats(&self) -> &[SeatStats] {
        &self.stats
    }

    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// The current turn (0 before the first).
    pub fn turn(&self) -> u16 {
        self.turn
    }

    /// Turns whose registers began (a turn cut short counts).
    pub fn turns_played(&self) -> u16 {
        self.turns_played
    }

    pub fn max_turns(&self) -> u16 {
        self.max_turns
    }

    /// Keeps the robots after every register from now on ([`Game::snapshots`]).
    pub fn keep_snapshots(&mut self) {
        self.snapshots.get_or_insert_with(Vec::new);
    }

    pub fn snapshots(&self) -> &[Snapshot] {
        self.snapshots.as_deref().unwrap_or_default()
    }

    pub(super) fn snapshot(&mut self, stage: &'static str) {
        if let Some(shots) = &mut self.snapshots {
            shots.push(Snapshot {
                turn: self.turn,
                register: self.register,
                stage,
                robots: self.robots.clone(),
                events: self.events.len(),
            });
        }
    }

    /// Why the rules refused the answer `seat` gave in the round last answered (a start
    /// square not offered, an illegal program); `None` when it was taken, or was a fault.
    pub fn refusal_of(&self, seat: Seat) -> Option<&Refusal> {
        self.refusals.get(seat)?.as_ref()
    }

    /// Forgets the refusals of the round before: a new round is being answered.
    fn clear_refusals(&mut self) {
        self.refusals.clear();
        self.refusals.resize(self.robots.len(), None);
    }

    /// The robot that finished, if one did.
    pub fn finisher(&self) -> Option<Seat> {
        self.finisher
    }

    /// The seat on `p`, if an active robot stands there.
    pub fn occupant_at(&self, p: Pos) -> Option<Seat> {
        if !self.board.contains(p) {
            return None;
        }
        let o = self.occupant[self.board.index(p)];
        (o != NO_ROBOT).then_some(o as usize)
    }

    pub(super) fn event(&mut self, robot: Seat, kind: EventKind) {
        self.events.push(Event {
            turn: self.turn,
            register: self.register,
            robot,
            kind,
        });
    }

    fn fault(&mut self, seat: Seat, s: Silence) {
        self.stats[seat].faults += 1;
        self.event(seat, EventKind::Fault(s));
    }

    /// Answers the start or re-entry queries, in their order.
    pub fn answer_start(&mut self, replies: &[StartReply]) -> Result<(), GameError> {
        if self.phase != Phase::Start {
            return Err(GameError::WrongPhase("a start answer"));
        }
        let queries = std::mem::take(&mut self.start_queries);
        if replies.len() != queries.len() {
            self.start_queries = queries;
            return Err(GameError::Answers {
                expected: self.start_queries.len(),
                got: replies.len(),
            });
        }
        self.register = 0;
        self.clear_refusals();
        for (q, reply) in queries.iter().zip(replies) {
            self.decisions.push(Decision::Start {
                seat: q.seat,
                reply: *reply,
            });
            let (wanted, facing) = match *reply {
                StartReply::Choice { at, facing } if q.options.contains(&at) => (at, facing),
                StartReply::Choice { at, .. } => {
                    let options = q.options.clone();
                    self.refusals[q.seat] = Some(Refusal::NotAnOption { at, options });
                    self.fault(q.seat, Silence::Malformed);
                    (q.options[0], Direction::North)
                }
                StartReply::Fault(s) => {
                    self.fault(q.seat, s);
                    (q.options[0], Direction::North)
                }
            };
            if !q.reentry {
                self.robots[q.seat].facing = facing;
                continue;
            }
            let Some(square) = reentry_square(wanted, &q.options, |p| self.is_free(p)) else {
                continue;
            };
            let r = &mut self.robots[q.seat];
            r.status = Status::Active;
            r.pos = square;
            r.facing = facing;
            r.hp = MAX_HP;
            r.power = Power::Up;
            r.registers = [None; REGISTERS];
            let i = self.board.index(square);
            self.occupant[i] = q.seat as u8;
        }
        if self.turn == 0 {
            self.begin_turn(1);
        } else {
            self.deal();
        }
        Ok(())
    }

    pub(super) fn is_free(&self, p: Pos) -> bool {
        self.board.contains(p)
            && !matches!(self.board.tile(p), Some(super::super::board::Tile::Pit))
            && self.occupant_at(p).is_none()
    }

    /// Starts turn `turn`: re-entry queries (RR10.3), or straight on to the deal.
    fn begin_turn(&mut self, turn: u16) {
        self.turn = turn;
        self.register = 0;
        self.start_queries.clear();
        for seat in 0..self.robots.len() {
            let r = self.robots[seat];
            if r.status != Status::Destroyed {
                continue;
            }
            let options = reentry_options(r.respawn, |p| self.is_free(p));
            if !options.is_empty() {
                self.start_queries.push(StartQuery {
                    seat,
                    reentry: true,
                    options,
                });
            }
        }
        if self.start_queries.is_empty() {
            self.deal();
        } else {
            self.phase = Phase::Start;
        }
    }

    /// Power (RR3), then the deal of RR4: the shuffle, hands, locked registers.
    fn deal(&mut self) {
        for r in &mut self.robots {
            if r.power == Power::Announced {
                r.power = Power::Down;
                r.hp = MAX_HP;
            }
            if r.power == Power::Down {
                r.registers = [None; REGISTERS];
            }
        }
        if self.scripted {
            self.phase = Phase::Cards;
            return;
        }
        self.rng.partial_shuffle(&mut self.deck, DECK_SIZE - 1);
        let dealt = |r: &Robot| r.is_active() && r.power == Power::Up;
        // Registers h+1..5 keep their cards; those cards stay out of the deal.
        let mut held = [false; DECK_SIZE];
        for r in self.robots.iter().filter(|r| dealt(r)) {
            for card in r.registers[r.locked_from()..].iter().flatten() {
                held[priority_index(*card)] = true;
            }
        }
        let mut next = 0;
        let deck = self.deck;
        let mut draw = || {
            while held[deck[next] as usize] {
                next += 1;
            }
            let card = DECK[deck[next] as usize];
            next += 1;
            card
        };
        self.program_queries.clear();
        for (seat, r) in self.robots.iter().enumerate() {
            if !dealt(r) {
                continue;
            }
            let hand = (0..r.hp).map(|_| draw()).collect();
            self.program_queries.push(ProgramQuery {
                seat,
                hand,
                free: r.locked_from(),
                locked: Vec::new(),
            });
        }
        for q in &mut self.program_queries {
            let r = &mut self.robots[q.seat];
            for reg in r.locked_from()..REGISTERS {
                let card = *r.registers[reg].get_or_insert_with(&mut draw);
                q.locked.push((reg as u8 + 1, card));
            }
            for reg in &mut r.registers[..q.free] {
                *reg = None;
            }
        }
        if self.program_queries.is_empty() {
            self.run_turn();
        } else {
            self.phase = Phase::Program;
        }
    }

    /// Answers the program queries, in their order (RR5).
    pub fn answer_program(&mut self, replies: &[ProgramReply]) -> Result<(), GameError> {
        if self.phase != Phase::Program {
            return Err(GameError::WrongPhase("a program"));
        }
        if replies.len() != self.program_queries.len() {
            return Err(GameError::Answers {
                expected: self.program_queries.len(),
                got: replies.len(),
            });
        }
        let queries = std::mem::take(&mut self.program_queries);
        self.clear_refusals();
        for (q, reply) in queries.iter().zip(replies) {
            self.decisions.push(Decision::Program {
                seat: q.seat,
                reply: reply.clone(),
            });
            let legal = match reply {
                ProgramReply::Program { cards, power_down } => {
                    match Refusal::of_program(cards, q.free, q.hand.len()) {
                        None => Some((cards, *power_down)),
                        refusal => {
                            self.refusals[q.seat] = refusal;
                            None
                        }
                    }
                }
                ProgramReply::Fault(_) => None,
            };
            let fallback;
            let (cards, power_down) = match legal {
                Some(ok) => ok,
                None => {
                    let why = match reply {
                        ProgramReply::Fault(s) => *s,
                        ProgramReply::Program { .. } => Silence::Malformed,
                    };
                    self.fault(q.seat, why);
                    fallback = fallback_program(&mut self.rng, q.hand.len(), q.free);
                    (&fallback, false)
                }
            };
            let r = &mut self.robots[q.seat];
            for (reg, &i) in cards.iter().enumerate() {
                r.registers[reg] = Some(q.hand[i as usize]);
            }
            if power_down {
                r.power = Power::Announced;
            }
        }
        self.program_queries = queries;
        self.run_turn();
        Ok(())
    }

    /// Plays a scenario turn (RR16.2): `programs` by seat, `None` for a robot the turn
    /// does not name (it plays only its locked cards).
    pub fn play_scripted(&mut self, programs: &[Option<Scripted>]) -> Result<(), GameError> {
        if self.phase != Phase::Cards {
            return Err(GameError::WrongPhase("a scenario turn"));
        }
        for (seat, r) in self.robots.iter_mut().enumerate() {
            if !r.is_active() || r.power != Power::Up {
                continue;
            }
            let written = programs.get(seat).copied().flatten().unwrap_or_default();
            let from = r.locked_from();
            for (reg, slot) in r.registers.iter_mut().enumerate() {
                if reg < from || slot.is_none() {
                    *slot = written.cards[reg];
                }
            }
            if written.power_down {
                r.power = Power::Announced;
            }
        }
        self.run_turn();
        Ok(())
    }

    /// The registers of the turn, then its end (RR3, RR11).
    fn run_turn(&mut self) {
        self.turns_played += 1;
        self.register = 0;
        self.snapshot("start");
        for reg in 1..=self.registers {
            self.register = reg;
            self.run_register(reg as usize - 1);
            if self.finisher.is_some() || self.robots.iter().all(|r| r.status == Status::Dead) {
                self.phase = Phase::Over;
                return;
            }
        }
        for r in &mut self.robots {
            if r.power == Power::Down {
                r.power = Power::Up;
            }
        }
        if self.turn >= self.max_turns {
            self.phase = Phase::Over;
        } else {
            self.begin_turn(self.turn + 1);
        }
    }

    /// RR12.1: the seat's score if the game ended now.
    pub fn score(&self, seat: Seat) -> i64 {
        score_of(&self.board, &self.robots[seat])
    }

    pub fn scores(&self) -> Vec<i64> {
        (0..self.robots.len()).map(|s| self.score(s)).collect()
    }

    /// Whether `seat` has the top score (RR12.2).
    pub fn won(&self, seat: Seat) -> bool {
        let scores = self.scores();
        scores.iter().max() == Some(&scores[seat])
    }

    /// A robot destroyed (RR10.1): off the board, a life lost, registers emptied, UP.
    pub(super) fn destroy(&mut self, seat: Seat, cause: super::Cause) {
        let at = self.robots[seat].pos;
        if self.board.contains(at) && self.occupant[self.board.index(at)] == seat as u8 {
            let i = self.board.index(at);
            self.occupant[i] = NO_ROBOT;
        }
        let r = &mut self.robots[seat];
        r.hp = 0;
        r.lives = r.lives.saturating_sub(1);
        r.status = if r.lives == 0 {
            Status::Dead
        } else {
            Status::Destroyed
        };
        r.registers = [None; REGISTERS];
        r.power = Power::Up;
        self.stats[seat].deaths += 1;
        self.event(seat, EventKind::Destroyed(cause));
    }
}

/// RR12.1: 10 a flag, 30 the finish, and max(0, 10 - d) for an active robot that did not
/// finish, d its board distance to its next target.
pub fn score_of(board: &Board, r: &Robot) -> i64 {
    let mut score = 10 * i64::from(r.checkpoints) + if r.finished { 30 } else { 0 };
    if r.is_active() && !r.finished {
        let d = board.distance(r.checkpoints as usize, r.pos);
        score += d.map_or(0, |d| (10 - i64::from(d)).max(0));
    }
    score
}

/// A card's place in the printed deck (priorities are unique there).
fn priority_index(card: Card) -> usize {
    DECK.iter()
        .position(|c| c.priority == card.priority)
        .unwrap_or(0)
}

/// RR5.2: the first `n` entries of `[0, .., m-1]` after a partial shuffle over `n`
/// positions, `n` draws (also the `random` AI's program).
pub fn fallback_program(rng: &mut GameRng, m: usize, n: usize) -> Vec<u8> {
    let mut order: Vec<u8> = (0..m as u8).collect();
    for i in 0..n.min(m) {
        let j = i + rng.below((m - i) as u32) as usize;
        order.swap(i, j);
    }
    order.truncate(n);
    order
}

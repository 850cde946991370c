//! One game as a state machine: it runs the phases of R3 until it needs answers, then waits.
//!
//! Callers look at [`Game::pending`], ask their players, and hand the replies back with
//! [`Game::answer_start`] / [`Game::answer_turn`] (or, in scenarios, fix the cards with
//! [`Game::play_cards`]). Nothing here blocks, reads a clock or touches I/O, which is what
//! lets the same engine serve built-in AIs, subprocess bots and TCP clients.

use super::board::Board;
use super::cards::Card;
use super::cards::{DECK_SIZE, Move, PRIORITY_COUNT, fresh_deck};
use super::event::{Cause, Event, EventKind};
use super::geometry::Pos;
use super::query::{Decision, PlayedCard, Scripted, StartQuery, StartReply, TurnQuery, TurnReply};
use super::rng::GameRng;
use super::robot::{Robot, Seat, Status};
use std::sync::Arc;
use thiserror::Error;

/// Most players in one game (R2.2).
pub const MAX_PLAYERS: usize = 8;
/// Fewest players in one game (R2.2).
pub const MIN_PLAYERS: usize = 2;
/// Marks an empty square in the occupancy grid.
pub(super) const NO_ROBOT: u8 = u8::MAX;

/// Settings that a bracket format may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameConfig {
    /// The game ends after this turn (R3: 60).
    pub turn_limit: u16,
}

impl Default for GameConfig {
    fn default() -> GameConfig {
        GameConfig { turn_limit: 60 }
    }
}

/// Why a game could not be set up, or a call did not fit the game's state.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {0}")]
    PlayerCount(usize),
    #[error("board {board:?} has {starts} start squares; {players} players need as many")]
    NotEnoughStarts {
        board: String,
        starts: usize,
        players: usize,
    },
    #[error("robot {seat} is at {at}, which is off the board")]
    OffBoard { seat: Seat, at: Pos },
    #[error("robot {seat} is at {at}, which is a pit")]
    OnPit { seat: Seat, at: Pos },
    #[error("robots {first} and {second} are both at {at}")]
    SameSquare { first: Seat, second: Seat, at: Pos },
    #[error("{0} does not fit the game's state: it is waiting for {1}")]
    WrongPhase(&'static str, &'static str),
    #[error("expected {expected} replies, got {got}")]
    ReplyCount { expected: usize, got: usize },
}

/// What the game is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pending<'a> {
    /// Facing at game start, or square and facing on re-entry.
    Start(&'a [StartQuery]),
    /// A card from each dealt hand.
    Turn(&'a [TurnQuery]),
    /// Scenario mode: the caller fixes the cards with [`Game::play_cards`].
    Cards,
    Over,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    Start,
    Turn,
    Cards,
    Over,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Start => "start answers",
            Phase::Turn => "turn answers",
            Phase::Cards => "scenario cards",
            Phase::Over => "nothing (the game is over)",
        }
    }
}

/// A game in progress. About 5 KiB plus its event and decision logs.
#[derive(Debug, Clone)]
pub struct Game {
    pub(super) board: Arc<Board>,
    pub(super) robots: Vec<Robot>,
    pub(super) config: GameConfig,
    pub(super) rng: GameRng,
    /// The turn being played, or the last one played once the game is over; 0 before turn 1.
    pub(super) turn: u16,
    pub(super) phase: Phase,
    /// False in scenario mode: the caller supplies cards instead of the deck.
    pub(super) dealing: bool,
    /// Re-entering (true) or game start (false), while `phase` is `Start`.
    pub(super) reentry: bool,
    pub(super) players_at_start: usize,
    /// Per square: the seat of the active robot on it, or [`NO_ROBOT`].
    pub(super) occupant: Vec<u8>,
    pub(super) events: Vec<Event>,
    pub(super) decisions: Vec<Decision>,
    pub(super) start_queries: Vec<StartQuery>,
    pub(super) turn_queries: Vec<TurnQuery>,
    pub(super) played: [Option<PlayedCard>; MAX_PLAYERS],
    pub(super) deck: [Move; DECK_SIZE],
    pub(super) priorities: [u16; PRIORITY_COUNT],
    /// Pushes of the current movement phase: (mover, victim, victim destroyed by it).
    pub(super) pushes: Vec<(Seat, Seat, bool)>,
    /// Frames of the stage trace, when replays asked for it (`trace.rs`).
    pub(super) trace: Option<Vec<super::trace::Frame>>,
}

impl Game {
    /// A new game: `players` robots on start squares S1.., waiting for their facings (R2.2).
    pub fn new(
        board: Arc<Board>,
        players: usize,
        seed: u64,
        config: GameConfig,
    ) -> Result<Game, GameError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(GameError::PlayerCount(players));
        }
        if board.starts().len() < players {
            return Err(GameError::NotEnoughStarts {
                board: board.name().to_string(),
                starts: board.starts().len(),
                players,
            });
        }
        let robots = board.starts()[..players]
            .iter()
            .map(|&s| Robot::new(s))
            .collect();
        let mut game = Game::with_robots(board, robots, seed, config, true)?;
        game.start_queries = (0..players)
            .map(|seat| StartQuery {
                seat,
                reentry: false,
                options: vec![game.robots[seat].pos],
            })
            .collect();
        game.phase = Phase::Start;
        game.reentry = false;
        Ok(game)
    }

    /// A scenario game (docs/scenarios.md): robots placed as given, no deck, cards supplied per
    /// turn with [`Game::play_cards`], starting at turn `first_turn`.
    pub fn scenario(
        board: Arc<Board>,
        robots: Vec<Robot>,
        first_turn: u16,
        seed: u64,
        config: GameConfig,
    ) -> Result<Game, GameError> {
        if robots.is_empty() || robots.len() > MAX_PLAYERS {
            return Err(GameError::PlayerCount(robots.len()));
        }
        let mut game = Game::with_robots(board, robots, seed, config, false)?;
        game.turn = first_turn.saturating_sub(1);
        game.run_until_query(true);
        Ok(game)
    }

    fn with_robots(
        board: Arc<Board>,
        robots: Vec<Robot>,
        seed: u64,
        config: GameConfig,
        dealing: bool,
    ) -> Result<Game, GameError> {
        let mut occupant = vec![NO_ROBOT; board.len()];
        for (seat, r) in robots.iter().enumerate() {
            if !r.is_active() {
                continue;
            }
            if !board.contains(r.pos) {
                return Err(GameError::OffBoard { seat, at: r.pos });
            }
            if board.square(r.pos).tile.is_pit() {
                return Err(GameError::OnPit { seat, at: r.pos });
            }
            let slot = &mut occupant[board.index(r.pos)];
            if *slot != NO_ROBOT {
                return Err(GameError::SameSquare {
                    first: *slot as Seat,
                    second: seat,
                    at: r.pos,
                });
            }
            *slot = seat as u8;
        }
        let mut priorities = [0u16; PRIORITY_COUNT];
        for (i, p) in priorities.iter_mut().enumerate() {
            *p = 10 * (i as u16 + 1);
        }
        let seats = robots.len();
        Ok(Game {
            players_at_start: robots.len(),
            board,
            robots,
            config,
            rng: GameRng::new(seed),
            turn: 0,
            phase: Phase::Over,
            dealing,
            reentry: false,
            occupant,
            events: Vec::with_capacity(256),
            // One reply per seat and turn, plus starts and a few re-entries: sized once so
            // the log never doubles its allocation mid-game (it dominates a game's memory).
            decisions: Vec::with_capacity(if dealing {
                seats * (usize::from(config.turn_limit) + 2) + 16
            } else {
                0
            }),
            start_queries: Vec::new(),
            turn_queries: Vec::with_capacity(MAX_PLAYERS),
            played: [None; MAX_PLAYERS],
            deck: fresh_deck(),
            priorities,
            pushes: Vec::with_capacity(16),
            trace: None,
        })
    }

    /// What the game waits for now.
    pub fn pending(&self) -> Pending<'_> {
        match self.phase {
            Phase::Start => Pending::Start(&self.start_queries),
            Phase::Turn => Pending::Turn(&self.turn_queries),
            Phase::Cards => Pending::Cards,
            Phase::Over => Pending::Over,
        }
    }

    /// Answers the pending start or re-entry queries, one reply per query in order.
    pub fn answer_start(&mut self, replies: &[StartReply]) -> Result<(), GameError> {
        self.expect_phase(Phase::Start, "answer_start")?;
        self.expect_count(self.start_queries.len(), replies.len())?;
        let queries = std::mem::take(&mut self.start_queries);
        for (q, reply) in queries.iter().zip(replies) {
            self.decisions.push(Decision::Start {
                seat: q.seat,
                reply: *reply,
            });
        }
        if self.reentry {
            self.resolve_reentry(&queries, replies);
            self.record(super::trace::Stage::Reentry, Vec::new());
            self.run_until_query(false);
        } else {
            for (q, reply) in queries.iter().zip(replies) {
                let facing = self.checked_choice(q, reply).1;
                self.robots[q.seat].facing = facing;
            }
            self.run_until_query(true);
        }
        self.start_queries = queries;
        self.start_queries.clear();
        Ok(())
    }

    /// Answers the pending turn queries, one reply per query in order. Faulty or illegal
    /// replies are replaced by a random card of the hand (R5.2); a robot that stays and
    /// powers down plays no card (R5.3) unless it is locked (R4.3).
    pub fn answer_turn(&mut self, replies: &[TurnReply]) -> Result<(), GameError> {
        self.expect_phase(Phase::Turn, "answer_turn")?;
        self.expect_count(self.turn_queries.len(), replies.len())?;
        for (i, &reply) in replies.iter().enumerate() {
            let q = self.turn_queries[i];
            self.decisions.push(Decision::Turn {
                seat: q.seat,
                reply,
            });
            let hand = q.hand.as_slice();
            // The card played, or else the power-down that goes with a random card.
            let chosen = match reply {
                TurnReply::Play { card, power_down } if card < hand.len() => {
                    Ok((hand[card], power_down))
                }
                TurnReply::Play { .. } => {
                    self.fault(q.seat, EventKind::Invalid);
                    Err(false)
                }
                // The hand of a locked robot is its locked card alone.
                TurnReply::StayAndPowerDown if q.locked && !hand.is_empty() => Ok((hand[0], true)),
                TurnReply::StayAndPowerDown => {
                    self.stay_and_power_down(q.seat);
                    continue;
                }
                TurnReply::Stay if q.locked && !hand.is_empty() => Ok((hand[0], false)),
                // No card played: not in the order of R6.1, moved only by others.
                TurnReply::Stay => continue,
                TurnReply::AnyCard { power_down } => Err(power_down),
                TurnReply::Fault(f) => {
                    self.fault(q.seat, f.event_kind());
                    Err(false)
                }
            };
            let (card, power_down) = chosen.unwrap_or_else(|power_down| {
                let i = self.rng.below(hand.len() as u32) as usize;
                (hand[i], power_down)
            });
            self.play(q.seat, PlayedCard { card, power_down });
        }
        self.finish_turn();
        Ok(())
    }

    /// Scenario mode: plays this turn with the given answers, one slot per seat. Answers for
    /// robots that cannot play (destroyed, dead, powered down) are ignored; a robot at
    /// damage 9 plays its locked last card at the given priority (R4.3).
    pub fn play_cards(&mut self, answers: &[Option<Scripted>]) -> Result<(), GameError> {
        self.expect_phase(Phase::Cards, "play_cards")?;
        self.expect_count(self.robots.len(), answers.len())?;
        for (seat, answer) in answers.iter().enumerate() {
            let Some(answer) = *answer else { continue };
            let robot = &self.robots[seat];
            if !robot.is_operational() {
                continue;
            }
            let locked = robot
                .last_card
                .filter(|_| robot.damage >= super::robot::LOCKED_DAMAGE);
            match answer {
                Scripted::Card(mut played) => {
                    if let Some(mv) = locked {
                        played.card.mv = mv;
                    }
                    self.play(seat, played);
                }
                Scripted::NoCard {
                    power_down,
                    priority,
                } => {
                    if !power_down {
                        self.fault(seat, EventKind::Invalid);
                    }
                    match locked {
                        Some(mv) => {
                            let card = Card { mv, priority };
                            self.play(seat, PlayedCard { card, power_down });
                        }
                        None if power_down => self.stay_and_power_down(seat),
                        None => {}
                    }
                }
            }
        }
        self.finish_turn();
        Ok(())
    }

    /// R5.3: no card this turn (the robot keeps its last played card, which it did play),
    /// ANNOUNCED.
    fn stay_and_power_down(&mut self, seat: Seat) {
        self.robots[seat].power = super::robot::Power::Announced;
    }

    fn play(&mut self, seat: Seat, played: PlayedCard) {
        let robot = &mut self.robots[seat];
        robot.last_card = Some(played.card.mv);
        if played.power_down {
            robot.power = super::robot::Power::Announced;
        }
        self.played[seat] = Some(played);
    }

    fn finish_turn(&mut self) {
        if !self.execute_turn() {
            self.run_until_query(true);
        }
    }

    /// Runs turns until a query is pending or the game is over. `new_turn` is false when
    /// the re-entry phase of the current turn has just been answered.
    fn run_until_query(&mut self, mut new_turn: bool) {
        loop {
            if new_turn {
                self.turn += 1;
                if self.open_reentry() {
                    self.phase = Phase::Start;
                    self.reentry = true;
                    return;
                }
            }
            new_turn = true;
            if !self.dealing {
                self.phase = Phase::Cards;
                return;
            }
            self.deal();
            if !self.turn_queries.is_empty() {
                self.phase = Phase::Turn;
                return;
            }
            if self.execute_turn() {
                return;
            }
        }
    }

    /// Movement to game-over check for the current turn (R6–R12). Returns whether the game
    /// ended.
    fn execute_turn(&mut self) -> bool {
        self.movement_phase();
        self.conveyor_phase();
        self.gear_phase();
        self.laser_phase();
        self.end_of_turn();
        self.played = [None; MAX_PLAYERS];
        if self.game_over_check() {
            self.phase = Phase::Over;
            return true;
        }
        false
    }

    /// The chosen square and facing of a start reply, or the fallback (first option, NORTH)
    /// with a fault event (R13.4).
    pub(super) fn checked_choice(
        &mut self,
        q: &StartQuery,
        reply: &StartReply,
    ) -> (Pos, super::geometry::Direction) {
        match *reply {
            StartReply::Choose { pos, facing } if q.options.contains(&pos) => (pos, facing),
            StartReply::Choose { .. } => {
                self.fault(q.seat, EventKind::Invalid);
                (q.options[0], super::geometry::Direction::North)
            }
            StartReply::Fault(f) => {
                self.fault(q.seat, f.event_kind());
                (q.options[0], super::geometry::Direction::North)
            }
        }
    }

    pub(super) fn fault(&mut self, seat: Seat, kind: EventKind) {
        self.events.push(Event::new(self.turn, kind, seat));
    }

    /// The seat of the active robot on `p`, if any (`p` must be on the board).
    #[inline]
    pub(super) fn occupant_at(&self, p: Pos) -> Option<Seat> {
        let o = self.occupant[self.board.index(p)];
        (o != NO_ROBOT).then_some(o as Seat)
    }

    /// Takes a robot off the board: one life less, DESTROYED or DEAD (R10), powered UP
    /// whatever its power was (R13.5).
    pub(super) fn destroy(&mut self, seat: Seat, cause: Cause) {
        let robot = &mut self.robots[seat];
        if robot.status != Status::Active {
            return;
        }
        if self.board.contains(robot.pos) {
            let i = self.board.index(robot.pos);
            if self.occupant[i] == seat as u8 {
                self.occupant[i] = NO_ROBOT;
            }
        }
        robot.lives = robot.lives.saturating_sub(1);
        robot.power = super::robot::Power::Up;
        robot.status = if robot.lives == 0 {
            Status::Dead
        } else {
            Status::Destroyed
        };
        let mut e = Event::new(self.turn, EventKind::Destroyed, seat);
        e.cause = Some(cause);
        self.events.push(e);
    }

    fn expect_phase(&self, phase: Phase, call: &'static str) -> Result<(), GameError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(GameError::WrongPhase(call, self.phase.name()))
        }
    }

    fn expect_count(&self, expected: usize, got: usize) -> Result<(), GameError> {
        if expected == got {
            Ok(())
        } else {
            Err(GameError::ReplyCount { expected, got })
        }
    }

    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }

    pub fn robots(&self) -> &[Robot] {
        &self.robots
    }

    /// The current turn (1-based); 0 before turn 1 starts.
    pub fn turn(&self) -> u16 {
        self.turn
    }

    pub fn config(&self) -> GameConfig {
        self.config
    }

    /// Whether this turn is a repair turn (`repairSitesOn`, R11.3).
    pub fn repair_on(&self) -> bool {
        self.turn.is_multiple_of(5)
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Every event so far, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Every reply consumed so far, in order: with the seed, enough to replay the game.
    pub fn decisions(&self) -> &[Decision] {
        &self.decisions
    }

    /// Number of players the game started with.
    pub fn players(&self) -> usize {
        self.players_at_start
    }

    /// Current scores by seat.
    pub fn scores(&self) -> impl Iterator<Item = i32> + '_ {
        self.robots.iter().map(|r| r.score)
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{Square, Tile};
    use super::super::geometry::Direction;
    use super::super::robot::Power;
    use super::*;

    /// A bare 8x3 floor: starts S1..S8 on the first row, F1 on the last.
    fn game(seed: u64) -> Game {
        let mut squares = vec![Square::FLOOR; 24];
        for (i, sq) in squares.iter_mut().take(MAX_PLAYERS).enumerate() {
            sq.start = Some(i as u8 + 1);
        }
        squares[16].tile = Tile::Flag(1);
        let board = Arc::new(Board::new("r5", "", 8, 3, squares).unwrap());
        Game::new(board, 2, seed, GameConfig::default()).unwrap()
    }

    fn face_south(g: &mut Game) {
        let replies: Vec<StartReply> = g
            .start_queries
            .iter()
            .map(|q| StartReply::Choose {
                pos: q.options[0],
                facing: Direction::South,
            })
            .collect();
        g.answer_start(&replies).unwrap();
    }

    /// Seat 0 answers `reply` while seat 1 plays its first card.
    fn answer_first_seat(g: &mut Game, reply: TurnReply) {
        let other = TurnReply::Play {
            card: 0,
            power_down: false,
        };
        g.answer_turn(&[reply, other]).unwrap();
    }

    /// A game whose seat 0 is locked (9 damage) with F1 as its last card, facing south.
    fn locked_game() -> Game {
        let mut g = game(3);
        g.robots[0].damage = 9;
        g.robots[0].last_card = Some(Move::Forward1);
        face_south(&mut g);
        assert!(g.turn_queries[0].locked);
        g
    }

    /// Seat 0 stayed where it started, played no card, and no seat was faulted.
    fn assert_stayed_without_a_fault(g: &Game) {
        let a = &g.robots[0];
        assert_eq!((a.pos, a.facing), (Pos::new(0, 0), Direction::South));
        assert_eq!(a.last_card, None, "it played no card");
        assert!(
            !g.events.iter().any(|e| matches!(
                e.kind,
                EventKind::Timeout | EventKind::Invalid | EventKind::Crash
            )),
            "{:?}",
            g.events
        );
    }

    #[test]
    fn r5_3_no_card_and_power_down_stays_and_powers_down_without_a_fault() {
        for seed in 0..16 {
            let mut g = game(seed);
            face_south(&mut g);
            answer_first_seat(&mut g, TurnReply::StayAndPowerDown);
            let power_down = Power::Down(super::super::robot::POWER_DOWN_TURNS);
            assert_eq!(g.robots[0].power, power_down);
            assert_stayed_without_a_fault(&g);
            assert_eq!(
                g.decisions[2],
                Decision::Turn {
                    seat: 0,
                    reply: TurnReply::StayAndPowerDown,
                }
            );
        }
    }

    #[test]
    fn r5_3_a_locked_robot_plays_its_locked_card_and_powers_down() {
        let mut g = locked_game();
        answer_first_seat(&mut g, TurnReply::StayAndPowerDown);
        let a = &g.robots[0];
        assert_eq!(a.pos, Pos::new(0, 1), "its locked F1 moved it south");
        assert_eq!(a.power, Power::Down(super::super::robot::POWER_DOWN_TURNS));
    }

    #[test]
    fn a_windward_empty_card_list_stays_powered_up_without_a_fault() {
        for seed in 0..16 {
            let mut g = game(seed);
            face_south(&mut g);
            let power = g.robots[0].power;
            answer_first_seat(&mut g, TurnReply::Stay);
            assert_eq!(g.robots[0].power, power, "it did not power down");
            assert_stayed_without_a_fault(&g);
        }
    }

    #[test]
    fn a_locked_robot_that_stays_plays_its_locked_card() {
        let mut g = locked_game();
        let power = g.robots[0].power;
        answer_first_seat(&mut g, TurnReply::Stay);
        let a = &g.robots[0];
        assert_eq!(a.pos, Pos::new(0, 1), "its locked F1 moved it south");
        assert_eq!(a.power, power);
    }
}

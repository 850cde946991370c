//! The rules of classic RoboRally (docs/roborally.md, RR1 to RR15) as a state machine:
//! [`Game`] runs a turn until it needs answers (start and re-entry squares, programs),
//! then waits; [`Game::pending`] says what for. Pure and deterministic: no I/O, no clock,
//! all randomness from the game's one generator, consumed as RR15 says.
//!
//! `game.rs` holds the state and the turn outline (RR3, deal RR4, programs RR5, re-entry
//! RR10.3); `register.rs` one register (cards RR6, belts RR7, gears and lasers RR8,
//! targets and repair RR9, destruction RR10); `refusal.rs` why an answer was refused.

mod game;
mod refusal;
mod register;

pub use game::{Game, GameError, Pending, Scripted, Setup, Snapshot, fallback_program, score_of};
pub use refusal::Refusal;

use super::cards::card_text;
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::Card;
pub use crate::games::shared::robo::Status;
use crate::games::shared::silence::Silence;

/// A seat, 0-based.
pub type Seat = usize;
/// Registers per turn.
pub const REGISTERS: usize = 5;
/// Most hit points.
pub const MAX_HP: u8 = 9;
/// Lives at the start.
pub const LIVES: u8 = 3;
/// Most seats in a game.
pub const MAX_SEATS: usize = 8;

/// Power (RR2.2, RR5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Power {
    Up,
    /// Asked to power down this turn; DOWN next turn.
    Announced,
    Down,
}

impl Power {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One robot (RR2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Robot {
    /// Its square while ACTIVE (the last one it stood on otherwise).
    pub pos: Pos,
    pub facing: Direction,
    pub hp: u8,
    pub lives: u8,
    /// Flags reached.
    pub checkpoints: u8,
    pub finished: bool,
    pub respawn: Pos,
    pub power: Power,
    pub status: Status,
    /// The card in each register, kept after the turn for the next deal's locks.
    pub registers: [Option<Card>; REGISTERS],
}

impl Robot {
    /// A fresh robot on `at`, facing north until its start answer.
    pub fn new(at: Pos) -> Robot {
        Robot {
            pos: at,
            facing: Direction::North,
            hp: MAX_HP,
            lives: LIVES,
            checkpoints: 0,
            finished: false,
            respawn: at,
            power: Power::Up,
            status: Status::Active,
            registers: [None; REGISTERS],
        }
    }

    pub fn is_active(&self) -> bool {
        self.status == Status::Active
    }

    /// The registers that keep their cards at the next deal (RR4.2): `h+1..5` of an
    /// ACTIVE robot with `h < 5` hp that will be dealt.
    pub fn locked_from(&self) -> usize {
        (self.hp as usize).min(REGISTERS)
    }

    /// The cards the locked registers keep for the next deal (`[]` without locks).
    pub fn locked_cards(&self) -> &[Option<Card>] {
        if self.is_active() && self.power != Power::Announced {
            &self.registers[self.locked_from()..]
        } else {
            &[]
        }
    }
}

/// Why a robot was destroyed (RR10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Cause {
    Pit,
    OffBoard,
    Laser,
}

impl Cause {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// What happened (RR13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EventKind {
    Fault(Silence),
    Push { victim: Seat },
    Destroyed(Cause),
    BoardHit { damage: u8 },
    Hit { victim: Seat },
    Checkpoint { flag: u8 },
    Finish,
    Repair { hp: u8 },
}

/// One event: `register` is 0 outside registers (faults).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    pub turn: u16,
    pub register: u8,
    pub robot: Seat,
    pub kind: EventKind,
}

impl Event {
    /// The event as JSON, robots named by `name`.
    pub fn to_json(&self, name: &dyn Fn(Seat) -> serde_json::Value) -> serde_json::Value {
        let mut v = serde_json::json!({
            "turn": self.turn,
            "register": self.register,
            "kind": self.kind_name(),
            "robot": name(self.robot),
        });
        let extra = match self.kind {
            EventKind::Push { victim } | EventKind::Hit { victim } => {
                Some(("victim", name(victim)))
            }
            EventKind::Destroyed(c) => Some(("cause", c.name().into())),
            EventKind::BoardHit { damage } => Some(("damage", damage.into())),
            EventKind::Checkpoint { flag } => Some(("flag", flag.into())),
            EventKind::Repair { hp } => Some(("hp", hp.into())),
            EventKind::Fault(_) | EventKind::Finish => None,
        };
        if let Some((k, x)) = extra {
            v[k] = x;
        }
        v
    }

    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            EventKind::Fault(s) => s.fault_name(),
            EventKind::Push { .. } => "push",
            EventKind::Destroyed(_) => "destroyed",
            EventKind::BoardHit { .. } => "board_hit",
            EventKind::Hit { .. } => "hit",
            EventKind::Checkpoint { .. } => "checkpoint",
            EventKind::Finish => "finish",
            EventKind::Repair { .. } => "repair",
        }
    }
}

/// A start or re-entry question: the squares offered (one at the game's start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartQuery {
    pub seat: Seat,
    pub reentry: bool,
    pub options: Vec<Pos>,
}

/// An answer to a [`StartQuery`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartReply {
    Choice { at: Pos, facing: Direction },
    Fault(Silence),
}

/// A program question (RR4, RR5): the hand, how many registers to fill, the locked ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramQuery {
    pub seat: Seat,
    pub hand: Vec<Card>,
    /// Registers 1..=free are programmed from the hand.
    pub free: usize,
    /// (register 1..=5, card) of the locked registers.
    pub locked: Vec<(u8, Card)>,
}

/// An answer to a [`ProgramQuery`]: hand indices for registers 1..=free, as given (an
/// illegal list is kept as it came and refused by the engine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramReply {
    Program { cards: Vec<u8>, power_down: bool },
    Fault(Silence),
}

/// One answer as the engine consumed it (the decision log, RR15).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    Start { seat: Seat, reply: StartReply },
    Program { seat: Seat, reply: ProgramReply },
}

/// Per seat figures of a game (RR12.3) and its faults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeatStats {
    pub hits: u32,
    pub deaths: u32,
    pub faults: u32,
}

/// A card as replays and scenarios write it, `null` for none.
pub fn card_json(card: Option<Card>) -> serde_json::Value {
    card.map_or(serde_json::Value::Null, |c| card_text(c).into())
}

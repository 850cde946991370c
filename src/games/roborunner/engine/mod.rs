//! The rules of Robo Runner (docs/roborunner.md, RN3 to RN11, RN14, RN15) as a state
//! machine: [`Game`] begins a turn (dispatch, deal) and waits for the answers of the robots
//! dealt ([`Game::pending`]), then plays the five phases and the end of the turn. Pure and
//! deterministic: no I/O, no clock, all randomness from the game's one generator, drawn as
//! RN15 says.
//!
//! `game.rs` holds the state and the turn outline (dispatch, deal, decisions, end of turn,
//! end of game); `phase.rs` one phase (chips RN8, elements RN9, lasers RN10, end of phase
//! RN11.1).

mod game;
mod phase;
mod refusal;

pub use game::{Game, GameError, Pending, Rules, Scripted, Setup, Snapshot, activation_cost};
pub use refusal::Refusal;

use crate::games::shared::grid::{Direction, Pos};
pub use crate::games::shared::robo::Move;
use crate::games::shared::silence::Silence;
use serde_json::{Value, json};

/// Registers per turn.
pub const REGISTERS: usize = 5;
/// Damage that destroys a robot.
pub const MAX_DAMAGE: u8 = 10;
/// Most seats in a game.
pub const MAX_SEATS: usize = 8;
/// Most scanners in a game (RN13).
pub const MAX_SCANNERS: usize = 4;
/// Ammunition of a robot's option when full (RN12.1).
pub const FULL_AMMO: u8 = 3;
/// Chips dealt to a robot without damage.
pub const HAND: usize = 9;

/// A robot's state (RN3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum State {
    Active,
    /// Off the ship, dispatched at the start of the next turn.
    Destroyed,
    /// No lives left.
    Dead,
    /// Inspected its last inspection point.
    Finished,
}

impl State {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A seat robot's optional equipment (RN12), drawn at creation and kept all game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Equip {
    /// The front beam deals 2 damage.
    Twin,
    /// A second beam fires backward.
    Rear,
    /// Robot hits on it, and its own, deal nothing.
    Shields,
    /// A hit on it deals its damage to the shooter instead.
    Repulsors,
    /// One more step on every move chip.
    Nitro,
    /// It holds its square: it executes nothing and cannot be pushed.
    Clamps,
}

impl Equip {
    /// In the order RN15.1 (b) draws them.
    pub const ALL: [Equip; 6] = [
        Equip::Twin,
        Equip::Rear,
        Equip::Shields,
        Equip::Repulsors,
        Equip::Nitro,
        Equip::Clamps,
    ];

    pub fn name(self) -> &'static str {
        self.into()
    }

    pub fn from_name(name: &str) -> Option<Equip> {
        Equip::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Hand-based options work all turn for one ammo; the others phase by phase.
    pub fn hand_based(self) -> bool {
        matches!(self, Equip::Rear | Equip::Shields)
    }
}

/// One robot (RN3.1): a seat's, or a scanner (RN13) with no seat, lives, inspection point,
/// option or locks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Robot {
    pub state: State,
    /// Its square while ACTIVE (the last one otherwise).
    pub pos: Pos,
    pub facing: Direction,
    pub damage: u8,
    pub lives: u8,
    /// The next inspection point, 1-based (k + 1: all done).
    pub next_ip: u8,
    pub virtual_: bool,
    pub rebooting: bool,
    /// How many registers are locked, the last ones (5 first).
    pub locked: u8,
    /// The chip each locked register keeps (the others hold nothing between turns).
    pub regs: [Option<Move>; REGISTERS],
    /// The chips executed last turn, by register.
    pub last: [Option<Move>; REGISTERS],
    /// Weight earned this turn (RN7.1).
    pub weight: u32,
    /// Place when FINISHED or last standing.
    pub place: Option<u8>,
    pub inspections: u32,
    pub kills: u32,
    pub welds: u32,
    pub deaths: u32,
    pub faults: u32,
    /// Its equipment (RN12): a seat's when the game has equipment.
    pub option: Option<Equip>,
    /// Activations its option has left (RN12.1).
    pub ammo: u8,
    /// A scanner (RN13) rather than a seat's robot.
    pub scanner: bool,
}

impl Robot {
    /// A seat's robot before the first dispatch: DESTROYED with `lives` lives.
    pub fn new(lives: u8) -> Robot {
        Robot {
            state: State::Destroyed,
            pos: Pos::new(0, 0),
            facing: Direction::North,
            damage: 0,
            lives,
            next_ip: 1,
            virtual_: false,
            rebooting: false,
            locked: 0,
            regs: [None; REGISTERS],
            last: [None; REGISTERS],
            weight: 0,
            place: None,
            inspections: 0,
            kills: 0,
            welds: 0,
            deaths: 0,
            faults: 0,
            option: None,
            ammo: FULL_AMMO,
            scanner: false,
        }
    }

    /// A scanner before its first dispatch (RN13.1): DESTROYED, with no lives to lose.
    pub fn new_scanner() -> Robot {
        Robot {
            lives: 0,
            scanner: true,
            ..Robot::new(0)
        }
    }

    pub fn is_active(&self) -> bool {
        self.state == State::Active
    }

    /// Whether register `r` (0-based) is locked.
    pub fn is_locked(&self, r: usize) -> bool {
        r >= REGISTERS - self.locked as usize
    }

    /// The locked registers' chips, `None` for unlocked ones (RN17's `locked`).
    pub fn locked_chips(&self) -> [Option<Move>; REGISTERS] {
        let mut out = [None; REGISTERS];
        for (r, slot) in out.iter_mut().enumerate() {
            if self.is_locked(r) {
                *slot = self.regs[r];
            }
        }
        out
    }
}

/// Chips in the canonical order (RN5.1).
pub const CHIPS: usize = 84;

/// The chip at place `k` (0-based, below [`CHIPS`]) of RN5.1's canonical order: 6 `U`,
/// 18 `L`, 18 `R`, 6 `B`, 18 `F1`, 12 `F2`, 6 `F3` (a scanner's draw, RN15.2 d).
pub fn canonical_chip(k: usize) -> Move {
    let mut left = k;
    for m in Move::ALL {
        if left < m.copies() {
            return m;
        }
        left -= m.copies();
    }
    Move::Forward3
}

/// RN5.2: the registers damage `d` locks.
pub fn locks_for(damage: u8) -> u8 {
    damage.saturating_sub(4).min(REGISTERS as u8)
}

/// What happened (RN17's events).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum EventKind {
    Fault(Silence),
    Dispatch,
    Shock,
    Destroyed {
        cause: &'static str,
        killer: Option<usize>,
    },
    Push {
        victim: usize,
    },
    PushKill {
        victim: usize,
    },
    Transport {
        from: Pos,
        to: Pos,
    },
    Virtual,
    Burn,
    Shot {
        victim: usize,
        damage: u8,
    },
    Weld {
        ip: u8,
        left: u8,
    },
    Inspect {
        ip: u8,
    },
    Finish {
        place: u8,
    },
    Repair {
        amount: u8,
    },
    Reboot,
    Real,
    LastStanding,
}

/// One event; `phase` is 0 outside the phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    pub turn: u16,
    pub phase: u8,
    pub robot: usize,
    pub kind: EventKind,
}

fn pos_json(p: Pos) -> Value {
    json!([p.x, p.y])
}

impl Event {
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            EventKind::Fault(s) => s.fault_name(),
            kind => kind.into(),
        }
    }

    /// The event as JSON, robots named by `name`.
    pub fn to_json(&self, name: &dyn Fn(usize) -> Value) -> Value {
        let mut v = json!({
            "turn": self.turn,
            "phase": self.phase,
            "kind": self.kind_name(),
            "robot": name(self.robot),
        });
        match self.kind {
            EventKind::Destroyed { cause, killer } => {
                v["cause"] = cause.into();
                v["killer"] = killer.map_or(Value::Null, name);
            }
            EventKind::Push { victim } | EventKind::PushKill { victim } => {
                v["victim"] = name(victim);
            }
            EventKind::Transport { from, to } => {
                v["from"] = pos_json(from);
                v["to"] = pos_json(to);
            }
            EventKind::Shot { victim, damage } => {
                v["victim"] = name(victim);
                v["damage"] = damage.into();
            }
            EventKind::Weld { ip, left } => {
                v["ip"] = ip.into();
                v["left"] = left.into();
            }
            EventKind::Inspect { ip } => v["ip"] = ip.into(),
            EventKind::Finish { place } => v["place"] = place.into(),
            EventKind::Repair { amount } => v["amount"] = amount.into(),
            _ => {}
        }
        v
    }
}

/// What a robot dealt this turn is asked (RN6.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    pub seat: usize,
    pub hand: Vec<Move>,
    /// Unlocked registers: the program's length.
    pub free: usize,
    /// Whether the robot was dispatched this turn (its facing is read).
    pub dispatched: bool,
}

/// A seat's answer (RN6.1), or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Answer(Answer),
    Fault(Silence),
}

/// An answer as the seat gave it; the engine checks it against the hand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    pub program: Vec<Move>,
    pub reboot: bool,
    /// Phases of equipment activation (RN12; ignored without equipment).
    pub activate: Vec<u8>,
    pub facing: Option<Direction>,
}

/// One answer as the engine consumed it (the decision log, RN18.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub seat: usize,
    pub reply: Reply,
}

/// The place bonus of RN14.2.
pub fn place_bonus(place: Option<u8>) -> i64 {
    match place {
        Some(1) => 30,
        Some(2) => 20,
        Some(3) => 12,
        Some(4) => 6,
        Some(5..=8) => 3,
        _ => 0,
    }
}

/// RN14.2: 10 a inspection, the place bonus, 5 a kill, 1 a weld.
pub fn score_of(r: &Robot) -> i64 {
    10 * i64::from(r.inspections)
        + place_bonus(r.place)
        + 5 * i64::from(r.kills)
        + i64::from(r.welds)
}

/// A chip as JSON, `null` for none.
pub fn chip_json(chip: Option<Move>) -> Value {
    chip.map_or(Value::Null, |m| m.short().into())
}

//! Defines the [`DecisionLog`]: the orders every robot carried out and the faults of every
//! seat, turn by turn, from which a game is replayed exactly.
//!
//! The log holds what the engine consumed after checking the answers (always-legal
//! [`Order`]s plus the fault of each seat), not the raw answers: that is all the rules depend
//! on, it is a few bytes per robot and turn, and a replay needs no players. Randomness is
//! not logged; it comes again from the game seed.

use super::types::{Dir, FaultKind, Order, RobotId, Seat};
use crate::games::bytes::{ByteReader, LogBytesError};

/// The order one robot carried out in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Decision {
    pub robot: RobotId,
    pub order: Order,
}

/// A seat's fault in one turn: the first problem of its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FaultRecord {
    pub seat: Seat,
    pub robot: Option<RobotId>,
    pub kind: FaultKind,
}

/// The decisions of one turn: one per robot alive at its start, by ascending id, and the
/// faults by seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnDecisions<'a> {
    pub turn: u8,
    pub decisions: &'a [Decision],
    pub faults: &'a [FaultRecord],
}

/// Every turn's decisions of a game, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecisionLog {
    first_turn: u8,
    decisions: Vec<Decision>,
    faults: Vec<FaultRecord>,
    /// Per turn, where its decisions and faults start.
    starts: Vec<(u32, u32)>,
}

impl DecisionLog {
    pub(super) fn new(first_turn: u8) -> DecisionLog {
        DecisionLog {
            first_turn,
            ..DecisionLog::default()
        }
    }

    /// Starts the next turn's record.
    pub(super) fn begin_turn(&mut self) {
        self.starts
            .push((self.decisions.len() as u32, self.faults.len() as u32));
    }

    pub(super) fn push_decision(&mut self, decision: Decision) {
        self.decisions.push(decision);
    }

    pub(super) fn push_fault(&mut self, fault: FaultRecord) {
        self.faults.push(fault);
    }

    /// Number of turns recorded.
    pub fn turns(&self) -> usize {
        self.starts.len()
    }

    /// The decisions of the `i`-th recorded turn (0 is the first played).
    pub fn turn(&self, i: usize) -> Option<TurnDecisions<'_>> {
        let &(d, f) = self.starts.get(i)?;
        let (d_end, f_end) = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or((self.decisions.len() as u32, self.faults.len() as u32));
        Some(TurnDecisions {
            turn: self.first_turn + i as u8,
            decisions: &self.decisions[d as usize..d_end as usize],
            faults: &self.faults[f as usize..f_end as usize],
        })
    }

    /// Every recorded turn, in order.
    pub fn iter(&self) -> impl Iterator<Item = TurnDecisions<'_>> + '_ {
        (0..self.turns()).filter_map(|i| self.turn(i))
    }
}

/// The first byte of an encoded log: bumped when the encoding changes.
const BYTES_FORMAT: u8 = 1;

impl DecisionLog {
    /// The log as stored with a tournament game: the format byte, the first turn, the
    /// number of turns, then per turn its decision and fault counts (u16, u8), each
    /// decision as robot id (u16) and order (u8: guard 0, suicide 1, move 2 + direction,
    /// attack 6 + direction), each fault as seat, robot id + 1 (u16, 0 for none) and kind.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.decisions.len() * 3 + self.starts.len() * 3);
        out.push(BYTES_FORMAT);
        out.push(self.first_turn);
        out.extend_from_slice(&(self.starts.len() as u16).to_le_bytes());
        for turn in self.iter() {
            out.extend_from_slice(&(turn.decisions.len() as u16).to_le_bytes());
            out.push(turn.faults.len() as u8);
            for d in turn.decisions {
                out.extend_from_slice(&d.robot.0.to_le_bytes());
                out.push(order_byte(d.order));
            }
            for f in turn.faults {
                out.push(f.seat.0);
                out.extend_from_slice(&f.robot.map_or(0, |r| r.0 + 1).to_le_bytes());
                out.push(fault_byte(f.kind));
            }
        }
        out
    }

    /// Reads a log written by [`DecisionLog::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<DecisionLog, LogBytesError> {
        let mut r = ByteReader::new(bytes);
        r.expect_format(BYTES_FORMAT)?;
        let mut log = DecisionLog::new(r.u8()?);
        let turns = r.u16()?;
        for _ in 0..turns {
            log.begin_turn();
            let decisions = r.u16()?;
            let faults = r.u8()?;
            for _ in 0..decisions {
                let robot = RobotId(r.u16()?);
                let byte = r.u8()?;
                let order = order_of(byte).ok_or_else(|| r.error(format!("order {byte}")))?;
                log.push_decision(Decision { robot, order });
            }
            for _ in 0..faults {
                let seat = Seat(r.u8()?);
                let robot = r.u16()?.checked_sub(1).map(RobotId);
                let byte = r.u8()?;
                let kind = FAULT_KINDS
                    .get(usize::from(byte))
                    .copied()
                    .ok_or_else(|| r.error(format!("fault kind {byte}")))?;
                log.push_fault(FaultRecord { seat, robot, kind });
            }
        }
        r.finish()?;
        Ok(log)
    }
}

/// The fault kinds in their stored order.
const FAULT_KINDS: [FaultKind; 8] = [
    FaultKind::Missing,
    FaultKind::NotOwnRobot,
    FaultKind::UnknownRobot,
    FaultKind::BadTarget,
    FaultKind::Duplicate,
    FaultKind::Timeout,
    FaultKind::Crash,
    FaultKind::Malformed,
];

fn fault_byte(kind: FaultKind) -> u8 {
    FAULT_KINDS.iter().position(|&k| k == kind).unwrap_or(0) as u8
}

fn order_byte(order: Order) -> u8 {
    match order {
        Order::Guard => 0,
        Order::Suicide => 1,
        Order::Move(d) => 2 + d as u8,
        Order::Attack(d) => 6 + d as u8,
    }
}

fn order_of(byte: u8) -> Option<Order> {
    let dir = |i: u8| Dir::ALL.get(usize::from(i)).copied();
    match byte {
        0 => Some(Order::Guard),
        1 => Some(Order::Suicide),
        2..=5 => dir(byte - 2).map(Order::Move),
        6..=9 => dir(byte - 6).map(Order::Attack),
        _ => None,
    }
}

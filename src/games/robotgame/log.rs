//! Defines the [`DecisionLog`]: the orders every robot carried out and the faults of every
//! seat, turn by turn, from which a game is replayed exactly.
//!
//! The log holds what the engine consumed after checking the answers (always-legal
//! [`Order`]s plus the fault of each seat), not the raw answers: that is all the rules depend
//! on, it is a few bytes per robot and turn, and a replay needs no players. Randomness is
//! not logged; it comes again from the game seed.

use super::types::{FaultKind, Order, RobotId, Seat};

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

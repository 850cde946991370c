//! Defines the [`DecisionLog`]: what every seat's board consumed of its answers, turn by
//! turn, from which a game is replayed exactly.
//!
//! The rules are deterministic given the moves, so the log keeps, per turn and seat still
//! playing, the moves the board read (up to and including the one that stopped the list)
//! or the silence that made the turn a forced pass. The ignored rest of a submission is
//! dropped: it changes nothing. Randomness is not logged; it comes again from the seed.

use super::turn::Consumed;
use super::types::{Answer, Move, Seat, Silence};

/// One seat's record in one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Entry {
    seat: Seat,
    silence: Option<Silence>,
    /// Where its moves start in [`DecisionLog::moves`], and how many.
    start: u32,
    len: u8,
}

/// The records of one turn: one per seat that was still playing, by seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnDecisions<'a> {
    /// The turn's number, from 1.
    pub turn: u32,
    entries: &'a [Entry],
    moves: &'a [Move],
}

impl<'a> TurnDecisions<'a> {
    /// Each seat that played this turn, with the answer that replays it.
    pub fn answers(&self) -> impl Iterator<Item = (Seat, Answer<'a>)> + 'a {
        let moves = self.moves;
        self.entries.iter().map(move |e| {
            let answer = match e.silence {
                Some(s) => Answer::Silent(s),
                None => {
                    let start = e.start as usize;
                    Answer::Moves(&moves[start..start + usize::from(e.len)])
                }
            };
            (e.seat, answer)
        })
    }
}

/// Every turn's records of a game, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecisionLog {
    moves: Vec<Move>,
    entries: Vec<Entry>,
    /// Per turn, where its entries start.
    starts: Vec<u32>,
}

impl DecisionLog {
    /// Starts the next turn's record.
    pub(super) fn begin_turn(&mut self) {
        self.starts.push(self.entries.len() as u32);
    }

    /// Records what `seat`'s board consumed of `answer`.
    pub(super) fn record(&mut self, seat: Seat, answer: Answer<'_>, consumed: Consumed) {
        let start = self.moves.len() as u32;
        let (silence, len) = match (consumed, answer) {
            (Consumed::Silent(s), _) => (Some(s), 0),
            (Consumed::Moves(n), Answer::Moves(moves)) => {
                self.moves.extend_from_slice(&moves[..n]);
                (None, n as u8)
            }
            (Consumed::Moves(_), Answer::Silent(s)) => (Some(s), 0),
        };
        self.entries.push(Entry {
            seat,
            silence,
            start,
            len,
        });
    }

    /// Number of turns recorded.
    pub fn turns(&self) -> usize {
        self.starts.len()
    }

    /// The records of the `i`-th turn (0 is turn 1).
    pub fn turn(&self, i: usize) -> Option<TurnDecisions<'_>> {
        let start = *self.starts.get(i)? as usize;
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.entries.len(), |&e| e as usize);
        Some(TurnDecisions {
            turn: i as u32 + 1,
            entries: &self.entries[start..end],
            moves: &self.moves,
        })
    }

    /// Every recorded turn, in order.
    pub fn iter(&self) -> impl Iterator<Item = TurnDecisions<'_>> + '_ {
        (0..self.turns()).filter_map(|i| self.turn(i))
    }

    /// Moves recorded over the whole game.
    pub fn moves(&self) -> usize {
        self.moves.len()
    }
}

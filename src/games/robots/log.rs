//! Defines the [`DecisionLog`]: what every seat's board consumed of its answers, turn by
//! turn, from which a game is replayed exactly.
//!
//! The rules are deterministic given the moves, so the log keeps, per turn and seat still
//! playing, the moves the board read (up to and including the one that stopped the list)
//! or the silence that made the turn a forced pass. The ignored rest of a submission is
//! dropped: it changes nothing. Randomness is not logged; it comes again from the seed.

use super::turn::Consumed;
use super::types::{Answer, Move, Seat, Silence};
use crate::games::bytes::{ByteReader, LogBytesError};

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

/// The first byte of an encoded log: bumped when the encoding changes.
const BYTES_FORMAT: u8 = 1;

/// The silences in their stored order (stored as 1 + index; 0 means moves follow).
const SILENCES: [Silence; 3] = [Silence::Timeout, Silence::Crash, Silence::Malformed];

impl DecisionLog {
    /// The log as stored with a tournament game: the format byte, the number of turns
    /// (u32), then per turn its entry count (u8) and per entry the seat, 0 and the moves
    /// (count, then each move's index in the protocol's list of names) or 1 + the silence.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(5 + self.entries.len() * 3 + self.moves.len());
        out.push(BYTES_FORMAT);
        out.extend_from_slice(&(self.starts.len() as u32).to_le_bytes());
        for i in 0..self.turns() {
            let start = self.starts[i] as usize;
            let end = self
                .starts
                .get(i + 1)
                .map_or(self.entries.len(), |&e| e as usize);
            out.push((end - start) as u8);
            for e in &self.entries[start..end] {
                out.push(e.seat.0);
                match e.silence {
                    Some(s) => {
                        out.push(1 + SILENCES.iter().position(|&x| x == s).unwrap_or(0) as u8)
                    }
                    None => {
                        out.push(0);
                        out.push(e.len);
                        let from = e.start as usize;
                        for m in &self.moves[from..from + usize::from(e.len)] {
                            out.push(Move::ALL.iter().position(|x| x == m).unwrap_or(0) as u8);
                        }
                    }
                }
            }
        }
        out
    }

    /// Reads a log written by [`DecisionLog::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<DecisionLog, LogBytesError> {
        let mut r = ByteReader::new(bytes);
        r.expect_format(BYTES_FORMAT)?;
        let mut log = DecisionLog::default();
        let turns = r.u32()?;
        for _ in 0..turns {
            log.begin_turn();
            let entries = r.u8()?;
            for _ in 0..entries {
                let seat = Seat(r.u8()?);
                let tag = r.u8()?;
                let start = log.moves.len() as u32;
                let (silence, len) = if tag == 0 {
                    let len = r.u8()?;
                    for _ in 0..len {
                        let byte = r.u8()?;
                        let m = Move::ALL
                            .get(usize::from(byte))
                            .copied()
                            .ok_or_else(|| r.error(format!("move {byte}")))?;
                        log.moves.push(m);
                    }
                    (None, len)
                } else {
                    let s = SILENCES
                        .get(usize::from(tag - 1))
                        .copied()
                        .ok_or_else(|| r.error(format!("silence {tag}")))?;
                    (Some(s), 0)
                };
                log.entries.push(Entry {
                    seat,
                    silence,
                    start,
                    len,
                });
            }
        }
        r.finish()?;
        Ok(log)
    }
}

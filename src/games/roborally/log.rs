//! The decision log's stored bytes (RR15): every start, re-entry and program answer in the
//! order the engine consumed it, faults and illegal programs included, so that the seed,
//! the board, the seats, the settings and these bytes replay the game exactly.

use super::engine::{Decision, ProgramReply, StartReply};
use crate::games::bytes::{ByteReader, LogBytesError, counted, read_counted};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::silence::Silence;

/// The format byte every stored log starts with.
const FORMAT: u8 = 1;
/// Most hand indices kept of one answer (a longer list is illegal all the same).
pub const MAX_ANSWER_CARDS: usize = 16;

/// The log as bytes: a format byte, the number of decisions (u32), then per decision a tag (0 start, 1 program), the
/// seat and the answer.
pub fn to_bytes(log: &[Decision]) -> Vec<u8> {
    let mut out = counted(FORMAT, log.len());
    for d in log {
        match d {
            Decision::Start { seat, reply } => {
                out.extend([0, *seat as u8]);
                match reply {
                    StartReply::Choice { at, facing } => {
                        out.push(0);
                        out.extend((at.x.clamp(-32768, 32767) as i16).to_le_bytes());
                        out.extend((at.y.clamp(-32768, 32767) as i16).to_le_bytes());
                        out.push(facing.index());
                    }
                    StartReply::Fault(s) => out.push(s.code()),
                }
            }
            Decision::Program { seat, reply } => {
                out.extend([1, *seat as u8]);
                match reply {
                    ProgramReply::Program { cards, power_down } => {
                        out.push(0);
                        let cards = &cards[..cards.len().min(MAX_ANSWER_CARDS)];
                        out.push(cards.len() as u8);
                        out.extend(cards);
                        out.push(u8::from(*power_down));
                    }
                    ProgramReply::Fault(s) => out.push(s.code()),
                }
            }
        }
    }
    out
}

/// Reads stored bytes back; damaged bytes are an error naming the byte.
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<Decision>, LogBytesError> {
    read_counted(bytes, FORMAT, |r| {
        let tag = r.u8()?;
        let seat = r.seat(super::engine::MAX_SEATS)?;
        let kind = r.u8()?;
        let fault = |r: &ByteReader<'_>| {
            Silence::from_code(kind).ok_or_else(|| r.error(format!("answer kind {kind}")))
        };
        Ok(match tag {
            0 => Decision::Start {
                seat,
                reply: if kind == 0 {
                    let x = r.u16()? as i16;
                    let y = r.u16()? as i16;
                    let f = r.u8()?;
                    if f > 3 {
                        return Err(r.error(format!("facing {f}")));
                    }
                    StartReply::Choice {
                        at: Pos::new(x.into(), y.into()),
                        facing: Direction::from_index(f),
                    }
                } else {
                    StartReply::Fault(fault(r)?)
                },
            },
            1 => Decision::Program {
                seat,
                reply: if kind == 0 {
                    let n = r.list_len(MAX_ANSWER_CARDS, "cards")?;
                    let cards = (0..n).map(|_| r.u8()).collect::<Result<Vec<u8>, _>>()?;
                    let power_down = r.flag("power-down")?;
                    ProgramReply::Program { cards, power_down }
                } else {
                    ProgramReply::Fault(fault(r)?)
                },
            },
            other => return Err(r.error(format!("decision tag {other}"))),
        })
    })
}

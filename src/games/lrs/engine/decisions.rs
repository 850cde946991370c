//! A compact byte encoding of a game's decision log, stored with each game for replays.
//!
//! A game of 8 players has about 500 replies; one byte per turn reply keeps a stored game
//! near half a kilobyte. Seats are not stored: replaying asks the queries in the same order,
//! so the n-th reply belongs to the n-th query.
//!
//! Encoding, one entry per reply:
//! - turn reply `Play`: one byte `card | power_down << 4` (card 0..=14; an index of 15 or
//!   more, always outside any hand, is stored as 15 and replays as the same invalid reply);
//! - turn reply `StayAndPowerDown` (R5.3, engine version 3 on): one byte `0x40`;
//! - turn reply `Stay` (a Windward empty card list, engine version 3 on): one byte `0x41`;
//! - turn reply `AnyCard` (written by engine version 2 only): one byte `0x20 | power_down << 4`;
//! - turn reply `Fault`: one byte `0xE0 | fault` (timeout 0, invalid 1, crash 2);
//! - start reply `Choose`: `0xF0 | facing`, then x and y as one byte each;
//! - start reply `Fault`: `0xE8 | fault`.

use crate::games::lrs::engine::{Decision, Direction, Fault, Pos, StartReply, TurnReply};
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("stored decisions are corrupt at byte {0}")]
pub struct CorruptDecisions(pub usize);

/// What a stored entry says, without its seat (the replayer knows whose query it answers).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Start(StartReply),
    Turn(TurnReply),
}

impl Reply {
    pub fn start(self) -> Option<StartReply> {
        match self {
            Reply::Start(r) => Some(r),
            Reply::Turn(_) => None,
        }
    }

    pub fn turn(self) -> Option<TurnReply> {
        match self {
            Reply::Turn(r) => Some(r),
            Reply::Start(_) => None,
        }
    }
}

/// The next `n` replies of a decoded log, each of the kind `kind` reads (the answers to
/// one round of queries, as a replay feeds them to the engine), or what stood where one
/// was due (`None`: the log ended).
pub fn take_replies<T>(
    replies: &mut impl Iterator<Item = Reply>,
    n: usize,
    kind: fn(Reply) -> Option<T>,
) -> Result<Vec<T>, Option<Reply>> {
    (0..n)
        .map(|_| {
            let reply = replies.next();
            reply.and_then(kind).ok_or(reply)
        })
        .collect()
}

fn fault_code(f: Fault) -> u8 {
    match f {
        Fault::Timeout => 0,
        Fault::Invalid => 1,
        Fault::Crash => 2,
    }
}

fn fault_of(code: u8, at: usize) -> Result<Fault, CorruptDecisions> {
    match code {
        0 => Ok(Fault::Timeout),
        1 => Ok(Fault::Invalid),
        2 => Ok(Fault::Crash),
        _ => Err(CorruptDecisions(at)),
    }
}

/// Encodes a decision log.
pub fn encode(decisions: &[Decision]) -> Vec<u8> {
    let mut out = Vec::with_capacity(decisions.len() + 16);
    for d in decisions {
        match *d {
            Decision::Turn {
                reply: TurnReply::Play { card, power_down },
                ..
            } => out.push(card.min(15) as u8 | (u8::from(power_down) << 4)),
            Decision::Turn {
                reply: TurnReply::StayAndPowerDown,
                ..
            } => out.push(0x40),
            Decision::Turn {
                reply: TurnReply::Stay,
                ..
            } => out.push(0x41),
            Decision::Turn {
                reply: TurnReply::AnyCard { power_down },
                ..
            } => out.push(0x20 | (u8::from(power_down) << 4)),
            Decision::Turn {
                reply: TurnReply::Fault(f),
                ..
            } => out.push(0xE0 | fault_code(f)),
            Decision::Start {
                reply: StartReply::Choose { pos, facing },
                ..
            } => {
                out.push(0xF0 | facing.index());
                out.push(pos.x.clamp(0, 255) as u8);
                out.push(pos.y.clamp(0, 255) as u8);
            }
            Decision::Start {
                reply: StartReply::Fault(f),
                ..
            } => out.push(0xE8 | fault_code(f)),
        }
    }
    out
}

/// Decodes a decision log into replies, in order.
pub fn decode(bytes: &[u8]) -> Result<Vec<Reply>, CorruptDecisions> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            0x00..=0x1F => out.push(Reply::Turn(TurnReply::Play {
                card: usize::from(b & 0x0F),
                power_down: b & 0x10 != 0,
            })),
            0x20 | 0x30 => out.push(Reply::Turn(TurnReply::AnyCard {
                power_down: b & 0x10 != 0,
            })),
            0x40 => out.push(Reply::Turn(TurnReply::StayAndPowerDown)),
            0x41 => out.push(Reply::Turn(TurnReply::Stay)),
            0xE0..=0xE7 => out.push(Reply::Turn(TurnReply::Fault(fault_of(b & 0x07, i)?))),
            0xE8..=0xEF => out.push(Reply::Start(StartReply::Fault(fault_of(b & 0x07, i)?))),
            0xF0..=0xF3 => {
                let (Some(&x), Some(&y)) = (bytes.get(i + 1), bytes.get(i + 2)) else {
                    return Err(CorruptDecisions(i));
                };
                out.push(Reply::Start(StartReply::Choose {
                    pos: Pos::new(i32::from(x), i32::from(y)),
                    facing: Direction::from_index(b & 0x03),
                }));
                i += 2;
            }
            _ => return Err(CorruptDecisions(i)),
        }
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let log = vec![
            Decision::Start {
                seat: 0,
                reply: StartReply::Choose {
                    pos: Pos::new(3, 11),
                    facing: Direction::West,
                },
            },
            Decision::Start {
                seat: 1,
                reply: StartReply::Fault(Fault::Timeout),
            },
            Decision::Turn {
                seat: 0,
                reply: TurnReply::Play {
                    card: 8,
                    power_down: true,
                },
            },
            Decision::Turn {
                seat: 1,
                reply: TurnReply::Fault(Fault::Crash),
            },
            Decision::Turn {
                seat: 2,
                reply: TurnReply::AnyCard { power_down: false },
            },
            Decision::Turn {
                seat: 3,
                reply: TurnReply::AnyCard { power_down: true },
            },
            Decision::Turn {
                seat: 4,
                reply: TurnReply::StayAndPowerDown,
            },
            Decision::Turn {
                seat: 5,
                reply: TurnReply::Stay,
            },
        ];
        let bytes = encode(&log);
        assert_eq!(bytes.len(), 10);
        let back = decode(&bytes).unwrap();
        let expected: Vec<Reply> = log
            .iter()
            .map(|d| match *d {
                Decision::Start { reply, .. } => Reply::Start(reply),
                Decision::Turn { reply, .. } => Reply::Turn(reply),
            })
            .collect();
        assert_eq!(back, expected);
    }

    /// The bytes engine version 2 wrote read as they did then, so its games replay.
    #[test]
    fn logs_of_engine_version_2_decode_as_before() {
        let stored = [0xF1, 3, 4, 0x05, 0x15, 0x20, 0x30, 0xE1];
        assert_eq!(
            decode(&stored).unwrap(),
            [
                Reply::Start(StartReply::Choose {
                    pos: Pos::new(3, 4),
                    facing: Direction::East,
                }),
                Reply::Turn(TurnReply::Play {
                    card: 5,
                    power_down: false
                }),
                Reply::Turn(TurnReply::Play {
                    card: 5,
                    power_down: true
                }),
                Reply::Turn(TurnReply::AnyCard { power_down: false }),
                Reply::Turn(TurnReply::AnyCard { power_down: true }),
                Reply::Turn(TurnReply::Fault(Fault::Invalid)),
            ]
        );
    }

    #[test]
    fn out_of_range_cards_stay_invalid() {
        let log = [Decision::Turn {
            seat: 0,
            reply: TurnReply::Play {
                card: 1000,
                power_down: false,
            },
        }];
        let back = decode(&encode(&log)).unwrap();
        assert_eq!(
            back,
            [Reply::Turn(TurnReply::Play {
                card: 15,
                power_down: false
            })]
        );
    }

    #[test]
    fn truncated_input_is_an_error() {
        assert_eq!(decode(&[0xF1, 3]), Err(CorruptDecisions(0)));
        assert_eq!(decode(&[0x50]), Err(CorruptDecisions(0)));
    }
}

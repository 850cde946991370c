//! The decision log's stored bytes (RN18.3): every answer in the order the engine consumed
//! it (per turn, per asked seat in seat order), faults and refused answers included, so
//! that the seed, the ship, the seats, the settings and these bytes replay the game.

use super::engine::{Answer, Decision, MAX_SEATS, Move, Reply};
use crate::games::bytes::{LogBytesError, counted, read_counted};
use crate::games::shared::grid::Direction;
use crate::games::shared::silence::Silence;

/// The format byte every stored log starts with.
const FORMAT: u8 = 1;
/// Most chips or activations kept of one answer (a longer list is refused all the same).
pub const MAX_LIST: usize = 16;
/// The facing byte of an answer without one.
const NO_FACING: u8 = 4;

/// The log as bytes: a format byte, the number of decisions (u32), then per decision the
/// seat, a kind (0 an answer, 1-3 a fault) and, for an answer, the chips (count, move
/// numbers), reboot, activations (count, phases) and the facing (4: none).
pub fn to_bytes(log: &[Decision]) -> Vec<u8> {
    let mut out = counted(FORMAT, log.len());
    for d in log {
        out.push(d.seat as u8);
        match &d.reply {
            Reply::Fault(s) => out.push(s.code()),
            Reply::Answer(a) => {
                out.push(0);
                let chips = &a.program[..a.program.len().min(MAX_LIST)];
                out.push(chips.len() as u8);
                out.extend(chips.iter().map(|m| *m as u8));
                out.push(u8::from(a.reboot));
                let act = &a.activate[..a.activate.len().min(MAX_LIST)];
                out.push(act.len() as u8);
                out.extend(act);
                out.push(a.facing.map_or(NO_FACING, Direction::index));
            }
        }
    }
    out
}

/// Reads stored bytes back; damaged bytes are an error naming the byte.
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<Decision>, LogBytesError> {
    read_counted(bytes, FORMAT, |r| {
        let seat = r.seat(MAX_SEATS)?;
        let kind = r.u8()?;
        let reply = if kind == 0 {
            let n = r.list_len(MAX_LIST, "chips")?;
            let mut program = Vec::with_capacity(n);
            for _ in 0..n {
                let m = r.u8()?;
                let chip = Move::ALL
                    .get(m as usize)
                    .copied()
                    .ok_or_else(|| r.error(format!("chip {m}")))?;
                program.push(chip);
            }
            let reboot = r.flag("reboot")?;
            let n = r.list_len(MAX_LIST, "activations")?;
            let activate = (0..n).map(|_| r.u8()).collect::<Result<Vec<u8>, _>>()?;
            let facing = match r.u8()? {
                f @ 0..=3 => Some(Direction::from_index(f)),
                NO_FACING => None,
                other => return Err(r.error(format!("facing {other}"))),
            };
            Reply::Answer(Answer {
                program,
                reboot,
                activate,
                facing,
            })
        } else {
            let silence = Silence::from_code(kind);
            Reply::Fault(silence.ok_or_else(|| r.error(format!("answer kind {kind}")))?)
        };
        Ok(Decision { seat, reply })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_faults_round_trip_and_damage_is_an_error() {
        let log = vec![
            Decision {
                seat: 1,
                reply: Reply::Answer(Answer {
                    program: vec![Move::Forward3, Move::Left],
                    reboot: true,
                    activate: vec![2],
                    facing: Some(Direction::West),
                }),
            },
            Decision {
                seat: 0,
                reply: Reply::Fault(Silence::Timeout),
            },
        ];
        let bytes = to_bytes(&log);
        assert_eq!(from_bytes(&bytes).unwrap(), log);
        assert!(from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut bad = bytes.clone();
        bad[7] = 9; // the first chip
        assert!(from_bytes(&bad).is_err());
    }
}

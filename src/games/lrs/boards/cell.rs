//! Defines [`parse_cell`], the parser of one grid cell token `base [walls] [laser]`.
//!
//! Kept apart from the grid parser so that every token rule of docs/boards.md, and the precise
//! "what is wrong, what is expected" problem for each bad token, sits in one small place.

use super::error::Problem;
use crate::games::lrs::engine::board::{MAX_FLAGS, MAX_STARTS};
use crate::games::lrs::engine::{Direction, Rotation, Square, Tile};
use crate::games::shared::robo::{SuffixProblem, parse_suffix};

/// Parses one cell token `base [walls] [laser]` (docs/boards.md).
pub fn parse_cell(token: &str) -> Result<Square, Problem> {
    let unknown = || Problem::UnknownToken {
        token: token.to_owned(),
    };
    let mut chars = token.chars();
    let first = chars.next().ok_or_else(unknown)?;
    let after_first = chars.as_str();
    let mut square = Square::FLOOR;
    let rest = match first {
        '.' => after_first,
        'P' => {
            square.tile = Tile::Pit;
            after_first
        }
        'R' => {
            square.tile = Tile::Repair;
            after_first
        }
        'F' | 'S' => {
            let digits = after_first
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after_first.len());
            if digits == 0 {
                return Err(unknown());
            }
            let number = &after_first[..digits];
            let max = if first == 'F' { MAX_FLAGS } else { MAX_STARTS };
            let n = match number.parse::<usize>() {
                Ok(n) if (1..=max).contains(&n) && !number.starts_with('0') => n as u8,
                _ if first == 'F' => {
                    return Err(Problem::FlagNumber {
                        token: token.to_owned(),
                    });
                }
                _ => {
                    return Err(Problem::StartNumber {
                        token: token.to_owned(),
                    });
                }
            };
            if first == 'F' {
                square.tile = Tile::Flag(n);
            } else {
                square.start = Some(n);
            }
            &after_first[digits..]
        }
        'c' | 'C' => {
            let dir = chars
                .next()
                .and_then(Direction::from_letter)
                .ok_or_else(unknown)?;
            square.tile = Tile::Conveyor {
                dir,
                express: first == 'C',
            };
            chars.as_str()
        }
        'G' => {
            square.tile = Tile::Gear(match chars.next() {
                Some('+') => Rotation::Clockwise,
                Some('-') => Rotation::CounterClockwise,
                _ => return Err(unknown()),
            });
            chars.as_str()
        }
        _ => return Err(unknown()),
    };
    let (walls, laser) = parse_suffix(rest).map_err(|problem| {
        let token = token.to_owned();
        match problem {
            SuffixProblem::BadWall { found } => Problem::BadWall { token, found },
            SuffixProblem::DuplicateWall { side } => Problem::DuplicateWall { token, side },
            SuffixProblem::BadLaserDirection { found } => {
                Problem::BadLaserDirection { token, found }
            }
            SuffixProblem::BadLaserStrength { found } => Problem::BadLaserStrength { token, found },
            SuffixProblem::Trailing => Problem::UnknownToken { token },
        }
    })?;
    square.walls = walls;
    square.laser = laser;
    Ok(square)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::engine::{Laser, Walls};

    #[test]
    fn cells_parse_every_base_walls_and_lasers() {
        let sq = |t: &str| parse_cell(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(sq("."), Square::FLOOR);
        assert_eq!(sq("P").tile, Tile::Pit);
        assert_eq!(sq("R").tile, Tile::Repair);
        assert_eq!(sq("F3").tile, Tile::Flag(3));
        assert_eq!(sq("S8").start, Some(8));
        assert_eq!(
            sq("CW").tile,
            Tile::Conveyor {
                dir: Direction::West,
                express: true
            }
        );
        assert_eq!(sq("G-").tile, Tile::Gear(Rotation::CounterClockwise));
        let s = sq("cE[WN]@S2");
        assert_eq!(
            s.walls,
            Walls::NONE.with(Direction::North).with(Direction::West)
        );
        assert_eq!(
            s.laser,
            Some(Laser {
                dir: Direction::South,
                strength: 2
            })
        );
        assert_eq!(sq(".@E1").laser.map(|l| l.strength), Some(1));
    }

    #[test]
    fn bad_cells_name_the_problem() {
        for (token, kind) in [
            ("", "unknown"),
            ("x", "unknown"),
            ("cX", "unknown"),
            ("G*", "unknown"),
            ("F", "unknown"),
            ("F0", "flag"),
            ("F01", "flag"),
            ("S9", "start"),
            (".[]", "wall"),
            (".[N", "wall"),
            (".[NS N]", "wall"),
            ("P[SS]", "duplicate"),
            (".@", "direction"),
            (".@E0", "strength"),
            (".x", "unknown"),
        ] {
            let message = parse_cell(token).map(|_| ()).unwrap_err().to_string();
            assert!(message.contains(kind), "{token:?}: {message}");
            assert!(
                message.contains(&format!("{token:?}")),
                "{token:?}: {message}"
            );
        }
    }
}

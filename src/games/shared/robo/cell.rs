//! Defines [`parse_suffix`]: the part of a board cell token after its base, `[walls]` then
//! `@dir[strength]`, the same in every game of the RoboRally family (docs/boards.md).

use super::walls::{Laser, Walls};
use crate::games::shared::grid::Direction;

/// What is wrong with the part of a cell token after its base. Each game words it with
/// the whole token in its own problem type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuffixProblem {
    /// `[` without `]`, `[]`, or a letter that is not a side (`found` says which).
    BadWall {
        found: String,
    },
    DuplicateWall {
        side: char,
    },
    BadLaserDirection {
        found: String,
    },
    BadLaserStrength {
        found: String,
    },
    /// Something after the base that is neither walls nor a laser.
    Trailing,
}

/// Reads `[walls]` and `@dir[strength]` (both optional, in that order) from `rest`, the
/// token after its base.
pub fn parse_suffix(rest: &str) -> Result<(Walls, Option<Laser>), SuffixProblem> {
    let mut walls = Walls::NONE;
    let rest = match rest.strip_prefix('[') {
        Some(inner) => {
            let bad = |found: &str| SuffixProblem::BadWall {
                found: found.to_owned(),
            };
            let Some(close) = inner.find(']') else {
                return Err(bad("no closing ]"));
            };
            if close == 0 {
                return Err(bad("nothing between [ and ]"));
            }
            for c in inner[..close].chars() {
                let side = Direction::from_letter(c)
                    .ok_or_else(|| bad(&format!("{c:?} is not a side")))?;
                if walls.has(side) {
                    return Err(SuffixProblem::DuplicateWall { side: c });
                }
                walls = walls.with(side);
            }
            &inner[close + 1..]
        }
        None => rest,
    };
    let Some(laser) = rest.strip_prefix('@') else {
        return if rest.is_empty() {
            Ok((walls, None))
        } else {
            Err(SuffixProblem::Trailing)
        };
    };
    let mut chars = laser.chars();
    let dir = chars.next();
    let Some(dir) = dir.and_then(Direction::from_letter) else {
        return Err(SuffixProblem::BadLaserDirection {
            found: dir.map_or_else(|| "nothing".to_owned(), String::from),
        });
    };
    let strength = match chars.as_str() {
        "" | "1" => 1,
        "2" => 2,
        "3" => 3,
        other => {
            return Err(SuffixProblem::BadLaserStrength {
                found: other.to_owned(),
            });
        }
    };
    Ok((walls, Some(Laser { dir, strength })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_then_a_laser() {
        let (walls, laser) = parse_suffix("[WN]@S2").unwrap();
        assert_eq!(
            walls,
            Walls::NONE.with(Direction::North).with(Direction::West)
        );
        assert_eq!(
            laser,
            Some(Laser {
                dir: Direction::South,
                strength: 2
            })
        );
        assert_eq!(parse_suffix(""), Ok((Walls::NONE, None)));
        assert_eq!(parse_suffix("x"), Err(SuffixProblem::Trailing));
        assert_eq!(
            parse_suffix("[SS]"),
            Err(SuffixProblem::DuplicateWall { side: 'S' })
        );
    }
}

//! Defines the Windward `<map>` XML conversions: [`to_windward_map`] and
//! [`from_windward_map`] (docs/boards.md, "Windward map XML").
//!
//! The 2012 sample clients receive the board this way in every start and turn message. The
//! XML carries effective walls (a wall shows on both squares it separates), no start squares
//! and no laser strength, so converting back gives the same tiles, laser mounts and
//! directions, and effective walls, but not the start numbers or strengths (read as 1).

use super::error::WindwardMapError;
use crate::games::lrs::engine::board::MAX_SIDE;
use crate::games::lrs::engine::{Board, Direction, Laser, Pos, Rotation, Square, Tile, Walls};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::fmt::Write as _;

/// The Windward `type` of a tile.
fn type_name(tile: Tile) -> &'static str {
    match tile {
        Tile::Floor => "NORMAL",
        Tile::Pit => "PIT",
        Tile::Repair => "REPAIR",
        Tile::Flag(_) => "FLAG",
        Tile::Conveyor { .. } => "CONVEYOR_BELT",
        Tile::Gear(Rotation::Clockwise) => "ROTATE_CLOCKWISE",
        Tile::Gear(Rotation::CounterClockwise) => "ROTATE_COUNTERCLOCKWISE",
    }
}

/// Comma-separated direction words, in N E S W order.
fn sides_list(sides: impl Iterator<Item = Direction>) -> String {
    sides.map(Direction::word).collect::<Vec<_>>().join(",")
}

/// The sides of the belt at `p` that a neighbouring belt feeds into (its exit points here
/// and no wall stands between them).
pub fn conveyor_entries(board: &Board, p: Pos) -> impl Iterator<Item = Direction> + '_ {
    Direction::ALL.into_iter().filter(move |&d| {
        let n = p.step(d);
        board.contains(n)
            && !board.blocked(p, d)
            && board
                .tile(n)
                .and_then(Tile::conveyor)
                .is_some_and(|(dir, _)| dir == d.opposite())
    })
}

/// The `<map width= height=>` element of a board: one `<square>` per cell, row by row, with
/// effective walls ([`Board::wall_on`]), `<conveyor>` and `<laser>` children. Lines are
/// indented by two spaces per level; no trailing newline.
pub fn to_windward_map(board: &Board) -> String {
    let mut out = String::with_capacity(board.len() * 80);
    let _ = writeln!(
        out,
        "<map width=\"{}\" height=\"{}\">",
        board.width(),
        board.height()
    );
    for (i, square) in board.squares().iter().enumerate() {
        let p = board.pos(i);
        let walls = sides_list(Direction::ALL.into_iter().filter(|&d| board.wall_on(p, d)));
        let flag = match square.tile {
            Tile::Flag(n) => n,
            _ => 0,
        };
        let _ = write!(
            out,
            "  <square x=\"{}\" y=\"{}\" type=\"{}\" walls=\"{walls}\" flag=\"{flag}\"",
            p.x,
            p.y,
            type_name(square.tile)
        );
        if square.tile.conveyor().is_none() && square.laser.is_none() {
            out.push_str("/>\n");
            continue;
        }
        out.push_str(">\n");
        if let Some((dir, express)) = square.tile.conveyor() {
            let _ = writeln!(
                out,
                "    <conveyor speed=\"{}\" direction=\"{}\" entry=\"{}\"/>",
                if express { 2 } else { 1 },
                dir.word(),
                sides_list(conveyor_entries(board, p))
            );
        }
        if let Some(laser) = square.laser {
            let _ = writeln!(
                out,
                "    <laser x=\"{}\" y=\"{}\" direction=\"{}\" num-squares=\"{}\"/>",
                p.x,
                p.y,
                laser.dir.word(),
                board.beam_length(p, laser.dir)
            );
        }
        out.push_str("  </square>\n");
    }
    out.push_str("</map>");
    out
}

/// A square being read: its position, the square, and whether a `<conveyor>` was seen.
struct Pending {
    at: Pos,
    square: Square,
    conveyor_seen: bool,
}

/// Parses a `<map>` element (the first one in `xml`, which may be a whole start or turn
/// message) back into a board with an empty name. Walls come back as effective walls on both
/// squares, start squares are lost and laser strengths are 1.
pub fn from_windward_map(xml: &str) -> Result<Board, WindwardMapError> {
    let mut reader = Reader::from_str(xml);
    let mut size: Option<(i32, i32)> = None;
    let mut squares: Vec<Option<Square>> = Vec::new();
    let mut pending: Option<Pending> = None;
    loop {
        let position = reader.buffer_position();
        let event = reader.read_event().map_err(|e| WindwardMapError::Xml {
            position: reader.error_position(),
            message: e.to_string(),
        })?;
        let (element, is_empty) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            Event::End(e) => {
                match (e.name().as_ref(), size) {
                    ("square", Some((w, h))) => {
                        if let Some(p) = pending.take() {
                            finish(&mut squares, p, w, h)?;
                        }
                    }
                    ("map", Some((w, h))) => return build(squares, w, h),
                    _ => {}
                }
                continue;
            }
            Event::Eof => {
                return Err(match size {
                    None => WindwardMapError::NoMap,
                    Some(_) => WindwardMapError::Xml {
                        position,
                        message: "the document ends inside <map>".to_owned(),
                    },
                });
            }
            _ => continue,
        };
        let Some(e) = element else { continue };
        let el = Element { e, position };
        match (e.name().as_ref(), size) {
            ("map", None) => {
                let w = el.int("width", 1, MAX_SIDE)?;
                let h = el.int("height", 1, MAX_SIDE)?;
                size = Some((w, h));
                squares = vec![None; (w * h) as usize];
                if is_empty {
                    return build(squares, w, h);
                }
            }
            ("square", Some((w, h))) => {
                let at = Pos::new(
                    el.int("x", i32::MIN, i32::MAX)?,
                    el.int("y", i32::MIN, i32::MAX)?,
                );
                let tile = match el.required("type")?.as_str() {
                    "NORMAL" => Tile::Floor,
                    "PIT" => Tile::Pit,
                    "REPAIR" => Tile::Repair,
                    "FLAG" => Tile::Flag(el.int("flag", 1, 3)? as u8),
                    "ROTATE_CLOCKWISE" => Tile::Gear(Rotation::Clockwise),
                    "ROTATE_COUNTERCLOCKWISE" => Tile::Gear(Rotation::CounterClockwise),
                    // Filled in by the <conveyor> child.
                    "CONVEYOR_BELT" => Tile::Conveyor {
                        dir: Direction::North,
                        express: false,
                    },
                    other => {
                        return Err(el.bad(
                            "type",
                            other,
                            "NORMAL, CONVEYOR_BELT, ROTATE_CLOCKWISE, ROTATE_COUNTERCLOCKWISE, \
                             REPAIR, FLAG or PIT",
                        ));
                    }
                };
                let mut walls = Walls::NONE;
                let list = el.optional("walls")?.unwrap_or_default();
                for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                    let side = Direction::from_word(word).ok_or_else(|| {
                        el.bad("walls", &list, "comma-separated NORTH, EAST, SOUTH, WEST")
                    })?;
                    walls = walls.with(side);
                }
                let p = Pending {
                    at,
                    square: Square {
                        walls,
                        ..Square::new(tile)
                    },
                    conveyor_seen: false,
                };
                if is_empty {
                    finish(&mut squares, p, w, h)?;
                } else {
                    pending = Some(p);
                }
            }
            ("conveyor", Some(_)) => {
                if let Some(p) = pending
                    .as_mut()
                    .filter(|p| p.square.tile.conveyor().is_some())
                {
                    let express = el.int("speed", 1, 2)? == 2;
                    let dir = el.direction("direction")?;
                    p.square.tile = Tile::Conveyor { dir, express };
                    p.conveyor_seen = true;
                }
            }
            ("laser", Some(_)) => {
                if let Some(p) = pending.as_mut() {
                    let dir = el.direction("direction")?;
                    p.square.laser = Some(Laser { dir, strength: 1 });
                }
            }
            _ => {}
        }
    }
}

/// Stores a finished square.
fn finish(
    squares: &mut [Option<Square>],
    p: Pending,
    w: i32,
    h: i32,
) -> Result<(), WindwardMapError> {
    let Pos { x, y } = p.at;
    if !(0..w).contains(&x) || !(0..h).contains(&y) {
        return Err(WindwardMapError::OutOfRange {
            x,
            y,
            width: w,
            height: h,
        });
    }
    if p.square.tile.conveyor().is_some() && !p.conveyor_seen {
        return Err(WindwardMapError::MissingConveyor { x, y });
    }
    let slot = &mut squares[(y * w + x) as usize];
    if slot.is_some() {
        return Err(WindwardMapError::DuplicateSquare { x, y });
    }
    *slot = Some(p.square);
    Ok(())
}

/// Builds the board once every square is known.
fn build(squares: Vec<Option<Square>>, w: i32, h: i32) -> Result<Board, WindwardMapError> {
    let squares = squares
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            s.ok_or(WindwardMapError::MissingSquare {
                x: i as i32 % w,
                y: i as i32 / w,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Board::new("", "", w, h, squares)?)
}

/// An element being read, with its position for error messages.
struct Element<'a, 'x> {
    e: &'a BytesStart<'x>,
    position: u64,
}

impl Element<'_, '_> {
    fn name(&self) -> String {
        self.e.name().as_ref().to_owned()
    }

    fn optional(&self, attribute: &str) -> Result<Option<String>, WindwardMapError> {
        let attr = self
            .e
            .try_get_attribute(attribute)
            .map_err(|e| WindwardMapError::Xml {
                position: self.position,
                message: e.to_string(),
            })?;
        attr.map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .map_err(|e| WindwardMapError::Xml {
                    position: self.position,
                    message: e.to_string(),
                })
        })
        .transpose()
    }

    fn required(&self, attribute: &str) -> Result<String, WindwardMapError> {
        self.optional(attribute)?
            .ok_or_else(|| WindwardMapError::MissingAttribute {
                element: self.name(),
                attribute: attribute.to_owned(),
                position: self.position,
            })
    }

    fn bad(&self, attribute: &str, value: &str, expected: &str) -> WindwardMapError {
        WindwardMapError::BadAttribute {
            element: self.name(),
            attribute: attribute.to_owned(),
            value: value.to_owned(),
            expected: expected.to_owned(),
            position: self.position,
        }
    }

    fn int(&self, attribute: &str, min: i32, max: i32) -> Result<i32, WindwardMapError> {
        let value = self.required(attribute)?;
        value
            .trim()
            .parse::<i32>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                let expected = if min == i32::MIN {
                    "an integer".to_owned()
                } else {
                    format!("an integer in {min}..={max}")
                };
                self.bad(attribute, &value, &expected)
            })
    }

    fn direction(&self, attribute: &str) -> Result<Direction, WindwardMapError> {
        let value = self.required(attribute)?;
        Direction::from_word(value.trim())
            .ok_or_else(|| self.bad(attribute, &value, "NORTH, EAST, SOUTH or WEST"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::boards::parse::{GridContext, parse_grid};

    #[test]
    fn walls_stop_belts_from_feeding() {
        let ctx = GridContext::new("t", false);
        let board = parse_grid("cE cS\ncE[E] cN", &ctx).unwrap_or_else(|e| panic!("{e}"));
        let entries = |x, y| conveyor_entries(&board, Pos::new(x, y)).collect::<Vec<_>>();
        assert_eq!(entries(1, 0), vec![Direction::South, Direction::West]);
        // (1,0) feeds (1,1) from the north; the wall east of (0,1) stops that belt.
        assert_eq!(entries(1, 1), vec![Direction::North]);
    }
}

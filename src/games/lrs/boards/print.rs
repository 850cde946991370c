//! Defines the board file printer: [`print_board`] writes the TOML text of docs/boards.md.
//!
//! The output is what [`super::parse_board`] reads back into an equal board (the round trip
//! the format promises), with the grid's columns aligned so the file stays hand-editable.

use crate::games::lrs::engine::{Board, Rotation, Square, Tile};

/// The cell token of a square: `base [walls] [laser]`, walls in N E S W order as stored on
/// the square, laser strength omitted when 1.
pub fn square_token(square: &Square) -> String {
    let mut token = match square.tile {
        Tile::Floor => match square.start {
            Some(n) => format!("S{n}"),
            None => ".".to_owned(),
        },
        Tile::Pit => "P".to_owned(),
        Tile::Repair => "R".to_owned(),
        Tile::Flag(n) => format!("F{n}"),
        Tile::Conveyor { dir, express } => {
            format!("{}{}", if express { 'C' } else { 'c' }, dir.letter())
        }
        Tile::Gear(Rotation::Clockwise) => "G+".to_owned(),
        Tile::Gear(Rotation::CounterClockwise) => "G-".to_owned(),
    };
    if !square.walls.is_empty() {
        token.push('[');
        token.extend(square.walls.sides().map(|d| d.letter()));
        token.push(']');
    }
    if let Some(laser) = square.laser {
        token.push('@');
        token.push(laser.dir.letter());
        if laser.strength != 1 {
            token.push_str(&laser.strength.to_string());
        }
    }
    token
}

/// The grid lines of a board, one row per line (each ending in `\n`), cells separated by at
/// least two spaces and each column padded to its widest token.
pub fn print_grid(board: &Board) -> String {
    let width = board.width().max(1) as usize;
    let tokens: Vec<String> = board.squares().iter().map(square_token).collect();
    let mut widths = vec![0; width];
    for (i, token) in tokens.iter().enumerate() {
        widths[i % width] = widths[i % width].max(token.len());
    }
    let mut out = String::new();
    for row in tokens.chunks(width) {
        let mut line = String::new();
        for (x, token) in row.iter().enumerate() {
            if x > 0 {
                line.push_str("  ");
            }
            line.push_str(token);
            line.extend(std::iter::repeat_n(' ', widths[x] - token.len()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The TOML board file of `board`: `name`, `description` (when not empty) and `grid` as a
/// `"""` string.
pub fn print_board(board: &Board) -> String {
    let mut out = format!("name = {}\n", toml_string(board.name()));
    if !board.description().is_empty() {
        out.push_str(&format!(
            "description = {}\n",
            toml_string(board.description())
        ));
    }
    out.push_str("grid = \"\"\"\n");
    out.push_str(&print_grid(board));
    out.push_str("\"\"\"\n");
    out
}

/// A TOML string literal with `text` as its value.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::boards::cell::parse_cell;
    use crate::games::lrs::engine::{Direction, Laser, Walls};

    #[test]
    fn every_token_parses_back() {
        let tiles = [
            Tile::Floor,
            Tile::Pit,
            Tile::Repair,
            Tile::Flag(2),
            Tile::Conveyor {
                dir: Direction::South,
                express: false,
            },
            Tile::Conveyor {
                dir: Direction::North,
                express: true,
            },
            Tile::Gear(Rotation::Clockwise),
            Tile::Gear(Rotation::CounterClockwise),
        ];
        for tile in tiles {
            for walls in 0..16 {
                for laser in [None, Some((Direction::West, 1)), Some((Direction::East, 3))] {
                    let square = Square {
                        tile,
                        walls: Walls(walls),
                        start: (tile == Tile::Floor && walls % 3 == 0).then_some(4),
                        laser: laser.map(|(dir, strength)| Laser { dir, strength }),
                    };
                    let token = square_token(&square);
                    assert_eq!(parse_cell(&token), Ok(square), "{token}");
                }
            }
        }
        let square = Square {
            walls: Walls(0b1111),
            ..Square::new(Tile::Repair)
        };
        assert_eq!(square_token(&square), "R[NESW]");
    }
}

//! Defines [`render_board`], the human text rendering shown by `lrs-tourney boards show`.
//!
//! Board files are precise but hard to picture; the rendering draws one 3-character symbol
//! per square with walls between squares, and a legend for the symbols it uses. Output is
//! ASCII-only and 4 * width + 4 columns wide (68 for a 16-wide board).

use crate::games::lrs::engine::{Board, Direction, Pos, Rotation, Tile};
use std::fmt::Write as _;

/// The two-character symbol of a square's tile.
fn tile_symbol(board: &Board, p: Pos) -> String {
    let square = board.square(p);
    match square.tile {
        Tile::Floor => match square.start {
            Some(n) => format!("S{n}"),
            None => " .".to_owned(),
        },
        Tile::Pit => "##".to_owned(),
        Tile::Repair => " +".to_owned(),
        Tile::Flag(n) => format!("F{n}"),
        Tile::Conveyor { dir, express } => {
            let arrow = arrow(dir);
            if express {
                format!("{arrow}{arrow}")
            } else {
                format!(" {arrow}")
            }
        }
        Tile::Gear(Rotation::Clockwise) => "G+".to_owned(),
        Tile::Gear(Rotation::CounterClockwise) => "G-".to_owned(),
    }
}

fn arrow(dir: Direction) -> char {
    match dir {
        Direction::North => '^',
        Direction::East => '>',
        Direction::South => 'v',
        Direction::West => '<',
    }
}

/// Per square, the laser mark: `*` mount, `-` / `:` beam east-west / north-south, `x` both.
fn laser_marks(board: &Board) -> Vec<char> {
    let mut marks = vec![' '; board.len()];
    for &(from, laser) in board.lasers() {
        let beam = if matches!(laser.dir, Direction::East | Direction::West) {
            '-'
        } else {
            ':'
        };
        let mut at = from;
        for _ in 1..board.beam_length(from, laser.dir) {
            at = at.step(laser.dir);
            let mark = &mut marks[board.index(at)];
            *mark = match *mark {
                ' ' => beam,
                '*' => '*',
                m if m == beam => beam,
                _ => 'x',
            };
        }
    }
    for &(from, _) in board.lasers() {
        marks[board.index(from)] = '*';
    }
    marks
}

/// Wraps `text` at `width` columns.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A text picture of the board with a legend of every symbol it uses and a list of its
/// lasers. ASCII only; fits 80 columns up to 19 squares wide.
pub fn render_board(board: &Board) -> String {
    let (w, h) = (board.width(), board.height());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} - {w}x{h}, {} flag(s), {} start square(s)",
        if board.name().is_empty() {
            "(unnamed board)"
        } else {
            board.name()
        },
        board.flags().len(),
        board.starts().len()
    );
    for line in wrap(board.description(), 78) {
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');

    let marks = laser_marks(board);
    out.push_str(&render_grid(board, &[]));
    out.push('\n');
    out.push_str(&legend(board, &marks));
    out
}

/// The board's grid as text (see [`render_board`]), with robots drawn over their squares as
/// their label and an arrow for their facing (`1>`: robot 1 facing east). Replays print a
/// turn with it.
pub fn render_grid(board: &Board, robots: &[(Pos, char, Direction)]) -> String {
    let (w, h) = (board.width(), board.height());
    let mut out = String::new();
    let marks = laser_marks(board);
    let mut header = "   ".to_owned();
    for x in 0..w {
        let _ = write!(header, " {x:^3}");
    }
    let _ = writeln!(out, "{}", header.trim_end());

    let wall_line = |y: i32| {
        // The horizontal walls above row y (below row h-1 when y == h).
        let mut line = "   ".to_owned();
        for x in 0..w {
            let wall = if y < h {
                board.wall_on(Pos::new(x, y), Direction::North)
            } else {
                board.wall_on(Pos::new(x, h - 1), Direction::South)
            };
            line.push_str(if wall { " ---" } else { "    " });
        }
        line.trim_end().to_owned()
    };
    for y in 0..h {
        let _ = writeln!(out, "{}", wall_line(y));
        let mut line = format!("{y:>2} ");
        for x in 0..w {
            let p = Pos::new(x, y);
            line.push(if board.wall_on(p, Direction::West) {
                '|'
            } else {
                ' '
            });
            match robots.iter().find(|r| r.0 == p) {
                Some(&(_, label, facing)) => {
                    line.push(label);
                    line.push(arrow(facing));
                }
                None => line.push_str(&tile_symbol(board, p)),
            }
            line.push(marks[board.index(p)]);
        }
        if board.wall_on(Pos::new(w - 1, y), Direction::East) {
            line.push('|');
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out, "{}", wall_line(h));
    out
}

/// The legend lines for the symbols `board` uses, then its lasers.
fn legend(board: &Board, marks: &[char]) -> String {
    let tiles: Vec<Tile> = board.squares().iter().map(|s| s.tile).collect();
    let has = |f: &dyn Fn(Tile) -> bool| tiles.iter().any(|&t| f(t));
    let walls = board.squares().iter().any(|s| !s.walls.is_empty());
    let entries: [(bool, &str, &str); 13] = [
        (has(&|t| t == Tile::Floor), " .", "floor"),
        (
            !board.starts().is_empty(),
            "S1",
            "start square 1..8 (floor)",
        ),
        (
            !board.flags().is_empty(),
            "F1",
            "flag 1..3, to be touched in order",
        ),
        (
            has(&|t| t.is_pit()),
            "##",
            "pit: a robot that enters it is destroyed",
        ),
        (has(&|t| t == Tile::Repair), " +", "repair square"),
        (
            has(&|t| t.conveyor().is_some_and(|(_, e)| !e)),
            " >",
            "conveyor belt (speed 1) moving east; < west, ^ north, v south",
        ),
        (
            has(&|t| t.conveyor().is_some_and(|(_, e)| e)),
            ">>",
            "express belt (speed 2) moving east; << west, ^^ north, vv south",
        ),
        (
            has(&|t| t == Tile::Gear(Rotation::Clockwise)),
            "G+",
            "gear turning robots clockwise (right)",
        ),
        (
            has(&|t| t == Tile::Gear(Rotation::CounterClockwise)),
            "G-",
            "gear turning robots counter-clockwise (left)",
        ),
        (
            walls,
            "|",
            "wall between two squares (or on the board edge)",
        ),
        (walls, "---", "wall between two squares above each other"),
        (
            !board.lasers().is_empty(),
            "*",
            "board laser mounted on this square (listed below)",
        ),
        (
            marks.iter().any(|&m| matches!(m, '-' | ':' | 'x')),
            "- :",
            "squares crossed by a laser beam (east-west, north-south; x both)",
        ),
    ];
    let mut out = "Legend:\n".to_owned();
    for (_, symbol, meaning) in entries.iter().filter(|e| e.0) {
        let _ = writeln!(out, "  {symbol:>3}  {meaning}");
    }
    if !board.lasers().is_empty() {
        out.push_str("Lasers:\n");
        for &(p, laser) in board.lasers() {
            let _ = writeln!(
                out,
                "  ({},{}) fires {}, strength {}, covers {} squares",
                p.x,
                p.y,
                laser.dir.word(),
                laser.strength,
                board.beam_length(p, laser.dir)
            );
        }
    }
    out
}

//! Defines [`render`]: a RobotGame position as text, for `replay --text`: the 19x19 arena
//! (`#` outside the disc, `,` spawn squares, `.` other squares) with each robot drawn as
//! its seat number, then one line per seat with its robots and their hit points.

use super::arena::{ARENA, SIZE, Sq};
use super::engine::Game;
use std::fmt::Write;

/// The position of `game` after its last turn, titled `title`; `names` by seat.
pub fn render(title: &str, game: &Game, names: &[String]) -> String {
    let mut out = format!("== {title}\n");
    let mut grid = vec![vec![' '; SIZE]; SIZE];
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            let sq = Sq::new(x, y);
            *cell = if !ARENA.is_walkable(sq) {
                '#'
            } else if ARENA.is_spawn(sq) {
                ','
            } else {
                '.'
            };
        }
    }
    let alive: Vec<_> = game.robots().iter().filter(|r| r.alive).collect();
    for r in &alive {
        let digit = char::from_digit(u32::from(r.seat.0), 10).unwrap_or('?');
        grid[r.sq.y()][r.sq.x()] = digit;
    }
    for row in grid {
        out.extend(row);
        out.push('\n');
    }
    for seat in 0..game.seats() {
        let mine: Vec<String> = alive
            .iter()
            .filter(|r| r.seat.0 == seat)
            .map(|r| format!("{}@{},{}:{}hp", r.id, r.sq.x(), r.sq.y(), r.hp))
            .collect();
        let name = names.get(usize::from(seat)).map_or("", String::as_str);
        let _ = writeln!(
            out,
            "seat {seat} {name}: {} robots {}",
            mine.len(),
            mine.join(" ")
        );
    }
    out
}

//! Defines [`render`]: one seat's Robots board as text, for `replay --text`, in the
//! classic characters: `@` the player, `+` a robot, `*` a heap, `.` an empty square.

use super::board::{Board, Cell};
use super::types::Pos;
use std::fmt::Write;

/// `board` with a title line: level, score, kills, teleports left.
pub fn render(title: &str, board: &Board) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "== {title}: level {}, score {}, kills {}, teleports {}, {:?}",
        board.level(),
        board.score(),
        board.kills(),
        board.teleports(),
        board.status()
    );
    let player = board.player();
    for y in 0..i32::from(board.height()) {
        for x in 0..i32::from(board.width()) {
            let pos = Pos::new(x, y);
            out.push(if player == Some(pos) {
                '@'
            } else {
                match board.cell(pos) {
                    Some(Cell::Robot) => '+',
                    Some(Cell::Heap) => '*',
                    _ => '.',
                }
            });
        }
        out.push('\n');
    }
    out
}

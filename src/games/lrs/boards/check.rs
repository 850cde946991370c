//! Defines the playability checks of boards: [`walkable_from`] and [`playability_problems`].
//!
//! The format only checks numbering; a board is good for games when, in addition, every flag
//! can be reached on foot from every start (walls and pits considered), no start square sits
//! next to a pit, and no flag is ringed by pits. The shipped boards and random boards are
//! held to this.

use crate::games::lrs::engine::{Board, Direction, Pos};
use std::collections::VecDeque;

/// For every square (row-major), whether a robot can walk there from `from` one square at a
/// time without crossing a wall or entering a pit. Belts, gears and lasers are ignored.
pub fn walkable_from(board: &Board, from: Pos) -> Vec<bool> {
    let mut seen = vec![false; board.len()];
    if !board.contains(from) || board.square(from).tile.is_pit() {
        return seen;
    }
    let mut queue = VecDeque::from([from]);
    seen[board.index(from)] = true;
    while let Some(p) = queue.pop_front() {
        for d in Direction::ALL {
            let n = p.step(d);
            if board.contains(n)
                && !board.blocked(p, d)
                && !board.square(n).tile.is_pit()
                && !seen[board.index(n)]
            {
                seen[board.index(n)] = true;
                queue.push_back(n);
            }
        }
    }
    seen
}

/// The direction a robot on `p` most likely moves first: away from the nearest edge.
fn inward(board: &Board, p: Pos) -> Direction {
    let distances = [
        (p.y, Direction::South),
        (board.width() - 1 - p.x, Direction::West),
        (board.height() - 1 - p.y, Direction::North),
        (p.x, Direction::East),
    ];
    distances
        .into_iter()
        .min_by_key(|(dist, _)| *dist)
        .map_or(Direction::North, |(_, d)| d)
}

/// Everything that makes `board` unfit for games, as readable sentences (empty when fine):
/// [`Board::check_playable`], flags unreachable on foot from a start, pits next to a start
/// or one or two squares ahead of it (facing away from its nearest edge), and flags with
/// more than one pit next to them or fewer than two squares to step on from.
pub fn playability_problems(board: &Board) -> Vec<String> {
    let mut problems = Vec::new();
    if let Err(e) = board.check_playable() {
        problems.push(e.to_string());
    }
    let is_pit = |p: Pos| board.tile(p).is_some_and(|t| t.is_pit());
    for (s, &start) in board.starts().iter().enumerate() {
        let reach = walkable_from(board, start);
        for (f, &flag) in board.flags().iter().enumerate() {
            if !reach[board.index(flag)] {
                problems.push(format!(
                    "flag F{} at {flag} cannot be reached on foot from start S{} at {start}",
                    f + 1,
                    s + 1
                ));
            }
        }
        let ahead = inward(board, start);
        let near = Direction::ALL
            .into_iter()
            .map(|d| start.step(d))
            .chain([start.step(ahead).step(ahead)]);
        if let Some(pit) = near.into_iter().find(|&p| is_pit(p)) {
            problems.push(format!(
                "start S{} at {start} has a pit at {pit} in its first move",
                s + 1
            ));
        }
    }
    for (f, &flag) in board.flags().iter().enumerate() {
        let pits = Direction::ALL
            .into_iter()
            .filter(|&d| is_pit(flag.step(d)))
            .count();
        let open = Direction::ALL
            .into_iter()
            .filter(|&d| {
                let n = flag.step(d);
                board.contains(n) && !board.blocked(flag, d) && !is_pit(n)
            })
            .count();
        if pits > 1 || open < 2 {
            problems.push(format!(
                "flag F{} at {flag} has {pits} pits and {open} open squares next to it; \
                 expected at most 1 pit and at least 2 open squares",
                f + 1
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::boards::parse::{GridContext, parse_grid};

    fn grid(text: &str) -> Board {
        parse_grid(text, &GridContext::new("t", true)).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn walls_and_pits_cut_flags_off() {
        let open = grid("S1 . . .\nS2 . . F1");
        assert!(playability_problems(&open).is_empty());
        let walled = grid("S1 . .[E] .\nS2 . .[E] F1");
        let problems = playability_problems(&walled);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("cannot be reached on foot from start S1"));
        assert!(problems[1].contains("cannot be reached on foot from start S2"));
        assert!(problems[2].contains("1 open squares"));
        let pits = grid("S1 . P .\nS2 . P F1");
        assert!(!walkable_from(&pits, Pos::new(0, 0))[pits.index(Pos::new(3, 1))]);
    }

    #[test]
    fn pits_near_starts_and_around_flags_are_reported() {
        let near = grid("S1 P . .\nS2 . . F1\n. . . .");
        assert!(playability_problems(&near)[0].contains("start S1"));
        let ringed = grid("S1 . . . .\n. . . P .\nS2 . P F1 P");
        assert!(playability_problems(&ringed)[0].contains("flag F1"));
    }
}

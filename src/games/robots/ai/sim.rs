//! Defines [`Field`]: the squares of a board as the dodger simulates them (size, scrap
//! heaps), and the robots' step on it.
//!
//! The rules are deterministic but for teleports, so a player can play its moves ahead of
//! time exactly. The engine's [`Board`](crate::games::robots::Board) keeps events,
//! counters and a cell per square; this keeps only what a step needs, with robots as plain
//! position lists the caller owns, so a look-ahead copies a few dozen positions instead of
//! a board.

use crate::games::robots::board::{Board, Cell};
use crate::games::robots::types::Pos;

/// Heaps and scratch space over the squares of one board.
#[derive(Debug, Clone, Default)]
pub(super) struct Field {
    w: i32,
    h: i32,
    heap: Vec<bool>,
    /// Robots arriving per square during a step; all 0 between steps.
    arrivals: Vec<u8>,
    /// Heaps added by [`Field::add_heap`] since the last [`Field::undo_heaps`].
    added: Vec<usize>,
    /// Each robot's square after the step being played, and its index.
    targets: Vec<(Pos, u32)>,
}

/// The square a robot on `r` steps to, chasing `player` (RB3.1).
pub(super) fn toward(r: Pos, player: Pos) -> Pos {
    Pos::new(
        r.x + (player.x - r.x).signum(),
        r.y + (player.y - r.y).signum(),
    )
}

impl Field {
    /// Takes the board's size and heaps; its robots go to `robots`.
    pub fn load(&mut self, board: &Board, robots: &mut Vec<Pos>) {
        self.w = i32::from(board.width());
        self.h = i32::from(board.height());
        let area = (self.w * self.h) as usize;
        self.heap.resize(area, false);
        self.arrivals.clear();
        self.arrivals.resize(area, 0);
        self.added.clear();
        for (heap, cell) in self.heap.iter_mut().zip(board.cells()) {
            *heap = *cell == Cell::Heap;
        }
        robots.clear();
        robots.extend(board.robot_squares().iter().map(|&sq| board.pos(sq)));
    }

    pub fn idx(&self, p: Pos) -> usize {
        (p.y * self.w + p.x) as usize
    }

    /// Squares from `p` to the nearest edge of the board, at most `cap`.
    pub fn room(&self, p: Pos, cap: i32) -> i32 {
        p.x.min(p.y)
            .min(self.w - 1 - p.x)
            .min(self.h - 1 - p.y)
            .min(cap)
    }

    /// On the board and not a heap.
    pub fn open(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h && !self.heap[self.idx(p)]
    }

    /// A heap for good (the caller's state moved on).
    pub fn set_heap(&mut self, i: usize) {
        self.heap[i] = true;
    }

    /// A heap of a look-ahead, taken back by [`Field::undo_heaps`].
    pub fn add_heap(&mut self, i: usize) {
        if !self.heap[i] {
            self.heap[i] = true;
            self.added.push(i);
        }
    }

    pub fn undo_heaps(&mut self) {
        for i in self.added.drain(..) {
            self.heap[i] = false;
        }
    }

    /// One robot step (RB3) of `robots` towards `player`: survivors go to `out`, squares of
    /// new heaps to `wrecked` (not yet heaps here). Returns the kills.
    pub fn step(
        &mut self,
        robots: &[Pos],
        player: Pos,
        out: &mut Vec<Pos>,
        wrecked: &mut Vec<usize>,
    ) -> u32 {
        out.clear();
        wrecked.clear();
        self.targets.clear();
        for &r in robots {
            let t = toward(r, player);
            let i = (t.y * self.w + t.x) as usize;
            self.arrivals[i] += 1;
            self.targets.push((t, i as u32));
        }
        let mut kills = 0;
        for &(t, i) in &self.targets {
            let i = i as usize;
            let n = std::mem::take(&mut self.arrivals[i]);
            if n == 0 {
                continue;
            }
            if self.heap[i] {
                kills += u32::from(n);
            } else if n >= 2 {
                kills += u32::from(n);
                wrecked.push(i);
            } else {
                out.push(t);
            }
        }
        kills
    }

    /// Whether the player on `p` could stand there after the robots `robots` step: on the
    /// board, no heap, no robot, and no robot next to it (none can reach it).
    pub fn safe(&self, robots: &[Pos], p: Pos) -> bool {
        self.open(p) && robots.iter().all(|r| r.distance(p) >= 2)
    }
}

//! What the AIs precompute about a board: walking distances to each flag and the damage
//! board lasers deal on each square.
//!
//! The AIs score positions by "steps still to walk to my next flag", which a straight-line
//! distance gets wrong around walls and pits. Computed once per game per AI.

use crate::games::lrs::engine::{Board, Direction, Pos};
use std::collections::VecDeque;

/// Distance used for squares from which a flag cannot be reached.
pub const UNREACHABLE: u16 = u16::MAX / 2;

/// Per flag, per square: the number of single steps to that flag, walls and pits considered.
#[derive(Debug, Clone)]
pub struct FlagDistances {
    width: i32,
    per_flag: Vec<Vec<u16>>,
    /// Board-laser damage per square when no robot shields it.
    laser_damage: Vec<u8>,
}

impl FlagDistances {
    pub fn new(board: &Board) -> FlagDistances {
        let per_flag = board
            .flags()
            .iter()
            .map(|&flag| bfs_from(board, flag))
            .collect();
        let mut laser_damage = vec![0u8; board.len()];
        for &(mount, laser) in board.lasers() {
            let mut at = mount;
            loop {
                let i = board.index(at);
                laser_damage[i] = laser_damage[i].saturating_add(laser.strength);
                if board.blocked(at, laser.dir) || !board.contains(at.step(laser.dir)) {
                    break;
                }
                at = at.step(laser.dir);
            }
        }
        FlagDistances {
            width: board.width(),
            per_flag,
            laser_damage,
        }
    }

    /// Damage board lasers would deal on `p` (on the board) if nothing shields it.
    pub fn laser_damage(&self, p: Pos) -> u8 {
        self.laser_damage[(p.y * self.width + p.x) as usize]
    }

    /// Steps from `p` (on the board) to flag `flag` (1-based); 0 when all flags are done.
    pub fn to_flag(&self, flag: u8, p: Pos) -> u16 {
        match self.per_flag.get(flag as usize - 1) {
            Some(d) => d[(p.y * self.width + p.x) as usize],
            None => 0,
        }
    }
}

fn bfs_from(board: &Board, target: Pos) -> Vec<u16> {
    let mut dist = vec![UNREACHABLE; board.len()];
    let mut queue = VecDeque::new();
    dist[board.index(target)] = 0;
    queue.push_back(target);
    while let Some(p) = queue.pop_front() {
        let d = dist[board.index(p)];
        for dir in Direction::ALL {
            // Walking from q into p towards `dir.opposite()`, i.e. q = p.step(dir).
            let q = p.step(dir);
            if !board.contains(q) || board.blocked(p, dir) || board.square(q).tile.is_pit() {
                continue;
            }
            let i = board.index(q);
            if dist[i] == UNREACHABLE {
                dist[i] = d + 1;
                queue.push_back(q);
            }
        }
    }
    dist
}

//! Resolves simultaneous movement (RG3): which moves succeed, and who collides with whom.
//!
//! Moves are settled by propagation rather than by repeated sweeps: a move fails at once when
//! its square is wanted twice, would be a swap, or holds a robot that stays; every failure
//! then makes the square it leaves occupied, failing the one robot that wanted it, and so on.
//! Closed cycles (of four or more, the grid allows no odd ones) contain no failure and all
//! move. The buffers live between turns so a turn allocates nothing once warmed up.

use super::arena::{ARENA, SQUARES, Sq};
use super::engine::{NO_ROBOT, Robot};
use super::types::{Order, RobotId};

/// Per-game scratch space for movement.
#[derive(Debug, Clone)]
pub(super) struct Movement {
    /// Destination per robot id (its own square when it does not move).
    dest: Vec<Sq>,
    /// Per robot id: it asked to move.
    moving: Vec<bool>,
    /// Per robot id: its move failed.
    failed: Vec<bool>,
    /// How many moving robots want each square, and the last of them.
    want: [u8; SQUARES],
    wanter: [u16; SQUARES],
    /// Squares with `want > 0`, to reset.
    touched: Vec<Sq>,
    stack: Vec<RobotId>,
    /// Colliding pairs of this turn, `(lower id, higher id)`, sorted.
    pub pairs: Vec<(RobotId, RobotId)>,
}

impl Movement {
    pub fn new() -> Movement {
        Movement {
            dest: Vec::new(),
            moving: Vec::new(),
            failed: Vec::new(),
            want: [0; SQUARES],
            wanter: [NO_ROBOT; SQUARES],
            touched: Vec::new(),
            stack: Vec::new(),
            pairs: Vec::new(),
        }
    }

    /// Moves the robots of `alive` (ascending ids) by their `orders`, updating their squares
    /// and `grid`, and fills [`Movement::pairs`] with the collisions (RG3.3).
    pub fn resolve(
        &mut self,
        robots: &mut [Robot],
        alive: &[RobotId],
        orders: &[Order],
        grid: &mut [u16; SQUARES],
    ) {
        let n = robots.len();
        self.dest.resize(n, Sq(0));
        self.moving.resize(n, false);
        self.failed.resize(n, false);
        self.pairs.clear();
        for &id in alive {
            let i = id.index();
            let from = robots[i].sq;
            let (dest, moving) = match orders[i] {
                Order::Move(dir) => match ARENA.neighbour(from, dir) {
                    Some(to) => (to, true),
                    None => (from, false),
                },
                _ => (from, false),
            };
            self.dest[i] = dest;
            self.moving[i] = moving;
            self.failed[i] = false;
            if moving {
                let w = &mut self.want[dest.index()];
                if *w == 0 {
                    self.touched.push(dest);
                }
                *w = w.saturating_add(1);
                self.wanter[dest.index()] = id.0;
            }
        }
        // RG3.2: the failures that need no other failure first.
        for &id in alive {
            let i = id.index();
            if !self.moving[i] {
                continue;
            }
            let d = self.dest[i];
            let occupant = grid[d.index()];
            let fails = self.want[d.index()] > 1
                || (occupant != NO_ROBOT && {
                    let q = usize::from(occupant);
                    !self.moving[q] || self.dest[q] == robots[i].sq
                });
            if fails {
                self.failed[i] = true;
                self.stack.push(id);
            }
        }
        // A robot that stays blocks the one robot still wanting its square.
        while let Some(f) = self.stack.pop() {
            let s = robots[f.index()].sq.index();
            if self.want[s] == 1 {
                let w = usize::from(self.wanter[s]);
                if !self.failed[w] {
                    self.failed[w] = true;
                    self.stack.push(RobotId(w as u16));
                }
            }
        }
        for &id in alive {
            let i = id.index();
            if self.moving[i] && !self.failed[i] {
                grid[robots[i].sq.index()] = NO_ROBOT;
            }
        }
        for &id in alive {
            let i = id.index();
            if self.moving[i] && !self.failed[i] {
                robots[i].sq = self.dest[i];
                grid[self.dest[i].index()] = id.0;
            }
        }
        self.collide(alive, grid);
        for sq in self.touched.drain(..) {
            self.want[sq.index()] = 0;
        }
    }

    /// RG3.3: a failed move collides with whoever ends on its destination, or else with
    /// every other robot that wanted it.
    fn collide(&mut self, alive: &[RobotId], grid: &[u16; SQUARES]) {
        for &id in alive {
            let i = id.index();
            if !(self.moving[i] && self.failed[i]) {
                continue;
            }
            let d = self.dest[i];
            let occupant = grid[d.index()];
            if occupant != NO_ROBOT {
                add_pair(&mut self.pairs, id, RobotId(occupant));
            } else {
                for &other in alive {
                    let j = other.index();
                    if j != i && self.moving[j] && self.dest[j] == d {
                        add_pair(&mut self.pairs, id, other);
                    }
                }
            }
        }
        self.pairs.sort_unstable();
    }
}

/// Adds the pair once: two robots collide at most once a turn.
fn add_pair(pairs: &mut Vec<(RobotId, RobotId)>, a: RobotId, b: RobotId) {
    let pair = (a.min(b), a.max(b));
    if !pairs.contains(&pair) {
        pairs.push(pair);
    }
}

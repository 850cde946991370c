//! Defines [`Field`]: the squares of a board as the dodger simulates them (size, scrap
//! heaps), and the robots' step on it.
//!
//! The rules are deterministic but for teleports, so a player can play its moves ahead of
//! time exactly. The engine's [`Board`](crate::games::robots::Board) keeps events,
//! counters and a cell per square; this keeps only what a step needs, with robots as plain
//! position lists the caller owns, so a look-ahead copies a few dozen positions instead of
//! a board.

use crate::games::robots::board::Board;
use crate::games::robots::types::Pos;

/// Heaps and scratch space over the squares of one board.
#[derive(Debug, Clone, Default)]
pub(super) struct Field {
    w: i32,
    h: i32,
    heap: Vec<bool>,
    /// Heaps set by [`Field::load`] and [`Field::set_heap`]: cleared by the next load.
    loaded: Vec<usize>,
}

/// The square a robot on `r` steps to, chasing `player` (RB3.1).
pub(super) fn toward(r: Pos, player: Pos) -> Pos {
    Pos::new(
        r.x + (player.x - r.x).signum(),
        r.y + (player.y - r.y).signum(),
    )
}

impl Field {
    /// Takes the board's size and heaps; its robots go to `robots`. Called every turn, so
    /// it touches only the heaps, not every square.
    pub fn load(&mut self, board: &Board, robots: &mut Vec<Pos>) {
        let (w, h) = (i32::from(board.width()), i32::from(board.height()));
        if (w, h) != (self.w, self.h) {
            self.w = w;
            self.h = h;
            let area = (w * h) as usize;
            self.heap = vec![false; area];
            self.loaded.clear();
        }
        for i in self.loaded.drain(..) {
            self.heap[i] = false;
        }
        for &sq in board.heap_squares() {
            self.heap[sq.index()] = true;
            self.loaded.push(sq.index());
        }
        robots.clear();
        robots.extend_from_slice(board.robot_positions());
    }

    pub fn width(&self) -> i32 {
        self.w
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

    /// Whether square `i` holds a heap.
    pub fn heap(&self, i: usize) -> bool {
        self.heap[i]
    }

    /// On the board and not a heap.
    pub fn open(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h && !self.heap[self.idx(p)]
    }

    /// A heap for good (the caller's state moved on).
    pub fn set_heap(&mut self, i: usize) {
        if !self.heap[i] {
            self.heap[i] = true;
            self.loaded.push(i);
        }
    }

    /// One robot step (RB3) of `robots` towards `player`, in place: the survivors stay
    /// (in their order), the squares of new heaps go to `wrecked` (not yet heaps here).
    pub fn step(&self, robots: &mut Vec<Pos>, player: Pos, wrecked: &mut Vec<usize>) -> Stepped {
        wrecked.clear();
        let mut heaps = FieldHeaps {
            heap: &self.heap,
            wrecked,
        };
        let (kept, stepped) = step_robots(robots, player, self.w, &mut heaps);
        robots.truncate(kept);
        stepped
    }
}

/// What one robot step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stepped {
    pub kills: u32,
    /// A robot stepped onto the player's square: the player dies.
    pub hit: bool,
}

/// The heaps a robot step runs into, and where it makes new ones.
pub(super) trait Heaps {
    fn is_heap(&self, i: usize) -> bool;
    /// Robots met on square `i`, which held no heap.
    fn wreck(&mut self, i: usize);
}

/// A field's heaps; new ones are listed, not made.
struct FieldHeaps<'a> {
    heap: &'a [bool],
    wrecked: &'a mut Vec<usize>,
}

impl Heaps for FieldHeaps<'_> {
    #[inline]
    fn is_heap(&self, i: usize) -> bool {
        self.heap[i]
    }

    #[inline]
    fn wreck(&mut self, i: usize) {
        self.wrecked.push(i);
    }
}

/// Words of a bitset with a bit per square of the player's row and column (at most 255
/// each): see [`line_key`].
const LINE_WORDS: usize = 8;

/// The bit of square `t` among the squares of `player`'s row (`x`) and column (`w + y`),
/// `None` off both.
///
/// Robots step towards the player, so two robots can only meet on the player's row or
/// column: off them, the square a robot came from is known from the square it reached
/// (`x < px` came from `x - 1`, `x > px` from `x + 1`, and so for `y`), and only one
/// robot stood there. Only these squares need checking for collisions.
fn line_key(t: Pos, player: Pos, w: i32) -> Option<usize> {
    if t.y == player.y {
        Some(t.x as usize)
    } else if t.x == player.x {
        Some((w + t.y) as usize)
    } else {
        None
    }
}

/// One robot step (RB3) of `robots` on a board `w` squares wide, in place: robots that
/// meet are destroyed and leave a heap, robots that reach a heap are destroyed, and the
/// survivors move to the front in their order. Returns how many survive.
///
/// A look-ahead steps two or three robots at a time, so the step's fixed cost matters
/// most: up to 64 robots, the few on the player's lines are compared pair by pair; past
/// that, a bitset of the lines' squares finds the crowded ones.
pub(super) fn step_robots(
    robots: &mut [Pos],
    player: Pos,
    w: i32,
    heaps: &mut impl Heaps,
) -> (usize, Stepped) {
    let mut hit = false;
    let mut on_lines = 0u64;
    for (k, r) in robots.iter_mut().enumerate() {
        *r = toward(*r, player);
        hit |= *r == player;
        if k < 64 && (r.x == player.x || r.y == player.y) {
            on_lines |= 1 << k;
        }
    }
    let crowds = if robots.len() <= 64 {
        crowded_pairwise(robots, on_lines)
    } else {
        Crowds::PerRobot(crowded_by_square(robots, player, w))
    };
    let mut kills = 0;
    let mut kept = 0;
    for k in 0..robots.len() {
        let t = robots[k];
        let i = (t.y * w + t.x) as usize;
        match crowds.of(k) {
            Crowd::Alone => {
                // Without branches: whether a robot runs into a heap is as good as random
                // to the processor, and a mispredicted branch cost more than the writes.
                let heap = heaps.is_heap(i);
                robots[kept] = t;
                kept += usize::from(!heap);
                kills += u32::from(heap);
            }
            Crowd::First => {
                kills += 1;
                if !heaps.is_heap(i) {
                    heaps.wreck(i);
                }
            }
            Crowd::Later => kills += 1,
        }
    }
    (kept, Stepped { kills, hit })
}

/// Whether a robot shares its square after a step, and if so whether it is the first
/// there (in the order of the robots), whose step makes the heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Crowd {
    Alone,
    First,
    Later,
}

/// Each robot's [`Crowd`] after a step.
enum Crowds {
    /// Bit `k`: robot `k` shares its square; shares it with an earlier robot.
    Bits {
        crowded: u64,
        later: u64,
    },
    PerRobot(Vec<Crowd>),
}

impl Crowds {
    fn of(&self, k: usize) -> Crowd {
        match self {
            Crowds::Bits { crowded, later } => match (crowded >> k & 1, later >> k & 1) {
                (0, _) => Crowd::Alone,
                (_, 0) => Crowd::First,
                _ => Crowd::Later,
            },
            Crowds::PerRobot(crowd) => crowd[k],
        }
    }
}

/// Crowds of at most 64 robots, of which those of `on_lines` (bit per robot) are on the
/// player's row or column.
fn crowded_pairwise(robots: &[Pos], on_lines: u64) -> Crowds {
    let (mut crowded, mut later) = (0u64, 0u64);
    let mut rest = on_lines;
    while rest != 0 {
        let a = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let mut others = rest;
        while others != 0 {
            let b = others.trailing_zeros() as usize;
            others &= others - 1;
            if robots[a] == robots[b] {
                crowded |= 1 << a | 1 << b;
                later |= 1 << b;
            }
        }
    }
    Crowds::Bits { crowded, later }
}

/// Crowds of any number of robots, by a bit per square of the player's lines.
fn crowded_by_square(robots: &[Pos], player: Pos, w: i32) -> Vec<Crowd> {
    let mut seen = [0u64; LINE_WORDS];
    let mut crowded = [0u64; LINE_WORDS];
    let mut first = vec![Crowd::Alone; robots.len()];
    for &r in robots {
        if let Some(key) = line_key(r, player, w) {
            let bit = 1u64 << (key % 64);
            crowded[key / 64] |= seen[key / 64] & bit;
            seen[key / 64] |= bit;
        }
    }
    let mut heaped = [0u64; LINE_WORDS];
    for (k, &r) in robots.iter().enumerate() {
        let Some(key) = line_key(r, player, w) else {
            continue;
        };
        let (word, bit) = (key / 64, 1u64 << (key % 64));
        if crowded[word] & bit != 0 {
            first[k] = if heaped[word] & bit == 0 {
                Crowd::First
            } else {
                Crowd::Later
            };
            heaped[word] |= bit;
        }
    }
    first
}

/// The bit of the square `(dx, dy)` (each in -1..=1) away from a centre, in the masks of
/// [`threatened_around`].
pub(super) const fn around_bit(dx: i32, dy: i32) -> u16 {
    1 << ((dy + 1) * 3 + dx + 1)
}

/// A player may stand on a square after the robots' step if it is [`Field::open`] and no
/// robot is on it or next to it (none can reach it): for the 9 squares around a player at
/// once, the bits left clear by [`threatened_around`].
///
/// For a robot `(dx, dy)` (each in -2..=2) away from a centre, the squares of the 3x3
/// around the centre it is next to or on: `THREAT[(dy + 2) * 5 + dx + 2]`.
const THREAT: [u16; 25] = {
    let mut table = [0u16; 25];
    let mut k = 0;
    while k < 25 {
        let (dx, dy) = (k as i32 % 5 - 2, k as i32 / 5 - 2);
        let mut oy = -1;
        while oy <= 1 {
            let mut ox = -1;
            while ox <= 1 {
                if (ox - dx).abs() <= 1 && (oy - dy).abs() <= 1 {
                    table[k] |= around_bit(ox, oy);
                }
                ox += 1;
            }
            oy += 1;
        }
        k += 1;
    }
    table
};

/// The squares of the 3x3 around `centre` (bits of [`around_bit`]) that a robot of
/// `robots` is on or next to: where a player would be reached by the robots' step.
pub(super) fn threatened_around(robots: &[Pos], centre: Pos) -> u16 {
    let mut bits = 0;
    for r in robots {
        let (dx, dy) = (r.x - centre.x, r.y - centre.y);
        if dx.abs() <= 2 && dy.abs() <= 2 {
            bits |= THREAT[((dy + 2) * 5 + dx + 2) as usize];
        }
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robots::board::Position;
    use crate::games::robots::types::{Answer, Dir, Move, Status};

    proptest::proptest! {
        /// A simulated step is the engine's: a pass played on the board leaves the same
        /// robots and heaps, makes the same kills, and kills the player just as often.
        #[test]
        fn a_step_is_the_engines(
            robots in proptest::collection::hash_set((0i32..12, 0i32..12), 1..100),
            heaps in proptest::collection::hash_set((0i32..12, 0i32..12), 0..12),
            player in (0i32..12, 0i32..12),
        ) {
            let player = Pos::new(player.0, player.1);
            let heaps: Vec<Pos> = heaps.into_iter().map(|(x, y)| Pos::new(x, y)).collect();
            let robots: Vec<Pos> = robots
                .into_iter()
                .map(|(x, y)| Pos::new(x, y))
                .filter(|r| !heaps.contains(r) && *r != player)
                .collect();
            proptest::prop_assume!(!robots.is_empty() && !heaps.contains(&player));
            let position = Position {
                width: 12,
                height: 12,
                level: 1,
                player,
                robots: robots.clone(),
                heaps: heaps.clone(),
                teleports: 0,
                can_blast: false,
            };
            let mut board = Board::from_position(&position, 0).unwrap();
            board.play_turn(Answer::Moves(&[Move::Pass])).unwrap();
            let mut field = Field::default();
            field.load(&Board::from_position(&position, 0).unwrap(), &mut Vec::new());
            let mut stepped_robots = robots;
            let mut wrecked = Vec::new();
            let stepped = field.step(&mut stepped_robots, player, &mut wrecked);
            proptest::prop_assert_eq!(stepped.hit, board.status() == Status::Dead);
            proptest::prop_assert_eq!(stepped.kills, board.kills());
            stepped_robots.sort_unstable();
            proptest::prop_assert_eq!(stepped_robots, board.robots());
            let mut all_heaps = heaps;
            all_heaps.extend(wrecked.iter().map(|&i| Pos::new(i as i32 % 12, i as i32 / 12)));
            all_heaps.sort_unstable();
            proptest::prop_assert_eq!(all_heaps, board.heaps());
        }
    }

    #[test]
    fn threatened_squares_are_those_next_to_a_robot() {
        let centre = Pos::new(10, 10);
        for rx in 5..16 {
            for ry in 5..16 {
                let robot = Pos::new(rx, ry);
                let bits = threatened_around(&[robot], centre);
                let mut squares = vec![(0, 0)];
                squares.extend(Dir::ALL.map(|d| d.delta()));
                for (dx, dy) in squares {
                    let near = robot.distance(Pos::new(10 + dx, 10 + dy)) <= 1;
                    assert_eq!(bits & around_bit(dx, dy) != 0, near, "{robot} {dx},{dy}");
                }
            }
        }
    }
}

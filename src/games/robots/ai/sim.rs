//! Defines [`Field`]: the squares of a board as the dodger simulates them (size, scrap
//! heaps as a bit per square), and the robots' step on it.
//!
//! The rules are deterministic but for teleports, so a player can play its moves ahead of
//! time exactly. The engine's [`Board`] keeps events,
//! counters and a cell per square; this keeps only what a step needs, with robots as plain
//! position lists the caller owns. The plan of a turn and its last stands step every robot
//! here; the look-ahead of a candidate square steps only the robots around the player, on
//! the small squares of [`super::swarm`].

use crate::games::robots::board::Board;
use crate::games::robots::types::Pos;

/// The heaps of one board.
#[derive(Debug, Clone, Default)]
pub(super) struct Field {
    w: i32,
    h: i32,
    /// A bit per square (`y * w + x`), set for a heap; one word more than the squares
    /// need, so that a run of squares is read from two words without a bounds check.
    heap: Vec<u64>,
    /// Heaps set by [`Field::load`] and [`Field::set_heap`]: cleared by the next load.
    loaded: Vec<usize>,
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
            self.heap = vec![0; area / 64 + 2];
            self.loaded.clear();
        }
        for i in self.loaded.drain(..) {
            self.heap[i / 64] = 0;
        }
        for &sq in board.heap_squares() {
            let i = sq.index();
            self.heap[i / 64] |= 1 << (i % 64);
            self.loaded.push(i);
        }
        robots.clear();
        robots.extend_from_slice(board.robot_positions());
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
    #[inline]
    pub fn heap(&self, i: usize) -> bool {
        self.heap[i / 64] >> (i % 64) & 1 != 0
    }

    /// A heap for good (the caller's state moved on).
    pub fn set_heap(&mut self, i: usize) {
        if !self.heap(i) {
            self.heap[i / 64] |= 1 << (i % 64);
            self.loaded.push(i);
        }
    }

    /// The 16 x 16 squares from `(x0, y0)` on, a row each, bit `j` of row `i` for
    /// `(x0 + j, y0 + i)`: set for a heap or a square off the board. Only the rows of
    /// `read` are read; the others are all closed.
    pub fn closed_rows(&self, x0: i32, y0: i32, read: std::ops::Range<usize>) -> [u16; 16] {
        let mut rows = [u16::MAX; 16];
        let (lo, hi) = (x0.max(0), (x0 + 16).min(self.w));
        if lo >= hi {
            return rows;
        }
        // The columns on the board are the same for every row.
        let (n, shift) = ((hi - lo) as u32, (lo - x0) as u32);
        let mask = (1u32 << n) - 1;
        let off_board = !(mask << shift) as u16;
        // The rows on the board, found once instead of a test a row.
        let first = read.start.max((-y0).max(0) as usize).min(16);
        let end = read.end.min((self.h - y0).max(0) as usize).clamp(first, 16);
        for (y, row) in (y0 + first as i32..).zip(&mut rows[first..end]) {
            let heaps = self.run((y * self.w + lo) as usize, n) as u32 & mask;
            *row = off_board | (heaps << shift) as u16;
        }
        rows
    }

    /// The heap bits of the `n` (at most 64 - 16) squares from square `start` on.
    #[inline]
    fn run(&self, start: usize, n: u32) -> u64 {
        debug_assert!(n <= 64 - 16);
        let (word, off) = (start / 64, (start % 64) as u32);
        // Both words, without a branch: whether a run crosses into the next word is as
        // good as random to the processor. Shifted in two, as a shift by 64 is no shift.
        (self.heap[word] >> off) | (self.heap[word + 1] << 1 << (63 - off))
    }

    /// One robot step (RB3) of `robots` towards `player`, in place: the survivors stay
    /// (in their order), the squares of new heaps go to `wrecked` (not yet heaps here).
    ///
    /// Robots step towards one square, so two of them can only meet on the player's row
    /// or column: off them, the square a robot reached has one square it can have come
    /// from, which held one robot. Only the squares of those two lines are looked at for
    /// collisions ([`Meetings`]), whatever the number of robots. The loop has no branch:
    /// whether a robot runs into a heap, or is on a line, is as good as random to the
    /// processor.
    pub fn step(&self, robots: &mut Vec<Pos>, player: Pos, wrecked: &mut Vec<usize>) -> Stepped {
        wrecked.clear();
        if self.w <= 64 && self.h <= 64 {
            self.step_with::<NarrowMeetings>(robots, player, wrecked)
        } else {
            self.step_with::<WideMeetings>(robots, player, wrecked)
        }
    }

    /// [`Field::step`], with the robots' meetings found by `M`.
    #[inline(always)]
    fn step_with<M: Meetings>(
        &self,
        robots: &mut Vec<Pos>,
        player: Pos,
        wrecked: &mut Vec<usize>,
    ) -> Stepped {
        let mut meetings = M::default();
        let (mut kills, mut hit, mut kept) = (0, false, 0);
        // Locals, so that the loop does not reload them after every write.
        let (heap_bits, w) = (&self.heap[..], self.w);
        let moved = &mut robots[..];
        for k in 0..moved.len() {
            let r = moved[k].toward(player);
            hit |= r == player;
            let i = (r.y * w + r.x) as usize;
            let heap = heap_bits[i / 64] >> (i % 64) & 1 != 0;
            meetings.reach(r, player, w, !heap);
            moved[kept] = r;
            kept += usize::from(!heap);
            kills += u32::from(heap);
        }
        robots.truncate(kept);
        if let Some(crowded) = meetings.crowded(w) {
            kills += self.wreck(robots, player, &crowded, wrecked);
        }
        Stepped { kills, hit }
    }

    /// Destroys the robots on the line squares of `crowded` (bits of [`line_key`]); the
    /// squares go to `wrecked`, once each. Returns how many robots were destroyed.
    fn wreck(
        &self,
        robots: &mut Vec<Pos>,
        player: Pos,
        crowded: &[u64; LINE_WORDS],
        wrecked: &mut Vec<usize>,
    ) -> u32 {
        let mut heaped = [0u64; LINE_WORDS];
        let before = robots.len();
        let moved = &mut robots[..];
        let mut kept = 0;
        for k in 0..before {
            let r = moved[k];
            let key = line_key(r, player, self.w);
            let (word, bit) = (key / 64, 1u64 << (key % 64));
            // Survivors are kept without a branch: which robots met is as good as random
            // to the processor. The heap is listed once per square.
            let met = crowded[word] & bit != 0;
            if met && heaped[word] & bit == 0 {
                heaped[word] |= bit;
                wrecked.push(self.idx(r));
            }
            moved[kept] = r;
            kept += usize::from(!met);
        }
        robots.truncate(kept);
        (before - kept) as u32
    }

    /// The step at which one of `robots` reaches a player who stands on `player` from now
    /// on (RB3, as in a last stand), or `None` if every robot is destroyed first.
    /// `group` is scratch space.
    ///
    /// Played distance by distance instead of step by step: every step brings every robot
    /// one square nearer (the distance is the number of steps), so a robot only ever
    /// meets robots that started as far as itself, and a heap made by robots that started
    /// `d` squares away lies where only robots that started farther pass, later. The
    /// nearest distance from which a robot gets through decides; usually the first, one
    /// robot walked to the player.
    pub fn last_stand(&mut self, robots: &[Pos], player: Pos, group: &mut Vec<Pos>) -> Option<u32> {
        group.clear();
        group.extend_from_slice(robots);
        let mark = self.mark();
        let mut reached = None;
        let mut start = 0;
        // The nearest distance not played yet, its robots moved to the front of the rest:
        // usually the first distance decides, so the robots are not sorted.
        while let Some(d) = group[start..].iter().map(|r| r.distance(player)).min() {
            let mut end = start;
            for k in start..group.len() {
                if group[k].distance(player) == d {
                    group.swap(k, end);
                    end += 1;
                }
            }
            if self.gets_through(&mut group[start..end], player, d) {
                reached = Some(d as u32);
                break;
            }
            start = end;
        }
        self.rollback(mark);
        reached
    }

    /// Steps robots that all start `d` squares from `player` until they are next to it;
    /// returns whether one is left (and reaches it in the next step). Their collisions
    /// make heaps on the field.
    fn gets_through(&mut self, group: &mut [Pos], player: Pos, d: i32) -> bool {
        let mut alive = group.len();
        let mut step = 1;
        while step < d && alive > 1 {
            let mut kept = 0;
            for k in 0..alive {
                // Kept without a branch: whether a robot runs into a heap is as good as
                // random to the processor.
                let r = group[k].toward(player);
                group[kept] = r;
                kept += usize::from(!self.heap(self.idx(r)));
            }
            alive = self.collide(&mut group[..kept]);
            step += 1;
        }
        // A lone robot (usually the only one that near) is walked the rest of the way
        // without writing its square back: read again just after it was written, it
        // made the processor wait at every step.
        if alive == 1 {
            let mut r = group[0];
            while step < d {
                r = r.toward(player);
                if self.heap(self.idx(r)) {
                    return false;
                }
                step += 1;
            }
        }
        alive > 0
    }

    /// Destroys the robots of `group` (none on a heap) that share a square, which becomes
    /// a heap; the survivors move to the front. Returns how many survive.
    fn collide(&mut self, group: &mut [Pos]) -> usize {
        for a in 0..group.len() {
            for b in a + 1..group.len() {
                if group[a] == group[b] {
                    self.set_heap(self.idx(group[a]));
                }
            }
        }
        let mut kept = 0;
        for k in 0..group.len() {
            let r = group[k];
            group[kept] = r;
            kept += usize::from(!self.heap(self.idx(r)));
        }
        kept
    }

    /// Where the heaps made since then start in the list of heaps to clear: see
    /// [`Field::rollback`].
    pub fn mark(&self) -> usize {
        self.loaded.len()
    }

    /// Removes the heaps set by [`Field::set_heap`] since `mark`, for a look-ahead played
    /// on the field itself.
    pub fn rollback(&mut self, mark: usize) {
        for k in mark..self.loaded.len() {
            let i = self.loaded[k];
            self.heap[i / 64] &= !(1 << (i % 64));
        }
        self.loaded.truncate(mark);
    }
}

/// The squares of the player's row and column that robots reached in one step, and those
/// more than one robot reached: where robots met (see [`Field::step`]).
trait Meetings: Default {
    /// Robot `r` reached its square, a heap unless `open`; without a branch.
    fn reach(&mut self, r: Pos, player: Pos, w: i32, open: bool);

    /// The squares more than one robot reached, as bits of [`line_key`], if any.
    fn crowded(&self, w: i32) -> Option<[u64; LINE_WORDS]>;
}

/// Meetings on a board of at most 64 x 64 squares: a line's squares fit one word, kept in
/// a register. Kept in memory, the word most robots share (that of the squares off the
/// lines) was read back just after every write, which made the processor wait at every
/// robot.
#[derive(Debug, Default)]
struct NarrowMeetings {
    /// The squares of the row, by column.
    row_seen: u64,
    row_crowded: u64,
    /// The squares of the column off the row, by row.
    column_seen: u64,
    column_crowded: u64,
}

impl Meetings for NarrowMeetings {
    #[inline(always)]
    fn reach(&mut self, r: Pos, player: Pos, _w: i32, open: bool) {
        let on_row = r.y == player.y && open;
        let on_column = r.x == player.x && r.y != player.y && open;
        let row_bit = u64::from(on_row) << (r.x % 64);
        let column_bit = u64::from(on_column) << (r.y % 64);
        self.row_crowded |= self.row_seen & row_bit;
        self.row_seen |= row_bit;
        self.column_crowded |= self.column_seen & column_bit;
        self.column_seen |= column_bit;
    }

    fn crowded(&self, w: i32) -> Option<[u64; LINE_WORDS]> {
        if self.row_crowded | self.column_crowded == 0 {
            return None;
        }
        let mut crowded = [0u64; LINE_WORDS];
        for (bits, first_key) in [(self.row_crowded, 0), (self.column_crowded, w as usize)] {
            let mut bits = bits;
            while bits != 0 {
                let key = first_key + bits.trailing_zeros() as usize;
                crowded[key / 64] |= 1 << (key % 64);
                bits &= bits - 1;
            }
        }
        Some(crowded)
    }
}

/// Meetings on a board of any size: a bit per square of the two lines ([`line_key`]).
#[derive(Debug, Default)]
struct WideMeetings {
    seen: [u64; LINE_WORDS],
    crowded: [u64; LINE_WORDS],
}

impl Meetings for WideMeetings {
    #[inline(always)]
    fn reach(&mut self, r: Pos, player: Pos, w: i32, open: bool) {
        // Robots off the lines and robots on heaps all share the one key no line square
        // has.
        let key = if open {
            line_key(r, player, w)
        } else {
            NO_LINE
        };
        // Masked: every key is below LINE_WORDS * 64 already, and then no bounds check.
        let key = key % (LINE_WORDS * 64);
        let (word, bit) = (key / 64, 1u64 << (key % 64));
        self.crowded[word] |= self.seen[word] & bit;
        self.seen[word] |= bit;
    }

    fn crowded(&self, _w: i32) -> Option<[u64; LINE_WORDS]> {
        let mut crowded = self.crowded;
        crowded[NO_LINE / 64] &= !(1 << (NO_LINE % 64));
        crowded.iter().any(|&w| w != 0).then_some(crowded)
    }
}

/// What one robot step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stepped {
    pub kills: u32,
    /// A robot stepped onto the player's square: the player dies.
    pub hit: bool,
}

/// Words of a bitset with a bit per square of the player's row and column (at most 255
/// each), and [`NO_LINE`]: see [`line_key`].
const LINE_WORDS: usize = 8;
/// The key of every square off the player's row and column.
const NO_LINE: usize = LINE_WORDS * 64 - 1;

/// The bit of square `t` among the squares of `player`'s row (`x`) and column (`w + y`),
/// [`NO_LINE`] off both.
#[inline]
fn line_key(t: Pos, player: Pos, w: i32) -> usize {
    let on_row = t.y == player.y;
    let on_column = t.x == player.x;
    let column_key = if on_column {
        (w + t.y) as usize
    } else {
        NO_LINE
    };
    if on_row { t.x as usize } else { column_key }
}

/// The bit of the square `(dx, dy)` (each in -1..=1) away from a centre, in the masks of
/// the 3x3 squares around a player (see [`threat_of`]).
pub(super) const fn around_bit(dx: i32, dy: i32) -> u16 {
    1 << ((dy + 1) * 3 + dx + 1)
}

/// How many squares of a 3x3 mask (bits of [`around_bit`]) are set. A look-up: the
/// x86-64 baseline a release build targets has no instruction that counts bits, and
/// `count_ones` costs some 20 there, once for every candidate square of every move.
#[inline]
pub(super) fn squares_in(mask: u16) -> u32 {
    u32::from(SQUARES_IN[usize::from(mask & 0x1ff)])
}

/// See [`squares_in`].
const SQUARES_IN: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        table[m] = (m as u16).count_ones() as u8;
        m += 1;
    }
    table
};

/// A player may stand on a square after the robots' step if it is neither a heap nor off
/// the board and no robot is on it or next to it (none can reach it): for the 9 squares
/// around a player at once, [`threat_of`] gives those a robot rules out.
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

/// The squares of the 3x3 around a centre that a robot `(dx, dy)` away from it is on or
/// next to (bits of [`around_bit`]).
#[inline]
pub(super) const fn threat_of(dx: i32, dy: i32) -> u16 {
    if dx.abs() <= 2 && dy.abs() <= 2 {
        THREAT[((dy + 2) * 5 + dx + 2) as usize]
    } else {
        0
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::games::robots::board::Position;
    use crate::games::robots::types::{Answer, Dir, Move, Status};
    use proptest::prelude::*;

    /// A field of `width` x `height` with `heaps` and nothing else.
    pub(in crate::games::robots::ai) fn field_with(
        width: i32,
        height: i32,
        heaps: &[Pos],
    ) -> Field {
        let position = Position {
            width: width as u16,
            height: height as u16,
            level: 1,
            player: Pos::new(0, 0),
            robots: vec![],
            heaps: vec![],
            teleports: 0,
            can_blast: true,
        };
        let mut field = Field::default();
        field.load(
            &Board::from_position(&position, 0).unwrap(),
            &mut Vec::new(),
        );
        for &h in heaps {
            field.set_heap(field.idx(h));
        }
        field
    }

    /// Drawn squares folded onto a `width` x `height` board (draws may come from a larger
    /// one): the player, the heaps not on the player, and the robots on neither, sorted
    /// and without repeats.
    fn folded(
        width: i32,
        height: i32,
        player: (i32, i32),
        heaps: impl IntoIterator<Item = (i32, i32)>,
        robots: impl IntoIterator<Item = (i32, i32)>,
    ) -> (Pos, Vec<Pos>, Vec<Pos>) {
        let fold = |(x, y): (i32, i32)| Pos::new(x % width, y % height);
        let player = fold(player);
        let mut heaps: Vec<Pos> = heaps
            .into_iter()
            .map(fold)
            .filter(|&h| h != player)
            .collect();
        heaps.sort_unstable();
        heaps.dedup();
        let mut robots: Vec<Pos> = robots
            .into_iter()
            .map(fold)
            .filter(|r| !heaps.contains(r) && *r != player)
            .collect();
        robots.sort_unstable();
        robots.dedup();
        (player, heaps, robots)
    }

    proptest::proptest! {
        /// A simulated step is the engine's: a pass played on the board leaves the same
        /// robots and heaps, makes the same kills, and kills the player just as often.
        #[test]
        fn a_step_is_the_engines(
            (width, height) in prop_oneof![Just((12, 12)), Just((255, 3)), Just((3, 255)), (1i32..80, 1i32..30)],
            robots in proptest::collection::hash_set((0i32..255, 0i32..255), 1..100),
            heaps in proptest::collection::hash_set((0i32..255, 0i32..255), 0..40),
            player in (0i32..255, 0i32..255),
            rollback in proptest::bool::ANY,
        ) {
            let (player, heaps, robots) = folded(width, height, player, heaps, robots);
            proptest::prop_assume!(!robots.is_empty());
            let position = Position {
                width: width as u16,
                height: height as u16,
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
            if rollback {
                // Heaps set and taken back leave the field as it was.
                let mark = field.mark();
                for &r in &robots {
                    field.set_heap(field.idx(r));
                }
                field.rollback(mark);
            }
            let mut stepped_robots = robots;
            let mut wrecked = Vec::new();
            let stepped = field.step(&mut stepped_robots, player, &mut wrecked);
            proptest::prop_assert_eq!(stepped.hit, board.status() == Status::Dead);
            proptest::prop_assert_eq!(stepped.kills, board.kills());
            stepped_robots.sort_unstable();
            proptest::prop_assert_eq!(stepped_robots, board.robots());
            let mut all_heaps = heaps;
            all_heaps.extend(wrecked.iter().map(|&i| Pos::new(i as i32 % width, i as i32 / width)));
            all_heaps.sort_unstable();
            proptest::prop_assert_eq!(all_heaps, board.heaps());
        }

        /// A last stand played distance by distance ends as one played step by step: the
        /// same step of the player's death, or none; the field is left as it was.
        #[test]
        fn a_last_stand_is_the_steps_played_out(
            (width, height) in (1i32..30, 1i32..30),
            robots in proptest::collection::vec((0i32..30, 0i32..30), 0..16),
            heaps in proptest::collection::vec((0i32..30, 0i32..30), 0..40),
            player in (0i32..30, 0i32..30),
        ) {
            let (player, heaps, robots) = folded(width, height, player, heaps, robots);
            let mut field = Field::default();
            field.load(&Board::from_position(&Position {
                width: width as u16,
                height: height as u16,
                level: 1,
                player,
                robots: vec![],
                heaps: heaps.clone(),
                teleports: 0,
                can_blast: false,
            }, 0).unwrap(), &mut Vec::new());
            let before = field.clone();
            let reached = field.last_stand(&robots, player, &mut Vec::new());
            prop_assert_eq!(&field.heap, &before.heap);
            let (mut plain, mut stepped_field, mut wrecked) = (robots.clone(), before, Vec::new());
            let mut expected = None;
            for t in 1..=60 {
                if stepped_field.step(&mut plain, player, &mut wrecked).hit {
                    expected = Some(t);
                    break;
                }
                for &i in &wrecked {
                    stepped_field.set_heap(i);
                }
            }
            prop_assert_eq!(reached, expected);
        }

        /// Rows of squares are the squares' heaps, read one by one, with every square
        /// off the board closed.
        #[test]
        fn closed_rows_are_their_squares(
            (width, height) in (1i32..200, 1i32..20),
            heaps in proptest::collection::vec((0i32..200, 0i32..20), 0..80),
            x0 in -20i32..220,
            y0 in -20i32..23,
            (first, last) in (0usize..16, 0usize..16),
        ) {
            let heaps: Vec<Pos> = heaps.into_iter().map(|(x, y)| Pos::new(x % width, y % height)).collect();
            let field = field_with(width, height, &heaps);
            let read = first.min(last)..first.max(last) + 1;
            let rows = field.closed_rows(x0, y0, read.clone());
            for (i, run) in rows.into_iter().enumerate() {
                for j in 0..16 {
                    let p = Pos::new(x0 + j, y0 + i as i32);
                    let on = (0..width).contains(&p.x) && (0..height).contains(&p.y);
                    let closed = !read.contains(&i) || !on || heaps.contains(&p);
                    prop_assert_eq!(run >> j & 1 == 1, closed, "square {}", p);
                }
            }
        }
    }

    #[test]
    fn threatened_squares_are_those_next_to_a_robot() {
        let centre = Pos::new(10, 10);
        for rx in 5..16 {
            for ry in 5..16 {
                let robot = Pos::new(rx, ry);
                let bits = threat_of(robot.x - centre.x, robot.y - centre.y);
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

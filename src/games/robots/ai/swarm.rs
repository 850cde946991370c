//! Defines [`Patch`]: the 16 x 16 squares around the player as the dodger's look-ahead
//! sees them, and [`Swarm`]: a few robots stepped ahead of time on a patch.
//!
//! The dodger judges every candidate square from the robots within a few squares of the
//! player only, and they never leave the squares between them and the player. On a patch
//! a square is one byte (`row * 16 + column`), a robot's step is a few byte operations,
//! and the heaps and the squares off the board are a byte each: judging a candidate costs
//! a few hundred instructions instead of a few thousand with positions and the field's
//! squares.

use super::sim::{Field, around_bit};
use crate::games::robots::types::Pos;

/// Squares a patch has on each side.
const SIDE: i32 = 16;
/// The player's row and column in its patch: squares from 8 to the left (above) to 7 to
/// the right (below) of it are on the patch.
const MID: i32 = 8;
/// How far from its centre the robots and squares a patch serves are: its rows farther
/// away are not read, and stay closed.
pub(super) const REACH: i32 = 5;
/// Most robots a [`Swarm`] holds: more than the 40 a level places.
pub(super) const SWARM_MAX: usize = 64;

/// A square of a patch: `row * 16 + column`.
pub(super) type Code = u8;

/// A set of the 256 squares of a patch, a row of 16 bits each: the 3x3 squares around one
/// are read from three rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Bits([u16; 16]);

impl Bits {
    /// The 3x3 squares around `c` (which is not on the patch's edge), as the bits of
    /// [`super::sim::around_bit`].
    #[inline]
    fn around(&self, c: Code) -> u16 {
        let (row, column) = (usize::from(c >> 4), u32::from(c & 15));
        // Masked: the rows are on the patch (the caller's word), and then no bounds check.
        let three = |dy: usize| (self.0[(row + dy).wrapping_sub(1) & 15] >> (column - 1)) & 7;
        three(0) | three(1) << 3 | three(2) << 6
    }
}

/// The squares around one player: which are closed to robots and the player alike (heaps,
/// and squares off the board, which no robot chasing the player reaches).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Patch {
    closed: Bits,
}

/// The rows of a patch that are read: those within [`REACH`] of its centre.
const READ: std::ops::Range<usize> = (MID - REACH) as usize..(MID + REACH + 1) as usize;

/// For the bits of a byte, a byte each (1 for a set bit), in the order of the bits.
const BYTES: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            table[b] |= ((b as u64 >> j) & 1) << (8 * j);
            j += 1;
        }
        b += 1;
    }
    table
};

impl Patch {
    /// The patch of `field` around `centre`.
    pub fn new(field: &Field, centre: Pos) -> Patch {
        Patch {
            closed: Bits(field.closed_rows(centre.x - MID, centre.y - MID, READ)),
        }
    }

    /// The 3x3 squares around `c` (within 7 squares of the centre) the player could not
    /// step onto, as the bits of [`super::sim::around_bit`]: heaps and squares off the board.
    pub fn closed_around(&self, c: Code) -> u16 {
        self.closed.around(c)
    }
}

/// What one robot step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SwarmStep {
    pub kills: u32,
    /// A robot stepped onto the player's square.
    pub hit: bool,
}

/// The square a look-ahead's robots chase, in the squares of a [`Swarm`].
const TARGET: Code = (MID * SIDE + MID) as Code;

/// The square a robot on square `c` steps to, chasing [`TARGET`] (RB3.1).
const NEXT: [Code; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        let (x, y) = ((c % 16) as i32, (c / 16) as i32);
        let x = x + (MID - x).signum();
        let y = y + (MID - y).signum();
        table[c] = (y * SIDE + x) as Code;
        c += 1;
    }
    table
};

/// The bit of square `c` among the squares of [`TARGET`]'s row (bits 0 to 15, by column)
/// and column (bits 16 to 31, by row), none off both.
///
/// Robots step towards one square, so two of them can only meet on its row or column:
/// off them, the square a robot reached has one square it can have come from, which held
/// one robot. A bit each for those squares finds every meeting of a step, and only those.
const LINE: [u32; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        let (x, y) = ((c % 16) as i32, (c / 16) as i32);
        table[c] = if y == MID {
            1 << x
        } else if x == MID {
            1 << (16 + y)
        } else {
            0
        };
        c += 1;
    }
    table
};

/// The squares of the 3x3 around [`TARGET`] that a robot on square `c` is on or next to
/// (the bits of [`super::sim::around_bit`]).
const THREAT: [u16; 256] = {
    let mut table = [0; 256];
    let mut c = 0;
    while c < 256 {
        let (dx, dy) = ((c % 16) as i32 - MID, (c / 16) as i32 - MID);
        table[c] = super::sim::threat_of(dx, dy);
        c += 1;
    }
    table
};

/// Robots on a patch stepping towards one square of it, with the heaps their collisions
/// made.
///
/// The robots' squares are counted from the square they chase ([`TARGET`] is that square),
/// so that a step is a look-up in one table ([`NEXT`]) whatever the square; the patch's
/// squares are theirs plus `shift`.
///
/// A swarm is loaded with a patch once ([`Swarm::load`]) and then started over for every
/// candidate square of the move ([`Swarm::start`]), in place: the closed squares are a
/// byte each, so that a robot's square is tested with one load, and they are not copied
/// for every candidate; the heaps a look-ahead made are opened again by the next start.
#[derive(Debug, Clone)]
pub(super) struct Swarm {
    len: usize,
    at: [Code; SWARM_MAX],
    /// The patch's closed squares, 1 each, the robots' own heaps included.
    closed: [u8; 256],
    /// The patch's closed squares as it has them, without the robots' own heaps: the 3x3
    /// squares around the target are three shifts of these rows, where the bytes take nine
    /// loads (see [`Swarm::closed_around`]).
    rows: Bits,
    /// The squares of the heaps the robots' collisions made since the last start: two
    /// robots or more make one.
    made: [Code; SWARM_MAX / 2],
    made_len: usize,
    shift: Code,
}

impl Default for Swarm {
    fn default() -> Swarm {
        Swarm {
            len: 0,
            at: [0; SWARM_MAX],
            closed: [1; 256],
            rows: Bits::default(),
            made: [0; SWARM_MAX / 2],
            made_len: 0,
            shift: 0,
        }
    }
}

impl Swarm {
    /// The first [`SWARM_MAX`] robots of `robots` (squares of `patch`), chasing square
    /// `to` of it. The robots and `to` are within 7 squares of the patch's centre, so
    /// that every square between them is on it.
    #[cfg(test)]
    pub fn new(patch: &Patch, robots: &[Code], to: Code) -> Swarm {
        let mut swarm = Swarm::default();
        swarm.load(patch);
        swarm.len = robots.len().min(SWARM_MAX);
        swarm.shift = to.wrapping_sub(TARGET);
        for (a, &c) in swarm.at.iter_mut().zip(&robots[..swarm.len]) {
            *a = c.wrapping_sub(swarm.shift);
        }
        swarm
    }

    /// Takes the closed squares of `patch` (the rows it read), for the look-aheads of one
    /// move.
    pub fn load(&mut self, patch: &Patch) {
        self.made_len = 0;
        self.rows = patch.closed;
        for row in READ {
            let bits = patch.closed.0[row];
            let bytes = &mut self.closed[row * 16..row * 16 + 16];
            bytes[..8].copy_from_slice(&BYTES[usize::from(bits & 0xff)].to_le_bytes());
            bytes[8..].copy_from_slice(&BYTES[usize::from(bits >> 8)].to_le_bytes());
        }
    }

    /// The robots' squares on the patch.
    #[cfg(test)]
    pub fn robots(&self) -> impl Iterator<Item = Code> + '_ {
        self.at[..self.len]
            .iter()
            .map(|c| c.wrapping_add(self.shift))
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The 3x3 squares around the target the player could not step onto, the robots' own
    /// heaps included: see [`Patch::closed_around`].
    pub fn closed_around(&self) -> u16 {
        let target = TARGET.wrapping_add(self.shift);
        let mut bits = self.rows.around(target);
        for &m in &self.made[..self.made_len] {
            let dx = i32::from(m & 15) - i32::from(target & 15);
            let dy = i32::from(m >> 4) - i32::from(target >> 4);
            if dx.abs() <= 1 && dy.abs() <= 1 {
                bits |= around_bit(dx, dy);
            }
        }
        bits
    }

    /// The squares of the 3x3 around the target that a robot is on or next to (the bits
    /// of [`super::sim::around_bit`]).
    pub fn threatened(&self) -> u16 {
        threatened(&self.at[..self.len])
    }

    /// Starts over, in place, as the tests' `Swarm::new` would on the loaded patch, and
    /// plays the first step at once, reading the robots from `robots` instead of copying
    /// them first: one pass over them instead of two, for every candidate square. A swarm
    /// is reused from look-ahead to look-ahead, as building one and moving it read its
    /// robots back as a block just after writing them one byte at a time, which stalls the
    /// processor.
    #[inline(always)]
    pub fn start(&mut self, robots: &[Code], to: Code) -> SwarmStep {
        for &c in &self.made[..self.made_len] {
            self.closed[usize::from(c)] = 0;
        }
        self.made_len = 0;
        self.len = robots.len().min(SWARM_MAX);
        self.shift = to.wrapping_sub(TARGET);
        self.advance(Some(&robots[..self.len]))
    }

    /// One robot step (RB3) towards a player on the target: robots that meet or run into
    /// a heap are destroyed, meeting robots leave a heap. The survivors keep their order.
    #[inline(always)]
    pub fn step(&mut self) -> SwarmStep {
        self.advance(None)
    }

    /// A step of the robots, read from `from` (squares of the patch) if given, else from
    /// where they stand.
    #[inline(always)]
    fn advance(&mut self, from: Option<&[Code]>) -> SwarmStep {
        // The squares of the target's row and column robots reached, and those more than
        // one reached: robots chasing one square meet only there (see [`LINE`]).
        let (mut seen, mut crowded) = (0u32, 0u32);
        let (mut kills, mut hit, mut kept) = (0, false, 0);
        let shift = self.shift;
        let (at, closed) = (&mut self.at[..self.len], &self.closed);
        for k in 0..at.len() {
            let c = match from {
                Some(squares) => squares[k].wrapping_sub(shift),
                None => at[k],
            };
            let c = NEXT[usize::from(c)];
            hit |= c == TARGET;
            // Without branches: whether a robot runs into a heap is as good as random to
            // the processor.
            let heap = u32::from(closed[usize::from(c.wrapping_add(shift))]);
            let line = LINE[usize::from(c)];
            crowded |= seen & line;
            seen |= line;
            at[kept] = c;
            kept += 1 - heap as usize;
            kills += heap;
        }
        self.len = kept;
        if crowded != 0 {
            kills += self.wreck(crowded);
        }
        SwarmStep { kills, hit }
    }

    /// Destroys the robots on the squares of `crowded` (bits of [`LINE`]), which become
    /// heaps; returns how many.
    fn wreck(&mut self, crowded: u32) -> u32 {
        let shift = self.shift;
        let mut kept = 0;
        for k in 0..self.len {
            // Without branches: which robots met is as good as random to the processor.
            // A square is listed as made once, by its first robot.
            let c = self.at[k];
            let met = LINE[usize::from(c)] & crowded != 0;
            let square = c.wrapping_add(shift);
            let new = met && self.closed[usize::from(square)] == 0;
            self.made[self.made_len % (SWARM_MAX / 2)] = square;
            self.made_len += usize::from(new);
            self.closed[usize::from(square)] |= u8::from(met);
            self.at[kept] = c;
            kept += usize::from(!met);
        }
        let kills = (self.len - kept) as u32;
        self.len = kept;
        kills
    }

    /// Steps towards a player standing on the target until the robots are gone, the
    /// player is hit, or `limit` steps: the kills, and the step of the hit, if any.
    #[inline]
    pub fn pass(&mut self, limit: u32) -> (u32, Option<u32>) {
        let mut kills = 0;
        for t in 1..=limit {
            if self.is_empty() {
                break;
            }
            let step = self.step();
            kills += step.kills;
            if step.hit {
                return (kills, Some(t));
            }
        }
        (kills, None)
    }
}

/// The squares of the 3x3 around the patch's centre that a robot on one of `robots` is on
/// or next to (the bits of [`super::sim::around_bit`]). A swarm counts its robots' squares
/// from its target as a patch does from its centre ([`TARGET`] is the centre's square), so
/// this serves both.
pub(super) fn threatened(robots: &[Code]) -> u16 {
    robots
        .iter()
        .fold(0, |bits, &c| bits | THREAT[usize::from(c)])
}

/// The square of `p` on the patch around `centre` if `p` is within 7 squares of it; a
/// meaningless one otherwise (the dodger works it out for every robot, without a branch,
/// and keeps it for the near ones only).
pub(super) fn code_near(centre: Pos, p: Pos) -> Code {
    ((p.y - centre.y + MID) * SIDE + p.x - centre.x + MID) as Code
}

/// The square `(dx, dy)` away from `c` on its patch (the caller keeps it on the patch).
pub(super) fn offset(c: Code, dx: i32, dy: i32) -> Code {
    (i32::from(c) + dx + SIDE * dy) as Code
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robots::ai::sim::tests::field_with;
    use crate::games::robots::types::Dir;
    use proptest::prelude::*;

    /// The position of square `c` of the patch around `centre`.
    fn pos_of(centre: Pos, c: Code) -> Pos {
        Pos::new(
            centre.x + i32::from(c & 15) - MID,
            centre.y + i32::from(c >> 4) - MID,
        )
    }

    proptest! {
        /// Robots within 5 squares of the centre stepping towards a square next to it do
        /// on a patch what they do on the field, from the step that starts the swarm on:
        /// the same survivors in the same order, kills, hits and heaps; the squares
        /// around the player are closed where the field's are.
        #[test]
        fn steps_as_the_field_does(
            (width, height) in (1i32..40, 1i32..30),
            centre in (0i32..40, 0i32..30),
            robots in proptest::collection::vec((-5i32..=5, -5i32..=5), 0..30),
            heaps in proptest::collection::vec((-7i32..=7, -7i32..=7), 0..30),
            dir in 0usize..9,
        ) {
            let centre = Pos::new(centre.0 % width, centre.1 % height);
            let (dx, dy) = if dir == 8 { (0, 0) } else { Dir::ALL[dir].delta() };
            let to = Pos::new(centre.x + dx, centre.y + dy);
            let on = |p: Pos| (0..width).contains(&p.x) && (0..height).contains(&p.y);
            prop_assume!(on(to));
            let near = |(x, y): (i32, i32)| Pos::new(centre.x + x, centre.y + y);
            let mut heaps: Vec<Pos> = heaps.into_iter().map(near).filter(|&h| on(h) && h != to).collect();
            heaps.sort_unstable();
            heaps.dedup();
            let mut robots: Vec<Pos> = robots
                .into_iter()
                .map(near)
                .filter(|&r| on(r) && r != to && !heaps.contains(&r))
                .collect();
            robots.sort_unstable();
            robots.dedup();
            let mut plain_field = field_with(width, height, &heaps);
            let patch = Patch::new(&plain_field, centre);
            let codes: Vec<Code> = robots.iter().map(|&r| code_near(centre, r)).collect();
            let t = code_near(centre, to);
            // A swarm in use, as the dodger's is, whose look-ahead made heaps of its own:
            // the first step starts it over.
            let mut swarm = Swarm::new(&patch, &codes, t ^ 1);
            swarm.pass(6);
            let mut plain = robots.clone();
            let mut wrecked = Vec::new();
            for k in 0..5 {
                let expected = plain_field.step(&mut plain, to, &mut wrecked);
                for &i in &wrecked {
                    plain_field.set_heap(i);
                }
                let stepped = if k == 0 {
                    swarm.start(&codes, t)
                } else {
                    swarm.step()
                };
                prop_assert_eq!(stepped.kills, expected.kills);
                prop_assert_eq!(stepped.hit, expected.hit);
                let at: Vec<Pos> = swarm.robots().map(|c| pos_of(centre, c)).collect();
                prop_assert_eq!(&at, &plain);
                let closed = swarm.closed_around();
                for ady in -1..=1 {
                    for adx in -1..=1 {
                        let p = Pos::new(to.x + adx, to.y + ady);
                        let expected = !on(p) || plain_field.heap(plain_field.idx(p));
                        let bit = closed >> ((ady + 1) * 3 + adx + 1) & 1 == 1;
                        prop_assert_eq!(bit, expected, "square {}", p);
                    }
                }
            }
        }
    }

    #[test]
    fn threatened_squares_are_those_a_robot_is_on_or_next_to() {
        let f = field_with(30, 30, &[]);
        let centre = Pos::new(15, 15);
        let patch = Patch::new(&f, centre);
        for rx in 10..21 {
            for ry in 10..21 {
                let robot = Pos::new(rx, ry);
                let r = code_near(centre, robot);
                // Around the centre from the patch's squares, as the dodger asks before
                // choosing; around a target of a swarm from its own.
                let around_centre = threatened(&[r]);
                for (to, bits) in [
                    (centre, around_centre),
                    (
                        centre,
                        Swarm::new(&patch, &[r], code_near(centre, centre)).threatened(),
                    ),
                    (
                        Pos::new(16, 14),
                        Swarm::new(&patch, &[r], code_near(centre, Pos::new(16, 14))).threatened(),
                    ),
                ] {
                    for dy in -1..=1 {
                        for dx in -1..=1 {
                            let near = robot.distance(Pos::new(to.x + dx, to.y + dy)) <= 1;
                            let bit = bits >> ((dy + 1) * 3 + dx + 1) & 1 == 1;
                            assert_eq!(bit, near, "{robot} around {to}: {dx},{dy}");
                        }
                    }
                }
            }
        }
    }
}

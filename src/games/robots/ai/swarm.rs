//! Defines [`Swarm`]: a few robots stepped ahead of time on a [`Field`] without touching
//! it, for the dodger's look-ahead (its candidate moves and its last stands).
//!
//! A game of the dodger simulates about seven robot steps for each one the engine plays,
//! mostly of two to four robots, so the fixed cost of a step is what counts: the robots
//! live in an inline array and step in place ([`step_robots`], which compares only the
//! targets on the player's row and column), and the heaps the look-ahead makes are a short
//! list beside the field's instead of writes to it that must be undone.

use super::sim::{Field, Heaps, Stepped, step_robots};
use crate::games::robots::types::Pos;

/// Most robots a swarm holds: more than the 40 a level places. Only a board set up by hand
/// can have more robots within a look-ahead's reach; the dodger then looks at the first 64.
pub(super) const SWARM_MAX: usize = 64;

/// Robots stepping towards a player, with the heaps their collisions made.
#[derive(Debug, Clone)]
pub(super) struct Swarm {
    len: usize,
    at: [Pos; SWARM_MAX],
    /// Squares (indices of the field) of heaps made by this swarm: each takes two robots,
    /// so there are at most half as many as robots.
    heaps: [usize; SWARM_MAX / 2],
    heap_count: usize,
}

impl Default for Swarm {
    fn default() -> Swarm {
        Swarm {
            len: 0,
            at: [Pos::default(); SWARM_MAX],
            heaps: [0; SWARM_MAX / 2],
            heap_count: 0,
        }
    }
}

impl Swarm {
    /// Starts over with the first [`SWARM_MAX`] robots of `robots` and no heaps of its
    /// own: a swarm is reused from look-ahead to look-ahead, as it is too big to copy.
    pub fn reset(&mut self, robots: &[Pos]) {
        self.len = robots.len().min(SWARM_MAX);
        self.at[..self.len].copy_from_slice(&robots[..self.len]);
        self.heap_count = 0;
    }

    pub fn robots(&self) -> &[Pos] {
        &self.at[..self.len]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the player could step onto `p`: on the board, and no heap there.
    pub fn open(&self, field: &Field, p: Pos) -> bool {
        field.open(p) && !self.heaps[..self.heap_count].contains(&field.idx(p))
    }

    /// One robot step (RB3) towards `player`: robots that meet or run into a heap are
    /// destroyed, meeting robots leave a heap. The survivors keep their order.
    pub fn step(&mut self, field: &Field, player: Pos) -> Stepped {
        let Swarm {
            len,
            at,
            heaps,
            heap_count,
        } = self;
        let mut own = OwnHeaps {
            field,
            heaps,
            count: heap_count,
        };
        let (kept, stepped) = step_robots(&mut at[..*len], player, field.width(), &mut own);
        *len = kept;
        stepped
    }

    /// Steps towards a player standing on `player` until the swarm is gone, the player is
    /// hit, or `limit` steps: the kills, and the step of the hit, if any.
    pub fn pass(&mut self, field: &Field, player: Pos, limit: u32) -> (u32, Option<u32>) {
        let mut kills = 0;
        for t in 1..=limit {
            if self.is_empty() {
                break;
            }
            let step = self.step(field, player);
            kills += step.kills;
            if step.hit {
                return (kills, Some(t));
            }
        }
        (kills, None)
    }
}

/// The field's heaps and the swarm's own.
struct OwnHeaps<'a> {
    field: &'a Field,
    heaps: &'a mut [usize; SWARM_MAX / 2],
    count: &'a mut usize,
}

impl Heaps for OwnHeaps<'_> {
    #[inline]
    fn is_heap(&self, i: usize) -> bool {
        self.field.heap(i) | self.heaps[..*self.count].contains(&i)
    }

    #[inline]
    fn wreck(&mut self, i: usize) {
        self.heaps[*self.count] = i;
        *self.count += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robots::board::{Board, Position};
    use proptest::prelude::*;

    fn field(heaps: &[Pos]) -> Field {
        let position = Position {
            width: 20,
            height: 20,
            level: 1,
            player: Pos::new(19, 19),
            robots: vec![],
            heaps: heaps.to_vec(),
            teleports: 0,
            can_blast: true,
        };
        let mut field = Field::default();
        field.load(
            &Board::from_position(&position, 0).unwrap(),
            &mut Vec::new(),
        );
        field
    }

    proptest! {
        /// A swarm steps as the field's own step does, heaps and kills included, and is
        /// hit exactly when a robot reaches the player.
        #[test]
        fn steps_as_the_field_does(
            robots in proptest::collection::hash_set((0i32..20, 0i32..20), 0..30),
            heaps in proptest::collection::hash_set((0i32..20, 0i32..20), 0..10),
            player in (0i32..20, 0i32..20),
        ) {
            let player = Pos::new(player.0, player.1);
            // (19, 19) is where the field's board keeps its player.
            let heaps: Vec<Pos> = heaps
                .into_iter()
                .map(|(x, y)| Pos::new(x, y))
                .filter(|&h| h != Pos::new(19, 19) && h != player)
                .collect();
            let robots: Vec<Pos> = robots
                .into_iter()
                .map(|(x, y)| Pos::new(x, y))
                .filter(|r| !heaps.contains(r) && *r != player)
                .collect();
            let field = field(&heaps);
            // The plain simulation makes its heaps for good on a copy; the swarm keeps
            // its own beside the untouched field.
            let mut plain_field = field.clone();
            let mut swarm = Swarm::default();
            swarm.reset(&robots);
            let mut plain = robots.clone();
            let mut wrecked = Vec::new();
            for _ in 0..4 {
                let expected = plain_field.step(&mut plain, player, &mut wrecked);
                for &i in &wrecked {
                    plain_field.set_heap(i);
                }
                let stepped = swarm.step(&field, player);
                prop_assert_eq!(stepped, expected);
                prop_assert_eq!(swarm.robots(), &plain[..]);
                for &i in &wrecked {
                    let square = Pos::new(i as i32 % 20, i as i32 / 20);
                    prop_assert!(!swarm.open(&field, square));
                }
            }
        }
    }
}

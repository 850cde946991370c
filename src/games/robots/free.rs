//! Defines [`FreeSquares`]: which squares of a board a player may be placed or teleported
//! on (RB1.2, RB4 `T`), as a bitset of the squares that are taken.
//!
//! Both draws pick uniformly the `k`-th of the free squares in row-major order. Counting
//! and finding them square by square cost a game of the built-in `dodger` a quarter of
//! the engine's time (a level start and 26 teleports a game, each over 1,298 squares);
//! on 64 squares a word, a count is 21 population counts.

use super::board::Sq;

/// A bit per square of the board, set for a square that is not free.
#[derive(Debug, Clone, Default)]
pub(super) struct FreeSquares {
    taken: Vec<u64>,
    area: u32,
}

impl FreeSquares {
    pub fn new(area: u32) -> FreeSquares {
        FreeSquares {
            // One word more, so that a run of squares is written to two words whatever
            // word it starts in.
            taken: vec![0; area.div_ceil(64) as usize + 1],
            area,
        }
    }

    /// Every square free again.
    pub fn clear(&mut self) {
        self.taken.fill(0);
    }

    /// `sq` (a square of the board) is not free.
    pub fn take(&mut self, sq: Sq) {
        self.taken[(sq.0 / 64) as usize] |= 1 << (sq.0 % 64);
    }

    /// The `n` (at most 3) squares from `sq` on (squares of the board) are not free.
    pub fn take_run(&mut self, sq: Sq, n: u32) {
        let run = (1u64 << n) - 1;
        let (word, off) = ((sq.0 / 64) as usize, sq.0 % 64);
        self.taken[word] |= run << off;
        // The bits that did not fit in the word; `run >> 64` would overflow.
        self.taken[word + 1] |= run >> (63 - off) >> 1;
    }

    /// How many squares are free.
    pub fn count(&self) -> u32 {
        // The word past the board's squares holds no square.
        let words = self.area.div_ceil(64) as usize;
        self.area
            - self.taken[..words]
                .iter()
                .map(|w| w.count_ones())
                .sum::<u32>()
    }

    /// The `k`-th free square (from 0) in row-major order.
    pub fn nth(&self, k: u32) -> Option<Sq> {
        let mut left = k;
        let words = self.area.div_ceil(64) as usize;
        for (w, &taken) in self.taken[..words].iter().enumerate() {
            let base = w as u32 * 64;
            let on_board = match self.area - base {
                n if n >= 64 => u64::MAX,
                n => (1u64 << n) - 1,
            };
            let mut free = !taken & on_board;
            let n = free.count_ones();
            if left < n {
                for _ in 0..left {
                    free &= free - 1;
                }
                return Some(Sq(base + free.trailing_zeros()));
            }
            left -= n;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The count and the k-th free square are those of a plain scan of the squares.
        #[test]
        fn count_and_nth_match_a_scan(
            area in 1u32..700,
            taken in proptest::collection::vec(0u32..700, 0..300),
        ) {
            let mut free = FreeSquares::new(area);
            let mut plain = vec![true; area as usize];
            for &t in taken.iter().filter(|&&t| t < area) {
                free.take(Sq(t));
                plain[t as usize] = false;
            }
            let expected: Vec<u32> = (0..area).filter(|&i| plain[i as usize]).collect();
            prop_assert_eq!(free.count(), expected.len() as u32);
            for (k, &sq) in expected.iter().enumerate() {
                prop_assert_eq!(free.nth(k as u32), Some(Sq(sq)));
            }
            prop_assert_eq!(free.nth(expected.len() as u32), None);
            free.clear();
            prop_assert_eq!(free.count(), area);
        }

        /// A run taken is its squares taken one by one.
        #[test]
        fn a_run_is_its_squares(area in 3u32..700, start in 0u32..700, n in 1u32..=3) {
            let start = start % (area - n + 1);
            let (mut runs, mut squares) = (FreeSquares::new(area), FreeSquares::new(area));
            runs.take_run(Sq(start), n);
            for s in start..start + n {
                squares.take(Sq(s));
            }
            prop_assert_eq!(runs.taken, squares.taken);
        }
    }
}

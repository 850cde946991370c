//! The one deterministic generator of every game and of the bracket's seeded choices, and
//! its documented, version-stable sampling (docs/determinism.md; R4.5 for Last Robot Standing).
//!
//! ChaCha8 from `rand_chacha`, seeded from the 64-bit game seed by SplitMix64, and bounded
//! draws by Lemire's multiply-and-reject method over `next_u32`. Both are written out here
//! rather than taken from `rand`'s distributions so that a game replays identically across
//! dependency upgrades: the sequence depends only on ChaCha8's keystream.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// The deterministic generator of one game.
#[derive(Debug, Clone)]
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// The generator for `seed`: the 32-byte ChaCha key is four SplitMix64 outputs.
    pub fn new(seed: u64) -> GameRng {
        let mut state = seed;
        let mut key = [0u8; 32];
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        GameRng(ChaCha8Rng::from_seed(key))
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (`n >= 1`), by Lemire's method.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// Fisher-Yates shuffle of the first `k` positions (a uniform sample without
    /// replacement in `items[..k]`); `k = items.len()` shuffles the whole slice.
    pub fn partial_shuffle<T>(&mut self, items: &mut [T], k: usize) {
        let n = items.len();
        for i in 0..k.min(n.saturating_sub(1)) {
            let j = i + self.below((n - i) as u32) as usize;
            items.swap(i, j);
        }
    }

    /// The swaps [`GameRng::partial_shuffle`] makes on `n` items, drawn the same way:
    /// item `i` is swapped with item `swaps[i]`. For a caller that keeps one array, plays
    /// the swaps, reads the sample and undoes them (in reverse), instead of rebuilding `n`
    /// items for every sample of `k`.
    pub fn partial_shuffle_swaps(&mut self, n: usize, k: usize, swaps: &mut Vec<usize>) {
        swaps.clear();
        for i in 0..k.min(n.saturating_sub(1)) {
            swaps.push(i + self.below((n - i) as u32) as usize);
        }
    }
}

/// One step of SplitMix64 (Steele, Lea, Flood 2014): a well-mixed 64-bit sequence from a
/// counter, used to expand seeds.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_is_reproducible() {
        let mut a = GameRng::new(7);
        let mut b = GameRng::new(7);
        for n in 1..200u32 {
            let x = a.below(n);
            assert!(x < n);
            assert_eq!(x, b.below(n));
        }
    }

    #[test]
    fn shuffle_swaps_are_those_of_the_shuffle() {
        for (n, k) in [(1, 1), (2, 1), (10, 3), (10, 10), (1298, 40)] {
            let mut shuffled: Vec<usize> = (0..n).collect();
            GameRng::new(n as u64).partial_shuffle(&mut shuffled, k);
            let mut swapped: Vec<usize> = (0..n).collect();
            let mut swaps = Vec::new();
            GameRng::new(n as u64).partial_shuffle_swaps(n, k, &mut swaps);
            for (i, &j) in swaps.iter().enumerate() {
                swapped.swap(i, j);
            }
            assert_eq!(shuffled, swapped, "{n} items, {k} drawn");
        }
    }

    #[test]
    fn different_seeds_differ() {
        let mut a = GameRng::new(1);
        let mut b = GameRng::new(2);
        assert_ne!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn the_sequence_is_pinned() {
        // Guards against an unnoticed change of generator or seeding: replays depend on it.
        let mut r = GameRng::new(2026);
        let first: Vec<u32> = (0..4).map(|_| r.below(1000)).collect();
        let mut again = GameRng::new(2026);
        let second: Vec<u32> = (0..4).map(|_| again.below(1000)).collect();
        assert_eq!(first, second);
        assert_eq!(first, PINNED);
    }

    const PINNED: [u32; 4] = [680, 154, 150, 805];
}

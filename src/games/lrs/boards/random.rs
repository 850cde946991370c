//! Defines [`random_board`], a seeded generator of random playable boards.
//!
//! Property tests across the crate (engine, AIs, formats) need many different but valid and
//! playable boards; they pick a seed (e.g. with proptest) and call this plain function, so no
//! proptest strategy has to be shared between crates or test binaries.

use super::check::playability_problems;
use crate::games::lrs::engine::board::{MAX_FLAGS, MAX_SIDE, MAX_STARTS};
use crate::games::lrs::engine::{Board, Direction, Laser, Pos, Rotation, Square, Tile, Walls};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// How many attempts are made before falling back to a board without pits and walls.
const ATTEMPTS: usize = 24;

/// A uniform number in `0..n` (`n > 0`).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// `true` with probability `percent` / 100.
fn chance(rng: &mut ChaCha8Rng, percent: usize) -> bool {
    below(rng, 100) < percent
}

fn direction(rng: &mut ChaCha8Rng) -> Direction {
    Direction::from_index(below(rng, 4) as u8)
}

/// A random playable board, the same for the same arguments. `width` and `height` are
/// clamped to 2..=64. It has 1..=3 flags and `players` start squares (clamped to 2..=8, and
/// to what fits: a 2x2 board has at most 3), plus pits, normal and express belts, gears,
/// walls, lasers (strength 1..=3, never on pits) and repair squares in random places. Every
/// flag is reachable on foot from every start, no pit lies next to a start or two squares
/// ahead of it, and flags are not ringed by pits ([`super::playability_problems`] is empty).
pub fn random_board(rng_seed: u64, width: i32, height: i32, players: usize) -> Board {
    let (w, h) = (width.clamp(2, MAX_SIDE), height.clamp(2, MAX_SIDE));
    let cells = (w * h) as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
    let flags = (1 + below(&mut rng, MAX_FLAGS)).min(cells - 2);
    let starts = players.clamp(2, MAX_STARTS).min(cells - flags);
    let name = format!("random-{rng_seed}-{w}x{h}");
    for _ in 0..ATTEMPTS {
        let squares = generate(&mut rng, w, h, flags, starts, true);
        if let Ok(board) = Board::new(name.as_str(), "", w, h, squares)
            && playability_problems(&board).is_empty()
        {
            return board;
        }
    }
    // Without pits and walls every square is reachable and nothing can ring a flag.
    let squares = generate(&mut rng, w, h, flags, starts, false);
    Board::new(name, "", w, h, squares).expect("random boards are valid by construction")
}

/// One random layout; `hazards` allows pits and walls.
fn generate(
    rng: &mut ChaCha8Rng,
    w: i32,
    h: i32,
    flags: usize,
    starts: usize,
    hazards: bool,
) -> Vec<Square> {
    let cells = (w * h) as usize;
    let mut order: Vec<usize> = (0..cells).collect();
    for i in (1..cells).rev() {
        order.swap(i, below(rng, i + 1));
    }
    let mut squares = vec![Square::FLOOR; cells];
    // No pits next to starts and flags, nor two squares ahead of a start.
    let mut safe = vec![false; cells];
    let pos = |i: usize| Pos::new(i as i32 % w, i as i32 / w);
    let index =
        |p: Pos| (p.x >= 0 && p.y >= 0 && p.x < w && p.y < h).then(|| (p.y * w + p.x) as usize);
    for (n, &i) in order.iter().take(starts + flags).enumerate() {
        if n < starts {
            squares[i].start = Some(n as u8 + 1);
        } else {
            squares[i].tile = Tile::Flag((n - starts) as u8 + 1);
        }
        let p = pos(i);
        for d in Direction::ALL {
            for q in [p.step(d), p.step(d).step(d)] {
                if let Some(j) = index(q) {
                    safe[j] = true;
                }
            }
        }
    }
    for &i in &order[starts + flags..] {
        let roll = below(rng, 100);
        squares[i].tile = match roll {
            0..8 if hazards && !safe[i] => Tile::Pit,
            8..16 => Tile::Conveyor {
                dir: direction(rng),
                express: false,
            },
            16..24 => Tile::Conveyor {
                dir: direction(rng),
                express: true,
            },
            24..27 => Tile::Gear(Rotation::Clockwise),
            27..30 => Tile::Gear(Rotation::CounterClockwise),
            30..34 => Tile::Repair,
            _ => Tile::Floor,
        };
    }
    for square in &mut squares {
        if hazards && chance(rng, 12) {
            square.walls = Walls::NONE.with(direction(rng));
        }
        if !square.tile.is_pit() && chance(rng, 4) {
            square.laser = Some(Laser {
                dir: direction(rng),
                strength: 1 + below(rng, 3) as u8,
            });
        }
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_boards_are_playable_for_all_sizes() {
        for seed in 0..20 {
            for (w, h) in [(2, 2), (2, 9), (5, 5), (12, 12), (0, 99)] {
                let board = random_board(seed, w, h, 8);
                assert!(playability_problems(&board).is_empty(), "{seed} {w}x{h}");
                assert!(board.starts().len() >= 2);
            }
        }
        assert_ne!(random_board(1, 12, 12, 4), random_board(2, 12, 12, 4));
        assert_eq!(random_board(9, 0, 99, 4).width(), 2);
        assert_eq!(random_board(9, 0, 99, 4).height(), MAX_SIDE);
    }
}

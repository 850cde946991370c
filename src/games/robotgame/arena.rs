//! Defines the RobotGame arena (RG1): the 19x19 grid, its walkable disc, its 48 spawn squares
//! and the adjacency between squares.
//!
//! The arena is the same in every game, so it is computed once at compile time into flat
//! tables indexed by [`Sq`]; the engine and the AIs then look squares up instead of doing
//! geometry on every turn.

use super::types::{Dir, Pos};

/// Side of the square grid.
pub const SIZE: usize = 19;
/// Squares of the grid, walkable or not.
pub const SQUARES: usize = SIZE * SIZE;
/// Walkable squares (RG1.1).
pub const WALKABLE: usize = 225;
/// Spawn squares (RG1.2).
pub const SPAWNS: usize = 48;

/// A square of the grid as an index `y * 19 + x`: the engine's internal coordinate, cheap to
/// use as an array index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u16);

impl Sq {
    pub const fn new(x: usize, y: usize) -> Sq {
        Sq((y * SIZE + x) as u16)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn x(self) -> usize {
        self.0 as usize % SIZE
    }

    pub const fn y(self) -> usize {
        self.0 as usize / SIZE
    }

    pub fn pos(self) -> Pos {
        Pos::new(self.x() as i32, self.y() as i32)
    }

    /// The square at `pos`, if it is on the grid (walkable or not).
    pub fn from_pos(pos: Pos) -> Option<Sq> {
        let on = |v: i32| (0..SIZE as i32).contains(&v);
        (on(pos.x) && on(pos.y)).then(|| Sq::new(pos.x as usize, pos.y as usize))
    }

    /// The square of RG5.2's mirror image, `(18 - x, 18 - y)`.
    pub const fn mirror(self) -> Sq {
        Sq::new(SIZE - 1 - self.x(), SIZE - 1 - self.y())
    }
}

/// The precomputed arena.
#[derive(Debug)]
pub struct Arena {
    walkable: [bool; SQUARES],
    spawn: [bool; SQUARES],
    /// The spawn squares in row-major order (y, then x): the order draws index into.
    spawn_list: [Sq; SPAWNS],
    /// Per square and direction, the walkable neighbour, if any.
    neighbours: [[Option<Sq>; 4]; SQUARES],
}

/// RG1.1: walkable when `(x-9)^2 + (y-9)^2 <= 72`.
const fn is_walkable(x: i32, y: i32) -> bool {
    if x < 0 || y < 0 || x >= SIZE as i32 || y >= SIZE as i32 {
        return false;
    }
    let (dx, dy) = (x - 9, y - 9);
    dx * dx + dy * dy <= 72
}

impl Arena {
    const fn build() -> Arena {
        let mut walkable = [false; SQUARES];
        let mut spawn = [false; SQUARES];
        let mut spawn_list = [Sq(0); SPAWNS];
        let mut neighbours = [[None; 4]; SQUARES];
        let mut spawns = 0;
        let mut i = 0;
        while i < SQUARES {
            let (x, y) = ((i % SIZE) as i32, (i / SIZE) as i32);
            if is_walkable(x, y) {
                walkable[i] = true;
                let mut next_to_obstacle = false;
                let mut d = 0;
                while d < 4 {
                    let (dx, dy) = Dir::ALL[d].delta();
                    if is_walkable(x + dx, y + dy) {
                        neighbours[i][d] = Some(Sq::new((x + dx) as usize, (y + dy) as usize));
                    } else {
                        next_to_obstacle = true;
                    }
                    d += 1;
                }
                if next_to_obstacle {
                    spawn[i] = true;
                    spawn_list[spawns] = Sq(i as u16);
                    spawns += 1;
                }
            }
            i += 1;
        }
        assert!(spawns == SPAWNS);
        Arena {
            walkable,
            spawn,
            spawn_list,
            neighbours,
        }
    }

    pub fn is_walkable(&self, sq: Sq) -> bool {
        self.walkable[sq.index()]
    }

    pub fn is_spawn(&self, sq: Sq) -> bool {
        self.spawn[sq.index()]
    }

    /// The 48 spawn squares, row by row.
    pub fn spawn_squares(&self) -> &[Sq; SPAWNS] {
        &self.spawn_list
    }

    /// The walkable neighbour of `sq` in direction `dir`, if any.
    pub fn neighbour(&self, sq: Sq, dir: Dir) -> Option<Sq> {
        self.neighbours[sq.index()][dir as usize]
    }

    /// The walkable neighbours of `sq`, by direction (N, E, S, W).
    pub fn neighbours(&self, sq: Sq) -> &[Option<Sq>; 4] {
        &self.neighbours[sq.index()]
    }

    /// The direction from `from` to the adjacent square `to` (RG1.3), if they are adjacent.
    pub fn direction(from: Sq, to: Sq) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| {
            let (dx, dy) = d.delta();
            from.x() as i32 + dx == to.x() as i32 && from.y() as i32 + dy == to.y() as i32
        })
    }

    /// Every walkable square, in row-major order.
    pub fn walkable_squares(&self) -> impl Iterator<Item = Sq> + '_ {
        (0..SQUARES as u16).map(Sq).filter(|&s| self.is_walkable(s))
    }
}

/// The one arena of RobotGame.
pub static ARENA: Arena = Arena::build();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_rules() {
        assert_eq!(ARENA.walkable_squares().count(), WALKABLE);
        assert_eq!(SQUARES - WALKABLE, 136);
        assert_eq!(ARENA.spawn_squares().len(), SPAWNS);
        assert_eq!(ARENA.spawn_squares()[0], Sq::new(7, 1));
        assert!(ARENA.is_walkable(Sq::new(9, 9)));
        assert!(!ARENA.is_walkable(Sq::new(0, 0)));
        assert!(!ARENA.is_spawn(Sq::new(9, 9)));
    }

    #[test]
    fn spawn_squares_touch_an_obstacle_and_mirror_onto_spawn_squares() {
        for &s in ARENA.spawn_squares() {
            assert!(ARENA.neighbours(s).iter().any(Option::is_none), "{s:?}");
            assert!(ARENA.is_spawn(s.mirror()));
            assert_ne!(s, s.mirror());
        }
    }

    #[test]
    fn adjacency_is_orthogonal_and_symmetric() {
        let c = Sq::new(9, 9);
        assert_eq!(ARENA.neighbour(c, Dir::North), Some(Sq::new(9, 8)));
        assert_eq!(ARENA.neighbour(c, Dir::East), Some(Sq::new(10, 9)));
        assert_eq!(Arena::direction(c, Sq::new(9, 10)), Some(Dir::South));
        assert_eq!(Arena::direction(c, Sq::new(10, 10)), None);
        for s in ARENA.walkable_squares() {
            for d in Dir::ALL {
                if let Some(n) = ARENA.neighbour(s, d) {
                    assert_eq!(ARENA.neighbour(n, d.opposite()), Some(s));
                }
            }
        }
    }
}

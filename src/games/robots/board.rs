//! Defines [`Board`]: one seat's game of Robots (RB1), its squares, robots, heaps and player,
//! its counters, and how a level is laid out.
//!
//! Every seat plays its own board, so a board is the unit the rules act on; the multi-seat
//! [`super::Game`] only runs boards side by side. Squares are flat indices ([`Sq`]) into a
//! cell array so a robot step is a few array look-ups per robot; the per-step buffers live
//! in the board and a turn allocates nothing once warmed up.

use super::free::FreeSquares;
use super::types::{Event, KillCause, Pos, Status};
use crate::rng::{GameRng, splitmix64};
use thiserror::Error;

/// Width of the classic board (RB1.1).
pub const CLASSIC_WIDTH: u16 = 59;
/// Height of the classic board (RB1.1).
pub const CLASSIC_HEIGHT: u16 = 22;
/// The last level: completing it ends the game (RB1.3).
pub const LAST_LEVEL: u8 = 20;
/// A seat's game ends after this many turns (RB1.3).
pub const MAX_TURNS: u32 = 1000;
/// Robots per level number, and the most a level places (RB1.2).
pub const ROBOTS_PER_LEVEL: u32 = 10;
pub const MAX_ROBOTS: u32 = 40;
/// Largest side a board may have.
pub const MAX_SIDE: u16 = 255;
/// Smallest board a level can always be laid out on: 40 robots rule out at most 9 squares
/// each for the player (their own and their 8 neighbours), so one square is always left.
pub const MIN_LEVEL_AREA: u32 = 9 * MAX_ROBOTS + 1;

/// The robots of level `level` (RB1.2).
pub fn robots_on_level(level: u8) -> u32 {
    (ROBOTS_PER_LEVEL * u32::from(level)).min(MAX_ROBOTS)
}

/// A square as an index `y * width + x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sq(pub u32);

impl Sq {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a square holds apart from the player (tracked on its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Robot,
    Heap,
}

/// A position set by hand (scenarios): everything a board needs before a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub width: u16,
    pub height: u16,
    pub level: u8,
    pub player: Pos,
    pub robots: Vec<Pos>,
    pub heaps: Vec<Pos>,
    pub teleports: u32,
    pub can_blast: bool,
}

/// A setup, a position or a call the engine refuses.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    #[error("{0} seats: expected 1 to 8")]
    Seats(u8),
    #[error("level {0}: expected 1 to {LAST_LEVEL}")]
    Level(u8),
    #[error("board {width}x{height}: expected sides of 1 to {MAX_SIDE}")]
    Size { width: u16, height: u16 },
    #[error(
        "board {width}x{height}: a level needs at least {MIN_LEVEL_AREA} squares and sides of 2 or more"
    )]
    TooSmall { width: u16, height: u16 },
    #[error("{what} at {pos} is not on the {width}x{height} board")]
    OffBoard {
        what: &'static str,
        pos: Pos,
        width: u16,
        height: u16,
    },
    #[error("{what} at {pos} is on a square already taken")]
    Taken { what: &'static str, pos: Pos },
    #[error("a turn limit of 0: expected at least 1 turn")]
    TurnLimit,
    #[error("{got} answers for {seats} seats: expected one per seat")]
    Answers { got: usize, seats: u8 },
    #[error("the game is over")]
    Over,
    #[error("replay of turn {turn}: {reason}")]
    Replay { turn: u32, reason: String },
}

/// One seat's game.
#[derive(Debug, Clone)]
pub struct Board {
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) cells: Vec<Cell>,
    /// The robots' positions, in no particular order: kept as positions, not squares, as
    /// a robot step compares each robot's row and column with the player's.
    pub(super) robots: Vec<Pos>,
    /// The scrap heaps' squares, in the order they were made.
    pub(super) heaps: Vec<Sq>,
    pub(super) player: Sq,
    pub(super) level: u8,
    pub(super) teleports: u32,
    pub(super) can_blast: bool,
    pub(super) kills: u32,
    pub(super) turns: u32,
    pub(super) levels_cleared: u32,
    pub(super) faults: u32,
    pub(super) max_turns: u32,
    pub(super) status: Status,
    /// The game seed: each level's layout is drawn from a generator derived from it.
    pub(super) seed: u64,
    /// The teleport generator.
    pub(super) rng: GameRng,
    /// The events of the last turn played.
    pub(super) events: Vec<Event>,
    // Per-step buffers.
    /// Robots arriving on each square in the current step.
    pub(super) arrivals: Vec<u8>,
    /// The squares a placement or teleport may pick, as of the last [`Board::mark_taken`].
    pub(super) free: FreeSquares,
    /// [`reciprocal`] of the width: a square's row by a multiplication, as every robot
    /// step needs it for every robot.
    pub(super) width_reciprocal: u64,
    /// Every square in order, shuffled in part to lay out a level's robots and put back
    /// in order after.
    pub(super) squares: Vec<Sq>,
    /// The swaps of that shuffle.
    pub(super) swaps: Vec<usize>,
    /// Squares where robots were destroyed in the current step, with how many and why.
    pub(super) wrecks: Vec<(Sq, u8, KillCause)>,
}

/// `ceil(2^32 / width)`: for any square index `n` of a board (below 2^16),
/// `(n * reciprocal) >> 32` is `n / width` exactly (the error of the rounding, below
/// `n / 2^32`, never reaches the next multiple). Checked for every width and index below.
pub(super) fn reciprocal(width: u16) -> u64 {
    (1u64 << 32).div_ceil(u64::from(width.max(1)))
}

/// The row of square index `n` on a board whose width has `reciprocal`.
pub(super) fn row_of(n: u32, reciprocal: u64) -> u32 {
    ((u64::from(n) * reciprocal) >> 32) as u32
}

/// The generator of teleports on every board of the game with `seed`.
pub(super) fn teleport_rng(seed: u64) -> GameRng {
    GameRng::new(seed)
}

/// The generator that lays out level `level` of the game with `seed`: the same for every
/// seat whatever it did on earlier levels.
fn level_rng(seed: u64, level: u8) -> GameRng {
    let mut state = seed ^ 0x1E7E_1000_0000_0000 ^ u64::from(level);
    GameRng::new(splitmix64(&mut state))
}

impl Board {
    fn empty(width: u16, height: u16, seed: u64) -> Board {
        let area = usize::from(width) * usize::from(height);
        Board {
            width,
            height,
            cells: vec![Cell::Empty; area],
            robots: Vec::with_capacity(MAX_ROBOTS as usize),
            heaps: Vec::new(),
            player: Sq(0),
            level: 1,
            teleports: 0,
            can_blast: true,
            kills: 0,
            turns: 0,
            levels_cleared: 0,
            faults: 0,
            max_turns: MAX_TURNS,
            status: Status::Playing,
            seed,
            rng: teleport_rng(seed),
            events: Vec::new(),
            arrivals: vec![0; area],
            free: FreeSquares::new(area as u32),
            squares: (0..area as u32).map(Sq).collect(),
            swaps: Vec::with_capacity(MAX_ROBOTS as usize),
            width_reciprocal: reciprocal(width),
            wrecks: Vec::new(),
        }
    }

    /// A board of a game with `seed`, at the start of level `level` (RB1.2, RB4 safe
    /// teleports: a game starts as if the blaster was unused on the level before).
    pub fn new(width: u16, height: u16, level: u8, seed: u64) -> Result<Board, GameError> {
        check_level(level)?;
        if !(2..=MAX_SIDE).contains(&width)
            || !(2..=MAX_SIDE).contains(&height)
            || u32::from(width) * u32::from(height) < MIN_LEVEL_AREA
        {
            return Err(GameError::TooSmall { width, height });
        }
        let mut board = Board::empty(width, height, seed);
        board.start_level(level);
        Ok(board)
    }

    /// A board set up by hand; teleports are drawn from the generator of `seed`.
    pub fn from_position(p: &Position, seed: u64) -> Result<Board, GameError> {
        check_level(p.level)?;
        let (width, height) = (p.width, p.height);
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(GameError::Size { width, height });
        }
        let mut board = Board::empty(width, height, seed);
        board.level = p.level;
        board.teleports = p.teleports;
        board.can_blast = p.can_blast;
        let place = |b: &Board, what: &'static str, pos: Pos| {
            let sq = b.sq(pos).ok_or(GameError::OffBoard {
                what,
                pos,
                width,
                height,
            })?;
            if b.cells[sq.index()] != Cell::Empty || (what != "player" && sq == b.player) {
                return Err(GameError::Taken { what, pos });
            }
            Ok(sq)
        };
        board.player = place(&board, "player", p.player)?;
        for &pos in &p.robots {
            let sq = place(&board, "robot", pos)?;
            board.cells[sq.index()] = Cell::Robot;
            board.robots.push(pos);
        }
        for &pos in &p.heaps {
            let sq = place(&board, "heap", pos)?;
            board.cells[sq.index()] = Cell::Heap;
            board.heaps.push(sq);
        }
        if board.robots.is_empty() {
            board.status = Status::LevelDone;
        }
        Ok(board)
    }

    /// Lays out level `level` on a fresh board (RB1.2) and grants its safe teleports (RB4).
    pub(super) fn start_level(&mut self, level: u8) {
        let blaster_unused = self.can_blast;
        self.level = level;
        self.teleports += 1 + u32::from(blaster_unused);
        self.can_blast = true;
        self.cells.fill(Cell::Empty);
        self.robots.clear();
        self.heaps.clear();
        let mut rng = level_rng(self.seed, level);
        let count = robots_on_level(level) as usize;
        // Distinct squares for the robots: a partial Fisher-Yates shuffle of all squares.
        rng.partial_shuffle_swaps(self.squares.len(), count, &mut self.swaps);
        for (i, &j) in self.swaps.iter().enumerate() {
            self.squares.swap(i, j);
        }
        for k in 0..count {
            let s = self.squares[k];
            self.cells[s.index()] = Cell::Robot;
            let pos = self.pos(s);
            self.robots.push(pos);
        }
        for (i, &j) in self.swaps.iter().enumerate().rev() {
            self.squares.swap(i, j);
        }
        // The player: uniformly among the empty squares with no robot next to them. The
        // previous level's player square is no obstacle on the fresh board.
        self.mark_taken(true, None);
        let k = rng.below(self.free.count());
        self.player = self.free.nth(k).expect("a level leaves a free square");
        self.status = Status::Playing;
    }

    /// Marks the squares a placement or teleport may not pick: robots, heaps and
    /// `player` (the player's square, if it stands on one), and with `away_from_robots`
    /// every square with a robot among its 8 neighbours.
    pub(super) fn mark_taken(&mut self, away_from_robots: bool, player: Option<Sq>) {
        self.free.clear();
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        for k in 0..self.robots.len() {
            let p = self.robots[k];
            if !away_from_robots {
                self.free.take(Sq((p.y * w + p.x) as u32));
                continue;
            }
            // The robot's square and its neighbours: a run of up to 3 squares a row.
            let (x0, x1) = ((p.x - 1).max(0), (p.x + 1).min(w - 1));
            for y in (p.y - 1).max(0)..=(p.y + 1).min(h - 1) {
                self.free
                    .take_run(Sq((y * w + x0) as u32), (x1 - x0 + 1) as u32);
            }
        }
        for &heap in &self.heaps {
            self.free.take(heap);
        }
        if let Some(p) = player {
            self.free.take(p);
        }
    }

    /// The square at `pos`, if it is on the board.
    pub fn sq(&self, pos: Pos) -> Option<Sq> {
        let on = |v: i32, side: u16| (0..i32::from(side)).contains(&v);
        (on(pos.x, self.width) && on(pos.y, self.height))
            .then(|| Sq((pos.y as u32) * u32::from(self.width) + pos.x as u32))
    }

    pub fn pos(&self, sq: Sq) -> Pos {
        let y = row_of(sq.0, self.width_reciprocal);
        let x = sq.0 - y * u32::from(self.width);
        Pos::new(x as i32, y as i32)
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    /// What `pos` holds apart from the player; `None` off the board.
    pub fn cell(&self, pos: Pos) -> Option<Cell> {
        self.sq(pos).map(|s| self.cells[s.index()])
    }

    /// Every square's content apart from the player, row by row (`y`, then `x`).
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The player's square, `None` once dead.
    pub fn player(&self) -> Option<Pos> {
        (self.status != Status::Dead).then(|| self.pos(self.player))
    }

    /// The robots' positions, in no particular order.
    pub fn robot_positions(&self) -> &[Pos] {
        &self.robots
    }

    /// The scrap heaps' squares, in no particular order.
    pub fn heap_squares(&self) -> &[Sq] {
        &self.heaps
    }

    /// The robots' positions, sorted by `[x, y]`.
    pub fn robots(&self) -> Vec<Pos> {
        let mut out = self.robots.clone();
        out.sort_unstable();
        out
    }

    /// The scrap heaps' positions, sorted by `[x, y]`.
    pub fn heaps(&self) -> Vec<Pos> {
        let mut out: Vec<Pos> = self.heaps.iter().map(|&s| self.pos(s)).collect();
        out.sort_unstable();
        out
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    /// Safe teleports left (RB4).
    pub fn teleports(&self) -> u32 {
        self.teleports
    }

    /// Whether the blaster can still be used on this level.
    pub fn can_blast(&self) -> bool {
        self.can_blast
    }

    pub fn kills(&self) -> u32 {
        self.kills
    }

    /// Turns (submissions) played.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    pub fn levels_cleared(&self) -> u32 {
        self.levels_cleared
    }

    /// Turns that were forced passes (RB2.2).
    pub fn faults(&self) -> u32 {
        self.faults
    }

    /// Kills minus turns (RB5).
    pub fn score(&self) -> i64 {
        i64::from(self.kills) - i64::from(self.turns)
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// The events of the last turn played (and of the level start that followed it).
    pub fn events(&self) -> &[Event] {
        &self.events
    }
}

fn check_level(level: u8) -> Result<(), GameError> {
    if (1..=LAST_LEVEL).contains(&level) {
        Ok(())
    } else {
        Err(GameError::Level(level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_place_ten_robots_a_level_up_to_forty_none_next_to_the_player() {
        for level in 1..=LAST_LEVEL {
            for seed in 0..20 {
                let b = Board::new(CLASSIC_WIDTH, CLASSIC_HEIGHT, level, seed).unwrap();
                let n = b.robots().len() as u32;
                assert_eq!(n, (10 * u32::from(level)).min(40));
                let mut all = b.robots();
                all.dedup();
                assert_eq!(all.len() as u32, n);
                let p = b.player().unwrap();
                assert!(b.robots().iter().all(|&r| r.distance(p) >= 2));
                assert!(b.heaps().is_empty());
                assert_eq!(b.teleports(), 2);
            }
        }
    }

    #[test]
    fn a_level_is_the_same_for_the_same_seed_and_differs_between_seeds() {
        let a = Board::new(59, 22, 3, 11).unwrap();
        let b = Board::new(59, 22, 3, 11).unwrap();
        let c = Board::new(59, 22, 3, 12).unwrap();
        assert_eq!((a.robots(), a.player()), (b.robots(), b.player()));
        assert_ne!(a.robots(), c.robots());
    }

    #[test]
    fn rows_by_reciprocal_are_exact_for_every_width_and_square() {
        for width in 1..=MAX_SIDE {
            let r = reciprocal(width);
            let area = u32::from(width) * u32::from(MAX_SIDE);
            for n in 0..area {
                assert_eq!(row_of(n, r), n / u32::from(width), "{n} / {width}");
            }
        }
    }

    #[test]
    fn boards_too_small_for_a_level_are_refused() {
        assert!(Board::new(19, 19, 1, 0).is_ok());
        assert_eq!(
            Board::new(18, 20, 1, 0).err(),
            Some(GameError::TooSmall {
                width: 18,
                height: 20
            })
        );
        assert!(Board::new(59, 22, 21, 0).is_err());
    }
}

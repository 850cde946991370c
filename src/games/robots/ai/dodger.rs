//! Defines [`Dodger`]: a player that steps only where no robot can reach it, picks among
//! such squares the one that makes robots collide or run into heaps soonest, blasts or
//! teleports when cornered, and plays up to 8 moves a turn.
//!
//! A score is kills minus turns (RB5), so the dodger plans a whole turn at once: it plays
//! its moves ahead on a [`Field`] (the rules are deterministic but for teleports) and stops
//! only at a teleport, at the end of the level, or with a last stand (`L`) once passing
//! to the end of the level is seen to be survivable.

use super::Player;
use super::sim::{Field, around_bit, squares_in};
use super::swarm::{Code, Patch, REACH, SWARM_MAX, Swarm, code_near, offset, threatened};
use crate::games::robots::board::Board;
use crate::games::robots::types::{Dir, MAX_MOVES, Move, Pos};
use crate::rng::GameRng;

/// Steps a look-ahead passes after a candidate move to count the kills it leads to.
const HORIZON: u32 = 3;
/// Robots this far away (or farther) cannot threaten the player within two steps: passing
/// is safe, and lets them come.
const FAR: i32 = 4;
/// A last stand is looked for only with this many robots left or fewer: with more, it
/// rarely survives, and simulating the rest of the level before every move cost 12% of a
/// game's instructions for 1% more score (1,000 solo games).
const DOOM_MAX: usize = 12;
/// How far from the edges the dodger looks for room.
const ROOM: i32 = 2;

/// What passing until the end of the level would do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Doom {
    Unknown,
    /// The level ends with the player alive.
    Survives,
    /// The player dies in this many steps.
    DiesIn(u32),
}

/// How good a candidate square is, compared field by field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Value {
    clears_level: bool,
    /// Some safe square is left around it after the robots' step.
    escape: bool,
    /// Kills of the step and of the look-ahead after it.
    kills: u32,
    /// Steps of the look-ahead survived.
    lives: u32,
    /// Squares between it and the nearest edge of the board, up to [`ROOM`]: a player
    /// driven into a corner runs out of safe squares.
    room: i32,
    /// Safe squares around it after the robots' step.
    mobility: u32,
    /// Passing keeps the position; preferred when all else is equal.
    pass: bool,
}

impl Value {
    /// The value as one number that orders as the value does, field by field: candidates
    /// compare with one instruction instead of a branch a field, as good as random to
    /// the processor. Every field fits its bits: kills are at most the [`SWARM_MAX`]
    /// robots of a look-ahead, lives at most [`HORIZON`], room at most [`ROOM`], mobility
    /// at most 9.
    fn rank(self) -> u64 {
        debug_assert!(
            self.kills <= SWARM_MAX as u32
                && self.lives <= HORIZON
                && (0..=ROOM).contains(&self.room)
                && self.mobility <= 9,
            "{self:?}"
        );
        u64::from(self.clears_level) << 56
            | u64::from(self.escape) << 48
            | u64::from(self.kills) << 32
            | u64::from(self.lives) << 24
            | u64::from(self.room as u32) << 16
            | u64::from(self.mobility) << 8
            | u64::from(self.pass)
    }
}

/// The robots that can matter to the next move's look-ahead, on the patch: the first
/// [`SWARM_MAX`] of them, and how many there are.
#[derive(Debug, Clone)]
struct Near {
    /// One more than kept: a square is written whether or not it is kept.
    at: [Code; SWARM_MAX + 1],
    len: usize,
    count: usize,
}

impl Default for Near {
    fn default() -> Near {
        Near {
            at: [0; SWARM_MAX + 1],
            len: 0,
            count: 0,
        }
    }
}

impl Near {
    /// Keeps the robots of `robots` within `reach` of `player`, as squares of the patch
    /// around it.
    ///
    /// Runs for every robot before most moves, so it keeps its counts in registers and
    /// takes robots without a branch: whether a robot is near is as good as random to the
    /// processor.
    fn gather(&mut self, robots: &[Pos], player: Pos, reach: i32) {
        let at = &mut self.at;
        if robots.len() <= SWARM_MAX {
            // Every robot fits: no count to check. A square is written whether or not it
            // is kept, at an index below the robot's own, so below SWARM_MAX.
            let mut len = 0usize;
            for &r in robots {
                at[len % SWARM_MAX] = code_near(player, r);
                len += usize::from(r.distance(player) <= reach);
            }
            self.len = len;
            self.count = len;
            return;
        }
        let (mut len, mut count) = (0usize, 0usize);
        for &r in robots {
            let near = r.distance(player) <= reach;
            at[len.min(SWARM_MAX)] = code_near(player, r);
            len += usize::from(near & (len < SWARM_MAX));
            count += usize::from(near);
        }
        self.len = len;
        self.count = count;
    }

    fn squares(&self) -> &[Code] {
        &self.at[..self.len]
    }
}

/// See the module documentation.
#[derive(Debug, Clone, Default)]
pub struct Dodger {
    /// The direction tried first (of [`Dir::ALL`]), which wins among equally good
    /// squares: drawn once a game, so that dodgers in different seats (and so different
    /// teams of a tournament) do not play identical games, while each keeps the steady
    /// preference that keeps robots lined up behind it.
    first_dir: usize,
    field: Field,
    robots: Vec<Pos>,
    player: Pos,
    can_blast: bool,
    // Scratch space.
    /// The squares around the player, for the next move's look-ahead.
    patch: Patch,
    /// The robots that can matter to the next move's look-ahead, on the patch.
    near: Near,
    /// The robots of the look-ahead.
    swarm: Swarm,
    wrecked: Vec<usize>,
    /// The robots of a last stand looked ahead.
    stand: Vec<Pos>,
}

impl Dodger {
    pub fn new(mut rng: GameRng) -> Dodger {
        Dodger {
            first_dir: rng.below(8) as usize,
            ..Dodger::default()
        }
    }

    fn load(&mut self, board: &Board) {
        self.field.load(board, &mut self.robots);
        self.player = board.player().unwrap_or_default();
        self.can_blast = board.can_blast();
    }

    /// Whether a last stand from here survives.
    fn doom(&mut self) -> Doom {
        match self
            .field
            .last_stand(&self.robots, self.player, &mut self.stand)
        {
            None => Doom::Survives,
            Some(t) => Doom::DiesIn(t),
        }
    }

    /// The value of moving to (or staying on) `to` (square `t` of the patch), a safe
    /// square, judged on the robots of [`Dodger::near`] only: a robot farther away cannot
    /// reach the player within the look-ahead, and robots closing in on a standing player
    /// one square a step only meet robots at the same distance, so what the far ones do
    /// hardly depends on this move.
    ///
    /// Returned as its [`Value::rank`], in a register: a value's fields stored one by one
    /// and read back as a word made the processor wait, 3% of a game.
    // Out of line: inlined into `choose`, its swarm steps were compiled into slower code
    // (4% more instructions a game).
    #[inline(never)]
    fn value(&mut self, to: Pos, t: Code, pass: bool) -> u64 {
        let swarm = &mut self.swarm;
        let kills = swarm.start(self.near.squares(), t).kills;
        // The level is cleared only if no robot, near or far, is left.
        if swarm.is_empty() && self.near.count == self.robots.len() {
            return Value {
                clears_level: true,
                escape: true,
                kills,
                lives: HORIZON,
                room: ROOM,
                mobility: 9,
                pass,
            }
            .rank();
        }
        // The player's own square is open (it stands there), but may be threatened.
        let closed = swarm.threatened() | (swarm.closed_around() & !around_bit(0, 0));
        let mobility = 9 - squares_in(closed);
        let (more, death) = swarm.pass(HORIZON);
        Value {
            clears_level: false,
            escape: mobility > 0,
            kills: kills + more,
            lives: death.map_or(HORIZON, |t| t - 1),
            room: self.field.room(to, ROOM),
            mobility,
            pass,
        }
        .rank()
    }

    /// The next move from the current state.
    fn choose(&mut self) -> Move {
        let p = self.player;
        // The robots that can matter to the look-ahead, found in the same pass.
        let reach = HORIZON as i32 + 2;
        const { assert!(HORIZON as i32 + 2 <= REACH, "near robots are on the patch") };
        let (nearest, adjacent) = closest(&self.robots, p);
        // The last robot next to the player: blasting it ends the level at once.
        if self.can_blast
            && self.robots.len() == 1
            && let Some(r) = self.lone_adjacent(adjacent)
        {
            return Move::Blast(direction(p, r));
        }
        if nearest >= FAR || (self.robots.len() == 1 && self.can_blast && nearest >= 2) {
            // Let them come: nothing can reach the player within two steps, or the last
            // robot is to be blasted once next to it.
            return Move::Pass;
        }
        self.near.gather(&self.robots, p, reach);
        self.patch = Patch::new(&self.field, p);
        self.swarm.load(&self.patch);
        let centre = code_near(p, p);
        let closed = threatened(self.near.squares()) | self.patch.closed_around(centre);
        // The options in the order they are tried: passing, then the directions from the
        // first on. The safe ones are a bit each, so that no list of them is written and
        // read back.
        let first = self.first_dir;
        let option = |i: u32| -> (Move, i32, i32) {
            if i == 0 {
                return (Move::Pass, 0, 0);
            }
            let d = Dir::ALL[(first + i as usize - 1) % 8];
            let (dx, dy) = d.delta();
            (Move::Step(d), dx, dy)
        };
        let mut safe = 0u16;
        for i in 0..9 {
            let (_, dx, dy) = option(i);
            safe |= u16::from(closed & around_bit(dx, dy) == 0) << i;
        }
        if safe != 0 {
            // A lone safe square needs no look-ahead: it is the move.
            if safe & (safe - 1) == 0 {
                return option(safe.trailing_zeros()).0;
            }
            let mut value = |i: u32| {
                let (mv, dx, dy) = option(i);
                let to = Pos::new(p.x + dx, p.y + dy);
                (self.value(to, offset(centre, dx, dy), mv == Move::Pass), mv)
            };
            // The first of equally good squares wins.
            let mut best = value(safe.trailing_zeros());
            safe &= safe - 1;
            while safe != 0 {
                let candidate = value(safe.trailing_zeros());
                if candidate.0 > best.0 {
                    best = candidate;
                }
                safe &= safe - 1;
            }
            return best.1;
        }
        // Cornered: blast the one robot that can reach the player, or teleport away.
        if self.can_blast
            && let Some(r) = self.lone_adjacent(adjacent)
        {
            return Move::Blast(direction(p, r));
        }
        Move::Teleport
    }

    /// The one robot next to the player, if exactly one is (`adjacent` of them are):
    /// looked for only when needed, so that the pass over the robots does not track it.
    fn lone_adjacent(&self, adjacent: u32) -> Option<Pos> {
        let p = self.player;
        (adjacent == 1)
            .then(|| self.robots.iter().copied().find(|r| r.distance(p) == 1))
            .flatten()
    }

    /// Plays `mv` (not a teleport) on the simulated state; returns whether the plan goes on.
    fn apply(&mut self, mv: Move) -> bool {
        match mv {
            Move::Step(d) => self.player = self.player.step(d),
            Move::Blast(d) => {
                let at = self.player.step(d);
                self.robots.retain(|&r| r != at);
                let i = self.field.idx(at);
                self.field.set_heap(i);
                self.can_blast = false;
                if self.robots.is_empty() {
                    return false;
                }
            }
            _ => {}
        }
        let stepped = self
            .field
            .step(&mut self.robots, self.player, &mut self.wrecked);
        for k in 0..self.wrecked.len() {
            self.field.set_heap(self.wrecked[k]);
        }
        let dead = stepped.hit;
        !dead && !self.robots.is_empty()
    }
}

/// The distance from `player` to the nearest of `robots` (0 with none), and how many are
/// next to it. A pass of its own, apart from [`Near::gather`]: it is vectorised, and a
/// third of the moves need nothing more.
fn closest(robots: &[Pos], player: Pos) -> (i32, u32) {
    let (mut nearest, mut adjacent) = (i32::MAX, 0u32);
    for &r in robots {
        let d = r.distance(player);
        nearest = nearest.min(d);
        adjacent += u32::from(d == 1);
    }
    if robots.is_empty() {
        nearest = 0;
    }
    (nearest, adjacent)
}

/// The direction from `from` to the adjacent square `to`.
fn direction(from: Pos, to: Pos) -> Dir {
    let step = from.toward(to);
    Dir::ALL
        .into_iter()
        .find(|&d| from.step(d) == step)
        .unwrap_or(Dir::N)
}

impl Player for Dodger {
    fn act(&mut self, board: &Board, out: &mut Vec<Move>) {
        self.load(board);
        let mut doom = Doom::Unknown;
        while out.len() < MAX_MOVES {
            if doom == Doom::Unknown && self.robots.len() <= DOOM_MAX {
                doom = self.doom();
            }
            if doom == Doom::Survives {
                out.push(Move::LastStand);
                return;
            }
            let mv = self.choose();
            out.push(mv);
            // After the last move of the turn the plan is not needed: the next turn starts
            // from the board.
            if mv == Move::Teleport || out.len() == MAX_MOVES || !self.apply(mv) {
                return;
            }
            doom = match (mv, doom) {
                // Passing is a step of the last stand already simulated.
                (Move::Pass, Doom::DiesIn(t)) if t > 1 => Doom::DiesIn(t - 1),
                _ => Doom::Unknown,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robots::board::Position;
    use proptest::prelude::*;

    fn any_value() -> impl Strategy<Value = Value> {
        (
            any::<bool>(),
            any::<bool>(),
            0..=SWARM_MAX as u32,
            0..=HORIZON,
            0..=ROOM,
            0u32..=9,
            any::<bool>(),
        )
            .prop_map(
                |(clears_level, escape, kills, lives, room, mobility, pass)| Value {
                    clears_level,
                    escape,
                    kills,
                    lives,
                    room,
                    mobility,
                    pass,
                },
            )
    }

    proptest! {
        /// Candidates are compared by rank: it must order values as comparing them field
        /// by field does.
        #[test]
        fn ranks_order_as_values_do(a in any_value(), b in any_value()) {
            prop_assert_eq!(a.rank().cmp(&b.rank()), a.cmp(&b));
        }
    }

    fn plan(player: (i32, i32), robots: &[(i32, i32)], heaps: &[(i32, i32)]) -> Vec<Move> {
        let position = Position {
            width: 12,
            height: 12,
            level: 1,
            player: Pos::new(player.0, player.1),
            robots: robots.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            heaps: heaps.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
            teleports: 2,
            can_blast: true,
        };
        let board = Board::from_position(&position, 0).unwrap();
        let mut out = Vec::new();
        Dodger::new(GameRng::new(0)).act(&board, &mut out);
        out
    }

    #[test]
    fn makes_a_last_stand_when_the_robots_will_collide() {
        // Both robots step onto (3,5) and crash: passing to the end is safe.
        assert_eq!(plan((5, 5), &[(2, 4), (2, 6)], &[]), vec![Move::LastStand]);
    }

    #[test]
    fn blasts_the_last_robot_once_next_to_it() {
        assert_eq!(plan((5, 5), &[(5, 4)], &[]), vec![Move::Blast(Dir::N)]);
        // Farther away, it waits for it.
        assert_eq!(
            plan((5, 5), &[(5, 2)], &[]),
            vec![Move::Pass, Move::Pass, Move::Blast(Dir::N)]
        );
    }

    #[test]
    fn never_steps_where_a_robot_can_reach() {
        let moves = plan((0, 0), &[(2, 0), (2, 2), (0, 2)], &[]);
        assert!(!moves.is_empty());
        assert!(moves.len() <= MAX_MOVES);
        // From the corner every neighbour is next to a robot: it teleports or blasts.
        assert!(
            matches!(moves[0], Move::Pass | Move::Teleport | Move::Blast(_)),
            "{moves:?}"
        );
    }
}

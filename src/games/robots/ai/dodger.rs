//! Defines [`Dodger`]: a player that steps only where no robot can reach it, picks among
//! such squares the one that makes robots collide or run into heaps soonest, blasts or
//! teleports when cornered, and plays up to 8 moves a turn.
//!
//! A score is kills minus turns (RB5), so the dodger plans a whole turn at once: it plays
//! its moves ahead on a [`Field`] (the rules are deterministic but for teleports) and stops
//! only at a teleport, at the end of the level, or with a last stand (`L`) once passing
//! to the end of the level is seen to be survivable.

use super::Player;
use super::sim::{Field, around_bit, threatened_around, toward};
use super::swarm::Swarm;
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
    /// The robots that can matter to the next move's look-ahead.
    near: Vec<Pos>,
    wrecked: Vec<usize>,
    swarm: Swarm,
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
        let limit = self.field_side();
        self.swarm.reset(&self.robots);
        let (_, death) = self.swarm.pass(&self.field, self.player, limit);
        match death {
            None => Doom::Survives,
            Some(t) => Doom::DiesIn(t),
        }
    }

    /// Steps after which every robot has reached the player or been destroyed.
    fn field_side(&self) -> u32 {
        let far = self
            .robots
            .iter()
            .map(|r| r.distance(self.player))
            .max()
            .unwrap_or(0);
        far as u32 + 1
    }

    /// The value of moving to (or staying on) `to`, a safe square, judged on the robots
    /// of [`Dodger::near`] only: a robot farther away cannot reach the player within the
    /// look-ahead, and robots closing in on a standing player one square a step only meet
    /// robots at the same distance, so what the far ones do hardly depends on this move.
    fn value(&mut self, to: Pos, pass: bool) -> Value {
        let swarm = &mut self.swarm;
        swarm.reset(&self.near);
        let kills = swarm.step(&self.field, to).kills;
        // The level is cleared only if no robot, near or far, is left.
        if swarm.is_empty() && self.near.len() == self.robots.len() {
            return Value {
                clears_level: true,
                escape: true,
                kills,
                lives: HORIZON,
                room: ROOM,
                mobility: 9,
                pass,
            };
        }
        let threat = threatened_around(swarm.robots(), to);
        let mut mobility = u32::from(threat & around_bit(0, 0) == 0);
        for dir in Dir::ALL {
            let (dx, dy) = dir.delta();
            mobility += u32::from(
                threat & around_bit(dx, dy) == 0 && swarm.open(&self.field, to.step(dir)),
            );
        }
        let (more, death) = swarm.pass(&self.field, to, HORIZON);
        Value {
            clears_level: false,
            escape: mobility > 0,
            kills: kills + more,
            lives: death.map_or(HORIZON, |t| t - 1),
            room: self.field.room(to, ROOM),
            mobility,
            pass,
        }
    }

    /// The next move from the current state.
    fn choose(&mut self) -> Move {
        let p = self.player;
        let nearest = self.robots.iter().map(|r| r.distance(p)).min().unwrap_or(0);
        // The one robot next to the player, if exactly one is.
        let mut next_to = self.robots.iter().filter(|r| r.distance(p) == 1);
        let lone_adjacent = match (next_to.next(), next_to.next()) {
            (Some(&r), None) => Some(r),
            _ => None,
        };
        // The last robot next to the player: blasting it ends the level at once.
        if let Some(r) = lone_adjacent.filter(|_| self.can_blast && self.robots.len() == 1) {
            return Move::Blast(direction(p, r));
        }
        if nearest >= FAR || (self.robots.len() == 1 && self.can_blast && nearest >= 2) {
            // Let them come: nothing can reach the player within two steps, or the last
            // robot is to be blasted once next to it.
            return Move::Pass;
        }
        self.near.clear();
        let reach = HORIZON as i32 + 2;
        self.near.extend(
            self.robots
                .iter()
                .copied()
                .filter(|r| r.distance(p) <= reach),
        );
        let first = self.first_dir;
        let options = std::iter::once(Move::Pass)
            .chain((0..8).map(|k| Move::Step(Dir::ALL[(first + k) % 8])));
        let threat = threatened_around(&self.near, p);
        let mut safe = [(Move::Pass, p); 9];
        let mut count = 0;
        for mv in options {
            let (to, bit) = match mv {
                Move::Step(d) => (p.step(d), around_bit(d.delta().0, d.delta().1)),
                _ => (p, around_bit(0, 0)),
            };
            if threat & bit == 0 && self.field.open(to) {
                safe[count] = (mv, to);
                count += 1;
            }
        }
        // A lone safe square needs no look-ahead: it is the move.
        if count == 1 {
            return safe[0].0;
        }
        let mut best: Option<(Value, Move)> = None;
        for &(mv, to) in &safe[..count] {
            let value = self.value(to, mv == Move::Pass);
            if best.is_none_or(|(b, _)| value > b) {
                best = Some((value, mv));
            }
        }
        if let Some((_, mv)) = best {
            return mv;
        }
        // Cornered: blast the one robot that can reach the player, or teleport away.
        if let Some(r) = lone_adjacent.filter(|_| self.can_blast) {
            return Move::Blast(direction(p, r));
        }
        Move::Teleport
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

/// The direction from `from` to the adjacent square `to`.
fn direction(from: Pos, to: Pos) -> Dir {
    let step = toward(from, to);
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

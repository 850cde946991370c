//! Defines [`Hunter`]: a sensible player that closes in on enemies, fights them, guards or
//! blows itself up when outnumbered, and keeps off spawn squares when a spawn is near.
//!
//! Each turn it computes one distance field (steps to the nearest enemy, by breadth-first
//! search over the walkable squares) and decides robot by robot, claiming squares so that
//! its own robots do not block one another.

use super::Player;
use crate::games::robotgame::arena::{ARENA, SQUARES, Sq};
use crate::games::robotgame::engine::{ATTACK_DAMAGE, Game, SPAWN_EVERY};
use crate::games::robotgame::types::{Action, Command, RobotId, Seat};
use crate::rng::GameRng;

/// "No enemy reachable" in the distance field.
const FAR: u8 = u8::MAX;
/// From this turn of each ten on, robots leave spawn squares and do not step onto them: a
/// spawn at the next multiple of ten kills whoever stands there (RG5.1), and a move may fail.
const LEAVE_SPAWN_FROM: u8 = SPAWN_EVERY - 2;

/// See the module documentation.
#[derive(Debug, Clone)]
pub struct Hunter {
    rng: GameRng,
    /// Steps to the nearest enemy, per square.
    field: [u8; SQUARES],
    /// Enemies adjacent to each square.
    enemies_near: [u8; SQUARES],
    /// Squares one of our robots will be on at the end of the turn, as far as we plan.
    claimed: [bool; SQUARES],
    queue: Vec<Sq>,
}

impl Hunter {
    pub fn new(rng: GameRng) -> Hunter {
        Hunter {
            rng,
            field: [FAR; SQUARES],
            enemies_near: [0; SQUARES],
            claimed: [false; SQUARES],
            queue: Vec::with_capacity(SQUARES),
        }
    }

    /// Fills `field` and `enemies_near` from the enemies of `seat`.
    fn survey(&mut self, game: &Game, seat: Seat) {
        self.field = [FAR; SQUARES];
        self.enemies_near = [0; SQUARES];
        self.claimed = [false; SQUARES];
        self.queue.clear();
        for &id in game.alive() {
            let r = &game.robots()[id.index()];
            if r.seat == seat {
                self.claimed[r.sq.index()] = true;
                continue;
            }
            self.field[r.sq.index()] = 0;
            self.queue.push(r.sq);
            for n in ARENA.neighbours(r.sq).iter().flatten() {
                self.enemies_near[n.index()] += 1;
            }
        }
        let mut head = 0;
        while let Some(&sq) = self.queue.get(head) {
            head += 1;
            let d = self.field[sq.index()] + 1;
            for n in ARENA.neighbours(sq).iter().flatten() {
                if self.field[n.index()] == FAR {
                    self.field[n.index()] = d;
                    self.queue.push(*n);
                }
            }
        }
    }

    /// The action of robot `id` (ours).
    fn decide(&mut self, game: &Game, id: RobotId, spawn_near: bool) -> Action {
        let r = game.robots()[id.index()];
        if spawn_near
            && ARENA.is_spawn(r.sq)
            && let Some(to) = self.best_step(r.sq, |h, s| (ARENA.is_spawn(s), h.field[s.index()]))
        {
            return self.go(r.sq, to);
        }
        let near = i32::from(self.enemies_near[r.sq.index()]);
        if near > 0 {
            // What the neighbours can deal this turn if they all attack.
            let threat = near * ATTACK_DAMAGE.end();
            if r.hp <= threat {
                // Likely dead anyway: 15 to every neighbour beats one attack.
                return Action::Suicide;
            }
            if near >= 2 && r.hp <= 2 * threat {
                // Outnumbered: halve the damage and let friends come.
                return Action::Guard;
            }
            return Action::Attack(self.weakest_enemy_next_to(game, r.sq, r.seat).pos());
        }
        let closer = self.best_step(r.sq, |h, s| {
            (spawn_near && ARENA.is_spawn(s), h.field[s.index()])
        });
        match closer {
            Some(to) if self.field[to.index()] < self.field[r.sq.index()] => self.go(r.sq, to),
            _ => Action::Guard,
        }
    }

    /// The unclaimed neighbour of `from` with the lowest `key`, ties broken at random.
    fn best_step<K: Ord>(&mut self, from: Sq, key: impl Fn(&Hunter, Sq) -> K) -> Option<Sq> {
        let mut best: Option<(K, u32, Sq)> = None;
        for n in ARENA.neighbours(from).iter().flatten() {
            if self.claimed[n.index()] {
                continue;
            }
            let k = key(self, *n);
            let tie = self.rng.next_u32();
            if best
                .as_ref()
                .is_none_or(|(bk, bt, _)| (&k, tie) < (bk, *bt))
            {
                best = Some((k, tie, *n));
            }
        }
        best.map(|(_, _, to)| to)
    }

    /// Moves from `from` to `to`, claiming `to` and freeing `from` for a friend behind.
    fn go(&mut self, from: Sq, to: Sq) -> Action {
        self.claimed[from.index()] = false;
        self.claimed[to.index()] = true;
        Action::Move(to.pos())
    }

    fn weakest_enemy_next_to(&self, game: &Game, sq: Sq, seat: Seat) -> Sq {
        let mut best: Option<(i32, Sq)> = None;
        for n in ARENA.neighbours(sq).iter().flatten() {
            let Some(r) = game.occupant(*n).and_then(|id| game.robot(id)) else {
                continue;
            };
            if r.seat != seat && best.is_none_or(|(hp, _)| r.hp < hp) {
                best = Some((r.hp, *n));
            }
        }
        best.map_or(sq, |(_, s)| s)
    }
}

impl Player for Hunter {
    fn act(&mut self, game: &Game, seat: Seat, out: &mut Vec<Command>) {
        self.survey(game, seat);
        let phase = game.turn() % SPAWN_EVERY;
        let spawn_near = phase >= LEAVE_SPAWN_FROM || phase == 0;
        for &id in game.alive() {
            if game.robots()[id.index()].seat != seat {
                continue;
            }
            let action = self.decide(game, id, spawn_near);
            out.push(Command { robot: id, action });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robotgame::engine::{Placement, Settings, Setup};
    use crate::games::robotgame::types::Pos;

    /// The hunter's action for robot 0 (seat 0) on turn `turn`, robots at `(seat, x, y, hp)`.
    fn action(turn: u8, robots: &[(u8, i32, i32, i32)]) -> Action {
        let setup = Setup {
            seats: 2,
            seed: 1,
            first_turn: turn,
            settings: Settings::default(),
            robots: robots
                .iter()
                .map(|&(seat, x, y, hp)| Placement {
                    seat: Seat(seat),
                    pos: Pos::new(x, y),
                    hp,
                })
                .collect(),
        };
        let game = Game::new(&setup).unwrap();
        let mut out = Vec::new();
        Hunter::new(GameRng::new(3)).act(&game, Seat(0), &mut out);
        out.iter()
            .find(|c| c.robot == RobotId(0))
            .map(|c| c.action)
            .unwrap()
    }

    #[test]
    fn attacks_an_adjacent_enemy() {
        let a = action(3, &[(0, 9, 9, 50), (1, 10, 9, 50)]);
        assert_eq!(a, Action::Attack(Pos::new(10, 9)));
    }

    #[test]
    fn attacks_the_weakest_of_two_enemies_when_strong() {
        let a = action(3, &[(0, 9, 9, 50), (1, 10, 9, 40), (1, 8, 9, 20)]);
        assert_eq!(a, Action::Attack(Pos::new(8, 9)));
    }

    #[test]
    fn blows_up_when_outnumbered_and_about_to_die() {
        let a = action(3, &[(0, 9, 9, 12), (1, 10, 9, 50), (1, 8, 9, 50)]);
        assert_eq!(a, Action::Suicide);
    }

    #[test]
    fn guards_when_outnumbered_with_some_hp_left() {
        let a = action(3, &[(0, 9, 9, 30), (1, 10, 9, 50), (1, 8, 9, 50)]);
        assert_eq!(a, Action::Guard);
    }

    #[test]
    fn moves_towards_the_nearest_enemy() {
        let a = action(3, &[(0, 9, 9, 50), (1, 9, 13, 50), (1, 2, 9, 50)]);
        assert_eq!(a, Action::Move(Pos::new(9, 10)));
    }

    #[test]
    fn leaves_a_spawn_square_before_a_spawn_turn() {
        // (9,1) is a spawn square; so are (8,1) and (10,1): only (9,2) is safe.
        for turn in [8, 9, 10] {
            let a = action(turn, &[(0, 9, 1, 50), (1, 9, 5, 50)]);
            assert_eq!(a, Action::Move(Pos::new(9, 2)), "turn {turn}");
        }
        // Early in the ten only the enemy matters: along the edge, to another spawn square.
        let a = action(3, &[(0, 9, 1, 50), (1, 7, 1, 50)]);
        assert_eq!(a, Action::Move(Pos::new(8, 1)));
        let a = action(9, &[(0, 9, 1, 50), (1, 7, 1, 50)]);
        assert_eq!(a, Action::Move(Pos::new(9, 2)));
    }
}

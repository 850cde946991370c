//! Defines [`Hunter`]: a sensible player that closes in on enemies, fights them, guards or
//! blows itself up when outnumbered, and keeps off spawn squares when a spawn is near.
//!
//! Each turn it computes one distance field (steps to the nearest enemy, by breadth-first
//! search over the walkable squares) and decides robot by robot, claiming squares so that
//! its own robots do not block one another.

use super::Player;
use crate::engine::rng::GameRng;
use crate::games::robotgame::arena::{ARENA, SQUARES, Sq};
use crate::games::robotgame::engine::{ATTACK_DAMAGE, Game, SPAWN_EVERY};
use crate::games::robotgame::types::{Action, Command, RobotId, Seat};

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
        let near = u32::from(self.enemies_near[r.sq.index()]);
        if spawn_near
            && ARENA.is_spawn(r.sq)
            && let Some(to) = self.step(r.sq, |h, s| (ARENA.is_spawn(s), h.field[s.index()]))
        {
            return Action::Move(to.pos());
        }
        if near > 0 {
            // Each adjacent enemy may hit for up to the top of the attack range.
            let threat = near as i32 * ATTACK_DAMAGE.end();
            if r.hp <= threat && (near >= 2 || r.hp <= *ATTACK_DAMAGE.end()) {
                // Dying anyway: 15 to each neighbour beats one attack.
                return Action::Suicide;
            }
            if near >= 2 && r.hp <= 2 * threat && r.hp > threat / 2 {
                // Outnumbered: halve the damage and let the others come.
                return Action::Guard;
            }
            return Action::Attack(self.weakest_enemy_next_to(game, r.sq, r.seat).pos());
        }
        if let Some(to) = self.step(r.sq, |h, s| {
            (spawn_near && ARENA.is_spawn(s), h.field[s.index()])
        }) {
            if self.field[to.index()] < self.field[r.sq.index()] {
                return Action::Move(to.pos());
            }
            self.claimed[to.index()] = false;
            self.claimed[r.sq.index()] = true;
        }
        Action::Guard
    }

    /// The unclaimed neighbour of `from` with the lowest `key` (ties broken at random),
    /// claimed for the robot in place of `from`.
    fn step<K: Ord>(&mut self, from: Sq, key: impl Fn(&Hunter, Sq) -> K) -> Option<Sq> {
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
        let (_, _, to) = best?;
        self.claimed[from.index()] = false;
        self.claimed[to.index()] = true;
        Some(to)
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

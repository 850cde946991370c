//! The built-in players (RN18.1, RN18.2): `random` and `runner`, and the [`Player`]
//! interface every in-process player answers the engine through.

use super::engine::{Answer, Game, GameError, Move, Pending, Query, REGISTERS, Reply, State};
use super::ship::FAR;
use crate::games::shared::ai::{builtin_ais, seat_rng};
use crate::games::shared::grid::{Direction, Pos};

/// What makes the AIs' generators Robo Runner's own (docs/determinism.md).
const AI_SALT: u64 = 0x5252_5255_4E00_0000;

/// An in-process player: answers the engine's question from the game's state.
pub trait Player {
    fn decide(&mut self, game: &Game, query: &Query) -> Reply;
}

builtin_ais! {
    /// Robo Runner's built-in AIs.
    pub enum BuiltinAi {
        Random = "random": "a random program from its hand, a random facing when dispatched",
        Runner = "runner": "tries every distinct program alone on the ship and runs for its next inspection point, welding it first",
    }
}

impl BuiltinAi {
    /// The AI in `seat` of the game seeded `seed`.
    pub fn player(self, seed: u64, seat: usize) -> Box<dyn Player + Send> {
        match self {
            BuiltinAi::Random => Box::new(Random(seat_rng(seed, AI_SALT, seat as u64))),
            BuiltinAi::Runner => Box::new(Runner),
        }
    }
}

/// RN18.1.
pub struct Random(crate::rng::GameRng);

impl Player for Random {
    fn decide(&mut self, _game: &Game, q: &Query) -> Reply {
        let facing = q
            .dispatched
            .then(|| Direction::from_index(self.0.below(4) as u8));
        let mut indexes: Vec<usize> = (0..q.hand.len()).collect();
        self.0.partial_shuffle(&mut indexes, q.free);
        Reply::Answer(Answer {
            program: indexes[..q.free.min(q.hand.len())]
                .iter()
                .map(|i| q.hand[*i])
                .collect(),
            reboot: false,
            activate: Vec::new(),
            facing,
        })
    }
}

/// How good a simulated program's end is, compared in field order (RN18.2): lower wins.
type Key = (bool, i64, i64, u16, u8);

/// RN18.2: searches every distinct program with its robot alone on the ship.
pub struct Runner;

struct Search<'a> {
    hand: &'a [Move],
    locked: [Option<Move>; REGISTERS],
    used: Vec<bool>,
    prefix: Vec<usize>,
    seat_start: (u32, u32),
    fields: &'a mut Fields,
    best: Option<(Key, Vec<usize>, bool)>,
}

/// Distance fields to each inspection point's targets, computed when first asked.
struct Fields {
    fields: Vec<Option<Vec<u16>>>,
}

impl Fields {
    fn distance(&mut self, game: &Game, ip: u8, at: Pos) -> u16 {
        let ship = game.ship();
        if ip as usize > ship.ips().len() {
            return 0;
        }
        if !ship.contains(at) {
            return FAR;
        }
        let slot = &mut self.fields[ip as usize - 1];
        let field = slot.get_or_insert_with(|| targets_field(game, ip));
        field[ship.index(at)]
    }
}

/// RN18.2's target of inspection point `ip`: the squares in line with it past no rail or
/// damaged hull if it is damaged, else the point itself.
fn targets_field(game: &Game, ip: u8) -> Vec<u16> {
    let ship = game.ship();
    let at = ship.ips()[ip as usize - 1];
    let mut targets = Vec::new();
    if game.damaged(at) {
        for d in Direction::ALL {
            let mut p = at;
            while ship.contains(p) && ship.rail(p, d).is_none() {
                p = p.step(d);
                if !ship.contains(p) || game.damaged(p) {
                    break;
                }
                targets.push(p);
            }
        }
    } else {
        targets.push(at);
    }
    ship.distance_field(&targets, &|p| game.damaged(p))
}

impl Search<'_> {
    fn run(&mut self, game: &Game, reg: usize) {
        let robot = &game.robots()[0];
        if reg == REGISTERS || robot.state != State::Active {
            self.leaf(game);
            return;
        }
        if let Some(chip) = self.locked[reg] {
            let mut next = game.clone();
            next.sim_phase(reg as u8 + 1, Some(chip));
            self.run(&next, reg + 1);
            return;
        }
        for i in 0..self.hand.len() {
            if self.used[i] || (0..i).any(|j| !self.used[j] && self.hand[j] == self.hand[i]) {
                continue;
            }
            self.used[i] = true;
            self.prefix.push(i);
            let mut next = game.clone();
            next.sim_phase(reg as u8 + 1, Some(self.hand[i]));
            self.run(&next, reg + 1);
            self.prefix.pop();
            self.used[i] = false;
        }
    }

    fn leaf(&mut self, game: &Game) {
        let r = &game.robots()[0];
        let destroyed = !matches!(r.state, State::Active | State::Finished);
        let inspections = i64::from(r.inspections - self.seat_start.0);
        let welds = i64::from(r.welds - self.seat_start.1);
        let distance = match r.state {
            State::Active => self.fields.distance(game, r.next_ip, r.pos),
            State::Finished => 0,
            _ => FAR,
        };
        let key: Key = (destroyed, -inspections, -welds, distance, r.damage);
        if self.best.as_ref().is_none_or(|(k, _, _)| key < *k) {
            // Registers left unfilled (the robot was destroyed): first unused chips.
            let mut program = self.prefix.clone();
            let free = self.locked.iter().filter(|c| c.is_none()).count();
            for i in 0..self.hand.len() {
                if program.len() >= free {
                    break;
                }
                if !program.contains(&i) {
                    program.push(i);
                }
            }
            self.best = Some((key, program, inspections > 0));
        }
    }
}

impl Player for Runner {
    fn decide(&mut self, game: &Game, q: &Query) -> Reply {
        let robot = &game.robots()[q.seat];
        let mut locked = [None; REGISTERS];
        for (reg, slot) in locked.iter_mut().enumerate() {
            if robot.is_locked(reg) {
                *slot = Some(robot.regs[reg].unwrap_or(Move::UTurn));
            }
        }
        let mut fields = Fields {
            fields: vec![None; game.ship().ips().len()],
        };
        let facings: Vec<Option<Direction>> = if q.dispatched {
            Direction::ALL.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        let mut best: Option<(Key, Vec<usize>, bool, Option<Direction>)> = None;
        for facing in facings {
            let mut alone = game.alone(q.seat);
            if let Some(f) = facing {
                alone.sim_face(f);
            }
            let mut search = Search {
                hand: &q.hand,
                locked,
                used: vec![false; q.hand.len()],
                prefix: Vec::new(),
                seat_start: (robot.inspections, robot.welds),
                fields: &mut fields,
                best: None,
            };
            search.run(&alone, 0);
            if let Some((key, program, inspects)) = search.best
                && best.as_ref().is_none_or(|b| key < b.0)
            {
                best = Some((key, program, inspects, facing));
            }
        }
        let (program, inspects, facing) = match best {
            Some((_, program, inspects, facing)) => (program, inspects, facing),
            None => ((0..q.free).collect(), false, None),
        };
        Reply::Answer(Answer {
            program: program.iter().map(|i| q.hand[*i]).collect(),
            reboot: robot.damage >= 6 && !inspects,
            activate: Vec::new(),
            facing,
        })
    }
}

/// Plays `game` to its end with in-process `players` (by seat).
pub fn run_game<P: Player + ?Sized>(
    game: &mut Game,
    players: &mut [Box<P>],
) -> Result<(), GameError> {
    loop {
        match game.pending() {
            Pending::Decisions(queries) => {
                let queries = queries.to_vec();
                let replies: Vec<Reply> = queries
                    .iter()
                    .map(|q| players[q.seat].decide(game, q))
                    .collect();
                game.answer(&replies)?;
            }
            Pending::Over => return Ok(()),
            Pending::Script => return Err(GameError::NotWaiting),
        }
    }
}

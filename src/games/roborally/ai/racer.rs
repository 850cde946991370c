//! `racer` (RR17.2): tries its programs depth first, its robot alone on the board, and
//! plays the best race; powers down when that race leaves it at 4 hp or less.

use super::Player;
use super::sim::{Ghost, beam_damage};
use crate::games::roborally::board::Board;
use crate::games::roborally::engine::{
    Game, ProgramQuery, ProgramReply, REGISTERS, StartQuery, StartReply,
};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::{Card, Move};

/// The racer, with the board's laser table once it has seen the board.
#[derive(Default)]
pub struct Racer {
    beams: Vec<u8>,
}

/// How good a program's end is, compared in field order (RR17.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    finished: bool,
    alive: bool,
    targets: u8,
    nearness: i32,
    hp: u8,
}

struct Search<'a> {
    board: &'a Board,
    beams: &'a [u8],
    hand: &'a [Card],
    locked: [Option<Card>; REGISTERS],
    free: usize,
    start: Ghost,
    prefix: Vec<u8>,
    best: Option<(Rank, Vec<u8>, Ghost)>,
}

impl Search<'_> {
    fn rank(&self, end: &Ghost) -> Rank {
        let d = if end.destroyed {
            None
        } else {
            self.board.distance(end.checkpoints as usize, end.pos)
        };
        Rank {
            finished: end.finished,
            alive: !end.destroyed,
            targets: end.checkpoints - self.start.checkpoints + u8::from(end.finished),
            nearness: -d.map_or(1000, i32::from),
            hp: if end.destroyed { 0 } else { end.hp },
        }
    }

    fn leaf(&mut self, end: Ghost) {
        let rank = self.rank(&end);
        if self.best.as_ref().is_none_or(|(b, _, _)| rank > *b) {
            let mut program = self.prefix.clone();
            // A race that ends early still fills every free register.
            program.extend((0..self.hand.len() as u8).filter(|i| !self.prefix.contains(i)));
            program.truncate(self.free);
            self.best = Some((rank, program, end));
        }
    }

    fn search(&mut self, ghost: Ghost, reg: usize) {
        if ghost.destroyed || ghost.finished {
            return self.leaf(ghost);
        }
        if reg >= self.free {
            let mut end = ghost;
            for card in &self.locked[self.free..] {
                end = end.register(self.board, self.beams, *card);
                if end.destroyed || end.finished {
                    break;
                }
            }
            return self.leaf(end);
        }
        let mut tried: Vec<Move> = Vec::with_capacity(7);
        for i in 0..self.hand.len() as u8 {
            let card = self.hand[i as usize];
            if self.prefix.contains(&i) || tried.contains(&card.mv) {
                continue;
            }
            tried.push(card.mv);
            let next = ghost.register(self.board, self.beams, Some(card));
            self.prefix.push(i);
            self.search(next, reg + 1);
            self.prefix.pop();
        }
    }
}

/// The first step of a shortest path from `at` to target `k`, in the order N, E, S, W;
/// north without one.
pub fn facing_towards(board: &Board, k: usize, at: Pos) -> Direction {
    let Some(here) = board.distance(k, at) else {
        return Direction::North;
    };
    Direction::ALL
        .into_iter()
        .find(|d| {
            !board.blocked(at, *d)
                && board.contains(at.step(*d))
                && board.distance(k, at.step(*d)) == here.checked_sub(1)
        })
        .unwrap_or(Direction::North)
}

impl Player for Racer {
    fn start(&mut self, game: &Game, q: &StartQuery) -> StartReply {
        let at = q.options[0];
        let k = game.robots()[q.seat].checkpoints as usize;
        StartReply::Choice {
            at,
            facing: facing_towards(game.board(), k, at),
        }
    }

    fn program(&mut self, game: &Game, q: &ProgramQuery) -> ProgramReply {
        let board = game.board();
        if self.beams.len() != board.squares().len() {
            self.beams = beam_damage(board);
        }
        let r = game.robots()[q.seat];
        let mut locked = [None; REGISTERS];
        for &(reg, card) in &q.locked {
            locked[reg as usize - 1] = Some(card);
        }
        let start = Ghost {
            pos: r.pos,
            facing: r.facing,
            hp: r.hp,
            checkpoints: r.checkpoints,
            finished: r.finished,
            destroyed: false,
        };
        let mut search = Search {
            board,
            beams: &self.beams,
            hand: &q.hand,
            locked,
            free: q.free,
            start,
            prefix: Vec::with_capacity(REGISTERS),
            best: None,
        };
        search.search(start, 0);
        let Some((_, cards, end)) = search.best else {
            return ProgramReply::Program {
                cards: (0..q.free as u8).collect(),
                power_down: false,
            };
        };
        ProgramReply::Program {
            cards,
            power_down: !end.finished && (end.destroyed || end.hp <= 4),
        }
    }
}

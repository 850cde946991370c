//! The racer's model of one register for its own robot alone (RR17.2): its card, belts,
//! gears, board lasers, targets and repair, with no other robot and no robot lasers.

use crate::games::roborally::board::{Board, Tile};
use crate::games::roborally::engine::MAX_HP;
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::{Card, Move};

/// The robot as the racer imagines it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ghost {
    pub pos: Pos,
    pub facing: Direction,
    pub hp: u8,
    pub checkpoints: u8,
    pub finished: bool,
    pub destroyed: bool,
}

/// What a board laser takes from a robot standing alone on each square.
pub fn beam_damage(board: &Board) -> Vec<u8> {
    let mut lost = vec![0u8; board.squares().len()];
    for &(mount, laser) in board.lasers() {
        let mut at = mount;
        loop {
            lost[board.index(at)] += laser.strength;
            let next = at.step(laser.dir);
            if board.blocked(at, laser.dir) || !board.contains(next) {
                break;
            }
            at = next;
        }
    }
    lost
}

impl Ghost {
    /// One register with `card` (none: the elements only).
    pub fn register(mut self, board: &Board, beams: &[u8], card: Option<Card>) -> Ghost {
        if let Some(card) = card {
            self.play(board, card.mv);
        }
        for fast in [true, true, false] {
            if self.destroyed {
                return self;
            }
            self.belt(board, fast);
        }
        if self.destroyed {
            return self;
        }
        if let Some(Tile::Gear(g)) = board.tile(self.pos) {
            self.facing = g.apply(self.facing);
        }
        self.hp = self.hp.saturating_sub(beams[board.index(self.pos)]);
        if self.hp == 0 {
            self.destroyed = true;
            return self;
        }
        if !self.finished && board.target(self.checkpoints as usize) == Some(self.pos) {
            if (self.checkpoints as usize) < board.flags().len() {
                self.checkpoints += 1;
            } else {
                self.finished = true;
            }
        }
        if let Some(Tile::Repair(n)) = board.tile(self.pos) {
            self.hp = (self.hp + n).min(MAX_HP);
        }
        self
    }

    fn play(&mut self, board: &Board, mv: Move) {
        let (dir, steps) = match mv {
            Move::Left => return self.facing = self.facing.left(),
            Move::Right => return self.facing = self.facing.right(),
            Move::UTurn => return self.facing = self.facing.opposite(),
            Move::Back => (self.facing.opposite(), 1),
            Move::Forward1 => (self.facing, 1),
            Move::Forward2 => (self.facing, 2),
            Move::Forward3 => (self.facing, 3),
        };
        for _ in 0..steps {
            if board.blocked(self.pos, dir) {
                return;
            }
            self.pos = self.pos.step(dir);
            if !matches!(board.tile(self.pos), Some(t) if t != Tile::Pit) {
                self.destroyed = true;
                return;
            }
        }
    }

    fn belt(&mut self, board: &Board, fast: bool) {
        let Some(Tile::Belt { dir, fast: f }) = board.tile(self.pos) else {
            return;
        };
        if f != fast || board.blocked(self.pos, dir) {
            return;
        }
        self.pos = self.pos.step(dir);
        match board.tile(self.pos) {
            None | Some(Tile::Pit) => self.destroyed = true,
            Some(Tile::Belt {
                dir: next,
                fast: f2,
            }) if f2 == fast => {
                if next == dir.right() {
                    self.facing = self.facing.right();
                } else if next == dir.left() {
                    self.facing = self.facing.left();
                }
            }
            Some(_) => {}
        }
    }
}

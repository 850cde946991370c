//! Defines how a board plays a turn: the submission (RB2), each move (RB4) and the robots'
//! step after it (RB3).
//!
//! Kept apart from [`super::board`], which only holds the state, so that the rules read top
//! to bottom here: [`Board::play_turn`] executes moves until one stops the list, each
//! executed move but `L` and `Q` is followed by [`Board::robots_step`], and the step decides
//! kills, the player's death and the end of the level.

use super::board::{Board, Cell, GameError, LAST_LEVEL, Sq};
use super::types::{
    Answer, Dir, Event, EventKind, FaultKind, Illegal, KillCause, MAX_MOVES, Move, Pos, Silence,
    Status,
};

/// What a turn consumed of its answer: what the decision log keeps (see [`super::log`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Consumed {
    /// The first `n` moves of the submission were read (the last may have been illegal);
    /// the rest was ignored.
    Moves(usize),
    /// A forced pass (RB2.2) for a silent or malformed answer.
    Silent(Silence),
}

impl Board {
    /// Plays one turn from the seat's answer and returns what it consumed. Any answer is
    /// played, faulty ones as a forced pass; only a board whose level or game is over
    /// refuses a turn.
    pub fn play_turn(&mut self, answer: Answer<'_>) -> Result<Consumed, GameError> {
        if self.status != Status::Playing {
            return Err(GameError::Over);
        }
        self.events.clear();
        self.turns += 1;
        let consumed = match answer {
            Answer::Silent(silence) => {
                self.forced_pass(FaultKind::from(silence));
                Consumed::Silent(silence)
            }
            Answer::Moves(moves) if moves.is_empty() || moves.len() > MAX_MOVES => {
                self.forced_pass(FaultKind::Malformed);
                Consumed::Silent(Silence::Malformed)
            }
            Answer::Moves(moves) => Consumed::Moves(self.play_moves(moves)),
        };
        if self.status == Status::Playing && self.turns >= self.max_turns {
            self.status = Status::OutOfTurns;
        }
        Ok(consumed)
    }

    /// Executes `moves` until one is illegal, `L`, `Q`, the death of the player or the end
    /// of the level; returns how many were read.
    fn play_moves(&mut self, moves: &[Move]) -> usize {
        for (i, &mv) in moves.iter().enumerate() {
            if let Err(why) = self.execute(mv) {
                self.push(EventKind::Illegal { mv, why });
                if i == 0 {
                    self.forced_pass(FaultKind::IllegalFirst);
                }
                return i + 1;
            }
            if self.status != Status::Playing || mv == Move::LastStand {
                return i + 1;
            }
        }
        moves.len()
    }

    /// RB2.2: a fault, then one pass.
    fn forced_pass(&mut self, fault: FaultKind) {
        self.faults += 1;
        self.push(EventKind::Fault { fault });
        let executed = self.execute(Move::Pass);
        debug_assert!(executed.is_ok(), "a pass is always legal");
    }

    /// Why `mv` would be illegal now (RB4), if it would be.
    pub fn check(&self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Step(dir) => {
                let to = self.neighbour(self.player, dir).ok_or(Illegal::OffBoard)?;
                match self.cells[to.index()] {
                    Cell::Robot => Err(Illegal::OntoRobot),
                    Cell::Heap => Err(Illegal::OntoHeap),
                    Cell::Empty => Ok(()),
                }
            }
            Move::Blast(dir) => {
                if !self.can_blast {
                    return Err(Illegal::BlasterUsed);
                }
                self.neighbour(self.player, dir)
                    .map(|_| ())
                    .ok_or(Illegal::OffBoard)
            }
            Move::Teleport => {
                // Robots, heaps and the player each hold a square of their own (the player
                // is alive, so no robot is on its square).
                let taken = self.robots.len() + self.heaps.len() + 1;
                if self.cells.len() > taken {
                    Ok(())
                } else {
                    Err(Illegal::NoEmptySquare)
                }
            }
            Move::Pass | Move::LastStand | Move::Quit => Ok(()),
        }
    }

    /// Executes one move, robots' step included, or says why it is illegal (RB4).
    pub(super) fn execute(&mut self, mv: Move) -> Result<(), Illegal> {
        self.check(mv)?;
        match mv {
            Move::Step(dir) => {
                self.player = self.neighbour(self.player, dir).expect("checked");
                self.push_move(mv);
            }
            Move::Blast(dir) => {
                let at = self.neighbour(self.player, dir).expect("checked");
                self.blast(dir, at);
                if self.robots.is_empty() {
                    // RB4: the level ends at once, before any robot step.
                    self.level_done();
                    return Ok(());
                }
            }
            Move::Pass => self.push_move(mv),
            Move::LastStand => {
                self.push_move(mv);
                while self.status == Status::Playing {
                    self.robots_step();
                }
                return Ok(());
            }
            Move::Teleport => self.teleport(),
            Move::Quit => {
                self.push(EventKind::Quit);
                self.status = Status::Quit;
                return Ok(());
            }
        }
        self.robots_step();
        Ok(())
    }

    fn push_move(&mut self, mv: Move) {
        let to = self.pos(self.player);
        self.push(EventKind::Move { mv, to });
    }

    /// The blaster hits `at`: a robot there is destroyed; the square becomes (or stays) a
    /// scrap heap.
    fn blast(&mut self, dir: Dir, at: Sq) {
        self.can_blast = false;
        let pos = self.pos(at);
        self.push(EventKind::Blast { dir, at: pos });
        if self.cells[at.index()] == Cell::Robot {
            self.robots.retain(|&r| r != pos);
            self.kills += 1;
            self.push(EventKind::Kill {
                at: pos,
                cause: KillCause::Blast,
            });
        }
        if self.cells[at.index()] != Cell::Heap {
            self.cells[at.index()] = Cell::Heap;
            self.heaps.push(at);
        }
    }

    /// RB4 `T`: a safe teleport while the counter lasts, else an unsafe one. There is an
    /// empty square ([`Board::check`]).
    fn teleport(&mut self) {
        let me = Some(self.player);
        let safe = self.teleports > 0;
        let mut candidates = 0;
        if safe {
            self.teleports -= 1;
            self.mark_taken(true, me);
            candidates = self.free.count();
        }
        if candidates == 0 {
            self.mark_taken(false, me);
            candidates = self.free.count();
        }
        let k = self.rng.below(candidates);
        let to = self.free.nth(k).expect("k is below the count");
        self.player = to;
        let to = self.pos(to);
        self.push(EventKind::Teleport { to, safe });
    }

    /// RB3: every robot steps towards the player; collisions and heaps destroy robots, a
    /// robot on the player's square kills it, and no robot left ends the level.
    ///
    /// The robots are stepped in place and keep their order; arrivals are counted per
    /// square, and the first robot to reach a square settles it.
    pub(super) fn robots_step(&mut self) {
        let p = self.pos(self.player);
        let w = i32::from(self.width);
        let square = |q: Pos| (q.y * w + q.x) as usize;
        // The buffers as local slices, so the loops keep their addresses and lengths in
        // registers instead of reloading them from `self` after every byte written.
        let Board {
            cells,
            arrivals,
            robots,
            heaps,
            wrecks,
            ..
        } = self;
        let (cells, arrivals) = (&mut cells[..], &mut arrivals[..]);
        let moved = &mut robots[..];
        for r in moved.iter_mut() {
            cells[square(*r)] = Cell::Empty;
            *r = r.toward(p);
            arrivals[square(*r)] += 1;
        }
        wrecks.clear();
        let mut kept = 0;
        for k in 0..moved.len() {
            let to = moved[k];
            let sq = square(to);
            let n = std::mem::take(&mut arrivals[sq]);
            if n == 0 {
                continue; // this square's arrivals were settled already
            }
            let cell = &mut cells[sq];
            if *cell == Cell::Heap {
                wrecks.push((Sq(sq as u32), n, KillCause::Heap));
            } else if n >= 2 {
                *cell = Cell::Heap;
                heaps.push(Sq(sq as u32));
                wrecks.push((Sq(sq as u32), n, KillCause::Collision));
            } else {
                *cell = Cell::Robot;
                moved[kept] = to;
                kept += 1;
            }
        }
        robots.truncate(kept);
        if !self.wrecks.is_empty() {
            self.record_wrecks();
        }
        let player_hit = self.cells[self.player.index()] != Cell::Empty;
        if player_hit {
            self.push(EventKind::Dead { at: p });
            self.status = Status::Dead;
        } else if self.robots.is_empty() {
            self.level_done();
        }
    }

    /// Counts the kills of the step and records them square by square in `[x, y]` order.
    fn record_wrecks(&mut self) {
        let width = u32::from(self.width);
        self.wrecks
            .sort_unstable_by_key(|(s, _, _)| (s.0 % width, s.0 / width));
        for k in 0..self.wrecks.len() {
            let (sq, n, cause) = self.wrecks[k];
            let at = self.pos(sq);
            for _ in 0..n {
                self.kills += 1;
                self.push(EventKind::Kill { at, cause });
            }
        }
    }

    fn level_done(&mut self) {
        self.levels_cleared += 1;
        self.status = Status::LevelDone;
        let level = self.level;
        self.push(EventKind::LevelDone { level });
    }

    /// After a completed level: the next level, or the end of the game after the last one
    /// or at the turn limit (RB1.3). Games call it after every turn; scenarios stop at the
    /// completed level instead. Does nothing unless the level was just completed.
    pub fn next_level(&mut self) {
        if self.status != Status::LevelDone {
            return;
        }
        if self.level >= LAST_LEVEL {
            self.status = Status::Cleared;
        } else if self.turns >= self.max_turns {
            self.status = Status::OutOfTurns;
        } else {
            let level = self.level + 1;
            self.start_level(level);
            self.push(EventKind::LevelStart { level });
        }
    }

    pub(super) fn neighbour(&self, sq: Sq, dir: Dir) -> Option<Sq> {
        self.sq(self.pos(sq).step(dir))
    }

    fn push(&mut self, kind: EventKind) {
        self.events.push(Event {
            turn: self.turns,
            kind,
        });
    }
}

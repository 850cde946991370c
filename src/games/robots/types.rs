//! Defines the vocabulary of Robots: positions, seats, the eight directions, the moves a
//! player submits, answers, faults, the reasons a move is illegal, and events.
//!
//! Everything here is a small `Copy` value so that rules are written against types rather
//! than strings: the scenario and protocol layers translate text at their edges, through
//! [`Move::name`] and [`Move::parse`].

use std::fmt;

/// Most moves one submission may hold (RB2.1).
pub const MAX_MOVES: usize = 8;

/// A square as players write it, `[x, y]` with y growing downwards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The square one step away in `dir`, on the board or not.
    pub const fn step(self, dir: Dir) -> Pos {
        let (dx, dy) = dir.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The square a robot on `self` steps to, chasing a player on `target` (RB3.1): one
    /// column and one row nearer, where they differ. Clamped, not `signum`, which the
    /// compiler turned into slow vector code.
    #[inline]
    pub fn toward(self, target: Pos) -> Pos {
        Pos::new(
            self.x + (target.x - self.x).clamp(-1, 1),
            self.y + (target.y - self.y).clamp(-1, 1),
        )
    }

    /// Chebyshev distance: the number of robot steps between two squares.
    pub fn distance(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{},{}]", self.x, self.y)
    }
}

/// A player's place in the game, from 0; each seat plays its own board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// One of the 8 directions of a step or a blast (RB4); N is y-1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// `(dx, dy)` with y growing downwards.
    pub const fn delta(self) -> (i32, i32) {
        // A table, not a match: a match was compiled into a jump on the direction, which
        // the processor mispredicts when the direction changes from one call to the next,
        // as it does when a player tries every direction in turn.
        const DELTAS: [(i32, i32); 8] = [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ];
        DELTAS[self as usize]
    }

    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::E => "E",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::W => "W",
            Dir::NW => "NW",
        }
    }
}

/// One move of a submission (RB4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// `N` ... `NW`: one step.
    Step(Dir),
    /// `BN` ... `BNW`: blast the adjacent square.
    Blast(Dir),
    /// `P`.
    Pass,
    /// `L`: pass until the level is completed or the player dies.
    LastStand,
    /// `T`.
    Teleport,
    /// `Q`.
    Quit,
}

impl Move {
    /// Every move, steps first: the order of the protocol's list of names.
    pub const ALL: [Move; 20] = [
        Move::Step(Dir::N),
        Move::Step(Dir::NE),
        Move::Step(Dir::E),
        Move::Step(Dir::SE),
        Move::Step(Dir::S),
        Move::Step(Dir::SW),
        Move::Step(Dir::W),
        Move::Step(Dir::NW),
        Move::Blast(Dir::N),
        Move::Blast(Dir::NE),
        Move::Blast(Dir::E),
        Move::Blast(Dir::SE),
        Move::Blast(Dir::S),
        Move::Blast(Dir::SW),
        Move::Blast(Dir::W),
        Move::Blast(Dir::NW),
        Move::Pass,
        Move::LastStand,
        Move::Teleport,
        Move::Quit,
    ];

    /// The move's name in answers and scenario files.
    pub const fn name(self) -> &'static str {
        match self {
            Move::Step(d) => d.name(),
            Move::Blast(Dir::N) => "BN",
            Move::Blast(Dir::NE) => "BNE",
            Move::Blast(Dir::E) => "BE",
            Move::Blast(Dir::SE) => "BSE",
            Move::Blast(Dir::S) => "BS",
            Move::Blast(Dir::SW) => "BSW",
            Move::Blast(Dir::W) => "BW",
            Move::Blast(Dir::NW) => "BNW",
            Move::Pass => "P",
            Move::LastStand => "L",
            Move::Teleport => "T",
            Move::Quit => "Q",
        }
    }

    /// The move named `text`, exactly as RB4 writes it (upper case, no spaces).
    pub fn parse(text: &str) -> Option<Move> {
        Move::ALL.into_iter().find(|m| m.name() == text)
    }

    /// Whether the robots take a step after this move once it is executed (RB2.1).
    pub const fn robots_step(self) -> bool {
        !matches!(self, Move::LastStand | Move::Quit)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a seat answered nothing usable: the player passes once (RB2.2). `Malformed` is also
/// an answer with no move or more than [`MAX_MOVES`].
pub use crate::games::shared::silence::Silence;

/// One seat's submission for one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    /// The moves in order; fewer than 1 or more than [`MAX_MOVES`] is a malformed answer.
    Moves(&'a [Move]),
    Silent(Silence),
}

/// Why a seat's turn was a forced pass (RB2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// The first move of the submission was illegal.
    IllegalFirst,
    Malformed,
    Timeout,
    Crash,
}

impl FaultKind {
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::IllegalFirst => "first move illegal",
            FaultKind::Malformed => "malformed answer",
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
        }
    }
}

crate::games::shared::silence::silence_faults!(FaultKind);

/// Why a move could not be executed (RB4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Illegal {
    OffBoard,
    OntoRobot,
    OntoHeap,
    /// A blast after the level's one blast.
    BlasterUsed,
    /// A teleport with no empty square on the board.
    NoEmptySquare,
}

impl Illegal {
    pub fn name(self) -> &'static str {
        match self {
            Illegal::OffBoard => "off the board",
            Illegal::OntoRobot => "onto a robot",
            Illegal::OntoHeap => "onto a scrap heap",
            Illegal::BlasterUsed => "blaster already used on this level",
            Illegal::NoEmptySquare => "no empty square",
        }
    }
}

/// How a robot was destroyed (RB3.2, RB4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum KillCause {
    /// It ended a step on the same square as another robot.
    Collision,
    /// It stepped onto a scrap heap.
    Heap,
    Blast,
}

impl KillCause {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// Where a seat's game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Playing,
    /// No robot is left; the next level has not started yet (scenarios stop here).
    LevelDone,
    /// A robot stepped onto the player.
    Dead,
    Quit,
    /// The last level was completed.
    Cleared,
    /// The turn limit was reached.
    OutOfTurns,
}

impl Status {
    /// Whether the seat's game has ended for good.
    pub fn is_over(self) -> bool {
        !matches!(self, Status::Playing | Status::LevelDone)
    }
}

/// Something that happened on a seat's board, in the order the rules apply it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// The turn (submission) it happened in, from 1.
    pub turn: u32,
    pub kind: EventKind,
}

/// The kinds of events (RB7 names them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum EventKind {
    /// A step, a pass or a last stand was executed; `to` is the player's square after it.
    Move {
        mv: Move,
        to: Pos,
    },
    /// `mv` could not be executed; the rest of the submission is ignored.
    Illegal {
        mv: Move,
        why: Illegal,
    },
    /// The turn was a forced pass (RB2.2).
    Fault {
        fault: FaultKind,
    },
    /// The blaster hit `at`.
    Blast {
        dir: Dir,
        at: Pos,
    },
    Teleport {
        to: Pos,
        safe: bool,
    },
    /// One robot destroyed at `at`: one kill for the player.
    Kill {
        at: Pos,
        cause: KillCause,
    },
    LevelDone {
        level: u8,
    },
    /// A new level began (games only: scenarios end with their level).
    LevelStart {
        level: u8,
    },
    /// A robot stepped onto the player at `at`.
    Dead {
        at: Pos,
    },
    Quit,
}

impl EventKind {
    /// The kind's name in scenario output.
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// One line saying what happened, the `detail` of scenario output.
    pub fn detail(&self) -> String {
        match *self {
            EventKind::Move {
                mv: Move::Step(d),
                to,
            } => format!("{} to {to}", d.name()),
            EventKind::Move { mv, to } => format!("{mv} at {to}"),
            EventKind::Illegal { mv, why } => format!("{mv}: {}", why.name()),
            EventKind::Fault { fault } => fault.name().to_string(),
            EventKind::Blast { dir, at } => format!("{} at {at}", Move::Blast(dir)),
            EventKind::Teleport { to, safe } => {
                format!("{} to {to}", if safe { "safe" } else { "unsafe" })
            }
            EventKind::Kill { at, cause } => format!("{} at {at}", cause.name()),
            EventKind::LevelDone { level } | EventKind::LevelStart { level } => {
                format!("level {level}")
            }
            EventKind::Dead { at } => format!("robot at {at}"),
            EventKind::Quit => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_parses_back_from_its_name() {
        for m in Move::ALL {
            assert_eq!(Move::parse(m.name()), Some(m));
        }
        for bad in ["", "n", "B", "BX", "NN", " N", "LL", "PASS"] {
            assert_eq!(Move::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn north_is_y_minus_one_and_directions_are_distinct() {
        assert_eq!(Pos::new(3, 3).step(Dir::N), Pos::new(3, 2));
        assert_eq!(Pos::new(3, 3).step(Dir::SW), Pos::new(2, 4));
        let mut deltas: Vec<_> = Dir::ALL.iter().map(|d| d.delta()).collect();
        deltas.sort();
        deltas.dedup();
        assert_eq!(deltas.len(), 8);
    }
}

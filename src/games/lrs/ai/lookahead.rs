//! A light one-card simulation of the AI's own robot: its move with pushes, then the belts
//! and gears under it.
//!
//! Cloning the whole game for every card would cost more than the turn itself, and the AIs
//! only need a good guess: other robots are taken as standing still, and belt conflicts are
//! ignored except that a robot ahead blocks.

use crate::games::lrs::engine::{Board, Direction, Game, MAX_PLAYERS, Move, Pos, Seat, Tile};

/// Where one card would leave the robot, and what it would do to others.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub pos: Pos,
    pub facing: Direction,
    pub destroyed: bool,
    /// Robots pushed that survive the push.
    pub pushes: u8,
    /// Robots pushed off the board or into a pit.
    pub kills: u8,
    /// Positions of every active robot afterwards (`None`: not on the board).
    pub positions: [Option<Pos>; MAX_PLAYERS],
}

/// Active robots' positions now.
pub fn positions(game: &Game) -> [Option<Pos>; MAX_PLAYERS] {
    let mut out = [None; MAX_PLAYERS];
    for (seat, r) in game.robots().iter().enumerate() {
        if r.is_active() {
            out[seat] = Some(r.pos);
        }
    }
    out
}

/// Simulates `mv` for `me`.
pub fn simulate(game: &Game, me: Seat, mv: Move) -> Outcome {
    let board = game.board();
    let robot = game.robots()[me];
    let mut out = Outcome {
        pos: robot.pos,
        facing: robot.facing,
        destroyed: false,
        pushes: 0,
        kills: 0,
        positions: positions(game),
    };
    match mv {
        Move::Left => out.facing = out.facing.left(),
        Move::Right => out.facing = out.facing.right(),
        Move::UTurn => out.facing = out.facing.opposite(),
        Move::Back => {
            step(board, me, out.facing.opposite(), &mut out);
        }
        Move::Forward1 | Move::Forward2 | Move::Forward3 => {
            let n = match mv {
                Move::Forward1 => 1,
                Move::Forward2 => 2,
                _ => 3,
            };
            for _ in 0..n {
                if !step(board, me, out.facing, &mut out) {
                    break;
                }
            }
        }
    }
    if !out.destroyed {
        belts(board, me, true, &mut out);
    }
    if !out.destroyed {
        belts(board, me, false, &mut out);
    }
    if !out.destroyed
        && let Tile::Gear(r) = board.square(out.pos).tile
    {
        out.facing = r.apply(out.facing);
    }
    out
}

fn occupant(positions: &[Option<Pos>; MAX_PLAYERS], p: Pos) -> Option<Seat> {
    positions.iter().position(|q| *q == Some(p))
}

fn falls(board: &Board, p: Pos) -> bool {
    board.tile(p).is_none_or(Tile::is_pit)
}

/// One step with pushes; false when blocked or destroyed.
fn step(board: &Board, me: Seat, dir: Direction, out: &mut Outcome) -> bool {
    if board.blocked(out.pos, dir) {
        return false;
    }
    let to = out.pos.step(dir);
    let mut chain = [0usize; MAX_PLAYERS];
    let mut len = 0;
    let mut at = to;
    while board.contains(at) {
        let Some(r) = occupant(&out.positions, at) else {
            break;
        };
        if board.blocked(at, dir) {
            return false;
        }
        chain[len] = r;
        len += 1;
        at = at.step(dir);
    }
    for &r in chain[..len].iter().rev() {
        let Some(p) = out.positions[r] else { continue };
        let dest = p.step(dir);
        if falls(board, dest) {
            out.positions[r] = None;
            out.kills += 1;
        } else {
            out.positions[r] = Some(dest);
            out.pushes += 1;
        }
    }
    out.positions[me] = None;
    if falls(board, to) {
        out.destroyed = true;
        return false;
    }
    out.pos = to;
    out.positions[me] = Some(to);
    true
}

fn belts(board: &Board, me: Seat, express_only: bool, out: &mut Outcome) {
    let Some((dir, express)) = board.square(out.pos).tile.conveyor() else {
        return;
    };
    if (express_only && !express) || board.blocked(out.pos, dir) {
        return;
    }
    let to = out.pos.step(dir);
    if falls(board, to) {
        out.destroyed = true;
        out.positions[me] = None;
        return;
    }
    if occupant(&out.positions, to).is_some() {
        return;
    }
    if let Some((next, _)) = board.square(to).tile.conveyor() {
        if next == dir.right() {
            out.facing = out.facing.right();
        } else if next == dir.left() {
            out.facing = out.facing.left();
        }
    }
    out.pos = to;
    out.positions[me] = Some(to);
}

/// The first robot the laser of a robot at `from` facing `dir` would hit.
pub fn target_in_line(
    board: &Board,
    from: Pos,
    dir: Direction,
    positions: &[Option<Pos>; MAX_PLAYERS],
) -> Option<Seat> {
    let mut at = from;
    loop {
        if board.blocked(at, dir) {
            return None;
        }
        at = at.step(dir);
        if !board.contains(at) {
            return None;
        }
        if let Some(r) = occupant(positions, at) {
            return Some(r);
        }
    }
}

/// How many other robots would have `p` in their line of fire.
pub fn exposure(game: &Game, me: Seat, p: Pos, positions: &[Option<Pos>; MAX_PLAYERS]) -> u8 {
    let board = game.board();
    let mut n = 0;
    for (seat, r) in game.robots().iter().enumerate() {
        if seat == me || !r.is_operational() {
            continue;
        }
        let Some(at) = positions[seat] else { continue };
        if (at.x == p.x || at.y == p.y)
            && target_in_line(board, at, r.facing, positions) == Some(me)
        {
            n += 1;
        }
    }
    n
}

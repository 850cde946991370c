//! The compact array form of a Last Robot Standing replay that `viewer.js` draws: the
//! board's squares, then per turn the robots, events and animation frames.

use crate::games::lrs::engine::{Board, Event, Robot, Shot, Stage, Status, Tile};
use crate::games::lrs::replay::Replay;
use crate::games::view::PageInfo;
use serde_json::{Value, json};

pub(super) fn data(board: &Board, replay: &Replay, info: &PageInfo) -> Value {
    let seats: Vec<Value> = (0..replay.start.len())
        .map(|s| {
            let name = info
                .seats
                .get(s)
                .cloned()
                .unwrap_or_else(|| format!("seat {}", s + 1));
            json!({ "name": name })
        })
        .collect();
    let steps: Vec<Value> = replay
        .steps
        .iter()
        .map(|step| {
            json!({
                "t": step.turn,
                "r": poses(&step.robots),
                "e": step.events.iter().map(event).collect::<Vec<_>>(),
                "f": step.frames.iter().map(|f| json!([
                    stage(f.stage),
                    f.moves.iter().map(|m| json!([m.seat, m.pos.x, m.pos.y, m.facing.index(), status(m.status), m.damage])).collect::<Vec<_>>(),
                    f.shots.iter().map(shot).collect::<Vec<_>>(),
                ])).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "board": board_data(board),
        "seats": seats,
        "start": poses(&replay.start),
        "start_events": replay.start_events.iter().map(event).collect::<Vec<_>>(),
        "steps": steps,
        "scores": replay.scores,
    })
}

fn board_data(board: &Board) -> Value {
    let squares: Vec<Value> = board
        .squares()
        .iter()
        .map(|sq| {
            let (kind, a, b) = match sq.tile {
                Tile::Floor => (0, 0, 0),
                Tile::Pit => (1, 0, 0),
                Tile::Repair => (2, 0, 0),
                Tile::Flag(n) => (3, i32::from(n), 0),
                Tile::Conveyor { dir, express } => (4, i32::from(dir.index()), i32::from(express)),
                Tile::Gear(r) => (
                    5,
                    if r == crate::games::lrs::engine::Rotation::Clockwise {
                        1
                    } else {
                        -1
                    },
                    0,
                ),
            };
            let (ldir, lstr) = sq.laser.map_or((-1, 0), |l| {
                (i32::from(l.dir.index()), i32::from(l.strength))
            });
            json!([kind, a, b, sq.walls.0, sq.start.unwrap_or(0), ldir, lstr])
        })
        .collect();
    let lasers: Vec<Value> = board
        .lasers()
        .iter()
        .map(|&(mount, laser)| {
            let n = board.beam_length(mount, laser.dir) as i32 - 1;
            let (dx, dy) = laser.dir.delta();
            json!({ "x": mount.x, "y": mount.y, "tx": mount.x + dx * n, "ty": mount.y + dy * n })
        })
        .collect();
    json!({
        "name": board.name(),
        "w": board.width(),
        "h": board.height(),
        "sq": squares,
        "lasers": lasers,
    })
}

fn status(s: Status) -> u8 {
    match s {
        Status::Active => 0,
        Status::Destroyed => 1,
        Status::Dead => 2,
    }
}

/// `[x, y, facing, status, damage, lives, score, next_flag, power]`; power 0 up, -1
/// announced, n powered down with n turns left.
fn poses(robots: &[Robot]) -> Vec<Value> {
    robots
        .iter()
        .map(|r| {
            let power = match r.power {
                crate::games::lrs::engine::Power::Up => 0,
                crate::games::lrs::engine::Power::Announced => -1,
                crate::games::lrs::engine::Power::Down(n) => i32::from(n),
            };
            json!([
                r.pos.x,
                r.pos.y,
                r.facing.index(),
                status(r.status),
                r.damage,
                r.lives,
                r.score,
                r.next_flag,
                power
            ])
        })
        .collect()
}

fn event(e: &Event) -> Value {
    json!([
        e.kind.name(),
        e.robot,
        e.victim.map_or(-1, |v| v as i64),
        e.points,
        e.cause.map(|c| c.name()),
        e.flag
    ])
}

fn stage(s: Stage) -> Value {
    match s {
        Stage::Reentry => json!(["reentry"]),
        Stage::Card { seat, mv, priority } => json!(["card", seat, mv, priority]),
        Stage::Belts { express_only } => json!(["belts", express_only]),
        Stage::Gears => json!(["gears"]),
        Stage::Lasers => json!(["lasers"]),
    }
}

fn shot(s: &Shot) -> Value {
    json!([
        s.shooter.map_or(-1, |v| v as i64),
        s.from.x,
        s.from.y,
        s.to.x,
        s.to.y,
        s.dir.index(),
        s.target.map_or(-1, |v| v as i64),
        s.strength
    ])
}

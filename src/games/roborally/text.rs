//! RoboRally as text: the board with its robots after every register (`replay --text`,
//! RR17.3), and the JSON trace `replay --json` prints and the viewer draws.

use super::board::Board;
use super::engine::{Event, Game, Robot};
use crate::games::shared::grid::Direction;
use crate::games::shared::seats::seat_name;
use serde_json::{Value, json};

/// The board with robots drawn as their seat and an arrow of their facing.
pub fn draw(board: &Board, robots: &[Robot]) -> String {
    let mut out = String::new();
    for (y, line) in board.grid.lines().enumerate() {
        for (x, token) in line.split(' ').enumerate() {
            let here = robots
                .iter()
                .position(|r| r.is_active() && r.pos.x == x as i32 && r.pos.y == y as i32);
            let cell = match here {
                Some(seat) => {
                    let arrow = match robots[seat].facing {
                        Direction::North => '^',
                        Direction::East => '>',
                        Direction::South => 'v',
                        Direction::West => '<',
                    };
                    format!("{seat}{arrow}")
                }
                None => token.to_string(),
            };
            out += &format!("{cell:<7}");
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    out
}

fn robot_line(seat: usize, name: &str, r: &Robot) -> String {
    let locked: Vec<String> = r
        .locked_cards()
        .iter()
        .map(|c| c.map_or("-".to_string(), super::cards::card_text))
        .collect();
    format!(
        "  {seat} {name}: {} hp {} lives {} flags {}{}{} power {}{}\n",
        r.status.name(),
        r.hp,
        r.lives,
        r.checkpoints,
        if r.finished { " finished" } else { "" },
        if r.is_active() {
            format!(" at ({},{})", r.pos.x, r.pos.y)
        } else {
            String::new()
        },
        r.power.name(),
        if locked.is_empty() {
            String::new()
        } else {
            format!(" locked {}", locked.join(" "))
        }
    )
}

/// The game register by register; `names` by seat.
pub fn replay_text(game: &Game, names: &[String]) -> String {
    let name = |s: usize| seat_name(names, s);
    let mut out = format!("{}\n\n", game.board().name);
    let mut shown = 0;
    for shot in game
        .snapshots()
        .iter()
        .filter(|s| matches!(s.stage, "start" | "end"))
    {
        out += &format!("== turn {}, register {}\n", shot.turn, shot.register);
        for e in &game.events()[shown..shot.events] {
            let v = e.to_json(&|s| Value::from(name(s)));
            out += &format!("  {}\n", event_words(&v));
        }
        shown = shot.events;
        out += &draw(game.board(), &shot.robots);
        for (s, r) in shot.robots.iter().enumerate() {
            out += &robot_line(s, &name(s), r);
        }
        out.push('\n');
    }
    out += "scores:";
    for (s, score) in game.scores().iter().enumerate() {
        out += &format!(" {}={score}", name(s));
    }
    out.push('\n');
    out
}

fn event_words(v: &Value) -> String {
    let obj = v.as_object().cloned().unwrap_or_default();
    obj.iter()
        .filter(|(k, _)| *k != "turn" && *k != "register")
        .map(|(k, v)| {
            format!(
                "{k}={}",
                v.as_str().map_or_else(|| v.to_string(), String::from)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn robots_json(robots: &[Robot]) -> Vec<Value> {
    robots
        .iter()
        .map(|r| {
            let active = r.is_active();
            json!({
                "status": r.status.name(),
                "x": if active { Value::from(r.pos.x) } else { Value::Null },
                "y": if active { Value::from(r.pos.y) } else { Value::Null },
                "facing": if active { Value::from(r.facing.letter().to_string()) } else { Value::Null },
                "hp": if active { r.hp } else { 0 },
                "lives": r.lives,
                "checkpoints": r.checkpoints,
                "finished": r.finished,
                "power": r.power.name(),
                "locked": r.locked_cards().iter().map(|c| super::engine::card_json(*c)).collect::<Vec<_>>(),
            })
        })
        .collect()
}

/// A robot where a stage left it, compactly: `[x, y, facing, hp]`, null off the board.
fn robot_at(r: &Robot) -> Value {
    if r.is_active() {
        json!([r.pos.x, r.pos.y, r.facing.letter().to_string(), r.hp])
    } else {
        Value::Null
    }
}

/// The trace: the board, then a step per register (and one at each turn's start) with the
/// robots at its end, its events, and the robots after each stage inside it (every card,
/// the belts, gears and both volleys of lasers), which the viewer animates.
pub fn trace(game: &Game) -> Value {
    let name = |s: usize| Value::from(s);
    let mut shown = 0;
    let mut steps = Vec::new();
    let mut stages: Vec<Value> = Vec::new();
    for shot in game.snapshots() {
        if !matches!(shot.stage, "start" | "end") {
            let robots: Vec<Value> = shot.robots.iter().map(robot_at).collect();
            stages.push(json!({"stage": shot.stage, "robots": robots}));
            continue;
        }
        let events: Vec<Value> = game.events()[shown..shot.events]
            .iter()
            .map(|e: &Event| e.to_json(&name))
            .collect();
        shown = shot.events;
        let scores: Vec<i64> = shot
            .robots
            .iter()
            .map(|r| super::engine::score_of(game.board(), r))
            .collect();
        steps.push(json!({
            "turn": shot.turn,
            "register": shot.register,
            "scores": scores,
            "robots": robots_json(&shot.robots),
            "stages": std::mem::take(&mut stages),
            "events": events,
        }));
    }
    json!({
        "board": super::protocol::board_json(game.board()),
        "scores": game.scores(),
        "winner": game.finisher(),
        "steps": steps,
    })
}

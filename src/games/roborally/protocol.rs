//! RoboRally's JSON-lines payloads (RR14): `hello` with the board square by square, the
//! `start` and `turn` queries, and the answers read back.

use super::board::{Board, Gear, Tile};
use super::engine::{Game, ProgramQuery, Robot, StartQuery};
use super::log::MAX_ANSWER_CARDS;
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::seats::{players_json, seat_name};
use serde_json::{Value, json};

/// One square as `hello` lists it.
fn square_json(board: &Board, i: usize) -> Value {
    let sq = board.squares()[i];
    let at = board.pos(i);
    let (kind, speed, dir) = match sq.tile {
        Tile::Floor => ("floor", None, None),
        Tile::Pit => ("pit", None, None),
        Tile::Repair(_) => ("repair", None, None),
        Tile::Flag(_) => ("flag", None, None),
        Tile::Finish => ("finish", None, None),
        Tile::Belt { dir, fast } => ("belt", Some(if fast { 2 } else { 1 }), Some(dir)),
        Tile::Gear(Gear::Right) => ("gear_cw", None, None),
        Tile::Gear(Gear::Left) => ("gear_ccw", None, None),
        Tile::Gear(Gear::UTurn) => ("gear_u", None, None),
    };
    let mut v = json!({
        "x": at.x,
        "y": at.y,
        "type": kind,
        "walls": sq.walls.sides().map(|d| d.letter().to_string()).collect::<Vec<_>>(),
        "flag": match sq.tile { Tile::Flag(n) => Value::from(n), _ => Value::Null },
        "start": sq.start.map_or(Value::Null, Value::from),
        "repair": match sq.tile { Tile::Repair(n) => Value::from(n), _ => Value::Null },
    });
    if let (Some(speed), Some(dir)) = (speed, dir) {
        v["speed"] = speed.into();
        v["dir"] = dir.letter().to_string().into();
    }
    if let Some(l) = sq.laser {
        v["laser"] = json!({"dir": l.dir.letter().to_string(), "strength": l.strength});
    }
    v
}

/// The board as bots are told it.
pub fn board_json(board: &Board) -> Value {
    json!({
        "name": board.name,
        "width": board.width(),
        "height": board.height(),
        "grid": board.grid,
        "flags": board.flags().len(),
        "squares": (0..board.squares().len()).map(|i| square_json(board, i)).collect::<Vec<_>>(),
    })
}

/// The `hello` line of `seat`; `names` by seat (a seat without one is called `seat N`).
pub fn hello(game: &Game, seat: usize, names: &[String], time_limit_ms: u64) -> Value {
    let players = players_json(names, game.robots().len());
    json!({
        "type": "hello",
        "game": "roborally",
        "protocol": 1,
        "seat": seat,
        "name": seat_name(names, seat),
        "players": players,
        "board": board_json(game.board()),
        "turn_limit": game.max_turns(),
        "time_limit_ms": time_limit_ms,
    })
}

/// A robot as bots (and scenario outputs) see it.
pub fn robot_json(seat: usize, r: &Robot) -> Value {
    let active = r.is_active();
    let on = |v: Value| if active { v } else { Value::Null };
    json!({
        "seat": seat,
        "status": r.status.name(),
        "x": on(r.pos.x.into()),
        "y": on(r.pos.y.into()),
        "facing": on(r.facing.letter().to_string().into()),
        "hp": if active { r.hp } else { 0 },
        "lives": r.lives,
        "checkpoints": r.checkpoints,
        "finished": r.finished,
        "respawn": [r.respawn.x, r.respawn.y],
        "power": r.power.name(),
    })
}

pub fn robots_json(game: &Game) -> Vec<Value> {
    game.robots()
        .iter()
        .enumerate()
        .map(|(s, r)| robot_json(s, r))
        .collect()
}

pub fn start(game: &Game, q: &StartQuery) -> Value {
    json!({
        "type": "start",
        "turn": game.turn(),
        "reentry": q.reentry,
        "options": q.options.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
    })
}

pub fn turn(game: &Game, q: &ProgramQuery) -> Value {
    json!({
        "type": "turn",
        "turn": game.turn(),
        "hand": q.hand.iter().map(|c| json!({"move": c.mv.short(), "priority": c.priority})).collect::<Vec<_>>(),
        "free": q.free,
        "locked": q.locked.iter().map(|(r, c)| json!({"register": r, "move": c.mv.short(), "priority": c.priority})).collect::<Vec<_>>(),
        "robots": robots_json(game),
    })
}

pub fn game_over(game: &Game) -> Value {
    let scores: Vec<Value> = game
        .scores()
        .iter()
        .enumerate()
        .map(|(seat, score)| json!({"seat": seat, "score": score}))
        .collect();
    json!({"type": "game_over", "scores": scores, "winner": game.finisher()})
}

/// An answer as read: a start square or a program (checked by the engine).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Start { at: Pos, facing: Direction },
    Program { cards: Vec<u8>, power_down: bool },
}

/// Reads an answer line; the reason when it is not one.
pub fn read_answer(text: &str) -> Result<Answer, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("it is not a JSON object")?;
    if let Some(program) = obj.get("program") {
        let items = program.as_array().ok_or("`program` is not an array")?;
        if items.len() > MAX_ANSWER_CARDS {
            return Err(format!("`program` has {} entries", items.len()));
        }
        let cards = items
            .iter()
            .map(|i| i.as_u64().map(|n| n.min(255) as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or("`program` holds something that is not a hand index")?;
        let power_down = match obj.get("power_down") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err("`power_down` is not true or false".to_string()),
        };
        return Ok(Answer::Program { cards, power_down });
    }
    if !["x", "y", "facing"].iter().any(|k| obj.contains_key(*k)) {
        return Err(
            "neither `program` (a turn's answer) nor `x`, `y` and `facing` (a start's answer)"
                .to_string(),
        );
    }
    let coord = |k: &str| {
        obj.get(k)
            .and_then(Value::as_i64)
            .map(|n| n.clamp(-1000, 1000) as i32)
            .ok_or(format!("no integer `{k}`"))
    };
    let (x, y) = (coord("x")?, coord("y")?);
    let facing = obj
        .get("facing")
        .and_then(Value::as_str)
        .and_then(Direction::from_text)
        .ok_or("`facing` is not one of N, E, S, W")?;
    Ok(Answer::Start {
        at: Pos::new(x, y),
        facing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer with neither question's keys names both answers, not one question's key.
    #[test]
    fn an_answer_of_neither_kind_names_both() {
        let why = read_answer(r#"{"turn":1,"cards":[0,1,2,3,4]}"#).unwrap_err();
        assert_eq!(
            why,
            "neither `program` (a turn's answer) nor `x`, `y` and `facing` (a start's answer)"
        );
        let why = read_answer(r#"{"x":1,"facing":"N"}"#).unwrap_err();
        assert_eq!(why, "no integer `y`");
        assert_eq!(
            read_answer(r#"{"x":1,"y":2,"facing":"E"}"#),
            Ok(Answer::Start {
                at: Pos::new(1, 2),
                facing: Direction::East
            })
        );
    }
}

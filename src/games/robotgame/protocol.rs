//! Defines RobotGame's JSON-lines messages (RG7): `hello`, `turn` and `game_over` to the
//! bot, and the reading of its answers, without any I/O.
//!
//! Kept apart from the process handling so that every rule about what an answer may look
//! like (and what makes it a fault) is tested here on strings. The life cycle and the
//! deadlines are Last Robot Standing's (docs/bots.md): `hello` is not awaited; each `turn`
//! wants one line before the deadline; an answer may echo the turn, and one that echoes
//! another turn is discarded.

use super::arena::{ARENA, SIZE, Sq};
use super::engine::{Game, TURNS};
use super::types::{Action, Command, Pos, RobotId, Seat};
use serde_json::{Value, json};

/// The arena as `hello` and the trace give it: `size`, `obstacles` and `spawn` squares, each
/// `[x, y]`, row by row.
pub fn arena_json() -> Value {
    let mut obstacles = Vec::new();
    for y in 0..SIZE {
        for x in 0..SIZE {
            if !ARENA.is_walkable(Sq::new(x, y)) {
                obstacles.push(json!([x, y]));
            }
        }
    }
    let spawn: Vec<Value> = ARENA
        .spawn_squares()
        .iter()
        .map(|s| json!([s.x(), s.y()]))
        .collect();
    json!({"size": SIZE, "obstacles": obstacles, "spawn": spawn})
}

/// The `hello` line for `seat` (no newline).
pub fn hello(seat: Seat, names: &[String], time_limit_ms: u64) -> String {
    let players: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(s, n)| json!({"seat": s, "name": n}))
        .collect();
    json!({
        "type": "hello",
        "game": "robotgame",
        "protocol": 1,
        "seat": seat.0,
        "players": players,
        "arena": arena_json(),
        "turns": TURNS,
        "time_limit_ms": time_limit_ms,
    })
    .to_string()
}

/// The `turn` line of the game's next turn: every robot on the board (no newline).
pub fn turn(game: &Game) -> String {
    let robots: Vec<Value> = game
        .alive()
        .iter()
        .filter_map(|&id| game.robot(id))
        .map(|r| json!({"id": r.id.0, "seat": r.seat.0, "x": r.sq.x(), "y": r.sq.y(), "hp": r.hp}))
        .collect();
    json!({"type": "turn", "turn": game.turn(), "robots": robots}).to_string()
}

/// What a line from the bot is, for the pending turn `turn`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// The actions it gives (entries that are not actions are left out: those robots get no
    /// action, guard, and the seat gets its fault from the engine).
    Answer(Vec<Command>),
    /// It echoes another turn: a late answer, never used for this one.
    OtherTurn(u64),
    /// Not an answer at all (not JSON, no `actions` list): the whole seat guards.
    Malformed(String),
}

/// Reads one line as the answer to turn `turn`.
pub fn read_answer(line: &[u8], turn: u8) -> Reading {
    let value: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => return Reading::Malformed(format!("not JSON: {e}")),
    };
    if let Some(t) = value.get("turn") {
        match t.as_u64() {
            Some(t) if t == u64::from(turn) => {}
            Some(t) => return Reading::OtherTurn(t),
            None => return Reading::Malformed("`turn` is not a number".into()),
        }
    }
    let Some(actions) = value.get("actions").and_then(Value::as_array) else {
        return Reading::Malformed("no `actions` list".into());
    };
    Reading::Answer(actions.iter().filter_map(command).collect())
}

/// One entry of `actions`, if it is one: `{"id", "action", "to"}`.
fn command(entry: &Value) -> Option<Command> {
    entry_command(entry).ok()
}

/// One entry of `actions`, or why it is not one.
fn entry_command(entry: &Value) -> Result<Command, String> {
    let id = entry
        .get("id")
        .and_then(Value::as_u64)
        .and_then(|id| u16::try_from(id).ok())
        .ok_or("no robot `id` (a number from the turn's `robots`)")?;
    let target = || -> Result<Pos, String> {
        let to = entry.get("to").and_then(Value::as_array);
        let xy = |v: &Value| v.as_i64().and_then(|v| i32::try_from(v).ok());
        match to.map(Vec::as_slice) {
            Some([x, y]) => match (xy(x), xy(y)) {
                (Some(x), Some(y)) => Ok(Pos::new(x, y)),
                _ => Err("`to` must be [x, y], two whole numbers".to_string()),
            },
            _ => Err("`to` must be [x, y], the square next to the robot".to_string()),
        }
    };
    let action = match entry.get("action").and_then(Value::as_str) {
        Some("move") => Action::Move(target()?),
        Some("attack") => Action::Attack(target()?),
        Some("guard") => Action::Guard,
        Some("suicide") => Action::Suicide,
        Some(other) => {
            return Err(format!(
                "unknown action {other:?}; the actions are move, attack, guard, suicide"
            ));
        }
        None => return Err("no `action` (move, attack, guard or suicide)".to_string()),
    };
    Ok(Command {
        robot: RobotId(id),
        action,
    })
}

/// Why the first entry of the answer `line`'s `actions` that is not an action was left
/// out (its robot guards, and the seat gets a fault), if one was.
pub fn first_dropped_entry(line: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(line).ok()?;
    let actions = value.get("actions")?.as_array()?;
    actions.iter().enumerate().find_map(|(i, entry)| {
        entry_command(entry)
            .err()
            .map(|why| format!("actions[{i}] {entry}: {why}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_entry_says_why() {
        let line = br#"{"turn":3,"actions":[{"id":1,"action":"guard"},{"id":2,"action":"attak","to":[1,2]}]}"#;
        assert_eq!(
            first_dropped_entry(line).unwrap(),
            r#"actions[1] {"id":2,"action":"attak","to":[1,2]}: unknown action "attak"; the actions are move, attack, guard, suicide"#
        );
        assert_eq!(
            first_dropped_entry(br#"{"actions":[{"id":1,"action":"guard"}]}"#),
            None
        );
    }

    #[test]
    fn answers_are_read_entry_by_entry() {
        let line = br#"{"turn":3,"actions":[{"id":1,"action":"move","to":[9,5]},{"id":2,"action":"guard"},{"id":4,"action":"fly"},{"id":5,"action":"attack"}]}"#;
        assert_eq!(
            read_answer(line, 3),
            Reading::Answer(vec![
                Command {
                    robot: RobotId(1),
                    action: Action::Move(Pos::new(9, 5))
                },
                Command {
                    robot: RobotId(2),
                    action: Action::Guard
                },
            ])
        );
    }

    #[test]
    fn late_and_broken_lines_are_told_apart() {
        assert_eq!(
            read_answer(br#"{"turn":2,"actions":[]}"#, 3),
            Reading::OtherTurn(2)
        );
        assert!(matches!(read_answer(b"hello", 3), Reading::Malformed(_)));
        assert!(matches!(
            read_answer(br#"{"turn":3}"#, 3),
            Reading::Malformed(_)
        ));
        assert_eq!(
            read_answer(br#"{"actions":[]}"#, 3),
            Reading::Answer(vec![])
        );
    }

    #[test]
    fn hello_describes_the_arena() {
        let v: Value =
            serde_json::from_str(&hello(Seat(1), &["a".into(), "b".into()], 500)).unwrap();
        assert_eq!(v["arena"]["obstacles"].as_array().unwrap().len(), 136);
        assert_eq!(v["arena"]["spawn"].as_array().unwrap().len(), 48);
        assert_eq!(v["seat"], 1);
        assert_eq!(v["turns"], 100);
    }
}

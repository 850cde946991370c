//! Defines the Robots payloads of the JSON-lines protocol (RB6): the `hello`, `turn` and
//! `game_over` messages, and the reading of an answer into moves.
//!
//! The transport (framing, deadlines) is the orchestrator's; this module only says what a
//! Robots bot is sent and how its answer line becomes an [`Answer`](super::Answer). Anything
//! unreadable is [`Silence::Malformed`], never an error: the engine turns it into a forced
//! pass (RB2.2).

use super::board::Board;
use super::types::{MAX_MOVES, Move, Pos, Seat, Silence};
use serde_json::{Value, json};

/// A square as every Robots JSON writes it: `[x, y]`.
pub fn xy(p: Pos) -> Value {
    json!([p.x, p.y])
}

/// The `hello` message for `seat`.
pub fn hello(seat: Seat, board: &Board, time_limit_ms: u64) -> Value {
    json!({"type": "hello", "game": "robots", "protocol": 1, "seat": seat.0,
           "width": board.width(), "height": board.height(), "time_limit_ms": time_limit_ms})
}

/// The `turn` message of the board's next turn.
pub fn turn(board: &Board) -> Value {
    json!({
        "type": "turn",
        "turn": board.turns() + 1,
        "level": board.level(),
        "you": board.player().map_or(Value::Null, xy),
        "robots": board.robots().into_iter().map(xy).collect::<Vec<_>>(),
        "heaps": board.heaps().into_iter().map(xy).collect::<Vec<_>>(),
        "teleports": board.teleports(),
        "can_blast": board.can_blast(),
        "kills": board.kills(),
    })
}

/// Reads an answer line for turn `turn` into `out` (cleared first): `{"turn": N, "moves":
/// [...]}` with 1 to 8 move names. `turn` may be left out; another turn number, an unknown
/// move, a wrong type or a wrong count is malformed.
pub fn read_answer(line: &str, turn: u32, out: &mut Vec<Move>) -> Result<(), Silence> {
    out.clear();
    let value: Value = serde_json::from_str(line).map_err(|_| Silence::Malformed)?;
    let object = value.as_object().ok_or(Silence::Malformed)?;
    if let Some(t) = object.get("turn")
        && t.as_u64() != Some(u64::from(turn))
    {
        return Err(Silence::Malformed);
    }
    let moves = object
        .get("moves")
        .and_then(Value::as_array)
        .ok_or(Silence::Malformed)?;
    if moves.is_empty() || moves.len() > MAX_MOVES {
        return Err(Silence::Malformed);
    }
    for m in moves {
        let mv = m.as_str().and_then(Move::parse).ok_or(Silence::Malformed)?;
        out.push(mv);
    }
    Ok(())
}

/// Why `line` is not an answer for turn `turn` (what [`read_answer`] refused), in words a
/// bot's author can act on.
pub fn why_malformed(line: &str, turn: u32) -> String {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return format!("it is not JSON ({e})"),
    };
    let Some(object) = value.as_object() else {
        return "it is not a JSON object".to_string();
    };
    if let Some(t) = object.get("turn")
        && t.as_u64() != Some(u64::from(turn))
    {
        return format!("its \"turn\" is {t}, the turn asked is {turn}");
    }
    let Some(moves) = object.get("moves").and_then(Value::as_array) else {
        return "it has no \"moves\" list".to_string();
    };
    if moves.is_empty() || moves.len() > MAX_MOVES {
        return format!(
            "\"moves\" holds {} moves: 1 to {MAX_MOVES} are allowed",
            moves.len()
        );
    }
    match moves
        .iter()
        .find(|m| m.as_str().and_then(Move::parse).is_none())
    {
        Some(m) => {
            let names: Vec<&str> = Move::ALL.iter().map(|m| m.name()).collect();
            format!("{m} is not a move; the moves are {}", names.join(", "))
        }
        None => "it is not an answer".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robots::types::Dir;

    #[test]
    fn a_malformed_answer_says_why() {
        let why = why_malformed(r#"{"turn":2,"moves":["NORTH"]}"#, 2);
        assert!(
            why.starts_with("\"NORTH\" is not a move; the moves are N, NE,"),
            "{why}"
        );
        assert_eq!(
            why_malformed(r#"{"turn":3,"moves":["N"]}"#, 2),
            "its \"turn\" is 3, the turn asked is 2"
        );
        assert!(why_malformed("N", 2).starts_with("it is not JSON"));
    }

    #[test]
    fn answers_are_read_or_malformed() {
        let mut out = Vec::new();
        assert_eq!(
            read_answer(r#"{"turn":4,"moves":["NE","BSW","T"]}"#, 4, &mut out),
            Ok(())
        );
        assert_eq!(
            out,
            vec![Move::Step(Dir::NE), Move::Blast(Dir::SW), Move::Teleport]
        );
        assert_eq!(read_answer(r#"{"moves":["L"]}"#, 9, &mut out), Ok(()));
        for bad in [
            "",
            "[]",
            r#"{"turn":3,"moves":["N"]}"#,
            r#"{"turn":4,"moves":[]}"#,
            r#"{"turn":4,"moves":["N","N","N","N","N","N","N","N","N"]}"#,
            r#"{"turn":4,"moves":["X"]}"#,
            r#"{"turn":4,"moves":[1]}"#,
            r#"{"turn":4,"moves":"N"}"#,
        ] {
            assert_eq!(
                read_answer(bad, 4, &mut out),
                Err(Silence::Malformed),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_turn_message_has_the_board() {
        let board = Board::new(59, 22, 1, 3).unwrap();
        let m = turn(&board);
        assert_eq!(m["type"], "turn");
        assert_eq!(m["turn"], 1);
        assert_eq!(m["robots"].as_array().map(Vec::len), Some(10));
        assert_eq!(m["teleports"], 2);
        assert_eq!(m["can_blast"], true);
    }
}

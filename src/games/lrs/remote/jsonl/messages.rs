//! The messages of docs/bots.md: what the runner writes (`hello`, `start`, `turn`,
//! `game_over`) and how a bot's answer object becomes a reply.
//!
//! Pure functions of engine data; no I/O. Every message carries `"type"`; queries also
//! carry `"seq"`, a per-game query number a bot may echo (the spec allows extra fields) so
//! that an answer can always be matched to its query, even when a re-entry query and a
//! turn query share a turn number.

use crate::games::lrs::engine::{
    Board, Direction, Pos, Power, Robot, Rotation, StartQuery, StartReply, Tile, TurnQuery,
    TurnReply,
};
use crate::games::lrs::remote::{GameSetup, View};
use serde_json::{Map, Value, json};

/// The protocol version sent in `hello`.
pub const PROTOCOL_VERSION: u32 = 1;

/// The board as `hello` describes it: name, size, the grid text of docs/boards.md and every
/// square row by row.
pub fn board_json(board: &Board) -> Value {
    let width = board.width().max(1) as usize;
    let squares: Vec<Value> = board
        .squares()
        .iter()
        .enumerate()
        .map(|(i, sq)| {
            let mut m = Map::new();
            m.insert("x".into(), json!(i % width));
            m.insert("y".into(), json!(i / width));
            let kind = match sq.tile {
                Tile::Floor => "floor",
                Tile::Pit => "pit",
                Tile::Repair => "repair",
                Tile::Flag(_) => "flag",
                Tile::Conveyor { .. } => "belt",
                Tile::Gear(Rotation::Clockwise) => "gear_cw",
                Tile::Gear(Rotation::CounterClockwise) => "gear_ccw",
            };
            m.insert("type".into(), json!(kind));
            if let Tile::Conveyor { dir, express } = sq.tile {
                m.insert("speed".into(), json!(if express { 2 } else { 1 }));
                m.insert("dir".into(), json!(dir.letter().to_string()));
            }
            let walls: Vec<String> = sq.walls.sides().map(|d| d.letter().to_string()).collect();
            m.insert("walls".into(), json!(walls));
            m.insert(
                "flag".into(),
                match sq.tile {
                    Tile::Flag(n) => json!(n),
                    _ => Value::Null,
                },
            );
            m.insert("start".into(), sq.start.map_or(Value::Null, |n| json!(n)));
            if let Some(laser) = sq.laser {
                m.insert(
                    "laser".into(),
                    json!({"dir": laser.dir.letter().to_string(), "strength": laser.strength}),
                );
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "name": board.name(),
        "width": board.width(),
        "height": board.height(),
        "grid": crate::games::lrs::boards::print_grid(board),
        "squares": squares,
    })
}

/// The `hello` line (without the newline).
pub fn hello(setup: &GameSetup) -> String {
    let players: Vec<Value> = setup
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| json!({"seat": seat, "name": name}))
        .collect();
    let name = setup.players.get(setup.seat).cloned().unwrap_or_default();
    json!({
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "seat": setup.seat,
        "name": name,
        "players": players,
        "board": board_json(&setup.board),
        "turn_limit": setup.turn_limit,
        "time_limit_ms": setup.time_limit_ms,
    })
    .to_string()
}

/// The turn a start query belongs to: the game-start query (engine turn 0) is sent as
/// turn 1, as in docs/bots.md; re-entry queries carry the turn they open.
pub fn start_turn(view: &View) -> u16 {
    view.turn.max(1)
}

fn pos_json(p: Pos) -> Value {
    json!([p.x, p.y])
}

/// The `start` line for query number `seq`.
pub fn start(seq: u64, view: &View, query: &StartQuery) -> String {
    let options: Vec<Value> = query.options.iter().map(|p| pos_json(*p)).collect();
    json!({
        "type": "start",
        "turn": start_turn(view),
        "seq": seq,
        "reentry": query.reentry,
        "options": options,
    })
    .to_string()
}

/// One robot as `turn` lists it.
pub fn robot_json(seat: usize, r: &Robot) -> Value {
    let mut m = Map::new();
    m.insert("seat".into(), json!(seat));
    m.insert("status".into(), json!(r.status.name()));
    m.insert("x".into(), json!(r.pos.x));
    m.insert("y".into(), json!(r.pos.y));
    m.insert("facing".into(), json!(r.facing.letter().to_string()));
    m.insert("damage".into(), json!(r.damage));
    m.insert("lives".into(), json!(r.lives));
    m.insert("score".into(), json!(r.score));
    m.insert("next_flag".into(), json!(r.next_flag));
    m.insert("archive".into(), pos_json(r.archive));
    let power = match r.power {
        Power::Up => "up",
        Power::Announced => "announced",
        Power::Down(_) => "down",
    };
    m.insert("power".into(), json!(power));
    if let Power::Down(n) = r.power {
        m.insert("down_turns".into(), json!(n));
    }
    Value::Object(m)
}

/// The `turn` line for query number `seq`.
pub fn turn(seq: u64, view: &View, query: &TurnQuery) -> String {
    let hand: Vec<Value> = query
        .hand
        .as_slice()
        .iter()
        .map(|c| json!({"move": c.mv.short(), "priority": c.priority}))
        .collect();
    let robots: Vec<Value> = view
        .robots
        .iter()
        .enumerate()
        .map(|(seat, r)| robot_json(seat, r))
        .collect();
    json!({
        "type": "turn",
        "turn": view.turn,
        "seq": seq,
        "repair_on": view.repair_on,
        "hand": hand,
        "locked": query.locked,
        "robots": robots,
    })
    .to_string()
}

/// The `game_over` line: every seat's final score.
pub fn game_over(view: &View) -> String {
    let scores: Vec<Value> = view
        .robots
        .iter()
        .enumerate()
        .map(|(seat, r)| json!({"seat": seat, "score": r.score}))
        .collect();
    json!({"type": "game_over", "scores": scores}).to_string()
}

/// Why an answer object is not a usable reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    MissingField(&'static str),
    BadField(&'static str),
    /// `card` is not an index into the hand.
    CardOutOfRange {
        card: u64,
        hand: usize,
    },
    /// `card` is `null` and `power_down` is not `true`: no card is only legal with a
    /// power-down (rules R5.3).
    NoCardWithoutPowerDown,
    /// `x`/`y` is not one of the options.
    NotAnOption {
        x: i64,
        y: i64,
    },
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::MissingField(name) => write!(f, "missing field {name:?}"),
            AnswerError::BadField(name) => {
                let expected = match *name {
                    "card" => {
                        "the index of a card in \"hand\" (0 is the first), or null with \"power_down\": true"
                    }
                    "facing" => "\"N\", \"E\", \"S\" or \"W\"",
                    "power_down" => "true or false",
                    _ => "a whole number",
                };
                write!(
                    f,
                    "field {name:?} has the wrong type or value: expected {expected}"
                )
            }
            AnswerError::CardOutOfRange { card, hand } => {
                write!(f, "card {card} is not an index into a hand of {hand}")
            }
            AnswerError::NoCardWithoutPowerDown => {
                write!(f, "no card (\"card\":null) without \"power_down\":true")
            }
            AnswerError::NotAnOption { x, y } => write!(f, "({x},{y}) is not one of the options"),
        }
    }
}

/// Parses an answer to a start query: `{"x":3,"y":4,"facing":"N"}`, the square one of the
/// options.
pub fn parse_start_answer(
    answer: &Map<String, Value>,
    query: &StartQuery,
) -> Result<StartReply, AnswerError> {
    let coord = |name: &'static str| -> Result<i64, AnswerError> {
        let v = answer.get(name).ok_or(AnswerError::MissingField(name))?;
        v.as_i64()
            .filter(|n| i32::try_from(*n).is_ok())
            .ok_or(AnswerError::BadField(name))
    };
    let x = coord("x")?;
    let y = coord("y")?;
    let facing = answer
        .get("facing")
        .ok_or(AnswerError::MissingField("facing"))?
        .as_str()
        .and_then(Direction::from_text)
        .ok_or(AnswerError::BadField("facing"))?;
    let pos = Pos::new(x as i32, y as i32);
    if !query.options.contains(&pos) {
        return Err(AnswerError::NotAnOption { x, y });
    }
    Ok(StartReply::Choose { pos, facing })
}

/// Parses an answer to a turn query: `{"card":0,"power_down":false}`, `power_down`
/// optional (`null` counts as absent), or `{"card":null,"power_down":true}`: no card, stay
/// and power down (rules R5.3). A `null` card without a power-down is a fault (R5.2).
pub fn parse_turn_answer(
    answer: &Map<String, Value>,
    query: &TurnQuery,
) -> Result<TurnReply, AnswerError> {
    let card = answer
        .get("card")
        .ok_or(AnswerError::MissingField("card"))?;
    let power_down = match answer.get("power_down") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(AnswerError::BadField("power_down")),
    };
    if card.is_null() {
        return if power_down {
            Ok(TurnReply::StayAndPowerDown)
        } else {
            Err(AnswerError::NoCardWithoutPowerDown)
        };
    }
    let card = card.as_u64().ok_or(AnswerError::BadField("card"))?;
    if card >= query.hand.len() as u64 {
        return Err(AnswerError::CardOutOfRange {
            card,
            hand: query.hand.len(),
        });
    }
    Ok(TurnReply::Play {
        card: card as usize,
        power_down,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::lrs::engine::{Card, Hand, Move};
    use std::sync::Arc;

    fn obj(text: &str) -> Map<String, Value> {
        match serde_json::from_str(text).unwrap() {
            Value::Object(m) => m,
            _ => panic!("not an object"),
        }
    }

    fn hand(n: usize) -> Hand {
        let mut h = Hand::default();
        for i in 0..n {
            h.push(Card {
                mv: Move::Forward1,
                priority: 10 * (i as u16 + 1),
            });
        }
        h
    }

    #[test]
    fn hello_describes_the_board_square_by_square() {
        let board = crate::games::lrs::boards::load_board("gear-works").unwrap();
        let setup = GameSetup {
            seat: 1,
            players: vec!["a".into(), "b".into()],
            board: board.clone(),
            turn_limit: 60,
            time_limit_ms: 1000,
        };
        let v: Value = serde_json::from_str(&hello(&setup)).unwrap();
        assert_eq!(v["type"], "hello");
        assert_eq!(v["protocol"], 1);
        assert_eq!(v["seat"], 1);
        assert_eq!(v["name"], "b");
        assert_eq!(v["players"][0]["name"], "a");
        assert_eq!(v["time_limit_ms"], 1000);
        let b = &v["board"];
        assert_eq!(b["width"], board.width());
        let squares = b["squares"].as_array().unwrap();
        assert_eq!(squares.len(), board.len());
        // Row by row, y = 0 first.
        assert_eq!(squares[1]["x"], 1);
        assert_eq!(squares[1]["y"], 0);
        assert!(b["grid"].as_str().unwrap().contains("S1"));
        let kinds: Vec<&str> = squares
            .iter()
            .map(|s| s["type"].as_str().unwrap())
            .collect();
        assert!(kinds.iter().any(|k| k.starts_with("gear_")), "{kinds:?}");
        for s in squares {
            if s["type"] == "belt" {
                assert!(s["speed"] == 1 || s["speed"] == 2);
                assert!(s["dir"].is_string());
            } else {
                assert!(s.get("speed").is_none());
            }
        }
        let starts = squares.iter().filter(|s| s["start"].is_u64()).count();
        assert_eq!(starts, board.starts().len());
    }

    #[test]
    fn queries_carry_type_turn_and_seq() {
        let board = crate::games::lrs::boards::load_board("gear-works").unwrap();
        let robots = vec![crate::games::lrs::engine::Robot::new(board.starts()[0])];
        let view = View {
            turn: 0,
            repair_on: false,
            robots,
        };
        let q = StartQuery {
            seat: 0,
            reentry: false,
            options: vec![Pos::new(3, 4)],
        };
        let v: Value = serde_json::from_str(&start(4, &view, &q)).unwrap();
        assert_eq!(
            v,
            json!({"type":"start","turn":1,"seq":4,"reentry":false,"options":[[3,4]]})
        );
        let tq = TurnQuery {
            seat: 0,
            hand: hand(2),
            locked: false,
        };
        let view = View { turn: 7, ..view };
        let v: Value = serde_json::from_str(&turn(5, &view, &tq)).unwrap();
        assert_eq!(v["type"], "turn");
        assert_eq!(v["turn"], 7);
        assert_eq!(v["seq"], 5);
        assert_eq!(v["hand"][1], json!({"move":"F1","priority":20}));
        assert_eq!(v["robots"][0]["power"], "up");
        assert_eq!(v["robots"][0]["status"], "active");
        let over: Value = serde_json::from_str(&game_over(&view)).unwrap();
        assert_eq!(
            over,
            json!({"type":"game_over","scores":[{"seat":0,"score":0}]})
        );
        let _ = Arc::clone(&board);
    }

    #[test]
    fn turn_answers_are_checked_against_the_hand() {
        let q = TurnQuery {
            seat: 0,
            hand: hand(3),
            locked: false,
        };
        assert_eq!(
            parse_turn_answer(&obj(r#"{"card":2}"#), &q),
            Ok(TurnReply::Play {
                card: 2,
                power_down: false
            })
        );
        assert_eq!(
            parse_turn_answer(&obj(r#"{"card":0,"power_down":true,"turn":3}"#), &q),
            Ok(TurnReply::Play {
                card: 0,
                power_down: true
            })
        );
        // R5.3: no card and power down.
        assert_eq!(
            parse_turn_answer(&obj(r#"{"card":null,"power_down":true}"#), &q),
            Ok(TurnReply::StayAndPowerDown)
        );
        for bad in [
            r#"{"card":null}"#,
            r#"{"card":null,"power_down":false}"#,
            r#"{"card":null,"power_down":null}"#,
            r#"{"power_down":true}"#,
            r#"{"card":3}"#,
            r#"{"card":-1}"#,
            r#"{"card":1.5}"#,
            r#"{"card":"0"}"#,
            r#"{"cards":0}"#,
            r#"{"card":0,"power_down":"yes"}"#,
            r#"{"card":18446744073709551615}"#,
        ] {
            assert!(parse_turn_answer(&obj(bad), &q).is_err(), "{bad}");
        }
    }

    /// A card named by its move instead of its index is told what `card` holds.
    #[test]
    fn a_card_given_by_its_move_is_told_the_index_is_expected() {
        let q = TurnQuery {
            seat: 0,
            hand: hand(3),
            locked: false,
        };
        let why = parse_turn_answer(&obj(r#"{"card":"F3"}"#), &q)
            .unwrap_err()
            .to_string();
        assert_eq!(
            why,
            r#"field "card" has the wrong type or value: expected the index of a card in "hand" (0 is the first), or null with "power_down": true"#
        );
    }

    #[test]
    fn start_answers_must_pick_an_option_and_a_facing() {
        let q = StartQuery {
            seat: 0,
            reentry: true,
            options: vec![Pos::new(3, 4), Pos::new(4, 4)],
        };
        assert_eq!(
            parse_start_answer(&obj(r#"{"x":4,"y":4,"facing":"W"}"#), &q),
            Ok(StartReply::Choose {
                pos: Pos::new(4, 4),
                facing: Direction::West
            })
        );
        for bad in [
            r#"{"x":5,"y":4,"facing":"W"}"#,
            r#"{"x":4,"y":4,"facing":"WEST"}"#,
            r#"{"x":4,"y":4,"facing":"Q"}"#,
            r#"{"x":4,"y":4}"#,
            r#"{"x":"4","y":4,"facing":"N"}"#,
            r#"{"x":4294967300,"y":4,"facing":"N"}"#,
        ] {
            assert!(parse_start_answer(&obj(bad), &q).is_err(), "{bad}");
        }
    }
}

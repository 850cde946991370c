//! Robo Runner's JSON-lines payloads (RN16): `hello` with the ship square by square, the
//! `turn` query (a bot is told the links used so far, known to all), the answer read back
//! and `game_over`.

use super::engine::{Answer, Game, Move, Query, State, chip_json, score_of};
use super::log::MAX_LIST;
use super::ship::{Base, NETWORKS, RailKind, Ship, phase_digits};
use super::text::{hull_json, links_json};
use crate::games::shared::grid::Direction;
use crate::games::shared::seats::players_json;
use serde_json::{Value, json};

/// One square as `hello` lists it.
fn square_json(ship: &Ship, i: usize) -> Value {
    let at = ship.pos(i);
    let mut v = json!({"x": at.x, "y": at.y});
    let kind = match ship.squares()[i].tile {
        Base::Hull => "hull",
        Base::Airlock => "airlock",
        Base::Ip { n, repairs } => {
            v["ip"] = n.into();
            v["repairs"] = repairs.into();
            "ip"
        }
        Base::Depot(value) => {
            v["value"] = value.into();
            "depot"
        }
        Base::Beam { warp, dir, turning } => {
            v["warp"] = warp.into();
            v["dir"] = dir.letter().to_string().into();
            v["turning"] = turning.into();
            "beam"
        }
        Base::Twister(spin) => {
            v["spin"] = spin.letter().into();
            "twister"
        }
        Base::Transporter(k) => {
            v["network"] = NETWORKS[k as usize].to_string().into();
            "transporter"
        }
        Base::Thruster => "thruster",
        Base::Bay(closed) => {
            v["closed"] = phase_digits(closed)
                .bytes()
                .map(|d| d - b'0')
                .collect::<Vec<u8>>()
                .into();
            "bay"
        }
        Base::Shaft => "shaft",
        Base::Space => "space",
    };
    v["type"] = kind.into();
    let rails: Vec<Value> = Direction::ALL
        .into_iter()
        .filter_map(|d| {
            let rail = ship.rail(at, d)?;
            let mut r = json!({"side": d.letter().to_string(), "kind": rail.kind.name()});
            if let RailKind::Slide(open) = rail.kind {
                r["open"] = phase_digits(open)
                    .bytes()
                    .map(|c| c - b'0')
                    .collect::<Vec<u8>>()
                    .into();
            }
            Some(r)
        })
        .collect();
    v["rails"] = rails.into();
    v
}

/// The ship as bots are told it.
pub fn ship_json(ship: &Ship) -> Value {
    json!({
        "name": ship.name,
        "width": ship.width(),
        "height": ship.height(),
        "grid": ship.grid,
        "squares": (0..ship.len()).map(|i| square_json(ship, i)).collect::<Vec<_>>(),
    })
}

/// The `hello` line of `seat`; `names` by seat (a seat without one is called `seat N`).
pub fn hello(game: &Game, seat: usize, names: &[String], time_limit_ms: u64) -> Value {
    let players = players_json(names, game.robots().len());
    let rules = game.rules();
    json!({
        "type": "hello",
        "game": "roborunner",
        "protocol": 1,
        "seat": seat,
        "players": players,
        "ship": ship_json(game.ship()),
        "turns": rules.turns,
        "lives": rules.lives,
        "hull_damage": rules.hull_damage,
        "equipment": rules.equipment,
        "scanners": rules.scanners,
        "time_limit_ms": time_limit_ms,
    })
}

/// The `turn` query of seat `q.seat`.
pub fn turn(game: &Game, q: &Query) -> Value {
    let robots: Vec<Value> = game
        .robots()
        .iter()
        .enumerate()
        .map(|(s, r)| {
            let active = r.state == State::Active;
            let on = |v: Value| if active { v } else { Value::Null };
            json!({
                "seat": s,
                "status": r.state.name(),
                "x": on(r.pos.x.into()),
                "y": on(r.pos.y.into()),
                "facing": on(r.facing.letter().to_string().into()),
                "damage": r.damage,
                "lives": r.lives,
                "next_ip": r.next_ip,
                "virtual": r.virtual_,
                "rebooting": r.rebooting,
                "rank": game.rank(s),
                "locked": r.locked_chips().iter().map(|c| chip_json(*c)).collect::<Vec<_>>(),
                "last": r.last.iter().map(|c| chip_json(*c)).collect::<Vec<_>>(),
                "option": r.option.map(|o| o.name()),
                "ammo": r.option.map(|_| r.ammo),
                "place": r.place,
                "score": score_of(r),
            })
        })
        .collect();
    let seats = game.robots().len();
    let scanners: Vec<Value> = game
        .scanners()
        .iter()
        .enumerate()
        .map(|(id, r)| {
            let active = r.state == State::Active;
            let on = |v: Value| if active { v } else { Value::Null };
            json!({
                "id": id,
                "x": on(r.pos.x.into()),
                "y": on(r.pos.y.into()),
                "facing": on(r.facing.letter().to_string().into()),
                "damage": r.damage,
                "virtual": r.virtual_,
                "rank": game.rank(seats + id),
            })
        })
        .collect();
    json!({
        "type": "turn",
        "turn": game.turn(),
        "dispatched": q.dispatched,
        "hand": q.hand.iter().map(|m| m.short()).collect::<Vec<_>>(),
        "robots": robots,
        "scanners": scanners,
        "hull": hull_json(game.hull()),
        "links": links_json(game.links()),
    })
}

pub fn game_over(game: &Game) -> Value {
    let scores: Vec<Value> = game
        .robots()
        .iter()
        .enumerate()
        .map(|(s, r)| json!({"seat": s, "score": score_of(r), "place": r.place}))
        .collect();
    json!({"type": "game_over", "scores": scores})
}

/// Reads an answer line: `program` (chip names), optional `reboot`, `activate` and
/// `facing`. What cannot be read is an error saying why (a malformed answer).
pub fn read_answer(text: &str) -> Result<Answer, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("it is not JSON: {e}"))?;
    let obj = v.as_object().ok_or("it is not a JSON object")?;
    let items = obj
        .get("program")
        .and_then(Value::as_array)
        .ok_or("no `program` array")?;
    if items.len() > MAX_LIST {
        return Err(format!("`program` has {} entries", items.len()));
    }
    let program = items
        .iter()
        .map(|i| i.as_str().and_then(Move::from_short))
        .collect::<Option<Vec<Move>>>()
        .ok_or("`program` holds something that is not a chip (F1 F2 F3 B L R U)")?;
    let reboot = match obj.get("reboot") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err("`reboot` is not true or false".to_string()),
    };
    let activate = match obj.get("activate") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) if a.len() <= MAX_LIST => a
            .iter()
            .map(|p| p.as_u64().map(|n| n.min(255) as u8))
            .collect::<Option<Vec<u8>>>()
            .ok_or("`activate` holds something that is not a phase")?,
        Some(_) => return Err("`activate` is not a list of phases".to_string()),
    };
    let facing = match obj.get("facing") {
        None | Some(Value::Null) => None,
        Some(f) => Some(
            f.as_str()
                .and_then(Direction::from_text)
                .ok_or("`facing` is not one of N, E, S, W")?,
        ),
    };
    Ok(Answer {
        program,
        reboot,
        activate,
        facing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_and_bad_ones_say_why() {
        let a = read_answer(
            r#"{"turn":7,"program":["F3","R"],"reboot":true,"activate":[],"facing":"E"}"#,
        )
        .unwrap();
        assert_eq!(a.program, vec![Move::Forward3, Move::Right]);
        assert!(a.reboot);
        assert_eq!(a.facing, Some(Direction::East));
        assert!(read_answer(r#"{"program":["F4"]}"#).is_err());
        assert!(read_answer(r#"{"program":["F1"],"facing":"X"}"#).is_err());
        assert!(read_answer("[1]").is_err());
    }

    /// RN16: `hello` says whether there is equipment and how many scanners; `turn` gives
    /// each seat's option and ammo and lists the scanners.
    #[test]
    fn hello_and_turn_tell_options_and_scanners() {
        use crate::games::roborunner::engine::{Pending, Rules, Setup};
        use crate::games::roborunner::ships;
        let setup = Setup {
            ship: ships::load("hull-walk").unwrap(),
            seats: 2,
            seed: 4,
            rules: Rules {
                equipment: true,
                scanners: 3,
                ..Rules::default()
            },
        };
        let game = Game::new(&setup).unwrap();
        let h = hello(&game, 0, &[], 1000);
        assert_eq!(h["equipment"], true);
        assert_eq!(h["scanners"], 3);
        let Pending::Decisions(qs) = game.pending() else {
            panic!("the first turn asks");
        };
        let t = turn(&game, &qs[0]);
        let robots = t["robots"].as_array().unwrap();
        assert_eq!(robots.len(), 2);
        for (r, robot) in robots.iter().zip(game.robots()) {
            assert_eq!(r["option"], robot.option.unwrap().name());
            assert_eq!(r["ammo"], 3);
        }
        let scanners = t["scanners"].as_array().unwrap();
        assert_eq!(scanners.len(), 3);
        assert_eq!(scanners[2]["id"], 2);
        assert_eq!(scanners[2]["virtual"], true);
        assert_eq!(scanners[2]["rank"], 5);
    }
}

//! A game told as text and as a trace (RN18.3): the ship's grid tokens with the robots over
//! them, turn by turn, and each turn's events.

use super::engine::{Event, Game, Robot, Snapshot, State, chip_json, score_of};
use crate::games::shared::grid::Pos;
use serde_json::{Value, json};

/// The fields only a seat's robot has (a scanner shows `scanner: true` instead).
const SEAT_FIELDS: [&str; 8] = [
    "lives",
    "next_ip",
    "place",
    "score",
    "inspections",
    "kills",
    "welds",
    "deaths",
];

/// A robot as replays and scenarios show it (`seat` for its name, a scanner's index past
/// the seats): a scanner without the seat's fields, a robot with an option with its ammo.
pub fn robot_json(game: &Game, seat: usize, r: &Robot, rank: usize) -> Value {
    let mut v = robot_fields(game, seat, r, rank);
    let fields = v.as_object_mut().expect("a robot is an object");
    if r.scanner {
        for k in SEAT_FIELDS {
            fields.shift_remove(k);
        }
        let at = index_of(fields, "locked").map_or(fields.len(), |i| i + 1);
        fields.shift_insert(at, "scanner".to_string(), true.into());
    }
    if let Some(option) = r.option {
        let at = index_of(fields, "last").unwrap_or(fields.len());
        fields.shift_insert(at, "option".to_string(), option.name().into());
        fields.shift_insert(at + 1, "ammo".to_string(), r.ammo.into());
    }
    v
}

fn index_of(fields: &serde_json::Map<String, Value>, key: &str) -> Option<usize> {
    fields.keys().position(|k| k == key)
}

fn robot_fields(game: &Game, seat: usize, r: &Robot, rank: usize) -> Value {
    let active = r.state == State::Active;
    let on = |v: Value| if active { v } else { Value::Null };
    json!({
        "seat": seat,
        "status": r.state.name(),
        "x": on(r.pos.x.into()),
        "y": on(r.pos.y.into()),
        "facing": on(r.facing.letter().to_string().into()),
        "damage": r.damage,
        "virtual": r.virtual_,
        "rebooting": r.rebooting,
        "rank": rank,
        "locked": r.locked_chips().iter().map(|c| chip_json(*c)).collect::<Vec<_>>(),
        "lives": r.lives,
        "next_ip": r.next_ip,
        "place": r.place,
        "score": score_of(r),
        "inspections": r.inspections,
        "kills": r.kills,
        "welds": r.welds,
        "deaths": r.deaths,
        "last": r.last.iter().map(|c| chip_json(*c)).collect::<Vec<_>>(),
        "ips": game.ship().ips().len(),
    })
}

pub fn hull_json(hull: &[u8]) -> Value {
    hull.iter()
        .enumerate()
        .map(|(i, left)| json!({"ip": i + 1, "repairs": left}))
        .collect::<Vec<_>>()
        .into()
}

pub fn links_json(links: &[(Pos, Pos)]) -> Value {
    links
        .iter()
        .map(|(a, b)| json!({"from": [a.x, a.y], "to": [b.x, b.y]}))
        .collect::<Vec<_>>()
        .into()
}

fn rank_of(order: &[usize], r: usize) -> usize {
    order.iter().position(|x| *x == r).map_or(0, |i| i + 1)
}

fn seat_name(seat: usize) -> Value {
    Value::from(seat)
}

/// Each seat's `[x, y, facing]` after each phase of `snap`'s turn, null while off the ship.
fn ways_json(snap: &Snapshot, seats: usize) -> Value {
    snap.ways
        .iter()
        .take(seats)
        .map(|way| {
            way.iter()
                .map(|pose| {
                    pose.map_or(Value::Null, |(at, f)| {
                        json!([at.x, at.y, f.letter().to_string()])
                    })
                })
                .collect::<Value>()
        })
        .collect()
}

/// The trace the viewer draws and `replay --json` prints: the ship (its grid tokens and,
/// square by square, what bots are told in `hello`: type, beam warp and way, transporter
/// network, the phases a bay is closed, the rails and the phases a slide rail is open), the
/// final scores, then a step per turn with the robots, the hull, the links, the turn's
/// events (each with its phase, so the viewer can tell a turn phase by phase) and `ways`:
/// per seat `[x, y, facing]` after each phase (null while off the ship).
pub fn trace(game: &Game) -> Value {
    let ship = game.ship();
    let cells: Vec<&str> = ship
        .grid
        .split([' ', '\n'])
        .filter(|t| !t.is_empty())
        .collect();
    let mut ship_json = super::protocol::ship_json(ship);
    ship_json["cells"] = cells.into();
    let mut steps = Vec::new();
    for snap in game.snapshots() {
        let events: Vec<Value> = game
            .events()
            .iter()
            .filter(|e| e.turn == snap.turn)
            .map(|e| e.to_json(&seat_name))
            .collect();
        let robots = |scanners: bool| {
            snap.robots
                .iter()
                .enumerate()
                .filter(|(_, r)| r.scanner == scanners)
                .map(|(s, r)| robot_json(game, s, r, rank_of(&snap.order, s)))
                .collect::<Vec<_>>()
        };
        let mut step = json!({
            "turn": snap.turn,
            "robots": robots(false),
            "hull": hull_json(&snap.hull),
            "links": links_json(&snap.links),
            "events": events,
            "ways": ways_json(snap, game.robots().len()),
        });
        if !game.scanners().is_empty() {
            step["scanners"] = robots(true).into();
        }
        steps.push(step);
    }
    json!({
        "ship": ship_json,
        "scores": game.scores(),
        "steps": steps,
    })
}

/// A robot's name in words: its player's, `seat N` without one, `scanner N` for a scanner.
fn robot_name(game: &Game, names: &[String], r: usize) -> String {
    let seats = game.robots().len();
    if r >= seats {
        format!("scanner {}", r - seats)
    } else {
        crate::games::shared::seats::seat_name(names, r)
    }
}

/// One event in words.
fn event_text(game: &Game, e: &Event, names: &[String]) -> String {
    let name = |s: usize| Value::from(robot_name(game, names, s));
    let v = e.to_json(&name);
    let mut out = format!(
        "  turn {} phase {}: {} {}",
        e.turn,
        e.phase,
        v["robot"].as_str().unwrap_or(""),
        v["kind"].as_str().unwrap_or("")
    );
    if let Some(obj) = v.as_object() {
        for (k, x) in obj {
            if !matches!(k.as_str(), "turn" | "phase" | "kind" | "robot") {
                out += &format!(" {k}={x}");
            }
        }
    }
    out
}

/// The game turn by turn: the grid with the robots (seat digits) over their squares, then
/// the turn's events (`replay --text`).
pub fn replay_text(game: &Game, names: &[String]) -> String {
    let ship = game.ship();
    let mut out = format!("Robo Runner on {}\n", ship.name);
    let rows: Vec<Vec<&str>> = ship.grid.lines().map(|l| l.split(' ').collect()).collect();
    for snap in game.snapshots() {
        out += &format!("\n== turn {} ==\n", snap.turn);
        for (y, row) in rows.iter().enumerate() {
            let line: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(x, token)| {
                    let here: Vec<String> = snap
                        .robots
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| {
                            r.state == State::Active && r.pos == Pos::new(x as i32, y as i32)
                        })
                        .map(|(s, r)| {
                            let mark = if r.scanner {
                                format!("s{}", s - game.robots().len())
                            } else {
                                (s + 1).to_string()
                            };
                            if r.virtual_ {
                                format!("({mark})")
                            } else {
                                format!("{mark}{}", r.facing.letter())
                            }
                        })
                        .collect();
                    let cell = if here.is_empty() {
                        token.to_string()
                    } else {
                        here.join("")
                    };
                    format!("{cell:<7}")
                })
                .collect();
            out += line.concat().trim_end();
            out.push('\n');
        }
        for e in game.events().iter().filter(|e| e.turn == snap.turn) {
            out += &event_text(game, e, names);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::roborunner::ai::{BuiltinAi, run_game};
    use crate::games::roborunner::engine::{Rules, Setup};
    use crate::games::roborunner::play::replay;
    use crate::games::roborunner::ships;

    /// A four-seat game on `ship`, its trace kept.
    fn traced(ship: &str, seed: u64) -> (Game, Value) {
        let setup = Setup {
            ship: ships::load(ship).unwrap(),
            seats: 4,
            seed,
            rules: Rules::default(),
        };
        let mut played = Game::new(&setup).unwrap();
        let mut players: Vec<_> = [BuiltinAi::Runner, BuiltinAi::Random]
            .iter()
            .cycle()
            .take(4)
            .enumerate()
            .map(|(seat, ai)| ai.player(seed, seat))
            .collect();
        run_game(&mut played, &mut players).unwrap();
        // Replayed from its decisions, as a replay's view is made.
        let mut game = Game::new(&setup).unwrap();
        game.keep_snapshots();
        replay(&mut game, played.decisions()).unwrap();
        let trace = trace(&game);
        (game, trace)
    }

    #[test]
    fn the_trace_describes_the_ship_square_by_square_and_ends_with_the_scores() {
        let (game, trace) = traced("hull-walk", 3);
        let squares = trace["ship"]["squares"].as_array().unwrap();
        assert_eq!(squares.len(), 12 * 12);
        // Row 5 of hull-walk: `Xp . L24 ...`, a bay closed in phases 2 and 4.
        let bay = &squares[5 * 12 + 2];
        assert_eq!(bay["type"], "bay");
        assert_eq!(bay["closed"], json!([2, 4]));
        assert_eq!(trace["ship"]["cells"][5 * 12 + 2], "L24");
        assert_eq!(trace["scores"], json!(game.scores()));
    }

    /// (robot turns with a way, robot turns on the ship at the start, pulls: a robot moved in
    /// a phase whose chip moves nothing, by a beam, an arm or a transporter, transports of
    /// robots with a way).
    fn ways_of(trace: &Value) -> (usize, usize, usize, usize) {
        let steps = trace["steps"].as_array().unwrap();
        let airlock = trace["ship"]["squares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["type"] == "airlock")
            .map(|q| json!([q["x"], q["y"]]))
            .unwrap();
        let (mut ways, mut active, mut pulls, mut transported) = (0, 0, 0, 0);
        for (i, step) in steps.iter().enumerate().skip(1) {
            // A turn in which no robot was asked is played within another.
            let Some(step_ways) = step["ways"].as_array() else {
                continue;
            };
            for (seat, way) in step_ways.iter().enumerate() {
                let start = &steps[i - 1]["robots"][seat];
                let dispatched = step["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["kind"] == "dispatch" && e["robot"] == json!(seat));
                if start["status"] != "active" && !dispatched {
                    // Off the ship all turn: nowhere after any phase.
                    assert!(way.as_array().unwrap().iter().all(Value::is_null), "{way}");
                    continue;
                }
                active += 1;
                let Some(way) = way.as_array() else { continue };
                ways += 1;
                let end = &step["robots"][seat];
                let last = &way[4];
                if end["status"] == "active" {
                    assert_eq!(*last, json!([end["x"], end["y"], end["facing"]]));
                } else {
                    assert!(last.is_null());
                }
                // A transport ends its robot's moves in a phase: the way agrees with the
                // game's own event (or the robot fell or burnt out after it).
                for e in step["events"].as_array().unwrap() {
                    if e["kind"] == "transport" && e["robot"] == json!(seat) {
                        let pose = &way[e["phase"].as_u64().unwrap() as usize - 1];
                        assert!(
                            pose.is_null() || json!([pose[0], pose[1]]) == e["to"],
                            "{e}"
                        );
                        transported += 1;
                    }
                }
                let mut at = if dispatched {
                    airlock.clone()
                } else {
                    json!([start["x"], start["y"]])
                };
                for (p, pose) in way.iter().enumerate() {
                    let Some(pose) = pose.as_array() else { break };
                    let here = json!([pose[0], pose[1]]);
                    let chip = end["last"][p].as_str().unwrap_or("-");
                    if here != at && matches!(chip, "L" | "R" | "U" | "-") {
                        pulls += 1;
                    }
                    at = here;
                }
            }
        }
        (ways, active, pulls, transported)
    }

    #[test]
    fn every_robot_on_the_ship_has_its_way_and_elements_move_it() {
        let (mut ways, mut active, mut pulls, mut transported) = (0, 0, 0, 0);
        for seed in 12..22 {
            let (w, a, p, t) = ways_of(&traced("twin-bays", seed).1);
            (ways, active, pulls, transported) = (ways + w, active + a, pulls + p, transported + t);
        }
        assert_eq!(ways, active, "{ways} ways of {active} robot turns");
        assert!(pulls > 0, "no robot moved by the ship in a phase");
        assert!(transported > 0, "no robot was transported");
    }

    #[test]
    fn every_transport_of_a_turn_is_a_link_of_its_step() {
        let mut transports = 0;
        for seed in 4..12 {
            let (_, trace) = traced("twin-bays", seed);
            for step in trace["steps"].as_array().unwrap() {
                for e in step["events"].as_array().unwrap() {
                    if e["kind"] == "transport" {
                        transports += 1;
                        let link = json!({"from": e["from"], "to": e["to"]});
                        assert!(step["links"].as_array().unwrap().contains(&link), "{e}");
                        assert!((1..=5).contains(&e["phase"].as_u64().unwrap()));
                    }
                }
            }
        }
        assert!(transports > 0, "no game used a transporter");
    }
}

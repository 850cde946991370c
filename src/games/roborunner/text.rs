//! A game told as text and as a trace (RN18.3): the ship's grid tokens with the robots over
//! them, turn by turn, and each turn's events.

use super::engine::{
    Event, EventKind, Game, Pending, REGISTERS, Reply, Robot, State, chip_json, score_of,
};
use crate::games::shared::grid::{Direction, Pos};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A robot as replays and scenarios show it (`seat` for its name).
pub fn robot_json(game: &Game, seat: usize, r: &Robot, rank: usize) -> Value {
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

/// Where a robot stands and faces.
type Pose = (Pos, Direction);

/// Each robot's square and facing after each phase of a turn, where a replay can know it.
/// The engine keeps the robots at a turn's end only, so a robot's way through a turn is its
/// simulation alone on the ship (the engine's own, as RN18.2's `runner` uses it: from the
/// turn's start, with the chips it ran and the facing it chose), kept only when it agrees
/// with the game played: after every phase the same inspections and welds and the robot
/// still on the ship or not, and at the turn's end the same state, square and facing. A
/// robot whose turn another changed (a push, a beam blocked, a weld, a link learned in the
/// turn, which the simulation takes as a fall) fails that check and has no way for the turn.
#[derive(Debug, Default)]
pub struct Ways {
    /// By turn: per seat, its pose after phases 1 to 5 (`None` once off the ship), or none.
    turns: BTreeMap<u16, Vec<Option<[Option<Pose>; REGISTERS]>>>,
}

impl Ways {
    /// The ways of the turn `before` waits the `replies` for, which made `after` (with its
    /// snapshots kept).
    pub fn add_turn(&mut self, before: &Game, replies: &[Reply], after: &Game) {
        let turn = before.turn();
        let Pending::Decisions(queries) = before.pending() else {
            return;
        };
        let Some(end) = after.snapshots().iter().find(|s| s.turn == turn) else {
            return;
        };
        let events: Vec<&Event> = after.events().iter().filter(|e| e.turn == turn).collect();
        let ways = (0..before.robots().len())
            .map(|r| {
                if !before.robots()[r].is_active() {
                    return None;
                }
                // RN6.2: a fault's replacement faces N.
                let faulted = events
                    .iter()
                    .any(|e| e.robot == r && matches!(e.kind, EventKind::Fault(_)));
                let facing = queries
                    .iter()
                    .position(|q| q.seat == r)
                    .and_then(|i| match &replies[i] {
                        Reply::Answer(a) if !faulted => a.facing,
                        _ => None,
                    })
                    .unwrap_or(Direction::North);
                way_alone(before, r, facing, &end.robots[r], &events)
            })
            .collect();
        self.turns.insert(turn, ways);
    }

    fn json_of(&self, turn: u16) -> Value {
        let pose = |p: &Option<Pose>| {
            p.map_or(Value::Null, |(at, f)| {
                json!([at.x, at.y, f.letter().to_string()])
            })
        };
        self.turns.get(&turn).map_or(Value::Null, |ways| {
            ways.iter()
                .map(|w| {
                    w.as_ref()
                        .map_or(Value::Null, |w| w.iter().map(pose).collect())
                })
                .collect()
        })
    }
}

/// Robot `r`'s way through the turn `before` waits for, simulated alone facing `facing` if
/// dispatched, with the chips `end` (the robot after the turn) ran; `None` unless it agrees
/// with the turn's `events` and with `end`.
fn way_alone(
    before: &Game,
    r: usize,
    facing: Direction,
    end: &Robot,
    events: &[&Event],
) -> Option<[Option<Pose>; REGISTERS]> {
    let start = &before.robots()[r];
    let mut alone = before.alone(r);
    if before.dispatched(r) {
        alone.sim_face(facing);
    }
    let mut way = [None; REGISTERS];
    for p in 1..=REGISTERS as u8 {
        alone.sim_phase(p, end.last[p as usize - 1]);
        let a = &alone.robots()[0];
        let count = |of: fn(&EventKind) -> bool| {
            events
                .iter()
                .filter(|e| e.robot == r && (1..=p).contains(&e.phase) && of(&e.kind))
                .count() as u32
        };
        let inspected = count(|k| matches!(k, EventKind::Inspect { .. }));
        let welded = count(|k| matches!(k, EventKind::Weld { .. }));
        let left = count(|k| matches!(k, EventKind::Destroyed { .. } | EventKind::Finish { .. }));
        if a.inspections - start.inspections != inspected
            || a.welds - start.welds != welded
            || a.is_active() != (left == 0)
        {
            return None;
        }
        way[p as usize - 1] = a.is_active().then_some((a.pos, a.facing));
    }
    let a = &alone.robots()[0];
    let agrees =
        a.state == end.state && (!a.is_active() || (a.pos, a.facing) == (end.pos, end.facing));
    agrees.then_some(way)
}

/// The trace the viewer draws and `replay --json` prints: the ship (its grid tokens and,
/// square by square, what bots are told in `hello`: type, beam warp and way, transporter
/// network, the phases a bay is closed, the rails and the phases a slide rail is open), the
/// final scores, then a step per turn with the robots, the hull, the links, the turn's
/// events (each with its phase, so the viewer can tell a turn phase by phase) and `ways`:
/// per seat `[x, y, facing]` after each phase (null once off the ship), or null where
/// `ways` has none.
pub fn trace(game: &Game, ways: &Ways) -> Value {
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
        steps.push(json!({
            "turn": snap.turn,
            "robots": snap.robots.iter().enumerate()
                .map(|(s, r)| robot_json(game, s, r, rank_of(&snap.order, s)))
                .collect::<Vec<_>>(),
            "hull": hull_json(&snap.hull),
            "links": links_json(&snap.links),
            "events": events,
            "ways": ways.json_of(snap.turn),
        }));
    }
    json!({
        "ship": ship_json,
        "scores": game.scores(),
        "steps": steps,
    })
}

/// One event in words.
fn event_text(e: &Event, names: &[String]) -> String {
    let name = |s: usize| Value::from(names.get(s).cloned().unwrap_or_else(|| format!("seat {s}")));
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
                            if r.virtual_ {
                                format!("({})", s + 1)
                            } else {
                                format!("{}{}", s + 1, r.facing.letter())
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
            out += &event_text(e, names);
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
    use crate::games::roborunner::play::replay_turns;
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
        let mut ways = Ways::default();
        replay_turns(
            &mut game,
            played.decisions(),
            Some(&mut |before, replies, after| ways.add_turn(before, replies, after)),
        )
        .unwrap();
        let trace = trace(&game, &ways);
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
                    assert!(way.is_null());
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
    fn most_robots_have_their_way_through_a_turn_and_elements_move_them() {
        let (mut ways, mut active, mut pulls, mut transported) = (0, 0, 0, 0);
        // Seeds whose games reuse a link a robot learned in an earlier turn.
        for seed in 12..22 {
            let (w, a, p, t) = ways_of(&traced("twin-bays", seed).1);
            (ways, active, pulls, transported) = (ways + w, active + a, pulls + p, transported + t);
        }
        assert!(
            ways * 10 >= active * 7,
            "{ways} ways of {active} robot turns"
        );
        assert!(pulls > 0, "no robot moved by the ship in a phase");
        assert!(transported > 0, "no robot with a way was transported");
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

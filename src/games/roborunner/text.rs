//! A game told as text and as a trace (RN18.3): the ship's grid tokens with the robots over
//! them, turn by turn, and each turn's events.

use super::engine::{Event, Game, Robot, State, chip_json, score_of};
use crate::games::shared::grid::Pos;
use serde_json::{Value, json};

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

/// The trace the viewer draws and `replay --json` prints: the ship (its grid tokens and,
/// square by square, what bots are told in `hello`: type, beam warp and way, transporter
/// network, the phases a bay is closed, the rails and the phases a slide rail is open), the
/// final scores, then a step per turn with the robots, the hull, the links and the turn's
/// events (each with its phase, so the viewer can tell a turn phase by phase).
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
        steps.push(json!({
            "turn": snap.turn,
            "robots": snap.robots.iter().enumerate()
                .map(|(s, r)| robot_json(game, s, r, rank_of(&snap.order, s)))
                .collect::<Vec<_>>(),
            "hull": hull_json(&snap.hull),
            "links": links_json(&snap.links),
            "events": events,
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
    use crate::games::roborunner::ships;

    /// A four-seat game on `ship`, its trace kept.
    fn traced(ship: &str, seed: u64) -> (Game, Value) {
        let setup = Setup {
            ship: ships::load(ship).unwrap(),
            seats: 4,
            seed,
            rules: Rules::default(),
        };
        let mut game = Game::new(&setup).unwrap();
        game.keep_snapshots();
        let mut players: Vec<_> = [BuiltinAi::Runner, BuiltinAi::Random]
            .iter()
            .cycle()
            .take(4)
            .enumerate()
            .map(|(seat, ai)| ai.player(seed, seat))
            .collect();
        run_game(&mut game, &mut players).unwrap();
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

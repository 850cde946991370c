//! A game told as text and as a trace (RN18.3): the ship's grid tokens with the robots over
//! them, turn by turn, and each turn's events.

use super::engine::{Event, Game, Robot, State, chip_json, score_of};
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

/// The trace the viewer draws and `replay --json` prints: the ship, then a step per turn
/// with the robots, the hull, the links and the turn's events.
pub fn trace(game: &Game) -> Value {
    let ship = game.ship();
    let cells: Vec<&str> = ship
        .grid
        .split([' ', '\n'])
        .filter(|t| !t.is_empty())
        .collect();
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
        });
        if !game.scanners().is_empty() {
            step["scanners"] = robots(true).into();
        }
        steps.push(step);
    }
    json!({
        "ship": {"name": ship.name, "width": ship.width(), "height": ship.height(), "cells": cells},
        "steps": steps,
    })
}

/// A robot's name in words: its player's, `seat N` without one, `scanner N` for a scanner.
fn robot_name(game: &Game, names: &[String], r: usize) -> String {
    let seats = game.robots().len();
    if r >= seats {
        format!("scanner {}", r - seats)
    } else {
        names.get(r).cloned().unwrap_or_else(|| format!("seat {r}"))
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

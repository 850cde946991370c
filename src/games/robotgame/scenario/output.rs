//! Renders an [`Outcome`] as the RG8 JSON object: `game`, `turns_played`, `robots`, `events`
//! and `scores`.
//!
//! This is the format the rules tests compare, so it is built field by field rather than
//! derived from engine types that may grow. Every event has `turn`, `kind`, `robot`, `victim`
//! and `damage` (null where they do not apply) plus the few fields its kind needs; every
//! score has the seat's statistics beside it.

use super::Outcome;
use crate::games::robotgame::types::{Event, EventKind, RobotId};
use serde_json::{Map, Value, json};

impl Outcome {
    /// The RG8 JSON object.
    pub fn to_json(&self) -> Value {
        let robots: Vec<Value> = self
            .game
            .robots()
            .iter()
            .map(|r| {
                let pos = r.pos();
                json!({"id": r.id.0, "seat": r.seat.0, "x": pos.x, "y": pos.y,
                       "hp": r.hp, "alive": r.alive})
            })
            .collect();
        let scores: Vec<Value> = self
            .game
            .scores()
            .iter()
            .zip(self.game.stats())
            .enumerate()
            .map(|(seat, (score, stats))| {
                json!({"seat": seat, "score": score, "damage_dealt": stats.damage_dealt,
                       "kills": stats.kills, "faults": stats.faults})
            })
            .collect();
        json!({
            "game": "robotgame",
            "turns_played": self.game.turns_played(),
            "robots": robots,
            "events": self.events.iter().map(event_json).collect::<Vec<_>>(),
            "scores": scores,
        })
    }
}

fn id(robot: Option<RobotId>) -> Value {
    robot.map_or(Value::Null, |r| json!(r.0))
}

fn event_json(e: &Event) -> Value {
    let mut m = Map::new();
    m.insert("turn".into(), json!(e.turn));
    m.insert("kind".into(), json!(e.kind.name()));
    let (robot, victim, damage) = match e.kind {
        EventKind::Fault { robot, .. } => (robot, None, None),
        EventKind::Collision {
            robot,
            victim,
            damage,
        } => (Some(robot), Some(victim), Some(damage)),
        EventKind::Attack {
            robot,
            victim,
            damage,
            ..
        }
        | EventKind::Suicide {
            robot,
            victim,
            damage,
        } => (Some(robot), victim, Some(damage)),
        EventKind::Death { robot, .. }
        | EventKind::SpawnKill { robot }
        | EventKind::Spawn { robot, .. } => (Some(robot), None, None),
    };
    m.insert("robot".into(), id(robot));
    m.insert("victim".into(), id(victim));
    m.insert("damage".into(), damage.map_or(Value::Null, |d| json!(d)));
    match e.kind {
        EventKind::Fault { seat, fault, .. } => {
            m.insert("seat".into(), json!(seat.0));
            m.insert("fault".into(), json!(fault.name()));
        }
        EventKind::Attack { target, .. } => {
            m.insert("target".into(), json!([target.x, target.y]));
        }
        EventKind::Death { killer, .. } => {
            m.insert("killer".into(), id(killer));
        }
        EventKind::Spawn { seat, pos, .. } => {
            m.insert("seat".into(), json!(seat.0));
            m.insert("x".into(), json!(pos.x));
            m.insert("y".into(), json!(pos.y));
        }
        _ => {}
    }
    Value::Object(m)
}

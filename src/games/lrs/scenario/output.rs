//! Renders an [`Outcome`] as the JSON object of docs/scenarios.md: `turns_played`, `game_over`,
//! `robots` and `events`, with robots named rather than numbered.
//!
//! This is the format the rules tests compare, so it is built explicitly field by field
//! rather than derived from engine types that may grow.

use super::run::Outcome;
use crate::games::lrs::engine::{Event, EventKind, Robot, Status};
use serde_json::{Map, Value, json};

impl Outcome {
    /// The docs/scenarios.md JSON object.
    pub fn to_json(&self) -> Value {
        let robots: Vec<Value> = self
            .game
            .robots()
            .iter()
            .enumerate()
            .map(|(seat, r)| robot_json(self.name(seat), r))
            .collect();
        let events: Vec<Value> = self
            .game
            .events()
            .iter()
            .map(|e| self.event_json(e))
            .collect();
        json!({
            "turns_played": self.turns_played,
            "game_over": self.game.is_over(),
            "robots": robots,
            "events": events,
        })
    }

    fn name(&self, seat: usize) -> &str {
        self.names.get(seat).map_or("?", String::as_str)
    }

    fn event_json(&self, e: &Event) -> Value {
        let mut m = Map::new();
        m.insert("turn".into(), json!(e.turn));
        m.insert("kind".into(), json!(e.kind.name()));
        m.insert("robot".into(), json!(self.name(e.robot)));
        if let Some(victim) = e.victim {
            m.insert("victim".into(), json!(self.name(victim)));
        }
        if is_scoring(e.kind) {
            m.insert("points".into(), json!(e.points));
        }
        if let Some(cause) = e.cause {
            m.insert("cause".into(), json!(cause.name()));
        }
        if let Some(flag) = e.flag {
            m.insert("flag".into(), json!(flag));
        }
        Value::Object(m)
    }
}

/// Whether events of this kind change a score (R14) and so carry `points`.
fn is_scoring(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::Hit
            | EventKind::Push
            | EventKind::PushKill
            | EventKind::Flag
            | EventKind::SurvivorBonus
    )
}

fn robot_json(name: &str, r: &Robot) -> Value {
    let active = r.status == Status::Active;
    json!({
        "name": name,
        "status": r.status.name(),
        "x": active.then_some(r.pos.x),
        "y": active.then_some(r.pos.y),
        "facing": active.then(|| r.facing.letter().to_string()),
        "damage": r.damage,
        "lives": r.lives,
        "score": r.score,
        "next_flag": r.next_flag,
        "archive": [r.archive.x, r.archive.y],
        "power": r.power.label(),
    })
}

//! Renders an [`Outcome`] as the RB7 JSON object.
//!
//! This is the format the rules tests compare, so it is built field by field rather than
//! derived from engine types that may grow. Robots and heaps are listed sorted by `[x, y]`,
//! so an expected file does not depend on the order robots are kept in.

use super::Outcome;
use crate::games::robots::protocol::xy;
use crate::games::robots::types::{Event, Status};
use serde_json::{Value, json};

impl Outcome {
    /// The RB7 JSON object.
    pub fn to_json(&self) -> Value {
        let b = &self.board;
        json!({
            "game": "robots",
            "turns_played": b.turns(),
            "level": b.level(),
            "alive": b.status() != Status::Dead,
            "player": b.player().map_or(Value::Null, xy),
            "robots": b.robots().into_iter().map(xy).collect::<Vec<_>>(),
            "heaps": b.heaps().into_iter().map(xy).collect::<Vec<_>>(),
            "kills": b.kills(),
            "score": b.score(),
            "teleports": b.teleports(),
            "can_blast": b.can_blast(),
            "events": self.events.iter().map(event_json).collect::<Vec<_>>(),
        })
    }
}

fn event_json(e: &Event) -> Value {
    json!({"turn": e.turn, "kind": e.kind.name(), "detail": e.kind.detail()})
}

//! Defines [`trace`]: a RobotGame rebuilt turn by turn from its setup and decision log, as
//! the JSON replay that `play --game robotgame --replay DIR` writes and the viewer draws.
//!
//! The decision log is the game (the engine is a function of it and the seed), so the trace
//! is made by replaying it, never by recording a game as it was played: what a replay
//! shows is what the log reproduces.

use super::engine::{Game, GameError, Setup};
use super::log::DecisionLog;
use super::types::{EventKind, Order};
use serde_json::{Value, json};

fn order_json(order: Order) -> Value {
    let dir = |d: super::types::Dir| d as u8;
    match order {
        Order::Guard => json!({"action": "guard"}),
        Order::Suicide => json!({"action": "suicide"}),
        Order::Move(d) => json!({"action": "move", "dir": dir(d)}),
        Order::Attack(d) => json!({"action": "attack", "dir": dir(d)}),
    }
}

fn event_json(kind: &EventKind) -> Value {
    let id = |r: super::types::RobotId| r.0;
    match *kind {
        EventKind::Fault { seat, robot, fault } => {
            json!({"kind": "fault", "seat": seat.0, "robot": robot.map(id), "fault": fault.name()})
        }
        EventKind::Collision {
            robot,
            victim,
            damage,
        } => {
            json!({"kind": "collision", "robot": id(robot), "victim": id(victim), "damage": damage})
        }
        EventKind::Attack {
            robot,
            target,
            victim,
            damage,
        } => {
            json!({"kind": "attack", "robot": id(robot), "target": [target.x, target.y], "victim": victim.map(id), "damage": damage})
        }
        EventKind::Suicide {
            robot,
            victim,
            damage,
        } => {
            json!({"kind": "suicide", "robot": id(robot), "victim": victim.map(id), "damage": damage})
        }
        EventKind::Death { robot, killer } => {
            json!({"kind": "death", "robot": id(robot), "killer": killer.map(id)})
        }
        EventKind::SpawnKill { robot } => json!({"kind": "spawn_kill", "robot": id(robot)}),
        EventKind::Spawn { robot, seat, pos } => {
            json!({"kind": "spawn", "robot": id(robot), "seat": seat.0, "pos": [pos.x, pos.y]})
        }
    }
}

/// The whole game as JSON: `arena` (`size`, `obstacles`, `spawn`), `seats`, and `steps`,
/// one per turn: `turn`, `orders` (each robot's checked action: `robot`, `action`, and
/// `dir` 0..3 = N, E, S, W for moves and attacks), `events`, `robots` after the turn
/// (`id`, `seat`, `x`, `y`, `hp`, living ones only) and `stats` by seat (`score`,
/// `damage_dealt`, `kills`, `faults` so far); then the final `scores`.
pub fn trace(setup: &Setup, log: &DecisionLog) -> Result<Value, GameError> {
    let mut game = Game::new(setup)?;
    let mut steps = Vec::with_capacity(log.turns());
    for turn in log.iter() {
        let orders: Vec<Value> = turn
            .decisions
            .iter()
            .map(|d| {
                let mut o = order_json(d.order);
                o["robot"] = json!(d.robot.0);
                o
            })
            .collect();
        let events: Vec<Value> = game
            .replay_turn(&turn)?
            .iter()
            .map(|e| event_json(&e.kind))
            .collect();
        steps.push(json!({
            "turn": turn.turn,
            "orders": orders,
            "events": events,
            "robots": robots_json(&game),
            "stats": stats_json(&game),
        }));
    }
    Ok(json!({
        "game": "robotgame",
        "seed": setup.seed,
        "engine_version": super::ENGINE_VERSION,
        "arena": super::protocol::arena_json(),
        "steps": steps,
        "scores": game.scores(),
    }))
}

fn robots_json(game: &Game) -> Value {
    game.alive()
        .iter()
        .filter_map(|&id| game.robot(id))
        .map(|r| json!({"id": r.id.0, "seat": r.seat.0, "x": r.sq.x(), "y": r.sq.y(), "hp": r.hp}))
        .collect()
}

fn stats_json(game: &Game) -> Value {
    let scores = game.scores();
    game.stats()
        .iter()
        .zip(scores)
        .map(|(s, score)| {
            json!({"score": score, "damage_dealt": s.damage_dealt, "kills": s.kills, "faults": s.faults})
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::robotgame::types::Seat;
    use crate::games::robotgame::{BuiltinAi, run_game};

    #[test]
    fn the_trace_ends_with_the_played_games_scores() {
        let setup = Setup::standard(3, 17);
        let mut game = Game::new(&setup).unwrap();
        let mut players: Vec<_> = (0..3)
            .map(|s| BuiltinAi::Hunter.player(17, Seat(s)))
            .collect();
        run_game(&mut game, &mut players).unwrap();
        let t = trace(&setup, game.log()).unwrap();
        assert_eq!(t["scores"], json!(game.scores()));
        assert_eq!(t["steps"].as_array().unwrap().len(), 100);
        let last = &t["steps"][99]["robots"];
        assert_eq!(last.as_array().unwrap().len(), game.alive().len());
        assert_eq!(t["arena"]["obstacles"].as_array().unwrap().len(), 136);
    }
}

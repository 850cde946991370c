//! Parses a RobotGame scenario file into a checked [`Scenario`]: the top-level keys, the
//! `[[robot]]` tables and the `[[turn]]` tables.
//!
//! The TOML is read as a spanned document (`toml::de::DeTable`) rather than through serde
//! derives, so that every message can point at the exact key or value. Everything the
//! engine would refuse is checked here, where the file position is still known.

use super::Scenario;
use super::error::{Problem, ScenarioError};
use super::source::{Fields, Source, Span};
use crate::games::robotgame::arena::{ARENA, Sq};
use crate::games::robotgame::engine::{MAX_HP, MAX_SEATS, Placement, Settings, Setup, TURNS};
use crate::games::robotgame::types::{Action, Pos, RobotId, Seat};
use toml::de::{DeTable, DeValue};

const TOP_KEYS: &[&str] = &[
    "game",
    "seed",
    "first_turn",
    "spawn",
    "attack_damage",
    "robot",
    "turn",
];
const TOP_EXPECTED: &str = "game, seed, first_turn, spawn, attack_damage, [[robot]] and [[turn]]";
const ROBOT_KEYS: &[&str] = &["seat", "x", "y", "hp"];
const ROBOT_EXPECTED: &str = "seat, x, y and hp";

/// Parses and checks scenario `text`; `file` names it in messages.
pub fn parse_scenario(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::new(src, doc, "the scenario", TOP_KEYS, TOP_EXPECTED)?;
    let game = top.require("game", top.string("game")?, &(0..0), "game = \"robotgame\"")?;
    if game.0 != "robotgame" {
        let found = game.0.to_string();
        return Err(src.error(&game.1, Problem::NotRobotGame { found }));
    }
    let seed = top
        .integer("seed", 0..=i64::MAX)?
        .map_or(0, |(n, _)| n as u64);
    let first_turn = top
        .integer("first_turn", 0..=i64::from(TURNS) - 1)?
        .map_or(1, |(n, _)| n as u8);
    let spawn = top.boolean("spawn")?.is_none_or(|(b, _)| b);
    let attack_damage = top
        .integer("attack_damage", 0..=1000)?
        .map(|(n, _)| n as i32);
    let robots = parse_robots(src, doc)?;
    let turns = parse_turns(src, doc)?;
    let seats = robots.iter().map(|r| r.seat.0).max().unwrap_or(0) + 1;
    Ok(Scenario {
        file: file.to_string(),
        setup: Setup {
            seats,
            seed,
            first_turn,
            settings: Settings {
                spawn,
                attack_damage,
            },
            robots,
        },
        turns,
    })
}

/// Reads every `[[robot]]` table: ids follow table order.
fn parse_robots(src: Source<'_>, doc: &DeTable<'_>) -> Result<Vec<Placement>, ScenarioError> {
    let Some(value) = doc.get("robot") else {
        return Err(src.error(&(0..0), Problem::NoRobots));
    };
    let list = src.tables("robot", value, "an array of tables written [[robot]]")?;
    if list.is_empty() {
        return Err(src.error(&value.span(), Problem::NoRobots));
    }
    let mut placed: Vec<(Placement, Span)> = Vec::with_capacity(list.len());
    for (id, (table, span)) in list.into_iter().enumerate() {
        let f = Fields::new(
            src,
            table,
            format!("[[robot]] #{id}"),
            ROBOT_KEYS,
            ROBOT_EXPECTED,
        )?;
        let last = MAX_SEATS as i64 - 1;
        let (seat, _) = f.require("seat", f.integer("seat", 0..=last)?, &span, "seat = 0..=7")?;
        let (x, x_span) = f.require("x", f.integer("x", 0..=18)?, &span, "x = 0..=18")?;
        let (y, _) = f.require("y", f.integer("y", 0..=18)?, &span, "y = 0..=18")?;
        let hp = f
            .integer("hp", 1..=i64::from(MAX_HP))?
            .map_or(MAX_HP, |(n, _)| n as i32);
        let pos = Pos::new(x as i32, y as i32);
        if !Sq::from_pos(pos).is_some_and(|s| ARENA.is_walkable(s)) {
            return Err(src.error(&x_span, Problem::Obstacle { id, x, y }));
        }
        if let Some(first) = placed.iter().position(|(p, _)| p.pos == pos) {
            let second = id;
            return Err(src.error(
                &x_span,
                Problem::SameSquare {
                    first,
                    second,
                    x,
                    y,
                },
            ));
        }
        let seat = Seat(seat as u8);
        placed.push((Placement { seat, pos, hp }, x_span));
    }
    Ok(placed.into_iter().map(|(p, _)| p).collect())
}

/// Reads every `[[turn]]` table: per turn, the actions in file order.
fn parse_turns(
    src: Source<'_>,
    doc: &DeTable<'_>,
) -> Result<Vec<Vec<(RobotId, Action)>>, ScenarioError> {
    let Some(value) = doc.get("turn") else {
        return Ok(Vec::new());
    };
    let mut turns = Vec::new();
    for (table, _) in src.tables("turn", value, "an array of tables written [[turn]]")? {
        let mut entries: Vec<_> = table.iter().collect();
        entries.sort_by_key(|(k, _)| k.span().start);
        let mut actions = Vec::with_capacity(entries.len());
        for (key, value) in entries {
            let name: &str = key.get_ref();
            let id = name.parse::<u16>().map_err(|_| {
                let found = name.to_string();
                src.error(&key.span(), Problem::BadRobotKey { found })
            })?;
            let DeValue::String(text) = value.get_ref() else {
                let key = format!("the action of robot {id}");
                return Err(src.wrong_type(&key, value, "a string such as \"move 9 5\""));
            };
            let action = parse_action(text).ok_or_else(|| {
                let found = text.to_string();
                src.error(&value.span(), Problem::BadAction { found })
            })?;
            actions.push((RobotId(id), action));
        }
        turns.push(actions);
    }
    Ok(turns)
}

/// `"move X Y"`, `"attack X Y"`, `"guard"` or `"suicide"`, words separated by spaces. The
/// coordinates may be anywhere: an unreachable target is the engine's to refuse (RG2.3).
pub fn parse_action(text: &str) -> Option<Action> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let pos = |x: &str, y: &str| Some(Pos::new(x.parse().ok()?, y.parse().ok()?));
    match words.as_slice() {
        ["guard"] => Some(Action::Guard),
        ["suicide"] => Some(Action::Suicide),
        ["move", x, y] => pos(x, y).map(Action::Move),
        ["attack", x, y] => pos(x, y).map(Action::Attack),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_have_four_forms() {
        assert_eq!(parse_action("guard"), Some(Action::Guard));
        assert_eq!(parse_action(" suicide "), Some(Action::Suicide));
        assert_eq!(parse_action("move 9 5"), Some(Action::Move(Pos::new(9, 5))));
        assert_eq!(
            parse_action("attack -1 40"),
            Some(Action::Attack(Pos::new(-1, 40)))
        );
        for bad in [
            "",
            "Move 9 5",
            "move 9",
            "move 9 5 1",
            "attack x 5",
            "guard 1",
        ] {
            assert_eq!(parse_action(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text =
            "game = \"robotgame\"\n[[robot]]\nseat = 0\nx = 9\ny = 9\n[[turn]]\n0 = \"jump\"\n";
        let err = parse_scenario(text, "t.toml").err().map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.starts_with("t.toml:7:5: bad action \"jump\""), "{err}");
    }
}

//! Parses the script of a scenario: the `[[turn]]` tables (cards by robot name) and the
//! `[[reentry]]` tables (re-entry choices).
//!
//! Cards are written `MOVE@PRIORITY` (`"F2@500"`), alone or as `{ card = ..., power_down =
//! true }`; a table without `card` answers no card (`{ power_down = true }` stays and powers
//! down, R5.3; without the power-down it is a fault), with an optional `priority` for a
//! locked robot's card. Priorities must be unique within a turn; robot names must be known.
//! Both are checked here so that the runner only replays what the file says.

use super::ScenarioError;
use super::error::Problem;
use super::model::ReentryChoice;
use super::robots::NamedRobot;
use super::source::{Fields, LrsFields, Source, Span};
use crate::games::lrs::engine::{Card, Move, PlayedCard, Pos, Scripted, Seat};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

const CARD_KEYS: &[&str] = &["card", "power_down", "priority"];
const REENTRY_KEYS: &[&str] = &["name", "x", "y", "facing"];

/// Reads every `[[turn]]` table: per turn, one card slot per seat.
pub(super) fn parse_turns(
    src: Source<'_>,
    doc: &DeTable<'_>,
    robots: &[NamedRobot],
) -> Result<Vec<Vec<Option<Scripted>>>, ScenarioError> {
    let Some(value) = doc.get("turn") else {
        return Ok(Vec::new());
    };
    src.tables("turn", value, "an array of tables written [[turn]]")?
        .into_iter()
        .map(|(table, _)| parse_turn(src, table, robots))
        .collect()
}

fn parse_turn(
    src: Source<'_>,
    table: &DeTable<'_>,
    robots: &[NamedRobot],
) -> Result<Vec<Option<Scripted>>, ScenarioError> {
    // File order, so that the first problem in the file is the one reported.
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    let mut cards = vec![None; robots.len()];
    let mut used: Vec<(u16, Seat, Span)> = Vec::new();
    for (key, value) in entries {
        let name: &str = key.get_ref();
        let seat = seat_of(src, robots, name, &key.span())?;
        let (played, span) = parse_played(src, name, value)?;
        // A no-card answer without a priority takes part in no priority check.
        let Some(span) = span else {
            cards[seat] = Some(played);
            continue;
        };
        let priority = priority_of(&played);
        if let Some((_, other, other_span)) = used.iter().find(|u| u.0 == priority) {
            let (other_line, other_column) = src.line_col(other_span.start);
            return Err(src.error(
                &span,
                Problem::DuplicatePriority {
                    priority,
                    other: robots[*other].name.clone(),
                    other_line,
                    other_column,
                },
            ));
        }
        used.push((priority, seat, span));
        cards[seat] = Some(played);
    }
    Ok(cards)
}

/// The priority an answer carries (for a no-card answer, its locked card's).
fn priority_of(answer: &Scripted) -> u16 {
    match answer {
        Scripted::Card(p) => p.card.priority,
        Scripted::NoCard { priority, .. } => *priority,
    }
}

/// A card entry: `"F2@500"`, `{ card = "F2@500", power_down = true }`, or a table without
/// `card`: no card, with `power_down` and an optional `priority`. Returns the answer and the
/// span of its priority (the `MOVE@PRIORITY` string or the `priority` value), if it has one.
fn parse_played(
    src: Source<'_>,
    name: &str,
    value: &Spanned<DeValue<'_>>,
) -> Result<(Scripted, Option<Span>), ScenarioError> {
    match value.get_ref() {
        DeValue::String(s) => {
            let card = card(src, s, &value.span())?;
            let played = PlayedCard {
                card,
                power_down: false,
            };
            Ok((Scripted::Card(played), Some(value.span())))
        }
        DeValue::Table(t) => {
            let f = Fields::new(
                src,
                t,
                format!("the card of {name:?}"),
                CARD_KEYS,
                "card, power_down and priority",
            )?;
            let power_down = f.boolean("power_down")?.is_some_and(|(b, _)| b);
            let priority = f.integer("priority", 0..=i64::from(u16::MAX))?;
            match (f.string("card")?, priority) {
                (Some((text, span)), None) => {
                    let card = card(src, text, &span)?;
                    Ok((Scripted::Card(PlayedCard { card, power_down }), Some(span)))
                }
                (Some(_), Some((_, span))) => Err(src.error(&span, Problem::PriorityWithCard)),
                (None, priority) => Ok((
                    Scripted::NoCard {
                        power_down,
                        // Checked to fit by the range above.
                        priority: priority.as_ref().map_or(0, |(p, _)| *p as u16),
                    },
                    priority.map(|(_, span)| span),
                )),
            }
        }
        _ => Err(src.wrong_type(
            &format!("the card of {name:?}"),
            value,
            "\"MOVE@PRIORITY\" or { card = \"MOVE@PRIORITY\", power_down = true }",
        )),
    }
}

/// Parses `MOVE@PRIORITY`.
fn card(src: Source<'_>, text: &str, span: &Span) -> Result<Card, ScenarioError> {
    parse_card(text).ok_or_else(|| {
        src.error(
            span,
            Problem::BadCard {
                found: text.to_string(),
            },
        )
    })
}

/// `MOVE@PRIORITY` with MOVE one of F1 F2 F3 B L R U and PRIORITY decimal digits (0..=65535).
pub(super) fn parse_card(text: &str) -> Option<Card> {
    let (mv, priority) = text.split_once('@')?;
    let mv = Move::from_short(mv)?;
    if priority.is_empty() || !priority.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let priority = priority.parse().ok()?;
    Some(Card { mv, priority })
}

/// Reads every `[[reentry]]` table, in file order.
pub(super) fn parse_reentries(
    src: Source<'_>,
    doc: &DeTable<'_>,
    robots: &[NamedRobot],
) -> Result<Vec<ReentryChoice>, ScenarioError> {
    let Some(value) = doc.get("reentry") else {
        return Ok(Vec::new());
    };
    src.tables("reentry", value, "an array of tables written [[reentry]]")?
        .into_iter()
        .enumerate()
        .map(|(i, (table, header))| parse_reentry(src, table, &header, i + 1, robots))
        .collect()
}

fn parse_reentry(
    src: Source<'_>,
    table: &DeTable<'_>,
    header: &Span,
    number: usize,
    robots: &[NamedRobot],
) -> Result<ReentryChoice, ScenarioError> {
    let f = Fields::new(
        src,
        table,
        format!("[[reentry]] #{number}"),
        REENTRY_KEYS,
        "name, x, y and facing",
    )?;
    let (name, name_span) = f.require(
        "name",
        f.string("name")?,
        header,
        "name = \"...\", the name of a [[robot]]",
    )?;
    let seat = seat_of(src, robots, name, &name_span)?;
    let coordinate = i64::from(i32::MIN)..=i64::from(i32::MAX);
    let x = f.integer("x", coordinate.clone())?;
    let y = f.integer("y", coordinate)?;
    let pos = match (x, y) {
        // Both fit in i32 (checked by the range above).
        (Some((x, _)), Some((y, _))) => Some(Pos::new(x as i32, y as i32)),
        (None, None) => None,
        (Some((_, span)), None) => {
            return Err(src.error(
                &span,
                Problem::HalfPosition {
                    given: "x",
                    missing: "y",
                },
            ));
        }
        (None, Some((_, span))) => {
            return Err(src.error(
                &span,
                Problem::HalfPosition {
                    given: "y",
                    missing: "x",
                },
            ));
        }
    };
    let facing = f.facing("facing")?.map(|(d, _)| d);
    Ok(ReentryChoice { seat, pos, facing })
}

/// The seat of the robot called `name`, or an "unknown robot" error at `span`.
fn seat_of(
    src: Source<'_>,
    robots: &[NamedRobot],
    name: &str,
    span: &Span,
) -> Result<Seat, ScenarioError> {
    robots.iter().position(|r| r.name == name).ok_or_else(|| {
        let known = robots
            .iter()
            .map(|r| format!("{:?}", r.name))
            .collect::<Vec<_>>()
            .join(", ");
        src.error(
            span,
            Problem::UnknownRobot {
                name: name.to_string(),
                known,
            },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_are_move_at_priority() {
        let c = parse_card("F2@500").map(|c| (c.mv, c.priority));
        assert_eq!(c, Some((Move::Forward2, 500)));
        assert_eq!(parse_card("U@0").map(|c| c.mv), Some(Move::UTurn));
        for bad in [
            "F2", "F4@100", "F2@", "@100", "F2@-1", "F2@+1", "F2@ 1", "f2@100", "F2@70000",
            "F2@1@2",
        ] {
            assert_eq!(parse_card(bad), None, "{bad}");
        }
    }
}

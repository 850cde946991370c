//! Parses the `[[robot]]` tables of a scenario into placed engine robots.
//!
//! Seat order is the order of the tables. Every placement rule the engine would refuse
//! (off the board, on a pit, two robots on one square) is checked here first, so the error
//! can point at the robot's `x` in the file.

use super::ScenarioError;
use super::error::Problem;
use super::source::{Fields, LrsFields, Source, Span};
use crate::games::lrs::engine::robot::{LOCKED_DAMAGE, POWER_DOWN_TURNS, START_LIVES};
use crate::games::lrs::engine::{Board, Direction, Pos, Power, Robot};
use toml::de::{DeTable, DeValue};

/// Most robots in a scenario (R2.2; scenarios may have fewer than two).
const MAX_ROBOTS: usize = crate::games::lrs::engine::MAX_PLAYERS;

const ROBOT_KEYS: &[&str] = &[
    "name",
    "x",
    "y",
    "facing",
    "damage",
    "lives",
    "next_flag",
    "archive",
    "power",
    "last_card",
];
const ROBOT_EXPECTED: &str =
    "name, x, y, facing, damage, lives, next_flag, archive, power and last_card";

/// A robot of the file with its name and where the name was written.
#[derive(Debug, Clone)]
pub(super) struct NamedRobot {
    pub name: String,
    pub span: Span,
    pub robot: Robot,
}

/// Reads every `[[robot]]` table of the document, in seat order.
pub(super) fn parse_robots(
    src: Source<'_>,
    doc: &DeTable<'_>,
    board: &Board,
) -> Result<Vec<NamedRobot>, ScenarioError> {
    let Some(value) = doc.get("robot") else {
        return Err(src.error(&(0..0), Problem::NoRobots));
    };
    let list = src.tables("robot", value, "an array of tables written [[robot]]")?;
    if list.is_empty() {
        return Err(src.error(&value.span(), Problem::NoRobots));
    }
    if list.len() > MAX_ROBOTS {
        let count = list.len();
        return Err(src.error(&list[MAX_ROBOTS].1, Problem::TooManyRobots { count }));
    }
    let mut robots: Vec<NamedRobot> = Vec::with_capacity(list.len());
    for (i, (table, span)) in list.into_iter().enumerate() {
        let robot = parse_robot(src, table, &span, i + 1, board)?;
        if let Some(first) = robots.iter().find(|r| r.name == robot.name) {
            let (first_line, first_column) = src.line_col(first.span.start);
            return Err(src.error(
                &robot.span,
                Problem::DuplicateName {
                    name: robot.name,
                    first_line,
                    first_column,
                },
            ));
        }
        robots.push(robot);
    }
    check_squares(src, doc, &robots)?;
    Ok(robots)
}

fn parse_robot(
    src: Source<'_>,
    table: &DeTable<'_>,
    header: &Span,
    number: usize,
    board: &Board,
) -> Result<NamedRobot, ScenarioError> {
    // Name the table after its robot when the name is readable, else by its number.
    let label = match table.get("name").map(|v| v.get_ref()) {
        Some(DeValue::String(name)) if !name.is_empty() => format!("[[robot]] {name:?}"),
        _ => format!("[[robot]] #{number}"),
    };
    let f = Fields::new(src, table, label, ROBOT_KEYS, ROBOT_EXPECTED)?;
    let (name, name_span) = f.require(
        "name",
        f.string("name")?,
        header,
        "name = \"...\", a unique robot name",
    )?;
    if name.is_empty() {
        return Err(src.error(&name_span, Problem::EmptyName));
    }
    let coordinate = i64::from(i32::MIN)..=i64::from(i32::MAX);
    let (x, x_span) = f.require(
        "x",
        f.integer("x", coordinate.clone())?,
        header,
        "x = column (0 is the west edge)",
    )?;
    let (y, y_span) = f.require(
        "y",
        f.integer("y", coordinate.clone())?,
        header,
        "y = row (0 is the north edge)",
    )?;
    let off_board = |span: &Span| {
        src.error(
            span,
            Problem::OffBoard {
                name: name.to_string(),
                x,
                y,
                width: board.width(),
                height: board.height(),
            },
        )
    };
    if !(0..i64::from(board.width())).contains(&x) {
        return Err(off_board(&x_span));
    }
    if !(0..i64::from(board.height())).contains(&y) {
        return Err(off_board(&y_span));
    }
    // Both fit in i32: they lie on a board of at most 64x64 squares.
    let pos = Pos::new(x as i32, y as i32);
    if board.square(pos).tile.is_pit() {
        return Err(src.error(
            &x_span,
            Problem::OnPit {
                name: name.to_string(),
                x: pos.x,
                y: pos.y,
            },
        ));
    }
    let mut robot = Robot::new(pos);
    robot.facing = f.facing("facing")?.map_or(Direction::North, |(d, _)| d);
    if let Some((d, _)) = f.integer("damage", 0..=i64::from(LOCKED_DAMAGE))? {
        robot.damage = d as u8;
    }
    if let Some((l, _)) = f.integer("lives", 1..=i64::from(START_LIVES))? {
        robot.lives = l as u8;
    }
    // 1..=3 is the next flag to touch; 4 means all three are done.
    if let Some((n, _)) = f.integer("next_flag", 1..=4)? {
        robot.next_flag = n as u8;
    }
    if let Some(((ax, ay), span)) = f.pair("archive", coordinate)? {
        robot.archive = archive(src, &span, name, ax, ay, board)?;
    }
    if let Some((text, span)) = f.string("power")? {
        robot.power = parse_power(text).ok_or_else(|| {
            src.error(
                &span,
                Problem::BadPower {
                    found: text.to_string(),
                },
            )
        })?;
    }
    robot.last_card = f.card_move("last_card")?.map(|(m, _)| m);
    Ok(NamedRobot {
        name: name.to_string(),
        span: name_span,
        robot,
    })
}

/// A checked archive square: on the board and not a pit.
fn archive(
    src: Source<'_>,
    span: &Span,
    name: &str,
    x: i64,
    y: i64,
    board: &Board,
) -> Result<Pos, ScenarioError> {
    let bad = |what| {
        src.error(
            span,
            Problem::BadArchive {
                name: name.to_string(),
                x,
                y,
                what,
            },
        )
    };
    if !(0..i64::from(board.width())).contains(&x) || !(0..i64::from(board.height())).contains(&y) {
        return Err(bad("off the board"));
    }
    let pos = Pos::new(x as i32, y as i32);
    if board.square(pos).tile.is_pit() {
        return Err(bad("a pit"));
    }
    Ok(pos)
}

/// `up` or `down:N` with N in 1..=5 (R11.4).
fn parse_power(text: &str) -> Option<Power> {
    if text == "up" {
        return Some(Power::Up);
    }
    let n = text.strip_prefix("down:")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u8 = n.parse().ok()?;
    (1..=POWER_DOWN_TURNS)
        .contains(&n)
        .then_some(Power::Down(n))
}

/// Two robots may not share a square; the later one (in seat order) is reported at its `x`.
fn check_squares(
    src: Source<'_>,
    doc: &DeTable<'_>,
    robots: &[NamedRobot],
) -> Result<(), ScenarioError> {
    for (i, later) in robots.iter().enumerate() {
        let Some(first) = robots[..i].iter().find(|r| r.robot.pos == later.robot.pos) else {
            continue;
        };
        // Point at the later robot's `x` key; fall back to its name.
        let span = x_span(doc, i).unwrap_or_else(|| later.span.clone());
        return Err(src.error(
            &span,
            Problem::SameSquare {
                first: first.name.clone(),
                second: later.name.clone(),
                x: later.robot.pos.x,
                y: later.robot.pos.y,
            },
        ));
    }
    Ok(())
}

/// The span of the `x` value of the `seat`-th `[[robot]]` table.
fn x_span(doc: &DeTable<'_>, seat: usize) -> Option<Span> {
    let robot = doc.get("robot")?.get_ref().as_array()?.get(seat)?;
    Some(robot.get_ref().as_table()?.get("x")?.span())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_accepts_up_and_down_1_to_5_only() {
        assert_eq!(parse_power("up"), Some(Power::Up));
        assert_eq!(parse_power("down:5"), Some(Power::Down(5)));
        assert_eq!(parse_power("down:1"), Some(Power::Down(1)));
        assert_eq!(parse_power("down:0"), None);
        assert_eq!(parse_power("down:6"), None);
        assert_eq!(parse_power("down:"), None);
        assert_eq!(parse_power("down:+2"), None);
        assert_eq!(parse_power("announced"), None);
    }
}

//! Parses a RoboRally scenario file (RR16.2) into a checked [`Scenario`], every problem
//! located at the key or value that causes it.

use super::{Reentry, Scenario};
use crate::games::roborally::board::Tile;
use crate::games::roborally::cards::{card_text, parse_card};
use crate::games::roborally::engine::{
    GameError, LIVES, MAX_HP, MAX_SEATS, Power, REGISTERS, Robot, Scripted,
};
use crate::games::roborally::grid::{GridProblem, parse_board_file, parse_grid};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::Card;
use crate::games::shared::robo::scenario::{
    AnswerFormat, LayoutProblem, RobotFormat, RobotHead, RobotProblem, facing_of, read_layout,
    read_turn, seat_of,
};
use crate::games::shared::scenario::{self, TomlProblem};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;
use toml::de::DeTable;

/// An invalid scenario file, or one the engine refused.
pub type ScenarioError = scenario::ScenarioError<Problem, GameError>;
type Source<'a> = scenario::Source<'a, Problem, ScenarioError>;
type Fields<'a, 'i> = scenario::Fields<'a, 'i, Problem, ScenarioError>;
type Span = std::ops::Range<usize>;

/// What is wrong at a place of a RoboRally scenario.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    #[error(transparent)]
    Toml(#[from] TomlProblem),
    #[error(transparent)]
    Robot(#[from] RobotProblem),
    #[error(transparent)]
    Layout(#[from] LayoutProblem<GridProblem>),
    #[error(
        "robot {name:?} at [{x},{y}] is {why}: expected a free square on the board that is not a pit"
    )]
    BadSquare {
        name: String,
        x: i64,
        y: i64,
        why: &'static str,
    },
    #[error("power {found:?}: expected \"up\" or \"announced\"")]
    Power { found: String },
    #[error("checkpoints = {found}: the board has {flags} flags, expected 0..={flags}")]
    Checkpoints { found: i64, flags: usize },
    #[error(
        "bad card {found:?}: expected a move (F1 F2 F3 B L R U), @ and a priority, like F1@490"
    )]
    Card { found: String },
    #[error("{count} cards: expected at most {REGISTERS}, one per register")]
    TooManyCards { count: usize },
    #[error("last_program has {count} cards: expected {REGISTERS}, one per register")]
    LastProgram { count: usize },
    #[error(
        "{card} is written for two robots in register {register}: expected distinct priorities"
    )]
    SamePriority { card: String, register: usize },
}

const TOP: &[&str] = &[
    "game",
    "grid",
    "board",
    "registers",
    "robot",
    "turn",
    "reentry",
];
/// The top-level keys, listed for the message.
const TOP_LISTED: &str = "game, grid or board, registers, [[robot]], [[turn]] and [[reentry]]";
/// The `[[robot]]` tables: a robot for each seat.
const ROBOTS: RobotFormat = RobotFormat {
    keys: &[
        "name",
        "x",
        "y",
        "facing",
        "hp",
        "lives",
        "checkpoints",
        "respawn",
        "power",
        "last_program",
    ],
    listed: "name, x, y, facing, hp, lives, checkpoints, respawn, power and last_program",
    most: MAX_SEATS,
    seats: MAX_SEATS,
};

/// Parses and checks scenario `text`; `file` names it, `base_dir` is where `board` paths
/// start.
pub fn parse_scenario(text: &str, file: &str, base_dir: &Path) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::top(src, doc, TOP, TOP_LISTED)?;
    let board = read_layout(src, &top, base_dir, "board", parse_grid, parse_board_file)?;
    let registers = top.integer("registers", 1..=REGISTERS as i64)?;
    let registers = registers.map_or(REGISTERS as u8, |(n, _)| n as u8);
    let (names, robots) = ROBOTS.read(src, &top, |f, span, head, robots: &[Robot]| {
        let RobotHead {
            name,
            x,
            y,
            x_at,
            at,
        } = head;
        let why = if !board.contains(at) {
            Some("off the board")
        } else if board.tile(at) == Some(Tile::Pit) {
            Some("on a pit")
        } else if robots.iter().any(|r| r.pos == at) {
            Some("on another robot's square")
        } else {
            None
        };
        if let Some(why) = why {
            let name = name.to_string();
            return Err(src.error(&x_at, Problem::BadSquare { name, x, y, why }));
        }
        let mut robot = Robot::new(at);
        let (facing, facing_at) =
            f.require("facing", f.string("facing")?, span, "facing = \"N\"")?;
        robot.facing = facing_of(src, facing, &facing_at)?;
        if let Some((hp, _)) = f.integer("hp", 1..=i64::from(MAX_HP))? {
            robot.hp = hp as u8;
        }
        if let Some((lives, _)) = f.integer("lives", 1..=i64::from(LIVES))? {
            robot.lives = lives as u8;
        }
        if let Some((n, n_at)) = f.integer("checkpoints", 0..=3)? {
            let flags = board.flags().len();
            if n as usize > flags {
                return Err(src.error(&n_at, Problem::Checkpoints { found: n, flags }));
            }
            robot.checkpoints = n as u8;
        }
        if let Some(((rx, ry), r_at)) = f.pair("respawn", 0..=i64::from(u8::MAX))? {
            let p = Pos::new(rx as i32, ry as i32);
            if !board.contains(p) || board.tile(p) == Some(Tile::Pit) {
                let name = name.to_string();
                let why = "a respawn square off the board or on a pit";
                return Err(src.error(
                    &r_at,
                    Problem::BadSquare {
                        name,
                        x: rx,
                        y: ry,
                        why,
                    },
                ));
            }
            robot.respawn = p;
        }
        if let Some((power, p_at)) = f.string("power")? {
            robot.power = match power {
                "up" => Power::Up,
                "announced" => Power::Announced,
                other => {
                    let found = other.to_string();
                    return Err(src.error(&p_at, Problem::Power { found }));
                }
            };
        }
        if let Some((program, p_at)) = f.string("last_program")? {
            let cards = cards_of(src, program, &p_at)?;
            if cards.len() != REGISTERS {
                let count = cards.len();
                return Err(src.error(&p_at, Problem::LastProgram { count }));
            }
            for (slot, c) in robot.registers.iter_mut().zip(cards) {
                *slot = Some(c);
            }
        }
        Ok(robot)
    })?;
    let turns = match top.get("turn") {
        Some(v) => src
            .tables("turn", v, "an array of tables written [[turn]]")?
            .iter()
            .map(|(t, _)| read_programs(src, t, &names))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let reentries = match top.get("reentry") {
        Some(v) => src
            .tables("reentry", v, "an array of tables written [[reentry]]")?
            .iter()
            .enumerate()
            .map(|(i, (t, span))| read_reentry(src, t, span, i, &names))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    Ok(Scenario {
        file: file.to_string(),
        board: Arc::new(board),
        names,
        robots,
        registers,
        turns,
        reentries,
    })
}

/// `"F1@490 R@80"`: cards for registers 1.. in order.
fn cards_of(src: Source<'_>, text: &str, at: &Span) -> Result<Vec<Card>, ScenarioError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() > REGISTERS {
        let count = words.len();
        return Err(src.error(at, Problem::TooManyCards { count }));
    }
    words
        .iter()
        .map(|w| {
            parse_card(w).ok_or_else(|| {
                let found = w.to_string();
                src.error(at, Problem::Card { found })
            })
        })
        .collect()
}

/// How a turn writes a robot's program.
const ANSWER: AnswerFormat = AnswerFormat {
    keys: &["program", "power_down"],
    listed: "program and power_down",
    program: "program = \"F1@490 ...\"",
    either: "a program string or { program = \"...\", power_down = true }",
};

/// One `[[turn]]`: per seat, its program.
fn read_programs(
    src: Source<'_>,
    table: &DeTable<'_>,
    names: &[String],
) -> Result<Vec<Option<Scripted>>, ScenarioError> {
    read_turn(src, table, names, |programs: &[Option<Scripted>], entry| {
        let (text, at, power_down) = ANSWER.read(src, &entry, |f| {
            Ok(f.boolean("power_down")?.is_some_and(|(b, _)| b))
        })?;
        let mut scripted = Scripted {
            power_down,
            ..Scripted::default()
        };
        for (slot, card) in scripted.cards.iter_mut().zip(cards_of(src, text, &at)?) {
            *slot = Some(card);
        }
        for (register, card) in scripted.cards.iter().enumerate() {
            let Some(card) = card else { continue };
            let twice = programs
                .iter()
                .flatten()
                .any(|p| p.cards[register].is_some_and(|c| c.priority == card.priority));
            if twice {
                let card = card_text(*card);
                let register = register + 1;
                return Err(src.error(&at, Problem::SamePriority { card, register }));
            }
        }
        Ok(scripted)
    })
}

fn read_reentry(
    src: Source<'_>,
    table: &DeTable<'_>,
    span: &Span,
    i: usize,
    names: &[String],
) -> Result<Reentry, ScenarioError> {
    let f = Fields::new(
        src,
        table,
        format!("[[reentry]] #{}", i + 1),
        &["name", "x", "y", "facing"],
        "name, x, y and facing",
    )?;
    let (name, name_at) = f.require("name", f.string("name")?, span, "name = \"...\"")?;
    let seat = seat_of(src, names, name, &name_at)?;
    let x = f.integer("x", 0..=255)?;
    let y = f.integer("y", 0..=255)?;
    let at = match (x, y) {
        (Some((x, _)), Some((y, _))) => Some(Pos::new(x as i32, y as i32)),
        _ => None,
    };
    let facing = match f.string("facing")? {
        Some((text, at)) => facing_of(src, text, &at)?,
        None => Direction::North,
    };
    Ok(Reentry { seat, at, facing })
}

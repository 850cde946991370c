//! Parses a RoboRally scenario file (RR16.2) into a checked [`Scenario`], every problem
//! located at the key or value that causes it.

use super::{Reentry, Scenario};
use crate::games::roborally::board::{Board, Tile};
use crate::games::roborally::cards::{card_text, parse_card};
use crate::games::roborally::engine::{
    GameError, LIVES, MAX_HP, MAX_SEATS, Power, REGISTERS, Robot, Scripted,
};
use crate::games::roborally::grid::{
    GridAt, GridProblem, parse_board_file, parse_grid, string_origin,
};
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::robo::Card;
use crate::games::shared::scenario::{self, Located, TomlProblem};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;
use toml::de::{DeTable, DeValue};

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
    Grid(GridProblem),
    #[error("both grid and board are given: expected exactly one of them")]
    GridAndBoard,
    #[error(
        "neither grid nor board is given: expected grid = \"\"\"...\"\"\" or board = \"file.toml\""
    )]
    NoBoard,
    #[error("cannot read board file {path}: {reason}")]
    BoardFile { path: String, reason: String },
    #[error("{count} [[robot]] tables: expected 1 to {MAX_SEATS} robots")]
    RobotCount { count: usize },
    #[error("robot name {name:?} is used twice: expected unique names")]
    SameName { name: String },
    #[error(
        "robot {name:?} at [{x},{y}] is {why}: expected a free square on the board that is not a pit"
    )]
    BadSquare {
        name: String,
        x: i64,
        y: i64,
        why: &'static str,
    },
    #[error("facing {found:?}: expected N, E, S or W")]
    Facing { found: String },
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
    #[error("no robot is named {name:?}: expected one of the [[robot]] names")]
    UnknownRobot { name: String },
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
const ROBOT: &[&str] = &[
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
];

/// Parses and checks scenario `text`; `file` names it, `base_dir` is where `board` paths
/// start.
pub fn parse_scenario(text: &str, file: &str, base_dir: &Path) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::top(
        src,
        doc,
        TOP,
        "game, grid or board, registers, [[robot]], [[turn]] and [[reentry]]",
    )?;
    let board = read_board(src, &top, base_dir)?;
    let registers = top.integer("registers", 1..=REGISTERS as i64)?;
    let registers = registers.map_or(REGISTERS as u8, |(n, _)| n as u8);
    let empty = Span::default();
    let robot_tables = match top.get("robot") {
        Some(v) => src.tables("robot", v, "an array of tables written [[robot]]")?,
        None => Vec::new(),
    };
    if robot_tables.is_empty() || robot_tables.len() > MAX_SEATS {
        let at = top.key_span("robot").unwrap_or(empty);
        let count = robot_tables.len();
        return Err(src.error(&at, Problem::RobotCount { count }));
    }
    let mut names: Vec<String> = Vec::new();
    let mut robots: Vec<Robot> = Vec::new();
    for (i, (table, span)) in robot_tables.iter().enumerate() {
        let f = Fields::new(
            src,
            table,
            format!("[[robot]] #{}", i + 1),
            ROBOT,
            "name, x, y, facing, hp, lives, checkpoints, respawn, power and last_program",
        )?;
        let (name, name_at) = f.require("name", f.string("name")?, span, "name = \"...\"")?;
        if names.iter().any(|n| n == name) {
            let name = name.to_string();
            return Err(src.error(&name_at, Problem::SameName { name }));
        }
        let side = 0..=i64::from(u8::MAX);
        let (x, x_at) = f.require("x", f.integer("x", side.clone())?, span, "x = 0..")?;
        let (y, _) = f.require("y", f.integer("y", side.clone())?, span, "y = 0..")?;
        let at = Pos::new(x as i32, y as i32);
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
        let (facing, _) = f.require("facing", f.string("facing")?, span, "facing = \"N\"")?;
        robot.facing = facing_of(src, &f, facing)?;
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
        if let Some(((rx, ry), r_at)) = f.pair("respawn", side)? {
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
        names.push(name.to_string());
        robots.push(robot);
    }
    let turns = match top.get("turn") {
        Some(v) => src
            .tables("turn", v, "an array of tables written [[turn]]")?
            .iter()
            .map(|(t, _)| read_turn(src, t, &names))
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

fn read_board(
    src: Source<'_>,
    top: &Fields<'_, '_>,
    base_dir: &Path,
) -> Result<Board, ScenarioError> {
    let grid_error = |e: Located<GridProblem>| {
        ScenarioError::At(Located {
            file: e.file,
            line: e.line,
            column: e.column,
            problem: Problem::Grid(e.problem),
        })
    };
    match (top.get("grid"), top.string("board")?) {
        (Some(_), Some((_, at))) => Err(src.error(&at, Problem::GridAndBoard)),
        (None, None) => Err(src.error(&Span::default(), Problem::NoBoard)),
        (Some(_), None) => {
            let (grid, at) = top.string("grid")?.unwrap_or_default();
            let origin = string_origin(src.text, at.start);
            let at = GridAt {
                file: src.file,
                text: src.text,
                origin,
            };
            parse_grid(at, grid, "scenario", "", false).map_err(grid_error)
        }
        (None, Some((path, at))) => {
            let full = base_dir.join(path);
            let text = std::fs::read_to_string(&full).map_err(|e| {
                let problem = Problem::BoardFile {
                    path: path.to_string(),
                    reason: e.to_string(),
                };
                src.error(&at, problem)
            })?;
            parse_board_file(&text, &full.display().to_string()).map_err(grid_error)
        }
    }
}

fn facing_of(src: Source<'_>, f: &Fields<'_, '_>, text: &str) -> Result<Direction, ScenarioError> {
    let mut chars = text.chars();
    match (chars.next().and_then(Direction::from_letter), chars.next()) {
        (Some(d), None) => Ok(d),
        _ => {
            let at = f.get("facing").map(|v| v.span()).unwrap_or_default();
            let found = text.to_string();
            Err(src.error(&at, Problem::Facing { found }))
        }
    }
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

fn read_turn(
    src: Source<'_>,
    table: &DeTable<'_>,
    names: &[String],
) -> Result<Vec<Option<super::Scripted>>, ScenarioError> {
    let mut programs: Vec<Option<Scripted>> = vec![None; names.len()];
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in entries {
        let name = key.get_ref().as_ref();
        let Some(seat) = names.iter().position(|n| n == name) else {
            let name = name.to_string();
            return Err(src.error(&key.span(), Problem::UnknownRobot { name }));
        };
        let (text, power_down, at) = match value.get_ref() {
            DeValue::String(s) => (s.as_ref(), false, value.span()),
            DeValue::Table(t) => {
                let f = Fields::new(
                    src,
                    t,
                    format!("the turn of {name}"),
                    &["program", "power_down"],
                    "program and power_down",
                )?;
                let (text, at) = f.require(
                    "program",
                    f.string("program")?,
                    &value.span(),
                    "program = \"F1@490 ...\"",
                )?;
                let pd = f.boolean("power_down")?.is_some_and(|(b, _)| b);
                (text, pd, at)
            }
            _ => {
                return Err(src.wrong_type(
                    name,
                    value,
                    "a program string or { program = \"...\", power_down = true }",
                ));
            }
        };
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
        programs[seat] = Some(scripted);
    }
    Ok(programs)
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
    let Some(seat) = names.iter().position(|n| n == name) else {
        let name = name.to_string();
        return Err(src.error(&name_at, Problem::UnknownRobot { name }));
    };
    let x = f.integer("x", 0..=255)?;
    let y = f.integer("y", 0..=255)?;
    let at = match (x, y) {
        (Some((x, _)), Some((y, _))) => Some(Pos::new(x as i32, y as i32)),
        _ => None,
    };
    let facing = match f.string("facing")? {
        Some((text, _)) => facing_of(src, &f, text)?,
        None => Direction::North,
    };
    Ok(Reentry { seat, at, facing })
}

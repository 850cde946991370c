//! Robo Runner scenarios (RN17): a TOML file that places robots on a ship by hand and
//! writes every turn's answers, and the JSON outcome the rules tests compare.
//!
//! Nothing is dealt and nothing is drawn: the outcome depends on the file alone. The
//! pipeline is parse (every problem located at `file:line:column`), run, output.

use super::engine::{
    Equip, Game, GameError, MAX_SCANNERS, MAX_SEATS, Move, Pending, REGISTERS, Robot, Rules,
    Scripted, State, locks_for,
};
use super::ship::{Base, NETWORKS, Ship, ShipProblem, parse_grid, parse_ship_file};
use crate::games::shared::grid::Pos;
use crate::games::shared::robo::scenario::{
    AnswerFormat, LayoutProblem, RobotFormat, RobotHead, RobotProblem, facing_of, read_layout,
    read_turn,
};
use crate::games::shared::scenario::{self, TomlProblem};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;
use toml::de::{DeTable, DeValue};

/// An invalid scenario file, or one the engine refused.
pub type ScenarioError = scenario::ScenarioError<Problem, GameError>;
type Source<'a> = scenario::Source<'a, Problem, ScenarioError>;
type Fields<'a, 'i> = scenario::Fields<'a, 'i, Problem, ScenarioError>;
type Span = std::ops::Range<usize>;

/// The most turns a scenario may write.
pub const MAX_TURNS: usize = 200;

/// What is wrong at a place of a Robo Runner scenario.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Problem {
    #[error(transparent)]
    Toml(#[from] TomlProblem),
    #[error(transparent)]
    Robot(#[from] RobotProblem),
    #[error(transparent)]
    Layout(#[from] LayoutProblem<ShipProblem>),
    #[error("{count} scanners: expected at most {MAX_SCANNERS}")]
    ScannerCount { count: usize },
    #[error(
        "robot {name:?} at [{x},{y}] is {why}: expected a square of the ship that is not a hole nor damaged hull, with no other real robot"
    )]
    BadSquare {
        name: String,
        x: i64,
        y: i64,
        why: &'static str,
    },
    #[error("bad chip {found:?}: expected F1 F2 F3 B L R U, or - for nothing")]
    Chip { found: String },
    #[error("{count} chips: expected {expected}")]
    ChipCount { count: usize, expected: String },
    #[error("next_ip = {found}: the ship has {ips} inspection points, expected 1..={}", .ips + 1)]
    NextIp { found: i64, ips: usize },
    #[error("option {found:?}: expected twin, rear, shields, repulsors, nitro or clamps")]
    Option { found: String },
    #[error("{key} is given without equipment: expected equipment = true at the top")]
    NoEquipment { key: &'static str },
    #[error("ammo is given to a robot without an option: expected an option too")]
    AmmoWithoutOption,
    #[error("a scanner has no {key}: expected it left out")]
    ScannerField { key: &'static str },
    #[error("a scanner decides nothing but its program: expected {name} = \"F1 R ...\"")]
    ScannerAnswer { name: String },
    #[error("links {network}: {why}")]
    Links { network: String, why: String },
}

const TOP: &[&str] = &[
    "game",
    "grid",
    "ship",
    "hull_damage",
    "equipment",
    "links",
    "robot",
    "turn",
];
/// The top-level keys, listed for the message.
const TOP_LISTED: &str =
    "game, grid or ship, hull_damage, equipment, [links], [[robot]] and [[turn]]";
/// The `[[robot]]` tables: a robot for each seat, then the scanners.
const ROBOTS: RobotFormat = RobotFormat {
    keys: &[
        "name",
        "x",
        "y",
        "facing",
        "damage",
        "lives",
        "next_ip",
        "virtual",
        "rebooting",
        "option",
        "ammo",
        "scanner",
        "locked",
    ],
    listed: "name, x, y, facing, damage, lives, next_ip, virtual, rebooting, option, ammo, scanner and locked",
    most: MAX_SEATS + MAX_SCANNERS,
    seats: MAX_SEATS,
};

/// A checked scenario.
#[derive(Debug, Clone)]
pub struct Scenario {
    pub file: String,
    pub ship: Arc<Ship>,
    pub rules: Rules,
    pub loops: Vec<Vec<Pos>>,
    /// By robot: the seats' robots first, then the scanners, each in table order.
    pub names: Vec<String>,
    pub robots: Vec<Robot>,
    /// The robots in table order: the first turn's order.
    pub order: Vec<usize>,
    /// Per turn, per robot.
    pub turns: Vec<Vec<Option<Scripted>>>,
}

/// Plays the scenario's turns until they run out or the game ends (RN14.1).
pub fn run(s: &Scenario) -> Result<Game, ScenarioError> {
    let engine = ScenarioError::engine(&s.file);
    let mut game = Game::scripted(
        s.ship.clone(),
        s.rules,
        s.robots.clone(),
        s.order.clone(),
        &s.loops,
    )
    .map_err(engine)?;
    for turn in &s.turns {
        if game.pending() != Pending::Script {
            break;
        }
        game.play_scripted(turn).map_err(engine)?;
    }
    Ok(game)
}

/// The outcome as RN17 writes it: the robots in table order.
pub fn to_json(s: &Scenario, game: &Game) -> Value {
    let name = |seat: usize| Value::from(s.names[seat].as_str());
    let robots: Vec<Value> = s
        .order
        .iter()
        .map(|&i| {
            let r = &game.all_robots()[i];
            let mut v = super::text::robot_json(game, i, r, game.rank(i));
            let fields = v.as_object_mut().expect("a robot is an object");
            for k in ["seat", "last", "ips", "option"] {
                fields.shift_remove(k);
            }
            fields.shift_insert(0, "name".to_string(), s.names[i].as_str().into());
            v
        })
        .collect();
    json!({
        "game": "roborunner",
        "turns_played": game.turns_played(),
        "game_over": game.is_over(),
        "robots": robots,
        "hull": super::text::hull_json(game.hull()),
        "links": super::text::links_json(game.links()),
        "events": game.events().iter().map(|e| e.to_json(&name)).collect::<Vec<_>>(),
    })
}

/// Checks and runs scenario `text`; `file` names it, `base_dir` is where `ship` paths
/// start.
pub fn run_scenario_str(text: &str, file: &str, base_dir: &Path) -> Result<Value, ScenarioError> {
    let scenario = parse_scenario(text, file, base_dir)?;
    let game = run(&scenario)?;
    Ok(to_json(&scenario, &game))
}

/// Parses and checks scenario `text`.
pub fn parse_scenario(text: &str, file: &str, base_dir: &Path) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text);
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::top(src, doc, TOP, TOP_LISTED)?;
    let ship = read_layout(src, &top, base_dir, "ship", parse_grid, parse_ship_file)?;
    let mut rules = Rules {
        turns: MAX_TURNS as u16,
        ..Rules::default()
    };
    if let Some((h, _)) = top.boolean("hull_damage")? {
        rules.hull_damage = h;
    }
    if let Some((e, _)) = top.boolean("equipment")? {
        rules.equipment = e;
    }
    let loops = match top.get("links") {
        Some(v) => read_links(src, v, &ship)?,
        None => Game::default_loops(&ship),
    };
    let hull_left = |p: Pos| match ship.tile(p) {
        Some(Base::Ip { repairs, .. }) => rules.hull_damage && repairs > 0,
        _ => false,
    };
    let (names, robots) = ROBOTS.read(src, &top, |f, span, head, robots: &[Robot]| {
        let RobotHead {
            name,
            x,
            y,
            x_at,
            at,
        } = head;
        let scanner = f.boolean("scanner")?.is_some_and(|(b, _)| b);
        if scanner {
            for key in ["lives", "next_ip", "rebooting", "option", "ammo", "locked"] {
                if let Some(at) = f.key_span(key) {
                    return Err(src.error(&at, Problem::ScannerField { key }));
                }
            }
        }
        let mut robot = if scanner {
            Robot::new_scanner()
        } else {
            Robot::new(3)
        };
        robot.state = State::Active;
        robot.pos = at;
        if let Some((v, _)) = f.boolean("virtual")? {
            robot.virtual_ = v;
        }
        let why = if !ship.contains(at) {
            Some("off the ship")
        } else if ship.hole(at, 0).is_some() {
            Some("on a hole")
        } else if hull_left(at) {
            Some("on damaged hull")
        } else if !robot.virtual_ && robots.iter().any(|r| r.pos == at && !r.virtual_) {
            Some("on another real robot's square")
        } else {
            None
        };
        if let Some(why) = why {
            let name = name.to_string();
            return Err(src.error(&x_at, Problem::BadSquare { name, x, y, why }));
        }
        let (facing, facing_at) =
            f.require("facing", f.string("facing")?, span, "facing = \"N\"")?;
        robot.facing = facing_of(src, facing, &facing_at)?;
        if let Some((d, _)) = f.integer("damage", 0..=9)? {
            robot.damage = d as u8;
        }
        if let Some((l, _)) = f.integer("lives", 1..=9)? {
            robot.lives = l as u8;
        }
        if let Some((n, n_at)) = f.integer("next_ip", 1..=10)? {
            let ips = ship.ips().len();
            if n as usize > ips + 1 {
                return Err(src.error(&n_at, Problem::NextIp { found: n, ips }));
            }
            robot.next_ip = n as u8;
        }
        if let Some((b, _)) = f.boolean("rebooting")? {
            robot.rebooting = b;
        }
        if let Some((text, at)) = f.string("option")? {
            if !rules.equipment {
                return Err(src.error(&at, Problem::NoEquipment { key: "option" }));
            }
            let found = text.to_string();
            robot.option = Some(
                Equip::from_name(text).ok_or_else(|| src.error(&at, Problem::Option { found }))?,
            );
        }
        if let Some((a, at)) = f.integer("ammo", 0..=3)? {
            if robot.option.is_none() {
                return Err(src.error(&at, Problem::AmmoWithoutOption));
            }
            robot.ammo = a as u8;
        }
        if !scanner {
            robot.locked = locks_for(robot.damage);
        }
        let locked = robot.locked as usize;
        match f.string("locked")? {
            Some((text, at)) => {
                let chips = chips_of(src, text, &at)?;
                if chips.len() != locked {
                    let problem = Problem::ChipCount {
                        count: chips.len(),
                        expected: format!(
                            "{locked}, one per locked register (damage {})",
                            robot.damage
                        ),
                    };
                    return Err(src.error(&at, problem));
                }
                for (k, chip) in chips.into_iter().enumerate() {
                    robot.regs[REGISTERS - locked + k] = chip;
                }
            }
            None if locked > 0 => {
                let expected = "locked = \"...\", the chips of the locked registers";
                f.require("locked", None::<()>, span, expected)?;
            }
            None => {}
        }
        Ok(robot)
    })?;
    // The engine holds the seats' robots first, then the scanners (RN3.1).
    let mut by_kind: Vec<usize> = (0..robots.len()).collect();
    by_kind.sort_by_key(|&t| robots[t].scanner);
    let mut order = vec![0; robots.len()];
    for (i, &t) in by_kind.iter().enumerate() {
        order[t] = i;
    }
    let names: Vec<String> = by_kind.iter().map(|&t| names[t].clone()).collect();
    let robots: Vec<Robot> = by_kind.iter().map(|&t| robots[t].clone()).collect();
    let seats = robots.iter().filter(|r| !r.scanner).count();
    let at = top.key_span("robot").unwrap_or_default();
    if !(1..=MAX_SEATS).contains(&seats) {
        let problem = RobotProblem::RobotCount {
            count: seats,
            seats: MAX_SEATS,
        };
        return Err(src.error(&at, problem));
    }
    if robots.len() - seats > MAX_SCANNERS {
        let count = robots.len() - seats;
        return Err(src.error(&at, Problem::ScannerCount { count }));
    }
    rules.scanners = (robots.len() - seats) as u8;
    let turns = match top.get("turn") {
        Some(v) => src
            .tables("turn", v, "an array of tables written [[turn]]")?
            .iter()
            .map(|(t, _)| read_answers(src, t, &names, seats))
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    Ok(Scenario {
        file: file.to_string(),
        ship: Arc::new(ship),
        rules,
        loops,
        names,
        robots,
        order,
        turns,
    })
}

fn read_links(
    src: Source<'_>,
    value: &toml::Spanned<DeValue<'_>>,
    ship: &Ship,
) -> Result<Vec<Vec<Pos>>, ScenarioError> {
    let DeValue::Table(table) = value.get_ref() else {
        return Err(src.wrong_type("links", value, "a table [links] of loops"));
    };
    let mut loops = Game::default_loops(ship);
    for (key, v) in table.iter() {
        let network = key.get_ref().to_string();
        let Some(k) = NETWORKS.iter().position(|c| network == c.to_string()) else {
            let why = "expected a network p, r, b or y".to_string();
            return Err(src.error(&key.span(), Problem::Links { network, why }));
        };
        let items = src.array(&network, v, "an array of [x, y] transporters")?;
        let mut lp = Vec::new();
        for item in items {
            let xy = src.array(&network, item, "an array of two integers [x, y]")?;
            let [x, y] = xy else {
                return Err(src.wrong_type(&network, item, "an array of two integers [x, y]"));
            };
            let x = src.integer(&network, x, &(0..=255))?;
            let y = src.integer(&network, y, &(0..=255))?;
            lp.push(Pos::new(x as i32, y as i32));
        }
        let members = &ship.networks()[k];
        let mut sorted = lp.clone();
        sorted.sort_by_key(|p| (p.y, p.x));
        if sorted != *members {
            let why = format!(
                "the loop must list each of the network's {} transporters once",
                members.len()
            );
            return Err(src.error(&v.span(), Problem::Links { network, why }));
        }
        loops.retain(|l| l.first().is_none_or(|p| !members.contains(p)));
        loops.push(lp);
    }
    Ok(loops)
}

/// `"F3 R - L"`: chips for registers in order, `-` for nothing.
fn chips_of(src: Source<'_>, text: &str, at: &Span) -> Result<Vec<Option<Move>>, ScenarioError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() > REGISTERS {
        let problem = Problem::ChipCount {
            count: words.len(),
            expected: format!("at most {REGISTERS}, one per register"),
        };
        return Err(src.error(at, problem));
    }
    words
        .iter()
        .map(|w| match *w {
            "-" => Ok(None),
            other => Move::from_short(other).map(Some).ok_or_else(|| {
                let found = other.to_string();
                src.error(at, Problem::Chip { found })
            }),
        })
        .collect()
}

/// How a turn writes a robot's answer.
const ANSWER: AnswerFormat = AnswerFormat {
    keys: &["program", "reboot", "activate", "facing"],
    listed: "program, reboot, activate and facing",
    program: "program = \"F1 R ...\"",
    either: "a program string or { program = \"...\", reboot = true }",
};

/// One `[[turn]]`: per robot (`names` by robot, the first `seats` the seats'), its answer.
fn read_answers(
    src: Source<'_>,
    table: &DeTable<'_>,
    names: &[String],
    seats: usize,
) -> Result<Vec<Option<Scripted>>, ScenarioError> {
    read_turn(src, table, names, |_: &[Option<Scripted>], entry| {
        if let DeValue::Table(t) = entry.value.get_ref()
            && entry.seat >= seats
            && t.keys().any(|k| k.get_ref() != "program")
        {
            let name = entry.name.to_string();
            return Err(src.error(&entry.key.span(), Problem::ScannerAnswer { name }));
        }
        let (text, at, mut scripted) = ANSWER.read(src, &entry, |f| {
            let mut scripted = Scripted {
                reboot: f.boolean("reboot")?.is_some_and(|(b, _)| b),
                ..Scripted::default()
            };
            if let Some(a) = f.get("activate") {
                for p in src.array("activate", a, "an array of phases")? {
                    let phase = src.integer("activate", p, &(0..=255))?;
                    scripted.activate.push(phase as u8);
                }
            }
            if let Some((text, at)) = f.string("facing")? {
                scripted.facing = Some(facing_of(src, text, &at)?);
            }
            Ok(scripted)
        })?;
        for (slot, chip) in scripted.program.iter_mut().zip(chips_of(src, text, &at)?) {
            *slot = chip;
        }
        Ok(scripted)
    })
}

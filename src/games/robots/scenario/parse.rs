//! Parses a Robots scenario file (RB7) into a checked [`Scenario`].
//!
//! The TOML is read as a spanned document (`toml::de::DeTable`) rather than through serde
//! derives, so that every message can point at the exact key or value. Everything the
//! engine would refuse is checked here, where the file position is still known.

use super::Scenario;
use super::error::{Problem, ScenarioError};
use super::source::{Fields, Source, Span, Value, square};
use crate::games::robots::board::{LAST_LEVEL, MAX_SIDE, Position};
use crate::games::robots::types::{MAX_MOVES, Move, Pos};
use toml::de::DeValue;

const KEYS: &[&str] = &[
    "game",
    "width",
    "height",
    "level",
    "player",
    "robots",
    "heaps",
    "teleports",
    "can_blast",
    "seed",
    "turns",
];
const EXPECTED: &str =
    "game, width, height, level, player, robots, heaps, teleports, can_blast, seed and turns";

/// Parses and checks scenario `text`; `file` names it in messages.
pub fn parse_scenario(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
    let src = Source::new(file, text).telling_empty_arrays();
    let doc = src.parse()?;
    let doc = doc.get_ref();
    let top = Fields::top(src, doc, KEYS, EXPECTED)?;
    let require = |key, expected| top.require(key, top.get(key), &(0..0), expected);
    let game = require("game", "game = \"robots\"")?;
    match game.get_ref() {
        DeValue::String(s) if s == "robots" => {}
        DeValue::String(s) => {
            let found = s.to_string();
            return Err(src.error(&game.span(), Problem::NotRobots { found }));
        }
        _ => return Err(src.wrong_type("game", game, "the string \"robots\"")),
    }
    let side = 1..=i64::from(MAX_SIDE);
    let width = src.integer("width", require("width", "width = 1..=255")?, &side)?;
    let height = src.integer("height", require("height", "height = 1..=255")?, &side)?;
    let optional = |key, range, default: i64| {
        let value = top.integer(key, range)?;
        Ok::<_, ScenarioError>(value.map_or(default, |(n, _)| n))
    };
    let level = optional("level", 1..=i64::from(LAST_LEVEL), 1)?;
    let teleports = optional("teleports", 0..=1_000, 2)?;
    let seed = optional("seed", 0..=i64::MAX, 0)?;
    let can_blast = top.boolean("can_blast")?.is_none_or(|(b, _)| b);
    let mut board = Squares {
        src,
        width,
        height,
        taken: Vec::new(),
    };
    let player_value = require("player", "player = [x, y]")?;
    let player = board.place("player", player_value)?;
    let robots_value = require("robots", "robots = [[x, y], ...]")?;
    let mut robots = Vec::new();
    for item in src.array("robots", robots_value, "an array of squares [[x, y], ...]")? {
        robots.push(board.place("robot", item)?);
    }
    if robots.is_empty() {
        return Err(src.error(&robots_value.span(), Problem::NoRobots));
    }
    let mut heaps = Vec::new();
    if let Some(value) = doc.get("heaps") {
        for item in src.array("heaps", value, "an array of squares [[x, y], ...]")? {
            heaps.push(board.place("heap", item)?);
        }
    }
    let turns = match doc.get("turns") {
        None => Vec::new(),
        Some(value) => parse_turns(src, value)?,
    };
    Ok(Scenario {
        file: file.to_string(),
        position: Position {
            width: width as u16,
            height: height as u16,
            level: level as u8,
            player,
            robots,
            heaps,
            teleports: teleports as u32,
            can_blast,
        },
        seed: seed as u64,
        turns,
    })
}

/// The squares placed so far, to check each new one is on the board and free.
struct Squares<'a> {
    src: Source<'a>,
    width: i64,
    height: i64,
    taken: Vec<((i64, i64), &'static str)>,
}

impl Squares<'_> {
    fn place(&mut self, what: &'static str, value: &Value<'_>) -> Result<Pos, ScenarioError> {
        let (x, y) = square(self.src, what, value)?;
        let span: Span = value.span();
        let (width, height) = (self.width, self.height);
        if !(0..width).contains(&x) || !(0..height).contains(&y) {
            let problem = Problem::OffBoard {
                what,
                x,
                y,
                width,
                height,
            };
            return Err(self.src.error(&span, problem));
        }
        if let Some(&(_, other)) = self.taken.iter().find(|(xy, _)| *xy == (x, y)) {
            let problem = Problem::SameSquare { what, other, x, y };
            return Err(self.src.error(&span, problem));
        }
        self.taken.push(((x, y), what));
        Ok(Pos::new(x as i32, y as i32))
    }
}

/// `turns = [["NW"], ["P", "P"], ...]`: per turn, its moves. An empty turn is kept: the
/// engine plays it as a malformed answer (RB2.2).
fn parse_turns(src: Source<'_>, value: &Value<'_>) -> Result<Vec<Vec<Move>>, ScenarioError> {
    const TURNS: &str = "an array of turns, each an array of move names: [[\"N\"], [\"P\", \"T\"]]";
    let mut turns = Vec::new();
    for turn in src.array("turns", value, TURNS)? {
        let moves = src.array(
            "a turn",
            turn,
            "an array of move names such as [\"N\", \"P\"]",
        )?;
        if moves.len() > MAX_MOVES {
            let count = moves.len();
            return Err(src.error(&turn.span(), Problem::TooManyMoves { count }));
        }
        let mut parsed = Vec::with_capacity(moves.len());
        for m in moves {
            let DeValue::String(name) = m.get_ref() else {
                return Err(src.wrong_type("a move", m, "a move name such as \"NE\""));
            };
            let mv = Move::parse(name).ok_or_else(|| {
                let found = name.to_string();
                src.error(&m.span(), Problem::BadMove { found })
            })?;
            parsed.push(mv);
        }
        turns.push(parsed);
    }
    Ok(turns)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = "game = \"robots\"\nwidth = 8\nheight = 8\nplayer = [5, 6]\n\
                      robots = [[3, 1], [6, 2]]\nheaps = [[4, 3]]\nturns = [[\"NW\"], [\"P\", \"P\"]]\n";

    #[test]
    fn defaults_apply() {
        let s = parse_scenario(OK, "t.toml").unwrap();
        assert_eq!(s.position.level, 1);
        assert_eq!(s.position.teleports, 2);
        assert!(s.position.can_blast);
        assert_eq!(s.seed, 0);
        assert_eq!(s.turns.len(), 2);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let text = OK.replace("[\"P\", \"P\"]", "[\"P\", \"X\"]");
        let err = parse_scenario(&text, "t.toml").err().map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(err.starts_with("t.toml:7:24: bad move \"X\""), "{err}");
        let text = OK.replace("[6, 2]", "[3, 1]");
        let err = parse_scenario(&text, "t.toml").err().map(|e| e.to_string());
        let err = err.unwrap_or_default();
        assert!(
            err.starts_with("t.toml:5:19: robot at [3,1] is on the square of robot"),
            "{err}"
        );
    }
}

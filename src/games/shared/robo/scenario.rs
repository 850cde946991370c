//! What the RoboRally family's scenario files (RoboRally's RR16.2, Robo Runner's RN17) read
//! alike: the layout given inline as `grid` or as a file path, the `[[robot]]` tables with
//! their unique names and squares, the facing letters, and the `[[turn]]` tables that give a
//! named robot its program as a string or as a table.
//!
//! Each game keeps its own rules (what a square may hold, what a program says); what is here
//! reads the same words in both, so a scenario's mistakes are told alike whichever game it is.

use super::file::GridAt;
use crate::games::shared::grid::{Direction, Pos};
use crate::games::shared::scenario::{Fields, Located, Source, Span, TomlProblem};
use std::path::Path;
use thiserror::Error;
use toml::Spanned;
use toml::de::{DeString, DeTable, DeValue};

/// The coordinates a `[[robot]]` table may write: no layout is wider.
const SIDE: std::ops::RangeInclusive<i64> = 0..=255;

/// What is wrong with the robots of a RoboRally-family scenario, whatever the game.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RobotProblem {
    #[error("{count} [[robot]] tables: expected 1 to {seats} robots")]
    RobotCount { count: usize, seats: usize },
    #[error("robot name {name:?} is used twice: expected unique names")]
    SameName { name: String },
    #[error("facing {found:?}: expected N, E, S or W")]
    Facing { found: String },
    #[error("no robot is named {name:?}: expected one of the [[robot]] names")]
    UnknownRobot { name: String },
}

/// What is wrong with where a RoboRally-family scenario's layout comes from: `grid =
/// """..."""` inline, or `key = "file.toml"` (`board`, `ship`) relative to the scenario;
/// `G` is the layout format's own problem.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LayoutProblem<G> {
    #[error(transparent)]
    Layout(G),
    #[error("both grid and {key} are given: expected exactly one of them")]
    Both { key: &'static str },
    #[error(
        "neither grid nor {key} is given: expected grid = \"\"\"...\"\"\" or {key} = \"file.toml\""
    )]
    Neither { key: &'static str },
    #[error("cannot read {key} file {path}: {reason}")]
    Unreadable {
        key: &'static str,
        path: String,
        reason: String,
    },
}

/// A game's grid parser: where the grid stands, the grid, its name and description, whether
/// it must be complete enough to play on.
pub type GridParser<L, G> = fn(GridAt<'_>, &str, &str, &str, bool) -> Result<L, Located<G>>;

/// A game's layout file parser: its text and its name in messages.
pub type FileParser<L, G> = fn(&str, &str) -> Result<L, Located<G>>;

/// The layout the top-level keys name: exactly one of `grid` (read by `grid`) and `key` (a
/// path from `base_dir`, read by `file`).
pub fn read_layout<L, G, P, E>(
    src: Source<'_, P, E>,
    top: &Fields<'_, '_, P, E>,
    base_dir: &Path,
    key: &'static str,
    grid: GridParser<L, G>,
    file: FileParser<L, G>,
) -> Result<L, E>
where
    P: From<TomlProblem> + From<LayoutProblem<G>>,
    E: From<Located<P>>,
{
    let located = |e: Located<G>| {
        E::from(Located {
            file: e.file,
            line: e.line,
            column: e.column,
            problem: P::from(LayoutProblem::Layout(e.problem)),
        })
    };
    match (top.get("grid"), top.string(key)?) {
        (Some(_), Some((_, at))) => Err(src.error(&at, LayoutProblem::Both { key })),
        (None, None) => Err(src.error(&Span::default(), LayoutProblem::Neither { key })),
        (Some(_), None) => {
            let (text, at) = top.string("grid")?.unwrap_or_default();
            let origin = super::file::string_origin(src.text, at.start);
            let at = GridAt {
                file: src.file,
                text: src.text,
                origin,
            };
            grid(at, text, "scenario", "", false).map_err(located)
        }
        (None, Some((path, at))) => {
            let full = base_dir.join(path);
            let text = std::fs::read_to_string(&full).map_err(|e| {
                let path = path.to_string();
                let reason = e.to_string();
                src.error(&at, LayoutProblem::Unreadable { key, path, reason })
            })?;
            file(&text, &full.display().to_string()).map_err(located)
        }
    }
}

/// How a game's `[[robot]]` tables are written and how many a file may hold.
pub struct RobotFormat {
    /// The keys a table may have, `name`, `x` and `y` among them.
    pub keys: &'static [&'static str],
    /// Those keys, listed for the message.
    pub listed: &'static str,
    /// The most tables (more than `seats` where some robots take no seat).
    pub most: usize,
    /// The most seats, as a count out of range tells it ("1 to `seats`").
    pub seats: usize,
}

impl RobotFormat {
    /// The robots' names and what `read` makes of each table (its fields, its span, its
    /// [`RobotHead`], and the robots before it), in file order.
    pub fn read<'v, 'i, R, P, E>(
        &self,
        src: Source<'v, P, E>,
        top: &Fields<'v, 'i, P, E>,
        mut read: impl FnMut(&Fields<'v, 'i, P, E>, &Span, RobotHead<'v>, &[R]) -> Result<R, E>,
    ) -> Result<(Vec<String>, Vec<R>), E>
    where
        P: From<TomlProblem> + From<RobotProblem>,
        E: From<Located<P>>,
    {
        let tables = match top.get("robot") {
            Some(v) => src.tables("robot", v, "an array of tables written [[robot]]")?,
            None => Vec::new(),
        };
        if tables.is_empty() || tables.len() > self.most {
            let at = top.key_span("robot").unwrap_or_default();
            let (count, seats) = (tables.len(), self.seats);
            return Err(src.error(&at, RobotProblem::RobotCount { count, seats }));
        }
        let mut names: Vec<String> = Vec::new();
        let mut robots: Vec<R> = Vec::new();
        for (i, (table, span)) in tables.into_iter().enumerate() {
            let name = format!("[[robot]] #{}", i + 1);
            let f = Fields::new(src, table, name, self.keys, self.listed)?;
            let head = RobotHead::read(&f, &span, &names)?;
            let name = head.name.to_string();
            robots.push(read(&f, &span, head, &robots)?);
            names.push(name);
        }
        Ok((names, robots))
    }
}

/// What every `[[robot]]` table says first: a name no earlier robot has, and its square.
pub struct RobotHead<'a> {
    pub name: &'a str,
    pub x: i64,
    pub y: i64,
    /// Where a problem with the square is told.
    pub x_at: Span,
    pub at: Pos,
}

impl<'a> RobotHead<'a> {
    /// Reads `name`, `x` and `y` of the table `f` (at `span`), `names` the robots before it.
    pub fn read<P, E>(f: &Fields<'a, '_, P, E>, span: &Span, names: &[String]) -> Result<Self, E>
    where
        P: From<TomlProblem> + From<RobotProblem>,
        E: From<Located<P>>,
    {
        let src = f.source();
        let (name, name_at) = f.require("name", f.string("name")?, span, "name = \"...\"")?;
        if names.iter().any(|n| n == name) {
            let name = name.to_string();
            return Err(src.error(&name_at, RobotProblem::SameName { name }));
        }
        let (x, x_at) = f.require("x", f.integer("x", SIDE)?, span, "x = 0..")?;
        let (y, _) = f.require("y", f.integer("y", SIDE)?, span, "y = 0..")?;
        let at = Pos::new(x as i32, y as i32);
        Ok(RobotHead {
            name,
            x,
            y,
            x_at,
            at,
        })
    }
}

/// The compass direction a facing letter (`N`, `E`, `S`, `W`) names; `at` is where it is
/// written.
pub fn facing_of<P, E>(src: Source<'_, P, E>, text: &str, at: &Span) -> Result<Direction, E>
where
    P: From<TomlProblem> + From<RobotProblem>,
    E: From<Located<P>>,
{
    Direction::from_text(text).ok_or_else(|| {
        let found = text.to_string();
        src.error(at, RobotProblem::Facing { found })
    })
}

/// The seat of the robot named `name` among `names`, or an error at `at`.
pub fn seat_of<P, E>(
    src: Source<'_, P, E>,
    names: &[String],
    name: &str,
    at: &Span,
) -> Result<usize, E>
where
    P: From<TomlProblem> + From<RobotProblem>,
    E: From<Located<P>>,
{
    names.iter().position(|n| n == name).ok_or_else(|| {
        let name = name.to_string();
        src.error(at, RobotProblem::UnknownRobot { name })
    })
}

/// One robot's entry of a `[[turn]]` table, its key a robot's name.
pub struct TurnEntry<'a, 'i> {
    pub seat: usize,
    pub name: &'a str,
    pub key: &'a Spanned<DeString<'i>>,
    pub value: &'a Spanned<DeValue<'i>>,
}

/// Reads one `[[turn]]` table: per robot (`names`), what `read` makes of its entry, given
/// the entries read before it (in file order).
pub fn read_turn<'a, 'i, T, P, E>(
    src: Source<'_, P, E>,
    table: &'a DeTable<'i>,
    names: &[String],
    mut read: impl FnMut(&[Option<T>], TurnEntry<'a, 'i>) -> Result<T, E>,
) -> Result<Vec<Option<T>>, E>
where
    T: Clone,
    P: From<TomlProblem> + From<RobotProblem>,
    E: From<Located<P>>,
{
    let mut answers: Vec<Option<T>> = vec![None; names.len()];
    let mut entries: Vec<_> = table.iter().collect();
    entries.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in entries {
        let name = key.get_ref().as_ref();
        let seat = seat_of(src, names, name, &key.span())?;
        let entry = TurnEntry {
            seat,
            name,
            key,
            value,
        };
        answers[seat] = Some(read(&answers, entry)?);
    }
    Ok(answers)
}

/// How a turn's answer is written: a program string, or a table with a `program` and the
/// game's other keys.
pub struct AnswerFormat {
    /// The keys a table may have, `program` among them.
    pub keys: &'static [&'static str],
    /// Those keys, listed for the message.
    pub listed: &'static str,
    /// How to write the program, for a missing one.
    pub program: &'static str,
    /// How to write either form, for a value that is neither.
    pub either: &'static str,
}

impl AnswerFormat {
    /// The program of `entry` and where it is written, with what `more` reads of the other
    /// keys of a table (the default for a string).
    pub fn read<'a, 'i, X, P, E>(
        &self,
        src: Source<'a, P, E>,
        entry: &TurnEntry<'a, 'i>,
        more: impl FnOnce(&Fields<'a, 'i, P, E>) -> Result<X, E>,
    ) -> Result<(&'a str, Span, X), E>
    where
        X: Default,
        P: From<TomlProblem>,
        E: From<Located<P>>,
    {
        let value = entry.value;
        match value.get_ref() {
            DeValue::String(s) => Ok((s.as_ref(), value.span(), X::default())),
            DeValue::Table(t) => {
                let name = format!("the turn of {}", entry.name);
                let f = Fields::new(src, t, name, self.keys, self.listed)?;
                let program = f.string("program")?;
                let (text, at) = f.require("program", program, &value.span(), self.program)?;
                Ok((text, at, more(&f)?))
            }
            _ => Err(src.wrong_type(entry.name, value, self.either)),
        }
    }
}

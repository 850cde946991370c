//! Defines the bracket format file reader: [`load_bracket`], [`parse_bracket`] and the
//! built-in Windward format ([`builtin_bracket`], compiled from `brackets/windward.toml`).
//!
//! The format decides set sizes, series length and the board pool, so it is checked as a
//! whole before anything is played: every number is in range and every board of the pool
//! loads and has a start square for each seat of the largest set.

use super::error::{ConfigError, Diagnostic, Loc, Problems, toml_diagnostic};
use crate::games::{GameKind, GameSettings};
use crate::tourney::model::BracketFormat;
use serde::Deserialize;
use std::ops::RangeInclusive;
use std::path::Path;
use toml::Spanned;

/// The text of `brackets/windward.toml`, the default bracket format.
pub const BUILTIN_BRACKET: &str = include_str!("../../../brackets/windward.toml");

/// How the built-in format is named in messages.
pub const BUILTIN_BRACKET_FILE: &str = "brackets/windward.toml (built-in)";

/// Most teams in a set: boards have at most 8 start squares (S1..S8).
const MAX_SET_SIZE: i64 = 8;
/// Most turns in one game.
const MAX_TURNS: i64 = 1000;

/// A bracket file as written; every key is required.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBracket {
    name: Option<Spanned<String>>,
    set_size: Option<Spanned<i64>>,
    games_per_series: Option<Spanned<i64>>,
    advance_per_set: Option<Spanned<i64>>,
    turns_per_game: Option<Spanned<i64>>,
    fill_nationals_to_multiple_of: Option<Spanned<i64>>,
    boards: Option<Spanned<Vec<Spanned<String>>>>,
    /// `game = "ID"` or a `[game]` table with `id` and the game's settings.
    game: Option<Spanned<toml::Value>>,
}

/// The built-in Windward Code War format.
pub fn builtin_bracket() -> Result<BracketFormat, ConfigError> {
    parse_bracket(BUILTIN_BRACKET, BUILTIN_BRACKET_FILE, None)
}

/// Reads and checks the bracket file at `path`; board paths in it are relative to it.
pub fn load_bracket(path: &Path) -> Result<BracketFormat, ConfigError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        Loc::file(&file).error(
            format!("cannot read the bracket file ({e})"),
            "a readable bracket format file (docs/configuration.md)",
        )
    })?;
    parse_bracket(&text, &file, path.parent())
}

/// Checks the bracket format `text` of `file`. Board entries that are not shipped boards
/// are paths relative to `dir` (`None`: the built-in format, shipped boards only).
pub fn parse_bracket(
    text: &str,
    file: &str,
    dir: Option<&Path>,
) -> Result<BracketFormat, ConfigError> {
    let raw: RawBracket = toml::from_str(text).map_err(|e| toml_diagnostic(file, text, &e))?;
    let mut problems = Problems::default();
    let at = |offset: usize| Loc::toml(file, text, offset);
    let game = match &raw.game {
        None => Some(GameKind::default().game().default_settings()),
        Some(value) => problems.keep(game_settings(value, text, &at)),
    };
    let kind = game
        .as_ref()
        .map_or(GameKind::default(), GameSettings::kind);
    let pool = kind.has_arena_pool();
    let turns_per_game = if pool {
        raw.turns_per_game
    } else {
        let offset = raw.turns_per_game.map(|t| t.span().start);
        not_for(&mut problems, &at, offset, "turns_per_game", kind);
        None
    };
    let missing = |key: &str, example: &str| {
        Loc::start(file).error(
            format!("missing key `{key}`"),
            format!("{key} = {example} (the Windward format has {key} = {example})"),
        )
    };
    let name = match raw.name {
        Some(n) if !n.get_ref().trim().is_empty() => Some(n.get_ref().trim().to_owned()),
        Some(n) => {
            problems.push(at(n.span().start).error("`name` is empty", "a name for the format"));
            None
        }
        None => {
            problems.push(missing("name", "\"Windward Code War\""));
            None
        }
    };
    let mut int = |value: Option<Spanned<i64>>, key: &str, range: RangeInclusive<i64>, ex: &str| {
        let Some(value) = value else {
            problems.push(missing(key, ex));
            return None;
        };
        let v = *value.get_ref();
        if range.contains(&v) {
            Some(v)
        } else {
            problems.push(at(value.span().start).error(
                format!("`{key}` = {v} is out of range"),
                format!("an integer from {} to {}", range.start(), range.end()),
            ));
            None
        }
    };
    let set_size = int(raw.set_size, "set_size", 3..=MAX_SET_SIZE, "8");
    let games = int(
        raw.games_per_series,
        "games_per_series",
        1..=i64::from(u32::MAX),
        "10",
    );
    let turns = if pool {
        int(turns_per_game, "turns_per_game", 1..=MAX_TURNS, "60")
    } else {
        game.as_ref()
            .map(|g| i64::from(g.turns(0).min(u32::from(u16::MAX))))
    };
    let fill = int(
        raw.fill_nationals_to_multiple_of,
        "fill_nationals_to_multiple_of",
        1..=i64::from(u32::MAX),
        "8",
    );
    // More than half a set advancing could leave a round as large as the one before it.
    let advance_max = set_size.map_or(MAX_SET_SIZE / 2, |s| s / 2);
    let advance = int(raw.advance_per_set, "advance_per_set", 1..=advance_max, "2");
    let boards = match raw.boards {
        list if !pool => {
            not_for(
                &mut problems,
                &at,
                list.map(|l| l.span().start),
                "boards",
                kind,
            );
            Some(Vec::new())
        }
        None => {
            problems.push(missing("boards", "[\"corridor-dash\", ...]"));
            None
        }
        Some(list) if list.get_ref().is_empty() => {
            problems.push(at(list.span().start).error(
                "`boards` is empty",
                format!("at least one board, e.g. {}", shipped_names()),
            ));
            None
        }
        Some(list) => {
            let starts_needed = set_size.unwrap_or(2);
            let mut boards = Vec::new();
            for entry in list.into_inner() {
                let loc = at(entry.span().start);
                if let Some(b) =
                    problems.keep(board_entry(entry.get_ref(), &loc, dir, starts_needed))
                {
                    boards.push(b);
                }
            }
            Some(boards)
        }
    };
    let format = match (name, set_size, games, advance, turns, fill, boards, game) {
        (Some(name), Some(s), Some(g), Some(a), Some(t), Some(f), Some(boards), Some(game)) => {
            Some(BracketFormat {
                name,
                set_size: to_usize(s),
                games_per_series: u32::try_from(g).unwrap_or(u32::MAX),
                advance_per_set: to_usize(a),
                turns_per_game: u16::try_from(t).unwrap_or(u16::MAX),
                fill_nationals_to_multiple_of: to_usize(f),
                boards,
                game,
            })
        }
        _ => None,
    };
    match format {
        Some(format) if problems.is_empty() => Ok(format),
        _ => Err(problems.into()),
    }
}

/// The game of `game = "ID"` or of a `[game]` table (`id` and the game's settings).
fn game_settings(
    value: &Spanned<toml::Value>,
    text: &str,
    at: &impl Fn(usize) -> Loc,
) -> Result<GameSettings, Diagnostic> {
    let loc = at(value.span().start);
    let known = || {
        let ids: Vec<&str> = GameKind::all().map(GameKind::id).collect();
        format!("one of {} (see `lrs-tourney games`)", ids.join(", "))
    };
    let kind_of = |id: &str| {
        GameKind::parse(id).map_err(|_| loc.error(format!("unknown game {id:?}"), known()))
    };
    match value.get_ref() {
        toml::Value::String(id) => kind_of(id).map(GameSettings::default_for),
        toml::Value::Table(table) => {
            let Some(id) = table.get("id").and_then(toml::Value::as_str) else {
                return Err(loc.error(
                    "the [game] table has no `id`",
                    format!("id = the game's name, {}", known()),
                ));
            };
            let kind = kind_of(id)?;
            GameSettings::from_table(kind, text).map_err(|p| {
                p.offset
                    .map_or_else(|| loc.clone(), at)
                    .error(format!("[game] of {}: {}", kind.id(), p.what), p.expected)
            })
        }
        _ => Err(loc.error(
            "`game` is neither a game's name nor a table",
            format!(
                "game = \"robotgame\", or a [game] table with id = ...; {}",
                known()
            ),
        )),
    }
}

/// Reports a Last Robot Standing key given for another game.
fn not_for(
    problems: &mut Problems,
    at: &impl Fn(usize) -> Loc,
    offset: Option<usize>,
    key: &str,
    kind: GameKind,
) {
    if let Some(offset) = offset {
        problems.push(at(offset).error(
            format!(
                "`{key}` is a setting of Last Robot Standing, not of {}",
                kind.title()
            ),
            format!(
                "no `{key}` for game = {:?} (its settings go in a [game] table)",
                kind.id()
            ),
        ));
    }
}

/// A checked, in-range value as `usize`.
fn to_usize(v: i64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// Resolves one entry of `boards` through the game layer, placing its problem at `loc`.
fn board_entry(
    entry: &str,
    loc: &Loc,
    dir: Option<&Path>,
    starts_needed: i64,
) -> Result<String, Diagnostic> {
    GameKind::default()
        .pool_entry(entry, dir, starts_needed)
        .map_err(|p| loc.error(p.what, p.expected))
}

/// The shipped board names, for messages.
fn shipped_names() -> String {
    GameKind::default().pool_names()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_format_is_the_windward_code_war() {
        assert_eq!(builtin_bracket(), Ok(BracketFormat::default()));
    }

    #[test]
    fn out_of_range_values_are_located() {
        let text = BUILTIN_BRACKET.replace("advance_per_set = 2", "advance_per_set = 5");
        let Err(e) = parse_bracket(&text, "b.toml", None) else {
            panic!("accepted advance_per_set = 5")
        };
        let d = &e.diagnostics[0];
        assert!(
            d.to_string()
                .contains("`advance_per_set` = 5 is out of range; expected an integer from 1 to 4"),
            "{d}"
        );
    }
}

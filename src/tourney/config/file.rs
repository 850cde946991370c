//! Defines the tournament file reader: [`parse_tournament`] turns the TOML text of a
//! tournament file into a checked [`Tournament`], reading the bracket file and roster it
//! names.
//!
//! The file is first deserialized into "raw" structs that mirror it exactly (unknown keys
//! are refused, every value keeps its span), then converted once into the model, ripgrep
//! style: after this, nothing downstream needs to check the configuration again.

use super::Loaded;
use super::bracket::{builtin_bracket, load_bracket};
use super::error::{ConfigError, LineIndex, Loc, Problems, toml_diagnostic};
use super::numbers::{NonNegative, Positive};
use super::roster::read_roster;
use super::teams::{Field, Registry, parse_bot};
use crate::games::GameKind;
use crate::store::DbLocation;
use crate::tourney::model::{Limits, Tournament};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A tournament file as written (docs/configuration.md).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    name: Option<Spanned<String>>,
    seed: Option<Spanned<NonNegative>>,
    bracket: Option<Spanned<String>>,
    database: Option<Spanned<String>>,
    roster: Option<Spanned<String>>,
    limits: Option<RawLimits>,
    windward: Option<RawWindward>,
    #[serde(default)]
    school: Vec<Spanned<RawSchool>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLimits {
    time_limit_ms: Option<Positive>,
    start_limit_ms: Option<Positive>,
    memory_mb: Option<Positive>,
    sandbox: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWindward {
    listen: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchool {
    name: Option<Spanned<String>>,
    #[serde(default)]
    team: Vec<Spanned<RawTeam>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTeam {
    name: Option<Spanned<String>>,
    bot: Option<Spanned<String>>,
    dir: Option<Spanned<String>>,
    protocol: Option<Spanned<String>>,
}

/// Checks the tournament file `text`, read from `path`: relative paths in it are relative
/// to `path`'s directory, and the bracket file, roster and bot directories it names are
/// read or looked at (nothing is run or written).
pub fn parse_tournament(text: &str, path: &Path) -> Result<Tournament, ConfigError> {
    parse_tournament_with_warnings(text, path).map(|loaded| loaded.tournament)
}

/// [`parse_tournament`], with the warnings of an accepted configuration.
pub fn parse_tournament_with_warnings(text: &str, path: &Path) -> Result<Loaded, ConfigError> {
    let file = path.display().to_string();
    let dir = path.parent().unwrap_or(Path::new(""));
    let raw: RawTournament = toml::from_str(text).map_err(|e| toml_diagnostic(&file, text, &e))?;
    let lines = LineIndex::new(&file, text);
    let field = |s: &Spanned<String>| Field {
        value: s.get_ref().clone(),
        loc: lines.loc(s.span().start),
    };
    let mut problems = Problems::default();

    let name = match &raw.name {
        Some(n) if !n.get_ref().trim().is_empty() => n.get_ref().trim().to_owned(),
        Some(n) => {
            problems.push(
                field(n)
                    .loc
                    .error("`name` is empty", "the tournament's name"),
            );
            String::new()
        }
        None => {
            problems.push(Loc::start(&file).error(
                "missing key `name`",
                "name = \"...\" (the tournament's name) at the top of the file",
            ));
            String::new()
        }
    };
    // Optional: without it, the first run draws a secret seed and keeps it in the database.
    let seed = raw.seed.as_ref().map(|seed| seed.get_ref().0);

    let bracket = match &raw.bracket {
        Some(b) => {
            let b = field(b);
            let bracket_path = dir.join(b.trimmed());
            if bracket_path.is_file() {
                load_bracket(&bracket_path)
            } else {
                Err(b
                    .loc
                    .error(
                        format!("bracket file {} does not exist", bracket_path.display()),
                        "a bracket format file path relative to this file, or no `bracket` key for the built-in Windward format",
                    )
                    .into())
            }
        }
        None => builtin_bracket(),
    };
    let bracket = match bracket {
        Ok(bracket) => Some(bracket),
        Err(e) => {
            e.diagnostics.into_iter().for_each(|d| problems.push(d));
            None
        }
    };

    let database = match &raw.database {
        Some(d) if d.get_ref().trim().is_empty() => {
            problems.push(field(d).loc.error(
                "`database` is empty",
                "a database file path relative to this file, a postgres:// URL, or no `database` key",
            ));
            PathBuf::new().into()
        }
        Some(d) => match DbLocation::parse(d.get_ref(), Some(dir)) {
            Ok(db) => db,
            Err(e) => {
                problems.push(field(d).loc.error(
                    e.to_string(),
                    "a database file path relative to this file, or postgres://USER@HOST:PORT/DATABASE",
                ));
                PathBuf::new().into()
            }
        },
        None => path.with_extension("sqlite").into(),
    };

    let mut limits = raw.limits.as_ref().map_or_else(Limits::default, |l| {
        let default = Limits::default();
        Limits {
            time_limit_ms: l.time_limit_ms.map_or(default.time_limit_ms, |v| v.0),
            start_limit_ms: l.start_limit_ms.map_or(default.start_limit_ms, |v| v.0),
            memory_mb: l.memory_mb.map_or(default.memory_mb, |v| v.0),
            ..default
        }
    });
    if let Some(mode) = raw.limits.as_ref().and_then(|l| l.sandbox.as_ref()) {
        match mode.get_ref().trim() {
            "strict" => limits.sandbox = crate::tourney::model::SandboxMode::Strict,
            "best-effort" => limits.sandbox = crate::tourney::model::SandboxMode::BestEffort,
            other => problems.push(field(mode).loc.error(
                format!("`sandbox` {other:?} is not a sandbox mode"),
                "\"strict\" (refuse to start bots unless every protection is active) or \"best-effort\" (the default)",
            )),
        }
    }
    if let Some(listen) = raw.windward.as_ref().and_then(|w| w.listen.as_ref()) {
        match listen.get_ref().trim().parse::<std::net::SocketAddr>() {
            Ok(addr) => limits.windward_listen = addr,
            Err(_) => problems.push(field(listen).loc.error(
                format!("`listen` {:?} is not an address", listen.get_ref()),
                "IP:PORT, e.g. \"127.0.0.1:1707\" (the 2012 clients connect to port 1707)",
            )),
        }
    }

    let mut registry = Registry::for_game(
        bracket
            .as_ref()
            .map_or(GameKind::default(), |b| b.game.kind()),
    );
    for school in &raw.school {
        let Some(school_name) = &school.get_ref().name else {
            problems.push(lines.loc(school.span().start).error(
                "[[school]] without a name",
                "name = \"...\" in every [[school]]",
            ));
            registry.rejected();
            continue;
        };
        let Some(id) = problems.keep(registry.add_school(&field(school_name))) else {
            registry.rejected();
            continue;
        };
        for team in &school.get_ref().team {
            registry.tried(id);
            let t = team.get_ref();
            let header = lines.loc(team.span().start);
            let Some(team_name) = &t.name else {
                problems.push(header.error(
                    "[[school.team]] without a name",
                    "name = \"...\" in every [[school.team]]",
                ));
                continue;
            };
            let team_name = field(team_name);
            let Some(bot) = &t.bot else {
                problems.push(header.error(
                    format!("team {:?} has no `bot`", team_name.trimmed()),
                    "bot = \"builtin:NAME\" or bot = \"a command line\" with dir = \"...\"",
                ));
                continue;
            };
            let (dir_field, protocol) = (t.dir.as_ref().map(field), t.protocol.as_ref().map(field));
            let bot = parse_bot(
                registry.game,
                &field(bot),
                dir_field.as_ref(),
                protocol.as_ref(),
                dir,
            );
            if let Some(bot) = problems.keep(bot) {
                problems.keep(registry.add_team(id, &team_name, bot));
            }
        }
    }
    let mut rosters = Vec::new();
    if let Some(roster) = &raw.roster {
        let roster = field(roster);
        rosters.push(dir.join(roster.trimmed()));
        read_roster(
            &dir.join(roster.trimmed()),
            &roster.loc,
            &mut registry,
            &mut problems,
        );
    }
    let (schools, teams) = registry.finish(&file, &mut problems);

    let Some(bracket) = bracket else {
        return Err(problems.into());
    };
    let (tournament, warnings) = problems.finish_with_warnings(Tournament {
        name,
        seed,
        bracket,
        database,
        limits,
        schools,
        teams,
        source: path.to_path_buf(),
        rosters,
    })?;
    Ok(Loaded {
        tournament,
        warnings,
    })
}

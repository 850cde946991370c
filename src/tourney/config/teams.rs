//! Defines [`Registry`], which gathers schools and teams from the tournament file and the
//! roster, and [`parse_bot`], which checks one team's `bot`, `dir` and `protocol`.
//!
//! Both sources obey the same rules (docs/configuration.md): a team name is unique within its school,
//! school names are unique (ignoring case), every school has a team, and a command bot has
//! an existing directory. Keeping them in one place gives both sources the same messages.

use super::error::{Diagnostic, Loc, Problems};
use super::slug::unique_slugs;
use crate::games::{BuiltinBot, GameKind};
use crate::tourney::model::{Bot, Program, Protocol, School, SchoolId, Team, TeamId};
use std::collections::HashMap;
use std::path::Path;

/// A value and where it was written.
#[derive(Debug, Clone)]
pub struct Field {
    pub value: String,
    pub loc: Loc,
}

impl Field {
    /// The value without surrounding white space.
    pub fn trimmed(&self) -> &str {
        self.value.trim()
    }
}

/// The valid `builtin:NAME` values of `game`, for messages.
pub fn builtin_names(game: GameKind) -> String {
    BuiltinBot::names_of(game)
}

/// Checks a team's bot: `builtin:NAME` (without `dir` and `protocol`) or a command line,
/// which needs `dir`, an existing directory relative to `base`, and takes an optional
/// `protocol` (`jsonl`, the default, or `windward`).
pub fn parse_bot(
    game: GameKind,
    bot: &Field,
    dir: Option<&Field>,
    protocol: Option<&Field>,
    base: &Path,
) -> Result<Bot, Diagnostic> {
    let command = bot.trimmed();
    if let Some(name) = command.strip_prefix("builtin:") {
        let ai = BuiltinBot::parse(game, name.trim()).ok_or_else(|| {
            bot.loc.error(
                if game.is_default() {
                    format!("unknown built-in AI {:?}", name.trim())
                } else {
                    format!("unknown built-in AI {:?} of {}", name.trim(), game.title())
                },
                format!("one of {}", builtin_names(game)),
            )
        })?;
        if let Some(dir) = dir {
            return Err(dir.loc.error(
                "`dir` applies to command bots, not to built-in AIs",
                format!("no dir for {command}"),
            ));
        }
        if let Some(protocol) = protocol {
            return Err(protocol.loc.error(
                "`protocol` applies to command bots, not to built-in AIs",
                format!("no protocol for {command}"),
            ));
        }
        return Ok(Bot::Builtin(ai));
    }
    if command.is_empty() {
        return Err(bot.loc.error(
            "`bot` is empty",
            format!("a command line or one of {}", builtin_names(game)),
        ));
    }
    let name = protocol.map_or(Protocol::Jsonl.name(), Field::trimmed);
    let loc = protocol.map_or(&bot.loc, |p| &p.loc);
    let protocol = match Protocol::parse(name) {
        Some(Protocol::Windward) if !game.speaks_windward() => {
            return Err(loc.error(
                format!(
                    "{} has no Windward protocol (it is Last Robot Standing's)",
                    game.title()
                ),
                "jsonl (the default)",
            ));
        }
        Some(protocol) => protocol,
        None => {
            return Err(loc.error(
                format!("unknown protocol {name:?}"),
                "jsonl (the default) or windward",
            ));
        }
    };
    let Some(dir_field) = dir else {
        return Err(bot.loc.error(
            format!("the command bot {command:?} has no `dir`"),
            "dir = the bot's directory, where the command runs (relative to this file)",
        ));
    };
    let dir = base.join(dir_field.trimmed());
    if !dir.is_dir() {
        let what = if dir.exists() {
            format!("bot directory {} is not a directory", dir.display())
        } else {
            format!("bot directory {} does not exist", dir.display())
        };
        return Err(dir_field.loc.error(
            what,
            "an existing directory holding the bot, relative to this file",
        ));
    }
    let program = Program::parse(command, dir).map_err(|e| {
        bot.loc.error(
            e.to_string(),
            "a command line with its quotes closed, e.g. python3 \"my bot.py\" (words are split like a shell does, without expansion)",
        )
    })?;
    Ok(Bot::Command { program, protocol })
}

/// A school being gathered.
#[derive(Debug)]
struct Entry {
    name: String,
    loc: Loc,
    teams: Vec<TeamId>,
    /// Lower-cased team names and where each was first defined.
    names: HashMap<String, Loc>,
    /// Teams tried, including invalid ones (an invalid team does not make a school empty).
    tried: usize,
}

/// Schools and teams in configuration order, with the problems found so far.
#[derive(Debug, Default)]
pub struct Registry {
    /// The tournament's game: its built-in AIs are the valid `builtin:NAME`s.
    pub game: GameKind,
    schools: Vec<Entry>,
    teams: Vec<Team>,
    by_name: HashMap<String, SchoolId>,
    /// Schools by [`likeness`]: a name written with other accents, spaces or case is a
    /// misspelling of the school, not a second school.
    by_likeness: HashMap<String, SchoolId>,
    /// Schools written but not added (no name, duplicates): not "no schools at all".
    rejected: usize,
}

impl Registry {
    /// An empty registry of a tournament playing `game`.
    pub fn for_game(game: GameKind) -> Registry {
        Registry {
            game,
            ..Registry::default()
        }
    }

    /// Adds a `[[school]]`; a second school of the same name (ignoring case) is an error.
    pub fn add_school(&mut self, name: &Field) -> Result<SchoolId, Diagnostic> {
        let key = school_key(name)?;
        self.check_spelling(&key, name)?;
        if let Some(&id) = self.by_name.get(&key) {
            let first = &self.schools[id.index()];
            return Err(name.loc.error(
                format!(
                    "duplicate school {:?} (first defined at {} as {:?})",
                    name.trimmed(),
                    first.loc.origin(),
                    first.name
                ),
                "school names unique, ignoring case; put all its teams under one [[school]]",
            ));
        }
        Ok(self.insert(key, name))
    }

    /// Notes a school that was written but could not be added.
    pub fn rejected(&mut self) {
        self.rejected += 1;
    }

    /// The school called `name` (ignoring case), created on first mention (roster rows).
    pub fn school_named(&mut self, name: &Field) -> Result<SchoolId, Diagnostic> {
        let key = school_key(name)?;
        match self.by_name.get(&key) {
            Some(&id) => Ok(id),
            None => {
                self.check_spelling(&key, name)?;
                Ok(self.insert(key, name))
            }
        }
    }

    /// Refuses a new school name that only differs from a known one in accents, spaces or
    /// case (`Ecole  Sainte-Anne` beside `École Sainte-Anne`).
    fn check_spelling(&self, key: &str, name: &Field) -> Result<(), Diagnostic> {
        match self.by_likeness.get(&likeness(name.trimmed())) {
            Some(&id) if self.by_name.get(key) != Some(&id) => {
                let first = &self.schools[id.index()];
                Err(name.loc.error(
                    format!(
                        "school {:?} is spelt differently from {:?} (first written at {})",
                        name.trimmed(),
                        first.name,
                        first.loc.origin()
                    ),
                    "one spelling per school: accents, spaces and case must match",
                ))
            }
            _ => Ok(()),
        }
    }

    fn insert(&mut self, key: String, name: &Field) -> SchoolId {
        let id = SchoolId(self.schools.len());
        self.schools.push(Entry {
            name: name.trimmed().to_owned(),
            loc: name.loc.clone(),
            teams: Vec::new(),
            names: HashMap::new(),
            tried: 0,
        });
        self.by_name.insert(key, id);
        self.by_likeness
            .entry(likeness(name.trimmed()))
            .or_insert(id);
        id
    }

    /// Notes that a team of `school` was tried, whether or not it turns out valid.
    pub fn tried(&mut self, school: SchoolId) {
        if let Some(entry) = self.schools.get_mut(school.index()) {
            entry.tried += 1;
        }
    }

    /// Adds a team named `name` to `school`; its name must be new in the school (ignoring
    /// case).
    pub fn add_team(&mut self, school: SchoolId, name: &Field, bot: Bot) -> Result<(), Diagnostic> {
        let Some(entry) = self.schools.get_mut(school.index()) else {
            return Err(name.loc.error("team of an unknown school", "a school name"));
        };
        let team_name = name.trimmed();
        if team_name.is_empty() {
            return Err(name.loc.error("the team name is empty", "a team name"));
        }
        let key = team_name.to_lowercase();
        if let Some(first) = entry.names.get(&key) {
            return Err(name.loc.error(
                format!(
                    "duplicate team {team_name:?} in school {:?}: already defined at {}",
                    entry.name,
                    first.origin()
                ),
                "team names unique within a school (ignoring case)",
            ));
        }
        entry.names.insert(key, name.loc.clone());
        entry.teams.push(TeamId(self.teams.len()));
        self.teams.push(Team {
            name: team_name.to_owned(),
            school,
            bot,
            origin: name.loc.origin(),
        });
        Ok(())
    }

    /// The schools (with slugs) and teams; a school without any team is an error, and with
    /// no school at all the error points at the start of `file`. A school of one team, beside
    /// others, is a warning: it goes to the nationals without playing, which is right for a
    /// small school and a surprise for a misspelt one.
    pub fn finish(self, file: &str, problems: &mut Problems) -> (Vec<School>, Vec<Team>) {
        if self.schools.is_empty() && self.rejected == 0 {
            problems.push(Loc::start(file).error(
                "no schools",
                "at least one [[school]] with [[school.team]] entries, or a `roster` CSV file",
            ));
        }
        for entry in self.schools.iter().filter(|e| e.tried == 0) {
            problems.push(entry.loc.error(
                format!("school {:?} has no teams", entry.name),
                "at least one [[school.team]] under it, or roster rows naming it",
            ));
        }
        if self.schools.len() > 1 {
            for entry in self
                .schools
                .iter()
                .filter(|e| e.teams.len() == 1 && e.tried == 1)
            {
                let team = &self.teams[entry.teams[0].index()];
                problems.warn(entry.loc.warning(format!(
                    "school {:?} has one team ({:?}): it qualifies for the nationals \
                     without playing a game; if its name is a misspelling of another school's, \
                     correct it",
                    entry.name, team.name
                )));
            }
        }
        let slugs = unique_slugs(self.schools.iter().map(|e| e.name.as_str()));
        let schools = self
            .schools
            .into_iter()
            .zip(slugs)
            .map(|(entry, slug)| School {
                name: entry.name,
                slug,
                teams: entry.teams,
            })
            .collect();
        (schools, self.teams)
    }
}

/// A name as it sounds rather than as it is typed: letters transliterated to ASCII, lower
/// case, runs of spaces as one.
fn likeness(name: &str) -> String {
    deunicode::deunicode(name)
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lookup key of a school name; an empty name is an error.
fn school_key(name: &Field) -> Result<String, Diagnostic> {
    let trimmed = name.trimmed();
    if trimmed.is_empty() {
        return Err(name.loc.error("the school name is empty", "a school name"));
    }
    Ok(trimmed.to_lowercase())
}

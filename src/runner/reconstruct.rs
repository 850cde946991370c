//! Rebuilding a tournament's definition from its database, so that commands given only a
//! `.sqlite` file (`rerun DB SET`) know the teams, bots, limits and bracket format it was
//! run with.
//!
//! A command bot is rebuilt from its stored program (command, words, protocol) and run in
//! its stored directory, which must still hold what it held when the tournament started:
//! its content hash is checked, and a directory that moved or changed is an error naming
//! the team, rather than a series of crashes stored as the set's result.

use super::RunError;
use crate::games::{BuiltinBot, GameKind};
use crate::store::{DbLocation, Store, TeamRow};
use crate::tourney::model::{
    Bot, BracketFormat, Limits, Program, Protocol, School, SchoolId, Team, Tournament,
};
use std::path::{Path, PathBuf};

/// The tournament stored in `database`.
pub async fn tournament_from_store(database: &DbLocation) -> Result<Tournament, RunError> {
    let store = Store::open_existing(database).await?;
    let result = read(&store, database, BotDirs::Checked).await;
    store.close().await;
    result
}

/// How a rebuilt tournament finds its command bots' folders.
#[derive(Debug, Clone, Copy)]
pub(crate) enum BotDirs<'a> {
    /// Where they were stored, each checked against its stored content hash now: a folder
    /// moved or changed is an error.
    Checked,
    /// Where they were stored, or under `root` (`--bots-root STORED=LOCAL`: a stored folder
    /// under `STORED` is looked for under `LOCAL`), not checked: a worker checks each set's
    /// bots before it plays the set, and refuses only that set when one differs.
    PerSet {
        root: Option<&'a (PathBuf, PathBuf)>,
    },
}

/// The tournament stored in `store` as a worker plays it (see [`BotDirs::PerSet`]).
pub(crate) async fn tournament_for_worker(
    store: &Store,
    database: &DbLocation,
    root: Option<&(PathBuf, PathBuf)>,
) -> Result<Tournament, RunError> {
    read(store, database, BotDirs::PerSet { root }).await
}

/// The `source` of a tournament read back from `database`: the database itself.
fn source_of(database: &DbLocation) -> PathBuf {
    match database {
        DbLocation::Sqlite(path) => path.clone(),
        DbLocation::Postgres(url) => PathBuf::from(url.to_string()),
    }
}

/// Whether `t` was read back from its database (it has no tournament file).
pub(crate) fn is_read_from_store(t: &Tournament) -> bool {
    t.source == source_of(&t.database)
}

async fn read(
    store: &Store,
    database: &DbLocation,
    dirs: BotDirs<'_>,
) -> Result<Tournament, RunError> {
    let corrupt = |what: String| RunError::Setup(format!("{database}: {what}"));
    let stored = store
        .tournament()
        .await?
        .ok_or_else(|| corrupt("no tournament stored yet".to_string()))?;
    let bracket: BracketFormat = serde_json::from_str(&stored.format_json)
        .map_err(|e| corrupt(format!("unreadable bracket format: {e}")))?;
    let mut schools: Vec<School> = store
        .schools()
        .await?
        .into_iter()
        .map(|row| School {
            name: row.name,
            slug: row.slug,
            teams: Vec::new(),
        })
        .collect();
    let mut teams = Vec::new();
    let mut problems = Vec::new();
    for row in store.teams().await? {
        let school_name = schools
            .get(row.school)
            .map(|s| s.name.clone())
            .ok_or_else(|| corrupt(format!("team {} has no school", row.name)))?;
        let who = format!("team {:?} ({school_name})", row.name);
        let bot = match stored_bot(&row, database, bracket.game.kind(), dirs) {
            Ok(bot) => bot,
            Err(StoredBotError::Corrupt(what)) => return Err(corrupt(format!("{who}: {what}"))),
            Err(StoredBotError::Unusable(what)) => {
                problems.push(format!("{who}: {what}"));
                continue;
            }
        };
        schools[row.school].teams.push(row.id);
        teams.push(Team {
            name: row.name,
            school: SchoolId(row.school),
            bot,
            origin: format!("{database} (stored)"),
        });
    }
    if !problems.is_empty() {
        return Err(RunError::Setup(format!(
            "{}: cannot play this tournament's bots as they were: {}; put each directory back as it was when the tournament started, or re-run with the tournament file",
            database,
            problems.join("; ")
        )));
    }
    let has_commands = teams.iter().any(|t| matches!(t.bot, Bot::Command { .. }));
    let limits = match stored.limits {
        Some(stored) => Limits {
            time_limit_ms: stored.time_limit_ms,
            start_limit_ms: stored.start_limit_ms,
            memory_mb: stored.memory_mb,
            ..Limits::default()
        },
        None if has_commands => {
            return Err(RunError::Setup(format!(
                "{}: this database was started by an earlier version, which did not store the limits its bots played under; re-run with the tournament file once (that records them)",
                database
            )));
        }
        // Built-in AIs have no limits.
        None => Limits::default(),
    };
    Ok(Tournament {
        name: stored.name,
        seed: Some(stored.seed.secret()),
        bracket,
        database: database.clone(),
        limits,
        schools,
        teams,
        source: source_of(database),
        rosters: Vec::new(),
    })
}

enum StoredBotError {
    /// The row cannot be read: the database is damaged.
    Corrupt(String),
    /// The bot cannot be played as it was (its directory moved or changed).
    Unusable(String),
}

/// A team's bot from its stored columns, its directory checked against the stored hash.
fn stored_bot(
    row: &TeamRow,
    database: &DbLocation,
    game: GameKind,
    dirs: BotDirs<'_>,
) -> Result<Bot, StoredBotError> {
    if let Some(name) = row.bot.strip_prefix("builtin:") {
        return BuiltinBot::parse(game, name)
            .map(Bot::Builtin)
            .ok_or_else(|| StoredBotError::Corrupt(format!("unknown built-in AI {name}")));
    }
    let (prefix, rest) = row
        .bot
        .split_once(':')
        .ok_or_else(|| StoredBotError::Corrupt(format!("unreadable bot {:?}", row.bot)))?;
    let name = row.protocol.as_deref().unwrap_or(prefix);
    let protocol = Protocol::parse(name)
        .ok_or_else(|| StoredBotError::Corrupt(format!("unknown protocol {name}")))?;
    let command = row.command.clone().unwrap_or_else(|| rest.to_string());
    let stored_dir = row
        .dir
        .as_deref()
        .ok_or_else(|| StoredBotError::Corrupt("a command bot without a directory".into()))?;
    let dir = match dirs {
        BotDirs::Checked => resolve_dir(stored_dir, database).ok_or_else(|| {
            StoredBotError::Unusable(format!(
                "its bot directory {stored_dir} does not exist any more (moved or deleted?)"
            ))
        })?,
        BotDirs::PerSet { root } => mapped_dir(stored_dir, root),
    };
    if let (BotDirs::Checked, Some(stored_hash)) = (dirs, &row.content_hash) {
        let now = crate::tourney::dir_hash::dir_hash(&dir).map_err(|e| {
            StoredBotError::Unusable(format!("cannot read its bot directory {stored_dir}: {e}"))
        })?;
        if &now != stored_hash {
            return Err(StoredBotError::Unusable(format!(
                "its bot directory {} changed since the tournament started (content hash {stored_hash} then, {now} now)",
                dir.display()
            )));
        }
    }
    let program = match &row.argv {
        Some(json) => {
            let argv: Vec<String> = serde_json::from_str(json)
                .map_err(|e| StoredBotError::Corrupt(format!("unreadable command words: {e}")))?;
            Program { command, argv, dir }
        }
        // Stored before the words were: split now, as the run did then.
        None => {
            Program::parse(&command, dir).map_err(|e| StoredBotError::Corrupt(e.to_string()))?
        }
    };
    Ok(Bot::Command { program, protocol })
}

/// The stored directory `stored` on this machine: under `LOCAL` when it lies under the
/// `STORED` of `root`, else as stored.
fn mapped_dir(stored: &str, root: Option<&(PathBuf, PathBuf)>) -> PathBuf {
    let path = PathBuf::from(stored);
    match root.and_then(|(from, to)| Some(to.join(path.strip_prefix(from).ok()?))) {
        Some(mapped) => mapped,
        None => path,
    }
}

/// The stored directory as it is found now: as stored (absolute since the words and limits
/// are stored; older databases may hold a path relative to the folder their run started
/// in), else relative to the database's folder.
fn resolve_dir(stored: &str, database: &DbLocation) -> Option<PathBuf> {
    let path = PathBuf::from(stored);
    if path.is_dir() {
        return Some(path);
    }
    if let (true, Some(file)) = (path.is_relative(), database.as_file()) {
        let beside = file.parent().unwrap_or(Path::new("")).join(&path);
        if beside.is_dir() {
            return Some(beside);
        }
    }
    None
}

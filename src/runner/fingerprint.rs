//! The configuration a database was started with, and what differs from a file's.
//!
//! A database keeps a fingerprint of everything in the configuration that changes games —
//! seed, bracket format (boards by content), schools, teams and their bots, and the limits
//! external bots play under — so that all of a tournament's games are played under one
//! configuration. When the fingerprint differs, [`config_differences`] compares what the
//! database stores with the file, field by field, so the refusal says exactly what changed.

use super::RunError;
use crate::store::{SchoolRow, Store, StoreError, StoredTournament};
use crate::tourney::bracket::TournamentSeed;
use crate::tourney::model::{BracketFormat, Tournament};

/// The fingerprint stored by this version: [`legacy_fingerprint`] and the limits, for `t`
/// played with `seed`.
pub fn config_fingerprint(t: &Tournament, seed: &TournamentSeed) -> String {
    let l = &t.limits;
    let text = format!(
        "{}|time_limit_ms={}|start_limit_ms={}|memory_mb={}",
        legacy_fingerprint(t, seed),
        l.time_limit_ms,
        l.start_limit_ms,
        l.memory_mb
    );
    format!("{:016x}", crate::tourney::bracket::fnv1a64(text.as_bytes()))
}

/// The fingerprint of databases started before limits were part of it (and stored).
pub fn legacy_fingerprint(t: &Tournament, seed: &TournamentSeed) -> String {
    let f = &t.bracket;
    let mut text = format!(
        "seed={}|set_size={}|games={}|advance={}|turns={}|fill={}|",
        seed.secret(),
        f.set_size,
        f.games_per_series,
        f.advance_per_set,
        f.turns_per_game,
        f.fill_nationals_to_multiple_of
    );
    // Boards by content, not by how the file names them, so a tournament is the same
    // whatever folder it is run from.
    for board in &f.boards {
        text += &f.game.kind().pool_fingerprint(board);
    }
    // Other games name theirs (Last Robot Standing's text is as it always was, so its
    // databases keep their fingerprint).
    if !f.game.is_plain_default() {
        text += &format!("game={}|", f.game.describe());
    }
    for school in &t.schools {
        text += &format!("school={}|{}|", school.name, school.slug);
        for &team in &school.teams {
            let team = t.team(team);
            text += &format!("team={}|{}|", team.name, team.bot);
        }
    }
    format!("{:016x}", crate::tourney::bracket::fnv1a64(text.as_bytes()))
}

/// The seed a tournament plays with: the stored one when the database has a tournament
/// (refused when the file names another), else the file's, else a secret drawn from the
/// operating system (stored by the run's first write).
pub fn resolve_seed(
    stored: Option<&StoredTournament>,
    t: &Tournament,
    database: &str,
) -> Result<TournamentSeed, RunError> {
    match (stored, t.seed) {
        (Some(stored), Some(file)) if file != stored.seed.secret() => {
            Err(RunError::ConfigChanged {
                database: database.to_string(),
                what: "seed: the file's differs from the one stored".to_string(),
            })
        }
        (Some(stored), _) => Ok(stored.seed),
        (None, Some(file)) => Ok(TournamentSeed::keyed(file)),
        (None, None) => TournamentSeed::draw().map_err(|e| {
            RunError::Setup(format!(
                "cannot draw a secret seed from the operating system ({e}); write `seed = ...` in the tournament file"
            ))
        }),
    }
}

/// Most differences listed in one message.
const MAX_LISTED: usize = 12;

/// What differs between the configuration stored in `store` and `t`, one entry each, in
/// words an organiser can act on (`limits.time_limit_ms: stored 1000, file 500`).
pub async fn config_differences(
    store: &Store,
    stored: &StoredTournament,
    t: &Tournament,
) -> Result<Vec<String>, StoreError> {
    let mut out = Vec::new();
    // Never the values: a message pasted in a chat would publish the secret.
    if t.seed.is_some_and(|seed| seed != stored.seed.secret()) {
        out.push("seed: the file's differs from the one stored".to_string());
    }
    match serde_json::from_str::<BracketFormat>(&stored.format_json) {
        Ok(f) => format_differences(&f, &t.bracket, &mut out),
        Err(_) => out.push("bracket format: the stored one cannot be read".to_string()),
    }
    if let Some(stored) = stored.limits {
        let l = &t.limits;
        for (key, then, now) in [
            ("time_limit_ms", stored.time_limit_ms, l.time_limit_ms),
            ("start_limit_ms", stored.start_limit_ms, l.start_limit_ms),
            ("memory_mb", stored.memory_mb, l.memory_mb),
        ] {
            if then != now {
                out.push(format!("limits.{key}: stored {then}, file {now}"));
            }
        }
    }

    let schools = store.schools().await?;
    let school_name = |id: usize| {
        schools
            .get(id)
            .map_or_else(|| format!("school {id}"), |s| s.name.clone())
    };
    for (i, SchoolRow { name, slug, .. }) in schools.iter().enumerate() {
        match t.schools.get(i) {
            Some(s) if s.name != *name || s.slug != *slug => out.push(format!(
                "school {}: stored {name:?} [{slug}], file {:?} [{}]",
                i + 1,
                s.name,
                s.slug
            )),
            Some(_) => {}
            None => out.push(format!(
                "school {} {name:?}: stored, not in the file",
                i + 1
            )),
        }
    }
    for (i, s) in t.schools.iter().enumerate().skip(schools.len()) {
        out.push(format!(
            "school {} {:?}: in the file, not stored",
            i + 1,
            s.name
        ));
    }

    let teams = store.teams().await?;
    for (i, row) in teams.iter().enumerate() {
        let who = format!(
            "team {} {:?} (school {})",
            i + 1,
            row.name,
            school_name(row.school)
        );
        let Some(team) = t.teams.get(i) else {
            out.push(format!("{who}: stored, not in the file"));
            continue;
        };
        if team.name != row.name {
            out.push(format!(
                "{who}: name changed: stored {:?}, file {:?} ({})",
                row.name, team.name, team.origin
            ));
        }
        if team.school.index() != row.school {
            out.push(format!(
                "{who}: school changed: stored {:?}, file {:?} ({})",
                school_name(row.school),
                t.schools[team.school.index()].name,
                team.origin
            ));
        }
        let bot = team.bot.to_string();
        if bot != row.bot {
            out.push(format!(
                "{who}: bot changed: stored {:?}, file {bot:?} ({})",
                row.bot, team.origin
            ));
        }
    }
    for (i, team) in t.teams.iter().enumerate().skip(teams.len()) {
        out.push(format!(
            "team {} {:?} (school {}): in the file ({}), not stored",
            i + 1,
            team.name,
            t.schools[team.school.index()].name,
            team.origin
        ));
    }
    if out.is_empty() {
        // Same names everywhere: a board file's contents changed.
        out.push("the contents of a board file of the bracket format changed".to_string());
    }
    if out.len() > MAX_LISTED {
        let more = out.len() - MAX_LISTED;
        out.truncate(MAX_LISTED);
        out.push(format!("and {more} more"));
    }
    Ok(out)
}

/// A number of the bracket format, read from it.
type Number = fn(&BracketFormat) -> u64;

fn format_differences(stored: &BracketFormat, file: &BracketFormat, out: &mut Vec<String>) {
    let numbers: [(&str, Number); 5] = [
        ("set_size", |f| f.set_size as u64),
        ("games_per_series", |f| u64::from(f.games_per_series)),
        ("advance_per_set", |f| f.advance_per_set as u64),
        ("turns_per_game", |f| u64::from(f.turns_per_game)),
        ("fill_nationals_to_multiple_of", |f| {
            f.fill_nationals_to_multiple_of as u64
        }),
    ];
    for (key, number) in numbers {
        let (then, now) = (number(stored), number(file));
        if then != now {
            out.push(format!("bracket.{key}: stored {then}, file {now}"));
        }
    }
    // Boards by content: the same board named by another path is the same board.
    let same_boards = stored.boards.len() == file.boards.len()
        && stored
            .boards
            .iter()
            .zip(&file.boards)
            .all(|(a, b)| file.game.kind().same_pool_entry(a, b));
    if !same_boards {
        out.push(format!(
            "bracket.boards: stored {:?}, file {:?}",
            stored.boards, file.boards
        ));
    }
    if stored.game != file.game {
        out.push(format!(
            "bracket.game: stored {}, file {}",
            stored.game.describe(),
            file.game.describe()
        ));
    }
}

//! Where a tournament is stored: an SQLite file, or a PostgreSQL database named by URL.
//!
//! Read once, where the user wrote it (the tournament file's `database`, a `--db` option, a
//! command's `FILE|DB` argument), so a URL that cannot work is an error there, before any
//! connection is tried.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A tournament database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbLocation {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database (`postgres://user@host:port/name`).
    Postgres(PgUrl),
}

/// A PostgreSQL connection URL, checked when read. Shown without its password.
#[derive(Clone, PartialEq, Eq)]
pub struct PgUrl(String);

impl PgUrl {
    /// The URL as written, password included: only for connecting.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The options sqlx connects with.
    pub(crate) fn connect_options(&self) -> sqlx::postgres::PgConnectOptions {
        // Checked when the URL was read.
        sqlx::postgres::PgConnectOptions::from_str(&self.0)
            .unwrap_or_else(|_| sqlx::postgres::PgConnectOptions::new())
    }
}

impl fmt::Display for PgUrl {
    /// The URL with its password replaced by `***`, for messages and listings.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match url_password_span(&self.0) {
            Some((start, end)) => write!(f, "{}***{}", &self.0[..start], &self.0[end..]),
            None => f.write_str(&self.0),
        }
    }
}

impl fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PgUrl({self})")
    }
}

/// Where the password of `scheme://user:password@host` lies in `url`, if it has one.
fn url_password_span(url: &str) -> Option<(usize, usize)> {
    let authority_start = url.find("://")? + 3;
    let authority_end = url[authority_start..]
        .find('/')
        .map_or(url.len(), |i| authority_start + i);
    let authority = &url[authority_start..authority_end];
    let at = authority.rfind('@')?;
    let colon = authority[..at].find(':')?;
    Some((authority_start + colon + 1, authority_start + at))
}

/// Why a database location cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadLocation(String);

impl DbLocation {
    /// Reads a database as written: `postgres://` or `postgresql://` URLs name a PostgreSQL
    /// database, `sqlite://PATH` and anything without a scheme an SQLite file (relative to
    /// `base`, the tournament file's folder, when given).
    pub fn parse(value: &str, base: Option<&Path>) -> Result<DbLocation, BadLocation> {
        let value = value.trim();
        let relative = |path: &str| match base {
            Some(dir) => dir.join(path),
            None => PathBuf::from(path),
        };
        let Some((scheme, rest)) = value.split_once("://") else {
            return Ok(DbLocation::Sqlite(relative(value)));
        };
        match scheme {
            "postgres" | "postgresql" => {
                sqlx::postgres::PgConnectOptions::from_str(value).map_err(|e| {
                    BadLocation(format!(
                        "{}: not a usable PostgreSQL URL ({e}); write postgres://USER@HOST:PORT/DATABASE",
                        PgUrl(value.to_string())
                    ))
                })?;
                if rest
                    .split_once('/')
                    .is_none_or(|(_, db)| db.split('?').next().unwrap_or("").is_empty())
                {
                    return Err(BadLocation(format!(
                        "{}: the URL names no database; write postgres://USER@HOST:PORT/DATABASE",
                        PgUrl(value.to_string())
                    )));
                }
                Ok(DbLocation::Postgres(PgUrl(value.to_string())))
            }
            "sqlite" => Ok(DbLocation::Sqlite(relative(
                rest.split('?').next().unwrap_or(rest),
            ))),
            other => Err(BadLocation(format!(
                "{value}: unknown database kind {other:?}; give an SQLite file path or a postgres:// URL"
            ))),
        }
    }

    /// Whether `value` is written as a database URL (it has a scheme), not a file path.
    pub fn is_url(value: &str) -> bool {
        value.contains("://")
    }

    /// The SQLite file, if it is one.
    pub fn as_file(&self) -> Option<&Path> {
        match self {
            DbLocation::Sqlite(path) => Some(path),
            DbLocation::Postgres(_) => None,
        }
    }
}

impl From<PathBuf> for DbLocation {
    fn from(path: PathBuf) -> DbLocation {
        DbLocation::Sqlite(path)
    }
}

impl From<&Path> for DbLocation {
    fn from(path: &Path) -> DbLocation {
        DbLocation::Sqlite(path.to_path_buf())
    }
}

impl fmt::Display for DbLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbLocation::Sqlite(path) => path.display().fmt(f),
            DbLocation::Postgres(url) => url.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_postgres_and_paths_sqlite() {
        let base = Path::new("/contest");
        assert_eq!(
            DbLocation::parse("cup.sqlite", Some(base)).unwrap(),
            DbLocation::Sqlite(PathBuf::from("/contest/cup.sqlite"))
        );
        assert_eq!(
            DbLocation::parse("sqlite://cup.sqlite?mode=rwc", Some(base)).unwrap(),
            DbLocation::Sqlite(PathBuf::from("/contest/cup.sqlite"))
        );
        let pg = DbLocation::parse("postgres://u:secret@db.lan:5433/cup", None).unwrap();
        assert_eq!(pg.to_string(), "postgres://u:***@db.lan:5433/cup");
        assert!(matches!(pg, DbLocation::Postgres(ref url) if url.as_str().contains("secret")));
        assert_eq!(
            DbLocation::parse("postgresql://u@h/cup", None)
                .unwrap()
                .to_string(),
            "postgresql://u@h/cup"
        );
    }

    #[test]
    fn a_url_that_cannot_work_is_refused_with_why() {
        let no_db = DbLocation::parse("postgres://u@h:5432", None).unwrap_err();
        assert!(no_db.to_string().contains("names no database"), "{no_db}");
        let port = DbLocation::parse("postgres://u@h:notaport/cup", None).unwrap_err();
        assert!(
            port.to_string().contains("not a usable PostgreSQL URL"),
            "{port}"
        );
        let kind = DbLocation::parse("mysql://u@h/cup", None).unwrap_err();
        assert!(kind.to_string().contains("unknown database kind"), "{kind}");
    }
}

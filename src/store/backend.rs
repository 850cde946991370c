//! The two databases behind one store: a native SQLite pool or a native PostgreSQL pool.
//!
//! Every statement is written once, as a [`Query`] (its text and its values as [`Cell`]s),
//! and run on whichever pool the store opened: [`Pool`] and [`Tx`] pick the driver, bind
//! the cells with its own types and hand rows back as one [`StoreRow`], read by column
//! name. Statements use `$n` placeholders, which both databases read; the multi-row
//! statements built at run time use SQLite's anonymous `?` and are numbered for PostgreSQL
//! by [`number_placeholders`] (see `rows.rs`).
//!
//! sqlx's own `Any` driver would do the same with less code, but it has neither timestamp
//! types nor advisory locks, which a database shared by several processes needs.

use sqlx::postgres::{PgArguments, PgPool, PgRow};
use sqlx::sqlite::{SqliteArguments, SqlitePool, SqliteRow};
use sqlx::{Arguments, AssertSqlSafe, Postgres, Row, Sqlite, Transaction};
use std::borrow::Cow;
use std::sync::Arc;

/// The SQL dialect of a store, for the few statements that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

/// An open pool of either database.
#[derive(Debug, Clone)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// A transaction on either database; dropped without [`Tx::commit`], it rolls back.
#[derive(Debug)]
pub(crate) enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

/// A value bound into a statement.
#[derive(Debug, Clone)]
pub(crate) enum Cell {
    Int(i64),
    OptInt(Option<i64>),
    Bool(bool),
    Text(String),
    OptText(Option<String>),
    Blob(Vec<u8>),
}

/// `impl From<T> for Cell` for each bindable type: how a Rust value becomes a cell.
macro_rules! cells_from {
    ($($t:ty => |$v:ident| $cell:expr,)*) => {$(
        impl From<$t> for Cell {
            fn from($v: $t) -> Cell {
                $cell
            }
        }
    )*};
}

cells_from! {
    i64 => |v| Cell::Int(v),
    bool => |v| Cell::Bool(v),
    String => |v| Cell::Text(v),
    &str => |v| Cell::Text(v.to_string()),
    Option<String> => |v| Cell::OptText(v),
    Vec<u8> => |v| Cell::Blob(v),
    super::GameNo => |v| Cell::Int(v.0),
}

/// The text of a statement: written in the code, or built at run time and shared.
#[derive(Debug, Clone)]
pub(crate) enum SqlText {
    Static(&'static str),
    Shared(Arc<str>),
    Owned(String),
}

/// One statement and its values.
#[derive(Debug, Clone)]
pub(crate) struct Query {
    sql: SqlText,
    cells: Vec<Cell>,
}

impl Query {
    /// A statement written in the code (`$n` placeholders).
    pub(crate) fn new(sql: &'static str) -> Query {
        Query {
            sql: SqlText::Static(sql),
            cells: Vec::new(),
        }
    }

    /// A statement built at run time, with its values.
    pub(crate) fn built(sql: SqlText, cells: Vec<Cell>) -> Query {
        Query { sql, cells }
    }

    /// Binds the next placeholder.
    pub(crate) fn bind(mut self, value: impl Into<Cell>) -> Query {
        self.cells.push(value.into());
        self
    }
}

/// Where a [`Query`] runs: on a pool, or inside a transaction.
pub(crate) enum Exec<'a> {
    Pool(&'a Pool),
    Tx(&'a mut Tx),
}

impl<'a> From<&'a Pool> for Exec<'a> {
    fn from(p: &'a Pool) -> Exec<'a> {
        Exec::Pool(p)
    }
}

impl<'a> From<&'a mut Tx> for Exec<'a> {
    fn from(t: &'a mut Tx) -> Exec<'a> {
        Exec::Tx(t)
    }
}

/// Runs `$call` with `$e` bound to the pool or the transaction `$on` names: both have the
/// same methods, but no trait of the driver's covers them for both backends.
macro_rules! on_exec {
    ($on:expr, $e:ident => $call:expr) => {
        match $on.into() {
            Exec::Pool($e) => $call,
            Exec::Tx($e) => $call,
        }
    };
}

impl Query {
    /// Runs the statement on `on`; returns the rows it changed.
    pub(crate) async fn execute<'a>(self, on: impl Into<Exec<'a>>) -> Result<u64, sqlx::Error> {
        on_exec!(on, e => e.execute(self).await)
    }

    /// Every row the query returns on `on`.
    pub(crate) async fn fetch_all<'a>(
        self,
        on: impl Into<Exec<'a>>,
    ) -> Result<Vec<StoreRow>, sqlx::Error> {
        on_exec!(on, e => e.fetch_all(self).await)
    }

    /// The first row the query returns on `on`, if any.
    pub(crate) async fn fetch_optional<'a>(
        self,
        on: impl Into<Exec<'a>>,
    ) -> Result<Option<StoreRow>, sqlx::Error> {
        on_exec!(on, e => e.fetch_optional(self).await)
    }

    /// The one row the query returns on `on`.
    pub(crate) async fn fetch_one<'a>(
        self,
        on: impl Into<Exec<'a>>,
    ) -> Result<StoreRow, sqlx::Error> {
        self.fetch_optional(on)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

/// Binds `cells` with the driver's own types, in order.
macro_rules! arguments {
    ($args:ty, $cells:expr) => {{
        let cells: Vec<Cell> = $cells;
        let mut args = <$args>::default();
        args.reserve(cells.len(), 0);
        let mut bound: Result<(), sqlx::error::BoxDynError> = Ok(());
        for cell in cells {
            bound = match cell {
                Cell::Int(v) => args.add(v),
                Cell::OptInt(v) => args.add(v),
                Cell::Bool(v) => args.add(v),
                Cell::Text(v) => args.add(v),
                Cell::OptText(v) => args.add(v),
                Cell::Blob(v) => args.add(v),
            };
            if bound.is_err() {
                break;
            }
        }
        bound.map(|()| args)
    }};
}

/// The sqlx query of `q` for the database of `$args`, or why a value cannot be bound.
macro_rules! sqlx_query {
    ($db:ty, $args:ty, $q:expr) => {{
        let q: Query = $q;
        arguments!($args, q.cells)
            .map_err(sqlx::Error::Encode)
            .map(|args| match q.sql {
                SqlText::Static(s) => sqlx::query_with::<$db, $args>(s, args),
                SqlText::Shared(s) => sqlx::query_with::<$db, $args>(AssertSqlSafe(s), args),
                SqlText::Owned(s) => sqlx::query_with::<$db, $args>(AssertSqlSafe(s), args),
            })
    }};
}

/// Runs `$q` with `$method` (`execute`, `fetch_all`, `fetch_optional`) on `$on`, a pool or
/// a transaction of either database; `$wrap_sqlite` / `$wrap_pg` map the driver's result.
macro_rules! run_on {
    ($on:expr, $q:expr, $method:ident, $wrap_sqlite:expr, $wrap_pg:expr) => {
        match $on {
            On::Sqlite(e) => match sqlx_query!(Sqlite, SqliteArguments, $q) {
                Ok(query) => query.$method(e).await.map($wrap_sqlite),
                Err(bad) => Err(bad),
            },
            On::Postgres(e) => match sqlx_query!(Postgres, PgArguments, $q) {
                Ok(query) => query.$method(e).await.map($wrap_pg),
                Err(bad) => Err(bad),
            },
        }
    };
}

/// Where a statement runs: a pool, or inside a transaction.
enum On<S, P> {
    Sqlite(S),
    Postgres(P),
}

/// What both databases answer: rows affected, rows, or an optional row.
macro_rules! executor_methods {
    ($recv:ty) => {
        /// Runs a statement; returns the rows it changed.
        pub(crate) async fn execute(self: $recv, q: Query) -> Result<u64, sqlx::Error> {
            run_on!(
                Self::on(self),
                q,
                execute,
                |r: sqlx::sqlite::SqliteQueryResult| r.rows_affected(),
                |r: sqlx::postgres::PgQueryResult| r.rows_affected()
            )
        }

        /// Every row a query returns.
        pub(crate) async fn fetch_all(self: $recv, q: Query) -> Result<Vec<StoreRow>, sqlx::Error> {
            run_on!(
                Self::on(self),
                q,
                fetch_all,
                |rows: Vec<SqliteRow>| rows.into_iter().map(StoreRow::Sqlite).collect(),
                |rows: Vec<PgRow>| rows.into_iter().map(StoreRow::Postgres).collect()
            )
        }

        /// The first row a query returns, if any.
        pub(crate) async fn fetch_optional(
            self: $recv,
            q: Query,
        ) -> Result<Option<StoreRow>, sqlx::Error> {
            run_on!(
                Self::on(self),
                q,
                fetch_optional,
                |row: Option<SqliteRow>| row.map(StoreRow::Sqlite),
                |row: Option<PgRow>| row.map(StoreRow::Postgres)
            )
        }
    };
}

impl Pool {
    fn on(&self) -> On<&SqlitePool, &PgPool> {
        match self {
            Pool::Sqlite(p) => On::Sqlite(p),
            Pool::Postgres(p) => On::Postgres(p),
        }
    }

    executor_methods!(&Pool);

    /// Starts a transaction.
    pub(crate) async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            Pool::Sqlite(p) => Tx::Sqlite(p.begin().await?),
            Pool::Postgres(p) => Tx::Postgres(p.begin().await?),
        })
    }

    /// Closes the pool, waiting for its connections to finish.
    pub(crate) async fn close(&self) {
        match self {
            Pool::Sqlite(p) => p.close().await,
            Pool::Postgres(p) => p.close().await,
        }
    }
}

type SqliteConn = sqlx::SqliteConnection;
type PgConn = sqlx::PgConnection;

impl Tx {
    fn on(&mut self) -> On<&mut SqliteConn, &mut PgConn> {
        match self {
            Tx::Sqlite(t) => On::Sqlite(&mut **t),
            Tx::Postgres(t) => On::Postgres(&mut **t),
        }
    }

    executor_methods!(&mut Tx);

    pub(crate) async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.commit().await,
            Tx::Postgres(t) => t.commit().await,
        }
    }

    pub(crate) async fn rollback(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(t) => t.rollback().await,
            Tx::Postgres(t) => t.rollback().await,
        }
    }
}

/// A row type both databases read by column name (a `#[derive(sqlx::FromRow)]` struct).
pub(crate) trait TypedRow:
    for<'r> sqlx::FromRow<'r, SqliteRow> + for<'r> sqlx::FromRow<'r, PgRow> + Send + Unpin + 'static
{
}

impl<T> TypedRow for T where
    T: for<'r> sqlx::FromRow<'r, SqliteRow>
        + for<'r> sqlx::FromRow<'r, PgRow>
        + Send
        + Unpin
        + 'static
{
}

/// Why streaming rows stopped: the database failed, or `each` did (its error).
#[derive(Debug)]
pub(crate) enum Streamed<E> {
    Db(sqlx::Error),
    Each(E),
}

impl Streamed<std::convert::Infallible> {
    /// The database's error: the only way a stream whose rows cannot fail fails.
    pub(crate) fn db(self) -> sqlx::Error {
        match self {
            Streamed::Db(e) => e,
            Streamed::Each(never) => match never {},
        }
    }
}

/// The text of `sql` as sqlx takes it.
fn sql_str(sql: SqlText) -> sqlx::SqlStr {
    use sqlx::SqlSafeStr;
    match sql {
        SqlText::Static(s) => s.into_sql_str(),
        SqlText::Shared(s) => AssertSqlSafe(s).into_sql_str(),
        SqlText::Owned(s) => AssertSqlSafe(s).into_sql_str(),
    }
}

impl Pool {
    /// Runs `q` and hands each row it returns, read as a `T`, to `each` as it arrives:
    /// the rows are never all in memory at once.
    pub(crate) async fn for_each_as<T: TypedRow, E>(
        &self,
        q: Query,
        mut each: impl FnMut(T) -> Result<(), E>,
    ) -> Result<(), Streamed<E>> {
        use futures_util::TryStreamExt;
        let sql = sql_str(q.sql);
        match self {
            Pool::Sqlite(p) => {
                let args = arguments!(SqliteArguments, q.cells)
                    .map_err(|e| Streamed::Db(sqlx::Error::Encode(e)))?;
                let mut rows = sqlx::query_as_with::<Sqlite, T, _>(sql, args).fetch(p);
                while let Some(row) = rows.try_next().await.map_err(Streamed::Db)? {
                    each(row).map_err(Streamed::Each)?;
                }
            }
            Pool::Postgres(p) => {
                let args = arguments!(PgArguments, q.cells)
                    .map_err(|e| Streamed::Db(sqlx::Error::Encode(e)))?;
                let mut rows = sqlx::query_as_with::<Postgres, T, _>(sql, args).fetch(p);
                while let Some(row) = rows.try_next().await.map_err(Streamed::Db)? {
                    each(row).map_err(Streamed::Each)?;
                }
            }
        }
        Ok(())
    }
}

/// A row of either database, read by column name. Integers are 64-bit on both (`BIGINT`
/// on PostgreSQL); flags are read as booleans (SQLite stores them as 0 or 1).
#[derive(Debug)]
pub(crate) enum StoreRow {
    Sqlite(SqliteRow),
    Postgres(PgRow),
}

/// Column `$name` of `$row` as a `$t`.
macro_rules! column {
    ($row:expr, $t:ty, $name:expr) => {
        match $row {
            StoreRow::Sqlite(r) => r.try_get::<$t, _>($name),
            StoreRow::Postgres(r) => r.try_get::<$t, _>($name),
        }
    };
}

impl StoreRow {
    pub(crate) fn int(&self, name: &str) -> Result<i64, sqlx::Error> {
        column!(self, i64, name)
    }

    pub(crate) fn opt_int(&self, name: &str) -> Result<Option<i64>, sqlx::Error> {
        column!(self, Option<i64>, name)
    }

    pub(crate) fn flag(&self, name: &str) -> Result<bool, sqlx::Error> {
        column!(self, bool, name)
    }

    pub(crate) fn text(&self, name: &str) -> Result<String, sqlx::Error> {
        column!(self, String, name)
    }

    pub(crate) fn opt_text(&self, name: &str) -> Result<Option<String>, sqlx::Error> {
        column!(self, Option<String>, name)
    }

    pub(crate) fn opt_blob(&self, name: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
        column!(self, Option<Vec<u8>>, name)
    }
}

/// `sql` with each anonymous `?` placeholder numbered `$1`, `$2`, ... in order, for
/// PostgreSQL. The store's statements hold no `?` inside quotes.
pub(crate) fn number_placeholders(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + sql.len() / 2);
    let mut n = 0usize;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push('$');
            out.push_str(&n.to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anonymous_placeholders_are_numbered_in_order() {
        assert_eq!(
            number_placeholders("INSERT INTO t VALUES (?, ?), (?, ?) ON CONFLICT DO NOTHING"),
            "INSERT INTO t VALUES ($1, $2), ($3, $4) ON CONFLICT DO NOTHING"
        );
        assert_eq!(
            number_placeholders("SELECT 1 WHERE a = $1"),
            "SELECT 1 WHERE a = $1"
        );
        let many = ["?"; 12].join(", ");
        assert!(number_placeholders(&many).ends_with("$11, $12"));
    }
}

//! Multi-row statements with cached plans: the store's bulk writes.
//!
//! A tournament writes hundreds of thousands of rows (a result line per team per game,
//! members and planned games per set). One statement per row would be a round trip to the
//! database thread each; one statement per batch has a new text for every batch size, and
//! SQLite then spends more time parsing those texts than storing the rows. So a batch of
//! `n` rows is written by statements of fixed sizes: full chunks of the largest size, then
//! the rest by its binary digits (`n = 300` is 256 + 32 + 8 + 4). Each size of each
//! statement is prepared once per connection and kept in sqlx's statement cache; the
//! texts themselves are built once and shared.

use super::backend::{Cell, Dialect, Query, SqlText, StoreRow, Tx, number_placeholders};
use super::{Store, StoreError};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// SQLite allows 32766 bound values per statement (PostgreSQL 65535).
const MAX_VALUES: usize = 32766;
/// The largest statement, in rows: large enough that a commit of hundreds of games takes a
/// handful of statements, small enough that each cached plan stays well under a megabyte.
const MAX_ROWS: usize = 256;

/// The shape of a multi-row statement: `head`, then the rows `(?, ?, ...<row_suffix>)`
/// separated by commas, then `tail`. `row_suffix` holds constant columns (`, 'planned'`);
/// `tail` may bind values of its own (`trailing`, the same for every chunk).
#[derive(Debug, Clone, Copy)]
pub(super) struct RowsSql<'a> {
    pub head: &'a str,
    pub cols: usize,
    pub row_suffix: &'a str,
    pub tail: &'a str,
}

impl<'a> RowsSql<'a> {
    /// `head` then rows of `cols` bound values, with nothing after them.
    pub(super) const fn values(head: &'a str, cols: usize) -> RowsSql<'a> {
        RowsSql {
            head,
            cols,
            row_suffix: "",
            tail: "",
        }
    }
}

/// Statement texts by shape and size, shared by every clone of a [`Store`].
#[derive(Debug, Default, Clone)]
pub(super) struct SqlTexts(Arc<Mutex<HashMap<String, Arc<str>>>>);

/// The statement sizes that write `rows` rows: full chunks of `max`, then the rest by its
/// binary digits, largest first. Only powers of two (up to `max`, itself one) ever occur.
fn chunk_sizes(rows: usize, max: usize) -> impl Iterator<Item = usize> {
    debug_assert!(max.is_power_of_two());
    let full = rows / max;
    let rest = rows % max;
    std::iter::repeat_n(max, full).chain(
        (0..max.trailing_zeros())
            .rev()
            .map(|bit| 1usize << bit)
            .filter(move |size| rest & size != 0),
    )
}

/// The largest power of two of rows that fits SQLite's limit with `cols` values per row and
/// `trailing` more, capped at [`MAX_ROWS`].
fn max_rows(cols: usize, trailing: usize) -> usize {
    let fit = (MAX_VALUES - trailing) / cols.max(1);
    let mut rows = MAX_ROWS;
    while rows > fit {
        rows /= 2;
    }
    rows.max(1)
}

impl Store {
    /// The text of `shape` with `rows` rows, built once.
    fn rows_sql(&self, shape: RowsSql<'_>, rows: usize) -> Arc<str> {
        let key = format!(
            "{}\u{0}{}\u{0}{}\u{0}{}\u{0}{rows}",
            shape.head, shape.cols, shape.row_suffix, shape.tail
        );
        let mut texts = self
            .sql_texts
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        texts
            .entry(key)
            .or_insert_with(|| {
                let values = Store::placeholders(rows, shape.cols, shape.row_suffix);
                let sql = format!("{} {values} {}", shape.head, shape.tail);
                match self.dialect() {
                    Dialect::Sqlite => Arc::from(sql),
                    Dialect::Postgres => Arc::from(number_placeholders(&sql).as_ref()),
                }
            })
            .clone()
    }

    /// The statements that run `shape` over `cells` (row after row, `shape.cols` each),
    /// `trailing` bound after the rows of every one.
    fn rows_statements(
        &self,
        shape: RowsSql<'_>,
        cells: Vec<Cell>,
        trailing: &[Cell],
    ) -> Vec<Query> {
        debug_assert_eq!(cells.len() % shape.cols, 0, "whole rows");
        let rows = cells.len() / shape.cols;
        let mut cells = cells.into_iter();
        chunk_sizes(rows, max_rows(shape.cols, trailing.len()))
            .map(|size| {
                let mut values = Vec::with_capacity(size * shape.cols + trailing.len());
                values.extend(cells.by_ref().take(size * shape.cols));
                values.extend(trailing.iter().cloned());
                Query::built(SqlText::Shared(self.rows_sql(shape, size)), values)
            })
            .collect()
    }

    /// Runs `shape` over `cells` in cached statements of fixed sizes, binding `trailing`
    /// after the rows of each. Returns the rows affected.
    pub(super) async fn execute_rows(
        &self,
        tx: &mut Tx,
        shape: RowsSql<'_>,
        cells: Vec<Cell>,
        trailing: &[Cell],
    ) -> Result<u64, StoreError> {
        let err = self.db_err();
        let mut affected = 0;
        for q in self.rows_statements(shape, cells, trailing) {
            affected += tx.execute(q).await.map_err(&err)?;
        }
        Ok(affected)
    }

    /// Like [`Store::execute_rows`] for a query: the rows it returns, statement after
    /// statement.
    pub(super) async fn fetch_rows(
        &self,
        tx: &mut Tx,
        shape: RowsSql<'_>,
        cells: Vec<Cell>,
    ) -> Result<Vec<StoreRow>, StoreError> {
        let err = self.db_err();
        let mut rows = Vec::new();
        for q in self.rows_statements(shape, cells, &[]) {
            rows.extend(tx.fetch_all(q).await.map_err(&err)?);
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunk_sizes_cover_every_row_with_powers_of_two() {
        for max in [1, 2, 64, 256] {
            for rows in 0..1000 {
                let sizes: Vec<usize> = chunk_sizes(rows, max).collect();
                assert_eq!(sizes.iter().sum::<usize>(), rows, "rows {rows} max {max}");
                assert!(sizes.iter().all(|s| s.is_power_of_two() && *s <= max));
                assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "largest first");
                // At most the full chunks plus one statement per binary digit of the rest.
                assert!(sizes.len() <= rows / max + max.trailing_zeros() as usize);
            }
        }
        assert_eq!(chunk_sizes(300, 256).collect::<Vec<_>>(), [256, 32, 8, 4]);
    }

    #[test]
    fn max_rows_keeps_statements_under_sqlites_value_limit() {
        assert_eq!(max_rows(13, 0), 256);
        assert_eq!(max_rows(6, 1), 256);
        assert_eq!(max_rows(200, 0), 128);
        for cols in 1..300 {
            assert!(max_rows(cols, 1) * cols < MAX_VALUES);
        }
    }
}

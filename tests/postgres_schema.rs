//! The game-neutral results schema runs unchanged on PostgreSQL: migration `0005` (the
//! `tournament.game` column and `game_results` with `score, won, faults, stat_1..stat_5`),
//! applied statement by statement to a real PostgreSQL server over tables shaped as the
//! migrations before it leave them, carries an old result line over, and the store's own
//! insert and read statements for result lines run there as written.
//!
//! Needs the server at 127.0.0.1:5432 (`LRS_TEST_POSTGRES` overrides the URL); `.ci/run`
//! starts it when it is not running. Each run works in a schema of its own, dropped at the
//! end.

use sqlx::postgres::PgPoolOptions;
use sqlx::{AssertSqlSafe, Executor, Row};

const MIGRATION: &str = include_str!("../migrations/sqlite/0005_game_neutral_results.sql");

/// The tables 0005 reads and changes, as PostgreSQL would have them (only the columns it
/// touches, in portable types).
const BEFORE: &str = "
CREATE TABLE tournament (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE teams (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE games (no BIGINT PRIMARY KEY, set_id TEXT NOT NULL, game_index INTEGER NOT NULL);
CREATE TABLE game_results (
    game_no    INTEGER NOT NULL REFERENCES games (no),
    team_id    INTEGER NOT NULL REFERENCES teams (id),
    seat       INTEGER NOT NULL,
    score      INTEGER NOT NULL,
    flags      INTEGER NOT NULL,
    hits       INTEGER NOT NULL,
    pushes     INTEGER NOT NULL,
    push_kills INTEGER NOT NULL,
    deaths     INTEGER NOT NULL,
    faults     INTEGER NOT NULL,
    won        INTEGER NOT NULL,
    PRIMARY KEY (game_no, team_id)
);
INSERT INTO tournament (id, name) VALUES (1, 'old');
INSERT INTO teams (id, name) VALUES (0, 'a'), (1, 'b');
INSERT INTO games (no, set_id, game_index) VALUES (1, 's/final', 0), (2, 's/final', 1);
INSERT INTO game_results VALUES (1, 0, 0, 12, 3, 4, 5, 1, 2, 0, 1), (1, 1, 1, 7, 1, 2, 0, 0, 3, 2, 0);
";

/// SQL statements of a migration file: split at `;` line ends, comments dropped.
fn statements(sql: &str) -> Vec<String> {
    let without_comments: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    without_comments
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn migration_0005_and_the_result_statements_run_on_postgresql() {
    let url = std::env::var("LRS_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string());
    let schema = format!("lrs_schema_{}", std::process::id());
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .after_connect({
            let schema = schema.clone();
            move |conn, _| {
                let schema = schema.clone();
                Box::pin(async move {
                    conn.execute(AssertSqlSafe(format!(
                        "CREATE SCHEMA IF NOT EXISTS {schema}"
                    )))
                    .await?;
                    conn.execute(AssertSqlSafe(format!("SET search_path TO {schema}")))
                        .await?;
                    Ok(())
                })
            }
        })
        .connect(&url)
        .await
        .unwrap_or_else(|e| {
            panic!("PostgreSQL at {url}: {e} (start it, or set LRS_TEST_POSTGRES)")
        });
    let result = async {
        for s in statements(BEFORE) {
            pool.execute(AssertSqlSafe(s)).await?;
        }
        for s in statements(MIGRATION) {
            pool.execute(AssertSqlSafe(s.clone()))
                .await
                .map_err(|e| sqlx::Error::Protocol(format!("{s}: {e}")))?;
        }
        // The old line is carried over: flags..deaths become stat_1..stat_5.
        let row = sqlx::query(
            "SELECT score, won, faults, stat_1, stat_2, stat_3, stat_4, stat_5 FROM game_results
             WHERE game_no = 1 AND team_id = 0",
        )
        .fetch_one(&pool)
        .await?;
        let got: Vec<i64> = (0..8).map(|i| row.get::<i64, _>(i)).collect();
        assert_eq!(got, vec![12, 1, 0, 3, 4, 5, 1, 2]);
        let game: String = sqlx::query("SELECT game FROM tournament WHERE id = 1")
            .fetch_one(&pool)
            .await?
            .get(0);
        assert_eq!(game, "lrs");
        // The store's insert of result lines (store/write.rs), twice: the second is ignored.
        for _ in 0..2 {
            sqlx::query(
                "INSERT INTO game_results (line, game_no, team_id, seat, score, won, faults,
                                           stat_1, stat_2, stat_3, stat_4, stat_5)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                 ON CONFLICT DO NOTHING",
            )
            .bind(2_i64 * 16)
            .bind(2_i64)
            .bind(1_i64)
            .bind(0_i64)
            .bind(-41_i64)
            .bind(1_i64)
            .bind(0_i64)
            .bind(3_i64)
            .bind(250_i64)
            .bind(41_i64)
            .bind(0_i64)
            .bind(0_i64)
            .execute(&pool)
            .await?;
        }
        let lines: i64 = sqlx::query("SELECT COUNT(*) FROM game_results")
            .fetch_one(&pool)
            .await?
            .get(0);
        assert_eq!(lines, 3);
        let score: i64 = sqlx::query("SELECT score FROM game_results WHERE game_no = 2")
            .fetch_one(&pool)
            .await?
            .get(0);
        assert_eq!(score, -41, "a negative score (Robots) round-trips");
        Ok::<_, sqlx::Error>(())
    }
    .await;
    pool.execute(AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .await
        .expect("drops its schema");
    pool.close().await;
    result.expect("the migration and statements run on PostgreSQL");
}

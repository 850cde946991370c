//! A fresh PostgreSQL database per test, on the server at 127.0.0.1:5432 (or the one
//! `LRS_TEST_POSTGRES` names), dropped when the test ends. A server that cannot be reached
//! fails the test: these tests never skip. `.ci/run` starts the machine's server when it
//! is not running.

use std::sync::atomic::{AtomicU32, Ordering};

/// The server the tests use: any database on it (new ones are created beside it).
pub fn server_url() -> String {
    std::env::var("LRS_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_string())
}

/// A database of its own for one test; dropped (with its connections) on drop.
pub struct PgDb {
    pub url: String,
    name: String,
}

static NEXT: AtomicU32 = AtomicU32::new(0);

fn admin<T>(work: impl AsyncFnOnce(&mut sqlx::PgConnection) -> T) -> T {
    use sqlx::Connection;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let url = server_url();
        let mut conn = sqlx::PgConnection::connect(&url).await.unwrap_or_else(|e| {
            panic!(
                "the PostgreSQL server of {url} cannot be reached ({e}): start it (`.ci/run` does) or set LRS_TEST_POSTGRES"
            )
        });
        let out = work(&mut conn).await;
        let _ = conn.close().await;
        out
    })
}

impl PgDb {
    /// Creates an empty database named after the test process.
    pub fn new() -> PgDb {
        let name = format!(
            "lrs_test_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::SeqCst)
        );
        admin(async |conn| {
            use sqlx::Executor;
            conn.execute(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {name}"
            )))
            .await
            .unwrap();
            conn.execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .await
                .unwrap();
        });
        let mut url = url::Url::parse(&server_url()).expect("LRS_TEST_POSTGRES is a URL");
        url.set_path(&name);
        PgDb {
            url: url.to_string(),
            name,
        }
    }

    /// The database as the store names it.
    pub fn location(&self) -> lrs_tourney::store::DbLocation {
        lrs_tourney::store::DbLocation::parse(&self.url, None).unwrap()
    }
}

impl Drop for PgDb {
    fn drop(&mut self) {
        let name = self.name.clone();
        admin(async |conn| {
            use sqlx::Executor;
            let _ = conn
                .execute(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .await;
        });
    }
}

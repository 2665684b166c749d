//! Storage faults: which database errors are temporary (a full disk, a busy or locked file, a
//! deadlock), the pool's check that no connection goes back into use inside a transaction,
//! and retries of transactions that PostgreSQL aborted to break a deadlock.

use sqlx::{AnyConnection, Connection};
use std::future::Future;
use std::time::Duration;

/// SQLite primary result codes that mean "not now", not "never": BUSY, LOCKED, IOERR, FULL.
const SQLITE_TEMPORARY: [i64; 4] = [5, 6, 10, 13];

/// PostgreSQL SQLSTATEs of a transaction aborted to resolve a conflict: a serialisation
/// failure and a deadlock. The whole transaction may be run again.
const PG_RETRYABLE: [&str; 2] = ["40001", "40P01"];

/// Whether a database error is temporary: the client may retry (503 with `Retry-After`),
/// e.g. the disk is full, the database is busy or locked, the pool has no free connection, or
/// PostgreSQL is out of resources (class 53) or aborted a transaction to break a deadlock.
pub fn is_temporary(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) => true,
        sqlx::Error::Database(db) => {
            let Some(code) = db.code() else { return false };
            // PostgreSQL's SQLSTATEs can be all digits too ("53100"): tell the drivers apart.
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                return code.starts_with("53")
                    || code == "57P03"
                    || PG_RETRYABLE.contains(&code.as_ref());
            }
            code.parse::<i64>()
                .is_ok_and(|n| SQLITE_TEMPORARY.contains(&(n & 0xff)))
        }
        _ => false,
    }
}

/// Whether PostgreSQL aborted the transaction to resolve a conflict (run it again).
pub(super) fn is_retryable_conflict(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db)
        if db.code().is_some_and(|c| PG_RETRYABLE.contains(&c.as_ref())))
}

/// Runs a transaction again when PostgreSQL aborted it for a deadlock or a serialisation
/// failure, up to 5 attempts with a growing, jittered pause: concurrent session starts that
/// collide are all stored instead of some being refused.
pub(super) async fn retry_conflicts<T, F, Fut>(mut attempt: F) -> Result<T, sqlx::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, sqlx::Error>>,
{
    const ATTEMPTS: u32 = 5;
    let mut n = 1;
    loop {
        match attempt().await {
            Err(e) if n < ATTEMPTS && is_retryable_conflict(&e) => {
                let base = 5u64 << n;
                let mut bytes = [0u8; 8];
                let _ = getrandom::fill(&mut bytes);
                let jitter = u64::from_le_bytes(bytes) % base;
                tracing::warn!(error = %e, attempt = n, "transaction aborted by a conflict; retrying");
                tokio::time::sleep(Duration::from_millis(base + jitter)).await;
                n += 1;
            }
            other => return other,
        }
    }
}

/// The pool's `after_release` check: a connection that is still inside a transaction (a
/// COMMIT or ROLLBACK that failed, e.g. on a full disk, leaves sqlx's transaction depth above
/// zero and may leave SQLite's write lock held) is closed, which rolls it back, instead of
/// going back into use where its next "transaction" would be a savepoint inside the stale
/// one that never commits. A rollback queued by a dropped transaction is flushed first.
pub(super) async fn outside_transaction(conn: &mut AnyConnection) -> Result<bool, sqlx::Error> {
    if conn.is_in_transaction() {
        conn.ping().await?;
    }
    if conn.is_in_transaction() {
        tracing::warn!("a pooled connection was left inside a transaction; closing it");
        return Ok(false);
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite's numeric codes and PostgreSQL's SQLSTATEs are told apart: "53100" (disk full
    /// on PostgreSQL) is temporary, a unique violation is not.
    #[tokio::test]
    async fn temporary_errors_are_recognised_on_sqlite() {
        sqlx::any::install_default_drivers();
        let mut conn = AnyConnection::connect("sqlite::memory:")
            .await
            .expect("memory database");
        let e = sqlx::query("CREATE TABLE t (x INTEGER PRIMARY KEY); INSERT INTO t VALUES (1); INSERT INTO t VALUES (1)")
            .execute(&mut conn)
            .await
            .expect_err("unique violation");
        assert!(!is_temporary(&e), "{e}");
        assert!(is_temporary(&sqlx::Error::PoolTimedOut));
        assert!(!is_temporary(&sqlx::Error::RowNotFound));
    }

    /// PostgreSQL: disk full (53100) and a deadlock (40P01) are temporary, a unique violation
    /// (23505) is not (all three all digits or not, unlike SQLite's numbers).
    #[tokio::test]
    async fn temporary_errors_are_recognised_on_postgres() {
        let Ok(url) = std::env::var("MEMEBOARD_TEST_POSTGRES_URL") else {
            return;
        };
        // Through the `Any` driver, as the server sees them.
        sqlx::any::install_default_drivers();
        let mut conn = AnyConnection::connect(&url).await.expect("postgres");
        for (code, temporary) in [("53100", true), ("40P01", true), ("23505", false)] {
            let sql = format!("DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '{code}'; END $$");
            let e = sqlx::query(&sql)
                .execute(&mut conn)
                .await
                .expect_err("raised");
            assert_eq!(is_temporary(&e), temporary, "{code}: {e}");
        }
    }
}

//! SQLite: the one read of every quiz answer (its session and item) and the reads of a session
//! start (the quiz, the candidate items, the new batch) on the request's own thread, through a
//! synchronous connection, instead of a hand-off to the pool's worker threads
//! (`Storage::read_optional`, `Storage::read_all`; on PostgreSQL they read through the pool).
//!
//! Through the async driver a read is a trip to a connection's worker thread and back, plus
//! the pool's bookkeeping: at 200 participants those trips, not SQLite, used most of the
//! read's time, and the answer rate rose by half without them (see `benches/answers.rs`).
//! The read is a handful of primary-key lookups that return one row, in WAL mode, where a
//! reader never waits for the writer; it costs less than decoding the request's JSON (a
//! start's reads are bounded by one task's items). A read that would wait at all (busy: `busy_timeout` 0) or fails for any other reason is not
//! retried here: the caller falls back to the pool, so this path can only be faster.

use super::{FromNamedRow, StorageError};
use rusqlite::types::ToSql;
use rusqlite::{Connection, OpenFlags, Statement};
use sqlx::sqlite::SqliteConnectOptions;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Mutex;

/// Idle connections kept for the next reads (about one per worker thread in use at once;
/// more than this are closed after their read).
const KEEP_IDLE: usize = 8;

/// Read connections to the SQLite file, reused across requests.
#[derive(Debug)]
pub(super) struct FastReads {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

impl FastReads {
    /// For the SQLite database at `url` (connections open on first use).
    pub(super) fn new(url: &str) -> Result<Self, sqlx::Error> {
        let path = SqliteConnectOptions::from_str(url)?
            .get_filename()
            .to_owned();
        Ok(Self {
            path,
            idle: Mutex::default(),
        })
    }

    /// The first row of `sql` with `params` bound (see [`bind_numbered`]), decoded by `decode`;
    /// `Ok(None)` when there is none. An `Err` means "use the pool instead".
    pub(super) fn query_row<T>(
        &self,
        sql: &str,
        params: &[&dyn ToSql],
        decode: impl FnOnce(&rusqlite::Row<'_>) -> Result<T, sqlx::Error>,
    ) -> Result<Option<T>, DirectError> {
        self.read(sql, params, |mut rows| match rows.next()? {
            Some(row) => Ok(Some(decode(row)?)),
            None => Ok(None),
        })
    }

    /// Every row of `sql` with `params` bound, each decoded by `decode`, in the order SQLite
    /// returns them. An `Err` means "use the pool instead". For reads bounded by one batch or
    /// one task's items (a session start's), never by the crowd.
    pub(super) fn query_all<T>(
        &self,
        sql: &str,
        params: &[&dyn ToSql],
        mut decode: impl FnMut(&rusqlite::Row<'_>) -> Result<T, sqlx::Error>,
    ) -> Result<Vec<T>, DirectError> {
        self.read(sql, params, |mut rows| {
            let mut out = Vec::new();
            while let Some(row) = rows.next()? {
                out.push(decode(row)?);
            }
            Ok(out)
        })
    }

    /// Runs `sql` with `params` bound on an idle connection (a new one when none is idle) and
    /// hands its rows to `consume`; the connection goes back for the next read either way.
    fn read<T>(
        &self,
        sql: &str,
        params: &[&dyn ToSql],
        consume: impl FnOnce(rusqlite::Rows<'_>) -> Result<T, DirectError>,
    ) -> Result<T, DirectError> {
        let conn = match self.take() {
            Some(conn) => conn,
            None => self.open()?,
        };
        let read = (|| {
            let mut statement = conn.prepare_cached(sql)?;
            bind_numbered(&mut statement, params)?;
            consume(statement.raw_query())
        })();
        self.put_back(conn);
        read
    }

    fn take(&self) -> Option<Connection> {
        self.idle.lock().ok()?.pop()
    }

    fn put_back(&self, conn: Connection) {
        if let Ok(mut idle) = self.idle.lock() {
            if idle.len() < KEEP_IDLE {
                idle.push(conn);
            }
        }
    }

    fn open(&self) -> Result<Connection, DirectError> {
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        // Never wait (a wait would block the request's thread): busy goes to the pool.
        conn.busy_timeout(std::time::Duration::ZERO)?;
        conn.execute_batch("PRAGMA query_only = 1")?;
        Ok(conn)
    }
}

impl super::Storage {
    /// Every row of `sql` (text parameters `binds`, numbered `$1`, `$2`, …) decoded as `T`:
    /// on SQLite read on the request's thread, else, or when that read fails or would wait,
    /// through the pool. For reads bounded by one batch or one task's items (a session
    /// start's), which the pool's thread hand-offs and row copies made cost more than the
    /// SQL itself.
    pub(super) async fn read_all<T: FromNamedRow>(
        &self,
        sql: &str,
        binds: &[&str],
    ) -> Result<Vec<T>, StorageError> {
        let fast = |reads: &FastReads, params: &[&dyn ToSql]| {
            reads.query_all(sql, params, |r| T::from_named(r))
        };
        let pool = async {
            let rows = bound(sql, binds).fetch_all(&self.pool).await?;
            rows.iter()
                .map(T::from_named)
                .collect::<Result<_, _>>()
                .map_err(Into::into)
        };
        self.fast_or_pool(binds, fast, pool).await
    }

    /// The row of `sql` (a lookup by key: at most one row), decoded as `T`, the same way as
    /// [`Self::read_all`]: the answer's one read, and the start's quiz.
    pub(super) async fn read_optional<T: FromNamedRow>(
        &self,
        sql: &str,
        binds: &[&str],
    ) -> Result<Option<T>, StorageError> {
        let fast = |reads: &FastReads, params: &[&dyn ToSql]| {
            reads.query_row(sql, params, |r| T::from_named(r))
        };
        let pool = async {
            let row = bound(sql, binds).fetch_optional(&self.pool).await?;
            Ok(row.as_ref().map(T::from_named).transpose()?)
        };
        self.fast_or_pool(binds, fast, pool).await
    }

    /// `fast` on the SQLite fast path; `pool` (not started until then) on PostgreSQL, or when
    /// the fast read is busy or fails (the pool then reports an error that persists).
    async fn fast_or_pool<T>(
        &self,
        binds: &[&str],
        fast: impl FnOnce(&FastReads, &[&dyn ToSql]) -> Result<T, DirectError>,
        pool: impl std::future::Future<Output = Result<T, StorageError>>,
    ) -> Result<T, StorageError> {
        if let Some(reads) = &self.fast_reads {
            let params: Vec<&dyn ToSql> = binds.iter().map(|b| b as &dyn ToSql).collect();
            match fast(reads, &params) {
                Ok(value) => return Ok(value),
                Err(e) => tracing::debug!(error = %e, "fast read fell back to the pool"),
            }
        }
        pool.await
    }
}

/// `sql` with text parameters `binds` bound in order, for the pool.
fn bound<'q>(
    sql: &'q str,
    binds: &[&'q str],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    binds
        .iter()
        .fold(sqlx::query(sql), |query, bind| query.bind(*bind))
}

/// A failure on a direct (rusqlite) SQLite path: a fast read (the caller then reads through
/// the pool) or one write of the group writer (that write is not recorded).
#[derive(Debug, thiserror::Error)]
pub(super) enum DirectError {
    /// SQLite refused or failed the statement (busy included).
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    /// A column did not decode.
    #[error(transparent)]
    Decode(#[from] sqlx::Error),
}

/// Binds `$n` (or `?n`) of a statement to `values[n - 1]`, wherever and however often it
/// appears: the statements are written with PostgreSQL's numbered placeholders, shared with
/// the PostgreSQL path, and SQLite numbers such names in order of first appearance, so binding
/// by position would mix them up.
pub(super) fn bind_numbered(
    statement: &mut Statement<'_>,
    values: &[&dyn ToSql],
) -> rusqlite::Result<()> {
    for index in 1..=statement.parameter_count() {
        let name = statement.parameter_name(index).unwrap_or_default();
        let value = name
            .get(1..)
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| values.get(n.checked_sub(1)?))
            .ok_or_else(|| rusqlite::Error::InvalidParameterName(name.to_owned()))?;
        statement.raw_bind_parameter(index, value)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::NamedColumns;
    use super::*;

    fn database() -> (tempfile::TempDir, String) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("fast.db");
        let conn = Connection::open(&path).expect("open");
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER, b TEXT); \
             INSERT INTO t VALUES (1, 'one'), (2, 'two');",
        )
        .expect("set up");
        (dir, format!("sqlite://{}?mode=rwc", path.display()))
    }

    /// `$2` before `$1` in the text: each is bound by its number, not by its position.
    #[test]
    fn numbered_placeholders_bind_by_number() {
        let (_dir, url) = database();
        let reads = FastReads::new(&url).expect("reads");
        let row = reads
            .query_row(
                "SELECT a FROM t WHERE b = $2 AND a = $1",
                &[&2, &"two"],
                |r| r.column::<i64>("a"),
            )
            .expect("read");
        assert_eq!(row, Some(2));
        let none = reads
            .query_row("SELECT a FROM t WHERE a = $1", &[&3], |r| {
                r.column::<i64>("a")
            })
            .expect("read");
        assert_eq!(none, None);
        // The connection went back for the next read.
        assert_eq!(reads.idle.lock().expect("lock").len(), 1);
    }

    /// Every row comes back, in the statement's order, and the connection goes back for the
    /// next read; a failed decode is an error (the caller reads through the pool).
    #[test]
    fn all_rows_are_read_in_order() {
        let (_dir, url) = database();
        let reads = FastReads::new(&url).expect("reads");
        let rows = reads
            .query_all(
                "SELECT a, b FROM t WHERE a >= $1 ORDER BY a DESC",
                &[&1],
                |r| Ok((r.column::<i64>("a")?, r.column::<String>("b")?)),
            )
            .expect("read");
        assert_eq!(rows, vec![(2, "two".to_owned()), (1, "one".to_owned())]);
        assert_eq!(reads.idle.lock().expect("lock").len(), 1);
        let wrong = reads.query_all("SELECT b FROM t", &[], |r| r.column::<i64>("b"));
        assert!(matches!(wrong, Err(DirectError::Decode(_))), "{wrong:?}");
    }

    /// A read SQLite refuses is an error for the caller to fall back on, never a panic, and
    /// the connection is read-only.
    #[test]
    fn failures_are_reported_and_writes_refused() {
        let (_dir, url) = database();
        let reads = FastReads::new(&url).expect("reads");
        let missing = reads.query_row("SELECT x FROM nowhere", &[], |r| r.column::<i64>("x"));
        assert!(
            matches!(missing, Err(DirectError::Sqlite(_))),
            "{missing:?}"
        );
        let write = reads.query_row("DELETE FROM t RETURNING a", &[], |r| r.column::<i64>("a"));
        assert!(write.is_err(), "{write:?}");
        let wrong_type = reads.query_row("SELECT b FROM t", &[], |r| r.column::<i64>("b"));
        assert!(
            matches!(wrong_type, Err(DirectError::Decode(_))),
            "{wrong_type:?}"
        );
    }
}

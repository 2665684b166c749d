//! All SQL lives here: one pool over SQLite or PostgreSQL through sqlx's `Any` driver, with
//! portable queries (`$n` placeholders, BIGINT flags and timestamps) and embedded migrations.

mod benchmarks;
mod draws;
mod export;
mod fast_reads;
mod faults;
mod group_writer;
mod headphones;
mod judging;
mod media;
mod outputs;
mod owners;
mod paper_figures;
mod rescoring;
mod reveals;
mod sessions;
mod studies;
mod submissions;
mod training;
mod upgrade;

pub use benchmarks::*;
pub use draws::*;
pub use export::*;
pub use faults::is_temporary;
pub use headphones::*;
pub use judging::*;
pub use media::*;
pub use outputs::*;
pub use owners::*;
pub use paper_figures::*;
pub use rescoring::*;
pub use sessions::*;
pub use studies::*;
pub use submissions::*;
pub use training::*;
pub use upgrade::*;

use memeboard_core::api::BoardSplit;
use memeboard_core::predictions::Split;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool, Connection, Row};
use std::time::Duration;

/// How SQLite write connections (the pool's and the group writer's) make a COMMIT durable:
/// `FULL` syncs the write-ahead log before COMMIT returns, so what is acknowledged survives a
/// power cut or an operating-system crash, not only a killed server. (`NORMAL` in WAL mode
/// syncs only at checkpoints: the last transactions before a power cut could roll back after
/// they were acknowledged.) With group commit the sync is one per group of answers, not one per
/// answer: about 0.25 ms per group on this project's development disk.
pub(crate) const SQLITE_SYNCHRONOUS: &str = "PRAGMA synchronous = FULL";

/// How long `/healthz` waits for its committed write before it answers 503 (longer than a
/// group commit, shorter than a load balancer's probe timeout).
pub const HEALTH_WRITE_TIMEOUT: Duration = Duration::from_secs(4);

/// Storage failures. Callers add context; clients see a generic message.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database rejected or failed a query.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed at start-up.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored JSON column did not decode (a bug or a manual edit).
    #[error("corrupt stored JSON in {what}: {source}")]
    CorruptJson {
        /// Which column.
        what: &'static str,
        /// Decoder error.
        source: serde_json::Error,
    },
    /// An answer or a session start could not be stored (e.g. the disk is full): nothing was
    /// recorded, the transaction was rolled back and its connection closed; the client may
    /// retry. Shared: one failed group commit fails every write of the group.
    #[error("not recorded: {0}")]
    NotRecorded(std::sync::Arc<dyn std::error::Error + Send + Sync>),
    /// The database answers reads but cannot commit a write.
    #[error("the database cannot store data: {0}")]
    NotWritable(sqlx::Error),
    /// The database could not be opened at start-up: where, and why.
    #[error("cannot open the database {target}: {cause}")]
    Open {
        /// The database URL or file (password hidden).
        target: String,
        /// What went wrong, in words.
        cause: String,
    },
    /// Work handed to the blocking pool (ordering the crowd's rows) did not finish: it
    /// panicked, or the runtime is shutting down.
    #[error("storage work on the blocking pool did not finish: {0}")]
    Interrupted(String),
    /// The URL names a backend we do not support.
    #[error("unsupported database URL scheme in `{0}` (expected sqlite:// or postgres://)")]
    UnsupportedUrl(String),
}

impl StorageError {
    /// [`StorageError::NotRecorded`] with its cause (either driver's error).
    pub fn not_recorded(cause: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::NotRecorded(std::sync::Arc::new(cause))
    }
}

/// Which engine the pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite (default).
    Sqlite,
    /// PostgreSQL (several server instances).
    Postgres,
}

impl Backend {
    /// Name for logs and `/healthz`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

/// The storage handle shared by all requests (cheap to clone).
#[derive(Debug, Clone)]
pub struct Storage {
    pool: AnyPool,
    backend: Backend,
    /// SQLite: the group-commit writer that records quiz answers and session starts (see
    /// `group_writer`).
    writer: Option<group_writer::GroupWriter>,
    /// SQLite: the answer's read on the request's thread (see `fast_reads`).
    fast_reads: Option<std::sync::Arc<fast_reads::FastReads>>,
    /// SQLite: taken by the group writer around each group, so that a test can hold writes
    /// (see [`Storage::hold_writes`]).
    write_gate: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
    /// Crowd fingerprints read lately, reused for `crowd_refresh` (see
    /// [`Storage::crowd_fingerprint`]).
    fingerprints: sessions::FingerprintMemo,
    /// This server's copies of the tasks' crowd answers, kept up to date by reading the
    /// sessions changed since (see `sessions/crowd_ledger.rs`).
    ledgers: sessions::CrowdLedgers,
    /// This server's copies of values derived per crowd session (the quality facts of the
    /// crowd's exclusions; see `sessions/kept_session_values.rs`).
    kept_values: sessions::KeptSessionValues,
}

/// Decodes a JSON column.
pub fn decode_json<T: serde::de::DeserializeOwned>(
    what: &'static str,
    s: &str,
) -> Result<T, StorageError> {
    serde_json::from_str(s).map_err(|source| StorageError::CorruptJson { what, source })
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A result row read by column name, from either driver: sqlx's rows, and the rusqlite rows
/// of the SQLite fast paths (`fast_reads`), so that one decoder serves both.
trait NamedColumns {
    /// The value of column `name`.
    fn column<T: ColumnValue>(&self, name: &str) -> Result<T, sqlx::Error>;
}

/// A row type decoded by column name from either driver's row, so that a read can take the
/// SQLite fast path or the pool with one decoder ([`Storage::read_all`]).
trait FromNamedRow: Sized {
    /// The row's value.
    fn from_named(row: &impl NamedColumns) -> Result<Self, sqlx::Error>;
}

/// A column type both drivers decode.
trait ColumnValue:
    for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any> + rusqlite::types::FromSql
{
}

impl<T> ColumnValue for T where
    T: for<'r> sqlx::Decode<'r, sqlx::Any> + sqlx::Type<sqlx::Any> + rusqlite::types::FromSql
{
}

impl NamedColumns for sqlx::any::AnyRow {
    fn column<T: ColumnValue>(&self, name: &str) -> Result<T, sqlx::Error> {
        self.try_get(name)
    }
}

impl NamedColumns for rusqlite::Row<'_> {
    fn column<T: ColumnValue>(&self, name: &str) -> Result<T, sqlx::Error> {
        self.get(name).map_err(|e| sqlx::Error::ColumnDecode {
            index: name.to_owned(),
            source: Box::new(e),
        })
    }
}

/// Decodes a stored split (`dev` / `test`).
fn decode_split(key: &str) -> Result<Split, sqlx::Error> {
    match key {
        "dev" => Ok(Split::Dev),
        "test" => Ok(Split::Test),
        other => Err(sqlx::Error::Decode(
            format!("items.split: expected `dev` or `test`, found `{other}`").into(),
        )),
    }
}

/// Decodes a stored board half (`public` / `private`).
fn decode_half(key: &str) -> Result<BoardSplit, sqlx::Error> {
    match key {
        "public" => Ok(BoardSplit::Public),
        "private" => Ok(BoardSplit::Private),
        other => Err(sqlx::Error::Decode(
            format!("items.board_half: expected `public` or `private`, found `{other}`").into(),
        )),
    }
}

/// Decodes a stored task kind (an unknown key is a decode error, not a silent default).
fn decode_kind(key: &str) -> Result<memeboard_core::kinds::TaskKind, sqlx::Error> {
    memeboard_core::kinds::TaskKind::parse(key)
        .ok_or_else(|| sqlx::Error::Decode(format!("tasks.kind: unknown task kind `{key}`").into()))
}

/// The settings of every SQLite connection of the pool: write-ahead log, busy timeout,
/// foreign keys, durable commits.
async fn tune_sqlite(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    for pragma in [
        "PRAGMA journal_mode = WAL",
        "PRAGMA busy_timeout = 5000",
        "PRAGMA foreign_keys = ON",
        SQLITE_SYNCHRONOUS,
    ] {
        sqlx::query(pragma).execute(&mut *conn).await?;
    }
    Ok(())
}

/// The cause of a failed first connection in words a person can act on: for SQLite, which
/// file and why (missing directory, read-only place), else the driver's message.
fn describe_open_error(backend: Backend, url: &str, e: &sqlx::Error) -> String {
    if backend == Backend::Sqlite {
        let path = url
            .trim_start_matches("sqlite://")
            .trim_start_matches("sqlite:")
            .split('?')
            .next()
            .unwrap_or_default();
        let file = std::path::Path::new(path);
        let dir = file
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !dir.is_dir() {
            return format!(
                "the directory {} of the SQLite file does not exist ({e})",
                dir.display()
            );
        }
        if file.exists() && std::fs::OpenOptions::new().write(true).open(file).is_err() {
            return format!("the database file {} is read-only ({e})", file.display());
        }
        if dir_is_read_only(dir) {
            return format!(
                "the directory {} of the database file is read-only: SQLite needs to create \
                 its write-ahead log there ({e})",
                dir.display()
            );
        }
        if url.contains("mode=ro") {
            return format!(
                "the database file {} is opened read-only (mode=ro) ({e})",
                file.display()
            );
        }
    }
    e.to_string()
}

/// Whether nothing can be created in `dir` (a read-only mount, no write permission): tried
/// with a scratch file, since permission bits say nothing to root or about a read-only mount.
fn dir_is_read_only(dir: &std::path::Path) -> bool {
    let probe = dir.join(format!(".memeboard-write-probe-{}", std::process::id()));
    match std::fs::File::create(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            false
        }
        Err(e) => matches!(
            e.kind(),
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
        ),
    }
}

/// Hides a password in a database URL for messages.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://***{}", &url[..scheme], &url[at..])
        }
        _ => url.to_owned(),
    }
}

impl Storage {
    /// Connects, tunes SQLite (WAL, busy timeout), and runs the embedded migrations. Any
    /// failure here aborts start-up.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Self, StorageError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StorageError::UnsupportedUrl(redact_url(url)));
        };
        let mut options = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .after_release(|conn, _meta| Box::pin(faults::outside_transaction(conn)));
        if backend == Backend::Sqlite {
            // A ping before each use is a round trip per query for nothing: an SQLite file
            // does not hang up (a failed query closes its connection where it matters).
            options = options.test_before_acquire(false);
            options = options.after_connect(|conn, _meta| Box::pin(tune_sqlite(conn)));
        }
        // One direct connection first, tuned as the pool's will be (WAL needs a writable
        // place): its error names the cause at once (the pool retries until its timeout and
        // then reports only that it timed out).
        let target = redact_url(url);
        let open_error = |cause: String| StorageError::Open {
            target: target.clone(),
            cause,
        };
        let probe = async {
            let mut conn = AnyConnection::connect(url).await?;
            if backend == Backend::Sqlite {
                if let Err(e) = tune_sqlite(&mut conn).await {
                    let _ = conn.close().await;
                    return Err(e);
                }
            }
            conn.close().await
        };
        match tokio::time::timeout(Duration::from_secs(10), probe).await {
            Err(_) => return Err(open_error("no answer within 10 s".into())),
            Ok(Err(e)) => return Err(open_error(describe_open_error(backend, url, &e))),
            Ok(Ok(())) => {}
        }
        let pool = options
            .connect(url)
            .await
            .map_err(|e| open_error(describe_open_error(backend, url, &e)))?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        let write_gate: Option<std::sync::Arc<tokio::sync::Mutex<()>>> =
            (backend == Backend::Sqlite).then(Default::default);
        let writer = match &write_gate {
            Some(gate) => Some(group_writer::GroupWriter::start(url, gate.clone())?),
            None => None,
        };
        let fast_reads = match backend {
            Backend::Sqlite => Some(std::sync::Arc::new(fast_reads::FastReads::new(url)?)),
            Backend::Postgres => None,
        };
        let storage = Self {
            pool,
            backend,
            writer,
            fast_reads,
            write_gate,
            fingerprints: sessions::FingerprintMemo::default(),
            ledgers: sessions::CrowdLedgers::default(),
            kept_values: sessions::KeptSessionValues::default(),
        };
        // A database that opens but cannot be written (a read-only file or directory, a full
        // disk) is refused now, not at the first answer.
        storage
            .check_writable()
            .await
            .map_err(|e| open_error(e.to_string()))?;
        Ok(storage)
    }

    /// Holds SQLite's write gate until the guard is dropped (`None` on PostgreSQL): the
    /// answers and starts queued meanwhile are written as one group, in queue order. For tests that
    /// need a group of a known make-up.
    #[doc(hidden)]
    pub async fn hold_writes(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        match &self.write_gate {
            Some(gate) => Some(gate.clone().lock_owned().await),
            None => None,
        }
    }

    /// Which engine is in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool (graceful shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// A trivial round trip, for `/healthz`.
    pub async fn ping(&self) -> Result<(), StorageError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// A committed one-row write, for `/healthz`: a database that answers reads but cannot
    /// store anything (a full disk, a read-only file, a write lock held) fails here, within
    /// [`HEALTH_WRITE_TIMEOUT`] rather than hanging. A connection found inside a transaction
    /// (where the write would not commit) or whose write failed is closed, not reused.
    pub async fn check_writable(&self) -> Result<(), StorageError> {
        match tokio::time::timeout(HEALTH_WRITE_TIMEOUT, self.write_health_row()).await {
            Ok(result) => result.map_err(StorageError::NotWritable),
            Err(_) => Err(StorageError::NotWritable(sqlx::Error::Protocol(format!(
                "no committed write within {} s",
                HEALTH_WRITE_TIMEOUT.as_secs()
            )))),
        }
    }

    async fn write_health_row(&self) -> Result<(), sqlx::Error> {
        let mut conn = self.pool.acquire().await?;
        if conn.is_in_transaction() {
            let _ = conn.close().await;
            return Err(sqlx::Error::Protocol(
                "a pooled connection was inside a transaction".into(),
            ));
        }
        let write = sqlx::query(
            "INSERT INTO health_checks (id, checked_at) VALUES (1, $1) \
             ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
        )
        .bind(now_ms())
        .execute(&mut *conn)
        .await;
        if let Err(e) = write {
            let _ = conn.close().await;
            return Err(e);
        }
        Ok(())
    }

    /// Number of benchmarks (0 = fresh database).
    pub async fn count_benchmarks(&self) -> Result<i64, StorageError> {
        Ok(sqlx::query("SELECT COUNT(*) AS n FROM benchmarks")
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?)
    }

    /// Whether a benchmark with this slug exists.
    pub async fn has_benchmark(&self, slug: &str) -> Result<bool, StorageError> {
        Ok(
            sqlx::query("SELECT 1 AS one FROM benchmarks WHERE slug = $1")
                .bind(slug)
                .fetch_optional(&self.pool)
                .await?
                .is_some(),
        )
    }

    /// Rows in each table (tests use this to prove nothing was half-written).
    pub async fn table_counts(&self) -> Result<Vec<(String, i64)>, StorageError> {
        let mut out = Vec::new();
        for table in [
            "authors",
            "submissions",
            "benchmarks",
            "memes",
            "tasks",
            "items",
            "participants",
            "sessions",
            "session_items",
            "answers",
            "media",
            "media_blobs",
            "submission_outputs",
            "crowd_marks",
        ] {
            let n: i64 = sqlx::query(&format!("SELECT COUNT(*) AS n FROM {table}"))
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?;
            out.push((table.to_owned(), n));
        }
        Ok(out)
    }
}

//! Group commit of quiz answers on SQLite: one task owns a write connection and records the
//! answers that requests queue, many in one transaction, acknowledging each only after COMMIT.
//!
//! SQLite has one writer at a time. With a transaction per answer on pooled connections, the
//! writers queue on the database lock (busy-waiting in SQLite's sleep steps) and every answer
//! pays a commit of its own. Here the answers that arrive while a commit is under way wait in
//! a bounded queue and are written by the next transaction together: each inside its own
//! `SAVEPOINT` (a failure of one answer undoes that answer only), then one `COMMIT`, and only
//! then is each request told what happened. A failed `COMMIT` reports every answer of the
//! group as not recorded (the client retries them: 503) and the connection is closed and
//! opened again for the next group, so a full disk never leaves a half-open transaction.

use super::sessions::{bind_record, bind_stored, classify_rows, recorded};
use super::{now_ms, NewAnswer, RecordOutcome, StorageError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Most answers in one transaction. Groups form by themselves from what queued during the
/// previous commit; the cap bounds how long the first answer of a group waits for the last
/// (256 answers take about 5 ms to write on a small machine).
const MAX_GROUP: usize = 256;

/// Answers that may wait for the writer before senders wait for room (back-pressure).
const QUEUE_LEN: usize = 4096;

/// SQLite's page cache of the write connection, in KiB (the default is 2 MiB): the answer
/// and session indexes that every answer touches stay in memory as the database grows.
const CACHE_KIB: i64 = 64 * 1024;

/// How often the writer restarts the write-ahead log between groups (see [`checkpoint`]).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The size the write-ahead log file is cut back to after a restart, in bytes.
const WAL_LIMIT_BYTES: i64 = 64 * 1024 * 1024;

/// The one statement batch that records an answer: a savepoint, the insert (a duplicate
/// `(session, item)` or `(session, key)` inserts nothing), and the session's answer counter
/// with the completion decided in the same transaction (the counter reaches the batch size
/// exactly once). The `UPDATE` returns a row only when this answer's row was inserted. When
/// this answer completed the session (its code `$11` was stored at `$10`), the task's
/// completion counters go up in the same transaction: one more completed session, and one
/// more participant unless they had completed another session of the task.
const RECORD_SQL: &str = "SAVEPOINT answer; \
     INSERT INTO answers (id, session_id, item_id, idempotency_key, answer_json, \
     option_order_json, choice, score, response_ms, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING; \
     UPDATE sessions SET answered = answered + 1, \
     completed_at = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
       THEN $10 ELSE completed_at END, \
     completion_code = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
       THEN $11 ELSE completion_code END \
     WHERE id = $2 AND EXISTS \
       (SELECT 1 FROM answers WHERE id = $1 AND session_id = $2 AND item_id = $3) \
     RETURNING answered, completion_code; \
     UPDATE tasks SET completed_sessions = completed_sessions + 1, \
     completed_participants = completed_participants + CASE WHEN EXISTS (SELECT 1 FROM sessions o \
       WHERE o.participant_id = (SELECT participant_id FROM sessions WHERE id = $2) \
       AND o.task_id = tasks.id AND o.completed_at IS NOT NULL AND o.id <> $2) THEN 0 ELSE 1 END \
     WHERE id = (SELECT task_id FROM sessions \
       WHERE id = $2 AND completion_code = $11 AND completed_at = $10); \
     RELEASE answer";

/// One queued answer and where its outcome goes.
struct Job {
    answer: NewAnswer,
    completion_code: String,
    reply: oneshot::Sender<Result<RecordOutcome, StorageError>>,
}

/// The handle requests use to queue answers for the writer task (cheap to clone). The task
/// ends, closing its connection, when the last handle is dropped.
#[derive(Debug, Clone)]
pub(super) struct AnswerWriter {
    jobs: mpsc::Sender<Job>,
}

impl AnswerWriter {
    /// Starts the writer task, on its own thread, for the SQLite database at `url` (the
    /// connection opens with the first group).
    pub(super) fn start(url: &str, gate: Arc<tokio::sync::Mutex<()>>) -> Result<Self, sqlx::Error> {
        let options = SqliteConnectOptions::from_str(url)?
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5))
            .pragma("cache_size", format!("-{CACHE_KIB}"))
            .pragma("journal_size_limit", WAL_LIMIT_BYTES.to_string())
            .disable_statement_logging();
        let (jobs, queue) = mpsc::channel(QUEUE_LEN);
        // The writer runs on a runtime and thread of its own: it awaits SQLite once per answer,
        // and on the server's runtime each of those wake-ups waited behind every runnable
        // request (200 participants: the writer sat idle most of the time, the answers
        // queued, the CPU was a third unused).
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        std::thread::Builder::new()
            .name("answer-writer".into())
            .spawn(move || runtime.block_on(run(options, gate, queue)))?;
        Ok(Self { jobs })
    }

    /// Queues an answer and waits until its group is committed (or failed).
    pub(super) async fn record(
        &self,
        answer: NewAnswer,
        completion_code: String,
    ) -> Result<RecordOutcome, StorageError> {
        let (reply, outcome) = oneshot::channel();
        let gone = || StorageError::NotRecorded(Arc::new(sqlx::Error::PoolClosed));
        self.jobs
            .send(Job {
                answer,
                completion_code,
                reply,
            })
            .await
            .map_err(|_| gone())?;
        outcome.await.map_err(|_| gone())?
    }
}

/// The writer task: takes what is queued (up to [`MAX_GROUP`]), writes it in one
/// transaction, answers each waiter, and repeats until every handle is gone.
async fn run(
    options: SqliteConnectOptions,
    gate: Arc<tokio::sync::Mutex<()>>,
    mut queue: mpsc::Receiver<Job>,
) {
    let mut conn: Option<SqliteConnection> = None;
    let mut group = Vec::with_capacity(MAX_GROUP);
    let mut last_checkpoint = Instant::now();
    while queue.recv_many(&mut group, MAX_GROUP).await > 0 {
        // Other write transactions (session starts) take their turn between groups.
        let turn = gate.lock().await;
        // Answers that queued while it waited for its turn join this group.
        while group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let written = write_group(&options, &mut conn, &group).await;
        if written.is_ok() && last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
            last_checkpoint = Instant::now();
            if let Some(conn) = conn.as_mut() {
                checkpoint(conn).await;
            }
        }
        drop(turn);
        match written {
            Ok(outcomes) => {
                for (job, outcome) in group.drain(..).zip(outcomes) {
                    // A waiter that went away (client gone) still had its answer stored.
                    let _ = job.reply.send(outcome);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, answers = group.len(), "answer group not committed");
                // Roll back whatever is left and start the next group on a new connection.
                if let Some(mut failed) = conn.take() {
                    let _ = sqlx::query("ROLLBACK").execute(&mut failed).await;
                    let _ = failed.close().await;
                }
                let e = Arc::new(e);
                for job in group.drain(..) {
                    let _ = job.reply.send(Err(StorageError::NotRecorded(e.clone())));
                }
            }
        }
    }
    if let Some(conn) = conn {
        let _ = conn.close().await;
    }
}

/// Writes one group in one transaction: `Ok` with each answer's outcome once COMMIT
/// succeeded; `Err` when the transaction as a whole failed (nothing of it is stored).
async fn write_group(
    options: &SqliteConnectOptions,
    conn: &mut Option<SqliteConnection>,
    group: &[Job],
) -> Result<Vec<Result<RecordOutcome, StorageError>>, sqlx::Error> {
    let conn = match conn {
        Some(conn) => conn,
        None => conn.insert(options.connect().await?),
    };
    // IMMEDIATE: take the write lock now (waiting up to the busy timeout for other writers),
    // so no statement of the group can fail on a lock upgrade.
    sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
    let now = now_ms();
    let mut outcomes = Vec::with_capacity(group.len());
    for job in group {
        match record_one(conn, job, now).await {
            Ok(outcome) => outcomes.push(Ok(outcome)),
            Err(e) => {
                // Undo this answer only; if even that fails, the transaction is gone and the
                // whole group fails (the caller rolls back and reconnects).
                sqlx::query("ROLLBACK TO answer; RELEASE answer")
                    .execute(&mut *conn)
                    .await?;
                outcomes.push(Err(StorageError::NotRecorded(Arc::new(e))));
            }
        }
    }
    sqlx::query("COMMIT").execute(&mut *conn).await?;
    Ok(outcomes)
}

/// Records one answer inside the group's transaction: inserted (with the session's new
/// progress) or, when its item or key is taken, classified against what is stored.
async fn record_one(
    conn: &mut SqliteConnection,
    job: &Job,
    now: i64,
) -> Result<RecordOutcome, sqlx::Error> {
    let a = &job.answer;
    let rows = bind_record(sqlx::query(RECORD_SQL), a, now, &job.completion_code)
        .fetch_all(&mut *conn)
        .await?;
    if let Some(row) = rows.first() {
        return recorded(row);
    }
    // Its item or key is taken: classified against what is stored, inside the transaction
    // (so an answer written earlier in this group counts).
    let stored = bind_stored(a).fetch_all(&mut *conn).await?;
    classify_rows(a, &stored)?.ok_or(sqlx::Error::RowNotFound)
}

/// Copies the write-ahead log into the database and makes the next write start the log from
/// its beginning (`RESTART`), between groups while the writer holds the gate.
///
/// SQLite's automatic checkpoints are passive: with readers always active (200 participants)
/// the log is never reset, so it grows without end and every read searches a longer log
/// index; over 10 minutes the answer rate halved. `RESTART` waits (busy timeout) only for
/// reads that began before it, which are single statements. A failure (busy, disk full) is
/// logged and changes nothing: the next checkpoint tries again, and no answer depends on it.
async fn checkpoint(conn: &mut SqliteConnection) {
    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(RESTART)")
        .execute(&mut *conn)
        .await
    {
        tracing::warn!(error = %e, "write-ahead log checkpoint failed");
    }
}

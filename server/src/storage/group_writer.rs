//! Group commit on SQLite: one thread owns a synchronous write connection and writes the quiz
//! answers and session starts that requests queue, many in one transaction, acknowledging each
//! only after COMMIT.
//!
//! SQLite has one writer at a time. With a transaction per answer on pooled connections, the
//! writers queue on the database lock (busy-waiting in SQLite's sleep steps) and every answer
//! pays a commit of its own. Here the writes that arrive while a commit is under way wait in
//! a bounded queue and are written by the next transaction together: each inside its own
//! `SAVEPOINT` (a failure of one write undoes that write only), then one `COMMIT`, and only
//! then is each request told what happened. A failed `COMMIT` reports every write of the
//! group as not stored (the client retries: 503) and the connection is closed and opened
//! again for the next group, so a full disk never leaves a half-open transaction.
//!
//! The connection is `rusqlite`'s, on the writer's own thread, with its statements prepared
//! once: a statement costs SQLite's own work only. (Through the async driver each statement
//! was a hand-off to the connection's worker thread and back, and the writer sat idle between
//! them while the answers queued.)

use super::fast_reads::{bind_numbered, DirectError};
use super::sessions::{
    recorded, StoredRows, INSERT_PARTICIPANT_SQL, INSERT_SESSION_SQL, MARK_CROWD_CHANGE_SQL,
    STORED_SQL,
};
use super::{now_ms, NewAnswer, NewSession, RecordOutcome, StorageError, SQLITE_SYNCHRONOUS};
use rusqlite::types::ToSql;
use rusqlite::{Connection, OpenFlags};
use sqlx::sqlite::SqliteConnectOptions;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// Most writes in one transaction. Groups form by themselves from what queued during the
/// previous commit; the cap bounds how long the first write of a group waits for the last.
const MAX_GROUP: usize = 256;

/// Writes that may wait for the writer before senders wait for room (back-pressure).
const QUEUE_LEN: usize = 4096;

/// SQLite's page cache of the write connection, in KiB (the default is 2 MiB): room for the
/// pages a group touches (the tails of the answer and session indexes, the active sessions),
/// and no more, because every COMMIT may walk the whole cache.
///
/// When a B-tree split reorders its new pages, SQLite parks one of them under the page number
/// of the locking page (the page at 1 GiB, 262,145 with 4 KiB pages) for a moment, and the
/// cache remembers that number as its largest key. At COMMIT the cache drops pages beyond the
/// end of the database, and with that key far beyond the end it walks every hash slot and
/// every cached page to do so (`pcache1TruncateUnsafe`) — in every transaction that split a
/// page, until the database is larger than 1 GiB. With a 64 MiB cache (6,054 pages cached in
/// an 8,192-slot table 20 s into the benchmark, measured with a uprobe on that function)
/// that walk was 14 % of the writer thread's time, growing as the cache filled; 8 MiB caps it
/// at about 2,000 pages while the group's working set still fits.
const CACHE_KIB: i64 = 8 * 1024;

/// How long a statement waits for another connection's write lock (session deletions, owner
/// edits, scoring) before the group fails.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The log size, in pages, at which a COMMIT of the writer also copies the log into the
/// database (SQLite's automatic, passive checkpoint; its default is 1,000 pages, 4 MiB).
///
/// A group of answers from 200 sessions dirties a few hundred pages (the session-keyed index
/// leaves, the sessions' rows), so at the default every few groups paid a checkpoint inside
/// their COMMIT, copying the same hot pages again and syncing the database file each time,
/// although the writer restarts the log once a second anyway ([`CHECKPOINT_EVERY`]).
/// 10,000 pages (about 40 MiB, under [`WAL_LIMIT_BYTES`]) leaves that copy to the restart
/// in practice and still bounds the log if restarts fail: about 12 % less CPU per answer over
/// HTTP at 200 participants in alternating runs (docs/performance.md).
const AUTOCHECKPOINT_PAGES: i64 = 10_000;

/// Where the writer's connection keeps its temporary files: `MEMORY`, for the savepoint
/// journal of the jobs.
///
/// Each job runs inside `SAVEPOINT job`, so SQLite copies every page a job first changes
/// into a sub-journal, in case the job must be undone. With temporary files on disk, that
/// journal spills into a real file once it passes 64 KiB, and it is not truncated until the
/// group's transaction ends, so every later page of the group went through `pwrite` twice:
/// 15 % of the writer thread's time in a profile at 200 participants. In memory, its size is
/// bounded by the pages of one group ([`MAX_GROUP`] jobs). Only this connection uses it: the
/// pool's reads sort large crowd tables, which must stay free to spill to disk. A session
/// start's write went from about 490 to 260 µs (10 participants) and 540 to 370 µs (200) on
/// the writer thread, and the HTTP bench gained about 7 % answers/s (docs/performance.md).
const TEMP_STORE: &str = "MEMORY";

/// How often the writer restarts the write-ahead log between groups (see [`checkpoint`]).
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The size the write-ahead log file is cut back to after a restart, in bytes.
const WAL_LIMIT_BYTES: i64 = 64 * 1024 * 1024;

/// Stores an answer; a duplicate `(session, item)` or `(session, key)` inserts nothing.
/// `$1`–`$9` the answer's columns, `$10` the time.
const INSERT_ANSWER_SQL: &str = "INSERT INTO answers (id, session_id, item_id, \
     idempotency_key, answer_json, option_order_json, choice, score, response_ms, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING";

/// The session's answer counter after an inserted answer, with the completion decided in the
/// same transaction: the counter reaches the batch size exactly once, and that answer stores
/// its completion code `$11` and time `$10`.
const PROGRESS_SQL: &str = "UPDATE sessions SET answered = answered + 1, \
     completed_at = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
       THEN $10 ELSE completed_at END, \
     completion_code = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
       THEN $11 ELSE completion_code END \
     WHERE id = $2 RETURNING answered, completion_code";

/// The task's completion counters when session `$2` was just completed: one more completed
/// session, and one more participant unless they had completed another session of the task
/// (pilot sessions count for neither), and the task's change number, which
/// `MARK_CROWD_CHANGE_SQL` then gives the session.
const COUNT_COMPLETION_SQL: &str = "UPDATE tasks SET completed_sessions = completed_sessions + 1, \
     crowd_seq = crowd_seq + 1, \
     completed_participants = completed_participants + CASE WHEN EXISTS (SELECT 1 FROM sessions o \
       WHERE o.participant_id = (SELECT participant_id FROM sessions WHERE id = $2) \
       AND o.task_id = tasks.id AND o.completed_at IS NOT NULL AND o.pilot = 0 AND o.id <> $2) \
       THEN 0 ELSE 1 END \
     WHERE id = (SELECT task_id FROM sessions WHERE id = $2 AND pilot = 0)";

/// One item of a new session's batch (`$1` session, `$2` position, `$3` item).
const INSERT_SESSION_ITEM_SQL: &str =
    "INSERT INTO session_items (session_id, position, item_id) VALUES ($1, $2, $3)";

/// The assignment counter of an item given out in a new batch.
const EXPOSE_ITEM_SQL: &str = "UPDATE items SET exposures = exposures + 1 WHERE id = $1";

/// One queued write, the waiter its outcome goes to, and that outcome once written (until
/// then: not stored).
struct Write<W, T> {
    what: W,
    reply: oneshot::Sender<Result<T, StorageError>>,
    outcome: Result<T, StorageError>,
}

impl<W, T> Write<W, T> {
    fn new(what: W) -> (Self, oneshot::Receiver<Result<T, StorageError>>) {
        let (reply, outcome) = oneshot::channel();
        let write = Self {
            what,
            reply,
            outcome: Err(gone()),
        };
        (write, outcome)
    }

    /// Tells the waiter its outcome (a waiter that went away, its client gone, still had its
    /// write stored).
    fn acknowledge(self) {
        let _ = self.reply.send(self.outcome);
    }

    /// Tells the waiter that nothing was stored (the group's transaction failed).
    fn fail(self, cause: &Arc<rusqlite::Error>) {
        let _ = self
            .reply
            .send(Err(StorageError::NotRecorded(cause.clone())));
    }

    /// Keeps the outcome of a job written inside the group's transaction, or undoes the job
    /// (back to its savepoint) when it failed. `Err` only when even that failed: the
    /// transaction is gone and the whole group fails.
    fn settle(
        &mut self,
        conn: &Connection,
        written: Result<T, DirectError>,
    ) -> rusqlite::Result<()> {
        match written {
            Ok(outcome) => {
                conn.prepare_cached("RELEASE job")?.execute([])?;
                self.outcome = Ok(outcome);
            }
            Err(e) => {
                conn.execute_batch("ROLLBACK TO job; RELEASE job")?;
                self.outcome = Err(StorageError::not_recorded(e));
            }
        }
        Ok(())
    }
}

/// A quiz answer, with the completion code minted for the case that it completes its
/// session.
struct AnswerWrite {
    answer: NewAnswer,
    completion_code: String,
}

/// A session start, with the participant's secret hash when the participant is new. Its
/// outcome is whether the session was stored (`false`: its start key had created one).
struct StartWrite {
    session: NewSession,
    new_participant: Option<String>,
}

/// One queued write of either kind.
enum Job {
    Answer(Write<AnswerWrite, RecordOutcome>),
    Start(Write<StartWrite, bool>),
}

impl Job {
    /// Tells the waiter what was written, once the group's COMMIT succeeded.
    fn acknowledge(self) {
        match self {
            Self::Answer(w) => w.acknowledge(),
            Self::Start(w) => w.acknowledge(),
        }
    }

    /// Tells the waiter that nothing was stored (the group's transaction failed).
    fn fail(self, cause: &Arc<rusqlite::Error>) {
        match self {
            Self::Answer(w) => w.fail(cause),
            Self::Start(w) => w.fail(cause),
        }
    }

    /// Writes the job inside the group's transaction, in a savepoint of its own.
    fn write(&mut self, conn: &Connection, now: i64) -> rusqlite::Result<()> {
        conn.prepare_cached("SAVEPOINT job")?.execute([])?;
        match self {
            Self::Answer(w) => {
                let a = &w.what;
                let written = record_answer(conn, &a.answer, &a.completion_code, now);
                w.settle(conn, written)
            }
            Self::Start(w) => {
                let s = &w.what;
                let written = start_session(conn, &s.session, s.new_participant.as_deref(), now);
                w.settle(conn, written.map_err(DirectError::from))
            }
        }
    }
}

/// The handle requests use to queue writes for the writer thread (cheap to clone). The thread
/// ends, closing its connection, when the last handle is dropped.
#[derive(Debug, Clone)]
pub(super) struct GroupWriter {
    jobs: mpsc::Sender<Job>,
}

impl GroupWriter {
    /// Starts the writer thread for the SQLite database at `url` (the connection opens with
    /// the first group). Each group waits for `gate` (see `Storage::hold_writes`).
    pub(super) fn start(url: &str, gate: Arc<tokio::sync::Mutex<()>>) -> Result<Self, sqlx::Error> {
        let path = SqliteConnectOptions::from_str(url)?
            .get_filename()
            .to_owned();
        let (jobs, queue) = mpsc::channel(QUEUE_LEN);
        std::thread::Builder::new()
            .name("group-writer".into())
            .spawn(move || run(&path, &gate, queue))?;
        Ok(Self { jobs })
    }

    /// Queues an answer and waits until its group is committed (or failed).
    pub(super) async fn record(
        &self,
        answer: NewAnswer,
        completion_code: String,
    ) -> Result<RecordOutcome, StorageError> {
        let (write, outcome) = Write::new(AnswerWrite {
            answer,
            completion_code,
        });
        self.send(Job::Answer(write)).await?;
        outcome.await.map_err(|_| gone())?
    }

    /// Queues a session start and waits until its group is committed: `true` when the
    /// session was stored, `false` when its start key had created a session already.
    pub(super) async fn start_session(
        &self,
        session: NewSession,
        new_participant: Option<String>,
    ) -> Result<bool, StorageError> {
        let (write, outcome) = Write::new(StartWrite {
            session,
            new_participant,
        });
        self.send(Job::Start(write)).await?;
        outcome.await.map_err(|_| gone())?
    }

    async fn send(&self, job: Job) -> Result<(), StorageError> {
        self.jobs.send(job).await.map_err(|_| gone())
    }
}

/// The writer thread is gone (shutting down): nothing was stored.
fn gone() -> StorageError {
    StorageError::not_recorded(std::io::Error::other("the database writer has stopped"))
}

/// The writer thread: takes what is queued (up to [`MAX_GROUP`]), writes it in one
/// transaction, answers each waiter, and repeats until every handle is gone.
fn run(path: &std::path::Path, gate: &tokio::sync::Mutex<()>, mut queue: mpsc::Receiver<Job>) {
    let mut conn: Option<Connection> = None;
    let mut group = Vec::with_capacity(MAX_GROUP);
    let mut last_checkpoint = Instant::now();
    while let Some(first) = queue.blocking_recv() {
        group.push(first);
        let turn = gate.blocking_lock();
        // Everything queued meanwhile (while the last group committed, or while writes were
        // held) joins this group.
        while group.len() < MAX_GROUP {
            match queue.try_recv() {
                Ok(job) => group.push(job),
                Err(_) => break,
            }
        }
        let written = open(path, &mut conn).and_then(|c| write_group(c, &mut group));
        match written {
            Ok(()) => {
                // The group is committed and synced: its waiters hear so now, not after the
                // log restart below (up to tens of milliseconds once a second).
                group.drain(..).for_each(Job::acknowledge);
                if last_checkpoint.elapsed() >= CHECKPOINT_EVERY {
                    last_checkpoint = Instant::now();
                    if let Some(conn) = conn.as_ref() {
                        checkpoint(conn);
                    }
                }
            }
            Err(e) => {
                tracing::error!(error = %e, writes = group.len(), "write group not committed");
                // Roll back whatever is left and start the next group on a new connection.
                if let Some(failed) = conn.take() {
                    let _ = failed.execute_batch("ROLLBACK");
                    let _ = failed.close();
                }
                let cause = Arc::new(e);
                group.drain(..).for_each(|job| job.fail(&cause));
            }
        }
        drop(turn);
    }
    if let Some(conn) = conn {
        let _ = conn.close();
    }
}

/// The write connection, opened on first use (and again after a failed group) with the
/// server's pragmas.
fn open<'c>(
    path: &std::path::Path,
    conn: &'c mut Option<Connection>,
) -> rusqlite::Result<&'c Connection> {
    if let Some(conn) = conn {
        return Ok(conn);
    }
    let opened = Connection::open_with_flags(
        PathBuf::from(path),
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    opened.busy_timeout(BUSY_TIMEOUT)?;
    opened.execute_batch(&format!(
        "PRAGMA journal_mode = WAL; {SQLITE_SYNCHRONOUS}; PRAGMA foreign_keys = ON; \
         PRAGMA cache_size = -{CACHE_KIB}; PRAGMA journal_size_limit = {WAL_LIMIT_BYTES}; \
         PRAGMA wal_autocheckpoint = {AUTOCHECKPOINT_PAGES}; PRAGMA temp_store = {TEMP_STORE};"
    ))?;
    Ok(conn.insert(opened))
}

/// Writes one group in one transaction, each job's outcome kept in the job: `Ok` once COMMIT
/// succeeded; `Err` when the transaction as a whole failed (nothing of it is stored).
fn write_group(conn: &Connection, group: &mut [Job]) -> rusqlite::Result<()> {
    // IMMEDIATE: take the write lock now (waiting up to the busy timeout for other writers),
    // so no statement of the group can fail on a lock upgrade.
    conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
    let now = now_ms();
    for job in group.iter_mut() {
        job.write(conn, now)?;
    }
    conn.prepare_cached("COMMIT")?.execute([])?;
    Ok(())
}

/// Records one answer inside the group's transaction: inserted (with the session's new
/// progress) or, when its item or key is taken, classified against what is stored (so an
/// answer written earlier in this group counts).
fn record_answer(
    conn: &Connection,
    a: &NewAnswer,
    completion_code: &str,
    now: i64,
) -> Result<RecordOutcome, DirectError> {
    let values: [&dyn ToSql; 11] = [
        &a.id,
        &a.session_id,
        &a.item_id,
        &a.idempotency_key,
        &a.answer_json,
        &a.option_order_json,
        &a.choice,
        &a.score,
        &a.response_ms,
        &now,
        &completion_code,
    ];
    if execute(conn, INSERT_ANSWER_SQL, &values)? == 1 {
        let outcome = {
            let mut progress = conn.prepare_cached(PROGRESS_SQL)?;
            bind_numbered(&mut progress, &values)?;
            let mut rows = progress.raw_query();
            let row = rows.next()?.ok_or(rusqlite::Error::QueryReturnedNoRows)?;
            recorded(row)?
        };
        if matches!(&outcome, RecordOutcome::Recorded { completion_code: Some(code), .. }
            if code == completion_code)
        {
            // This answer completed the session (its code is fresh, so no other could).
            execute(conn, COUNT_COMPLETION_SQL, &values)?;
            execute(conn, MARK_CROWD_CHANGE_SQL, &[&a.session_id])?;
        }
        return Ok(outcome);
    }
    let mut statement = conn.prepare_cached(STORED_SQL)?;
    bind_numbered(
        &mut statement,
        &[&a.session_id, &a.item_id, &a.idempotency_key],
    )?;
    let mut rows = statement.raw_query();
    let mut stored = StoredRows::default();
    while let Some(row) = rows.next()? {
        stored.add(row)?;
    }
    Ok(stored
        .classify(a)
        .ok_or(rusqlite::Error::QueryReturnedNoRows)?)
}

/// Stores a session start inside the group's transaction: the participant if new, the
/// session, its batch and the items' assignment counters. A start key used already (a resend
/// of the same start) stores nothing and returns `false`.
fn start_session(
    conn: &Connection,
    s: &NewSession,
    new_participant: Option<&str>,
    now: i64,
) -> rusqlite::Result<bool> {
    if let Some(secret_hash) = new_participant {
        execute(
            conn,
            INSERT_PARTICIPANT_SQL,
            &[&s.participant_id as &dyn ToSql, &now, &secret_hash],
        )?;
    }
    let screened_at = s.screen_reason.as_ref().map(|_| now);
    let batch_size = s.batch_size();
    let pilot = i64::from(s.pilot);
    let inserted = execute(
        conn,
        INSERT_SESSION_SQL,
        &[
            &s.id,
            &s.participant_id,
            &s.task_id,
            &s.seed,
            &s.survey_json,
            &s.prolific_pid,
            &s.study_id,
            &s.recruitment_session_id,
            &batch_size,
            &now,
            &s.start_key,
            &s.headphone_json,
            &s.attention_checks,
            &s.screen_reason,
            &screened_at,
            &pilot,
        ],
    )?;
    if inserted == 0 {
        // The participant row (if any) goes with the savepoint: the caller finds the session
        // that key created.
        conn.execute_batch("ROLLBACK TO job")?;
        return Ok(false);
    }
    for (position, item) in s.items.iter().enumerate() {
        let position = position as i64;
        execute(
            conn,
            INSERT_SESSION_ITEM_SQL,
            &[&s.id as &dyn ToSql, &position, item],
        )?;
        // A pilot batch leaves the balanced assignment as it was.
        if !s.pilot {
            execute(conn, EXPOSE_ITEM_SQL, &[item])?;
        }
    }
    Ok(true)
}

/// Runs a prepared (cached) statement with `values` bound, returning the rows it changed.
fn execute(conn: &Connection, sql: &str, values: &[&dyn ToSql]) -> rusqlite::Result<usize> {
    let mut statement = conn.prepare_cached(sql)?;
    bind_numbered(&mut statement, values)?;
    statement.raw_execute()
}

/// Copies the write-ahead log into the database and makes the next write start the log from
/// its beginning (`RESTART`), after a group is acknowledged, while the writer holds the gate.
///
/// SQLite's automatic checkpoints are passive: with readers always active (200 participants)
/// the log is never reset, so it grows without end and every read searches a longer log
/// index; over 10 minutes the answer rate halved. `RESTART` waits (busy timeout) only for
/// reads that began before it, which are single statements. A failure (busy, disk full) is
/// logged and changes nothing: the next checkpoint tries again, and no write depends on it.
fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(RESTART)") {
        tracing::warn!(error = %e, "write-ahead log checkpoint failed");
    }
}

#[cfg(test)]
mod tests {
    use super::super::Storage;
    use super::*;

    /// `PRAGMA synchronous` as SQLite reports it: 2 is `FULL`, 1 `NORMAL`.
    const FULL: i64 = 2;

    /// An answer is acknowledged after its group's COMMIT: that COMMIT must have synced the
    /// write-ahead log (`FULL`), or a power cut could lose acknowledged answers. Both write
    /// paths: the group writer's connection and the pool's (uploads, tokens, owner edits).
    #[tokio::test]
    async fn every_sqlite_write_connection_syncs_its_commits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("durable.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let storage = Storage::connect(&url, 2).await.expect("storage");
        let pooled: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&storage.pool)
            .await
            .expect("pool pragma");
        assert_eq!(pooled, FULL, "the pool's connections");

        let mut slot = None;
        let writer = open(&path, &mut slot).expect("writer connection");
        let synchronous: i64 = writer
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .expect("writer pragma");
        assert_eq!(synchronous, FULL, "the group writer's connection");
        let journal: String = writer
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .expect("journal mode");
        assert_eq!(journal, "wal");
        // Its COMMITs leave copying the log to the once-a-second restart.
        let autocheckpoint: i64 = writer
            .query_row("PRAGMA wal_autocheckpoint", [], |r| r.get(0))
            .expect("autocheckpoint");
        assert_eq!(autocheckpoint, AUTOCHECKPOINT_PAGES);
        // Its savepoint journal stays in memory (2 is `MEMORY`).
        let temp_store: i64 = writer
            .query_row("PRAGMA temp_store", [], |r| r.get(0))
            .expect("temp_store");
        assert_eq!((TEMP_STORE, temp_store), ("MEMORY", 2));
    }
}

//! Each task's crowd answers as this server last read them, kept up to date by reading only
//! the sessions whose crowd data changed since (issue 28): a recomputation of the crowd
//! figures reads the new completions, not every answer again.
//!
//! The writes that change a completed session's crowd data — its completion, a score, a check
//! answer — raise the task's change number (`tasks.crowd_seq`) and mark the session with it
//! (`crowd_marks`) in their own transaction. The tasks row stays locked until that commit, so
//! changes commit in the order of their numbers: a read that sees a mark numbered n sees every
//! change numbered below. A copy therefore reads the sessions marked above the highest number
//! it has seen and replaces their answers. A deletion (which bumps `tasks.crowd_version`) or a
//! change to the task's items makes the next read a whole one, as does a server's first.

use super::crowd_rows::{CompactAnswer, CompactCrowd, CrowdItems, CrowdResponseRow};
use crate::storage::{Storage, StorageError};
use futures_util::TryStreamExt;
use sqlx::Row;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The columns both reads select, which [`Storage::read_into`] decodes, ahead of `seq`.
macro_rules! answer_columns {
    () => {
        "SELECT s.id AS session_id, s.participant_id, s.completed_at, a.item_id, a.choice, \
         a.score, p.familiarity, a.created_at, "
    };
}

/// The familiarity given before each answer (clip tasks), joined to the answers `a`.
macro_rules! familiarity_join {
    () => {
        "LEFT JOIN prefaces p ON p.session_id = a.session_id AND p.item_id = a.item_id "
    };
}

/// Every answer of the task's crowd sessions (completed, not pilots).
const WHOLE_READ_SQL: &str = concat!(
    answer_columns!(),
    "CAST(0 AS BIGINT) AS seq FROM sessions s JOIN answers a ON a.session_id = s.id ",
    familiarity_join!(),
    "WHERE s.task_id = $1 AND s.completed_at IS NOT NULL AND s.pilot = 0"
);

/// The sessions marked after change `$2`, each with all its answers (a session with none
/// still comes, once, with empty answer columns, so that its old answers are dropped).
const CHANGES_SQL: &str = concat!(
    answer_columns!(),
    "m.seq FROM crowd_marks m JOIN sessions s ON s.id = m.session_id ",
    "LEFT JOIN answers a ON a.session_id = s.id ",
    familiarity_join!(),
    "WHERE m.task_id = $1 AND m.seq > $2 AND s.completed_at IS NOT NULL AND s.pilot = 0"
);

/// The copies of this server, by task, and how many answer rows they have read.
#[derive(Debug, Clone, Default)]
pub struct CrowdLedgers {
    tasks: Arc<Mutex<HashMap<String, Arc<tokio::sync::Mutex<Ledger>>>>>,
    rows_read: Arc<AtomicU64>,
}

/// One task's copy.
#[derive(Debug, Default)]
struct Ledger {
    /// What the copy was read whole under: the crowd version and a digest of the items.
    /// `None` before the first read.
    basis: Option<(i64, u64)>,
    /// The highest change number the copy includes.
    seq: i64,
    benchmark: String,
    items: CrowdItems,
    crowd: CompactCrowd,
}

/// The task row's part that decides how to bring a copy up to date.
struct TaskState {
    benchmark: String,
    version: i64,
    seq: i64,
}

impl CrowdLedgers {
    fn ledger(&self, task_id: &str) -> Arc<tokio::sync::Mutex<Ledger>> {
        let mut tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        tasks.entry(task_id.to_owned()).or_default().clone()
    }
}

impl Storage {
    /// How many answer rows this process has read from the database into its copies of the
    /// crowd: a recomputation after one new completion reads that session's rows, not the
    /// crowd's (the crowd bench and `crowd_reads` tests count them).
    pub fn crowd_rows_read(&self) -> u64 {
        self.ledgers.rows_read.load(Ordering::Relaxed)
    }

    /// The crowd's responses from this server's copy of the task's crowd, brought up to date
    /// first (see the module doc); [`Storage::crowd_responses`] is the public entry.
    pub(super) async fn crowd_responses_kept(
        &self,
        task_id: &str,
    ) -> Result<Vec<CrowdResponseRow>, StorageError> {
        let ledger = self.ledgers.ledger(task_id);
        let mut ledger = ledger.lock_owned().await;
        let Some(task) = self.crowd_task_state(task_id).await? else {
            return Ok(Vec::new());
        };
        let (items, digest) = self.crowd_items(task_id).await?;
        let basis = Some((task.version, digest));
        let read = if ledger.basis != basis || ledger.benchmark != task.benchmark {
            // The basis is set only once the whole read succeeded: a copy cut short by an
            // error is read whole again, never brought up to date from a partial read.
            *ledger = Ledger {
                basis: None,
                seq: task.seq,
                benchmark: task.benchmark,
                items,
                crowd: CompactCrowd::default(),
            };
            let Ledger { items, crowd, .. } = &mut *ledger;
            let (_, read) = self.read_into(crowd, items, task_id, None).await?;
            ledger.basis = basis;
            read
        } else {
            // A delta cut short leaves the number where it was: its sessions are read again.
            let Ledger {
                items, crowd, seq, ..
            } = &mut *ledger;
            let (seen, read) = self.read_into(crowd, items, task_id, Some(*seq)).await?;
            *seq = (*seq).max(seen);
            read
        };
        self.ledgers.rows_read.fetch_add(read, Ordering::Relaxed);
        // Putting the rows in order is O(answers): off the async executor.
        let rows = tokio::task::spawn_blocking(move || {
            let Ledger {
                benchmark,
                items,
                crowd,
                ..
            } = &mut *ledger;
            crowd.rows(benchmark, items)
        })
        .await
        .map_err(|e| StorageError::Interrupted(format!("ordering the crowd's rows: {e}")))?;
        Ok(rows)
    }

    /// The crowd's responses read whole from the database, this server's copy untouched: what
    /// every recomputation did before the copies were kept; the tests' and the bench's
    /// reference for [`Storage::crowd_responses`].
    pub async fn crowd_responses_read_whole(
        &self,
        task_id: &str,
    ) -> Result<Vec<CrowdResponseRow>, StorageError> {
        let Some(task) = self.crowd_task_state(task_id).await? else {
            return Ok(Vec::new());
        };
        let (mut items, _) = self.crowd_items(task_id).await?;
        let mut crowd = CompactCrowd::default();
        self.read_into(&mut crowd, &items, task_id, None).await?;
        tokio::task::spawn_blocking(move || crowd.rows(&task.benchmark, &mut items))
            .await
            .map_err(|e| StorageError::Interrupted(format!("ordering the crowd's rows: {e}")))
    }

    async fn crowd_task_state(&self, task_id: &str) -> Result<Option<TaskState>, StorageError> {
        let row =
            sqlx::query("SELECT benchmark_id, crowd_version, crowd_seq FROM tasks WHERE id = $1")
                .bind(task_id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(TaskState {
            benchmark: row.try_get("benchmark_id")?,
            version: row.try_get("crowd_version")?,
            seq: row.try_get("crowd_seq")?,
        }))
    }

    /// The task's items as the rows name them, with a digest of them (a change to them makes
    /// the next read of a copy a whole one).
    async fn crowd_items(&self, task_id: &str) -> Result<(CrowdItems, u64), StorageError> {
        let mut items = CrowdItems::default();
        let mut listed = String::new();
        let sql = "SELECT id, category, split FROM items WHERE task_id = $1 ORDER BY id";
        for r in sqlx::query(sql).bind(task_id).fetch_all(&self.pool).await? {
            let (id, category, split): (&str, &str, &str) = (
                r.try_get("id")?,
                r.try_get("category")?,
                r.try_get("split")?,
            );
            items.add(id, category, split != "dev");
            listed.extend([id, "\u{1f}", category, "\u{1f}", split, "\u{1e}"]);
        }
        Ok((items, memeboard_core::ids::fnv1a64(listed.as_bytes())))
    }

    /// Reads into `crowd` the task's crowd sessions marked after change `after`, or all of
    /// them (`None`), each session read replacing its earlier answers; the highest change
    /// number seen (`after`, or 0, when none) and how many rows were read.
    async fn read_into(
        &self,
        crowd: &mut CompactCrowd,
        items: &CrowdItems,
        task_id: &str,
        after: Option<i64>,
    ) -> Result<(i64, u64), StorageError> {
        let mut rows = match after {
            Some(after) => sqlx::query(CHANGES_SQL).bind(task_id).bind(after),
            None => sqlx::query(WHOLE_READ_SQL).bind(task_id),
        }
        .fetch(&self.pool);
        let after = after.unwrap_or(0);
        let (mut seen, mut highest, mut read) = (HashSet::new(), after, 0u64);
        while let Some(r) = rows.try_next().await? {
            read += 1;
            highest = highest.max(r.try_get("seq")?);
            let session = crowd.sessions.id(r.try_get("session_id")?);
            if seen.insert(session) {
                crowd.clear_session(session);
            }
            // An answer to an item no longer in the task counts nowhere (as the join did).
            let Some(item) = r
                .try_get::<Option<&str>, _>("item_id")?
                .and_then(|i| items.number(i))
            else {
                continue;
            };
            let familiarity: Option<&str> = r.try_get("familiarity")?;
            let answer = CompactAnswer {
                participant: crowd.participants.id(r.try_get("participant_id")?),
                session,
                item,
                familiarity: familiarity.map(|f| crowd.familiarities.id(f)),
                choice: r.try_get("choice")?,
                score: r.try_get("score")?,
                answered_at: r.try_get::<Option<i64>, _>("created_at")?.unwrap_or(0),
                completed_at: r.try_get::<Option<i64>, _>("completed_at")?.unwrap_or(0),
            };
            crowd.push(answer);
        }
        for session in seen {
            crowd.settle_session(session);
        }
        Ok((highest, read))
    }
}

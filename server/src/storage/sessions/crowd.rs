//! Crowd data of a task: its fingerprint, the crowd responses, and the task's cached
//! baselines.

use super::crowd_rows::CrowdResponseRow;
use crate::storage::*;
use sqlx::Row;

/// Raises the crowd-change counter of session `$1`'s task when that session counts in the crowd
/// (completed, not a pilot), and the task's change number (`crowd_seq`, see
/// [`MARK_CROWD_CHANGE_SQL`]): run in the transaction that changes such a session's data after
/// its completion (a score, a check answer), so the crowd fingerprint follows it.
const COUNT_CROWD_CHANGE_SQL: &str =
    "UPDATE tasks SET crowd_changes = crowd_changes + 1, crowd_seq = crowd_seq + 1 \
     WHERE id = (SELECT task_id FROM sessions WHERE id = $1 AND completed_at IS NOT NULL \
     AND pilot = 0)";

/// Marks session `$1` with its task's change number (`tasks.crowd_seq`, just raised in the
/// same transaction) when it counts in the crowd: servers' copies of the crowd's answers read
/// again the sessions marked after their last read (see `crowd_ledger`). The `WHERE` keeps
/// SQLite from reading `ON CONFLICT` as a join's `ON`.
pub(crate) const MARK_CROWD_CHANGE_SQL: &str =
    "INSERT INTO crowd_marks (session_id, task_id, seq) \
     SELECT s.id, s.task_id, t.crowd_seq FROM sessions s JOIN tasks t ON t.id = s.task_id \
     WHERE s.id = $1 AND s.completed_at IS NOT NULL AND s.pilot = 0 \
     ON CONFLICT (session_id) DO UPDATE SET seq = excluded.seq";

/// Records in `tx` that session `session_id`'s data changed after its completion (a score, a
/// check answer): the crowd-change counter, the task's change number and the session's mark
/// rise together, or neither when the session is not in the crowd.
pub(crate) async fn count_crowd_change(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    session_id: &str,
) -> Result<(), sqlx::Error> {
    for sql in [COUNT_CROWD_CHANGE_SQL, MARK_CROWD_CHANGE_SQL] {
        sqlx::query(sql).bind(session_id).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Crowd fingerprints read lately, by task, with when they were read, and for how long one
/// may be reused (zero: never; set once at start-up).
#[derive(Debug, Clone, Default)]
pub struct FingerprintMemo {
    reuse_for: std::sync::Arc<std::sync::atomic::AtomicU64>,
    read: std::sync::Arc<
        std::sync::Mutex<
            std::collections::HashMap<
                String,
                (crate::crowd_cache::Fingerprint, std::time::Instant),
            >,
        >,
    >,
    /// How many times the crowd's answers were read (see [`Storage::crowd_reads`]).
    reads: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Storage {
    /// How many times this process has read a task's crowd answers ([`Storage::crowd_responses`],
    /// O(answers)): crowd-facing requests must not, except the one computation per state of
    /// the crowd's data that the crowd caches make; the tests and the crowd bench count them.
    pub fn crowd_reads(&self) -> u64 {
        self.fingerprints
            .reads
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Lets [`Storage::crowd_fingerprint`] reuse a task's fingerprint for `refresh` after
    /// reading it (`[quiz] crowd_refresh_secs`): crowd figures then follow new completions at
    /// most once per interval, which bounds how often they are recomputed.
    pub fn set_crowd_refresh(&self, refresh: std::time::Duration) {
        let ms = u64::try_from(refresh.as_millis()).unwrap_or(u64::MAX);
        self.fingerprints
            .reuse_for
            .store(ms, std::sync::atomic::Ordering::Relaxed);
    }

    /// Whether crowd figures may lag the data (a refresh interval is set): then requests get
    /// the stored figures while new ones are computed (see `crowd_cache`).
    pub fn crowd_figures_may_lag(&self) -> bool {
        self.fingerprints
            .reuse_for
            .load(std::sync::atomic::Ordering::Relaxed)
            > 0
    }

    /// A fingerprint of a task's crowd data (pilot sessions left out, as from the crowd), read
    /// from counters kept by the writes (one row, whatever the crowd's size): (completed
    /// sessions, other changes to completed sessions, 0, `None`, crowd version — bumped by
    /// every deletion — with the exclusion rules). Crowd statistics computed from equal
    /// fingerprints are equal, so they can be reused (see `crowd_cache`).
    ///
    /// Read again at most once per crowd refresh interval ([`Storage::set_crowd_refresh`]),
    /// so crowd figures lag the data by at most that long (and the owner's deletions, which
    /// forget the memo, not at all); with no interval, every call reads it.
    pub async fn crowd_fingerprint(
        &self,
        task_id: &str,
    ) -> Result<crate::crowd_cache::Fingerprint, StorageError> {
        let reuse_for = std::time::Duration::from_millis(
            self.fingerprints
                .reuse_for
                .load(std::sync::atomic::Ordering::Relaxed),
        );
        if !reuse_for.is_zero() {
            let read = self
                .fingerprints
                .read
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some((f, at)) = read.get(task_id) {
                if at.elapsed() < reuse_for {
                    return Ok(*f);
                }
            }
        }
        let f = self.read_crowd_fingerprint(task_id).await?;
        if !reuse_for.is_zero() {
            self.fingerprints
                .read
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(task_id.to_owned(), (f, std::time::Instant::now()));
        }
        Ok(f)
    }

    /// Forgets the memo of a task's fingerprint (after a write that must show at once).
    pub(crate) fn forget_crowd_fingerprint(&self, task_id: &str) {
        self.fingerprints
            .read
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(task_id);
    }

    /// The fingerprint as the database has it now: one row of `tasks`, whose counters the
    /// writes that change crowd data raise in their own transactions (completions:
    /// `completed_sessions`; scores and check answers of completed sessions:
    /// `crowd_changes`; deletions: `crowd_version`, with the counters recounted). Within one
    /// crowd version the counters only grow, so equal fingerprints mean equal crowd data.
    async fn read_crowd_fingerprint(
        &self,
        task_id: &str,
    ) -> Result<crate::crowd_cache::Fingerprint, StorageError> {
        let row = sqlx::query(
            "SELECT completed_sessions, crowd_changes, crowd_version, exclude_failed_checks, \
             study_json FROM tasks WHERE id = $1",
        )
        .bind(task_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok((0, 0, 0, None, 0));
        };
        // The owner's exclusion rules decide which sessions count: a change to them is folded
        // into the version, so it is never served stale (like a deletion).
        let study: Option<String> = row.try_get("study_json")?;
        let exclude_failed: i64 = row.try_get("exclude_failed_checks")?;
        let rules = memeboard_core::ids::fnv1a64(
            format!("{}\u{1f}{exclude_failed}", study.unwrap_or_default()).as_bytes(),
        ) as i64;
        Ok((
            row.try_get("completed_sessions")?,
            row.try_get("crowd_changes")?,
            0,
            None,
            row.try_get::<i64, _>("crowd_version")? ^ rules,
        ))
    }

    /// A task's crowd data counted over its sessions and answers: (completed sessions, their
    /// answers, scored answers, attention-check answers). What the crowd fingerprint read on
    /// crowd-facing requests before its counters were kept ([`Storage::crowd_fingerprint`]);
    /// the crowd benchmark's reference and the tests' cross-check of those counters.
    pub async fn count_crowd_data(&self, task_id: &str) -> Result<[i64; 4], StorageError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT s.id) AS sessions, COUNT(a.id) AS answers, \
             COUNT(a.score) AS scored, \
             (SELECT COUNT(*) FROM attention_checks c JOIN sessions cs ON cs.id = c.session_id \
              WHERE cs.task_id = $1 AND cs.completed_at IS NOT NULL AND cs.pilot = 0) AS checks \
             FROM sessions s LEFT JOIN answers a ON a.session_id = s.id \
             WHERE s.task_id = $1 AND s.completed_at IS NOT NULL AND s.pilot = 0",
        )
        .bind(task_id)
        .fetch_one(&self.pool)
        .await?;
        Ok([
            row.try_get("sessions")?,
            row.try_get("answers")?,
            row.try_get("scored")?,
            row.try_get("checks")?,
        ])
    }

    /// Scored responses of all *completed* sessions of a task (the crowd; pilot sessions are
    /// never part of it), in the order the
    /// crowd statistics read them: by participant pseudonym, item, answer time and session
    /// pseudonym (see [`crate::pseudonym::crowd_order`]), which the raw-data export carries, so
    /// `memeboard stats --export` reproduces the bootstrap intervals exactly.
    ///
    /// Taken from this server's copy of the task's crowd (`crowd_ledger`), which reads from
    /// the database only the sessions changed since its last read — the first read, and the
    /// first after a deletion or a change to the items, reads every answer. The copy holds
    /// numbered rows (about 60 bytes per answer, each participant, session, item and
    /// familiarity held once, each pseudonym computed once), sorted by the ranks of their
    /// pseudonyms on the blocking pool (see `crowd_rows`).
    pub async fn crowd_responses(
        &self,
        task_id: &str,
    ) -> Result<Vec<CrowdResponseRow>, StorageError> {
        self.fingerprints
            .reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.crowd_responses_kept(task_id).await
    }

    /// The cached embedding baseline of a task and the model it was computed with.
    pub async fn task_baseline(
        &self,
        task_id: &str,
    ) -> Result<Option<(f64, String)>, StorageError> {
        let row =
            sqlx::query("SELECT embedding_baseline, embedding_model FROM tasks WHERE id = $1")
                .bind(task_id)
                .fetch_optional(&self.pool)
                .await?;
        let Some(row) = row else { return Ok(None) };
        let baseline: Option<f64> = row.try_get("embedding_baseline")?;
        let model: Option<String> = row.try_get("embedding_model")?;
        Ok(baseline.zip(model))
    }

    /// A task's cached per-item baseline scores (see `tasks.reference_json`).
    pub async fn task_reference(&self, task_id: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT reference_json FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("reference_json")?,
            None => None,
        })
    }

    /// Caches a task's per-item baseline scores.
    pub async fn set_task_reference(&self, task_id: &str, json: &str) -> Result<(), StorageError> {
        sqlx::query("UPDATE tasks SET reference_json = $2 WHERE id = $1")
            .bind(task_id)
            .bind(json)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Caches a task's embedding baseline.
    pub async fn set_task_baseline(
        &self,
        task_id: &str,
        baseline: f64,
        model: &str,
    ) -> Result<(), StorageError> {
        sqlx::query("UPDATE tasks SET embedding_baseline = $2, embedding_model = $3 WHERE id = $1")
            .bind(task_id)
            .bind(baseline)
            .bind(model)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

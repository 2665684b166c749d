//! Judging tasks (ratings and rankings): creating one with its batched items in one
//! transaction, the fixed batches and how many raters hold each, a participant's earlier
//! sessions of a task, and the gold of rating items (planted outputs) for quality rules.

use super::*;
use sqlx::Row;

/// A participant's earlier session of a task.
#[derive(Debug, Clone)]
pub struct ParticipationRow {
    /// Session id.
    pub id: String,
    /// Completed.
    pub completed: bool,
    /// Ended early by a screen-out.
    pub screened_out: bool,
}

/// One fixed batch of a judging task: its items in task order and the raters holding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgingBatchRow {
    /// Batch number.
    pub batch: i64,
    /// Item ids in task order.
    pub items: Vec<String>,
    /// Sessions holding it that count (completed, or unfinished, not screened out and started
    /// after the cut-off).
    pub sessions: i64,
}

impl Storage {
    /// Inserts a judging task, its items and its rater training, if any, in one transaction
    /// (all or nothing). Refuses
    /// (returns `false`, storing nothing) when the slug is taken.
    pub async fn insert_judging_task(
        &self,
        task: &TaskRecord,
        invite_hash: Option<&str>,
        study_id: Option<&str>,
        items: &[(ItemRecord, i64)],
        training_json: Option<&str>,
    ) -> Result<bool, StorageError> {
        let mut tx = self.pool.begin().await?;
        if !Self::insert_judging_task_in(&mut tx, task, invite_hash, study_id, items).await? {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(training) = training_json {
            Self::insert_training_in(&mut tx, &task.id, training).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// [`Storage::insert_judging_task`] inside a caller's transaction (a study creates its tasks
    /// and its own row in one). `false` when the slug or id is taken (nothing inserted; the
    /// caller rolls back).
    pub(super) async fn insert_judging_task_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        task: &TaskRecord,
        invite_hash: Option<&str>,
        study_id: Option<&str>,
        items: &[(ItemRecord, i64)],
    ) -> Result<bool, StorageError> {
        let now = now_ms();
        let taken = sqlx::query("SELECT 1 AS one FROM tasks WHERE slug = $1 OR id = $2")
            .bind(&task.slug)
            .bind(&task.id)
            .fetch_optional(&mut **tx)
            .await?
            .is_some();
        if taken {
            return Ok(false);
        }
        task.bind_columns(sqlx::query(
            "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, \
             categories_json, batch_size, quiz_open, created_at, allow_retake, invite_hash, \
             study_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $12)",
        ))
        .bind(now)
        .bind(invite_hash)
        .bind(study_id)
        .execute(&mut **tx)
        .await?;
        for (it, batch) in items {
            it.bind_columns(sqlx::query(
                "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                 flagged, meme_id, split, board_half, source_id, batch_no) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            ))
            .bind(*batch)
            .execute(&mut **tx)
            .await?;
        }
        Ok(true)
    }

    /// Whether a benchmark with this id exists.
    pub async fn benchmark_exists(&self, id: &str) -> Result<bool, StorageError> {
        Ok(sqlx::query("SELECT 1 AS one FROM benchmarks WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .is_some())
    }

    /// A participant's sessions of a task, newest first.
    pub async fn participations(
        &self,
        participant_id: &str,
        task_id: &str,
    ) -> Result<Vec<ParticipationRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, completed_at, screened_out_at FROM sessions \
             WHERE participant_id = $1 AND task_id = $2 ORDER BY created_at DESC, id",
        )
        .bind(participant_id)
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ParticipationRow {
                    id: r.try_get("id")?,
                    completed: r.try_get::<Option<i64>, _>("completed_at")?.is_some(),
                    screened_out: r.try_get::<Option<i64>, _>("screened_out_at")?.is_some(),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The fixed batches a participant's sessions of a task hold (judged or started), so that a
    /// rater who may judge several is never given the same one twice.
    pub async fn participant_batches(
        &self,
        participant_id: &str,
        task_id: &str,
    ) -> Result<Vec<i64>, StorageError> {
        let rows = sqlx::query(
            "SELECT DISTINCT i.batch_no AS batch_no FROM sessions s \
             JOIN session_items si ON si.session_id = s.id JOIN items i ON i.id = si.item_id \
             WHERE s.participant_id = $1 AND s.task_id = $2 AND i.batch_no IS NOT NULL",
        )
        .bind(participant_id)
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("batch_no"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The fixed batches of a task in batch order, each with its items (task order) and the
    /// sessions holding it: completed ones, and unfinished ones not screened out and started at
    /// or after `active_since` (ms; older unfinished ones count as abandoned). Pilot sessions
    /// hold no batch.
    pub async fn judging_batches(
        &self,
        task_id: &str,
        active_since: i64,
    ) -> Result<Vec<JudgingBatchRow>, StorageError> {
        let items = sqlx::query(
            "SELECT id, batch_no FROM items WHERE task_id = $1 AND batch_no IS NOT NULL \
             ORDER BY batch_no, ordinal, id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        let counts = sqlx::query(
            "SELECT i.batch_no AS batch_no, COUNT(DISTINCT s.id) AS sessions \
             FROM sessions s JOIN session_items si ON si.session_id = s.id \
             JOIN items i ON i.id = si.item_id \
             WHERE s.task_id = $1 AND s.screened_out_at IS NULL AND s.pilot = 0 \
             AND (s.completed_at IS NOT NULL OR s.created_at >= $2) \
             AND i.batch_no IS NOT NULL GROUP BY i.batch_no",
        )
        .bind(task_id)
        .bind(active_since)
        .fetch_all(&self.pool)
        .await?;
        let mut out: Vec<JudgingBatchRow> = Vec::new();
        for r in &items {
            let batch: i64 = r.try_get("batch_no")?;
            let id: String = r.try_get("id")?;
            match out.last_mut() {
                Some(last) if last.batch == batch => last.items.push(id),
                _ => out.push(JudgingBatchRow {
                    batch,
                    items: vec![id],
                    sessions: 0,
                }),
            }
        }
        for r in &counts {
            let batch: i64 = r.try_get("batch_no")?;
            let n: i64 = r.try_get("sessions")?;
            if let Some(b) = out.iter_mut().find(|b| b.batch == batch) {
                b.sessions = n;
            }
        }
        Ok(out)
    }

    /// The gold JSON of each item of a rating task (`(item id, gold)`; empty for other
    /// kinds): which items are planted outputs, for the planted-check rule. Server-side only.
    pub async fn rating_golds(&self, task_id: &str) -> Result<Vec<(String, String)>, StorageError> {
        let rows = sqlx::query(
            "SELECT i.id, i.gold_json FROM items i JOIN tasks t ON t.id = i.task_id \
             WHERE i.task_id = $1 AND t.kind = 'rating' ORDER BY i.ordinal, i.id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("gold_json")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

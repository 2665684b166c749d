//! Rows and writes of the start-up upgrade of databases made by earlier versions.

use super::*;
use sqlx::Row;

/// One item as the start-up upgrade sees it.
#[derive(Debug, Clone)]
pub struct UpgradeItemRow {
    /// Current id.
    pub id: String,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Source meme, if any.
    pub meme_id: Option<String>,
    /// Current source id (NULL before the backfill).
    pub source_id: Option<String>,
    /// Current split.
    pub split: String,
    /// Current board half.
    pub board_half: String,
}

/// A task as the start-up upgrade sees it.
#[derive(Debug, Clone)]
pub struct UpgradeTaskRow {
    /// Task id.
    pub id: String,
    /// Kind key.
    pub kind: String,
    /// Slug of the benchmark (the namespace of minted ids).
    pub benchmark_slug: String,
    /// Category keys JSON.
    pub categories_json: String,
}

/// What the start-up upgrade changes for one item.
#[derive(Debug, Clone)]
pub struct ItemChange {
    /// Id now.
    pub old_id: String,
    /// Id after (same as `old_id` when only the split changes).
    pub new_id: String,
    /// Source id after.
    pub source_id: String,
    /// Split after.
    pub split: String,
    /// Board half after.
    pub board_half: String,
}

/// A submission rewritten by the start-up upgrade (ids re-keyed, summaries re-derived).
#[derive(Debug, Clone)]
pub struct SubmissionRewrite {
    /// Submission id.
    pub id: String,
    /// Per-item scores JSON.
    pub item_scores_json: String,
    /// Public-board summary JSON.
    pub public_summary_json: String,
    /// Private-board summary JSON.
    pub private_summary_json: String,
    /// Secondary metrics (None when they cannot be re-derived).
    pub extra_json: Option<String>,
}

impl Storage {
    /// Every task with its benchmark slug (start-up upgrade).
    pub async fn upgrade_tasks(&self) -> Result<Vec<UpgradeTaskRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT t.id, t.kind, b.slug AS benchmark_slug, t.categories_json FROM tasks t \
             JOIN benchmarks b ON b.id = t.benchmark_id ORDER BY t.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UpgradeTaskRow {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    benchmark_slug: r.try_get("benchmark_slug")?,
                    categories_json: r.try_get("categories_json")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The items of a task with id, prompt, source and split (start-up upgrade).
    pub async fn upgrade_items(&self, task_id: &str) -> Result<Vec<UpgradeItemRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, prompt_json, meme_id, source_id, split, board_half FROM items \
             WHERE task_id = $1 ORDER BY ordinal, id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UpgradeItemRow {
                    id: r.try_get("id")?,
                    prompt_json: r.try_get("prompt_json")?,
                    meme_id: r.try_get("meme_id")?,
                    source_id: r.try_get("source_id")?,
                    split: r.try_get("split")?,
                    board_half: r.try_get("board_half")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Applies the start-up upgrade of one task in one transaction: re-keys items (a copy
    /// under the new id, then session items and answers moved to it, then the old row
    /// deleted, so foreign keys hold at every step on both engines), sets sources, splits and
    /// board halves, and rewrites the task's submissions.
    pub async fn apply_item_upgrade(
        &self,
        changes: &[ItemChange],
        submissions: &[SubmissionRewrite],
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        for c in changes {
            if c.new_id != c.old_id {
                sqlx::query(
                    "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                     flagged, meme_id, split, board_half, source_id, exposures) \
                     SELECT $1, task_id, ordinal, category, prompt_json, gold_json, flagged, \
                     meme_id, $2, $3, $4, exposures FROM items WHERE id = $5",
                )
                .bind(&c.new_id)
                .bind(&c.split)
                .bind(&c.board_half)
                .bind(&c.source_id)
                .bind(&c.old_id)
                .execute(&mut *tx)
                .await?;
                for table in ["session_items", "answers"] {
                    sqlx::query(&format!(
                        "UPDATE {table} SET item_id = $1 WHERE item_id = $2"
                    ))
                    .bind(&c.new_id)
                    .bind(&c.old_id)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query("DELETE FROM items WHERE id = $1")
                    .bind(&c.old_id)
                    .execute(&mut *tx)
                    .await?;
            } else {
                sqlx::query(
                    "UPDATE items SET split = $1, board_half = $2, source_id = $3 WHERE id = $4",
                )
                .bind(&c.split)
                .bind(&c.board_half)
                .bind(&c.source_id)
                .bind(&c.old_id)
                .execute(&mut *tx)
                .await?;
            }
        }
        for s in submissions {
            Self::rewrite_submission_in(&mut tx, s).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Replaces a submission's per-item scores, summaries and extra figures inside `tx`.
    pub(super) async fn rewrite_submission_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        s: &SubmissionRewrite,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE submissions SET item_scores_json = $1, public_summary_json = $2, \
             private_summary_json = $3, extra_json = $4 WHERE id = $5",
        )
        .bind(&s.item_scores_json)
        .bind(&s.public_summary_json)
        .bind(&s.private_summary_json)
        .bind(&s.extra_json)
        .bind(&s.id)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

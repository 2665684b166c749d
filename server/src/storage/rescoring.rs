//! Stored prediction files (`submission_files`) and the history of rescorings
//! (`task_rescorings`): what lets a corrected gold or a console button score every upload of a
//! task again, and what the board says about it. Files are never served.

use super::*;
use sqlx::Row;

/// An accepted prediction file as it was scored (after any conditions header line; its
/// format is the submission's `file_format`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    /// The file's text.
    pub body: String,
}

/// One rescoring of a task's uploads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RescoringRecord {
    /// Random id.
    pub id: String,
    /// The task rescored.
    pub task_id: String,
    /// When it finished (ms since the epoch).
    pub at: i64,
    /// Why (the owner's words, or the importer's: "gold re-imported").
    pub reason: String,
    /// Uploads scored again.
    pub rescored: i64,
    /// Uploads that could not be (stored before files were kept, or their file no longer
    /// valid against the items).
    pub skipped: i64,
}

impl Storage {
    /// Stores a submission's file inside its insert transaction.
    pub(super) async fn insert_file_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        submission_id: &str,
        file: &StoredFile,
    ) -> Result<(), StorageError> {
        sqlx::query("INSERT INTO submission_files (submission_id, body) VALUES ($1, $2)")
            .bind(submission_id)
            .bind(&file.body)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// A submission's stored file (`None` for uploads stored before files were kept).
    pub async fn submission_file(
        &self,
        submission_id: &str,
    ) -> Result<Option<StoredFile>, StorageError> {
        let row = sqlx::query("SELECT body FROM submission_files WHERE submission_id = $1")
            .bind(submission_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(StoredFile {
                body: r.try_get("body")?,
            })
        })
        .transpose()
    }

    /// Records a finished rescoring.
    pub async fn record_rescoring(&self, r: &RescoringRecord) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO task_rescorings (id, task_id, at, reason, rescored, skipped) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&r.id)
        .bind(&r.task_id)
        .bind(r.at)
        .bind(&r.reason)
        .bind(r.rescored)
        .bind(r.skipped)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A task's latest rescorings, newest first, at most `limit`.
    pub async fn task_rescorings(
        &self,
        task_id: &str,
        limit: i64,
    ) -> Result<Vec<RescoringRecord>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, task_id, at, reason, rescored, skipped FROM task_rescorings \
             WHERE task_id = $1 ORDER BY at DESC, id LIMIT $2",
        )
        .bind(task_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RescoringRecord {
                    id: r.try_get("id")?,
                    task_id: r.try_get("task_id")?,
                    at: r.try_get("at")?,
                    reason: r.try_get("reason")?,
                    rescored: r.try_get("rescored")?,
                    skipped: r.try_get("skipped")?,
                })
            })
            .collect()
    }
}

//! Headphone checks scored by the server: the drawn tone orders (the answer key) kept here,
//! and the participant's answers stored once per check.

use super::*;

/// A stored headphone check.
#[derive(Debug, Clone)]
pub struct HeadphoneCheckRow {
    /// The task whose quiz the check belongs to.
    pub task_id: String,
    /// The tone order of every trial (JSON), the answer key: never sent to a participant.
    pub key_json: String,
    /// The answers stored first (JSON), once answered.
    pub answers_json: Option<String>,
}

impl Storage {
    /// Stores a fresh check with its answer key.
    pub async fn create_headphone_check(
        &self,
        id: &str,
        task_id: &str,
        key_json: &str,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO headphone_checks (id, task_id, key_json, created_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(task_id)
        .bind(key_json)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The check `id`, if any.
    pub async fn headphone_check(
        &self,
        id: &str,
    ) -> Result<Option<HeadphoneCheckRow>, StorageError> {
        let row = sqlx::query(
            "SELECT task_id, key_json, answers_json FROM headphone_checks WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(HeadphoneCheckRow {
                task_id: r.try_get("task_id")?,
                key_json: r.try_get("key_json")?,
                answers_json: r.try_get("answers_json")?,
            })
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }

    /// Stores the answers of check `id` unless it was answered before; returns the check as
    /// stored afterwards (its first answers), `None` when there is no such check.
    pub async fn answer_headphone_check(
        &self,
        id: &str,
        answers_json: &str,
    ) -> Result<Option<HeadphoneCheckRow>, StorageError> {
        sqlx::query(
            "UPDATE headphone_checks SET answers_json = $2, answered_at = $3 \
             WHERE id = $1 AND answers_json IS NULL",
        )
        .bind(id)
        .bind(answers_json)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        self.headphone_check(id).await
    }
}

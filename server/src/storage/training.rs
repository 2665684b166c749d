//! Rater training of judging tasks: each task's training document (rubric, practice pages
//! with their expected answers, pass mark) and each rater's practice answers, stored once
//! per task, rater and page before any feedback is sent.

use super::*;
use sqlx::Row;

/// A practice answer about to be stored.
#[derive(Debug, Clone)]
pub struct NewPracticeAnswer<'a> {
    /// The judging task.
    pub task_id: &'a str,
    /// The rater.
    pub participant_id: &'a str,
    /// The session it is given in.
    pub session_id: &'a str,
    /// 0-based practice page.
    pub page: i64,
    /// The request's idempotency key.
    pub idempotency_key: &'a str,
    /// The answer in the kind's canonical terms (`AnswerValue` JSON).
    pub answer_json: &'a str,
    /// The page's display order as shown (JSON list).
    pub option_order_json: &'a str,
    /// Fields answered as expected.
    pub matched: i64,
    /// Fields of the page.
    pub total: i64,
    /// Time to answer (ms).
    pub response_ms: i64,
}

/// A stored practice answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PracticeAnswerRow {
    /// 0-based practice page.
    pub page: i64,
    /// The idempotency key of the request that stored it.
    pub idempotency_key: String,
    /// The answer (`AnswerValue` JSON).
    pub answer_json: String,
    /// The page's display order as shown (JSON list).
    pub option_order_json: String,
    /// Fields answered as expected.
    pub matched: i64,
    /// Fields of the page.
    pub total: i64,
}

impl Storage {
    /// Stores a judging task's training inside the transaction that creates the task.
    pub(super) async fn insert_training_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        task_id: &str,
        training_json: &str,
    ) -> Result<(), StorageError> {
        sqlx::query("INSERT INTO task_training (task_id, training_json) VALUES ($1, $2)")
            .bind(task_id)
            .bind(training_json)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// A task's training document, if it has one.
    pub async fn task_training(&self, task_id: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT training_json FROM task_training WHERE task_id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("training_json")).transpose()?)
    }

    /// Stores a practice answer unless the page already has one, and returns the rater's
    /// practice answers in the task as stored now (the page's earlier one when there was: the
    /// caller compares keys and answers) with whether this call inserted it. Durable when this
    /// returns.
    pub async fn record_practice(
        &self,
        answer: &NewPracticeAnswer<'_>,
    ) -> Result<(Vec<PracticeAnswerRow>, bool), StorageError> {
        let inserted = sqlx::query(
            "INSERT INTO practice_answers (task_id, participant_id, page, session_id, \
             idempotency_key, answer_json, option_order_json, matched, total, response_ms, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
             ON CONFLICT (task_id, participant_id, page) DO NOTHING",
        )
        .bind(answer.task_id)
        .bind(answer.participant_id)
        .bind(answer.page)
        .bind(answer.session_id)
        .bind(answer.idempotency_key)
        .bind(answer.answer_json)
        .bind(answer.option_order_json)
        .bind(answer.matched)
        .bind(answer.total)
        .bind(answer.response_ms)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(StorageError::not_recorded)?
        .rows_affected();
        let stored = self
            .practice_answers(answer.task_id, answer.participant_id)
            .await?;
        if !stored.iter().any(|r| r.page == answer.page) {
            return Err(StorageError::Database(sqlx::Error::RowNotFound));
        }
        Ok((stored, inserted == 1))
    }

    /// A rater's practice answers in a task, by page.
    pub async fn practice_answers(
        &self,
        task_id: &str,
        participant_id: &str,
    ) -> Result<Vec<PracticeAnswerRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT page, idempotency_key, answer_json, option_order_json, matched, total \
             FROM practice_answers WHERE task_id = $1 AND participant_id = $2 ORDER BY page",
        )
        .bind(task_id)
        .bind(participant_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PracticeAnswerRow {
                    page: r.try_get("page")?,
                    idempotency_key: r.try_get("idempotency_key")?,
                    answer_json: r.try_get("answer_json")?,
                    option_order_json: r.try_get("option_order_json")?,
                    matched: r.try_get("matched")?,
                    total: r.try_get("total")?,
                })
            })
            .collect()
    }
}

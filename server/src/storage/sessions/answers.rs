//! Answers: the preface and the exactly-once answer record (and how a skipped insert is
//! classified), and the scores stored after an answer.

use crate::storage::*;
use sqlx::Row;

/// An answer to record.
#[derive(Debug, Clone)]
pub struct NewAnswer {
    /// Answer id.
    pub id: String,
    /// Session.
    pub session_id: String,
    /// Item.
    pub item_id: String,
    /// Client idempotency key.
    pub idempotency_key: String,
    /// `AnswerValue` JSON.
    pub answer_json: String,
    /// Display order JSON.
    pub option_order_json: String,
    /// Canonical choice, for choice tasks.
    pub choice: Option<i64>,
    /// Score (hidden until the batch is complete).
    pub score: Option<f64>,
    /// Response time.
    pub response_ms: i64,
}

/// What happened to an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordOutcome {
    /// Newly recorded.
    Recorded {
        /// Answers now recorded.
        answered: i64,
        /// Completion code if this completed the batch.
        completion_code: Option<String>,
    },
    /// The same idempotency key was already recorded for this item: nothing new stored.
    Replayed {
        /// Answers recorded.
        answered: i64,
        /// Completion code if complete.
        completion_code: Option<String>,
    },
    /// The item already has an answer under another key: refused.
    AlreadyAnswered,
    /// The idempotency key was used for another item: refused.
    KeyReused,
    /// The idempotency key was used for this item with a different answer: refused (a resend
    /// must repeat the answer it stands for).
    KeyReusedWithAnotherAnswer,
}

impl Storage {
    /// Stores the preface answer of a session's item once. Returns the answer stored first
    /// (this one, or an earlier one: the caller compares) and whether this call stored it.
    pub async fn record_preface(
        &self,
        session_id: &str,
        item_id: &str,
        familiarity: &str,
    ) -> Result<(String, bool), StorageError> {
        let inserted = sqlx::query(
            "INSERT INTO prefaces (session_id, item_id, familiarity, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (session_id, item_id) DO NOTHING",
        )
        .bind(session_id)
        .bind(item_id)
        .bind(familiarity)
        .bind(now_ms())
        .execute(&self.pool)
        .await
        .map_err(StorageError::not_recorded)?
        .rows_affected();
        let stored: String =
            sqlx::query("SELECT familiarity FROM prefaces WHERE session_id = $1 AND item_id = $2")
                .bind(session_id)
                .bind(item_id)
                .fetch_one(&self.pool)
                .await?
                .try_get("familiarity")?;
        Ok((stored, inserted == 1))
    }

    /// Records an answer exactly once. The unique constraints on `(session, item)` and
    /// `(session, idempotency key)` make duplicates safe: a resend or the loser of a race is
    /// reported as a replay or a refusal, never stored twice. The last answer of a batch marks
    /// the session complete and stores `completion_code` in the same transaction: the
    /// session's `answered` counter, raised under its row lock, reaches the batch size exactly
    /// once. Nothing is acknowledged unless its COMMIT succeeded; a failed write is
    /// [`StorageError::NotRecorded`] (nothing of it stored, the client may retry).
    ///
    /// SQLite: queued for the group writer (see `group_writer`), which writes the answers
    /// that arrive together in one transaction. PostgreSQL (several server instances):
    /// one statement per answer in a transaction of its own; concurrent answers to one
    /// session queue on the session's row lock. The completing answer raises the task's
    /// completion counters in the same statement (as the group writer does); two
    /// sessions of one participant completing at the same instant (retakes allowed) may both
    /// count the participant, until the next deletion recounts.
    pub async fn record_answer(
        &self,
        a: NewAnswer,
        completion_code: String,
    ) -> Result<RecordOutcome, StorageError> {
        if let Some(writer) = &self.writer {
            return writer.record(a, completion_code).await;
        }
        let not_recorded = StorageError::not_recorded;
        let statement = sqlx::query(
            "WITH stored AS (INSERT INTO answers (id, session_id, item_id, idempotency_key, \
             answer_json, option_order_json, choice, score, response_ms, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING RETURNING id), \
             done AS (UPDATE sessions SET answered = answered + 1, \
             completed_at = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
               THEN $10 ELSE completed_at END, \
             completion_code = CASE WHEN completed_at IS NULL AND answered + 1 >= batch_size \
               THEN $11 ELSE completion_code END \
             WHERE id = $2 AND EXISTS (SELECT 1 FROM stored) \
             RETURNING answered, completion_code, completed_at, participant_id, task_id, pilot), \
             counted AS (UPDATE tasks SET completed_sessions = completed_sessions + 1, \
             crowd_seq = crowd_seq + 1, \
             completed_participants = completed_participants + CASE WHEN EXISTS \
               (SELECT 1 FROM sessions o, done d WHERE o.participant_id = d.participant_id \
                AND o.task_id = tasks.id AND o.completed_at IS NOT NULL AND o.pilot = 0 \
                AND o.id <> $2) \
               THEN 0 ELSE 1 END \
             WHERE id = (SELECT task_id FROM done WHERE completion_code = $11 \
               AND completed_at = $10 AND pilot = 0) RETURNING id, crowd_seq), \
             marked AS (INSERT INTO crowd_marks (session_id, task_id, seq) \
               SELECT $2, id, crowd_seq FROM counted \
               ON CONFLICT (session_id) DO UPDATE SET seq = excluded.seq) \
             SELECT answered, completion_code FROM done",
        );
        let now = now_ms();
        let rows = statement
            .bind(&a.id)
            .bind(&a.session_id)
            .bind(&a.item_id)
            .bind(&a.idempotency_key)
            .bind(&a.answer_json)
            .bind(&a.option_order_json)
            .bind(a.choice)
            .bind(a.score)
            .bind(a.response_ms)
            .bind(now)
            .bind(&completion_code)
            // All of the response, not the first row: the implicit COMMIT's outcome (a deferred
            // constraint, a failed write) arrives after the row.
            .fetch_all(&self.pool)
            .await
            .map_err(not_recorded)?;
        if let Some(row) = rows.first() {
            return Ok(recorded(row)?);
        }
        // Its item or key is taken (by a committed answer: PostgreSQL waits for a concurrent
        // duplicate's transaction before skipping the insert).
        let rows = sqlx::query(STORED_SQL)
            .bind(&a.session_id)
            .bind(&a.item_id)
            .bind(&a.idempotency_key)
            .fetch_all(&self.pool)
            .await?;
        let mut stored = StoredRows::default();
        for row in &rows {
            stored.add(row)?;
        }
        Ok(stored.classify(&a).ok_or(sqlx::Error::RowNotFound)?)
    }

    /// Stores the embedding scores of a recorded answer; when its session already counts in
    /// the crowd, the task's crowd-change counter rises in the same transaction (crowd figures
    /// follow the score).
    pub async fn set_answer_scores(
        &self,
        session_id: &str,
        item_id: &str,
        score: f64,
        scores_json: &str,
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        let stored = sqlx::query("UPDATE answers SET score = $3, scores_json = $4 WHERE session_id = $1 AND item_id = $2")
            .bind(session_id)
            .bind(item_id)
            .bind(score)
            .bind(scores_json)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if stored > 0 {
            super::crowd::count_crowd_change(&mut tx, session_id).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Up to `limit` stored answers of tasks of `kind` that have no score yet, oldest first:
    /// `(session id, item id, task id, answer JSON, gold JSON)`. The answers table is the
    /// durable queue of answers scored after they are stored.
    pub async fn unscored_answers(
        &self,
        kind: &str,
        limit: i64,
    ) -> Result<Vec<(String, String, String, String, String)>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.session_id, a.item_id, s.task_id, a.answer_json, i.gold_json \
             FROM answers a JOIN sessions s ON s.id = a.session_id \
             JOIN tasks t ON t.id = s.task_id JOIN items i ON i.id = a.item_id \
             WHERE a.score IS NULL AND t.kind = $1 \
             ORDER BY a.created_at, a.id LIMIT $2",
        )
        .bind(kind)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("session_id")?,
                    r.try_get("item_id")?,
                    r.try_get("task_id")?,
                    r.try_get("answer_json")?,
                    r.try_get("gold_json")?,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The recorded answer of an item in a session: (answer JSON, scores JSON).
    pub async fn find_answer(
        &self,
        session_id: &str,
        item_id: &str,
    ) -> Result<Option<(String, Option<String>)>, StorageError> {
        let row = sqlx::query(
            "SELECT answer_json, scores_json FROM answers WHERE session_id = $1 AND item_id = $2",
        )
        .bind(session_id)
        .bind(item_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("answer_json")?, r.try_get("scores_json")?)))
            .transpose()
            .map_err(|e: sqlx::Error| e.into())
    }

    /// Scores every participant got on an item (any session but pilot ones, scored answers
    /// only).
    pub async fn item_scores(&self, item_id: &str) -> Result<Vec<f64>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.score FROM answers a JOIN sessions s ON s.id = a.session_id \
             WHERE a.item_id = $1 AND a.score IS NOT NULL AND s.pilot = 0 ORDER BY a.score",
        )
        .bind(item_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("score"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

/// The outcome of a record statement that returned its row (`answered`, `completion_code`):
/// stored, with the session's progress and its completion code if this answer completed it
/// (either driver's row).
pub(in crate::storage) fn recorded(row: &impl NamedColumns) -> Result<RecordOutcome, sqlx::Error> {
    Ok(RecordOutcome::Recorded {
        answered: row.column("answered")?,
        completion_code: row.column("completion_code")?,
    })
}

/// What is stored under an answer's item or its key, with the session's progress (one row
/// per matching answer; one row with no answer when neither is taken).
pub(in crate::storage) const STORED_SQL: &str =
    "SELECT a.item_id, a.idempotency_key, a.answer_json, s.answered, s.completion_code \
     FROM sessions s LEFT JOIN answers a ON a.session_id = s.id \
     AND (a.item_id = $2 OR a.idempotency_key = $3) WHERE s.id = $1";

/// The rows of [`STORED_SQL`] gathered one at a time (either driver's: sqlx returns them all
/// at once, rusqlite one by one), then classified with [`classify_stored`].
#[derive(Debug, Default)]
pub(in crate::storage) struct StoredRows {
    existing: Vec<(String, String, String)>,
    progress: Option<(i64, Option<String>)>,
}

impl StoredRows {
    /// Takes one row: the session's progress, and the stored answer if the row has one.
    pub(in crate::storage) fn add(&mut self, row: &impl NamedColumns) -> Result<(), sqlx::Error> {
        self.progress = Some((row.column("answered")?, row.column("completion_code")?));
        if let Some(item) = row.column::<Option<String>>("item_id")? {
            let key = row.column("idempotency_key")?;
            let answer = row.column("answer_json")?;
            self.existing.push((item, key, answer));
        }
        Ok(())
    }

    /// The outcome of answer `a`, whose insert was skipped: `None` when nothing is stored
    /// under its item or key (no session either).
    pub(in crate::storage) fn classify(self, a: &NewAnswer) -> Option<RecordOutcome> {
        let (answered, code) = self.progress?;
        classify_stored(a, &self.existing, answered, code)
    }
}

/// The outcome of an answer whose insert was skipped, from what is stored under its item or
/// key (`(item, key, answer JSON)` each) and the session's progress: the same key for the same
/// item is a replay if it repeats its answer (else refused), a key used for another item is
/// refused, and an item answered under another key is refused. `None` when nothing is stored.
fn classify_stored(
    a: &NewAnswer,
    existing: &[(String, String, String)],
    answered: i64,
    completion_code: Option<String>,
) -> Option<RecordOutcome> {
    for (item, key, stored) in existing {
        if *item == a.item_id && *key == a.idempotency_key {
            if *stored != a.answer_json {
                return Some(RecordOutcome::KeyReusedWithAnotherAnswer);
            }
            return Some(RecordOutcome::Replayed {
                answered,
                completion_code,
            });
        }
        if *key == a.idempotency_key {
            return Some(RecordOutcome::KeyReused);
        }
    }
    (!existing.is_empty()).then_some(RecordOutcome::AlreadyAnswered)
}

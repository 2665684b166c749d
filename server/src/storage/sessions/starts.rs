//! Session starts: participants and their secrets, and the new session with its batch and
//! exposure counters stored in one transaction.

use crate::storage::*;
use sqlx::Row;

/// Items of a session's batch written per statement when it starts (well under both
/// databases' limits on bound parameters).
const START_CHUNK: usize = 200;

/// Stores a new participant: `$1` id, `$2` time, `$3` secret hash (both databases).
pub(in crate::storage) const INSERT_PARTICIPANT_SQL: &str =
    "INSERT INTO participants (id, created_at, secret_hash) VALUES ($1, $2, $3)";

/// Stores a new session unless its start key was used (`$11`; then nothing is inserted):
/// both databases, bound in column order.
pub(in crate::storage) const INSERT_SESSION_SQL: &str =
    "INSERT INTO sessions (id, participant_id, task_id, seed, survey_json, prolific_pid, \
     study_id, recruitment_session_id, batch_size, created_at, start_key, headphone_json, \
     attention_checks, screen_reason, screened_out_at, pilot) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) \
     ON CONFLICT (start_key) DO NOTHING";

/// A new participant session with its assigned batch.
#[derive(Debug, Clone)]
pub struct NewSession {
    /// Session id (random, secret).
    pub id: String,
    /// Participant id.
    pub participant_id: String,
    /// Task.
    pub task_id: String,
    /// Presentation seed.
    pub seed: i64,
    /// `SurveyResponse` JSON.
    pub survey_json: String,
    /// Recruitment ids.
    pub prolific_pid: Option<String>,
    /// Recruitment ids.
    pub study_id: Option<String>,
    /// Recruitment ids.
    pub recruitment_session_id: Option<String>,
    /// Item ids in batch order.
    pub items: Vec<String>,
    /// Client-made key of the start request (idempotent starts), if any.
    pub start_key: Option<String>,
    /// The headphone check result (JSON), for quizzes that start with one.
    pub headphone_json: Option<String>,
    /// Attention checks planned (drawn from the seed, see `study::plan_checks`).
    pub attention_checks: i64,
    /// Set when the session is ended at once (failed headphone check with a screen-out).
    pub screen_reason: Option<String>,
    /// Started in pilot mode: never counted (completion and assignment counters included).
    pub pilot: bool,
}

impl NewSession {
    /// The batch size stored with the session: the number of items assigned.
    pub fn batch_size(&self) -> i64 {
        self.items.len() as i64
    }

    /// The session as [`Storage::find_session`] reads it back right after it was stored (no
    /// completion code yet), given its quiz's slug, title and kind: what a start answers with,
    /// without reading the row again.
    pub fn stored_row(
        &self,
        quiz_slug: &str,
        quiz_title: &str,
        task_kind: memeboard_core::kinds::TaskKind,
    ) -> SessionRow {
        SessionRow {
            id: self.id.clone(),
            participant_id: self.participant_id.clone(),
            task_id: self.task_id.clone(),
            quiz_slug: quiz_slug.to_owned(),
            quiz_title: quiz_title.to_owned(),
            task_kind,
            seed: self.seed,
            batch_size: self.batch_size(),
            completion_code: None,
            prolific_pid: self.prolific_pid.clone(),
            study_id: self.study_id.clone(),
            recruitment_session_id: self.recruitment_session_id.clone(),
            screen_reason: self.screen_reason.clone(),
            attention_checks: self.attention_checks,
        }
    }
}

impl Storage {
    /// Whether a participant has a completed session of a task (retake policy).
    pub async fn has_completed(
        &self,
        participant_id: &str,
        task_id: &str,
    ) -> Result<bool, StorageError> {
        Ok(sqlx::query(
            "SELECT 1 AS one FROM sessions WHERE participant_id = $1 AND task_id = $2 \
             AND completed_at IS NOT NULL LIMIT 1",
        )
        .bind(participant_id)
        .bind(task_id)
        .fetch_optional(&self.pool)
        .await?
        .is_some())
    }

    /// A participant's secret hash: `None` when there is no such participant, `Some(None)`
    /// for a participant created before secrets existed.
    pub async fn participant_secret_hash(
        &self,
        id: &str,
    ) -> Result<Option<Option<String>>, StorageError> {
        let row = sqlx::query("SELECT secret_hash FROM participants WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("secret_hash")).transpose()?)
    }

    /// Creates the participant (if `new_participant` holds its secret hash), the session and
    /// its batch in one transaction.
    ///
    /// With a start key already used (a concurrent resend of the same start), nothing is
    /// stored and the id of the session that key created is returned instead.
    ///
    /// SQLite: queued for the group writer (see `group_writer`), in one transaction with the
    /// answers and starts that arrive together. A group whose COMMIT failed stores nothing:
    /// [`StorageError::NotRecorded`], and the client may resend the start (same start key).
    pub async fn create_session(
        &self,
        s: &NewSession,
        new_participant: Option<&str>,
    ) -> Result<Option<String>, StorageError> {
        let inserted = match &self.writer {
            Some(writer) => {
                writer
                    .start_session(s.clone(), new_participant.map(str::to_owned))
                    .await?
            }
            None => self.insert_session(s, new_participant).await?,
        };
        if inserted {
            return Ok(None);
        }
        let key = s.start_key.as_deref().unwrap_or_default();
        Ok(self.find_session_by_start_key(key).await?.map(|(id, _)| id))
    }

    /// [`Storage::create_session`] on PostgreSQL, in a transaction of its own: `false` when
    /// the start key had created a session already (nothing stored then). Any failure stores
    /// nothing either (the transaction is rolled back): [`StorageError::NotRecorded`].
    async fn insert_session(
        &self,
        s: &NewSession,
        new_participant: Option<&str>,
    ) -> Result<bool, StorageError> {
        crate::storage::faults::retry_conflicts(|| self.insert_session_tx(s, new_participant))
            .await
            .map_err(StorageError::not_recorded)
    }

    async fn insert_session_tx(
        &self,
        s: &NewSession,
        new_participant: Option<&str>,
    ) -> Result<bool, sqlx::Error> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        if let Some(secret_hash) = new_participant {
            sqlx::query(INSERT_PARTICIPANT_SQL)
                .bind(&s.participant_id)
                .bind(now)
                .bind(secret_hash)
                .execute(&mut *tx)
                .await?;
        }
        let inserted = sqlx::query(INSERT_SESSION_SQL)
            .bind(&s.id)
            .bind(&s.participant_id)
            .bind(&s.task_id)
            .bind(s.seed)
            .bind(&s.survey_json)
            .bind(&s.prolific_pid)
            .bind(&s.study_id)
            .bind(&s.recruitment_session_id)
            .bind(s.batch_size())
            .bind(now)
            .bind(&s.start_key)
            .bind(&s.headphone_json)
            .bind(s.attention_checks)
            .bind(&s.screen_reason)
            .bind(s.screen_reason.as_ref().map(|_| now))
            .bind(i64::from(s.pilot))
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if inserted == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        // The batch in one statement per chunk instead of one per item (round trips).
        for (chunk_no, chunk) in s.items.chunks(START_CHUNK).enumerate() {
            let first = chunk_no * START_CHUNK;
            let rows: Vec<String> = (0..chunk.len())
                .map(|i| format!("($1, {}, ${})", first + i, i + 2))
                .collect();
            let sql = format!(
                "INSERT INTO session_items (session_id, position, item_id) VALUES {}",
                rows.join(", ")
            );
            let mut insert = sqlx::query(&sql).bind(&s.id);
            for item in chunk {
                insert = insert.bind(item);
            }
            insert.execute(&mut *tx).await?;
        }
        // A pilot batch leaves the balanced assignment as it was.
        if !s.pilot {
            Self::raise_exposures(&mut tx, &s.items).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The assignment counters of a new batch, in the start's transaction: the items' rows
    /// are locked in one fixed order (by id, all chunks) before they are raised, so that
    /// concurrent starts over the same items wait for each other instead of deadlocking.
    /// (PostgreSQL only: SQLite's starts go through the group writer, one at a time.)
    async fn raise_exposures(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        items: &[String],
    ) -> Result<(), sqlx::Error> {
        let mut sorted: Vec<&String> = items.iter().collect();
        sorted.sort();
        for chunk in sorted.chunks(START_CHUNK) {
            let ids: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 1)).collect();
            let ids = ids.join(", ");
            let lock =
                format!("SELECT id FROM items WHERE id IN ({ids}) ORDER BY id FOR NO KEY UPDATE");
            let update = format!("UPDATE items SET exposures = exposures + 1 WHERE id IN ({ids})");
            for sql in [&lock, &update] {
                let mut query = sqlx::query(sql);
                for item in chunk {
                    query = query.bind(*item);
                }
                query.execute(&mut **tx).await?;
            }
        }
        Ok(())
    }

    /// The session a start key created, with its participant: `(session id, participant id)`.
    pub async fn find_session_by_start_key(
        &self,
        key: &str,
    ) -> Result<Option<(String, String)>, StorageError> {
        let row = sqlx::query("SELECT id, participant_id FROM sessions WHERE start_key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("participant_id")?)))
            .transpose()?)
    }

    /// Replaces a participant's secret (only its hash is stored).
    pub async fn set_participant_secret(
        &self,
        participant_id: &str,
        secret_hash: &str,
    ) -> Result<(), StorageError> {
        sqlx::query("UPDATE participants SET secret_hash = $2 WHERE id = $1")
            .bind(participant_id)
            .bind(secret_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

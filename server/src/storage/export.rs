//! Raw data for owners: every answer of a task page by page (the export streams them, so a
//! large crowd is never held in memory at once), and deleting a participant's data on request
//! in one transaction.

use super::*;
use sqlx::Row;

/// One recorded answer with its session and preface, as the export writes it.
#[derive(Debug, Clone)]
pub struct ExportAnswerRow {
    /// Session id (a capability: the export writes its pseudonym).
    pub session_id: String,
    /// Participant id (a capability with its secret: the export writes its pseudonym).
    pub participant_id: String,
    /// Prolific `PROLIFIC_PID`, if given.
    pub prolific_pid: Option<String>,
    /// Prolific `STUDY_ID`, if given.
    pub study_id: Option<String>,
    /// Prolific `SESSION_ID`, if given.
    pub recruitment_session_id: Option<String>,
    /// `SurveyResponse` JSON.
    pub survey_json: String,
    /// Headphone check JSON (clip quizzes).
    pub headphone_json: Option<String>,
    /// Session start (ms).
    pub session_created_at: i64,
    /// Session completion (ms), if complete.
    pub session_completed_at: Option<i64>,
    /// Position of the item in the batch (0-based).
    pub position: i64,
    /// Item id.
    pub item_id: String,
    /// Stored answer (`AnswerValue` JSON, canonical terms).
    pub answer_json: String,
    /// Display order shown (canonical indices by displayed position).
    pub option_order_json: String,
    /// Canonical choice (choice kinds).
    pub choice: Option<i64>,
    /// Primary score.
    pub score: Option<f64>,
    /// Scores computed after the answer (explanations).
    pub scores_json: Option<String>,
    /// Response time (ms).
    pub response_ms: i64,
    /// When the answer was stored (ms).
    pub answered_at: i64,
    /// Familiarity given before the question (clip quizzes).
    pub familiarity: Option<String>,
}

/// Where a page of the export starts: after this (session start, session id, position).
pub type ExportCursor = (i64, String, i64);

/// What deleting participants removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeletedData {
    /// Participant rows removed (those left with no session anywhere).
    pub participants: i64,
    /// Sessions removed.
    pub sessions: i64,
    /// Answers removed.
    pub answers: i64,
    /// Familiarity answers removed.
    pub prefaces: i64,
    /// Batch rows removed.
    pub session_items: i64,
    /// Slugs of the tasks whose data changed, sorted.
    pub tasks: Vec<String>,
}

impl Storage {
    /// Up to `limit` answers of a task after `after`, in (session start, session, position)
    /// order: a keyset page, so each page is one indexed query whatever the offset.
    pub async fn export_page(
        &self,
        task_id: &str,
        after: Option<&ExportCursor>,
        limit: i64,
    ) -> Result<Vec<ExportAnswerRow>, StorageError> {
        let (t, id, pos) = after.map_or((i64::MIN, "", i64::MIN), |(t, id, pos)| {
            (*t, id.as_str(), *pos)
        });
        let rows = sqlx::query(
            "SELECT s.id AS session_id, s.participant_id, s.prolific_pid, s.study_id, \
             s.recruitment_session_id, s.survey_json, s.headphone_json, \
             s.created_at AS session_created_at, s.completed_at, si.position, a.item_id, \
             a.answer_json, a.option_order_json, a.choice, a.score, a.scores_json, \
             a.response_ms, a.created_at AS answered_at, p.familiarity \
             FROM answers a JOIN sessions s ON s.id = a.session_id \
             JOIN session_items si ON si.session_id = a.session_id AND si.item_id = a.item_id \
             LEFT JOIN prefaces p ON p.session_id = a.session_id AND p.item_id = a.item_id \
             WHERE s.task_id = $1 AND (s.created_at > $2 OR (s.created_at = $2 AND \
             (s.id > $3 OR (s.id = $3 AND si.position > $4)))) \
             ORDER BY s.created_at, s.id, si.position LIMIT $5",
        )
        .bind(task_id)
        .bind(t)
        .bind(id)
        .bind(pos)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ExportAnswerRow {
                    session_id: r.try_get("session_id")?,
                    participant_id: r.try_get("participant_id")?,
                    prolific_pid: r.try_get("prolific_pid")?,
                    study_id: r.try_get("study_id")?,
                    recruitment_session_id: r.try_get("recruitment_session_id")?,
                    survey_json: r.try_get("survey_json")?,
                    headphone_json: r.try_get("headphone_json")?,
                    session_created_at: r.try_get("session_created_at")?,
                    session_completed_at: r.try_get("completed_at")?,
                    position: r.try_get("position")?,
                    item_id: r.try_get("item_id")?,
                    answer_json: r.try_get("answer_json")?,
                    option_order_json: r.try_get("option_order_json")?,
                    choice: r.try_get("choice")?,
                    score: r.try_get("score")?,
                    scores_json: r.try_get("scores_json")?,
                    response_ms: r.try_get("response_ms")?,
                    answered_at: r.try_get("answered_at")?,
                    familiarity: r.try_get("familiarity")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Every participant with a session in a task of the benchmark, with the Prolific ids
    /// their sessions carry: `(participant id, Prolific id)` pairs, distinct.
    pub async fn benchmark_participants(
        &self,
        benchmark_id: &str,
    ) -> Result<Vec<(String, Option<String>)>, StorageError> {
        let rows = sqlx::query(
            "SELECT DISTINCT s.participant_id, s.prolific_pid FROM sessions s \
             JOIN tasks t ON t.id = s.task_id WHERE t.benchmark_id = $1",
        )
        .bind(benchmark_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("participant_id")?, r.try_get("prolific_pid")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Deletes everything the participants recorded in the benchmark's tasks — answers,
    /// familiarity answers, batches (item exposure counters given back), sessions with their
    /// survey, recruitment ids and headphone check — and each participant row left without a
    /// session, in one transaction; bumps the crowd version of every task touched, so cached
    /// human rows are recomputed.
    pub async fn delete_participants(
        &self,
        benchmark_id: &str,
        participant_ids: &[String],
    ) -> Result<DeletedData, StorageError> {
        let mut out = DeletedData::default();
        let mut tx = self.pool.begin().await?;
        let mut tasks = std::collections::BTreeMap::new();
        let mut deleted_sessions = Vec::new();
        for participant in participant_ids {
            let sessions = sqlx::query(
                "SELECT s.id, s.task_id, t.slug FROM sessions s JOIN tasks t ON t.id = s.task_id \
                 WHERE s.participant_id = $1 AND t.benchmark_id = $2 ORDER BY s.id",
            )
            .bind(participant)
            .bind(benchmark_id)
            .fetch_all(&mut *tx)
            .await?;
            for s in &sessions {
                let id: String = s.try_get("id")?;
                deleted_sessions.push(id.clone());
                tasks.insert(
                    s.try_get::<String, _>("task_id")?,
                    s.try_get::<String, _>("slug")?,
                );
                // A pilot session's batch never raised the counters: nothing to give back.
                sqlx::query(
                    "UPDATE items SET exposures = exposures - 1 WHERE exposures > 0 AND id IN \
                     (SELECT si.item_id FROM session_items si JOIN sessions s \
                      ON s.id = si.session_id WHERE si.session_id = $1 AND s.pilot = 0)",
                )
                .bind(&id)
                .execute(&mut *tx)
                .await?;
                for (table, count) in [
                    ("answers", &mut out.answers),
                    ("prefaces", &mut out.prefaces),
                    ("session_items", &mut out.session_items),
                ] {
                    *count += sqlx::query(&format!("DELETE FROM {table} WHERE session_id = $1"))
                        .bind(&id)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected() as i64;
                }
                // The session's attention-check answers (owner quality control) go with it.
                sqlx::query("DELETE FROM attention_checks WHERE session_id = $1")
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
                out.sessions += sqlx::query("DELETE FROM sessions WHERE id = $1")
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected() as i64;
            }
            out.participants += sqlx::query(
                "DELETE FROM participants WHERE id = $1 AND NOT EXISTS \
                 (SELECT 1 FROM sessions WHERE participant_id = $1)",
            )
            .bind(participant)
            .execute(&mut *tx)
            .await?
            .rows_affected() as i64;
        }
        for task_id in tasks.keys() {
            // The completion counters recounted (rare: an owner's deletion).
            sqlx::query(
                "UPDATE tasks SET crowd_version = crowd_version + 1, \
                 completed_sessions = (SELECT COUNT(*) FROM sessions s \
                   WHERE s.task_id = tasks.id AND s.completed_at IS NOT NULL AND s.pilot = 0), \
                 completed_participants = (SELECT COUNT(DISTINCT s.participant_id) \
                   FROM sessions s WHERE s.task_id = tasks.id AND s.completed_at IS NOT NULL \
                   AND s.pilot = 0) \
                 WHERE id = $1",
            )
            .bind(task_id)
            .execute(&mut *tx)
            .await?;
        }
        // The sessions' crowd change marks, after the tasks' rows (the order in which the
        // writes that mark a session take their locks, so the two never wait on each other).
        for id in &deleted_sessions {
            sqlx::query("DELETE FROM crowd_marks WHERE session_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        for task_id in tasks.keys() {
            self.forget_crowd_fingerprint(task_id);
        }
        out.tasks = tasks.into_values().collect();
        out.tasks.sort();
        Ok(out)
    }
}

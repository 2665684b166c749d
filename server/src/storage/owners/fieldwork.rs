//! A quiz task's fieldwork settings (recruitment and quality rules), Prolific sessions, attention
//! checks, screen-outs, and the per-session data behind exclusions and live progress.

use super::*;

/// A task with what its owner sets.
#[derive(Debug, Clone)]
pub struct FieldworkTaskRow {
    /// The task.
    pub task: TaskRecord,
    /// Benchmark slug.
    pub benchmark_slug: String,
    /// `FieldworkSettings` JSON, if set.
    pub study_json: Option<String>,
    /// Finished participants may take the quiz again.
    pub allow_retake: bool,
    /// Failed headphone checks left out of the human rows.
    pub exclude_failed_checks: bool,
}

/// The owner's writable task fields, written together.
#[derive(Debug, Clone)]
pub struct FieldworkUpdate {
    /// Listed as a quiz.
    pub quiz_open: bool,
    /// Items per participant.
    pub batch_size: i64,
    /// Retakes.
    pub allow_retake: bool,
    /// Headphone exclusion.
    pub exclude_failed_checks: bool,
    /// `FieldworkSettings` JSON.
    pub study_json: String,
}

/// One session of a task with what quality rules and progress need.
#[derive(Debug, Clone)]
pub struct FieldworkSessionRow {
    /// Session id.
    pub id: String,
    /// Participant.
    pub participant_id: String,
    /// `PROLIFIC_PID`.
    pub prolific_pid: Option<String>,
    /// Presentation seed (attention-check plan).
    pub seed: i64,
    /// Batch size.
    pub batch_size: i64,
    /// Start time.
    pub created_at: i64,
    /// Completion time.
    pub completed_at: Option<i64>,
    /// Screen-out time.
    pub screened_out_at: Option<i64>,
    /// Headphone check JSON.
    pub headphone_json: Option<String>,
    /// Attention checks planned at the start.
    pub attention_checks: i64,
    /// Started in pilot mode (never counted).
    pub pilot: bool,
}

/// One answer of any session of a task (no gold, no score).
#[derive(Debug, Clone)]
pub struct FieldworkAnswerRow {
    /// Session.
    pub session_id: String,
    /// Item.
    pub item_id: String,
    /// Item category.
    pub category: String,
    /// Response time.
    pub response_ms: i64,
    /// Canonical choice (choice kinds).
    pub choice: Option<i64>,
    /// Display order JSON.
    pub option_order_json: String,
    /// Stored at.
    pub created_at: i64,
    /// The stored answer (`AnswerValue` JSON): the planted-check rule reads ratings.
    pub answer_json: String,
}

/// One stored attention-check answer.
#[derive(Debug, Clone)]
pub struct FieldworkCheckRow {
    /// Session.
    pub session_id: String,
    /// Check index.
    pub index: i64,
    /// Choice.
    pub choice: i64,
    /// Right.
    pub passed: bool,
    /// Stored at.
    pub created_at: i64,
}

/// Everything stored about a task's sessions (for exclusions and progress).
#[derive(Debug, Clone, Default)]
pub struct FieldworkData {
    /// Sessions, oldest first.
    pub sessions: Vec<FieldworkSessionRow>,
    /// Answers.
    pub answers: Vec<FieldworkAnswerRow>,
    /// Check answers.
    pub checks: Vec<FieldworkCheckRow>,
    /// Rating tasks: each item's gold JSON (`(item id, gold)`), which says which items are
    /// planted outputs of known quality. Empty for other kinds. Server-side only.
    pub rating_golds: Vec<(String, String)>,
}

/// Which of a task's sessions a fieldwork read covers.
#[derive(Debug, Clone, Copy)]
pub(crate) enum SessionsRead {
    /// Every session (the console, progress, exports).
    All,
    /// The crowd's: completed, not pilots (whose facts decide the crowd's exclusions).
    Crowd,
    /// The crowd's sessions marked after change `.0` (see `sessions/crowd_ledger.rs`).
    CrowdChangedAfter(i64),
}

impl SessionsRead {
    /// The condition on the sessions `s` (after `s.task_id = $1`).
    fn condition(self) -> &'static str {
        match self {
            Self::All => "",
            Self::Crowd => " AND s.completed_at IS NOT NULL AND s.pilot = 0",
            Self::CrowdChangedAfter(_) => {
                " AND s.completed_at IS NOT NULL AND s.pilot = 0 AND s.id IN \
                 (SELECT session_id FROM crowd_marks WHERE task_id = $1 AND seq > $2)"
            }
        }
    }

    /// The rows of `sql`, a query of the task `$1` whose `WHERE` ends with
    /// [`SessionsRead::condition`], with the condition's `$2` bound where it has one.
    async fn fetch_all(
        self,
        pool: &sqlx::AnyPool,
        task_id: &str,
        sql: &str,
    ) -> Result<Vec<sqlx::any::AnyRow>, sqlx::Error> {
        let query = sqlx::query(sql).bind(task_id);
        match self {
            Self::CrowdChangedAfter(after) => query.bind(after),
            Self::All | Self::Crowd => query,
        }
        .fetch_all(pool)
        .await
    }
}

/// A session of a task started with a given `PROLIFIC_PID`.
#[derive(Debug, Clone)]
pub struct ProlificSessionRow {
    /// Session id.
    pub id: String,
    /// Participant.
    pub participant_id: String,
    /// Completed.
    pub completed: bool,
    /// Screened out.
    pub screened_out: bool,
    /// The start key the session was created with (a resend of that start presents it).
    pub start_key: Option<String>,
}

const STUDY_TASK_SELECT: &str =
    "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, t.description, t.categories_json, \
     t.batch_size, t.quiz_open, t.study_json, t.allow_retake, t.exclude_failed_checks, \
     b.slug AS benchmark_slug FROM tasks t JOIN benchmarks b ON b.id = t.benchmark_id";

fn study_task_from_row(r: &sqlx::any::AnyRow) -> Result<FieldworkTaskRow, sqlx::Error> {
    Ok(FieldworkTaskRow {
        task: task_from_row(r)?,
        benchmark_slug: r.try_get("benchmark_slug")?,
        study_json: r.try_get("study_json")?,
        allow_retake: r.try_get::<i64, _>("allow_retake")? != 0,
        exclude_failed_checks: r.try_get::<i64, _>("exclude_failed_checks")? != 0,
    })
}

impl Storage {
    /// What decides a task's exclusions: `(study_json, exclude_failed_checks)`.
    pub async fn task_quality_switches(
        &self,
        task_id: &str,
    ) -> Result<Option<(Option<String>, bool)>, StorageError> {
        let row = sqlx::query("SELECT study_json, exclude_failed_checks FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok((
                r.try_get("study_json")?,
                r.try_get::<i64, _>("exclude_failed_checks")? != 0,
            ))
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }

    /// A task with its fieldwork settings, by slug.
    pub async fn find_fieldwork_task(
        &self,
        slug: &str,
    ) -> Result<Option<FieldworkTaskRow>, StorageError> {
        let row = sqlx::query(&format!("{STUDY_TASK_SELECT} WHERE t.slug = $1"))
            .bind(slug)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(study_task_from_row).transpose()?)
    }

    /// Tasks, of one benchmark or of all.
    pub async fn list_fieldwork_tasks(
        &self,
        benchmark_id: Option<&str>,
    ) -> Result<Vec<FieldworkTaskRow>, StorageError> {
        let rows = match benchmark_id {
            Some(b) => {
                sqlx::query(&format!(
                    "{STUDY_TASK_SELECT} WHERE t.benchmark_id = $1 ORDER BY t.created_at, t.slug"
                ))
                .bind(b)
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query(&format!(
                    "{STUDY_TASK_SELECT} ORDER BY t.created_at, t.slug"
                ))
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows
            .iter()
            .map(study_task_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// Writes the owner's settings of a task and logs the change, in one transaction.
    pub async fn update_fieldwork(
        &self,
        task_id: &str,
        u: &FieldworkUpdate,
        log: &NewOwnerAction<'_>,
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE tasks SET quiz_open = $2, batch_size = $3, allow_retake = $4, \
             exclude_failed_checks = $5, study_json = $6 WHERE id = $1",
        )
        .bind(task_id)
        .bind(i64::from(u.quiz_open))
        .bind(u.batch_size)
        .bind(i64::from(u.allow_retake))
        .bind(i64::from(u.exclude_failed_checks))
        .bind(&u.study_json)
        .execute(&mut *tx)
        .await?;
        insert_action(&mut tx, log).await?;
        tx.commit().await?;
        // The exclusion rules decide which sessions count: crowd figures follow at once.
        self.forget_crowd_fingerprint(task_id);
        Ok(())
    }

    /// Sessions of a task started with a `PROLIFIC_PID`, newest first.
    pub async fn prolific_sessions(
        &self,
        task_id: &str,
        prolific_pid: &str,
    ) -> Result<Vec<ProlificSessionRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, participant_id, completed_at, screened_out_at, start_key FROM sessions \
             WHERE task_id = $1 AND prolific_pid = $2 ORDER BY created_at DESC, id",
        )
        .bind(task_id)
        .bind(prolific_pid)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ProlificSessionRow {
                    id: r.try_get("id")?,
                    participant_id: r.try_get("participant_id")?,
                    completed: r.try_get::<Option<i64>, _>("completed_at")?.is_some(),
                    screened_out: r.try_get::<Option<i64>, _>("screened_out_at")?.is_some(),
                    start_key: r.try_get("start_key")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Stores an attention-check answer once; returns the choice stored first and whether
    /// this call stored it.
    pub async fn record_check(
        &self,
        session_id: &str,
        index: i64,
        choice: i64,
        passed: bool,
        response_ms: i64,
    ) -> Result<(i64, bool), StorageError> {
        let not_recorded = StorageError::not_recorded;
        let mut tx = self.pool.begin().await.map_err(not_recorded)?;
        let inserted = sqlx::query(
            "INSERT INTO attention_checks (session_id, check_index, choice, passed, \
             response_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (session_id, check_index) DO NOTHING",
        )
        .bind(session_id)
        .bind(index)
        .bind(choice)
        .bind(i64::from(passed))
        .bind(response_ms)
        .bind(now_ms())
        .execute(&mut *tx)
        .await
        .map_err(not_recorded)?
        .rows_affected();
        if inserted == 1 {
            // A check answered after the session completed changes who counts in the crowd.
            crate::storage::sessions::count_crowd_change(&mut tx, session_id)
                .await
                .map_err(not_recorded)?;
        }
        tx.commit().await.map_err(not_recorded)?;
        let stored: i64 = sqlx::query(
            "SELECT choice FROM attention_checks WHERE session_id = $1 AND check_index = $2",
        )
        .bind(session_id)
        .bind(index)
        .fetch_one(&self.pool)
        .await?
        .try_get("choice")?;
        Ok((stored, inserted == 1))
    }

    /// A session's check answers: `(index, passed)`.
    pub async fn session_checks(&self, session_id: &str) -> Result<Vec<(i64, bool)>, StorageError> {
        let rows = sqlx::query(
            "SELECT check_index, passed FROM attention_checks WHERE session_id = $1 \
             ORDER BY check_index",
        )
        .bind(session_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("check_index")?,
                    r.try_get::<i64, _>("passed")? != 0,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Ends an unfinished session early with its reason (no effect on a finished one).
    pub async fn screen_out(
        &self,
        session_id: &str,
        reason_json: &str,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE sessions SET screened_out_at = $2, screen_reason = $3 \
             WHERE id = $1 AND completed_at IS NULL AND screened_out_at IS NULL",
        )
        .bind(session_id)
        .bind(now_ms())
        .bind(reason_json)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Everything about a task's sessions that exclusions and progress need (no gold).
    pub async fn fieldwork_data(&self, task_id: &str) -> Result<FieldworkData, StorageError> {
        let mut data = self.fieldwork_of(task_id, SessionsRead::All).await?;
        data.rating_golds = self.rating_golds(task_id).await?;
        Ok(data)
    }

    /// [`Storage::fieldwork_data`] of the task's sessions that `which` names, without the
    /// rating golds (the caller reads them once, see `kept_session_values`).
    pub(crate) async fn fieldwork_of(
        &self,
        task_id: &str,
        which: SessionsRead,
    ) -> Result<FieldworkData, StorageError> {
        let condition = which.condition();
        let sessions = which
            .fetch_all(
                &self.pool,
                task_id,
                &format!(
                    "SELECT s.id, s.participant_id, s.prolific_pid, s.seed, s.batch_size, \
                     s.created_at, s.completed_at, s.screened_out_at, s.headphone_json, \
                     s.attention_checks, s.pilot FROM sessions s WHERE s.task_id = $1{condition} \
                     ORDER BY s.created_at, s.id"
                ),
            )
            .await?
            .iter()
            .map(|r| {
                Ok(FieldworkSessionRow {
                    id: r.try_get("id")?,
                    participant_id: r.try_get("participant_id")?,
                    prolific_pid: r.try_get("prolific_pid")?,
                    seed: r.try_get("seed")?,
                    batch_size: r.try_get("batch_size")?,
                    created_at: r.try_get("created_at")?,
                    completed_at: r.try_get("completed_at")?,
                    screened_out_at: r.try_get("screened_out_at")?,
                    headphone_json: r.try_get("headphone_json")?,
                    attention_checks: r
                        .try_get::<Option<i64>, _>("attention_checks")?
                        .unwrap_or(0),
                    pilot: r.try_get::<i64, _>("pilot")? != 0,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let answers = which
            .fetch_all(
                &self.pool,
                task_id,
                &format!(
                    "SELECT a.session_id, a.item_id, i.category, a.response_ms, a.choice, \
                     a.option_order_json, a.created_at, a.answer_json FROM answers a \
                     JOIN sessions s ON s.id = a.session_id JOIN items i ON i.id = a.item_id \
                     WHERE s.task_id = $1{condition} ORDER BY a.created_at, a.id"
                ),
            )
            .await?
            .iter()
            .map(|r| {
                Ok(FieldworkAnswerRow {
                    session_id: r.try_get("session_id")?,
                    item_id: r.try_get("item_id")?,
                    category: r.try_get("category")?,
                    response_ms: r.try_get("response_ms")?,
                    choice: r.try_get("choice")?,
                    option_order_json: r.try_get("option_order_json")?,
                    created_at: r.try_get("created_at")?,
                    answer_json: r.try_get("answer_json")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let checks = which
            .fetch_all(
                &self.pool,
                task_id,
                &format!(
                    "SELECT c.session_id, c.check_index, c.choice, c.passed, c.created_at \
                     FROM attention_checks c JOIN sessions s ON s.id = c.session_id \
                     WHERE s.task_id = $1{condition}"
                ),
            )
            .await?
            .iter()
            .map(|r| {
                Ok(FieldworkCheckRow {
                    session_id: r.try_get("session_id")?,
                    index: r.try_get("check_index")?,
                    choice: r.try_get("choice")?,
                    passed: r.try_get::<i64, _>("passed")? != 0,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(FieldworkData {
            sessions,
            answers,
            checks,
            rating_golds: Vec::new(),
        })
    }

    /// A cheap fingerprint of all of a task's session data (progress view): sessions,
    /// answers, check answers, latest write.
    pub async fn fieldwork_fingerprint(
        &self,
        task_id: &str,
    ) -> Result<crate::crowd_cache::Fingerprint, StorageError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM sessions WHERE task_id = $1) AS sessions, \
             (SELECT COUNT(*) FROM answers a JOIN sessions s ON s.id = a.session_id \
              WHERE s.task_id = $1) AS answers, \
             (SELECT COUNT(*) FROM attention_checks c JOIN sessions s ON s.id = c.session_id \
              WHERE s.task_id = $1) AS checks, \
             (SELECT MAX(COALESCE(completed_at, 0) + COALESCE(screened_out_at, 0)) \
              FROM sessions WHERE task_id = $1) AS latest, \
             (SELECT crowd_version FROM tasks WHERE id = $1) AS version",
        )
        .bind(task_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((
            row.try_get("sessions")?,
            row.try_get("answers")?,
            row.try_get("checks")?,
            row.try_get("latest")?,
            row.try_get("version")?,
        ))
    }
}

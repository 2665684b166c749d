//! Quizzes, participants, sessions and answers: assignment candidates, the exactly-once
//! answer transaction, crowd responses, and the explanation scores stored after an answer.

use super::*;
use memeboard_core::api::BoardSplit;
use memeboard_core::predictions::Split;
use sqlx::any::AnyRow;
use sqlx::Row;

/// Items of a session's batch written per statement when it starts (well under both
/// databases' limits on bound parameters).
const START_CHUNK: usize = 200;

/// Stores a new participant: `$1` id, `$2` time, `$3` secret hash (both databases).
pub(super) const INSERT_PARTICIPANT_SQL: &str =
    "INSERT INTO participants (id, created_at, secret_hash) VALUES ($1, $2, $3)";

/// Stores a new session unless its start key was used (`$11`; then nothing is inserted):
/// both databases, bound in column order.
pub(super) const INSERT_SESSION_SQL: &str =
    "INSERT INTO sessions (id, participant_id, task_id, seed, survey_json, prolific_pid, \
     study_id, recruitment_session_id, batch_size, created_at, start_key, headphone_json, \
     attention_checks, screen_reason, screened_out_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
     ON CONFLICT (start_key) DO NOTHING";

/// A quiz as listed: task + counts.
#[derive(Debug, Clone)]
pub struct QuizRow {
    /// The task.
    pub task: TaskRecord,
    /// Benchmark title.
    pub benchmark_title: String,
    /// Items in the pool.
    pub item_count: i64,
    /// Participants with at least one completed session.
    pub completed_participants: i64,
    /// Items in the open dev split (their answers are shown at the end).
    pub dev_count: i64,
    /// Whether a participant who finished may take the quiz again.
    pub allow_retake: bool,
    /// Completed sessions (the participant target counts these).
    pub completed_sessions: i64,
    /// The owner's `StudySettings` JSON, if set.
    pub study_json: Option<String>,
    /// SHA-256 (hex) of the invitation secret of an invitation-only (judging) task.
    pub invite_hash: Option<String>,
}

/// One eligible item for assignment, with how often it was assigned before.
#[derive(Debug, Clone)]
pub struct CandidateRow {
    /// Item id.
    pub id: String,
    /// Category key.
    pub category: String,
    /// Content warning.
    pub flagged: bool,
    /// Sessions already holding it.
    pub exposures: i64,
    /// The prompt, when asked for (kinds that filter items by the participant's survey).
    pub prompt_json: Option<String>,
}

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

/// A stored session.
#[derive(Debug, Clone)]
pub struct SessionRow {
    /// Session id.
    pub id: String,
    /// Participant id.
    pub participant_id: String,
    /// Task id.
    pub task_id: String,
    /// Quiz slug.
    pub quiz_slug: String,
    /// Quiz title.
    pub quiz_title: String,
    /// The task's kind.
    pub task_kind: memeboard_core::kinds::TaskKind,
    /// Presentation seed.
    pub seed: i64,
    /// Batch size.
    pub batch_size: i64,
    /// Completion code once complete.
    pub completion_code: Option<String>,
    /// Recruitment ids of the start.
    pub prolific_pid: Option<String>,
    /// `STUDY_ID`.
    pub study_id: Option<String>,
    /// `SESSION_ID`.
    pub recruitment_session_id: Option<String>,
    /// Why the session was ended early (`ExclusionReason` JSON), if it was.
    pub screen_reason: Option<String>,
    /// Attention checks planned at the start.
    pub attention_checks: i64,
}

/// One item of a session with the participant's answer, if any.
#[derive(Debug, Clone)]
pub struct SessionItemRow {
    /// Position.
    pub position: i64,
    /// Item id.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Gold JSON (server-side use only).
    pub gold_json: String,
    /// Content warning.
    pub flagged: bool,
    /// Meaning of the source meme (review only).
    pub meaning: Option<String>,
    /// The split of the items holding that meaning as their gold (explanation items of the
    /// meme): `test` when any is test, so the review must not show it.
    pub meaning_split: Option<Split>,
    /// Canonical option chosen, when answered.
    pub choice: Option<i64>,
    /// Whether answered.
    pub answered: bool,
    /// The stored answer (`AnswerValue` JSON), when answered.
    pub answer_json: Option<String>,
    /// Scores computed after the answer was stored (kinds scored later), if any.
    pub scores_json: Option<String>,
    /// Open dev item or hidden test item.
    pub split: Split,
    /// The board half that scores it (test items).
    pub board_half: BoardSplit,
    /// The stored preface answer (familiarity key), for kinds with a preface.
    pub preface: Option<String>,
}

/// What an answer is checked against (see [`Storage::answer_target`]).
#[derive(Debug, Clone)]
pub struct AnswerTarget {
    /// The session.
    pub session: SessionRow,
    /// The answered item, when it is in the session's batch.
    pub item: Option<TaskItemRow>,
    /// The item's stored preface answer (familiarity key), for kinds with a preface.
    pub preface: Option<String>,
}

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

/// One scored response of a completed session, for crowd statistics.
#[derive(Debug, Clone)]
pub struct CrowdResponseRow {
    /// The session the answer belongs to (exclusions are per session).
    pub session_id: String,
    /// The familiarity given before the question (clip tasks), if any.
    pub familiarity: Option<String>,
    /// Participant.
    pub participant_id: String,
    /// Item.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// Canonical choice.
    pub choice: Option<i64>,
    /// Score (`None`: not scored yet, or a kind without gold; still counted).
    pub score: Option<f64>,
    /// When the answer's session was completed (ms), which decides crowd snapshots.
    pub completed_at: i64,
    /// Whether the item is a hidden test item (its figures are published bounded).
    pub hidden: bool,
}

pub(super) const QUIZ_SELECT: &str =
    "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, t.description, \
     t.categories_json, t.batch_size, t.quiz_open, b.title AS benchmark_title, \
     (SELECT COUNT(*) FROM items i WHERE i.task_id = t.id) AS item_count, \
     (SELECT COUNT(*) FROM items i WHERE i.task_id = t.id AND i.split = 'dev') AS dev_count, \
     t.allow_retake, t.study_json, t.invite_hash, \
     t.completed_sessions, t.completed_participants \
     FROM tasks t JOIN benchmarks b ON b.id = t.benchmark_id";

pub(super) fn quiz_from_row(row: &AnyRow) -> Result<QuizRow, sqlx::Error> {
    Ok(QuizRow {
        task: task_from_row(row)?,
        benchmark_title: row.try_get("benchmark_title")?,
        item_count: row.try_get("item_count")?,
        completed_participants: row.try_get("completed_participants")?,
        dev_count: row.try_get("dev_count")?,
        allow_retake: row.try_get::<i64, _>("allow_retake")? != 0,
        completed_sessions: row.try_get("completed_sessions")?,
        study_json: row.try_get("study_json")?,
        invite_hash: row.try_get("invite_hash")?,
    })
}

/// The text of [`SESSION_COLUMNS`], for statements built with `concat!`.
macro_rules! session_columns {
    () => {
        "s.id, s.participant_id, s.task_id, s.seed, s.batch_size, s.completion_code, \
         s.prolific_pid, s.study_id, s.recruitment_session_id, s.screen_reason, \
         s.attention_checks, t.slug, t.title, t.kind"
    };
}

/// The columns [`session_from_row`] reads (sessions `s` joined with their task `t`).
const SESSION_COLUMNS: &str = session_columns!();

fn session_from_row(r: &impl NamedColumns) -> Result<SessionRow, sqlx::Error> {
    Ok(SessionRow {
        id: r.column("id")?,
        participant_id: r.column("participant_id")?,
        task_id: r.column("task_id")?,
        quiz_slug: r.column("slug")?,
        quiz_title: r.column("title")?,
        task_kind: decode_kind(&r.column::<String>("kind")?)?,
        seed: r.column("seed")?,
        batch_size: r.column("batch_size")?,
        completion_code: r.column("completion_code")?,
        prolific_pid: r.column("prolific_pid")?,
        study_id: r.column("study_id")?,
        recruitment_session_id: r.column("recruitment_session_id")?,
        screen_reason: r.column("screen_reason")?,
        attention_checks: r.column::<Option<i64>>("attention_checks")?.unwrap_or(0),
    })
}

/// The session, its answered item and the item's preface answer, in one read: `$1` the
/// session, `$2` the item (see [`target_from_row`]).
const ANSWER_TARGET_SQL: &str = concat!(
    "SELECT ",
    session_columns!(),
    ", i.id AS item_id, i.category, i.prompt_json, i.gold_json, i.split, i.board_half, \
     p.familiarity AS preface \
     FROM sessions s JOIN tasks t ON t.id = s.task_id \
     LEFT JOIN session_items si ON si.session_id = s.id AND si.item_id = $2 \
     LEFT JOIN items i ON i.id = si.item_id \
     LEFT JOIN prefaces p ON p.session_id = s.id AND p.item_id = si.item_id \
     WHERE s.id = $1"
);

/// The batch of session `$1` in order, each item with the participant's answer and preface
/// answer if any, and `meaning_split`: the split of the meme's explanation item, which decides
/// whether the meme's meaning may be shown (a search of the `items_meme` index per item).
const SESSION_ITEMS_SQL: &str = "SELECT si.position, si.item_id, i.category, i.prompt_json, \
     i.gold_json, i.flagged, i.split, i.board_half, m.meaning, a.choice, a.id AS answer_id, \
     a.answer_json, a.scores_json, p.familiarity AS preface, \
     (SELECT MAX(e.split) FROM items e JOIN tasks et ON et.id = e.task_id \
      WHERE e.meme_id = i.meme_id AND et.kind = 'explanation') AS meaning_split \
     FROM session_items si JOIN items i ON i.id = si.item_id \
     LEFT JOIN memes m ON m.id = i.meme_id \
     LEFT JOIN answers a ON a.session_id = si.session_id AND a.item_id = si.item_id \
     LEFT JOIN prefaces p ON p.session_id = si.session_id AND p.item_id = si.item_id \
     WHERE si.session_id = $1 ORDER BY si.position";

/// Decodes a row of [`ANSWER_TARGET_SQL`] (either driver's).
fn target_from_row(r: &impl NamedColumns) -> Result<AnswerTarget, sqlx::Error> {
    let item = match r.column::<Option<String>>("item_id")? {
        Some(id) => Some(TaskItemRow {
            id,
            category: r.column("category")?,
            prompt_json: r.column("prompt_json")?,
            gold_json: r.column("gold_json")?,
            split: decode_split(&r.column::<String>("split")?)?,
            board_half: decode_half(&r.column::<String>("board_half")?)?,
        }),
        None => None,
    };
    Ok(AnswerTarget {
        session: session_from_row(r)?,
        item,
        preface: r.column("preface")?,
    })
}

impl Storage {
    /// Open quizzes, in creation order.
    pub async fn list_open_quizzes(&self) -> Result<Vec<QuizRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "{QUIZ_SELECT} WHERE t.quiz_open = 1 ORDER BY t.created_at, t.slug"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(quiz_from_row).collect::<Result<_, _>>()?)
    }

    /// One quiz by slug, open or not (the owner's console).
    pub async fn find_any_quiz(&self, slug: &str) -> Result<Option<QuizRow>, StorageError> {
        let row = sqlx::query(&format!("{QUIZ_SELECT} WHERE t.slug = $1"))
            .bind(slug)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(quiz_from_row).transpose()?)
    }

    /// One open quiz by slug.
    pub async fn find_open_quiz(&self, slug: &str) -> Result<Option<QuizRow>, StorageError> {
        let row = sqlx::query(&format!(
            "{QUIZ_SELECT} WHERE t.quiz_open = 1 AND t.slug = $1"
        ))
        .bind(slug)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(quiz_from_row).transpose()?)
    }

    /// Items whose exposure counter differs from the number of batches they are in:
    /// `(item id, counter, assignments)`. Empty when every start raised its counters exactly
    /// once (tests check this after concurrent starts).
    #[doc(hidden)]
    pub async fn exposure_mismatches(&self) -> Result<Vec<(String, i64, i64)>, StorageError> {
        let rows = sqlx::query(
            "SELECT i.id, i.exposures, \
             (SELECT COUNT(*) FROM session_items si WHERE si.item_id = i.id) AS assigned \
             FROM items i ORDER BY i.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for r in rows {
            let (id, exposures, assigned): (String, i64, i64) = (
                r.try_get("id")?,
                r.try_get("exposures")?,
                r.try_get("assigned")?,
            );
            if exposures != assigned {
                out.push((id, exposures, assigned));
            }
        }
        Ok(out)
    }

    /// Items of a task with their exposure counts, for balanced assignment.
    pub async fn assignment_candidates(
        &self,
        task_id: &str,
        with_prompts: bool,
    ) -> Result<Vec<CandidateRow>, StorageError> {
        // Items the task withholds (their source's test gold is hidden in a task whose gold
        // this one's inputs reveal) are never candidates.
        let prompt = if with_prompts {
            "i.prompt_json"
        } else {
            "NULL AS prompt_json"
        };
        let query = format!(
            "SELECT i.id, i.category, i.flagged, i.exposures, {prompt} FROM items i \
             WHERE i.task_id = $1 AND NOT {} ORDER BY i.ordinal, i.id",
            super::reveals::withheld("i")
        );
        let rows = sqlx::query(&query)
            .bind(task_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(CandidateRow {
                    id: r.try_get("id")?,
                    category: r.try_get("category")?,
                    flagged: r.try_get::<i64, _>("flagged")? != 0,
                    exposures: r.try_get("exposures")?,
                    prompt_json: r.try_get("prompt_json")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

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

    /// Whether a participant id exists.
    pub async fn participant_exists(&self, id: &str) -> Result<bool, StorageError> {
        Ok(self.participant_secret_hash(id).await?.is_some())
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
        super::faults::retry_conflicts(|| self.insert_session_tx(s, new_participant))
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
        Self::raise_exposures(&mut tx, &s.items).await?;
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

    /// A session by id.
    pub async fn find_session(&self, id: &str) -> Result<Option<SessionRow>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions s JOIN tasks t ON t.id = s.task_id \
             WHERE s.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(session_from_row).transpose()?)
    }

    /// What an answer to `item_id` in session `session_id` is checked against, in one read:
    /// the session, and the item with its preface answer when the item is in the batch
    /// (`None`: no such session).
    pub async fn answer_target(
        &self,
        session_id: &str,
        item_id: &str,
    ) -> Result<Option<AnswerTarget>, StorageError> {
        if let Some(fast) = &self.fast_reads {
            match fast.query_row(ANSWER_TARGET_SQL, &[&session_id, &item_id], |r| {
                target_from_row(r)
            }) {
                Ok(target) => return Ok(target),
                // Busy or failed: the pool reads it (and reports an error that persists).
                Err(e) => tracing::debug!(error = %e, "fast read fell back to the pool"),
            }
        }
        let row = sqlx::query(ANSWER_TARGET_SQL)
            .bind(session_id)
            .bind(item_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(target_from_row).transpose()?)
    }

    /// The batch of a session, in order, with answers joined.
    pub async fn session_items(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionItemRow>, StorageError> {
        let rows = sqlx::query(SESSION_ITEMS_SQL)
            .bind(session_id)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(SessionItemRow {
                    position: r.try_get("position")?,
                    item_id: r.try_get("item_id")?,
                    category: r.try_get("category")?,
                    prompt_json: r.try_get("prompt_json")?,
                    gold_json: r.try_get("gold_json")?,
                    flagged: r.try_get::<i64, _>("flagged")? != 0,
                    meaning: r.try_get("meaning")?,
                    meaning_split: r
                        .try_get::<Option<String>, _>("meaning_split")?
                        .as_deref()
                        .map(decode_split)
                        .transpose()?,
                    choice: r.try_get("choice")?,
                    answered: r.try_get::<Option<String>, _>("answer_id")?.is_some(),
                    answer_json: r.try_get("answer_json")?,
                    scores_json: r.try_get("scores_json")?,
                    split: decode_split(&r.try_get::<String, _>("split")?)?,
                    board_half: decode_half(&r.try_get::<String, _>("board_half")?)?,
                    preface: r.try_get("preface")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

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
             RETURNING answered, completion_code, completed_at, participant_id, task_id), \
             counted AS (UPDATE tasks SET completed_sessions = completed_sessions + 1, \
             completed_participants = completed_participants + CASE WHEN EXISTS \
               (SELECT 1 FROM sessions o, done d WHERE o.participant_id = d.participant_id \
                AND o.task_id = tasks.id AND o.completed_at IS NOT NULL AND o.id <> $2) \
               THEN 0 ELSE 1 END \
             WHERE id = (SELECT task_id FROM done WHERE completion_code = $11 \
               AND completed_at = $10) RETURNING id) \
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

    /// A cheap fingerprint of a task's crowd data: (completed sessions, their answers, scored
    /// answers, latest completion, crowd version — bumped by every deletion). Crowd statistics
    /// computed from equal fingerprints are equal, so they can be reused (see `crowd_cache`).
    pub async fn crowd_fingerprint(
        &self,
        task_id: &str,
    ) -> Result<crate::crowd_cache::Fingerprint, StorageError> {
        let row = sqlx::query(
            "SELECT COUNT(DISTINCT s.id) AS sessions, COUNT(a.id) AS answers, \
             COUNT(a.score) AS scored, \
             MAX(s.completed_at) + (SELECT exclude_failed_checks FROM tasks WHERE id = $1) \
             AS latest, (SELECT crowd_version FROM tasks WHERE id = $1) AS version, \
             (SELECT study_json FROM tasks WHERE id = $1) AS study_json, \
             (SELECT COUNT(*) FROM attention_checks c JOIN sessions cs ON cs.id = c.session_id \
              WHERE cs.task_id = $1) AS checks \
             FROM sessions s LEFT JOIN answers a ON a.session_id = s.id \
             WHERE s.task_id = $1 AND s.completed_at IS NOT NULL",
        )
        .bind(task_id)
        .fetch_one(&self.pool)
        .await?;
        // The owner's exclusion rules and the attention checks decide which sessions count:
        // a change to either changes the fingerprint (folded into the scored count).
        let study: Option<String> = row.try_get("study_json")?;
        let checks: i64 = row.try_get("checks")?;
        let rules = memeboard_core::ids::fnv1a64(
            format!("{}\u{1f}{checks}", study.unwrap_or_default()).as_bytes(),
        ) as i64;
        Ok((
            row.try_get("sessions")?,
            row.try_get("answers")?,
            row.try_get::<i64, _>("scored")? ^ rules,
            row.try_get("latest")?,
            row.try_get("version")?,
        ))
    }

    /// Scored responses of all *completed* sessions of a task (the crowd), in the order the
    /// crowd statistics read them: by participant pseudonym, item, answer time and session
    /// pseudonym (see [`crate::pseudonym::crowd_order`]), which the raw-data export carries, so
    /// `memeboard stats --export` reproduces the bootstrap intervals exactly.
    pub async fn crowd_responses(
        &self,
        task_id: &str,
    ) -> Result<Vec<CrowdResponseRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT s.participant_id, a.item_id, i.category, a.choice, a.score, \
             p.familiarity, t.benchmark_id, s.id AS session_id, a.created_at, \
             s.completed_at, i.split \
             FROM answers a JOIN sessions s ON s.id = a.session_id \
             JOIN items i ON i.id = a.item_id \
             JOIN tasks t ON t.id = s.task_id \
             LEFT JOIN prefaces p ON p.session_id = a.session_id AND p.item_id = a.item_id \
             WHERE s.task_id = $1 AND s.completed_at IS NOT NULL \
             ORDER BY s.participant_id, a.item_id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        let mut keyed = rows
            .iter()
            .map(|r| {
                let benchmark: String = r.try_get("benchmark_id")?;
                let session: String = r.try_get("session_id")?;
                let row = CrowdResponseRow {
                    session_id: session.clone(),
                    participant_id: r.try_get("participant_id")?,
                    item_id: r.try_get("item_id")?,
                    category: r.try_get("category")?,
                    choice: r.try_get("choice")?,
                    score: r.try_get("score")?,
                    familiarity: r.try_get("familiarity")?,
                    completed_at: r.try_get::<Option<i64>, _>("completed_at")?.unwrap_or(0),
                    hidden: r.try_get::<String, _>("split")? != "dev",
                };
                let key = crate::pseudonym::crowd_order(
                    &benchmark,
                    &row.participant_id,
                    &row.item_id,
                    r.try_get("created_at")?,
                    &session,
                );
                Ok((key, row))
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(keyed.into_iter().map(|(_, row)| row).collect())
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

    /// Stores the embedding scores of a recorded answer.
    pub async fn set_answer_scores(
        &self,
        session_id: &str,
        item_id: &str,
        score: f64,
        scores_json: &str,
    ) -> Result<(), StorageError> {
        sqlx::query("UPDATE answers SET score = $3, scores_json = $4 WHERE session_id = $1 AND item_id = $2")
            .bind(session_id)
            .bind(item_id)
            .bind(score)
            .bind(scores_json)
            .execute(&self.pool)
            .await?;
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

    /// Scores every participant got on an item (any session, scored answers only).
    pub async fn item_scores(&self, item_id: &str) -> Result<Vec<f64>, StorageError> {
        let rows = sqlx::query(
            "SELECT score FROM answers WHERE item_id = $1 AND score IS NOT NULL ORDER BY score",
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
pub(super) fn recorded(row: &impl NamedColumns) -> Result<RecordOutcome, sqlx::Error> {
    Ok(RecordOutcome::Recorded {
        answered: row.column("answered")?,
        completion_code: row.column("completion_code")?,
    })
}

/// What is stored under an answer's item or its key, with the session's progress (one row
/// per matching answer; one row with no answer when neither is taken).
pub(super) const STORED_SQL: &str =
    "SELECT a.item_id, a.idempotency_key, a.answer_json, s.answered, s.completion_code \
     FROM sessions s LEFT JOIN answers a ON a.session_id = s.id \
     AND (a.item_id = $2 OR a.idempotency_key = $3) WHERE s.id = $1";

/// The rows of [`STORED_SQL`] gathered one at a time (either driver's: sqlx returns them all
/// at once, rusqlite one by one), then classified with [`classify_stored`].
#[derive(Debug, Default)]
pub(super) struct StoredRows {
    existing: Vec<(String, String, String)>,
    progress: Option<(i64, Option<String>)>,
}

impl StoredRows {
    /// Takes one row: the session's progress, and the stored answer if the row has one.
    pub(super) fn add(&mut self, row: &impl NamedColumns) -> Result<(), sqlx::Error> {
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
    pub(super) fn classify(self, a: &NewAnswer) -> Option<RecordOutcome> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan SQLite makes for `sql` with `$1` bound: one `detail` line per step.
    async fn plan(storage: &Storage, sql: &str) -> Vec<String> {
        let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {sql}"))
            .bind("S-1")
            .fetch_all(&storage.pool)
            .await
            .expect("plan");
        rows.iter()
            .map(|r| r.try_get::<String, _>("detail").expect("detail"))
            .collect()
    }

    /// Every session start and session read runs this; without the `items_meme` index its
    /// per-item question scanned all items of all tasks (24 scans per read), most of a start's
    /// database time and growing with the benchmark.
    #[tokio::test]
    async fn a_session_read_searches_indexes_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("plan.db").display());
        let storage = Storage::connect(&url, 2).await.expect("storage");
        let steps = plan(&storage, SESSION_ITEMS_SQL).await;
        assert!(
            steps.iter().any(|s| s.contains("USING INDEX items_meme")),
            "{steps:?}"
        );
        assert!(
            !steps.iter().any(|s| s.starts_with("SCAN")),
            "a step scans a table: {steps:?}"
        );
    }
}

//! Quizzes as listed and found by slug, and the items a new batch is drawn from.

use crate::storage::*;
use sqlx::Row;

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
    /// The owner's `FieldworkSettings` JSON, if set.
    pub study_json: Option<String>,
    /// SHA-256 (hex) of the invitation secret of an invitation-only (judging) task.
    pub invite_hash: Option<String>,
    /// The protocol of the human-evaluation study a judging task belongs to, if any.
    pub study_protocol: Option<String>,
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

pub(in crate::storage) const QUIZ_SELECT: &str =
    "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, t.description, \
     t.categories_json, t.batch_size, t.quiz_open, b.title AS benchmark_title, \
     (SELECT COUNT(*) FROM items i WHERE i.task_id = t.id) AS item_count, \
     (SELECT COUNT(*) FROM items i WHERE i.task_id = t.id AND i.split = 'dev') AS dev_count, \
     t.allow_retake, t.study_json, t.invite_hash, \
     t.completed_sessions, t.completed_participants, \
     (SELECT s.protocol FROM studies s WHERE s.id = t.study_id) AS study_protocol \
     FROM tasks t JOIN benchmarks b ON b.id = t.benchmark_id";

pub(in crate::storage) fn quiz_from_row(row: &impl NamedColumns) -> Result<QuizRow, sqlx::Error> {
    Ok(QuizRow {
        task: task_from_row(row)?,
        benchmark_title: row.column("benchmark_title")?,
        item_count: row.column("item_count")?,
        completed_participants: row.column("completed_participants")?,
        dev_count: row.column("dev_count")?,
        allow_retake: row.column::<i64>("allow_retake")? != 0,
        completed_sessions: row.column("completed_sessions")?,
        study_json: row.column("study_json")?,
        invite_hash: row.column("invite_hash")?,
        study_protocol: row.column("study_protocol")?,
    })
}

impl FromNamedRow for QuizRow {
    fn from_named(row: &impl NamedColumns) -> Result<Self, sqlx::Error> {
        quiz_from_row(row)
    }
}

impl FromNamedRow for CandidateRow {
    fn from_named(r: &impl NamedColumns) -> Result<Self, sqlx::Error> {
        Ok(CandidateRow {
            id: r.column("id")?,
            category: r.column("category")?,
            flagged: r.column::<i64>("flagged")? != 0,
            exposures: r.column("exposures")?,
            prompt_json: r.column("prompt_json")?,
        })
    }
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

    /// One open quiz by slug.
    pub async fn find_open_quiz(&self, slug: &str) -> Result<Option<QuizRow>, StorageError> {
        let sql = format!("{QUIZ_SELECT} WHERE t.quiz_open = 1 AND t.slug = $1");
        self.read_optional(&sql, &[slug]).await
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
            crate::storage::reveals::withheld("i")
        );
        self.read_all(&query, &[task_id]).await
    }
}

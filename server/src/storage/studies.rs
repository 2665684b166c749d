//! Human-evaluation studies: creating one with its judging tasks in one transaction, finding
//! a study and its tasks, and reading the judgements of a judging task (for the study page,
//! the board's human columns and the judgement export).

use super::*;
use sqlx::Row;

/// A stored study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudyRecord {
    /// Stable id.
    pub id: String,
    /// URL name.
    pub slug: String,
    /// Benchmark.
    pub benchmark_id: String,
    /// The explanation task whose board the study judges.
    pub source_task_id: String,
    /// `accuracy` or `cmpm`.
    pub protocol: String,
    /// The owner's request (with the seed used), JSON.
    pub request_json: String,
    /// Judged submission ids, JSON array.
    pub submissions_json: String,
    /// Source item ids drawn, JSON array.
    pub source_items_json: String,
    /// Test item ids whose gold raters see, JSON array.
    pub exposed_items_json: String,
    /// SHA-256 of the invitation secret.
    pub invite_hash: Option<String>,
    /// `admin` or the owner's name.
    pub created_by: String,
    /// Creation time (ms).
    pub created_at: i64,
    /// The owner's `ReliabilityThresholds` JSON; `None`: no threshold.
    pub reliability_json: Option<String>,
}

/// A judging task to create with a study: its rows and its fieldwork settings JSON.
#[derive(Debug, Clone)]
pub struct NewStudyTask {
    /// The task row.
    pub task: TaskRecord,
    /// Items with their batch numbers.
    pub items: Vec<(ItemRecord, i64)>,
    /// `FieldworkSettings` JSON (participant target, quality rules).
    pub study_json: String,
    /// The task's rater training (`Training` JSON), if it has one.
    pub training_json: Option<String>,
}

/// Why a study was not created (nothing was stored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StudyInsert {
    /// Stored.
    Created,
    /// Another study has the slug.
    SlugTaken,
    /// A task with this slug (or id) exists.
    TaskSlugTaken(String),
}

/// A judging task of a study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgingTaskRow {
    /// Task id.
    pub id: String,
    /// Task slug.
    pub slug: String,
    /// `rating` or `ranking`.
    pub kind: String,
    /// `FieldworkSettings` JSON.
    pub study_json: Option<String>,
    /// The board switch that also drops failed headphone checks (always off for judging).
    pub exclude_failed_checks: bool,
}

/// One stored judgement (an answer to a judging item) with what the tables and the export
/// need.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgementRow {
    /// Session.
    pub session_id: String,
    /// Participant (a capability: pseudonymise before showing).
    pub participant_id: String,
    /// Judging item.
    pub item_id: String,
    /// Its category.
    pub category: String,
    /// Its batch number.
    pub batch: Option<i64>,
    /// `ItemGold` JSON (which submission wrote what).
    pub gold_json: String,
    /// `AnswerValue` JSON.
    pub answer_json: String,
    /// Display order of the candidates (rankings), JSON.
    pub option_order_json: String,
    /// Position of the item in the rater's batch (0-based): the order shown.
    pub position: Option<i64>,
    /// Time on the page (ms).
    pub response_ms: i64,
    /// When stored (ms).
    pub answered_at: i64,
    /// When the rater finished the batch.
    pub completed_at: Option<i64>,
}

fn study_from_row(r: &sqlx::any::AnyRow) -> Result<StudyRecord, sqlx::Error> {
    Ok(StudyRecord {
        id: r.try_get("id")?,
        slug: r.try_get("slug")?,
        benchmark_id: r.try_get("benchmark_id")?,
        source_task_id: r.try_get("source_task_id")?,
        protocol: r.try_get("protocol")?,
        request_json: r.try_get("request_json")?,
        submissions_json: r.try_get("submissions_json")?,
        source_items_json: r.try_get("source_items_json")?,
        exposed_items_json: r.try_get("exposed_items_json")?,
        invite_hash: r.try_get("invite_hash")?,
        created_by: r.try_get("created_by")?,
        created_at: r.try_get("created_at")?,
        reliability_json: r.try_get("reliability_json")?,
    })
}

const STUDY_COLUMNS: &str = "id, slug, benchmark_id, source_task_id, protocol, request_json, \
     submissions_json, source_items_json, exposed_items_json, invite_hash, created_by, created_at, \
     reliability_json";

impl Storage {
    /// Stores a study, its judging tasks (with their items and settings) and the owner's
    /// action in one transaction: all or nothing.
    pub async fn insert_study(
        &self,
        study: &StudyRecord,
        tasks: &[NewStudyTask],
        action: &NewOwnerAction<'_>,
    ) -> Result<StudyInsert, StorageError> {
        let mut tx = self.pool.begin().await?;
        let taken = sqlx::query("SELECT 1 AS one FROM studies WHERE slug = $1 OR id = $2")
            .bind(&study.slug)
            .bind(&study.id)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if taken {
            tx.rollback().await?;
            return Ok(StudyInsert::SlugTaken);
        }
        sqlx::query(&format!(
            "INSERT INTO studies ({STUDY_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        ))
        .bind(&study.id)
        .bind(&study.slug)
        .bind(&study.benchmark_id)
        .bind(&study.source_task_id)
        .bind(&study.protocol)
        .bind(&study.request_json)
        .bind(&study.submissions_json)
        .bind(&study.source_items_json)
        .bind(&study.exposed_items_json)
        .bind(&study.invite_hash)
        .bind(&study.created_by)
        .bind(study.created_at)
        .bind(&study.reliability_json)
        .execute(&mut *tx)
        .await?;
        for t in tasks {
            let created = Self::insert_judging_task_in(
                &mut tx,
                &t.task,
                study.invite_hash.as_deref(),
                Some(&study.id),
                &t.items,
            )
            .await?;
            if !created {
                tx.rollback().await?;
                return Ok(StudyInsert::TaskSlugTaken(t.task.slug.clone()));
            }
            sqlx::query("UPDATE tasks SET study_json = $1 WHERE id = $2")
                .bind(&t.study_json)
                .bind(&t.task.id)
                .execute(&mut *tx)
                .await?;
            if let Some(training) = &t.training_json {
                Self::insert_training_in(&mut tx, &t.task.id, training).await?;
            }
        }
        super::owners::insert_action(&mut tx, action).await?;
        tx.commit().await?;
        Ok(StudyInsert::Created)
    }

    /// Replaces the invitation of an invitation-only study (its hash on the study and on every
    /// one of its judging tasks) and logs the owner's action, in one transaction: links with
    /// the old secret stop admitting new raters; raters who started keep their sessions.
    pub async fn replace_study_invitation(
        &self,
        study_id: &str,
        invite_hash: &str,
        action: &NewOwnerAction<'_>,
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE studies SET invite_hash = $1 WHERE id = $2")
            .bind(invite_hash)
            .bind(study_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE tasks SET invite_hash = $1 WHERE study_id = $2")
            .bind(invite_hash)
            .bind(study_id)
            .execute(&mut *tx)
            .await?;
        super::owners::insert_action(&mut tx, action).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a study's reliability thresholds (`ReliabilityThresholds` JSON, `None` for none)
    /// and logs the owner's action, in one transaction.
    pub async fn set_study_thresholds(
        &self,
        study_id: &str,
        reliability_json: Option<&str>,
        action: &NewOwnerAction<'_>,
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE studies SET reliability_json = $1 WHERE id = $2")
            .bind(reliability_json)
            .bind(study_id)
            .execute(&mut *tx)
            .await?;
        super::owners::insert_action(&mut tx, action).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A study by slug.
    pub async fn find_study(&self, slug: &str) -> Result<Option<StudyRecord>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {STUDY_COLUMNS} FROM studies WHERE slug = $1"
        ))
        .bind(slug)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(study_from_row).transpose()?)
    }

    /// The studies made from a task's board, oldest first.
    pub async fn studies_of_task(
        &self,
        source_task_id: &str,
    ) -> Result<Vec<StudyRecord>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {STUDY_COLUMNS} FROM studies WHERE source_task_id = $1 \
             ORDER BY created_at, id"
        ))
        .bind(source_task_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(study_from_row)
            .collect::<Result<_, sqlx::Error>>()?)
    }

    /// The judging tasks of a study (rating first, then ranking).
    pub async fn study_tasks(&self, study_id: &str) -> Result<Vec<JudgingTaskRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, slug, kind, study_json, exclude_failed_checks FROM tasks \
             WHERE study_id = $1 ORDER BY kind DESC, slug",
        )
        .bind(study_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(JudgingTaskRow {
                    id: r.try_get("id")?,
                    slug: r.try_get("slug")?,
                    kind: r.try_get("kind")?,
                    study_json: r.try_get("study_json")?,
                    exclude_failed_checks: r.try_get::<i64, _>("exclude_failed_checks")? != 0,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Every judgement of a judging task, in session start order, then the order shown.
    pub async fn judgement_rows(&self, task_id: &str) -> Result<Vec<JudgementRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.session_id, s.participant_id, a.item_id, i.category, i.batch_no, \
             i.gold_json, a.answer_json, a.option_order_json, si.position, a.response_ms, \
             a.created_at, s.completed_at \
             FROM answers a JOIN sessions s ON s.id = a.session_id \
             JOIN items i ON i.id = a.item_id \
             LEFT JOIN session_items si ON si.session_id = a.session_id AND si.item_id = a.item_id \
             WHERE s.task_id = $1 \
             ORDER BY s.created_at, s.id, si.position, a.created_at",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(JudgementRow {
                    session_id: r.try_get("session_id")?,
                    participant_id: r.try_get("participant_id")?,
                    item_id: r.try_get("item_id")?,
                    category: r.try_get("category")?,
                    batch: r.try_get("batch_no")?,
                    gold_json: r.try_get("gold_json")?,
                    answer_json: r.try_get("answer_json")?,
                    option_order_json: r.try_get("option_order_json")?,
                    position: r.try_get("position")?,
                    response_ms: r.try_get("response_ms")?,
                    answered_at: r.try_get("created_at")?,
                    completed_at: r.try_get("completed_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A task's slug by id.
    pub async fn task_slug(&self, task_id: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT slug FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("slug")).transpose()?)
    }

    /// Items per batch of a judging task: `(batch, items)`, by batch.
    pub async fn batch_sizes(&self, task_id: &str) -> Result<Vec<(i64, i64)>, StorageError> {
        let rows = sqlx::query(
            "SELECT batch_no, COUNT(*) AS n FROM items WHERE task_id = $1 \
             AND batch_no IS NOT NULL GROUP BY batch_no ORDER BY batch_no",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("batch_no")?, r.try_get("n")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

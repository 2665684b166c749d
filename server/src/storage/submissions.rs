//! Authors, quota counters, board tasks and submissions (the counted, all-or-nothing upload
//! insert).

use super::*;
use sqlx::any::AnyRow;
use sqlx::Row;

/// A daily limit on one counted scope of `quota_counters` (e.g. a token's uploads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeLimit {
    /// Scope key: an id or a hash, never a client address or a name in clear.
    pub key: String,
    /// Most counted events per UTC day.
    pub limit: i64,
}

/// A limit that an attempt would exceed (nothing was stored, nothing was counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitExceeded {
    /// Index of the scope in the list given.
    pub index: usize,
    /// Events already counted today in that scope.
    pub used: i64,
}

/// A model author (token stored as a hash only).
#[derive(Debug, Clone)]
pub struct AuthorRecord {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Organisation.
    pub organisation: String,
    /// SHA-256 of the token, hex.
    pub token_hash: String,
    /// Daily submission limit.
    pub daily_quota: i64,
}

/// A task with its board switches and item counts.
#[derive(Debug, Clone)]
pub struct BoardTaskRow {
    /// The task.
    pub task: TaskRecord,
    /// Private board revealed.
    pub private_revealed: bool,
    /// Blind board.
    pub blind: bool,
    /// Blind board revealed.
    pub blind_revealed: bool,
    /// Participants who failed the headphone check are left out of the human rows.
    pub exclude_failed_checks: bool,
    /// Which model row a board shows by default: `best` or `latest` per model name.
    pub board_attempts: String,
    /// Whether a participant who finished may take the quiz again.
    pub allow_retake: bool,
    /// Accepted submissions.
    pub submissions: i64,
    /// The slug of the task's benchmark (its paper-tables page).
    pub benchmark_slug: String,
}

/// A task's board and quiz switches (the admin's `POST /api/admin/tasks/{slug}/board`).
#[derive(Debug, Clone)]
pub struct TaskSwitches {
    /// Private board revealed.
    pub private_revealed: bool,
    /// Model scores hidden until revealed.
    pub blind: bool,
    /// Blind board revealed.
    pub blind_revealed: bool,
    /// Listed as a public quiz.
    pub quiz_open: bool,
    /// Failed headphone checks left out of the human rows.
    pub exclude_failed_checks: bool,
    /// `best` or `latest` row per model.
    pub board_attempts: String,
    /// Finished participants may take the quiz again.
    pub allow_retake: bool,
}

/// An accepted, scored prediction file.
#[derive(Debug, Clone)]
pub struct SubmissionRecord {
    /// Id.
    pub id: String,
    /// Task id.
    pub task_id: String,
    /// Author id.
    pub author_id: String,
    /// Model name.
    pub model_name: String,
    /// Organisation.
    pub organisation: String,
    /// Size.
    pub parameters: Option<String>,
    /// `open` / `closed`.
    pub weights: String,
    /// URL.
    pub link: Option<String>,
    /// Description.
    pub description: String,
    /// `json_lines` / `csv`.
    pub file_format: String,
    /// Lines read.
    pub num_lines: i64,
    /// Items without a line.
    pub num_missing: i64,
    /// Orders used (JSON array).
    pub orders_json: String,
    /// Per-item scores (JSON of `ItemScore`s); empty for list queries.
    pub item_scores_json: String,
    /// Public-board summary (JSON of `CategoryEstimate`s).
    pub public_summary_json: String,
    /// Private-board summary.
    pub private_summary_json: String,
    /// Secondary metrics per board half (JSON), if any.
    pub extra_json: Option<String>,
    /// Run conditions (JSON object of condition values); `None`: every default.
    pub conditions_json: Option<String>,
    /// Upload time.
    pub created_at: i64,
    /// When its author withdrew it (then it is on no board).
    pub withdrawn_at: Option<i64>,
}

pub(super) const SUBMISSION_COLUMNS: &str =
    "id, task_id, author_id, model_name, organisation, parameters, \
     weights, link, description, file_format, num_lines, num_missing, orders_json, \
     public_summary_json, private_summary_json, extra_json, conditions_json, created_at, \
     withdrawn_at";

pub(super) fn submission_from_row(
    r: &AnyRow,
    with_items: bool,
) -> Result<SubmissionRecord, sqlx::Error> {
    Ok(SubmissionRecord {
        id: r.try_get("id")?,
        task_id: r.try_get("task_id")?,
        author_id: r.try_get("author_id")?,
        model_name: r.try_get("model_name")?,
        organisation: r.try_get("organisation")?,
        parameters: r.try_get("parameters")?,
        weights: r.try_get("weights")?,
        link: r.try_get("link")?,
        description: r.try_get("description")?,
        file_format: r.try_get("file_format")?,
        num_lines: r.try_get("num_lines")?,
        num_missing: r.try_get("num_missing")?,
        orders_json: r.try_get("orders_json")?,
        item_scores_json: if with_items {
            r.try_get("item_scores_json")?
        } else {
            String::new()
        },
        public_summary_json: r.try_get("public_summary_json")?,
        private_summary_json: r.try_get("private_summary_json")?,
        extra_json: r.try_get("extra_json")?,
        conditions_json: r.try_get("conditions_json")?,
        created_at: r.try_get("created_at")?,
        withdrawn_at: r.try_get("withdrawn_at")?,
    })
}

pub(super) const BOARD_TASK_SELECT: &str = "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, \
     t.description, t.categories_json, t.batch_size, t.quiz_open, t.private_revealed, t.blind, \
     t.blind_revealed, t.exclude_failed_checks, t.board_attempts, t.allow_retake, \
     (SELECT COUNT(*) FROM submissions s WHERE s.task_id = t.id) AS submissions, \
     (SELECT b.slug FROM benchmarks b WHERE b.id = t.benchmark_id) AS benchmark_slug \
     FROM tasks t";

pub(super) fn board_task_from_row(r: &AnyRow) -> Result<BoardTaskRow, sqlx::Error> {
    Ok(BoardTaskRow {
        task: task_from_row(r)?,
        private_revealed: r.try_get::<i64, _>("private_revealed")? != 0,
        blind: r.try_get::<i64, _>("blind")? != 0,
        blind_revealed: r.try_get::<i64, _>("blind_revealed")? != 0,
        exclude_failed_checks: r.try_get::<i64, _>("exclude_failed_checks")? != 0,
        board_attempts: r.try_get("board_attempts")?,
        allow_retake: r.try_get::<i64, _>("allow_retake")? != 0,
        submissions: r.try_get("submissions")?,
        benchmark_slug: r.try_get("benchmark_slug")?,
    })
}

impl Storage {
    /// Today's count of each scope (0 where nothing was counted), in the order given.
    pub async fn quota_usage(&self, keys: &[String], day: i64) -> Result<Vec<i64>, StorageError> {
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            let used: Option<i64> =
                sqlx::query("SELECT used FROM quota_counters WHERE scope_key = $1 AND day = $2")
                    .bind(key)
                    .bind(day)
                    .fetch_optional(&self.pool)
                    .await?
                    .map(|r| r.try_get("used"))
                    .transpose()?;
            out.push(used.unwrap_or(0));
        }
        Ok(out)
    }

    /// Counts one event in every scope inside `tx` (keys in sorted order, so that concurrent
    /// transactions lock the rows in the same order and cannot deadlock) and reports the first
    /// scope, in the order given, that is now over its limit. The caller rolls back then.
    pub(super) async fn count_in_scopes(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        limits: &[ScopeLimit],
        day: i64,
    ) -> Result<Option<LimitExceeded>, StorageError> {
        let mut order: Vec<usize> = (0..limits.len()).collect();
        order.sort_by(|&a, &b| limits[a].key.cmp(&limits[b].key));
        let mut used = vec![0i64; limits.len()];
        for i in order {
            used[i] = sqlx::query(
                "INSERT INTO quota_counters (scope_key, day, used) VALUES ($1, $2, 1) \
                 ON CONFLICT (scope_key, day) DO UPDATE SET used = quota_counters.used + 1 \
                 RETURNING used",
            )
            .bind(&limits[i].key)
            .bind(day)
            .fetch_one(&mut **tx)
            .await?
            .try_get("used")?;
        }
        Ok(limits
            .iter()
            .zip(&used)
            .position(|(l, &u)| u > l.limit)
            .map(|index| LimitExceeded {
                index,
                used: used[index] - 1,
            }))
    }

    /// Stores an accepted submission and counts it in every scope, in one transaction: when
    /// any scope would go over its limit, nothing is stored and nothing is counted.
    /// The file itself (for rescoring) and its outputs (`outputs`, explanation kinds) are
    /// written in the same transaction.
    pub async fn insert_submission_within(
        &self,
        s: &SubmissionRecord,
        file: &StoredFile,
        outputs: &[StoredOutput],
        limits: &[ScopeLimit],
        day: i64,
    ) -> Result<Result<(), LimitExceeded>, StorageError> {
        let mut tx = self.pool.begin().await?;
        if let Some(exceeded) = Self::count_in_scopes(&mut tx, limits, day).await? {
            tx.rollback().await?;
            return Ok(Err(exceeded));
        }
        Self::insert_submission_in(&mut tx, s).await?;
        Self::insert_file_in(&mut tx, &s.id, file).await?;
        Self::insert_outputs_in(&mut tx, &s.id, outputs).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Stores a new author and counts it in every scope, in one transaction (as
    /// [`Self::insert_submission_within`]). Counters older than a week are removed afterwards.
    pub async fn create_author_within(
        &self,
        a: &AuthorRecord,
        limits: &[ScopeLimit],
        day: i64,
    ) -> Result<Result<(), LimitExceeded>, StorageError> {
        let mut tx = self.pool.begin().await?;
        if let Some(exceeded) = Self::count_in_scopes(&mut tx, limits, day).await? {
            tx.rollback().await?;
            return Ok(Err(exceeded));
        }
        Self::create_author_in(&mut tx, a).await?;
        tx.commit().await?;
        sqlx::query("DELETE FROM quota_counters WHERE day < $1")
            .bind(day - 7)
            .execute(&self.pool)
            .await?;
        Ok(Ok(()))
    }

    /// Stores a new author.
    pub async fn create_author(&self, a: &AuthorRecord) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        Self::create_author_in(&mut tx, a).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn create_author_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        a: &AuthorRecord,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO authors (id, name, organisation, token_hash, daily_quota, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&a.id)
        .bind(&a.name)
        .bind(&a.organisation)
        .bind(&a.token_hash)
        .bind(a.daily_quota)
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// An author by id (the demo models' author).
    pub async fn find_author(&self, id: &str) -> Result<Option<AuthorRecord>, StorageError> {
        self.find_author_where("id", id).await
    }

    /// The author owning a token hash.
    pub async fn find_author_by_token_hash(
        &self,
        hash: &str,
    ) -> Result<Option<AuthorRecord>, StorageError> {
        self.find_author_where("token_hash", hash).await
    }

    async fn find_author_where(
        &self,
        column: &str,
        key: &str,
    ) -> Result<Option<AuthorRecord>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT id, name, organisation, token_hash, daily_quota FROM authors WHERE {column} = $1"
        ))
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(AuthorRecord {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                organisation: r.try_get("organisation")?,
                token_hash: r.try_get("token_hash")?,
                daily_quota: r.try_get("daily_quota")?,
            })
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }

    /// Every task with its board switches.
    pub async fn list_board_tasks(&self) -> Result<Vec<BoardTaskRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "{BOARD_TASK_SELECT} ORDER BY t.created_at, t.slug"
        ))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(board_task_from_row)
            .collect::<Result<_, _>>()?)
    }

    /// One task by slug.
    pub async fn find_board_task(&self, slug: &str) -> Result<Option<BoardTaskRow>, StorageError> {
        let row = sqlx::query(&format!("{BOARD_TASK_SELECT} WHERE t.slug = $1"))
            .bind(slug)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(board_task_from_row).transpose()?)
    }

    /// Stores an accepted submission (one statement: stored whole or not at all).
    pub async fn insert_submission(&self, s: &SubmissionRecord) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        Self::insert_submission_in(&mut tx, s).await?;
        tx.commit().await?;
        Ok(())
    }

    pub(super) async fn insert_submission_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        s: &SubmissionRecord,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO submissions (id, task_id, author_id, model_name, organisation, parameters, \
             weights, link, description, file_format, num_lines, num_missing, orders_json, \
             item_scores_json, public_summary_json, private_summary_json, extra_json, created_at, \
             conditions_json) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
             $19)",
        )
        .bind(&s.id)
        .bind(&s.task_id)
        .bind(&s.author_id)
        .bind(&s.model_name)
        .bind(&s.organisation)
        .bind(&s.parameters)
        .bind(&s.weights)
        .bind(&s.link)
        .bind(&s.description)
        .bind(&s.file_format)
        .bind(s.num_lines)
        .bind(s.num_missing)
        .bind(&s.orders_json)
        .bind(&s.item_scores_json)
        .bind(&s.public_summary_json)
        .bind(&s.private_summary_json)
        .bind(&s.extra_json)
        .bind(s.created_at)
        .bind(&s.conditions_json)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Submissions matching `condition` (one `$1` parameter, bound to `key`), in `order`,
    /// with or without their per-item scores.
    async fn submissions_where(
        &self,
        condition: &str,
        key: &str,
        order: &str,
        with_items: bool,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        let items = if with_items { ", item_scores_json" } else { "" };
        let rows = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS}{items} FROM submissions WHERE {condition} ORDER BY {order}"
        ))
        .bind(key)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| submission_from_row(r, with_items))
            .collect::<Result<_, _>>()?)
    }

    /// Submissions of a task (without per-item scores), oldest first.
    pub async fn task_submissions(
        &self,
        task_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        self.submissions_where(
            "task_id = $1 AND withdrawn_at IS NULL",
            task_id,
            "created_at, id",
            false,
        )
        .await
    }

    /// Every submission of a task, withdrawn ones too (without per-item scores), oldest
    /// first: the Ladder counts an author's whole history, so withdrawing cannot reset it.
    pub async fn task_submission_history(
        &self,
        task_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        self.submissions_where("task_id = $1", task_id, "created_at, id", false)
            .await
    }

    /// Withdraws an author's own submission (idempotent); `false` when the submission is
    /// not theirs or does not exist.
    pub async fn withdraw_submission(
        &self,
        id: &str,
        author_id: &str,
    ) -> Result<bool, StorageError> {
        let found = sqlx::query(
            "UPDATE submissions SET withdrawn_at = COALESCE(withdrawn_at, $3) \
             WHERE id = $1 AND author_id = $2",
        )
        .bind(id)
        .bind(author_id)
        .bind(now_ms())
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(found == 1)
    }

    /// Submissions of a task with their per-item scores, oldest first (start-up upgrade).
    pub async fn task_submissions_with_items(
        &self,
        task_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        self.submissions_where("task_id = $1", task_id, "created_at, id", true)
            .await
    }

    /// Submissions of an author (without per-item scores), newest first.
    pub async fn author_submissions(
        &self,
        author_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        self.submissions_where("author_id = $1", author_id, "created_at DESC, id", false)
            .await
    }

    /// One submission with its per-item scores.
    pub async fn find_submission(
        &self,
        id: &str,
    ) -> Result<Option<SubmissionRecord>, StorageError> {
        Ok(self
            .submissions_where("id = $1", id, "id", true)
            .await?
            .into_iter()
            .next())
    }

    /// One submission's per-item scores (`item_scores_json`) alone, `None` when there is no
    /// such submission.
    pub async fn submission_item_scores(&self, id: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT item_scores_json FROM submissions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row
            .map(|r| r.try_get::<String, _>("item_scores_json"))
            .transpose()?)
    }

    /// Writes a task's board and quiz switches.
    pub async fn update_board_settings(
        &self,
        task_id: &str,
        t: &TaskSwitches,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE tasks SET private_revealed = $2, blind = $3, blind_revealed = $4, \
             quiz_open = $5, exclude_failed_checks = $6, board_attempts = $7, \
             allow_retake = $8 WHERE id = $1",
        )
        .bind(task_id)
        .bind(i64::from(t.private_revealed))
        .bind(i64::from(t.blind))
        .bind(i64::from(t.blind_revealed))
        .bind(i64::from(t.quiz_open))
        .bind(i64::from(t.exclude_failed_checks))
        .bind(&t.board_attempts)
        .bind(i64::from(t.allow_retake))
        .execute(&self.pool)
        .await?;
        // The exclusion rule decides which sessions count: crowd figures follow at once.
        self.forget_crowd_fingerprint(task_id);
        Ok(())
    }
}

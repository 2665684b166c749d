//! All SQL lives here: one pool over SQLite or PostgreSQL through sqlx's `Any` driver, with
//! portable queries (`$n` placeholders, BIGINT flags and timestamps) and embedded migrations.

use memeboard_core::api::BoardSplit;
use memeboard_core::predictions::Split;
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use std::time::Duration;

/// Storage failures. Callers add context; clients see a generic message.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database rejected or failed a query.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A migration failed at start-up.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored JSON column did not decode (a bug or a manual edit).
    #[error("corrupt stored JSON in {what}: {source}")]
    CorruptJson {
        /// Which column.
        what: &'static str,
        /// Decoder error.
        source: serde_json::Error,
    },
    /// The URL names a backend we do not support.
    #[error("unsupported database URL scheme in `{0}` (expected sqlite:// or postgres://)")]
    UnsupportedUrl(String),
}

/// Which engine the pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Embedded SQLite (default).
    Sqlite,
    /// PostgreSQL (several server instances).
    Postgres,
}

impl Backend {
    /// Name for logs and `/healthz`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sqlite => "sqlite",
            Self::Postgres => "postgres",
        }
    }
}

/// The storage handle shared by all requests (cheap to clone).
#[derive(Debug, Clone)]
pub struct Storage {
    pool: AnyPool,
    backend: Backend,
}

/// Decodes a JSON column.
pub fn decode_json<T: serde::de::DeserializeOwned>(
    what: &'static str,
    s: &str,
) -> Result<T, StorageError> {
    serde_json::from_str(s).map_err(|source| StorageError::CorruptJson { what, source })
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// A benchmark (a dataset family instance such as "CHIME demo").
#[derive(Debug, Clone)]
pub struct BenchmarkRecord {
    /// Stable id.
    pub id: String,
    /// URL slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Family key (`text_memes`, `multi_panel`, `audio_visual`).
    pub family: String,
}

/// A text meme with its (hidden) explanation.
#[derive(Debug, Clone)]
pub struct MemeRecord {
    /// Stable id.
    pub id: String,
    /// Owning benchmark.
    pub benchmark_id: String,
    /// The phrase.
    pub phrase: String,
    /// Gold meaning.
    pub meaning: String,
    /// Gold origin.
    pub origin: Option<String>,
    /// Example sentences.
    pub examples: Vec<String>,
    /// Category key.
    pub category: String,
    /// Profanity flag.
    pub profanity: bool,
    /// Offense flag.
    pub offense: bool,
}

/// A task of a benchmark; open tasks are public quizzes.
#[derive(Debug, Clone)]
pub struct TaskRecord {
    /// Stable id.
    pub id: String,
    /// Owning benchmark.
    pub benchmark_id: String,
    /// URL slug (quiz slug).
    pub slug: String,
    /// Kind key.
    pub kind: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Category keys in report order (JSON array of `CategoryInfo`).
    pub categories_json: String,
    /// Items per participant.
    pub batch_size: i64,
    /// Listed as a public quiz.
    pub quiz_open: bool,
}

/// One item with public prompt and hidden gold (JSON of core types).
#[derive(Debug, Clone)]
pub struct ItemRecord {
    /// Stable id.
    pub id: String,
    /// Owning task.
    pub task_id: String,
    /// Order within the task.
    pub ordinal: i64,
    /// Category key.
    pub category: String,
    /// `ItemPrompt` JSON.
    pub prompt_json: String,
    /// `ItemGold` JSON.
    pub gold_json: String,
    /// Content warning.
    pub flagged: bool,
    /// Source meme, if any.
    pub meme_id: Option<String>,
    /// The public source the item is derived from (items of one source share split and board
    /// half); never derived from gold.
    pub source_id: String,
    /// `dev` (gold public by design) or `test` (gold never leaves the server).
    pub split: String,
    /// For test items: `public` or `private` board half.
    pub board_half: String,
}

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
}

/// Decodes a stored split (`dev` / `test`).
fn decode_split(key: &str) -> Result<Split, sqlx::Error> {
    match key {
        "dev" => Ok(Split::Dev),
        "test" => Ok(Split::Test),
        other => Err(sqlx::Error::Decode(
            format!("items.split: expected `dev` or `test`, found `{other}`").into(),
        )),
    }
}

/// Decodes a stored board half (`public` / `private`).
fn decode_half(key: &str) -> Result<BoardSplit, sqlx::Error> {
    match key {
        "public" => Ok(BoardSplit::Public),
        "private" => Ok(BoardSplit::Private),
        other => Err(sqlx::Error::Decode(
            format!("items.board_half: expected `public` or `private`, found `{other}`").into(),
        )),
    }
}

/// Decodes a stored task kind (an unknown key is a decode error, not a silent default).
fn decode_kind(key: &str) -> Result<memeboard_core::kinds::TaskKind, sqlx::Error> {
    memeboard_core::kinds::TaskKind::parse(key)
        .ok_or_else(|| sqlx::Error::Decode(format!("tasks.kind: unknown task kind `{key}`").into()))
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
}

/// One scored response of a completed session, for crowd statistics.
#[derive(Debug, Clone)]
pub struct CrowdResponseRow {
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
}

fn task_from_row(row: &AnyRow) -> Result<TaskRecord, sqlx::Error> {
    Ok(TaskRecord {
        id: row.try_get("id")?,
        benchmark_id: row.try_get("benchmark_id")?,
        slug: row.try_get("slug")?,
        kind: row.try_get("kind")?,
        title: row.try_get("title")?,
        description: row.try_get("description")?,
        categories_json: row.try_get("categories_json")?,
        batch_size: row.try_get("batch_size")?,
        quiz_open: row.try_get::<i64, _>("quiz_open")? != 0,
    })
}

const QUIZ_SELECT: &str = "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, t.description, \
     t.categories_json, t.batch_size, t.quiz_open, b.title AS benchmark_title, \
     (SELECT COUNT(*) FROM items i WHERE i.task_id = t.id) AS item_count, \
     (SELECT COUNT(DISTINCT s.participant_id) FROM sessions s \
        WHERE s.task_id = t.id AND s.completed_at IS NOT NULL) AS completed_participants \
     FROM tasks t JOIN benchmarks b ON b.id = t.benchmark_id";

fn quiz_from_row(row: &AnyRow) -> Result<QuizRow, sqlx::Error> {
    Ok(QuizRow {
        task: task_from_row(row)?,
        benchmark_title: row.try_get("benchmark_title")?,
        item_count: row.try_get("item_count")?,
        completed_participants: row.try_get("completed_participants")?,
    })
}

impl Storage {
    /// Connects, tunes SQLite (WAL, busy timeout), and runs the embedded migrations. Any
    /// failure here aborts start-up.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Self, StorageError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StorageError::UnsupportedUrl(redact_url(url)));
        };
        let mut options = AnyPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10));
        if backend == Backend::Sqlite {
            options = options.after_connect(|conn, _meta| {
                Box::pin(async move {
                    sqlx::query("PRAGMA journal_mode = WAL")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA busy_timeout = 5000")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA foreign_keys = ON")
                        .execute(&mut *conn)
                        .await?;
                    sqlx::query("PRAGMA synchronous = NORMAL")
                        .execute(&mut *conn)
                        .await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(url).await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Self { pool, backend })
    }

    /// Which engine is in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool (graceful shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// A trivial round trip, for `/healthz`.
    pub async fn ping(&self) -> Result<(), StorageError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Number of benchmarks (0 = fresh database).
    pub async fn count_benchmarks(&self) -> Result<i64, StorageError> {
        Ok(sqlx::query("SELECT COUNT(*) AS n FROM benchmarks")
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?)
    }

    /// Imports a benchmark with its memes, task and items in one transaction (all or
    /// nothing). Existing rows with the same ids are updated, so re-imports keep ids.
    pub async fn import_benchmark(
        &self,
        benchmark: &BenchmarkRecord,
        memes: &[MemeRecord],
        tasks: &[(TaskRecord, Vec<ItemRecord>)],
    ) -> Result<(), StorageError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO benchmarks (id, slug, title, description, family, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title, \
             description = excluded.description, family = excluded.family",
        )
        .bind(&benchmark.id)
        .bind(&benchmark.slug)
        .bind(&benchmark.title)
        .bind(&benchmark.description)
        .bind(&benchmark.family)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for m in memes {
            let examples =
                serde_json::to_string(&m.examples).map_err(|source| StorageError::CorruptJson {
                    what: "examples",
                    source,
                })?;
            sqlx::query(
                "INSERT INTO memes (id, benchmark_id, phrase, meaning, origin, examples_json, \
                 category, profanity, offense) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (id) DO UPDATE SET meaning = excluded.meaning, \
                 origin = excluded.origin, examples_json = excluded.examples_json, \
                 category = excluded.category, profanity = excluded.profanity, \
                 offense = excluded.offense",
            )
            .bind(&m.id)
            .bind(&m.benchmark_id)
            .bind(&m.phrase)
            .bind(&m.meaning)
            .bind(&m.origin)
            .bind(examples)
            .bind(&m.category)
            .bind(i64::from(m.profanity))
            .bind(i64::from(m.offense))
            .execute(&mut *tx)
            .await?;
        }
        for (n, (task, items)) in tasks.iter().enumerate() {
            sqlx::query(
                "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, \
             categories_json, batch_size, quiz_open, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (id) DO UPDATE SET title = excluded.title, \
             description = excluded.description, categories_json = excluded.categories_json, \
             batch_size = excluded.batch_size, quiz_open = excluded.quiz_open",
            )
            .bind(&task.id)
            .bind(&task.benchmark_id)
            .bind(&task.slug)
            .bind(&task.kind)
            .bind(&task.title)
            .bind(&task.description)
            .bind(&task.categories_json)
            .bind(task.batch_size)
            .bind(i64::from(task.quiz_open))
            .bind(now + n as i64)
            .execute(&mut *tx)
            .await?;
            for it in items {
                sqlx::query(
                    "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                 flagged, meme_id, split, board_half, source_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                 ON CONFLICT (id) DO UPDATE SET ordinal = excluded.ordinal, \
                 category = excluded.category, prompt_json = excluded.prompt_json, \
                 gold_json = excluded.gold_json, flagged = excluded.flagged, \
                 meme_id = excluded.meme_id, split = excluded.split, \
                 board_half = excluded.board_half, source_id = excluded.source_id",
                )
                .bind(&it.id)
                .bind(&it.task_id)
                .bind(it.ordinal)
                .bind(&it.category)
                .bind(&it.prompt_json)
                .bind(&it.gold_json)
                .bind(i64::from(it.flagged))
                .bind(&it.meme_id)
                .bind(&it.split)
                .bind(&it.board_half)
                .bind(&it.source_id)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// Counts of memes and items of a benchmark (import reports and tests).
    pub async fn benchmark_counts(&self, benchmark_id: &str) -> Result<(i64, i64), StorageError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM memes WHERE benchmark_id = $1) AS memes, \
             (SELECT COUNT(*) FROM items i JOIN tasks t ON t.id = i.task_id \
              WHERE t.benchmark_id = $1) AS items",
        )
        .bind(benchmark_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("memes")?, row.try_get("items")?))
    }

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
        let row = sqlx::query(&format!(
            "{QUIZ_SELECT} WHERE t.quiz_open = 1 AND t.slug = $1"
        ))
        .bind(slug)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(quiz_from_row).transpose()?)
    }

    /// Items of a task with their exposure counts, for balanced assignment.
    pub async fn assignment_candidates(
        &self,
        task_id: &str,
    ) -> Result<Vec<CandidateRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT i.id, i.category, i.flagged, \
             (SELECT COUNT(*) FROM session_items si WHERE si.item_id = i.id) AS exposures \
             FROM items i WHERE i.task_id = $1 ORDER BY i.ordinal, i.id",
        )
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
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
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
    pub async fn create_session(
        &self,
        s: &NewSession,
        new_participant: Option<&str>,
    ) -> Result<(), StorageError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        if let Some(secret_hash) = new_participant {
            sqlx::query(
                "INSERT INTO participants (id, created_at, secret_hash) VALUES ($1, $2, $3)",
            )
            .bind(&s.participant_id)
            .bind(now)
            .bind(secret_hash)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "INSERT INTO sessions (id, participant_id, task_id, seed, survey_json, prolific_pid, \
             study_id, recruitment_session_id, batch_size, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&s.id)
        .bind(&s.participant_id)
        .bind(&s.task_id)
        .bind(s.seed)
        .bind(&s.survey_json)
        .bind(&s.prolific_pid)
        .bind(&s.study_id)
        .bind(&s.recruitment_session_id)
        .bind(s.items.len() as i64)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (position, item) in s.items.iter().enumerate() {
            sqlx::query(
                "INSERT INTO session_items (session_id, position, item_id) VALUES ($1, $2, $3)",
            )
            .bind(&s.id)
            .bind(position as i64)
            .bind(item)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A session by id.
    pub async fn find_session(&self, id: &str) -> Result<Option<SessionRow>, StorageError> {
        let row = sqlx::query(
            "SELECT s.id, s.participant_id, s.task_id, s.seed, s.batch_size, s.completion_code, \
             t.slug, t.title, t.kind FROM sessions s JOIN tasks t ON t.id = s.task_id WHERE s.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(SessionRow {
                id: r.try_get("id")?,
                participant_id: r.try_get("participant_id")?,
                task_id: r.try_get("task_id")?,
                quiz_slug: r.try_get("slug")?,
                quiz_title: r.try_get("title")?,
                task_kind: decode_kind(&r.try_get::<String, _>("kind")?)?,
                seed: r.try_get("seed")?,
                batch_size: r.try_get("batch_size")?,
                completion_code: r.try_get("completion_code")?,
            })
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }

    /// The batch of a session, in order, with answers joined.
    pub async fn session_items(
        &self,
        session_id: &str,
    ) -> Result<Vec<SessionItemRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT si.position, si.item_id, i.category, i.prompt_json, i.gold_json, i.flagged, \
             i.split, i.board_half, m.meaning, a.choice, a.id AS answer_id, a.answer_json, \
             a.scores_json, \
             (SELECT MAX(e.split) FROM items e JOIN tasks et ON et.id = e.task_id \
              WHERE e.meme_id = i.meme_id AND et.kind = 'explanation') AS meaning_split \
             FROM session_items si JOIN items i ON i.id = si.item_id \
             LEFT JOIN memes m ON m.id = i.meme_id \
             LEFT JOIN answers a ON a.session_id = si.session_id AND a.item_id = si.item_id \
             WHERE si.session_id = $1 ORDER BY si.position",
        )
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
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    async fn answer_progress(
        &self,
        session_id: &str,
    ) -> Result<(i64, Option<String>), StorageError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM answers WHERE session_id = $1) AS answered, \
             completion_code FROM sessions WHERE id = $1",
        )
        .bind(session_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("answered")?, row.try_get("completion_code")?))
    }

    /// Records an answer exactly once. The unique constraints on `(session, item)` and
    /// `(session, idempotency key)` make concurrent duplicates safe: the loser of a race is
    /// reported as a replay or a refusal, never stored twice. The last answer of a batch
    /// marks the session complete and stores `completion_code` in the same transaction.
    pub async fn record_answer(
        &self,
        a: &NewAnswer,
        batch_size: i64,
        completion_code: &str,
    ) -> Result<RecordOutcome, StorageError> {
        if let Some(outcome) = self.classify_existing(a).await? {
            return Ok(outcome);
        }
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO answers (id, session_id, item_id, idempotency_key, answer_json, \
             option_order_json, choice, score, response_ms, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
        )
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
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted == 0 {
            // Lost a race with a concurrent duplicate: report what is stored now.
            tx.rollback().await?;
            return self
                .classify_existing(a)
                .await?
                .ok_or_else(|| StorageError::Database(sqlx::Error::RowNotFound));
        }
        let answered: i64 = sqlx::query("SELECT COUNT(*) AS n FROM answers WHERE session_id = $1")
            .bind(&a.session_id)
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
        if answered >= batch_size {
            sqlx::query(
                "UPDATE sessions SET completed_at = $2, completion_code = $3 \
                 WHERE id = $1 AND completed_at IS NULL",
            )
            .bind(&a.session_id)
            .bind(now)
            .bind(completion_code)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        let (answered, code) = self.answer_progress(&a.session_id).await?;
        Ok(RecordOutcome::Recorded {
            answered,
            completion_code: code,
        })
    }

    async fn classify_existing(
        &self,
        a: &NewAnswer,
    ) -> Result<Option<RecordOutcome>, StorageError> {
        let existing = sqlx::query(
            "SELECT item_id, idempotency_key FROM answers \
             WHERE session_id = $1 AND (item_id = $2 OR idempotency_key = $3)",
        )
        .bind(&a.session_id)
        .bind(&a.item_id)
        .bind(&a.idempotency_key)
        .fetch_all(&self.pool)
        .await?;
        for row in &existing {
            let item: String = row.try_get("item_id")?;
            let key: String = row.try_get("idempotency_key")?;
            if item == a.item_id && key == a.idempotency_key {
                let (answered, completion_code) = self.answer_progress(&a.session_id).await?;
                return Ok(Some(RecordOutcome::Replayed {
                    answered,
                    completion_code,
                }));
            }
            if key == a.idempotency_key {
                return Ok(Some(RecordOutcome::KeyReused));
            }
        }
        Ok((!existing.is_empty()).then_some(RecordOutcome::AlreadyAnswered))
    }

    /// Scored responses of all *completed* sessions of a task (the crowd).
    pub async fn crowd_responses(
        &self,
        task_id: &str,
    ) -> Result<Vec<CrowdResponseRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT s.participant_id, a.item_id, i.category, a.choice, a.score \
             FROM answers a JOIN sessions s ON s.id = a.session_id \
             JOIN items i ON i.id = a.item_id \
             WHERE s.task_id = $1 AND s.completed_at IS NOT NULL \
             ORDER BY s.participant_id, a.item_id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(CrowdResponseRow {
                    participant_id: r.try_get("participant_id")?,
                    item_id: r.try_get("item_id")?,
                    category: r.try_get("category")?,
                    choice: r.try_get("choice")?,
                    score: r.try_get("score")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Rows in each table (tests use this to prove nothing was half-written).
    pub async fn table_counts(&self) -> Result<Vec<(String, i64)>, StorageError> {
        let mut out = Vec::new();
        for table in [
            "authors",
            "submissions",
            "benchmarks",
            "memes",
            "tasks",
            "items",
            "participants",
            "sessions",
            "session_items",
            "answers",
        ] {
            let n: i64 = sqlx::query(&format!("SELECT COUNT(*) AS n FROM {table}"))
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?;
            out.push((table.to_owned(), n));
        }
        Ok(out)
    }
}

/// Hides a password in a database URL for messages.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://***{}", &url[..scheme], &url[at..])
        }
        _ => url.to_owned(),
    }
}

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
    async fn count_in_scopes(
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
    pub async fn insert_submission_within(
        &self,
        s: &SubmissionRecord,
        limits: &[ScopeLimit],
        day: i64,
    ) -> Result<Result<(), LimitExceeded>, StorageError> {
        let mut tx = self.pool.begin().await?;
        if let Some(exceeded) = Self::count_in_scopes(&mut tx, limits, day).await? {
            tx.rollback().await?;
            return Ok(Err(exceeded));
        }
        Self::insert_submission_in(&mut tx, s).await?;
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
    /// Accepted submissions.
    pub submissions: i64,
}

/// An item with its gold and split, for scoring uploads.
#[derive(Debug, Clone)]
pub struct TaskItemRow {
    /// Id.
    pub id: String,
    /// Category.
    pub category: String,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Gold JSON.
    pub gold_json: String,
    /// Open dev item or hidden test item.
    pub split: Split,
    /// The board half that scores it (test items).
    pub board_half: BoardSplit,
}

impl TaskItemRow {
    /// Whether the item is scored by the given board half (a test item of that half).
    pub fn on_board(&self, half: BoardSplit) -> bool {
        self.split == Split::Test && self.board_half == half
    }
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
    /// Upload time.
    pub created_at: i64,
}

const SUBMISSION_COLUMNS: &str = "id, task_id, author_id, model_name, organisation, parameters, \
     weights, link, description, file_format, num_lines, num_missing, orders_json, \
     public_summary_json, private_summary_json, extra_json, created_at";

fn submission_from_row(r: &AnyRow, with_items: bool) -> Result<SubmissionRecord, sqlx::Error> {
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
        created_at: r.try_get("created_at")?,
    })
}

const BOARD_TASK_SELECT: &str = "SELECT t.id, t.benchmark_id, t.slug, t.kind, t.title, \
     t.description, t.categories_json, t.batch_size, t.quiz_open, t.private_revealed, t.blind, \
     t.blind_revealed, (SELECT COUNT(*) FROM submissions s WHERE s.task_id = t.id) AS submissions \
     FROM tasks t";

fn board_task_from_row(r: &AnyRow) -> Result<BoardTaskRow, sqlx::Error> {
    Ok(BoardTaskRow {
        task: task_from_row(r)?,
        private_revealed: r.try_get::<i64, _>("private_revealed")? != 0,
        blind: r.try_get::<i64, _>("blind")? != 0,
        blind_revealed: r.try_get::<i64, _>("blind_revealed")? != 0,
        submissions: r.try_get("submissions")?,
    })
}

impl Storage {
    /// Stores a new author.
    pub async fn create_author(&self, a: &AuthorRecord) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        Self::create_author_in(&mut tx, a).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn create_author_in(
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

    /// The author owning a token hash.
    pub async fn find_author_by_token_hash(
        &self,
        hash: &str,
    ) -> Result<Option<AuthorRecord>, StorageError> {
        let row = sqlx::query("SELECT id, name, organisation, token_hash, daily_quota FROM authors WHERE token_hash = $1")
            .bind(hash)
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

    /// Submissions of an author since `since_ms` (quota).
    pub async fn count_submissions_since(
        &self,
        author_id: &str,
        since_ms: i64,
    ) -> Result<i64, StorageError> {
        Ok(sqlx::query(
            "SELECT COUNT(*) AS n FROM submissions WHERE author_id = $1 AND created_at >= $2",
        )
        .bind(author_id)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?)
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

    /// All items of a task with gold and split, in task order.
    pub async fn task_items(&self, task_id: &str) -> Result<Vec<TaskItemRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, category, prompt_json, gold_json, split, board_half FROM items \
             WHERE task_id = $1 ORDER BY ordinal, id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TaskItemRow {
                    id: r.try_get("id")?,
                    category: r.try_get("category")?,
                    prompt_json: r.try_get("prompt_json")?,
                    gold_json: r.try_get("gold_json")?,
                    split: decode_split(&r.try_get::<String, _>("split")?)?,
                    board_half: decode_half(&r.try_get::<String, _>("board_half")?)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Stores an accepted submission (one statement: stored whole or not at all).
    pub async fn insert_submission(&self, s: &SubmissionRecord) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        Self::insert_submission_in(&mut tx, s).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn insert_submission_in(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        s: &SubmissionRecord,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO submissions (id, task_id, author_id, model_name, organisation, parameters, \
             weights, link, description, file_format, num_lines, num_missing, orders_json, \
             item_scores_json, public_summary_json, private_summary_json, extra_json, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
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
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    /// Submissions of a task (without per-item scores), oldest first.
    pub async fn task_submissions(
        &self,
        task_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE task_id = $1 ORDER BY created_at, id"
        ))
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| submission_from_row(r, false))
            .collect::<Result<_, _>>()?)
    }

    /// Submissions of an author (without per-item scores), newest first.
    pub async fn author_submissions(
        &self,
        author_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS} FROM submissions WHERE author_id = $1 ORDER BY created_at DESC, id"
        ))
        .bind(author_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| submission_from_row(r, false))
            .collect::<Result<_, _>>()?)
    }

    /// One submission with its per-item scores.
    pub async fn find_submission(
        &self,
        id: &str,
    ) -> Result<Option<SubmissionRecord>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS}, item_scores_json FROM submissions WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .as_ref()
            .map(|r| submission_from_row(r, true))
            .transpose()?)
    }

    /// Sets the board switches of a task.
    pub async fn update_board_settings(
        &self,
        task_id: &str,
        private_revealed: bool,
        blind: bool,
        blind_revealed: bool,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE tasks SET private_revealed = $2, blind = $3, blind_revealed = $4 WHERE id = $1",
        )
        .bind(task_id)
        .bind(i64::from(private_revealed))
        .bind(i64::from(blind))
        .bind(i64::from(blind_revealed))
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Storage {
    /// Memes of a benchmark in import order (stable: by id within equal phrases).
    pub async fn benchmark_memes(
        &self,
        benchmark_id: &str,
    ) -> Result<Vec<MemeRecord>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, benchmark_id, phrase, meaning, origin, examples_json, category, profanity, \
             offense FROM memes WHERE benchmark_id = $1 ORDER BY id",
        )
        .bind(benchmark_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let examples: String = r.try_get("examples_json").map_err(StorageError::from)?;
                Ok(MemeRecord {
                    id: r.try_get("id")?,
                    benchmark_id: r.try_get("benchmark_id")?,
                    phrase: r.try_get("phrase")?,
                    meaning: r.try_get("meaning")?,
                    origin: r.try_get("origin")?,
                    examples: decode_json("memes.examples_json", &examples)?,
                    category: r.try_get("category")?,
                    profanity: r.try_get::<i64, _>("profanity")? != 0,
                    offense: r.try_get::<i64, _>("offense")? != 0,
                })
            })
            .collect::<Result<_, StorageError>>()
    }

    /// The source meme of each item of a task (item id → meme id).
    pub async fn item_memes(
        &self,
        task_id: &str,
    ) -> Result<Vec<(String, Option<String>)>, StorageError> {
        let rows =
            sqlx::query("SELECT id, meme_id FROM items WHERE task_id = $1 ORDER BY ordinal, id")
                .bind(task_id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("meme_id")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Storage {
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

/// One item as the start-up upgrade sees it.
#[derive(Debug, Clone)]
pub struct UpgradeItemRow {
    /// Current id.
    pub id: String,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Source meme, if any.
    pub meme_id: Option<String>,
    /// Current source id (NULL before the backfill).
    pub source_id: Option<String>,
    /// Current split.
    pub split: String,
    /// Current board half.
    pub board_half: String,
}

/// A task as the start-up upgrade sees it.
#[derive(Debug, Clone)]
pub struct UpgradeTaskRow {
    /// Task id.
    pub id: String,
    /// Kind key.
    pub kind: String,
    /// Slug of the benchmark (the namespace of minted ids).
    pub benchmark_slug: String,
    /// Category keys JSON.
    pub categories_json: String,
}

/// What the start-up upgrade changes for one item.
#[derive(Debug, Clone)]
pub struct ItemChange {
    /// Id now.
    pub old_id: String,
    /// Id after (same as `old_id` when only the split changes).
    pub new_id: String,
    /// Source id after.
    pub source_id: String,
    /// Split after.
    pub split: String,
    /// Board half after.
    pub board_half: String,
}

/// A submission rewritten by the start-up upgrade (ids re-keyed, summaries re-derived).
#[derive(Debug, Clone)]
pub struct SubmissionRewrite {
    /// Submission id.
    pub id: String,
    /// Per-item scores JSON.
    pub item_scores_json: String,
    /// Public-board summary JSON.
    pub public_summary_json: String,
    /// Private-board summary JSON.
    pub private_summary_json: String,
    /// Secondary metrics (None when they cannot be re-derived).
    pub extra_json: Option<String>,
}

impl Storage {
    /// Every task with its benchmark slug (start-up upgrade).
    pub async fn upgrade_tasks(&self) -> Result<Vec<UpgradeTaskRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT t.id, t.kind, b.slug AS benchmark_slug, t.categories_json FROM tasks t \
             JOIN benchmarks b ON b.id = t.benchmark_id ORDER BY t.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UpgradeTaskRow {
                    id: r.try_get("id")?,
                    kind: r.try_get("kind")?,
                    benchmark_slug: r.try_get("benchmark_slug")?,
                    categories_json: r.try_get("categories_json")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The items of a task with id, prompt, source and split (start-up upgrade).
    pub async fn upgrade_items(&self, task_id: &str) -> Result<Vec<UpgradeItemRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, prompt_json, meme_id, source_id, split, board_half FROM items \
             WHERE task_id = $1 ORDER BY ordinal, id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(UpgradeItemRow {
                    id: r.try_get("id")?,
                    prompt_json: r.try_get("prompt_json")?,
                    meme_id: r.try_get("meme_id")?,
                    source_id: r.try_get("source_id")?,
                    split: r.try_get("split")?,
                    board_half: r.try_get("board_half")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Submissions of a task with their per-item scores (start-up upgrade).
    pub async fn task_submissions_with_items(
        &self,
        task_id: &str,
    ) -> Result<Vec<SubmissionRecord>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {SUBMISSION_COLUMNS}, item_scores_json FROM submissions WHERE task_id = $1 \
             ORDER BY created_at, id"
        ))
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| submission_from_row(r, true))
            .collect::<Result<_, _>>()?)
    }

    /// Applies the start-up upgrade of one task in one transaction: re-keys items (a copy
    /// under the new id, then session items and answers moved to it, then the old row
    /// deleted, so foreign keys hold at every step on both engines), sets sources, splits and
    /// board halves, and rewrites the task's submissions.
    pub async fn apply_item_upgrade(
        &self,
        changes: &[ItemChange],
        submissions: &[SubmissionRewrite],
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        for c in changes {
            if c.new_id != c.old_id {
                sqlx::query(
                    "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                     flagged, meme_id, split, board_half, source_id) \
                     SELECT $1, task_id, ordinal, category, prompt_json, gold_json, flagged, \
                     meme_id, $2, $3, $4 FROM items WHERE id = $5",
                )
                .bind(&c.new_id)
                .bind(&c.split)
                .bind(&c.board_half)
                .bind(&c.source_id)
                .bind(&c.old_id)
                .execute(&mut *tx)
                .await?;
                for table in ["session_items", "answers"] {
                    sqlx::query(&format!(
                        "UPDATE {table} SET item_id = $1 WHERE item_id = $2"
                    ))
                    .bind(&c.new_id)
                    .bind(&c.old_id)
                    .execute(&mut *tx)
                    .await?;
                }
                sqlx::query("DELETE FROM items WHERE id = $1")
                    .bind(&c.old_id)
                    .execute(&mut *tx)
                    .await?;
            } else {
                sqlx::query(
                    "UPDATE items SET split = $1, board_half = $2, source_id = $3 WHERE id = $4",
                )
                .bind(&c.split)
                .bind(&c.board_half)
                .bind(&c.source_id)
                .bind(&c.old_id)
                .execute(&mut *tx)
                .await?;
            }
        }
        for s in submissions {
            sqlx::query(
                "UPDATE submissions SET item_scores_json = $1, public_summary_json = $2, \
                 private_summary_json = $3, extra_json = $4 WHERE id = $5",
            )
            .bind(&s.item_scores_json)
            .bind(&s.public_summary_json)
            .bind(&s.private_summary_json)
            .bind(&s.extra_json)
            .bind(&s.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

//! Benchmarks, memes, tasks and items: the one-transaction import, and reading a task's items.

use super::*;
use memeboard_core::api::BoardSplit;
use memeboard_core::predictions::Split;
use sqlx::Row;

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

impl TaskRecord {
    /// The task's kind, parsed from its stored key: the one parse every layer uses (an
    /// unknown key, e.g. from a newer version's database, is an error naming it).
    pub fn task_kind(&self) -> anyhow::Result<memeboard_core::kinds::TaskKind> {
        memeboard_core::kinds::TaskKind::parse(&self.kind)
            .ok_or_else(|| anyhow::anyhow!("unknown task kind `{}`", self.kind))
    }
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

/// A query under construction on the storage's pool, for the binders below.
pub(super) type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

impl TaskRecord {
    /// Binds the task's columns `id, benchmark_id, slug, kind, title, description,
    /// categories_json, batch_size, quiz_open` (in that order) to the next placeholders: every
    /// statement that writes a task row names them so.
    pub(super) fn bind_columns<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q> {
        query
            .bind(&self.id)
            .bind(&self.benchmark_id)
            .bind(&self.slug)
            .bind(&self.kind)
            .bind(&self.title)
            .bind(&self.description)
            .bind(&self.categories_json)
            .bind(self.batch_size)
            .bind(i64::from(self.quiz_open))
    }
}

impl ItemRecord {
    /// Binds the item's columns `id, task_id, ordinal, category, prompt_json, gold_json,
    /// flagged, meme_id, split, board_half, source_id` (in that order) to the next
    /// placeholders: every statement that writes an item row names them so.
    pub(super) fn bind_columns<'q>(&'q self, query: AnyQuery<'q>) -> AnyQuery<'q> {
        query
            .bind(&self.id)
            .bind(&self.task_id)
            .bind(self.ordinal)
            .bind(&self.category)
            .bind(&self.prompt_json)
            .bind(&self.gold_json)
            .bind(i64::from(self.flagged))
            .bind(&self.meme_id)
            .bind(&self.split)
            .bind(&self.board_half)
            .bind(&self.source_id)
    }
}

pub(super) fn task_from_row(row: &impl NamedColumns) -> Result<TaskRecord, sqlx::Error> {
    Ok(TaskRecord {
        id: row.column("id")?,
        benchmark_id: row.column("benchmark_id")?,
        slug: row.column("slug")?,
        kind: row.column("kind")?,
        title: row.column("title")?,
        description: row.column("description")?,
        categories_json: row.column("categories_json")?,
        batch_size: row.column("batch_size")?,
        quiz_open: row.column::<i64>("quiz_open")? != 0,
    })
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
    /// Whether the item is scored by the given board view: a test item of that half, any
    /// test item for [`BoardSplit::Whole`], any item for [`BoardSplit::All`].
    pub fn on_board(&self, half: BoardSplit) -> bool {
        scored_on(self.split, self.board_half, half)
    }
}

/// Whether an item of `split` and `board_half` is scored by board view `view`.
fn scored_on(split: Split, board_half: BoardSplit, view: BoardSplit) -> bool {
    match split {
        Split::Test => view.covers(board_half),
        Split::Dev => view.includes_dev(),
    }
}

impl Storage {
    /// Imports a benchmark with its memes, tasks, items and media in one transaction (all or
    /// nothing). Existing rows with the same ids are updated, so re-imports keep ids.
    pub async fn import_benchmark(
        &self,
        benchmark: &BenchmarkRecord,
        memes: &[MemeRecord],
        tasks: &[(TaskRecord, Vec<ItemRecord>)],
        media: &[MediaRecord],
    ) -> Result<(), StorageError> {
        self.import_benchmark_revealing(benchmark, memes, tasks, media, &[])
            .await
    }

    /// [`Storage::import_benchmark`], also recording in the same transaction which task's
    /// public inputs reveal which other task's gold (`(revealing, hidden)` task ids), so that
    /// no revealing task is ever stored without the rule that withholds its test items.
    pub async fn import_benchmark_revealing(
        &self,
        benchmark: &BenchmarkRecord,
        memes: &[MemeRecord],
        tasks: &[(TaskRecord, Vec<ItemRecord>)],
        media: &[MediaRecord],
        reveals: &[(String, String)],
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
            task.bind_columns(sqlx::query(
                "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, \
             categories_json, batch_size, quiz_open, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (id) DO UPDATE SET title = excluded.title, \
             description = excluded.description, categories_json = excluded.categories_json, \
             batch_size = excluded.batch_size, quiz_open = excluded.quiz_open, \
             gold_version = tasks.gold_version + 1, embedding_baseline = NULL, \
             embedding_model = NULL, reference_json = NULL",
            ))
            .bind(now + n as i64)
            .execute(&mut *tx)
            .await?;
            for it in items {
                it.bind_columns(sqlx::query(
                    "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                 flagged, meme_id, split, board_half, source_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
                 ON CONFLICT (id) DO UPDATE SET ordinal = excluded.ordinal, \
                 category = excluded.category, prompt_json = excluded.prompt_json, \
                 gold_json = excluded.gold_json, flagged = excluded.flagged, \
                 meme_id = excluded.meme_id, split = excluded.split, \
                 board_half = excluded.board_half, source_id = excluded.source_id",
                ))
                .execute(&mut *tx)
                .await?;
            }
        }
        Self::insert_media(&mut tx, media, now).await?;
        Self::insert_gold_reveals(&mut tx, reveals).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Adds one task with its items and media to an existing benchmark, in one transaction
    /// (the start-up upgrade's new tasks; the rows are the ones an import writes).
    pub async fn add_task(
        &self,
        task: &TaskRecord,
        items: &[ItemRecord],
        media: &[MediaRecord],
    ) -> Result<(), StorageError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        task.bind_columns(sqlx::query(
            "INSERT INTO tasks (id, benchmark_id, slug, kind, title, description, \
             categories_json, batch_size, quiz_open, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        ))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for it in items {
            it.bind_columns(sqlx::query(
                "INSERT INTO items (id, task_id, ordinal, category, prompt_json, gold_json, \
                 flagged, meme_id, split, board_half, source_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            ))
            .execute(&mut *tx)
            .await?;
        }
        Self::insert_media(&mut tx, media, now).await?;
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

    /// All items of a task with gold and split, in task order.
    pub async fn task_items(&self, task_id: &str) -> Result<Vec<TaskItemRow>, StorageError> {
        self.task_items_where(task_id, "TRUE").await
    }

    /// The items of a task (alias `i`) that meet `condition`, a fixed SQL condition of this
    /// module's own, in task order.
    pub(super) async fn task_items_where(
        &self,
        task_id: &str,
        condition: &str,
    ) -> Result<Vec<TaskItemRow>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT i.id, i.category, i.prompt_json, i.gold_json, i.split, i.board_half \
             FROM items i WHERE i.task_id = $1 AND {condition} ORDER BY i.ordinal, i.id"
        ))
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(task_item_from_row)
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Each item of a task with its source id (the meme, comic or clip it is derived from,
    /// shared by every task's items of that source), in task order; items stored without one
    /// (before source ids existed) are left out.
    pub async fn task_source_ids(
        &self,
        task_id: &str,
    ) -> Result<Vec<(String, String)>, StorageError> {
        let rows = sqlx::query(
            "SELECT i.id, i.source_id FROM items i WHERE i.task_id = $1 ORDER BY i.ordinal, i.id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let source: Option<String> = r.try_get("source_id")?;
            if let Some(source) = source {
                out.push((r.try_get("id")?, source));
            }
        }
        Ok(out)
    }

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

    /// The ids of a task's items that board view `view` scores (see
    /// [`TaskItemRow::on_board`]), read without their prompts and gold.
    pub async fn items_on_board(
        &self,
        task_id: &str,
        view: BoardSplit,
    ) -> Result<std::collections::HashSet<String>, StorageError> {
        let rows = sqlx::query("SELECT id, split, board_half FROM items WHERE task_id = $1")
            .bind(task_id)
            .fetch_all(&self.pool)
            .await?;
        let mut ids = std::collections::HashSet::with_capacity(rows.len());
        for r in &rows {
            let split = decode_split(&r.try_get::<String, _>("split")?)?;
            let half = decode_half(&r.try_get::<String, _>("board_half")?)?;
            if scored_on(split, half, view) {
                ids.insert(r.try_get("id")?);
            }
        }
        Ok(ids)
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

/// One item row (`id, category, prompt_json, gold_json, split, board_half`).
pub(super) fn task_item_from_row(r: &sqlx::any::AnyRow) -> Result<TaskItemRow, sqlx::Error> {
    Ok(TaskItemRow {
        id: r.try_get("id")?,
        category: r.try_get("category")?,
        prompt_json: r.try_get("prompt_json")?,
        gold_json: r.try_get("gold_json")?,
        split: decode_split(&r.try_get::<String, _>("split")?)?,
        board_half: decode_half(&r.try_get::<String, _>("board_half")?)?,
    })
}

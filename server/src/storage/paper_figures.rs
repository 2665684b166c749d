//! Published figures of a benchmark's papers: replaced as a whole on import, read per task
//! for its board.

use super::*;
use sqlx::Row;

/// A task of a benchmark, as the figures importer resolves names against.
#[derive(Debug, Clone)]
pub struct BenchmarkTaskRow {
    /// Task id.
    pub id: String,
    /// Task slug.
    pub slug: String,
    /// Kind key.
    pub kind: String,
    /// Categories (JSON of `CategoryInfo`s).
    pub categories_json: String,
}

/// One stored published figure.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperFigureRecord {
    /// The task it belongs to.
    pub task_id: String,
    /// Model (or human group) as the paper names it.
    pub model: String,
    /// Run conditions (JSON object, defaults filled in).
    pub conditions_json: String,
    /// Metric key.
    pub metric: String,
    /// Category key; `None`: overall.
    pub category: Option<String>,
    /// Item subset.
    pub subset: String,
    /// The value.
    pub value: f64,
    /// Items behind it, when given.
    pub n: Option<i64>,
    /// The paper and its table.
    pub source: String,
}

impl Storage {
    /// The id of the benchmark `slug` and its tasks (`None`: no such benchmark).
    pub async fn benchmark_tasks(
        &self,
        slug: &str,
    ) -> Result<Option<(String, Vec<BenchmarkTaskRow>)>, StorageError> {
        let Some(row) = sqlx::query("SELECT id FROM benchmarks WHERE slug = $1")
            .bind(slug)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let id: String = row.try_get("id")?;
        let tasks = sqlx::query(
            "SELECT id, slug, kind, categories_json FROM tasks WHERE benchmark_id = $1 ORDER BY slug",
        )
        .bind(&id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(BenchmarkTaskRow {
                id: r.try_get("id")?,
                slug: r.try_get("slug")?,
                kind: r.try_get("kind")?,
                categories_json: r.try_get("categories_json")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
        Ok(Some((id, tasks)))
    }

    /// Replaces every published figure of a benchmark with `figures`, in one transaction.
    pub async fn replace_paper_figures(
        &self,
        benchmark_id: &str,
        figures: &[PaperFigureRecord],
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM paper_figures WHERE benchmark_id = $1")
            .bind(benchmark_id)
            .execute(&mut *tx)
            .await?;
        let now = now_ms();
        for (ordinal, f) in figures.iter().enumerate() {
            let ordinal = i64::try_from(ordinal).unwrap_or(i64::MAX);
            sqlx::query(
                "INSERT INTO paper_figures (id, benchmark_id, task_id, ordinal, model, \
                 conditions_json, metric, category, subset, value, n, source, imported_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(format!("{benchmark_id}:{ordinal}"))
            .bind(benchmark_id)
            .bind(&f.task_id)
            .bind(ordinal)
            .bind(&f.model)
            .bind(&f.conditions_json)
            .bind(&f.metric)
            .bind(&f.category)
            .bind(&f.subset)
            .bind(f.value)
            .bind(f.n)
            .bind(&f.source)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The published figures of a task, in file order.
    pub async fn task_paper_figures(
        &self,
        task_id: &str,
    ) -> Result<Vec<PaperFigureRecord>, StorageError> {
        let rows = sqlx::query(
            "SELECT task_id, model, conditions_json, metric, category, subset, value, n, source \
             FROM paper_figures WHERE task_id = $1 ORDER BY ordinal",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok(PaperFigureRecord {
                    task_id: r.try_get("task_id")?,
                    model: r.try_get("model")?,
                    conditions_json: r.try_get("conditions_json")?,
                    metric: r.try_get("metric")?,
                    category: r.try_get("category")?,
                    subset: r.try_get("subset")?,
                    value: r.try_get("value")?,
                    n: r.try_get("n")?,
                    source: r.try_get("source")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?)
    }
}

//! Owners and studies: owner tokens, the owner action log, a task's fieldwork settings, attention
//! checks, screen-outs, and the per-session data behind exclusions and live progress.

mod fieldwork;

pub use fieldwork::*;

use super::*;
use sqlx::Row;

/// An owner of a benchmark (a researcher running its quizzes).
#[derive(Debug, Clone)]
pub struct OwnerRecord {
    /// Id (`O-…`).
    pub id: String,
    /// The benchmark owned.
    pub benchmark_id: String,
    /// Its slug.
    pub benchmark_slug: String,
    /// Name for the action log.
    pub name: String,
    /// SHA-256 of the token.
    pub token_hash: String,
    /// `admin` or `cli`.
    pub created_by: String,
}

/// A logged owner action.
#[derive(Debug, Clone)]
pub struct OwnerActionRow {
    /// Owner id (`None`: the admin token).
    pub owner_id: Option<String>,
    /// Actor name.
    pub actor_name: String,
    /// Task slug, for task actions.
    pub task_slug: Option<String>,
    /// Action key.
    pub action: String,
    /// Detail JSON.
    pub detail_json: String,
    /// Time.
    pub created_at: i64,
}

/// A new action to log.
#[derive(Debug, Clone)]
pub struct NewOwnerAction<'a> {
    /// Owner id (`None`: the admin token).
    pub owner_id: Option<&'a str>,
    /// Actor name.
    pub actor_name: &'a str,
    /// Benchmark.
    pub benchmark_id: &'a str,
    /// Task, for task actions.
    pub task_id: Option<&'a str>,
    /// Action key.
    pub action: &'a str,
    /// Detail JSON.
    pub detail_json: &'a str,
}

impl Storage {
    /// The id of a benchmark by slug.
    pub async fn benchmark_id(&self, slug: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT id FROM benchmarks WHERE slug = $1")
            .bind(slug)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("id")).transpose()?)
    }

    /// Stores a new owner and logs its creation in one transaction.
    pub async fn create_owner(
        &self,
        owner: &OwnerRecord,
        log: &NewOwnerAction<'_>,
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO owners (id, benchmark_id, name, token_hash, created_by, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&owner.id)
        .bind(&owner.benchmark_id)
        .bind(&owner.name)
        .bind(&owner.token_hash)
        .bind(&owner.created_by)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        insert_action(&mut tx, log).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The owner holding a token (by its hash).
    pub async fn find_owner_by_token_hash(
        &self,
        hash: &str,
    ) -> Result<Option<OwnerRecord>, StorageError> {
        let row = sqlx::query(
            "SELECT o.id, o.benchmark_id, b.slug, o.name, o.token_hash, o.created_by \
             FROM owners o JOIN benchmarks b ON b.id = o.benchmark_id WHERE o.token_hash = $1",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(OwnerRecord {
                id: r.try_get("id")?,
                benchmark_id: r.try_get("benchmark_id")?,
                benchmark_slug: r.try_get("slug")?,
                name: r.try_get("name")?,
                token_hash: r.try_get("token_hash")?,
                created_by: r.try_get("created_by")?,
            })
        })
        .transpose()
        .map_err(|e: sqlx::Error| e.into())
    }

    /// Logs one owner action.
    pub async fn log_owner_action(&self, a: &NewOwnerAction<'_>) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        insert_action(&mut tx, a).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The latest actions on a benchmark, newest first.
    pub async fn owner_actions(
        &self,
        benchmark_id: &str,
        limit: i64,
    ) -> Result<Vec<OwnerActionRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT a.owner_id, a.actor_name, t.slug AS task_slug, a.action, a.detail_json, \
             a.created_at FROM owner_actions a LEFT JOIN tasks t ON t.id = a.task_id \
             WHERE a.benchmark_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $2",
        )
        .bind(benchmark_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(OwnerActionRow {
                    owner_id: r.try_get("owner_id")?,
                    actor_name: r.try_get("actor_name")?,
                    task_slug: r.try_get("task_slug")?,
                    action: r.try_get("action")?,
                    detail_json: r.try_get("detail_json")?,
                    created_at: r.try_get("created_at")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

pub(super) async fn insert_action(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: &NewOwnerAction<'_>,
) -> Result<(), sqlx::Error> {
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes)
        .map_err(|e| sqlx::Error::Protocol(format!("OS randomness: {e}")))?;
    let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query(
        "INSERT INTO owner_actions (id, owner_id, actor_name, benchmark_id, task_id, action, \
         detail_json, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(id)
    .bind(a.owner_id)
    .bind(a.actor_name)
    .bind(a.benchmark_id)
    .bind(a.task_id)
    .bind(a.action)
    .bind(a.detail_json)
    .bind(now_ms())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

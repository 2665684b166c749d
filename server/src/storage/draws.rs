//! The secret keys of the draws that hide gold (`draw_keys`), and the item rows and writes of
//! re-drawing stored draws made from public data by earlier versions (see the crate's `draws.rs`
//! and `upgrade/draws.rs`).

use super::*;
use sqlx::Row;

/// One item whose stored draw may be re-drawn (start-up upgrade).
#[derive(Debug, Clone)]
pub struct DrawItemRow {
    /// Item id.
    pub id: String,
    /// The comic's or clip's source id (public).
    pub source_id: Option<String>,
    /// Prompt JSON.
    pub prompt_json: String,
    /// Gold JSON.
    pub gold_json: String,
}

/// A task whose stored draws may be re-drawn (start-up upgrade).
#[derive(Debug, Clone)]
pub struct DrawTaskRow {
    /// Task id.
    pub id: String,
    /// Task slug.
    pub slug: String,
    /// Kind key.
    pub kind: String,
    /// Its benchmark's slug (names the benchmark key).
    pub benchmark_slug: String,
}

impl Storage {
    /// Every task of a kind in `kinds`, with its slug and benchmark slug.
    pub async fn draw_tasks(&self, kinds: &[&str]) -> Result<Vec<DrawTaskRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT t.id, t.slug, t.kind, b.slug AS benchmark_slug FROM tasks t \
             JOIN benchmarks b ON b.id = t.benchmark_id ORDER BY t.id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::new();
        for r in &rows {
            let kind: String = r.try_get("kind")?;
            if kinds.contains(&kind.as_str()) {
                out.push(DrawTaskRow {
                    id: r.try_get("id")?,
                    slug: r.try_get("slug")?,
                    kind,
                    benchmark_slug: r.try_get("benchmark_slug")?,
                });
            }
        }
        Ok(out)
    }

    /// The key stored under `scope` (hex), if any.
    pub async fn draw_key(&self, scope: &str) -> Result<Option<String>, StorageError> {
        let row = sqlx::query("SELECT key_hex FROM draw_keys WHERE scope = $1")
            .bind(scope)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("key_hex")).transpose()?)
    }

    /// Stores `key_hex` under `scope` unless a key is already there (two servers starting at
    /// once both end up with the first one's), and returns the stored key.
    pub async fn insert_draw_key_if_absent(
        &self,
        scope: &str,
        key_hex: &str,
    ) -> Result<String, StorageError> {
        sqlx::query(
            "INSERT INTO draw_keys (scope, key_hex, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (scope) DO NOTHING",
        )
        .bind(scope)
        .bind(key_hex)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT key_hex FROM draw_keys WHERE scope = $1")
            .bind(scope)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("key_hex")?)
    }

    /// Stores `key_hex` under `scope`, replacing any key there (`memeboard secret import`).
    pub async fn set_draw_key(&self, scope: &str, key_hex: &str) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO draw_keys (scope, key_hex, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (scope) DO UPDATE SET key_hex = excluded.key_hex, \
             created_at = excluded.created_at",
        )
        .bind(scope)
        .bind(key_hex)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Whether anything was recorded against a task: a session or a submission (a stored
    /// draw of such a task is not re-drawn, since answers refer to what was shown).
    pub async fn task_has_answers_or_submissions(
        &self,
        task_id: &str,
    ) -> Result<bool, StorageError> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM sessions WHERE task_id = $1) AS sessions, \
             (SELECT COUNT(*) FROM submissions WHERE task_id = $1) AS submissions",
        )
        .bind(task_id)
        .fetch_one(&self.pool)
        .await?;
        let sessions: i64 = row.try_get("sessions")?;
        let submissions: i64 = row.try_get("submissions")?;
        Ok(sessions + submissions > 0)
    }

    /// A task's items with prompt and gold (start-up re-draw).
    pub async fn draw_items(&self, task_id: &str) -> Result<Vec<DrawItemRow>, StorageError> {
        let rows = sqlx::query(
            "SELECT id, source_id, prompt_json, gold_json FROM items WHERE task_id = $1 \
             ORDER BY ordinal, id",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(DrawItemRow {
                    id: r.try_get("id")?,
                    source_id: r.try_get("source_id")?,
                    prompt_json: r.try_get("prompt_json")?,
                    gold_json: r.try_get("gold_json")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Writes re-drawn prompts and golds (`(id, prompt_json, gold_json)`) in one transaction.
    pub async fn rewrite_draws(
        &self,
        items: &[(String, String, String)],
    ) -> Result<(), StorageError> {
        let mut tx = self.pool.begin().await?;
        for (id, prompt_json, gold_json) in items {
            sqlx::query("UPDATE items SET prompt_json = $1, gold_json = $2 WHERE id = $3")
                .bind(prompt_json)
                .bind(gold_json)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}

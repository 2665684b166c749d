//! Cross-task gold: which task's public inputs reveal which other task's hidden test gold, and
//! what a revealing task withholds (items, quiz candidates, media) until that gold is revealed.

use super::*;

/// SQL condition, true for an item row aliased `alias` that its task must withhold: the task
/// reveals the gold of a task whose test gold is not revealed yet, and that task has a test
/// item of the same source (splits are per source, so it is the same comic, meme or clip).
/// The reveal pairs are looked up first (a task that reveals nothing costs one index probe
/// per item); joined with the items, SQLite searched every item of the same source first.
pub(super) fn withheld(alias: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM task_gold_reveals g \
         JOIN tasks h ON h.id = g.hidden_task_id \
         WHERE g.task_id = {alias}.task_id AND h.test_gold_revealed = 0 \
         AND EXISTS (SELECT 1 FROM items hi WHERE hi.task_id = g.hidden_task_id \
         AND hi.source_id = {alias}.source_id AND hi.split = 'test'))"
    )
}

impl Storage {
    /// Records that the public inputs of the first task of each pair reveal the gold of the
    /// second (idempotent; pairs naming a task that does not exist are skipped). Returns the
    /// pairs added.
    pub async fn record_gold_reveals(
        &self,
        pairs: &[(String, String)],
    ) -> Result<usize, StorageError> {
        let mut tx = self.pool.begin().await?;
        let added = Self::insert_gold_reveals(&mut tx, pairs).await?;
        tx.commit().await?;
        Ok(added)
    }

    /// [`Storage::record_gold_reveals`] inside a transaction (an import's).
    pub(super) async fn insert_gold_reveals(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        pairs: &[(String, String)],
    ) -> Result<usize, StorageError> {
        let mut added = 0;
        for (task, hidden) in pairs {
            let done = sqlx::query(
                "INSERT INTO task_gold_reveals (task_id, hidden_task_id) SELECT $1, $2 \
                 WHERE EXISTS (SELECT 1 FROM tasks WHERE id = $1) \
                 AND EXISTS (SELECT 1 FROM tasks WHERE id = $2) \
                 ON CONFLICT (task_id, hidden_task_id) DO NOTHING",
            )
            .bind(task)
            .bind(hidden)
            .execute(&mut **tx)
            .await?;
            added += usize::try_from(done.rows_affected()).unwrap_or(0);
        }
        Ok(added)
    }

    /// Whether the owner has revealed a task's test gold (tasks revealing it then offer every
    /// item).
    pub async fn test_gold_revealed(&self, task_id: &str) -> Result<bool, StorageError> {
        let row = sqlx::query("SELECT test_gold_revealed FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get::<i64, _>("test_gold_revealed")? != 0,
            None => false,
        })
    }

    /// Sets whether a task's test gold is revealed.
    pub async fn set_test_gold_revealed(
        &self,
        task_id: &str,
        revealed: bool,
    ) -> Result<(), StorageError> {
        sqlx::query("UPDATE tasks SET test_gold_revealed = $2 WHERE id = $1")
            .bind(task_id)
            .bind(i64::from(revealed))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The items a task offers publicly (inputs, templates, manifests, scoring, item
    /// listings), in task order: every item but those it withholds (see [`withheld`]).
    pub async fn offered_task_items(
        &self,
        task_id: &str,
    ) -> Result<Vec<TaskItemRow>, StorageError> {
        self.task_items_where(task_id, &format!("NOT {}", withheld("i")))
            .await
    }

    /// The open reference items of a task: dev items whose gold it does not withhold, in task
    /// order (the explanation identification pool: public, so scoring against it reveals no
    /// hidden meaning).
    pub async fn open_dev_items(&self, task_id: &str) -> Result<Vec<TaskItemRow>, StorageError> {
        self.task_items_where(
            task_id,
            &format!("i.split = 'dev' AND NOT {}", withheld("i")),
        )
        .await
    }

    /// How many imports rewrote a task's items (caches derived from its gold follow it).
    pub async fn task_gold_version(&self, task_id: &str) -> Result<i64, StorageError> {
        let row = sqlx::query("SELECT gold_version FROM tasks WHERE id = $1")
            .bind(task_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("gold_version")?,
            None => 0,
        })
    }

    /// Whether a media file must not be served: its task withholds an item showing it, and no
    /// item the task offers shows it. Tasks revealing no unrevealed gold cost one indexed
    /// lookup.
    pub async fn media_withheld(&self, name: &str) -> Result<bool, StorageError> {
        let guarded = sqlx::query(
            "SELECT 1 AS one FROM media m \
             JOIN task_gold_reveals g ON g.task_id = m.task_id \
             JOIN tasks h ON h.id = g.hidden_task_id \
             WHERE m.name = $1 AND h.test_gold_revealed = 0 LIMIT 1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        if guarded.is_none() {
            return Ok(false);
        }
        // Names are `<32 hex>.<ext>` (checked by the route), so the pattern has no wildcard.
        let pattern = format!("%/media/{name}%");
        let row = sqlx::query(&format!(
            "SELECT 1 AS one FROM media m JOIN items i ON i.task_id = m.task_id \
             WHERE m.name = $1 AND i.prompt_json LIKE $2 AND {} \
             AND NOT EXISTS (SELECT 1 FROM items o WHERE o.task_id = m.task_id \
             AND o.prompt_json LIKE $2 AND NOT {}) LIMIT 1",
            withheld("i"),
            withheld("o")
        ))
        .bind(name)
        .bind(pattern)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.is_some())
    }
}

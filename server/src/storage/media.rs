//! Media files (panel images, later audio and video clips): stored once per distinct content in
//! `media_blobs`, served under opaque per-task names from `media`.

use super::*;

/// One served media file, as an import writes it.
#[derive(Debug, Clone)]
pub struct MediaRecord {
    /// The opaque served name (`<32 hex>.<ext>`), unique per task.
    pub name: String,
    /// The task whose items show it.
    pub task_id: String,
    /// The content's id: its SHA-256, hex (shared by every name of the same bytes).
    pub sha256: String,
    /// `image/png`, `image/jpeg`, `image/webp`…
    pub content_type: String,
    /// The file.
    pub bytes: std::sync::Arc<Vec<u8>>,
}

/// A stored media file, for serving.
#[derive(Debug, Clone)]
pub struct StoredMedia {
    /// Content type.
    pub content_type: String,
    /// SHA-256 of the bytes, hex.
    pub sha256: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A task's media file, for archives and inputs.
#[derive(Debug, Clone)]
pub struct TaskMedia {
    /// Served name.
    pub name: String,
    /// SHA-256, hex.
    pub sha256: String,
    /// Size in bytes.
    pub size: i64,
}

impl Storage {
    /// Writes media rows inside an import transaction (idempotent: re-imports keep names).
    pub(super) async fn insert_media(
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        media: &[MediaRecord],
        now: i64,
    ) -> Result<(), StorageError> {
        for m in media {
            sqlx::query(
                "INSERT INTO media_blobs (id, content_type, size, sha256, bytes, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING",
            )
            .bind(&m.sha256)
            .bind(&m.content_type)
            .bind(m.bytes.len() as i64)
            .bind(&m.sha256)
            .bind(m.bytes.as_slice())
            .bind(now)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO media (name, blob_id, task_id, created_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (name) DO NOTHING",
            )
            .bind(&m.name)
            .bind(&m.sha256)
            .bind(&m.task_id)
            .bind(now)
            .execute(&mut **tx)
            .await?;
        }
        Ok(())
    }

    /// A media file by its served name.
    pub async fn media(&self, name: &str) -> Result<Option<StoredMedia>, StorageError> {
        let row = sqlx::query(
            "SELECT b.content_type, b.sha256, b.bytes FROM media m \
             JOIN media_blobs b ON b.id = m.blob_id WHERE m.name = $1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            Ok(StoredMedia {
                content_type: r.try_get("content_type")?,
                sha256: r.try_get("sha256")?,
                bytes: r.try_get("bytes")?,
            })
        })
        .transpose()
        .map_err(StorageError::Database)
    }

    /// The distinct MIME types of a task's sound and video files, sorted (the quiz page's
    /// device check).
    pub async fn task_media_types(&self, task_id: &str) -> Result<Vec<String>, StorageError> {
        let rows = sqlx::query(
            "SELECT DISTINCT b.content_type FROM media m JOIN media_blobs b ON b.id = m.blob_id \
             WHERE m.task_id = $1 AND (b.content_type LIKE 'audio/%' OR b.content_type LIKE \
             'video/%') ORDER BY b.content_type",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("content_type"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StorageError::Database)
    }

    /// The media files of a task, by name.
    pub async fn task_media(&self, task_id: &str) -> Result<Vec<TaskMedia>, StorageError> {
        let rows = sqlx::query(
            "SELECT m.name, b.sha256, b.size FROM media m JOIN media_blobs b ON b.id = m.blob_id \
             WHERE m.task_id = $1 ORDER BY m.name",
        )
        .bind(task_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TaskMedia {
                    name: r.try_get("name")?,
                    sha256: r.try_get("sha256")?,
                    size: r.try_get("size")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StorageError::Database)
    }
}

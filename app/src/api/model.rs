//! The embedding model behind explanation scores, and the size of its browser copy.

use super::{get_json, ApiError};

/// `GET /api/embedding-model`: the model behind explanation scores and its browser copy.
pub async fn embedding_model() -> Result<memeboard_core::api::EmbeddingModelInfo, ApiError> {
    get_json("/api/embedding-model").await
}

/// The size in bytes of the browser model's weights, from its manifest (`browser.json`,
/// about 1 KB; the weights themselves are not fetched).
pub async fn model_manifest_bytes(manifest_url: &str) -> Result<u64, ApiError> {
    /// The part of the manifest needed here.
    #[derive(serde::Deserialize)]
    struct Manifest {
        /// Size of the weights file.
        bytes: u64,
    }
    get_json::<Manifest>(manifest_url).await.map(|m| m.bytes)
}

//! Wire types of the JSON API under `/api/`, shared by the server (which produces them) and
//! the browser app (which consumes them).
//!
//! Types here never carry gold for an unanswered item: gold-bearing fields exist only on
//! [`ResultsResponse`], which the server builds after the whole batch is recorded.

pub use crate::crowd::{CrowdRow, FamiliarityRow};
pub use crate::kinds::explanation::{ExplanationReference, ExplanationScore};
pub use crate::kinds::{AnswerInput, PromptView, ReviewDetail, ScoreScale};
use serde::{Deserialize, Serialize};

mod boards;
mod errors;
mod owner;
mod results;
mod sessions;
mod submissions;
pub use boards::*;
pub use errors::*;
pub use owner::*;
pub use results::*;
pub use sessions::*;
pub use submissions::*;

/// `GET /api/meta`: categories and labels for the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HealthResponse {
    /// "ok".
    pub status: String,
    /// Storage backend in use (`sqlite` or `postgres`).
    pub database: String,
}

/// `GET /api/embedding-model`: which sentence-embedding model scores explanations, and where
/// the browser can download its compact copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EmbeddingModelInfo {
    /// Model name (recorded with every score).
    pub name: String,
    /// Whether the server can score (model installed).
    pub server_available: bool,
    /// URL of the browser manifest (`browser.json`: weights file, SHA-256, size, config), if
    /// the compact browser copy is installed.
    pub browser_manifest: Option<String>,
}

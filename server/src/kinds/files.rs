//! Prediction files as a capability of a kind: what a kind whose models answer in files adds
//! on the server — the files' fields, their validation and scoring, the model inputs, the
//! open dev gold, and the board's metric and gap rule. A kind names its implementation in
//! [`ServerKind::Files`](super::ServerKind::Files): itself, or [`NoFiles`] when people judge
//! its outputs instead (rating, ranking), so such a kind writes nothing for files at all.

use super::TypedItem;
use crate::error::{ApiError, ApiResult};
use crate::explain::inference::EmbeddingService;
use crate::storage::{self, BoardTaskRow};
use memeboard_core::kinds::Kind;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::msg;
use memeboard_core::predictions::{FileFormat, Limits, TaskManifest, ValidationReport};
use serde_json::{json, Value};
use std::future::Future;
use std::marker::PhantomData;

/// What scoring a valid prediction file produced, whatever its kind.
#[derive(Debug, Clone)]
pub struct ScoredFile {
    /// Per item, in task order (missing items included, scored by the kind's policy).
    pub scores: Vec<ItemScore>,
    /// Secondary metrics per board half (`{"public": [...], "private": [...]}`), if any.
    pub extra: Option<Value>,
    /// Data lines in the file.
    pub num_lines: usize,
    /// Items without a prediction.
    pub num_missing: usize,
    /// Option orders used (JSON array), for the multi-order MCQ protocol.
    pub orders_json: String,
    /// Notes for the uploader (e.g. which items are missing), translated by the app.
    pub warnings: Vec<memeboard_core::messages::Message>,
    /// The file's outputs per answered item, stored with the submission for human
    /// evaluation (explanation kinds; empty for the others).
    pub outputs: Vec<storage::StoredOutput>,
}

/// The uploaded file and everything scoring it may need besides the items.
pub struct FileContext<'a> {
    /// Storage (cached baselines).
    pub storage: &'a storage::Storage,
    /// The embedding model (explanations).
    pub embeddings: &'a EmbeddingService,
    /// The task.
    pub task: &'a BoardTaskRow,
    /// The file's text.
    pub text: &'a str,
    /// Its format (JSON Lines or CSV).
    pub format: FileFormat,
    /// The size limits it is read under.
    pub limits: Limits,
}

impl FileContext<'_> {
    /// The file read by the kind's `validator` against `manifest`; a file with any problem is
    /// refused whole, its problems listed (`ApiError::Invalid`), so nothing is stored.
    pub fn validate<T>(
        &self,
        manifest: &TaskManifest,
        validator: impl FnOnce(&str, FileFormat, &TaskManifest, Limits) -> Result<T, ValidationReport>,
    ) -> ApiResult<T> {
        validator(self.text, self.format, manifest, self.limits)
            .map_err(|report| ApiError::Invalid(report.messages()))
    }
}

/// What a kind whose models answer in prediction files adds: the routes for model inputs,
/// templates, dev gold and uploads, and the board's metric, reach the kind only through it.
pub trait PredictionFiles {
    /// The kind whose files these are.
    type Kind: Kind;

    /// How items without a prediction are scored, in words.
    const MISSING_POLICY: &'static str;
    /// Template fields after `item_id`, left empty for the author to fill.
    const TEMPLATE_FIELDS: &'static [&'static str];

    /// One line of `inputs.jsonl`: what a model needs to answer (no gold).
    fn inputs_line(item: &TypedItem<Self::Kind>) -> Value;
    /// One line of `dev-gold.jsonl` (called for open dev items only).
    fn dev_gold_line(item: &TypedItem<Self::Kind>) -> Value;
    /// The metric the board ranks by, named for readers; by default plain accuracy.
    fn metric_name(_embedding_model: Option<&str>) -> String {
        "accuracy".into()
    }
    /// Whether the model's item score is notably below the crowd's (the gap view); by default
    /// an item the model got wrong where most people got it right.
    ///
    /// ```
    /// use memeboard_core::kinds::text_mcq::TextMcq;
    /// use memeboard_server::kinds::PredictionFiles;
    /// assert!(TextMcq::notable_gap(0.0, 0.8));
    /// assert!(!TextMcq::notable_gap(0.0, 0.4));
    /// assert!(!TextMcq::notable_gap(1.0, 0.8));
    /// ```
    fn notable_gap(model_score: f64, crowd_score: f64) -> bool {
        model_score < 0.5 && crowd_score > 0.5
    }
    /// Validates and scores a prediction file (all or nothing: `ApiError::Invalid` lists the
    /// problems and nothing is stored).
    fn score_file(
        ctx: FileContext<'_>,
        items: &[TypedItem<Self::Kind>],
    ) -> impl Future<Output = ApiResult<ScoredFile>> + Send;
}

/// The absence of prediction files: kinds whose outputs people judge (rating, ranking) take
/// no files and have no model inputs, templates, dev gold or metric (their "gold" names the
/// submissions behind the outputs, which never leaves the server). The routes refuse such
/// tasks before any of this is reached (`leaderboard::find_task`); these are the answers
/// should anything call them anyway.
#[derive(Debug, Clone, Copy)]
pub struct NoFiles<K>(PhantomData<fn() -> K>);

impl<K: Kind> PredictionFiles for NoFiles<K> {
    type Kind = K;
    const MISSING_POLICY: &'static str = "Judging tasks take no prediction files.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &[];

    /// A line naming only the item (no output, no submission).
    fn inputs_line(item: &TypedItem<K>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category})
    }

    fn dev_gold_line(item: &TypedItem<K>) -> Value {
        Self::inputs_line(item)
    }

    fn metric_name(_embedding_model: Option<&str>) -> String {
        "judged by people (no automatic metric)".into()
    }

    fn notable_gap(_model_score: f64, _crowd_score: f64) -> bool {
        false
    }

    /// Refuses the file, naming the task.
    fn score_file(
        ctx: FileContext<'_>,
        _items: &[TypedItem<K>],
    ) -> impl Future<Output = ApiResult<ScoredFile>> + Send {
        let refused = Err(ApiError::Unprocessable(msg!(
            "judging.no_files",
            slug = ctx.task.task.slug
        )));
        async move { refused }
    }
}

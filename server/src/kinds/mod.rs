//! The server side of task kinds: what each kind adds to the core [`Kind`] for boards
//! (manifest, baseline rows, subsets), for prediction files when its models answer in them
//! ([`files::PredictionFiles`]: model inputs, templates, dev gold, file scoring) and for the
//! quiz (feedback after an answer is stored); optional hooks in [`capabilities`].
//!
//! Generic code reaches a kind with `memeboard_core::with_kind!`, so every kind must implement
//! [`ServerKind`]; a kind without it does not compile.

pub mod capabilities;
pub mod clip_mcq;
pub mod explanation;
pub mod files;
mod outcomes;
pub mod panel_explanation;
pub mod panel_order;
pub mod panel_type;
mod panels;
pub mod ranking;
pub mod rating;
pub mod text_mcq;

pub use files::{FileContext, NoFiles, PredictionFiles, ScoredFile};

use crate::error::{ApiError, ApiResult};
use crate::explain::inference::EmbeddingService;
use crate::storage::{self, BoardTaskRow, TaskItemRow};
use memeboard_core::api::{ExplanationFeedback, NamedValue, RowKind};
use memeboard_core::kinds::{ItemGold, ItemPrompt, Kind};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::{FileFormat, ManifestItem, Split, TaskManifest};
use serde_json::Value;
use std::future::Future;

/// A kind's prediction-file capability ([`ServerKind::Files`]), named where the kind is a
/// concrete type (`with_kind!`): `FilesOf::<K>::metric_name(None)`.
pub type FilesOf<K> = <K as ServerKind>::Files;

/// An item of a task, decoded into its kind's prompt and gold.
#[derive(Debug, Clone)]
pub struct TypedItem<K: Kind> {
    /// The stored row (id, category, split, board half).
    pub row: TaskItemRow,
    /// The public prompt.
    pub prompt: K::Prompt,
    /// The hidden gold.
    pub gold: K::Gold,
}

impl<K: Kind> TypedItem<K> {
    /// The item's public split (`dev` gold is downloadable; everything else is test).
    pub fn split(&self) -> Split {
        self.row.split
    }
}

/// Decodes one stored item as kind `K` (a stored item of another kind is a server error:
/// items are imported per task and a task has one kind).
pub fn typed_item<K: Kind>(row: TaskItemRow) -> ApiResult<TypedItem<K>> {
    let mismatch = |e: memeboard_core::kinds::KindMismatch| {
        ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", row.id))
    };
    let prompt: ItemPrompt = storage::decode_json("items.prompt_json", &row.prompt_json)?;
    let gold: ItemGold = storage::decode_json("items.gold_json", &row.gold_json)?;
    Ok(TypedItem {
        prompt: K::prompt_of(prompt).map_err(mismatch)?,
        gold: K::gold_of(gold).map_err(mismatch)?,
        row,
    })
}

/// Every item of a task, decoded as kind `K`, in task order.
pub async fn typed_items<K: Kind>(
    storage: &storage::Storage,
    task: &BoardTaskRow,
) -> ApiResult<Vec<TypedItem<K>>> {
    storage
        .task_items(&task.task.id)
        .await?
        .into_iter()
        .map(typed_item::<K>)
        .collect()
}

/// The items a task offers publicly, decoded as kind `K`, in task order: every item but those
/// withheld because the task's inputs reveal another task's hidden test gold for their source
/// (`Storage::offered_task_items`). Public files, scoring and item listings use these.
pub async fn offered_items<K: Kind>(
    storage: &storage::Storage,
    task: &BoardTaskRow,
) -> ApiResult<Vec<TypedItem<K>>> {
    storage
        .offered_task_items(&task.task.id)
        .await?
        .into_iter()
        .map(typed_item::<K>)
        .collect()
}

/// A baseline row scored like a model on the items of one board half (e.g. answering the
/// display order, or one seeded random answer per item).
#[derive(Debug, Clone)]
pub struct ReferenceRow {
    /// Row kind.
    pub kind: RowKind,
    /// Label (English; the app translates by kind).
    pub label: &'static str,
    /// Per-item scores, summarised like a model's.
    pub scores: Vec<ItemScore>,
    /// Secondary figures.
    pub extra: Vec<NamedValue>,
    /// Confusion matrix (classification kinds).
    pub confusion: Option<memeboard_core::metrics::ConfusionMatrix>,
}

/// What a quiz answer's feedback may use.
pub struct FeedbackContext<'a> {
    /// Storage.
    pub storage: &'a storage::Storage,
    /// The embedding model.
    pub embeddings: &'a EmbeddingService,
    /// The session's task id.
    pub task_id: &'a str,
    /// The session id.
    pub session_id: &'a str,
    /// The answered item's id.
    pub item_id: &'a str,
    /// Who may have explanations scored now (the answering client's share).
    pub admission: &'a crate::explain::admission::ScoringAdmission,
    /// The answering client (its address, or its /64 for IPv6).
    pub client: &'a str,
}

/// The board- and quiz-facing behaviour of a kind on the server.
pub trait ServerKind: Kind {
    /// Prediction files: their fields, validation and scoring, the model inputs, the open dev
    /// gold and the board's metric (see [`files::PredictionFiles`]). `Self` for kinds whose
    /// models answer in files; [`files::NoFiles`] for kinds people judge instead (rating,
    /// ranking), which then write nothing for it.
    type Files: files::PredictionFiles<Kind = Self>;
    /// Prediction files scored automatically, with the board's baseline row (see
    /// [`capabilities::AutoScoring`]); `None` (comic explanations, judging): submissions are
    /// stored unscored and people judge the outputs instead.
    const AUTO_SCORING: Option<capabilities::AutoScoring<Self>> = None;
    /// Item subsets a board can switch between besides the full set (see
    /// [`capabilities::Subsets`]); `None`: the full set only.
    const SUBSETS: Option<&'static dyn capabilities::Subsets<Self>> = None;
    /// Whether the model inputs (`inputs.jsonl`, `media.tar`, the manifest's options) hold
    /// what the kind's quiz shows a participant only later (the clip task: the question and
    /// choices come after the familiarity answer). Then, while the task's quiz is open, they
    /// are given only with an author token, and each such download is logged.
    const INPUTS_AFTER_PREFACE: bool = false;
    /// The metric keys a paper's published figures may name for the kind
    /// (`memeboard import published`), the board's primary metric first: figures on it show
    /// as the board's published rows, the others are kept for the paper tables.
    const PAPER_METRICS: &'static [&'static str] = &["accuracy"];
    /// People judge the kind's pages (rating, ranking): see [`capabilities::Judged`].
    const JUDGED: Option<&'static dyn capabilities::Judged<Self>> = None;
    /// The kind's boards can be the source of a human-evaluation study (explanations): see
    /// [`capabilities::StudySource`].
    const STUDY_SOURCE: Option<&'static dyn capabilities::StudySource<Self>> = None;
    /// The kind's gold labels items with classes other tasks' studies may sample by (the
    /// structure type): see [`capabilities::GoldStrata`].
    const GOLD_STRATA: Option<&'static dyn capabilities::GoldStrata<Self>> = None;
    /// The kind's items carry draws that earlier versions made from public data: see
    /// [`capabilities::PublicDraws`].
    const PUBLIC_DRAWS: Option<&'static dyn capabilities::PublicDraws<Self>> = None;

    /// Every category key the kind's datasets use, present in this import or not (a paper's
    /// figures may name a category the imported items lack); none by default: a task's own
    /// categories are then the only ones.
    fn category_keys() -> Vec<&'static str> {
        Vec::new()
    }

    /// Public facets of an item that analyses group answers by (e.g. a clip's language and
    /// sound type), written to the raw-data export's `facets` column (none by default).
    fn export_facets(_item: &TypedItem<Self>) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The answers a prediction file may give for an item, in the order models see them (none
    /// by default: free text and judging kinds).
    fn manifest_options(_item: &TypedItem<Self>) -> Vec<String> {
        Vec::new()
    }
    /// The item as a prediction file may name it (no gold).
    fn manifest_item(item: &TypedItem<Self>) -> ManifestItem {
        ManifestItem {
            id: item.row.id.clone(),
            category: item.row.category.clone(),
            split: item.split(),
            options: Self::manifest_options(item),
        }
    }
    /// What a prediction file may name, for the kind's validator (`task`: the slug, or empty
    /// where the validator does not name it).
    fn manifest(task: &str, items: &[TypedItem<Self>]) -> TaskManifest {
        TaskManifest {
            task: task.to_owned(),
            items: items.iter().map(Self::manifest_item).collect(),
        }
    }
    /// Baseline rows scored by the kind's own scorer on the items of one board half, beside
    /// the expected-value row of [`capabilities::AutoScoring`] (none by default).
    ///
    /// `stored` is the task's cached `reference_json` (scores a kind computed earlier with
    /// the embedding model, e.g. the prompt copied as the answer), if any.
    fn reference_rows(_items: &[&TypedItem<Self>], _stored: Option<&Value>) -> Vec<ReferenceRow> {
        Vec::new()
    }
    /// What the participant sees right after an answer is stored (`None`: only the ack).
    fn feedback(
        _ctx: FeedbackContext<'_>,
        _item: &TypedItem<Self>,
    ) -> impl Future<Output = ApiResult<Option<ExplanationFeedback>>> + Send {
        async { Ok(None) }
    }
}

/// A template to fill in: every item id, the kind's fields empty (see
/// [`crate::files::template_file`]).
pub fn template<K: ServerKind>(items: &[TypedItem<K>], format: FileFormat) -> String {
    crate::files::template_file(
        items.iter().map(|i| i.row.id.as_str()),
        FilesOf::<K>::TEMPLATE_FIELDS,
        format,
    )
}

#[cfg(test)]
mod tests {
    use super::{PredictionFiles, ServerKind};
    use memeboard_core::kinds::TaskKind;
    use memeboard_core::messages::{parse_label, Locale};
    use memeboard_core::with_kind;

    /// Boards send these in English; the app shows them in 中文 by reading them back as
    /// catalogue labels, so each must be one.
    #[test]
    fn every_kind_names_its_metric_baseline_and_policy_with_catalogue_labels() {
        for kind in TaskKind::ALL {
            with_kind!(kind, K => {
                for text in [
                    super::FilesOf::<K>::metric_name(Some("bge-small-zh")),
                    super::FilesOf::<K>::metric_name(None),
                    super::FilesOf::<K>::MISSING_POLICY.to_owned(),
                ]
                .into_iter()
                .chain(K::AUTO_SCORING.map(|a| a.baseline_label.to_owned()))
                {
                    let label = parse_label(&text)
                        .unwrap_or_else(|| panic!("{kind:?}: `{text}` is not a catalogue label"));
                    assert_eq!(label.to_string(), text);
                    assert_ne!(label.render(Locale::Zh), text, "{kind:?}: `{text}`");
                }
            });
        }
    }

    /// The server's capabilities agree with the core's flags: judging kinds are judged and
    /// take no prediction files (every other kind does), and every kind a study can draw from
    /// gives its items as a study's source items.
    #[test]
    fn capabilities_agree_with_the_core_flags() {
        use memeboard_core::kinds::Kind;
        use std::any::TypeId;
        for kind in TaskKind::ALL {
            with_kind!(kind, K => {
                assert_eq!(K::JUDGED.is_some(), K::JUDGING, "{kind:?}");
                let no_files = TypeId::of::<super::FilesOf<K>>() == TypeId::of::<super::NoFiles<K>>();
                assert_eq!(no_files, K::JUDGING, "{kind:?}");
                assert_eq!(K::STUDY_SOURCE.is_some(), K::STUDY_PROTOCOL.is_some(), "{kind:?}");
            });
        }
    }
}

//! What the task's kind adds to a board: its offered items (in the subset) with their
//! baseline levels, the names of its metric and baseline row, and its scored baseline rows.

use super::{items_fingerprint, reference_board_row, FULL};
use crate::error::{ApiError, ApiResult};
use crate::kinds::capabilities::{in_subset, subset_names};
use crate::kinds::{self, PredictionFiles, ServerKind};
use crate::state::AppState;
use crate::storage::{BoardTaskRow, TaskItemRow};
use anyhow::Context;
use memeboard_core::api::{BoardRow, BoardSplit, RowKind};
use memeboard_core::msg;
use std::sync::Arc;

/// What [`kind_view`] reads a board's kind-specific parts for.
pub(super) struct KindScope<'a> {
    /// The app (storage, settings, the baseline rows' cache).
    pub(super) state: &'a AppState,
    /// The board's task.
    pub(super) task: &'a BoardTaskRow,
    /// The task's slug as requested.
    pub(super) slug: &'a str,
    /// The half of the test split shown.
    pub(super) which: BoardSplit,
    /// The item subset shown (`full` for all items).
    pub(super) subset: &'a str,
    /// The task's category keys.
    pub(super) keys: &'a [String],
    /// The embedding model that scored the task's explanations, if any (named in the metric).
    pub(super) embedding_model: Option<&'a str>,
}

/// The kind's parts of a board (see [`kind_view`]).
pub(super) struct KindView {
    /// Each offered item in the subset with its baseline level (chance for choices, the
    /// random-pair similarity for explanations).
    pub(super) items: Vec<(TaskItemRow, Option<f64>)>,
    /// How the kind names its metric.
    pub(super) metric: String,
    /// How items without a prediction are scored.
    pub(super) missing_policy: &'static str,
    /// The baseline row's kind and label; `None` when the kind scores nothing automatically
    /// (then the board has no scores, baseline or crowd score rows).
    pub(super) baseline: Option<(RowKind, &'static str)>,
    /// Baseline rows scored like models.
    pub(super) reference_rows: Arc<Vec<BoardRow>>,
    /// The kind's item subsets.
    pub(super) subsets: &'static [&'static str],
    /// Whether the kind asks a preface (familiarity) before the question.
    pub(super) preface: bool,
}

/// The kind's parts of a board: refuses a subset the kind does not have, and computes the
/// baseline rows once per state of the items (and of the scores the kind cached for the task).
pub(super) async fn kind_view<K>(scope: &KindScope<'_>) -> ApiResult<KindView>
where
    K: ServerKind + Clone + Send + Sync + 'static,
    K::Prompt: Send + Sync + 'static,
    K::Gold: Send + Sync + 'static,
{
    let KindScope {
        state,
        task,
        slug,
        which,
        subset,
        keys,
        embedding_model,
    } = *scope;
    let storage = &state.storage;
    let references = &*state.board_references;
    let resamples = state.settings.quiz.bootstrap_resamples;
    let subsets = subset_names::<K>();
    if subset != FULL && !subsets.contains(&subset) {
        return Err(ApiError::BadRequest(msg!(
            "request.unknown_subset",
            subset = subset,
            slug = slug,
            expected = if subsets.is_empty() {
                FULL.to_owned()
            } else {
                subsets.join(" or ")
            }
        )));
    }
    let typed: Vec<kinds::TypedItem<K>> = kinds::offered_items::<K>(storage, task)
        .await?
        .into_iter()
        .filter(|i| in_subset(i, subset))
        .collect();
    // Baseline rows scored like models, computed once per state of the items (and of the
    // scores the kind cached for the task).
    let stored: Option<serde_json::Value> = storage
        .task_reference(&task.task.id)
        .await?
        .and_then(|j| serde_json::from_str(&j).ok());
    let mut fingerprint = items_fingerprint(typed.iter().map(|i| &i.row));
    fingerprint.2 = stored.as_ref().map_or(0, |v| {
        memeboard_core::ids::fnv1a64(v.to_string().as_bytes()) as i64
    });
    let key = format!("{}/{}/{subset}", task.task.id, which.as_str());
    let reference_rows = match references.stored(&key, fingerprint) {
        Some(rows) => rows,
        None => {
            let in_half: Vec<kinds::TypedItem<K>> = typed
                .iter()
                .filter(|i| i.row.on_board(which))
                .cloned()
                .collect();
            let keys = keys.to_vec();
            references
                .get_or_compute(&key, fingerprint, move || {
                    let refs: Vec<&kinds::TypedItem<K>> = in_half.iter().collect();
                    K::reference_rows(&refs, stored.as_ref())
                        .into_iter()
                        .map(|r| reference_board_row(r, &keys, resamples))
                        .collect()
                })
                .await
                .context("computing the board's baseline rows")?
        }
    };
    let items: Vec<(TaskItemRow, Option<f64>)> = typed
        .into_iter()
        .map(|i| {
            let level = kinds::capabilities::baseline_of(&i);
            (i.row, level)
        })
        .collect();
    Ok(KindView {
        items,
        metric: K::Files::metric_name(embedding_model),
        missing_policy: K::Files::MISSING_POLICY,
        baseline: K::AUTO_SCORING.map(|a| (a.baseline_row, a.baseline_label)),
        reference_rows,
        subsets,
        preface: K::PREFACE.is_some(),
    })
}

//! A board's model rows: each upload's scores on the half (or its subset), its secondary
//! figures and confusion counts as published, and its flags.

use super::{model_of, FULL};
use crate::config::LeaderboardSettings;
use crate::error::ApiResult;
use crate::leaderboard::summary_key;
use crate::storage::{self, BoardTaskRow, Storage};
use memeboard_core::api::{BoardRow, BoardSplit, RowKind, SubmissionStatus};
use memeboard_core::conditions::ConditionSpec;
use memeboard_core::leaderboard::CategoryEstimate;

/// What the model rows of one board view are built for.
pub(super) struct ModelScope<'a> {
    /// The board's task.
    pub(super) task: &'a BoardTaskRow,
    /// The half of the test split shown.
    pub(super) which: BoardSplit,
    /// Its name in stored summaries (`public` or `private`).
    pub(super) half: &'a str,
    /// The item subset shown (`full` for all items).
    pub(super) subset: &'a str,
    /// Whether model scores are shown (not a blind board).
    pub(super) visible: bool,
    /// Whether the kind scores predictions automatically.
    pub(super) auto_scored: bool,
    /// Items on the half (in the subset).
    pub(super) items: usize,
    /// The task's run conditions.
    pub(super) conditions: &'a [ConditionSpec],
}

/// One row per upload, in upload order. Public figures over the hidden half: on the public
/// half those of the upload each author's Ladder shows, both halves rounded to what they
/// support (see `ladder`).
pub(super) async fn model_rows(
    storage: &Storage,
    lb: &LeaderboardSettings,
    scope: &ModelScope<'_>,
) -> ApiResult<Vec<BoardRow>> {
    let ModelScope {
        task,
        which,
        half,
        subset,
        visible,
        auto_scored,
        items,
        conditions,
    } = *scope;
    let mut rows = Vec::new();
    let shown = crate::leaderboard::ladder::shown_submissions(storage, lb, task).await?;
    for own in storage.task_submissions(&task.task.id).await? {
        let s = match which {
            BoardSplit::Public => shown.of(&own).clone(),
            BoardSplit::Private | BoardSplit::Whole | BoardSplit::All => own.clone(),
        };
        let extra_json: Option<serde_json::Value> = match (&s.extra_json, visible) {
            (Some(json), true) => Some(storage::decode_json("submissions.extra_json", json)?),
            _ => None,
        };
        let scores: Vec<CategoryEstimate> = if !visible || !auto_scored {
            Vec::new()
        } else if subset == FULL {
            match which {
                BoardSplit::Public => {
                    storage::decode_json("submissions.summary_json", &s.public_summary_json)?
                }
                BoardSplit::Private => {
                    storage::decode_json("submissions.summary_json", &s.private_summary_json)?
                }
                // Stored with the secondary figures (see `leaderboard::summaries`).
                BoardSplit::Whole | BoardSplit::All => extra_json
                    .as_ref()
                    .and_then(|v| serde_json::from_value(v[summary_key(which)].clone()).ok())
                    .unwrap_or_default(),
            }
        } else {
            // Summaries over the subset's items, stored at upload (see `submit`).
            extra_json
                .as_ref()
                .and_then(|v| serde_json::from_value(v["subset_scores"][subset][half].clone()).ok())
                .unwrap_or_default()
        };
        let (extra, confusion) = match &extra_json {
            Some(v) if subset == FULL => (
                serde_json::from_value(v[half].clone()).unwrap_or_default(),
                serde_json::from_value(v[format!("{half}_confusion")].clone()).unwrap_or_default(),
            ),
            Some(v) => (
                serde_json::from_value(v["subsets"][subset][half].clone()).unwrap_or_default(),
                None,
            ),
            None => (Vec::new(), None),
        };
        // (Rounded below, on the scale readers see: explanations are rescaled first.)
        let extra = crate::leaderboard::ladder::published_extra(extra, items, lb);
        // Counts per gold and answer over hidden items are exact: only after the half's reveal.
        let confusion = confusion.filter(|_| which.needs_reveal());
        let own_extra: Option<serde_json::Value> = match (&own.extra_json, visible) {
            (Some(json), true) => Some(storage::decode_json("submissions.extra_json", json)?),
            _ => None,
        };
        let flags: Vec<String> = own_extra
            .as_ref()
            .and_then(|v| serde_json::from_value(v["flags"].clone()).ok())
            .unwrap_or_default();
        rows.push(BoardRow {
            flags,
            confusion,
            extra,
            kind: RowKind::Model,
            label: own.model_name.clone(),
            submission_id: Some(own.id.clone()),
            model: Some(model_of(&own, conditions)),
            submitted_at: Some(own.created_at),
            status: if !auto_scored {
                SubmissionStatus::Unscored
            } else if visible {
                SubmissionStatus::Scored
            } else {
                SubmissionStatus::Received
            },
            scores,
            participants: None,
            participants_before_exclusions: None,
            source: None,
        });
    }
    Ok(rows)
}

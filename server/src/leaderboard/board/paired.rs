//! Paired differences between runs of one model that differ in one run condition (CHIME
//! with and without the option meanings, AVMeme + visual input, CMPM with and without
//! context…): on a revealed half from the two runs' item scores with a paired bootstrap
//! interval, on the public half from the published figures alone (see `PairedDifference`).

use crate::config::LeaderboardSettings;
use crate::error::ApiResult;
use crate::storage::{self, Storage};
use memeboard_core::api::{BoardRow, BoardSplit, PairedDifference, RowKind, SubmissionStatus};
use memeboard_core::conditions::{paired_difference, ConditionSpec};
use memeboard_core::disclosure::{item_grid, round_estimate};
use memeboard_core::leaderboard::ItemScore;
use std::collections::{HashMap, HashSet};

/// Most differences one board lists (each costs two stored score lists on a revealed half).
const MAX_PAIRS: usize = 64;

/// Fixed seed of the paired bootstrap: the same stored runs always give the same interval.
const PAIRED_SEED: u64 = 0x7061_6972_6564;

/// Two scored model rows of one model whose conditions differ in exactly one, the first
/// under that condition's default: `(first, second, condition)`.
fn pairs<'a>(
    rows: &'a [BoardRow],
    specs: &'a [ConditionSpec],
) -> Vec<(&'a BoardRow, &'a BoardRow, &'a ConditionSpec)> {
    let scored: Vec<&BoardRow> = rows
        .iter()
        .filter(|r| {
            r.kind == RowKind::Model
                && r.status == SubmissionStatus::Scored
                && r.scores.first().is_some_and(|s| s.estimate.is_some())
        })
        .collect();
    let mut out = Vec::new();
    for a in &scored {
        for b in &scored {
            let (Some(ma), Some(mb)) = (&a.model, &b.model) else {
                continue;
            };
            if ma.model_name != mb.model_name {
                continue;
            }
            let differing: Vec<&ConditionSpec> = specs
                .iter()
                .filter(|s| ma.conditions.get(&s.name) != mb.conditions.get(&s.name))
                .collect();
            if let [spec] = differing[..] {
                if ma.conditions.get(&spec.name) == Some(&spec.default) {
                    out.push((*a, *b, spec));
                }
            }
        }
    }
    out.truncate(MAX_PAIRS);
    out
}

/// Borrowed `(item, score)` pairs, as `paired_difference` takes them.
fn refs(v: &[(String, f64)]) -> Vec<(&str, f64)> {
    v.iter().map(|(i, s)| (i.as_str(), *s)).collect()
}

/// Reads a run's item scores on the board's items into `read`, once per board request (a
/// run under the default conditions is the first run of each of its pairs).
async fn load_item_scores(
    storage: &Storage,
    submission: &str,
    on_board: &HashSet<&str>,
    read: &mut HashMap<String, Vec<(String, f64)>>,
) -> ApiResult<()> {
    if read.contains_key(submission) {
        return Ok(());
    }
    let scores: Vec<ItemScore> = match storage.find_submission(submission).await? {
        Some(s) => storage::decode_json("submissions.item_scores_json", &s.item_scores_json)?,
        None => Vec::new(),
    };
    let on_half = scores
        .into_iter()
        .filter(|i| on_board.contains(i.item_id.as_str()))
        .map(|i| (i.item_id, i.score))
        .collect();
    read.insert(submission.to_owned(), on_half);
    Ok(())
}

/// The board's paired differences (after its rows are published: one row per model and
/// condition, figures rounded). `on_board`: the items the board scores.
pub(super) async fn paired_differences(
    storage: &Storage,
    lb: &LeaderboardSettings,
    resamples: usize,
    rows: &[BoardRow],
    specs: &[ConditionSpec],
    which: BoardSplit,
    on_board: &HashSet<&str>,
) -> ApiResult<Vec<PairedDifference>> {
    let mut out = Vec::new();
    let mut read = HashMap::new();
    for (a, b, spec) in pairs(rows, specs) {
        let (Some(from), Some(to)) = (&a.submission_id, &b.submission_id) else {
            continue;
        };
        let overall = |r: &BoardRow| {
            r.scores
                .first()
                .and_then(|s| s.estimate.map(|e| (e.value, s.items)))
        };
        let (Some((va, items_a)), Some((vb, items_b))) = (overall(a), overall(b)) else {
            continue;
        };
        let mut difference = PairedDifference {
            model: b.label.clone(),
            condition: spec.name.clone(),
            from: spec.default.clone(),
            to: b
                .model
                .as_ref()
                .and_then(|m| m.conditions.get(&spec.name))
                .cloned()
                .unwrap_or_default(),
            from_submission: from.clone(),
            to_submission: to.clone(),
            delta: memeboard_core::disclosure::round_to(vb - va, 1e-9),
            ci_low: None,
            ci_high: None,
            items: items_a.min(items_b),
        };
        if which.needs_reveal() {
            load_item_scores(storage, from, on_board, &mut read).await?;
            load_item_scores(storage, to, on_board, &mut read).await?;
            let scores = |id: &str| read.get(id).map_or_else(Vec::new, |v| refs(v));
            let (first, second) = (scores(from), scores(to));
            if let Some((e, n)) = paired_difference(&first, &second, resamples, PAIRED_SEED) {
                let e = match item_grid(n, lb.score_grid_scale) {
                    Some(step) => round_estimate(e, step),
                    None => e,
                };
                difference.delta = e.value;
                difference.ci_low = Some(e.ci_low);
                difference.ci_high = Some(e.ci_high);
                difference.items = n;
            }
        }
        out.push(difference);
    }
    Ok(out)
}

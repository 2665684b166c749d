//! Results of a finished batch: own scores, crowd rows, and the per-item review.

use super::crowd::{cached_crowd_stats, item_facts};
use super::{categories_of, find_quiz, find_session, handoff_ids, session_fieldwork};
use crate::config::QuizSettings;
use crate::crowd::items::{item_crowd_table, ItemCrowdTable};
use crate::crowd_cache::CrowdCache;
use crate::error::{ApiError, ApiResult};
use crate::kinds::{typed_item, TypedItem};
use crate::storage::{self, SessionItemRow, Storage, TaskItemRow};
use memeboard_core::api::{CategoryScore, CrowdStatsResponse, ResultsResponse, ReviewItem};
use memeboard_core::fieldwork::completion_handoff;
use memeboard_core::kinds::{Kind, ReviewDetail, ReviewInput, ScoreScale, Scoring};
use memeboard_core::predictions::Split;
use memeboard_core::{msg, with_kind};
use std::collections::BTreeMap;

/// The item row as the kinds' board code sees it.
fn item_row(row: &SessionItemRow) -> TaskItemRow {
    TaskItemRow {
        id: row.item_id.clone(),
        category: row.category.clone(),
        prompt_json: row.prompt_json.clone(),
        gold_json: row.gold_json.clone(),
        split: row.split,
        board_half: row.board_half,
    }
}

/// The caches a participant's results read: the crowd table, and the per-item crowd table.
#[derive(Clone, Copy)]
pub struct ResultsCaches<'a> {
    /// The quiz's crowd statistics.
    pub crowd: &'a CrowdCache<CrowdStatsResponse>,
    /// Per item, the crowd's scored answers by participant.
    pub items: &'a CrowdCache<ItemCrowdTable>,
}

/// One reviewed item: the kind's review and, when the answer is scored, its primary score and
/// whether it was correct (kinds with right and wrong answers).
type Reviewed = (ReviewDetail, Option<(f64, Option<bool>)>);

fn review_of<K: Kind>(seed: u64, row: &SessionItemRow, withheld: bool) -> ApiResult<Reviewed> {
    let TypedItem { prompt, gold, .. } = typed_item::<K>(item_row(row))?;
    let answer_json = row
        .answer_json
        .as_deref()
        .ok_or_else(|| ApiError::Unexpected(anyhow::anyhow!("answer missing")))?;
    let answer = K::answer_of(storage::decode_json("answers.answer_json", answer_json)?)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("item {}: {e}", row.item_id)))?;
    let order = K::present(&prompt, seed, &row.item_id).order;
    let outcome: Option<K::Outcome> = match K::score(&gold, &answer) {
        Scoring::Scored(o) => Some(o),
        Scoring::Pending => row
            .scores_json
            .as_deref()
            .map(|j| storage::decode_json("answers.scores_json", j))
            .transpose()?,
        Scoring::Unscored => None,
    };
    let review = K::review(ReviewInput {
        prompt: &prompt,
        order: &order,
        answer: &answer,
        gold: (!withheld).then_some(&gold),
        outcome: outcome.as_ref().filter(|_| !withheld),
        // The meaning is the gold of the meme's explanation item: shown only when that item
        // is open too (a dev question's meme may be a hidden explanation item).
        source_note: row
            .meaning
            .as_deref()
            .filter(|_| row.meaning_split != Some(Split::Test)),
    });
    let scored = outcome.as_ref().map(|o| (K::primary(o), K::correct(o)));
    Ok((K::wire_review(review), scored))
}

/// Results of a finished batch: own scores, crowd rows, and the per-item review with gold
/// where it may be shown. Refused (409) while any item of the batch is unanswered.
///
/// Own scores count only the open dev items: a score over hidden test items would let anyone
/// find their answers by retaking the quiz with one answer changed (the held-out count is
/// reported instead).
pub async fn results(
    storage: &Storage,
    caches: ResultsCaches<'_>,
    session_id: &str,
    settings: &QuizSettings,
) -> ApiResult<ResultsResponse> {
    let ResultsCaches {
        crowd: cache,
        items: item_cache,
    } = caches;
    let min_item_crowd = settings.min_item_crowd;
    let session = find_session(storage, session_id).await?;
    let rows = storage.session_items(session_id).await?;
    let unanswered = rows.iter().filter(|r| !r.answered).count();
    let Some(completion_code) = session.completion_code.clone().filter(|_| unanswered == 0) else {
        return Err(ApiError::Conflict(msg!(
            "results.unanswered",
            unanswered = unanswered,
            total = rows.len()
        )));
    };
    let quiz = find_quiz(storage, &session.quiz_slug).await?;
    let kind = session.task_kind;
    let facts = item_facts(storage, &quiz, kind).await?;
    // Per-item crowd figures: other participants only (the viewer's own answer in the mean
    // would reveal its correctness), only with at least `min_item_crowd` of them, and only
    // for open dev items (see below); from a table kept per state of the crowd's data.
    let table = item_crowd_table(storage, item_cache, &quiz.task.id).await?;
    let crowd_of = |item: &str| table.others_mean(item, &session.participant_id, min_item_crowd);
    let per_item_figures: BTreeMap<String, Option<f64>> = rows
        .iter()
        .map(|r| {
            let figure = (r.split == Split::Dev)
                .then(|| crowd_of(&r.item_id))
                .flatten();
            (r.item_id.clone(), figure)
        })
        .collect();
    let crowd = cached_crowd_stats(storage, cache, &quiz, &facts, settings).await?;

    let seed = session.seed as u64;
    let mut review = Vec::with_capacity(rows.len());
    let mut held_out = 0;
    // Per category: (sum of scores, correct answers, scored answers).
    let mut tally: BTreeMap<Option<String>, (f64, usize, usize)> = BTreeMap::new();
    // Explanation scores of hidden test items: (sum, count), shown only as one rounded mean.
    let mut hidden = (0.0f64, 0usize);
    for row in &rows {
        let withheld = row.split != Split::Dev;
        let (detail, scored) = with_kind!(kind, K => review_of::<K>(seed, row, withheld)?);
        if withheld {
            held_out += 1;
            if let Some((score, _)) = scored {
                hidden.0 += score;
                hidden.1 += 1;
            }
        } else if let Some((score, correct)) = scored {
            for key in [None, Some(row.category.clone())] {
                let t = tally.entry(key).or_default();
                t.0 += score;
                t.1 += usize::from(correct == Some(true));
                t.2 += 1;
            }
        }
        review.push(ReviewItem {
            position: usize::try_from(row.position).unwrap_or(0),
            item_id: row.item_id.clone(),
            category: row.category.clone(),
            gold_withheld: withheld,
            crowd_accuracy: per_item_figures.get(&row.item_id).copied().flatten(),
            detail,
        });
    }
    let scale = with_kind!(kind, K => K::SCALE);
    // Similarity kinds: one mean over the hidden items, rounded to 0.1 — coarse enough that
    // retaking the quiz with one answer changed cannot hill-climb a hidden reference.
    // Correctness kinds get none: their hidden answers are right or wrong, and any mean over
    // them moves by a whole answer.
    let hidden_items = match scale {
        ScoreScale::Similarity => (hidden.1 > 0).then(|| CategoryScore {
            category: None,
            correct: None,
            answered: hidden.1,
            mean: (hidden.0 / hidden.1 as f64 * 10.0).round() / 10.0,
        }),
        ScoreScale::Correctness => None,
    };
    let categories = categories_of(&quiz)?;
    let mut you = Vec::new();
    for key in std::iter::once(None).chain(categories.iter().map(|c| Some(c.key.clone()))) {
        if let Some((sum, correct, answered)) = tally.get(&key) {
            you.push(CategoryScore {
                category: key,
                correct: (scale == ScoreScale::Correctness).then_some(*correct),
                answered: *answered,
                mean: sum / (*answered).max(1) as f64,
            });
        }
    }
    let study = session_fieldwork(storage, &session).await?;
    let (redirect_url, redirect_code) =
        completion_handoff(&study.handoff, &handoff_ids(&session)).unzip();
    Ok(ResultsResponse {
        redirect_url,
        redirect_code,
        session_id: session.id,
        participant_id: session.participant_id,
        quiz_slug: session.quiz_slug,
        completion_code,
        task_kind: kind,
        scale,
        held_out,
        you,
        crowd,
        review,
        hidden_items,
    })
}

//! Boards: model rows, crowd human rows and the kind's baseline row on one half of the test
//! split, the CSV download, and the admin board switches.

use super::*;
use crate::error::{ApiError, ApiResult};
use crate::files::csv_text;
use crate::kinds::{self, ServerKind};
use crate::state::AppState;
use crate::storage::{self, BoardTaskRow, Storage, TaskItemRow};
use memeboard_core::api::{
    BoardAttempts, BoardResponse, BoardRow, BoardSettingsRequest, BoardSplit, RowKind,
    SubmissionStatus, Weights,
};
use memeboard_core::crowd::CrowdAnswer;
use memeboard_core::kinds::Kind;
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use memeboard_core::{msg, with_kind};
use std::collections::HashMap;

/// Scored crowd answers after the owner's exclusions (see `crate::quality`).
pub(super) async fn crowd_answers(
    storage: &Storage,
    task: &BoardTaskRow,
) -> ApiResult<Vec<CrowdAnswer>> {
    Ok(scored_answers(
        crate::quality::crowd_responses(storage, &task.task.id)
            .await?
            .0,
    ))
}

pub(super) fn scored_answers(rows: Vec<crate::storage::CrowdResponseRow>) -> Vec<CrowdAnswer> {
    rows.into_iter()
        .filter_map(|r| {
            // Human rows average scored answers; unscored ones carry no score to average.
            let score = r.score?;
            Some(CrowdAnswer {
                participant: r.participant_id,
                item: r.item_id,
                category: r.category,
                choice: r.choice.and_then(|c| usize::try_from(c).ok()),
                score,
            })
        })
        .collect()
}

/// A board: models, crowd rows and the chance baseline on one half of the test split,
/// over the full item set or one of the kind's subsets (e.g. `main` for clips).
pub async fn board(
    state: &AppState,
    slug: &str,
    which: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> ApiResult<BoardResponse> {
    let (storage, settings) = (&state.storage, &*state.settings);
    let references = &*state.board_references;
    let subset = subset.unwrap_or(FULL);
    let task = find_task(storage, slug).await?;
    if which == BoardSplit::Private && !task.private_revealed {
        return Err(ApiError::Forbidden(msg!(
            "board.private_hidden",
            slug = slug
        )));
    }
    let half = match which {
        BoardSplit::Public => "public",
        BoardSplit::Private => "private",
    };
    let task_kind = kind(&task)?;
    let baseline = storage.task_baseline(&task.task.id).await?;
    let task_baseline = baseline.as_ref().map(|(b, _)| *b);
    // Each item with its baseline level (chance for choices, the random-pair similarity for
    // explanations), and how the kind names its metric and baseline row.
    let cats = categories(&task)?;
    let keys: Vec<String> = cats.iter().map(|c| c.key.clone()).collect();
    let resamples = settings.quiz.bootstrap_resamples;
    let (
        items,
        metric,
        missing_policy,
        baseline_kind,
        baseline_label,
        reference_rows,
        subsets,
        preface,
        board_value,
        auto_scored,
    ) = with_kind!(task_kind, K => {
        if subset != FULL && !K::SUBSETS.contains(&subset) {
            return Err(ApiError::BadRequest(msg!(
                "request.unknown_subset",
                subset = subset,
                slug = slug,
                expected = if K::SUBSETS.is_empty() { FULL.to_owned() } else { K::SUBSETS.join(" or ") }
            )));
        }
        let typed: Vec<kinds::TypedItem<K>> = kinds::offered_items::<K>(storage, &task)
            .await?
            .into_iter()
            .filter(|i| K::in_subset(i, subset))
            .collect();
        // Baseline rows scored like models, computed once per state of the items (and of the
        // scores the kind cached for the task).
        let stored: Option<serde_json::Value> = storage
            .task_reference(&task.task.id)
            .await?
            .and_then(|j| serde_json::from_str(&j).ok());
        let mut fingerprint = items_fingerprint(typed.iter().map(|i| &i.row));
        fingerprint.2 = stored.as_ref().map_or(0, |v| memeboard_core::ids::fnv1a64(v.to_string().as_bytes()) as i64);
        let key = format!("{}/{}/{subset}", task.task.id, which.as_str());
        let reference_rows = match references.stored(&key, fingerprint) {
            Some(rows) => rows,
            None => {
                let in_half: Vec<kinds::TypedItem<K>> =
                    typed.iter().filter(|i| i.row.on_board(which)).cloned().collect();
                let keys = keys.clone();
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
                let level = K::baseline(&i, task_baseline);
                (i.row, level)
            })
            .collect();
        (
            items,
            K::metric_name(baseline.as_ref().map(|(_, m)| m.as_str())),
            K::MISSING_POLICY,
            K::BASELINE_ROW,
            K::BASELINE_LABEL,
            reference_rows,
            K::SUBSETS,
            K::PREFACE,
            K::board_value as fn(f64, Option<f64>) -> f64,
            K::AUTO_SCORED,
        )
    });
    let in_half: HashMap<&str, &(TaskItemRow, Option<f64>)> = items
        .iter()
        .filter(|i| i.0.on_board(which))
        .map(|i| (i.0.id.as_str(), i))
        .collect();
    let visible = board_visible(&task);

    let mut rows = Vec::new();
    // Public figures over the hidden half: on the public half those of the upload each
    // author's Ladder shows, both halves rounded to what they support (see `ladder`).
    let lb = &settings.leaderboard;
    let shown = super::ladder::shown_submissions(storage, lb, &task).await?;
    for own in storage.task_submissions(&task.task.id).await? {
        let s = match which {
            BoardSplit::Public => shown.of(&own).clone(),
            BoardSplit::Private => own.clone(),
        };
        let extra_json: Option<serde_json::Value> = match (&s.extra_json, visible) {
            (Some(json), true) => Some(storage::decode_json("submissions.extra_json", json)?),
            _ => None,
        };
        let scores: Vec<CategoryEstimate> = if !visible || !auto_scored {
            Vec::new()
        } else if subset == FULL {
            let json = if which == BoardSplit::Public {
                &s.public_summary_json
            } else {
                &s.private_summary_json
            };
            storage::decode_json("submissions.summary_json", json)?
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
        let extra = super::ladder::published_extra(extra, in_half.len(), lb);
        // Counts per gold and answer over hidden items are exact: only after the half's reveal.
        let confusion = confusion.filter(|_| which == BoardSplit::Private);
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
            model: Some(model_of(&own)),
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
        });
    }

    // Crowd rows on the same items, after the owner's exclusions, as published (see
    // `board_crowd`).
    let key = format!("{}/{}/{subset}", task.task.id, which.as_str());
    let (human, familiarity) =
        super::board_crowd::human_rows(state, &task, &in_half, &key, preface, auto_scored).await?;
    rows.extend(human);

    // Chance: one of the options uniformly at random (1/5 for five options), or for
    // explanations the similarity of a random pair of reference meanings.
    let chance = |subset: Vec<&&(TaskItemRow, Option<f64>)>| -> Option<Estimate> {
        let values: Vec<f64> = subset.iter().filter_map(|i| i.1).collect();
        (!values.is_empty()).then(|| {
            let v = values.iter().sum::<f64>() / values.len() as f64;
            Estimate {
                value: v,
                ci_low: v,
                ci_high: v,
            }
        })
    };
    let mut chance_scores = vec![CategoryEstimate {
        category: None,
        items: in_half.len(),
        estimate: chance(in_half.values().collect()),
        suppressed: false,
    }];
    for k in &keys {
        let subset: Vec<&&(TaskItemRow, Option<f64>)> =
            in_half.values().filter(|i| &i.0.category == k).collect();
        chance_scores.push(CategoryEstimate {
            category: Some(k.clone()),
            items: subset.len(),
            estimate: chance(subset),
            suppressed: false,
        });
    }
    let baseline_row = BoardRow {
        flags: Vec::new(),
        confusion: None,
        extra: Vec::new(),
        kind: baseline_kind,
        label: baseline_label.into(),
        submission_id: None,
        model: None,
        submitted_at: None,
        status: SubmissionStatus::Scored,
        scores: chance_scores,
        participants: None,
        participants_before_exclusions: None,
    };
    if auto_scored {
        rows.push(baseline_row);
    }

    // One row per model name by default (the best or the latest, the owner's choice); every
    // attempt with `?attempts=all`.
    let attempts = if all_attempts {
        "all"
    } else if task.board_attempts == "latest" {
        "latest"
    } else {
        "best"
    };
    let hidden_attempts = if all_attempts {
        0
    } else {
        let before = rows.len();
        rows = one_row_per_model(rows, attempts == "latest");
        before - rows.len()
    };
    rows.extend(reference_rows.iter().cloned());
    // Figures as readers see them (explanations: rescaled); the model's own scale stays
    // beside a model's row.
    if board_value(1.0, task_baseline) != 1.0 || board_value(0.0, task_baseline) != 0.0 {
        for row in &mut rows {
            if row.kind == RowKind::Model {
                if let Some(e) = row.scores.first().and_then(|s| s.estimate) {
                    let mut raw = memeboard_core::api::NamedValue::estimated(
                        msg!("label.raw_cosine").to_string(),
                        e,
                    );
                    memeboard_core::disclosure::round_named(
                        &mut raw,
                        in_half.len(),
                        lb.score_grid_scale,
                    );
                    row.extra.insert(0, raw);
                }
            }
            for s in &mut row.scores {
                if let Some(e) = &mut s.estimate {
                    e.value = board_value(e.value, task_baseline);
                    e.ci_low = board_value(e.ci_low, task_baseline);
                    e.ci_high = board_value(e.ci_high, task_baseline);
                }
            }
        }
    }

    // Model rows' figures over the hidden half, rounded to what the half supports on the
    // scale readers see (see `ladder`).
    for row in rows.iter_mut().filter(|r| r.kind == RowKind::Model) {
        memeboard_core::disclosure::round_scores(&mut row.scores, lb.score_grid_scale);
    }

    // Per-category figures only where the half has enough items in the category (model,
    // human and baseline rows alike; the overall column always), and likewise secondary
    // figures over a subset of items.
    let min_items = settings.leaderboard.min_category_items;
    for row in &mut rows {
        for s in &mut row.scores {
            s.suppress_below(min_items);
        }
        row.extra.retain(|e| e.items.is_none_or(|n| n >= min_items));
        if row.confusion.is_some() && in_half.len() < min_items {
            row.confusion = None;
        }
    }
    let overall = |r: &BoardRow| {
        r.scores
            .first()
            .and_then(|s| s.estimate)
            .map_or(f64::NEG_INFINITY, |e| e.value)
    };
    rows.sort_by(|a, b| {
        overall(b)
            .total_cmp(&overall(a))
            .then(a.submitted_at.cmp(&b.submitted_at))
    });
    // People's judgements of the models (studies made from this board); hidden with the
    // model scores while the board is blind. Boards without an automatic metric rank their
    // models by them (Bradley–Terry rating, then Core4, then % agree).
    let human_eval = if visible {
        crate::study_tables::board_human_eval(state, &task).await?
    } else {
        None
    };
    if let (false, Some(h)) = (auto_scored, &human_eval) {
        let key = |r: &BoardRow| -> [f64; 3] {
            let col = r
                .submission_id
                .as_ref()
                .and_then(|id| h.columns.iter().find(|c| &c.submission_id == id));
            let v = |e: Option<Estimate>| e.map_or(f64::NEG_INFINITY, |e| e.value);
            col.map_or([f64::NEG_INFINITY; 3], |c| {
                [v(c.bt_rating), v(c.core4), v(c.agree)]
            })
        };
        rows.sort_by(|a, b| {
            let (ka, kb) = (key(a), key(b));
            kb[0]
                .total_cmp(&ka[0])
                .then(kb[1].total_cmp(&ka[1]))
                .then(kb[2].total_cmp(&ka[2]))
        });
    }
    Ok(BoardResponse {
        task: slug.to_owned(),
        title: task.task.title.clone(),
        split: which,
        metric,
        missing_policy: missing_policy.into(),
        categories: cats,
        items: in_half.len(),
        private_revealed: task.private_revealed,
        blind: task.blind && !task.blind_revealed,
        rows,
        subset: subset.to_owned(),
        subsets: subsets.iter().map(|s| (*s).to_owned()).collect(),
        familiarity,
        attempts: attempts.into(),
        hidden_attempts,
        automatic_metric: auto_scored,
        human_eval,
    })
}

/// Keeps one model row per model name: the latest upload, or the one with the best overall
/// score (ties and unscored rows: the latest). Model rows come in upload order; other rows
/// (human, baselines) are kept as they are.
fn one_row_per_model(rows: Vec<BoardRow>, latest: bool) -> Vec<BoardRow> {
    let overall = |r: &BoardRow| {
        r.scores
            .first()
            .and_then(|s| s.estimate)
            .map_or(f64::NEG_INFINITY, |e| e.value)
    };
    let mut kept: Vec<BoardRow> = Vec::new();
    for row in rows {
        if row.kind != RowKind::Model {
            kept.push(row);
            continue;
        }
        match kept
            .iter_mut()
            .find(|k| k.kind == RowKind::Model && k.label == row.label)
        {
            // Ties keep the earlier row: under the Ladder a later upload that did not beat the
            // author's best repeats its figures, and the row shown is the one that set them.
            Some(k) if latest || overall(&row) > overall(k) => *k = row,
            Some(_) => {}
            None => kept.push(row),
        }
    }
    kept
}

/// The full item set (every kind has it).
const FULL: &str = "full";

/// What a task's items were when baseline rows were computed: their number and a hash of
/// their ids and gold (a re-import that changes gold changes it).
fn items_fingerprint<'a>(
    rows: impl Iterator<Item = &'a TaskItemRow>,
) -> crate::crowd_cache::Fingerprint {
    let mut n = 0i64;
    let mut hash = 0u64;
    for r in rows {
        n += 1;
        let h = memeboard_core::ids::fnv1a64(
            format!("{}\u{1f}{}\u{1f}{:?}", r.id, r.gold_json, r.board_half).as_bytes(),
        );
        hash = hash.wrapping_add(h);
    }
    (n, hash as i64, 0, None, 0)
}

/// A baseline row scored by the kind's scorer, summarised like a model row.
fn reference_board_row(r: kinds::ReferenceRow, keys: &[String], resamples: usize) -> BoardRow {
    BoardRow {
        kind: r.kind,
        label: r.label.into(),
        submission_id: None,
        model: None,
        submitted_at: None,
        status: SubmissionStatus::Scored,
        scores: memeboard_core::leaderboard::summarize(&r.scores, keys, resamples, BOOTSTRAP_SEED),
        participants: None,
        participants_before_exclusions: None,
        extra: r.extra,
        confusion: r.confusion,
        flags: Vec::new(),
    }
}

/// The board as CSV: one row per board row, value and interval per column.
pub fn board_csv(board: &BoardResponse) -> String {
    let mut header = vec![
        "rank",
        "kind",
        "label",
        "organisation",
        "parameters",
        "weights",
        "submitted_at_ms",
        "participants",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect::<Vec<_>>();
    for c in
        std::iter::once("overall".to_owned()).chain(board.categories.iter().map(|c| c.key.clone()))
    {
        header.extend([c.clone(), format!("{c}_ci_low"), format!("{c}_ci_high")]);
    }
    let mut out = header.join(",");
    out.push('\n');
    for (rank, row) in board.rows.iter().enumerate() {
        let kind = serde_json::to_value(row.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let m = row.model.as_ref();
        let mut fields = vec![
            (rank + 1).to_string(),
            kind,
            csv_text(&row.label),
            csv_text(m.map_or("", |m| m.organisation.as_str())),
            csv_text(m.and_then(|m| m.parameters.as_deref()).unwrap_or("")),
            m.map_or(String::new(), |m| match m.weights {
                Weights::Open => "open".into(),
                Weights::Closed => "closed".into(),
            }),
            row.submitted_at.map_or(String::new(), |t| t.to_string()),
            row.participants.map_or(String::new(), |p| p.to_string()),
        ];
        for i in 0..=board.categories.len() {
            match row.scores.get(i).and_then(|s| s.estimate) {
                Some(e) => fields.extend([
                    format!("{:.4}", e.value),
                    format!("{:.4}", e.ci_low),
                    format!("{:.4}", e.ci_high),
                ]),
                None => fields.extend([String::new(), String::new(), String::new()]),
            }
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// Flips board switches (authorized and logged by `owners::update_board`).
pub async fn update_board(
    storage: &Storage,
    slug: &str,
    req: &BoardSettingsRequest,
) -> ApiResult<BoardSettingsRequest> {
    let task = find_task(storage, slug).await?;
    let private_revealed = req.private_revealed.unwrap_or(task.private_revealed);
    let blind = req.blind.unwrap_or(task.blind);
    let blind_revealed = req.blind_revealed.unwrap_or(task.blind_revealed);
    let quiz_open = req.quiz_open.unwrap_or(task.task.quiz_open);
    let exclude = req
        .exclude_failed_checks
        .unwrap_or(task.exclude_failed_checks);
    let attempts = match req.attempts {
        Some(a) => a,
        None if task.board_attempts == "latest" => BoardAttempts::Latest,
        None => BoardAttempts::Best,
    };
    let allow_retake = req.allow_retake.unwrap_or(task.allow_retake);
    let switches = storage::TaskSwitches {
        private_revealed,
        blind,
        blind_revealed,
        quiz_open,
        exclude_failed_checks: exclude,
        board_attempts: attempts.as_str().to_owned(),
        allow_retake,
    };
    storage
        .update_board_settings(&task.task.id, &switches)
        .await?;
    if let Some(revealed) = req.test_gold_revealed {
        storage
            .set_test_gold_revealed(&task.task.id, revealed)
            .await?;
    }
    let test_gold_revealed = storage.test_gold_revealed(&task.task.id).await?;
    Ok(BoardSettingsRequest {
        private_revealed: Some(private_revealed),
        blind: Some(blind),
        blind_revealed: Some(blind_revealed),
        quiz_open: Some(quiz_open),
        exclude_failed_checks: Some(exclude),
        attempts: Some(attempts),
        allow_retake: Some(allow_retake),
        test_gold_revealed: Some(test_gold_revealed),
    })
}

//! Boards: model rows, crowd human rows and the kind's baseline row on one half of the test
//! split, the CSV download, and the admin board switches.

mod chance;
mod disclosure;
mod kind_view;
mod model_rows;
mod paired;
mod paper_rows;
mod ranking;

use super::*;
use crate::error::{ApiError, ApiResult};
use crate::files::csv_text;
use crate::kinds;
use crate::state::AppState;
use crate::storage::{self, Storage, TaskItemRow};
use chance::chance_row;
use kind_view::{kind_view, KindScope};
use memeboard_core::api::{
    BoardAttempts, BoardResponse, BoardRow, BoardSettingsRequest, BoardSplit, RowKind,
    SubmissionStatus, Weights,
};
use memeboard_core::{msg, with_kind};
use model_rows::{model_rows, ModelScope};
use std::collections::HashMap;

/// A board: models, crowd rows and the chance baseline on one half of the test split (or
/// both), over the full item set or one of the kind's subsets (e.g. `main` for clips). The
/// owners' view over every item ([`BoardSplit::All`]) is refused here: it is
/// [`owners_board`], behind the owner check of its route.
pub async fn board(
    state: &AppState,
    slug: &str,
    which: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> ApiResult<BoardResponse> {
    if which == BoardSplit::All {
        return Err(ApiError::Forbidden(msg!(
            "board.all_owners_only",
            slug = slug
        )));
    }
    board_view(state, slug, which, subset, all_attempts).await
}

/// The board over every item, open dev items and both test halves (the papers' whole
/// datasets), once the private half is revealed. Only for a caller that has authorized the
/// task's owner or the admin (`owners::authorize`: the board route does).
pub async fn owners_board(
    state: &AppState,
    slug: &str,
    subset: Option<&str>,
    all_attempts: bool,
) -> ApiResult<BoardResponse> {
    board_view(state, slug, BoardSplit::All, subset, all_attempts).await
}

async fn board_view(
    state: &AppState,
    slug: &str,
    which: BoardSplit,
    subset: Option<&str>,
    all_attempts: bool,
) -> ApiResult<BoardResponse> {
    let (storage, settings) = (&state.storage, &*state.settings);
    let subset = subset.unwrap_or(FULL);
    let task = find_task(storage, slug).await?;
    // The private half and the whole split (which moves with the private half's gold) wait
    // for the reveal.
    if which.needs_reveal() && !task.private_revealed {
        return Err(ApiError::Forbidden(if which == BoardSplit::Private {
            msg!("board.private_hidden", slug = slug)
        } else {
            msg!("board.whole_hidden", slug = slug)
        }));
    }
    let half = which.as_str();
    let task_kind = task.task.task_kind()?;
    let embedding_model = storage
        .task_baseline(&task.task.id)
        .await?
        .map(|(_, model)| model);
    // Each item with its baseline level (chance), and how the kind names its metric (with
    // the embedding model, for explanations) and baseline row.
    let cats = categories(&task)?;
    let keys: Vec<String> = cats.iter().map(|c| c.key.clone()).collect();
    let scope = KindScope {
        state,
        task: &task,
        slug,
        which,
        subset,
        keys: &keys,
        embedding_model: embedding_model.as_deref(),
    };
    let view = with_kind!(task_kind, K => kind_view::<K>(&scope).await?);
    let auto_scored = view.baseline.is_some();
    let in_half: HashMap<&str, &(TaskItemRow, Option<f64>)> = view
        .items
        .iter()
        .filter(|i| i.0.on_board(which))
        .map(|i| (i.0.id.as_str(), i))
        .collect();
    let visible = board_visible(&task);

    // Public figures over the hidden half: on the public half those of the upload each
    // author's Ladder shows, both halves rounded to what they support (see `ladder`).
    let lb = &settings.leaderboard;
    let conditions = task_kind.conditions();
    let models = ModelScope {
        task: &task,
        which,
        half,
        subset,
        visible,
        auto_scored,
        items: in_half.len(),
        conditions: &conditions,
    };
    let mut rows = model_rows(storage, lb, &models).await?;

    // Crowd rows on the same items, after the owner's exclusions, as published (see
    // `board_crowd`).
    let key = format!("{}/{}/{subset}", task.task.id, which.as_str());
    let (human, familiarity) =
        super::board_crowd::human_rows(state, &task, &in_half, &key, view.preface, auto_scored)
            .await?;
    rows.extend(human);
    if let Some((baseline_kind, baseline_label)) = view.baseline {
        rows.push(chance_row(&in_half, &keys, baseline_kind, baseline_label));
    }

    let (attempts, hidden_attempts) = keep_attempts(&mut rows, &task, all_attempts);
    rows.extend(view.reference_rows.iter().cloned());
    disclosure::disclose(&mut rows, lb, in_half.len(), which.needs_reveal());
    ranking::by_overall(&mut rows);
    let on_board: std::collections::HashSet<&str> = in_half.keys().copied().collect();
    let paired = paired::paired_differences(
        storage,
        lb,
        settings.quiz.bootstrap_resamples,
        &rows,
        &conditions,
        which,
        &on_board,
    )
    .await?;
    // People's judgements of the models (studies made from this board); hidden with the
    // model scores while the board is blind. Boards without an automatic metric rank their
    // models by them (Bradley–Terry rating, then Core4, then % agree).
    let human_eval = if visible {
        crate::study_tables::board_human_eval(state, &task).await?
    } else {
        None
    };
    if let (false, Some(h)) = (auto_scored, &human_eval) {
        ranking::by_human_eval(&mut rows, h);
    }
    // What the benchmark's papers published, after the site's rows (never ranked, rounded or
    // suppressed: they are public figures, over the paper's own items).
    rows.extend(
        paper_rows::paper_rows(
            storage,
            &task.task.id,
            task_kind,
            subset,
            &keys,
            &conditions,
        )
        .await?,
    );
    Ok(BoardResponse {
        task: slug.to_owned(),
        benchmark: Some(task.benchmark_slug.clone()),
        title: task.task.title.clone(),
        split: which,
        metric: view.metric,
        missing_policy: view.missing_policy.into(),
        categories: cats,
        items: in_half.len(),
        private_revealed: task.private_revealed,
        blind: task.blind && !task.blind_revealed,
        rows,
        subset: subset.to_owned(),
        subsets: view.subsets.iter().map(|s| (*s).to_owned()).collect(),
        familiarity,
        attempts: attempts.into(),
        hidden_attempts,
        automatic_metric: auto_scored,
        human_eval,
        kind: Some(task_kind),
        conditions,
        paired,
        rescorings: rescorings(storage, &task.task.id).await?,
    })
}

/// The task's last five rescorings, for the board's history.
async fn rescorings(
    storage: &Storage,
    task_id: &str,
) -> ApiResult<Vec<memeboard_core::api::Rescoring>> {
    Ok(storage
        .task_rescorings(task_id, 5)
        .await?
        .into_iter()
        .map(|r| memeboard_core::api::Rescoring {
            at: r.at,
            reason: r.reason,
            rescored: u64::try_from(r.rescored).unwrap_or(0),
            skipped: u64::try_from(r.skipped).unwrap_or(0),
        })
        .collect())
}

/// One row per model name and conditions by default (the best or the latest, the owner's
/// choice), every attempt with `?attempts=all`: the mode shown and the rows it left out.
fn keep_attempts(
    rows: &mut Vec<BoardRow>,
    task: &BoardTaskRow,
    all_attempts: bool,
) -> (&'static str, usize) {
    if all_attempts {
        return ("all", 0);
    }
    let latest = task.board_attempts == "latest";
    let before = rows.len();
    *rows = one_row_per_model(std::mem::take(rows), latest);
    (if latest { "latest" } else { "best" }, before - rows.len())
}

/// Keeps one model row per model name and run conditions: the latest upload, or the one with
/// the best overall score (ties and unscored rows: the latest). Model rows come in upload
/// order; other rows (human, baselines) are kept as they are.
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
        match kept.iter_mut().find(|k| {
            k.kind == RowKind::Model
                && k.label == row.label
                && k.model.as_ref().map(|m| &m.conditions)
                    == row.model.as_ref().map(|m| &m.conditions)
        }) {
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
        source: None,
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
    // How each model row was run, one column per run condition, last.
    header.extend(
        board
            .conditions
            .iter()
            .map(|c| format!("condition_{}", c.name)),
    );
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
        fields.extend(board.conditions.iter().map(|c| {
            csv_text(
                m.and_then(|m| m.conditions.get(&c.name))
                    .map_or("", String::as_str),
            )
        }));
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

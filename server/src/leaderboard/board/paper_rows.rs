//! A board's published rows: what the benchmark's papers reported on the board's primary
//! metric and item subset, one row per model, run conditions and source, overall and per
//! category, marked with the citation and never ranked or mixed into the site's own rows.

use crate::error::ApiResult;
use crate::kinds::ServerKind;
use crate::storage::{PaperFigureRecord, Storage};
use memeboard_core::api::{BoardRow, ModelInfo, RowKind, SubmissionStatus, Weights};
use memeboard_core::conditions::{stored_conditions, ConditionSpec};
use memeboard_core::kinds::TaskKind;
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use memeboard_core::with_kind;

/// The figure of one row's category (`None`: overall), as an exact estimate.
fn cell(figures: &[&PaperFigureRecord], category: Option<&str>) -> CategoryEstimate {
    let f = figures.iter().find(|f| f.category.as_deref() == category);
    CategoryEstimate {
        category: category.map(str::to_owned),
        items: f
            .and_then(|f| f.n)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(0),
        estimate: f.map(|f| Estimate {
            value: f.value,
            ci_low: f.value,
            ci_high: f.value,
        }),
        suppressed: false,
    }
}

/// The published rows of a board over `subset` with category columns `keys`.
pub(super) async fn paper_rows(
    storage: &Storage,
    task_id: &str,
    kind: TaskKind,
    subset: &str,
    keys: &[String],
    specs: &[ConditionSpec],
) -> ApiResult<Vec<BoardRow>> {
    let Some(primary) = with_kind!(kind, K => K::PAPER_METRICS.first().copied()) else {
        return Ok(Vec::new());
    };
    let figures: Vec<PaperFigureRecord> = storage
        .task_paper_figures(task_id)
        .await?
        .into_iter()
        .filter(|f| f.metric == primary && f.subset == subset)
        .collect();
    // One row per model, conditions and source, in file order.
    let mut groups: Vec<(&str, &str, &str, Vec<&PaperFigureRecord>)> = Vec::new();
    for f in &figures {
        let key = (
            f.model.as_str(),
            f.conditions_json.as_str(),
            f.source.as_str(),
        );
        match groups.iter_mut().find(|g| (g.0, g.1, g.2) == key) {
            Some(g) => g.3.push(f),
            None => groups.push((key.0, key.1, key.2, vec![f])),
        }
    }
    // A group with no figure in the board's columns (e.g. a table by sound type only) is
    // left to the paper tables.
    let on_board = |f: &&PaperFigureRecord| {
        f.category
            .as_deref()
            .is_none_or(|c| keys.iter().any(|k| k == c))
    };
    Ok(groups
        .into_iter()
        .filter(|g| g.3.iter().any(on_board))
        .map(|(model, conditions, source, figures)| {
            let scores = std::iter::once(cell(&figures, None))
                .chain(keys.iter().map(|k| cell(&figures, Some(k))))
                .collect();
            BoardRow {
                kind: RowKind::Published,
                label: model.to_owned(),
                submission_id: None,
                model: Some(ModelInfo {
                    model_name: model.to_owned(),
                    organisation: String::new(),
                    parameters: None,
                    weights: Weights::Closed,
                    link: None,
                    description: String::new(),
                    conditions: stored_conditions(specs, Some(conditions)),
                }),
                submitted_at: None,
                status: SubmissionStatus::Scored,
                scores,
                participants: None,
                participants_before_exclusions: None,
                extra: Vec::new(),
                confusion: None,
                flags: Vec::new(),
                source: Some(source.to_owned()),
            }
        })
        .collect())
}

//! Pure shaping of CMPM Table 7 per annotator (one row per rater: each dimension's mean and
//! Core4, with the pages behind each) and of the rankings' pairwise win matrix (model × model in
//! the study's model order, the diagonal empty) and of Table 8, the context ablation (per model
//! Core4 with and without the comic's context, the signed difference and its interval), into
//! rows of written cells. The views are in `paper_tables`.

use crate::format;
use memeboard_core::human_eval::cmpm_tables::{
    PairRecord, RaterDimensionRow, RaterMean, WinMatrix,
};
use memeboard_core::human_eval::context_ablation::{ContextAblation, ContextCells};

/// One written cell of the per-annotator table: the mean (or a dash) and its `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeanCell {
    /// The mean with three decimals, as the page's other means, or a dash.
    pub mean: String,
    /// `n = 9`: the rating pages behind it.
    pub n: String,
}

/// One rater's row of Table 7 per annotator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaterLine {
    /// Rater pseudonym.
    pub rater: String,
    /// Left out of the other tables by the owner's reliability thresholds.
    pub excluded: bool,
    /// The five dimensions in page order, then Core4.
    pub cells: Vec<MeanCell>,
}

fn mean_cell(m: &RaterMean) -> MeanCell {
    MeanCell {
        mean: m
            .mean
            .map_or_else(|| format::DASH.to_owned(), format::accuracy),
        n: format!("n = {}", m.n),
    }
}

/// Table 7 per annotator: the rows as the response orders them (by pseudonym), each with its
/// five dimension cells and its Core4 cell.
pub fn per_rater(rows: &[RaterDimensionRow]) -> Vec<RaterLine> {
    rows.iter()
        .map(|r| RaterLine {
            rater: r.rater.clone(),
            excluded: r.threshold_excluded,
            cells: r
                .dimensions
                .iter()
                .chain(std::iter::once(&r.core4))
                .map(mean_cell)
                .collect(),
        })
        .collect()
}

/// One cell of the win matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairCell {
    /// A model against itself: left empty.
    Diagonal,
    /// The pair was never ranked together.
    NotCompared,
    /// The row model's win rate against the column model and its record.
    Rate {
        /// Win rate as a whole percentage (ties half).
        rate: String,
        /// `2–1–1 (n = 4)`: wins, ties and losses of the row model, and the comparisons.
        record: String,
    },
}

/// One model's row of the win matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixLine {
    /// Submission id.
    pub submission: String,
    /// Model name shown.
    pub label: String,
    /// One cell per column model, in the columns' order.
    pub cells: Vec<PairCell>,
}

fn pair_cell(record: Option<&PairRecord>) -> PairCell {
    match record {
        None => PairCell::Diagonal,
        Some(PairRecord { win_rate: None, .. }) => PairCell::NotCompared,
        Some(
            p @ PairRecord {
                win_rate: Some(rate),
                ..
            },
        ) => PairCell::Rate {
            rate: format::percent(*rate),
            record: format!("{}–{}–{} (n = {})", p.wins, p.ties, p.losses, p.comparisons),
        },
    }
}

/// The win matrix in the page's model order (`models`: `(submission id, label)`): the column
/// labels and one row per ranked model, the same models in the same order as the columns.
/// Ranked models the page does not list come last, named by their id.
pub fn matrix(m: &WinMatrix, models: &[(String, String)]) -> (Vec<String>, Vec<MatrixLine>) {
    let mut order: Vec<(usize, String, String)> = models
        .iter()
        .filter_map(|(id, label)| {
            let k = m.systems.iter().position(|s| s == id)?;
            Some((k, id.clone(), label.clone()))
        })
        .collect();
    for (k, s) in m.systems.iter().enumerate() {
        if !order.iter().any(|(i, _, _)| *i == k) {
            order.push((k, s.clone(), s.clone()));
        }
    }
    let labels = order.iter().map(|(_, _, l)| l.clone()).collect();
    let lines = order
        .iter()
        .map(|(row, id, label)| MatrixLine {
            submission: id.clone(),
            label: label.clone(),
            cells: order
                .iter()
                .map(|(col, _, _)| {
                    let record = m.rows.get(*row).and_then(|r| r.cells.get(*col));
                    pair_cell(record.and_then(Option::as_ref))
                })
                .collect(),
        })
        .collect();
    (labels, lines)
}

/// One written row of Table 8 (a model's, or the Overall row with an empty label).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextLine {
    /// Model name; empty on the Overall row (the view names it).
    pub label: String,
    /// Mean Core4 with full context and its ratings.
    pub full: MeanCell,
    /// Mean Core4 from the image only and its ratings.
    pub image_only: MeanCell,
    /// Δ with its sign (`+0.060`) and its interval (`[−0.05, +0.17]`).
    pub delta: (String, String),
}

/// A difference with its sign, three decimals: `+0.060`, `−0.100`, `+0.000`.
fn signed(x: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, x.abs());
    let zero = text.chars().all(|c| c == '0' || c == '.');
    if x < 0.0 && !zero {
        format!("−{text}")
    } else {
        format!("+{text}")
    }
}

fn context_line(label: &str, c: &ContextCells) -> ContextLine {
    let cell = |mean: f64, n: usize| MeanCell {
        mean: format::accuracy(mean),
        n: format!("n = {n}"),
    };
    let d = &c.delta;
    ContextLine {
        label: label.to_owned(),
        full: cell(c.full_context, c.full_context_ratings),
        image_only: cell(c.image_only, c.image_only_ratings),
        delta: (
            signed(d.value, 3),
            format!("[{}, {}]", signed(d.ci_low, 2), signed(d.ci_high, 2)),
        ),
    }
}

/// Table 8: the models' rows (sorted by name, as the response gives them), then the Overall
/// row (empty label).
pub fn context_table(t: &ContextAblation) -> (Vec<ContextLine>, ContextLine) {
    let rows = t
        .rows
        .iter()
        .map(|r| context_line(&r.model, &r.cells))
        .collect();
    (rows, context_line("", &t.overall))
}

#[cfg(test)]
mod tests;

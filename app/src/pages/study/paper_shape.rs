//! Pure shaping of a study's computed tables into the papers' own layouts (CHIME Tables 3,
//! 11 and 12; CMPM's dimension means and ranking figures): which model gets which row, which
//! cell holds which figure, and how each figure is written. The views are in `paper_tables`.

use crate::format;
use memeboard_core::human_eval::accuracy::{AccuracyRow, BatchAgreement, ExplanationField};
use memeboard_core::human_eval::bradley_terry::BtRow;
use memeboard_core::human_eval::dimensions::{Dimension, DimensionRow};
use memeboard_core::human_eval::ranking::WinRateRow;
use memeboard_core::stats::Estimate;

/// The fields of CHIME Table 3, in the paper's column order.
pub const FIELDS: [ExplanationField; 3] = [
    ExplanationField::Meaning,
    ExplanationField::Origin,
    ExplanationField::Example,
];

/// One cell group of an accuracy table: the agree / neutral / disagree shares of one model on
/// one field (or one meme type).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shares {
    /// Share of Agree verdicts.
    pub agree: Estimate,
    /// Share of Neutral verdicts.
    pub neutral: Estimate,
    /// Share of Disagree verdicts.
    pub disagree: Estimate,
}

impl From<&AccuracyRow> for Shares {
    fn from(r: &AccuracyRow) -> Self {
        Self {
            agree: r.agree,
            neutral: r.neutral,
            disagree: r.disagree,
        }
    }
}

/// One model's row of a table: its label and one cell per column group (`None`: nothing
/// judged there).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRow<C> {
    /// Submission id.
    pub submission: String,
    /// Model name shown.
    pub label: String,
    /// The cells, in column order.
    pub cells: Vec<Option<C>>,
}

/// The row of `model` for `field` and `category` (`None` = pooled).
fn accuracy_row<'a>(
    rows: &'a [AccuracyRow],
    model: &str,
    field: Option<ExplanationField>,
    category: Option<&str>,
) -> Option<&'a AccuracyRow> {
    rows.iter()
        .find(|r| r.model == model && r.field == field && r.category.as_deref() == category)
}

/// Keeps the rows with at least one cell.
fn judged<C>(rows: Vec<ModelRow<C>>) -> Vec<ModelRow<C>> {
    rows.into_iter()
        .filter(|r| r.cells.iter().any(Option::is_some))
        .collect()
}

/// CHIME Table 3: per model (in the order of `models`, `(submission id, label)`), the shares
/// of each field of [`FIELDS`] over every meme type. Models without a verdict are left out.
pub fn by_field(rows: &[AccuracyRow], models: &[(String, String)]) -> Vec<ModelRow<Shares>> {
    let rows = models
        .iter()
        .map(|(id, label)| ModelRow {
            submission: id.clone(),
            label: label.clone(),
            cells: FIELDS
                .iter()
                .map(|f| accuracy_row(rows, id, Some(*f), None).map(Shares::from))
                .collect(),
        })
        .collect();
    judged(rows)
}

/// CHIME Table 12: the meme types judged (sorted by key) and per model the shares of `field`
/// on each type, in that order. Models without a verdict on the field are left out.
pub fn by_category(
    rows: &[AccuracyRow],
    models: &[(String, String)],
    field: ExplanationField,
) -> (Vec<String>, Vec<ModelRow<Shares>>) {
    let mut categories: Vec<String> = rows
        .iter()
        .filter(|r| r.field == Some(field))
        .filter_map(|r| r.category.clone())
        .collect();
    categories.sort();
    categories.dedup();
    let table = models
        .iter()
        .map(|(id, label)| ModelRow {
            submission: id.clone(),
            label: label.clone(),
            cells: categories
                .iter()
                .map(|c| accuracy_row(rows, id, Some(field), Some(c)).map(Shares::from))
                .collect(),
        })
        .collect();
    (categories, judged(table))
}

/// CMPM's dimension table: per model, the mean of each dimension in [`Dimension::ALL`] order,
/// then Core4 (the last cell). Models without a rating are left out.
pub fn by_dimension(rows: &[DimensionRow], models: &[(String, String)]) -> Vec<ModelRow<Estimate>> {
    let table = models
        .iter()
        .map(|(id, label)| {
            let row = rows.iter().find(|r| &r.model == id);
            let mut cells: Vec<Option<Estimate>> = Dimension::ALL
                .iter()
                .map(|d| {
                    row.and_then(|r| r.dimensions.iter().find(|m| m.dimension == *d))
                        .and_then(|m| m.mean)
                })
                .collect();
            cells.push(row.map(|r| r.core4));
            ModelRow {
                submission: id.clone(),
                label: label.clone(),
                cells,
            }
        })
        .collect();
    judged(table)
}

/// One model's ranking figures: its pairwise record and its Bradley–Terry fit.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingRow {
    /// Submission id.
    pub submission: String,
    /// Model name shown.
    pub label: String,
    /// Wins, ties and losses over its pairwise comparisons, with the win rate.
    pub record: Option<WinRateRow>,
    /// The Bradley–Terry fit.
    pub bt: Option<BtRow>,
}

/// The ranking table: per model (in the order of `models`), its win-rate row and its
/// Bradley–Terry row. Models in neither are left out.
pub fn by_ranking(
    win_rates: &[WinRateRow],
    bradley_terry: &[BtRow],
    models: &[(String, String)],
) -> Vec<RankingRow> {
    models
        .iter()
        .map(|(id, label)| RankingRow {
            submission: id.clone(),
            label: label.clone(),
            record: win_rates.iter().find(|w| &w.system == id).cloned(),
            bt: bradley_terry.iter().find(|b| &b.system == id).cloned(),
        })
        .filter(|r| r.record.is_some() || r.bt.is_some())
        .collect()
}

/// A share as a whole percentage and its interval: `("62%", "[48%, 75%]")`.
pub fn percent_cell(e: &Estimate) -> (String, String) {
    (
        format::percent(e.value),
        format!(
            "[{}, {}]",
            format::percent(e.ci_low),
            format::percent(e.ci_high)
        ),
    )
}

/// A mean (1–3) and its interval: `("2.430", "[2.31, 2.55]")`, as elsewhere on the page.
pub fn mean_cell(e: &Estimate) -> (String, String) {
    (format::accuracy(e.value), format::interval(e))
}

/// An Elo-like rating and its interval: `("1084", "[1012, 1160]")`.
pub fn rating_cell(e: &Estimate) -> (String, String) {
    (
        format!("{:.0}", e.value),
        format!("[{:.0}, {:.0}]", e.ci_low, e.ci_high),
    )
}

/// A Bradley–Terry strength from its natural log (the strengths' geometric mean is 1):
/// `0.0` → `1.00`.
pub fn strength(log_strength: f64) -> String {
    format!("{:.2}", log_strength.exp())
}

/// A batch's κ with two decimals (as the κ summary), or a dash when it has none.
pub fn kappa(b: &BatchAgreement) -> String {
    b.fleiss_kappa
        .map_or_else(|| format::DASH.to_owned(), |k| format!("{k:.2}"))
}

#[cfg(test)]
mod tests;

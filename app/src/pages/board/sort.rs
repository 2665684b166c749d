//! Sorting the board table: the columns a reader can sort by, the direction, the row order
//! (rows without a value last) and the ranks of scored model rows.

use crate::components::score::weights_text;
use crate::format;
use crate::i18n::Lang;
use memeboard_core::api::{BoardRow, RowGroup};
use std::cmp::Ordering;

/// A column the table can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    /// Server order (best overall first).
    Rank,
    /// Row label.
    Label,
    /// Model, human, baseline.
    Kind,
    /// Organisation.
    Organisation,
    /// Model size.
    Parameters,
    /// Open or closed weights.
    Weights,
    /// Upload date.
    Submitted,
    /// Accuracy in score column `i` (0 = overall, then the categories).
    Score(usize),
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortDir {
    /// Smallest first.
    Ascending,
    /// Largest first.
    Descending,
}

impl SortDir {
    /// The other direction.
    pub fn flip(self) -> Self {
        match self {
            Self::Ascending => Self::Descending,
            Self::Descending => Self::Ascending,
        }
    }

    /// The `aria-sort` value.
    pub fn aria(self) -> &'static str {
        match self {
            Self::Ascending => "ascending",
            Self::Descending => "descending",
        }
    }
}

impl SortKey {
    /// The direction of a first click: numbers largest first, text and rank A→Z / 1→n.
    pub fn first_direction(self) -> SortDir {
        match self {
            Self::Parameters | Self::Submitted | Self::Score(_) => SortDir::Descending,
            _ => SortDir::Ascending,
        }
    }
}

/// A cell's sort value.
#[derive(Debug, Clone, PartialEq)]
enum SortValue {
    Num(f64),
    Text(String),
}

fn sort_value(row: &BoardRow, index: usize, key: SortKey) -> Option<SortValue> {
    let model = row.model.as_ref();
    let text = |s: &str| {
        let s = s.trim();
        (!s.is_empty()).then(|| SortValue::Text(s.to_lowercase()))
    };
    match key {
        SortKey::Rank => Some(SortValue::Num(index as f64)),
        SortKey::Label => text(&row.label),
        SortKey::Kind => Some(SortValue::Num(match row.kind.group() {
            RowGroup::Model => 0.0,
            RowGroup::Human => 1.0,
            RowGroup::Baseline => 2.0,
            RowGroup::Published => 3.0,
        })),
        SortKey::Organisation => model.and_then(|m| text(&m.organisation)),
        SortKey::Parameters => model
            .and_then(|m| m.parameters.as_deref())
            .and_then(format::parameter_count)
            .map(SortValue::Num),
        SortKey::Weights => model.and_then(|m| text(weights_text(Lang::En, m.weights))),
        SortKey::Submitted => row.submitted_at.map(|t| SortValue::Num(t as f64)),
        SortKey::Score(i) => row
            .scores
            .get(i)
            .and_then(|s| s.estimate)
            .map(|e| SortValue::Num(e.value)),
    }
}

fn compare(a: &SortValue, b: &SortValue) -> Ordering {
    match (a, b) {
        (SortValue::Num(x), SortValue::Num(y)) => x.total_cmp(y),
        (SortValue::Text(x), SortValue::Text(y)) => x.cmp(y),
        (SortValue::Num(_), SortValue::Text(_)) => Ordering::Less,
        (SortValue::Text(_), SortValue::Num(_)) => Ordering::Greater,
    }
}

/// Row indices in display order. Rows without a value in the column (blind rows, crowd rows
/// without an organisation…) always come last; ties keep the server order.
pub fn sorted_indices(rows: &[BoardRow], key: SortKey, dir: SortDir) -> Vec<usize> {
    let values: Vec<Option<SortValue>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| sort_value(r, i, key))
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        match (&values[a], &values[b]) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(x), Some(y)) => match dir {
                SortDir::Ascending => compare(x, y),
                SortDir::Descending => compare(y, x),
            },
        }
        .then(a.cmp(&b))
    });
    order
}

/// Board ranks: scored model rows 1..n in the server's order (best overall first); human,
/// baseline and received-only rows get none.
pub fn model_ranks(rows: &[BoardRow]) -> Vec<Option<usize>> {
    memeboard_core::page_text::board::model_ranks(rows)
}

//! A board's first content in words: its heading's item note, the table's column headers and
//! the names of the human and baseline rows (models go by their own names).

use crate::api::{BoardRow, RowKind, SubmissionStatus};
use crate::stats::Estimate;

/// A board's words in one language.
#[derive(Debug, Clone, Copy)]
pub struct BoardText {
    /// "Scored on N test items · metric: M".
    pub board_items: fn(usize, &str) -> String,
    /// The table's accessible name.
    pub board_table_label: &'static str,
    /// Column: rank.
    pub col_rank: &'static str,
    /// Column: the row's name.
    pub col_model: &'static str,
    /// Column: the overall score.
    pub overall: &'static str,
    /// A reference row's rank cell, for screen readers.
    pub not_ranked: &'static str,
    /// A category figure withheld for too few items on the board half.
    pub too_few_items: &'static str,
    /// The model kind in words (badges, row kinds).
    pub kind_model: &'static str,
    /// Row: mean of per-participant scores.
    pub row_human_average: &'static str,
    /// Row: the best participant.
    pub row_human_best: &'static str,
    /// Row: expected score of random answers.
    pub row_chance: &'static str,
    /// Row: answering the order shown.
    pub row_display_order: &'static str,
    /// Row: one seeded random order per item.
    pub row_random_order: &'static str,
    /// Row: always the most common type.
    pub row_majority_type: &'static str,
    /// Row: one seeded random type per item.
    pub row_random_type: &'static str,
    /// Row: the prompt copied as the meaning.
    pub row_prompt_copy: &'static str,
    /// Row: all crowd answers pooled.
    pub row_human_pooled: &'static str,
    /// Row: explanations' chance level.
    pub row_random_pair: &'static str,
}

impl BoardText {
    /// The name of a human or baseline row kind (`None` for models and a paper's rows: they
    /// go by their own names).
    ///
    /// ```
    /// use memeboard_core::api::RowKind;
    /// use memeboard_core::page_text::board::BOARD_EN;
    /// assert_eq!(BOARD_EN.reference_row_name(RowKind::HumanBest), Some("Human best (crowd)"));
    /// assert_eq!(BOARD_EN.reference_row_name(RowKind::Model), None);
    /// ```
    pub fn reference_row_name(&self, kind: RowKind) -> Option<&'static str> {
        match kind {
            RowKind::Model | RowKind::Published => None,
            RowKind::HumanAverage => Some(self.row_human_average),
            RowKind::HumanBest => Some(self.row_human_best),
            RowKind::HumanPooled => Some(self.row_human_pooled),
            RowKind::Chance => Some(self.row_chance),
            RowKind::RandomPair => Some(self.row_random_pair),
            RowKind::DisplayOrder => Some(self.row_display_order),
            RowKind::RandomOrder => Some(self.row_random_order),
            RowKind::MajorityType => Some(self.row_majority_type),
            RowKind::RandomType => Some(self.row_random_type),
            RowKind::PromptCopy => Some(self.row_prompt_copy),
        }
    }
}

/// English.
pub const BOARD_EN: BoardText = BoardText {
    board_items: |n, metric| format!("Scored on {n} test items · metric: {metric}"),
    board_table_label: "Leaderboard table (scrolls sideways)",
    col_rank: "Rank",
    col_model: "Model",
    overall: "Overall",
    not_ranked: "not ranked",
    too_few_items: "too few items to show",
    kind_model: "model",
    row_human_average: "Human average (crowd)",
    row_human_best: "Human best (crowd)",
    row_chance: "Chance (expected score of random answers)",
    row_display_order: "Display order (answer = the order shown)",
    row_random_order: "Random order (one seeded draw per item)",
    row_majority_type: "Majority type (always the most common type)",
    row_random_type: "Random type (one seeded draw per item)",
    row_prompt_copy: "Copy of the prompt (the meme phrase as its meaning)",
    row_human_pooled: "Humans pooled (crowd)",
    row_random_pair: "Chance (a meaning that fits every meme alike)",
};

/// Simplified Chinese.
pub const BOARD_ZH: BoardText = BoardText {
    board_items: |n, metric| format!("基于 {n} 道测试题评分 · 指标：{metric}"),
    board_table_label: "排行榜表格（可横向滚动）",
    col_rank: "排名",
    col_model: "模型",
    overall: "总体",
    not_ranked: "不参与排名",
    too_few_items: "题目太少，不显示",
    kind_model: "模型",
    row_human_average: "人类平均（众包）",
    row_human_best: "人类最佳（众包）",
    row_chance: "随机猜测（期望值）",
    row_display_order: "按展示顺序作答",
    row_random_order: "随机顺序（每题一次固定种子抽样）",
    row_majority_type: "总选最常见的类型",
    row_random_type: "随机类型（每题一次固定种子抽样）",
    row_prompt_copy: "照抄题目（把梗本身当作释义）",
    row_human_pooled: "人类（众包，全部作答合并）",
    row_random_pair: "随机（对每个梗都一样适用的释义）",
};

/// Board ranks: scored model rows 1..n in the server's order (best overall first); human,
/// baseline and received-only rows get none.
///
/// ```
/// use memeboard_core::page_text::board::model_ranks;
/// assert!(model_ranks(&[]).is_empty());
/// ```
pub fn model_ranks(rows: &[BoardRow]) -> Vec<Option<usize>> {
    let mut next = 0;
    rows.iter()
        .map(|r| {
            (r.kind == RowKind::Model && r.status == SubmissionStatus::Scored).then(|| {
                next += 1;
                next
            })
        })
        .collect()
}

/// Whether no row of the board shows a figure for the category at score index `i` because
/// every figure there is withheld for too few items (the column would read "too few items
/// to show" all the way down, so pages leave it out with one note).
pub fn all_suppressed(rows: &[BoardRow], i: usize) -> bool {
    let cells: Vec<_> = rows.iter().filter_map(|r| r.scores.get(i)).collect();
    cells.iter().any(|c| c.suppressed) && cells.iter().all(|c| c.estimate.is_none())
}

/// A score with three decimals: `0.812`.
///
/// ```
/// assert_eq!(memeboard_core::page_text::board::score(0.8125), "0.812");
/// ```
pub fn score(x: f64) -> String {
    format!("{x:.3}")
}

/// The 95% interval of an estimate: `[0.75, 0.87]`.
pub fn interval(e: &Estimate) -> String {
    format!("[{:.2}, {:.2}]", e.ci_low, e.ci_high)
}

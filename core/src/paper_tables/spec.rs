//! How a kind declares one table of its paper: static data the page fills from boards and
//! published figures (see [`super::build_table`]).

/// One table of a paper, as the task's kind declares it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableSpec {
    /// Stable id within the benchmark (`table-4`, `table-1-main`).
    pub id: &'static str,
    /// Which table of which paper (`CHIME Table 4`).
    pub paper: &'static str,
    /// English title.
    pub title_en: &'static str,
    /// Chinese title.
    pub title_zh: &'static str,
    /// The task of the benchmark the table reads: its name within the benchmark (`mcq` for
    /// `<benchmark>-mcq`). A benchmark without that task shows no such table.
    pub task: &'static str,
    /// The item subset (`full`, `main`).
    pub subset: &'static str,
    /// The run conditions every row carries (`options=with_meanings`); the others are at
    /// their defaults, except the one a [`ColumnSpec::ConditionValues`] table varies.
    pub conditions: &'static [(&'static str, &'static str)],
    /// A condition whose every value gets rows of its own, named in the row (AVMeme Tables
    /// 1–2: audio only, "+ visual input" and text-only rows in one table).
    pub row_condition: Option<&'static str>,
    /// The columns.
    pub columns: ColumnSpec,
    /// A last column Δ = the row's overall figure minus its overall figure with this
    /// condition at this value (CHIME Table 5: with meanings minus labels only).
    pub delta_against: Option<(&'static str, &'static str)>,
    /// Whether the board's crowd and baseline rows belong in the table (the papers put
    /// human and chance rows in their main tables, not in their ablations).
    pub reference_rows: bool,
}

/// What the columns of a table are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColumnSpec {
    /// The board's primary metric, overall then per category (CHIME Table 4).
    Categories {
        /// Whether the metric is a fraction shown as a percentage.
        percent: bool,
    },
    /// One secondary metric of the board (`cosine`), overall then per category, read from the
    /// figures keyed `<metric>` and `<metric>:<category>` (CHIME Table 10: cosine and
    /// BERTScore per meme type); published figures name the metric and the category.
    CategoriesOf {
        /// The metric's key.
        metric: &'static str,
        /// Whether the metric is a fraction shown as a percentage.
        percent: bool,
    },
    /// Several metrics, overall (CMPM Table 5: accuracy, macro-F1, weighted-F1, parse rate).
    Metrics(&'static [MetricColumn]),
    /// The primary metric overall under each value of one condition (AVMeme Table 5:
    /// thinking levels), optionally each followed by its Δ against the first.
    ConditionValues {
        /// The condition.
        condition: &'static str,
        /// Its values, the reference first.
        values: &'static [ValueColumn],
        /// Whether the metric is a fraction shown as a percentage.
        percent: bool,
        /// Whether each value after the first is followed by its Δ against the first.
        deltas: bool,
    },
    /// The primary metric overall on several tasks of the benchmark, matched by model
    /// (CMPM Table 6: the display × context grid).
    Tasks {
        /// The tasks, in column order.
        tasks: &'static [TaskColumn],
        /// Whether the metric is a fraction shown as a percentage.
        percent: bool,
    },
    /// Conditional accuracies across two tasks of the benchmark, joined through the items'
    /// sources (CHIME §5.3: P(MCQ right | explanation right) and the converse), one row per
    /// model with a run on both; computed by the page from the two runs' item scores on
    /// revealed views only (see `paper_tables::cross_task`).
    CrossTask(&'static CrossTaskSpec),
    /// The crowd's familiarity groups (AVMeme Exam Figure 4: familiar, seen but not familiar,
    /// unseen), one column each: a crowd row with its pooled accuracy per group as the board
    /// publishes it, and one row per model run under the default conditions with its
    /// accuracy over the crowd's (participant, item) answers of each group, computed by the
    /// page on revealed views only (see `paper_tables::familiarity`).
    FamiliarityGroups {
        /// The groups (the familiarity answers' keys), in column order.
        groups: &'static [ValueColumn],
        /// Whether the figures are fractions shown as percentages.
        percent: bool,
    },
    /// The board's secondary figures whose key starts with one of these prefixes (AVMeme
    /// Table 2: `sound:` and `lang:`), in the board's order.
    Facets {
        /// Key prefixes.
        prefixes: &'static [&'static str],
        /// Headers of known keys (key, English, Chinese); other keys are their own header.
        labels: &'static [(&'static str, &'static str, &'static str)],
        /// Whether the figures are fractions shown as percentages.
        percent: bool,
    },
}

/// One metric column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MetricColumn {
    /// The metric's key, as published figures name it (`macro_f1`).
    pub key: &'static str,
    /// English header.
    pub label_en: &'static str,
    /// Chinese header.
    pub label_zh: &'static str,
    /// Whether values are fractions shown as percentages.
    pub percent: bool,
    /// Where the site's figure is on a board row.
    pub source: MetricSource,
}

/// Where a metric's site figure is on a board row.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MetricSource {
    /// The board's primary metric (the row's overall score).
    Primary,
    /// A secondary figure, by its key.
    Extra(&'static str),
    /// The number of items a secondary figure (a rate) counts: rate × items (CMPM's
    /// `n_scored` = parse rate × comics).
    CountOf(&'static str),
    /// Published only (the site has no such scorer, e.g. BARTScore).
    PublishedOnly,
}

/// One value of a [`ColumnSpec::ConditionValues`] table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ValueColumn {
    /// The condition value.
    pub value: &'static str,
    /// English header.
    pub label_en: &'static str,
    /// Chinese header.
    pub label_zh: &'static str,
}

/// One task of a [`ColumnSpec::Tasks`] grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaskColumn {
    /// The task's name within the benchmark.
    pub task: &'static str,
    /// The item subset of the site's cell.
    pub subset: &'static str,
    /// The item subset of the published cell (CMPM's shuffled-no-context cell is over the
    /// comment-available comics, `cas`).
    pub published_subset: &'static str,
    /// English header.
    pub label_en: &'static str,
    /// Chinese header.
    pub label_zh: &'static str,
}

/// Two tasks of a [`ColumnSpec::CrossTask`] table and when an item of each counts as right.
/// The table's rows are the first task's model rows (default conditions) that have a run of
/// the same model on the second task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossTaskSpec {
    /// The first task's name within the benchmark (`mcq`).
    pub first: &'static str,
    /// Item score at or above which a first-task item counts as right.
    pub first_correct: f64,
    /// The second task's name within the benchmark (`explain`).
    pub second: &'static str,
    /// Item score at or above which a second-task item counts as right.
    pub second_correct: f64,
    /// Key and headers (English, Chinese) of P(first right | second right); the key is the
    /// published figures' metric (on the first task).
    pub first_given_second: (&'static str, &'static str, &'static str),
    /// Key and headers of P(second right | first right).
    pub second_given_first: (&'static str, &'static str, &'static str),
}

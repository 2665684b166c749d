//! The downloads of a paper table: CSV (one line per row, every figure with its interval and
//! item count, raw values) and LaTeX (a booktabs `table` in the paper's shape, percentages
//! as the papers print them, intervals in brackets, published rows below a rule).

use super::{PaperTable, TableCell, TableColumn, TableRow};
use crate::api::BoardSplit;
use crate::csv::{csv_field, csv_text};

/// The language of headers and titles in a download.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Chinese.
    Zh,
}

impl Lang {
    /// `zh` → Chinese, anything else English.
    pub fn parse(s: Option<&str>) -> Self {
        match s {
            Some("zh") => Self::Zh,
            _ => Self::En,
        }
    }

    fn column(self, c: &TableColumn) -> &str {
        match self {
            Self::En => &c.label_en,
            Self::Zh => &c.label_zh,
        }
    }

    /// A row's name: crowd and baseline rows by their kind in this language, the others by
    /// their own label.
    fn row_name(self, row: &TableRow) -> &str {
        let text = match self {
            Self::En => &crate::page_text::board::BOARD_EN,
            Self::Zh => &crate::page_text::board::BOARD_ZH,
        };
        text.reference_row_name(row.kind).unwrap_or(&row.label)
    }

    fn title(self, t: &PaperTable) -> &str {
        match self {
            Self::En => &t.title_en,
            Self::Zh => &t.title_zh,
        }
    }
}

/// The conditions of a row as `name=value` pairs joined by `;`.
fn conditions_text(row: &super::TableRow) -> String {
    row.conditions
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The table as CSV: `row,kind,conditions,source`, then per column its value, interval and
/// items (`<key>`, `<key>_ci_low`, `<key>_ci_high`, `<key>_n`), and in a table whose figures
/// count people's answers also those answers (`<key>_pairs`), values as stored (fractions).
///
/// ```
/// use memeboard_core::api::RowKind;
/// use memeboard_core::paper_tables::{PaperTable, TableCell, TableColumn, TableRow};
/// use memeboard_core::paper_tables::render::{to_csv, Lang};
/// let table = PaperTable {
///     id: "table-4".into(), paper: "CHIME Table 4".into(), title_en: "MCQ".into(),
///     title_zh: "选择题".into(), task: "chime-mcq".into(), kind: None, subset: "full".into(), items: 10,
///     columns: vec![TableColumn { key: "overall".into(), label_en: "Overall".into(),
///                                 label_zh: "总体".into(), percent: true, delta: false }],
///     rows: vec![TableRow { kind: RowKind::Model, label: "m".into(), conditions: Default::default(),
///                           source: None, cells: vec![Some(TableCell::plain(0.5))] }],
/// };
/// assert_eq!(to_csv(&table), "row,kind,conditions,source,overall,overall_ci_low,overall_ci_high,overall_n\nm,model,,,0.5,,,\n");
/// let mut counted = table.clone();
/// counted.rows[0].cells[0] = Some(TableCell { items: Some(4), pairs: Some(9), ..TableCell::plain(0.5) });
/// assert!(to_csv(&counted).ends_with("overall_n,overall_pairs\nm,model,,,0.5,,,4,9\n"));
/// ```
pub fn to_csv(table: &PaperTable) -> String {
    let with_pairs = table
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .any(|c| c.is_some_and(|c| c.pairs.is_some()));
    let mut out = String::from("row,kind,conditions,source");
    for c in &table.columns {
        let k = csv_field(&c.key);
        out.push_str(&format!(",{k},{k}_ci_low,{k}_ci_high,{k}_n"));
        if with_pairs {
            out.push_str(&format!(",{k}_pairs"));
        }
    }
    out.push('\n');
    let num = |v: Option<f64>| v.map(|v| v.to_string()).unwrap_or_default();
    for row in &table.rows {
        let kind = serde_json::to_value(row.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        out.push_str(&format!(
            "{},{},{},{}",
            csv_text(&row.label),
            kind,
            csv_field(&conditions_text(row)),
            csv_text(row.source.as_deref().unwrap_or(""))
        ));
        for cell in &row.cells {
            let c = cell.as_ref();
            let count = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
            out.push_str(&format!(
                ",{},{},{},{}",
                num(c.map(|c| c.value)),
                num(c.and_then(|c| c.ci_low)),
                num(c.and_then(|c| c.ci_high)),
                count(c.and_then(|c| c.items))
            ));
            if with_pairs {
                out.push_str(&format!(",{}", count(c.and_then(|c| c.pairs))));
            }
        }
        out.push('\n');
    }
    out
}

/// Text with LaTeX's special characters escaped.
///
/// ```
/// use memeboard_core::paper_tables::render::latex_escape;
/// assert_eq!(latex_escape("A&B 50% #1_x"), r"A\&B 50\% \#1\_x");
/// ```
pub fn latex_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str(r"\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '~' => out.push_str(r"\textasciitilde{}"),
            '^' => out.push_str(r"\textasciicircum{}"),
            _ => out.push(ch),
        }
    }
    out
}

/// One figure as the papers print it: percentages with one decimal (`75.2`), other values
/// with three (`0.805`), a Δ with its sign; the interval in brackets when there is one.
///
/// ```
/// use memeboard_core::paper_tables::TableCell;
/// use memeboard_core::paper_tables::render::figure_text;
/// let c = TableCell { value: 0.752, ci_low: Some(0.70), ci_high: Some(0.80), items: None, pairs: None };
/// assert_eq!(figure_text(&c, true, false, true), "75.2 [70.0, 80.0]");
/// assert_eq!(figure_text(&TableCell::plain(0.088), true, true, false), "+8.8");
/// assert_eq!(figure_text(&TableCell::plain(0.805), false, false, false), "0.805");
/// assert_eq!(figure_text(&TableCell::plain(-0.0), true, true, false), "0.0");
/// ```
pub fn figure_text(cell: &TableCell, percent: bool, delta: bool, with_ci: bool) -> String {
    let show = |v: f64| {
        let text = if percent {
            fixed(v * 100.0, 1)
        } else if v.fract() == 0.0 && v.abs() >= 1.0 {
            fixed(v, 0)
        } else {
            fixed(v, 3)
        };
        if delta && !text.starts_with('-') && text.bytes().any(|b| b.is_ascii_digit() && b != b'0')
        {
            format!("+{text}")
        } else {
            text
        }
    };
    let mut out = show(cell.value);
    if let (true, Some(lo), Some(hi)) = (with_ci, cell.ci_low, cell.ci_high) {
        let (lo, hi) = if percent {
            (fixed(lo * 100.0, 1), fixed(hi * 100.0, 1))
        } else {
            (fixed(lo, 3), fixed(hi, 3))
        };
        out.push_str(&format!(" [{lo}, {hi}]"));
    }
    out
}

/// `v` with `decimals` decimals, never a negative zero (`-0.0` reads as a sign the figure
/// does not have).
///
/// ```
/// use memeboard_core::paper_tables::render::fixed;
/// assert_eq!(fixed(-0.00001, 1), "0.0");
/// assert_eq!(fixed(-0.25, 1), "-0.2");
/// ```
pub fn fixed(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
        _ => text,
    }
}

/// The table as a LaTeX `table` with booktabs rules: the site's rows, a rule, the published
/// rows (their source in the caption's notes); intervals in brackets under each figure.
///
/// ```
/// use memeboard_core::api::{BoardSplit, RowKind};
/// use memeboard_core::paper_tables::{PaperTable, TableCell, TableColumn, TableRow};
/// use memeboard_core::paper_tables::render::{to_latex, Lang};
/// let table = PaperTable {
///     id: "table-4".into(), paper: "CHIME Table 4".into(), title_en: "MCQ accuracy".into(),
///     title_zh: "选择题准确率".into(), task: "chime-mcq".into(), kind: None, subset: "full".into(), items: 10,
///     columns: vec![TableColumn { key: "overall".into(), label_en: "Overall".into(),
///                                 label_zh: "总体".into(), percent: true, delta: false }],
///     rows: vec![TableRow { kind: RowKind::Published, label: "GPT_4o".into(),
///                           conditions: Default::default(), source: Some("CHIME, Table 4".into()),
///                           cells: vec![Some(TableCell::plain(0.809))] }],
/// };
/// let tex = to_latex(&table, Lang::En, BoardSplit::Public);
/// assert!(tex.contains(r"\toprule") && tex.contains(r"\bottomrule"));
/// assert!(tex.contains(r"GPT\_4o$^{\dagger}$ & 80.9 \\"));
/// ```
pub fn to_latex(table: &PaperTable, lang: Lang, split: BoardSplit) -> String {
    let mut out = String::new();
    let align: String = "l".to_owned() + &"r".repeat(table.columns.len());
    out.push_str("% memeboard paper table; needs \\usepackage{booktabs}");
    if lang == Lang::Zh {
        out.push_str(" and a CJK set-up (e.g. \\usepackage{xeCJK} with XeLaTeX)");
    }
    out.push('\n');
    out.push_str("\\begin{table}[t]\n\\centering\n\\small\n");
    let (model, site, published) = match lang {
        Lang::En => ("Model", "site figures", "published"),
        Lang::Zh => ("模型", "本站数据", "论文发表"),
    };
    out.push_str(&format!(
        "\\caption{{{} ({}). {}: {}, {} items, 95\\% CIs in brackets; $^{{\\dagger}}$ {}.}}\n",
        latex_escape(lang.title(table)),
        latex_escape(&table.paper),
        site,
        match split {
            BoardSplit::Whole => "whole test split".to_owned(),
            half => format!("{} half", half.as_str()),
        },
        table.items,
        published
    ));
    out.push_str(&format!(
        "\\label{{tab:memeboard-{}}}\n",
        latex_escape(&table.id)
    ));
    out.push_str(&format!("\\begin{{tabular}}{{{align}}}\n\\toprule\n"));
    let headers: Vec<String> = table
        .columns
        .iter()
        .map(|c| latex_escape(lang.column(c)))
        .collect();
    out.push_str(&format!(
        "{model} & {} \\\\\n\\midrule\n",
        headers.join(" & ")
    ));
    let (site_rows, published_rows): (Vec<_>, Vec<_>) = table
        .rows
        .iter()
        .partition(|r| r.kind != crate::api::RowKind::Published);
    let mut sources: Vec<&str> = Vec::new();
    for (i, group) in [site_rows, published_rows].iter().enumerate() {
        if i == 1 && !group.is_empty() && out.lines().last() != Some("\\midrule") {
            out.push_str("\\midrule\n");
        }
        for row in group {
            let mut label = latex_escape(lang.row_name(row));
            let conditions = conditions_text(row);
            if !conditions.is_empty() {
                label.push_str(&format!(" ({})", latex_escape(&conditions)));
            }
            if let Some(s) = &row.source {
                label.push_str("$^{\\dagger}$");
                if !sources.contains(&s.as_str()) {
                    sources.push(s);
                }
            }
            let cells: Vec<String> = row
                .cells
                .iter()
                .zip(&table.columns)
                .map(|(cell, col)| match cell {
                    Some(c) => {
                        figure_text(c, col.percent, col.delta, false) + &ci_line(c, col.percent)
                    }
                    None => "--".to_owned(),
                })
                .collect();
            out.push_str(&format!("{label} & {} \\\\\n", cells.join(" & ")));
        }
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    if !sources.is_empty() {
        let list: Vec<String> = sources.iter().map(|s| latex_escape(s)).collect();
        out.push_str(&format!(
            "\\par\\smallskip\\footnotesize $^{{\\dagger}}$ {}\n",
            list.join("; ")
        ));
    }
    out.push_str("\\end{table}\n");
    out
}

/// A cell's interval as a small line after its figure, empty without one.
fn ci_line(cell: &TableCell, percent: bool) -> String {
    match (cell.ci_low, cell.ci_high) {
        (Some(_), Some(_)) => {
            let text = figure_text(cell, percent, false, true);
            let ci = text.split_once(' ').map(|x| x.1).unwrap_or_default();
            format!(" {{\\scriptsize {ci}}}")
        }
        _ => String::new(),
    }
}

//! `memeboard stats --export FILE`: the site's human rows recomputed from an answer-level
//! export alone (CSV or JSON Lines), so a paper's table can be reproduced from released data.
//!
//! The rows come from the same core functions as the site's (`crowd::category_rows`,
//! `crowd::crowd_rows`, `crowd::facet_rows`, `crowd::agreement_by_dimension`), with the same
//! bootstrap seeds and resample count, over the same answers (completed sessions, not
//! excluded) in the same order ([`super::crowd_order`]): the numbers are identical, intervals
//! included (tested against the API).

use super::{ColumnType, COLUMNS};
use crate::kinds::ServerKind;
use memeboard_core::api::{CrowdRow, FamiliarityRow};
use memeboard_core::crowd::{
    agreement_by_dimension, category_rows, crowd_rows, AgreementRow, CrowdAnswer, CrowdObservation,
    Rating,
};
use memeboard_core::kinds::{Kind, TaskKind};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::{AlphaLevel, Estimate};
use memeboard_core::tasks::label_key;
use memeboard_core::with_kind;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// Why an export could not be read or summarised: where, and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum ExportReadError {
    /// A line or cell that does not parse.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based line number in the file.
        line: usize,
        /// What was found and expected.
        message: String,
    },
    /// A column the statistics need is missing from the CSV header.
    #[error(
        "the CSV header has no column `{0}` (the statistics need it; see the data dictionary)"
    )]
    MissingColumn(String),
    /// The file as a whole cannot be summarised (empty, several tasks, unknown kind).
    #[error("{0}")]
    File(String),
}

/// The columns the statistics read: the rest of the export may be removed before release
/// (e.g. the Prolific ids) without changing a number.
pub const STATS_COLUMNS: &[&str] = &[
    "task",
    "task_kind",
    "participant",
    "session",
    "session_completed_at",
    "item_id",
    "category",
    "split",
    "board_half",
    "subsets",
    "familiarity",
    "num_options",
    "choice",
    "score",
    "board_baseline",
    "answered_at",
    "excluded",
];

/// The part of an export row the statistics read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[allow(missing_docs)]
pub struct StatsRecord {
    pub task: String,
    pub task_kind: String,
    pub participant: String,
    pub session: String,
    pub session_completed_at: Option<i64>,
    pub item_id: String,
    pub category: String,
    pub split: String,
    pub board_half: Option<String>,
    pub subsets: Vec<String>,
    pub familiarity: Option<String>,
    pub num_options: Option<i64>,
    pub choice: Option<i64>,
    #[serde(deserialize_with = "exact_f64")]
    pub score: Option<f64>,
    #[serde(deserialize_with = "exact_f64")]
    pub board_baseline: Option<f64>,
    pub answered_at: i64,
    pub excluded: i64,
}

/// A number read from its JSON text with the standard library's exact parser (serde_json's
/// default float parsing may be one unit in the last place off, which would move a mean).
fn exact_f64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let raw: Option<Box<serde_json::value::RawValue>> = Option::deserialize(d)?;
    raw.map(|r| {
        r.get()
            .parse::<f64>()
            .map_err(|_| serde::de::Error::custom(format!("expected a number, found {}", r.get())))
    })
    .transpose()
}

/// The subsets of a kind without any: the full item set.
const FULL_ONLY: &[&str] = &["full"];

/// Settings the site computes with (both from the configuration: `[quiz]
/// bootstrap_resamples`, `[leaderboard] min_category_items`).
#[derive(Debug, Clone, Copy)]
pub struct StatsOptions {
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Categories with fewer items on a board half show no figure there.
    pub min_category_items: usize,
}

/// The quiz's crowd table (`GET /api/quizzes/{slug}/stats`: every item, dev and test).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QuizTable {
    /// Participants with a counted answer.
    pub completed_participants: usize,
    /// Overall, then one row per category present in the file (sorted by key).
    pub rows: Vec<CrowdRow>,
    /// Agreement per rated dimension (choices: Fleiss' κ, Krippendorff's α).
    pub agreement: Vec<AgreementRow>,
}

/// The human rows of one board (`GET /api/boards/{slug}?split=…&subset=…`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardTable {
    /// `public` or `private`.
    pub split: String,
    /// Item subset (`full`, `main`…).
    pub subset: String,
    /// Participants in the rows (the site shows the rows only when there are any).
    pub participants: usize,
    /// The "Human average" row's scores, as the board's `scores`.
    pub human_average: Vec<CategoryEstimate>,
    /// The "Human best" row's scores.
    pub human_best: Vec<CategoryEstimate>,
    /// Accuracy by familiarity (kinds that ask it), as the board's `familiarity`.
    pub familiarity: Vec<FamiliarityRow>,
}

/// Everything `memeboard stats --export` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatsReport {
    /// Task slug.
    pub task: String,
    /// Task kind.
    pub task_kind: String,
    /// Rows in the file.
    pub answers_in_file: usize,
    /// Rows counted (completed sessions, not excluded).
    pub answers_counted: usize,
    /// The quiz statistics.
    pub quiz: QuizTable,
    /// The human rows of every board half and subset.
    pub boards: Vec<BoardTable>,
}

/// Reads an export (CSV with or without its byte-order mark, or JSON Lines: told apart by
/// the first character).
pub fn read_export(text: &str) -> Result<Vec<StatsRecord>, ExportReadError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim_start().starts_with('{') {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(n, l)| {
                serde_json::from_str(l).map_err(|e| ExportReadError::Line {
                    line: n + 1,
                    message: format!("expected an export object: {e}"),
                })
            })
            .collect()
    } else {
        read_csv(text)
    }
}

/// RFC 4180 records with the line each starts on.
fn csv_records(text: &str) -> Result<Vec<(usize, Vec<String>)>, ExportReadError> {
    let mut out = Vec::new();
    let (mut record, mut field) = (Vec::new(), String::new());
    let (mut line, mut start) = (1usize, 1usize);
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    field.push(c);
                }
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => quoted = true,
            ',' => record.push(std::mem::take(&mut field)),
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                if !(record.len() == 1 && record[0].is_empty()) {
                    out.push((start, std::mem::take(&mut record)));
                }
                record.clear();
                line += 1;
                start = line;
            }
            _ => field.push(c),
        }
    }
    if quoted {
        return Err(ExportReadError::Line {
            line: start,
            message: "a quoted field is not closed (expected a closing \")".into(),
        });
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        out.push((start, record));
    }
    Ok(out)
}

/// A text cell as written before the export's formula neutralisation (a `'` before `=`, `+`,
/// `-`, `@`, tab or carriage return).
fn unneutralised(s: &str) -> &str {
    match s.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest,
        _ => s,
    }
}

fn read_csv(text: &str) -> Result<Vec<StatsRecord>, ExportReadError> {
    let mut records = csv_records(text)?.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(ExportReadError::File(
            "the file is empty (expected a header row)".into(),
        ));
    };
    let types: HashMap<&str, ColumnType> = COLUMNS.iter().map(|(n, t, _)| (*n, *t)).collect();
    let mut columns = Vec::new();
    for name in STATS_COLUMNS {
        let index = header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| ExportReadError::MissingColumn((*name).to_owned()))?;
        columns.push((*name, index, types[name]));
    }
    records
        .map(|(line, cells)| {
            let bad = |message: String| ExportReadError::Line { line, message };
            if cells.len() != header.len() {
                return Err(bad(format!(
                    "expected {} fields as in the header, found {}",
                    header.len(),
                    cells.len()
                )));
            }
            let mut object = Map::new();
            for (name, index, t) in &columns {
                let cell = cells[*index].as_str();
                let value = if cell.is_empty() {
                    Value::Null
                } else {
                    match t {
                        ColumnType::Text => Value::String(unneutralised(cell).to_owned()),
                        ColumnType::Integer => {
                            cell.parse::<i64>().map(Value::from).map_err(|_| {
                                bad(format!(
                                    "column `{name}`: expected an integer, found `{cell}`"
                                ))
                            })?
                        }
                        ColumnType::Number => cell
                            .parse::<f64>()
                            .ok()
                            .and_then(|x| serde_json::Number::from_f64(x).map(Value::Number))
                            .ok_or_else(|| {
                                bad(format!(
                                    "column `{name}`: expected a number, found `{cell}`"
                                ))
                            })?,
                        ColumnType::Json => {
                            serde_json::from_str(unneutralised(cell)).map_err(|e| {
                                bad(format!(
                                    "column `{name}`: expected JSON, found `{cell}` ({e})"
                                ))
                            })?
                        }
                    }
                };
                object.insert((*name).to_owned(), value);
            }
            // Through JSON text, so numbers take the same exact path as in JSON Lines.
            serde_json::from_str(&Value::Object(object).to_string()).map_err(|e| bad(e.to_string()))
        })
        .collect()
}

/// The site's human rows from an export's records.
pub fn human_rows(
    records: &[StatsRecord],
    options: StatsOptions,
) -> Result<StatsReport, ExportReadError> {
    let first = records
        .first()
        .ok_or_else(|| ExportReadError::File("the export has no answers".into()))?;
    if let Some(other) = records.iter().find(|r| r.task != first.task) {
        return Err(ExportReadError::File(format!(
            "the file mixes tasks `{}` and `{}` (expected one task's export)",
            first.task, other.task
        )));
    }
    let kind = TaskKind::parse(&first.task_kind).ok_or_else(|| {
        ExportReadError::File(format!(
            "unknown task kind `{}` (expected one of {})",
            first.task_kind,
            TaskKind::ALL.map(TaskKind::as_str).join(", ")
        ))
    })?;
    // The site's crowd: completed sessions, not excluded, in its order.
    let mut counted: Vec<&StatsRecord> = records
        .iter()
        .filter(|r| r.session_completed_at.is_some() && r.excluded == 0)
        .collect();
    counted.sort_by(|a, b| {
        (&a.participant, &a.item_id, a.answered_at, &a.session).cmp(&(
            &b.participant,
            &b.item_id,
            b.answered_at,
            &b.session,
        ))
    });
    let categories: Vec<String> = records
        .iter()
        .map(|r| r.category.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let observations: Vec<CrowdObservation> = counted
        .iter()
        .map(|r| CrowdObservation {
            participant: r.participant.clone(),
            item: r.item_id.clone(),
            category: r.category.clone(),
            facets: Vec::new(),
            subsets: Vec::new(),
            score: r.score,
            ratings: r
                .choice
                .and_then(|c| usize::try_from(c).ok())
                .map(|c| Rating {
                    dimension: "choice".into(),
                    level: AlphaLevel::Nominal,
                    value: c as f64,
                    num_categories: r.num_options.and_then(|n| usize::try_from(n).ok()),
                })
                .into_iter()
                .collect(),
        })
        .collect();
    let rows = category_rows(
        &observations,
        &categories,
        None,
        options.resamples,
        crate::quiz::BOOTSTRAP_SEED,
    );
    let quiz = QuizTable {
        completed_participants: rows.first().map_or(0, |r| r.participants),
        rows,
        agreement: agreement_by_dimension(&observations),
    };
    let (subsets, preface, board_value) = with_kind!(kind, K => (
        if K::SUBSETS.is_empty() { FULL_ONLY } else { K::SUBSETS },
        K::PREFACE,
        K::board_value as fn(f64, Option<f64>) -> f64,
    ));
    let baseline = counted.iter().find_map(|r| r.board_baseline);
    let rescale = board_value(1.0, baseline) != 1.0 || board_value(0.0, baseline) != 0.0;
    let mut boards = Vec::new();
    for half in ["public", "private"] {
        for subset in subsets {
            let in_half: Vec<&StatsRecord> = counted
                .iter()
                .copied()
                .filter(|r| {
                    r.split == "test"
                        && r.board_half.as_deref() == Some(half)
                        && r.subsets.iter().any(|s| s == subset)
                })
                .collect();
            boards.push(board_table(
                half,
                subset,
                &in_half,
                &categories,
                options,
                rescale.then_some((board_value, baseline)),
                preface,
            ));
        }
    }
    Ok(StatsReport {
        task: first.task.clone(),
        task_kind: first.task_kind.clone(),
        answers_in_file: records.len(),
        answers_counted: counted.len(),
        quiz,
        boards,
    })
}

type Rescale = (fn(f64, Option<f64>) -> f64, Option<f64>);

fn board_table(
    half: &str,
    subset: &str,
    in_half: &[&StatsRecord],
    categories: &[String],
    options: StatsOptions,
    rescale: Option<Rescale>,
    preface: bool,
) -> BoardTable {
    let seed = memeboard_core::leaderboard::BOOTSTRAP_SEED;
    let answers: Vec<CrowdAnswer> = in_half
        .iter()
        .filter_map(|r| {
            Some(CrowdAnswer {
                participant: r.participant.clone(),
                item: r.item_id.clone(),
                category: r.category.clone(),
                choice: r.choice.and_then(|c| usize::try_from(c).ok()),
                score: r.score?,
            })
        })
        .collect();
    let crowd = crowd_rows(&answers, categories, options.resamples, seed);
    let items_answered = |cat: Option<&String>| {
        answers
            .iter()
            .filter(|a| cat.is_none_or(|c| &a.category == c))
            .map(|a| a.item.as_str())
            .collect::<BTreeSet<_>>()
            .len()
    };
    let row = |pick: fn(&CrowdRow) -> Option<Estimate>| -> Vec<CategoryEstimate> {
        crowd
            .iter()
            .map(|r| {
                let mut e = CategoryEstimate {
                    category: r.category.clone(),
                    items: items_answered(r.category.as_ref()),
                    estimate: pick(r),
                    suppressed: false,
                };
                if let (Some((f, b)), Some(est)) = (rescale, &mut e.estimate) {
                    est.value = f(est.value, b);
                    est.ci_low = f(est.ci_low, b);
                    est.ci_high = f(est.ci_high, b);
                }
                e.suppress_below(options.min_category_items);
                e
            })
            .collect()
    };
    let familiarity = if preface {
        familiarity_rows(in_half, options, seed)
    } else {
        Vec::new()
    };
    BoardTable {
        split: half.to_owned(),
        subset: subset.to_owned(),
        participants: crowd.first().map_or(0, |r| r.participants),
        human_average: row(|r| r.human_average),
        human_best: row(|r| r.human_best),
        familiarity,
    }
}

/// As the board's familiarity rows: pooled accuracy per familiarity answer, shown from the
/// category minimum of answers.
fn familiarity_rows(
    in_half: &[&StatsRecord],
    options: StatsOptions,
    seed: u64,
) -> Vec<FamiliarityRow> {
    let observations: Vec<CrowdObservation> = in_half
        .iter()
        .filter_map(|r| {
            Some(CrowdObservation {
                participant: r.participant.clone(),
                item: r.item_id.clone(),
                category: r.category.clone(),
                facets: vec![("familiarity".into(), r.familiarity.clone()?)],
                subsets: Vec::new(),
                score: r.score,
                ratings: Vec::new(),
            })
        })
        .collect();
    memeboard_core::crowd::familiarity_rows(
        &observations,
        options.resamples,
        seed,
        options.min_category_items,
    )
}

/// Reads an export and recomputes its human rows.
pub fn stats_from_export(
    text: &str,
    options: StatsOptions,
) -> Result<StatsReport, ExportReadError> {
    human_rows(&read_export(text)?, options)
}

fn estimate(e: Option<Estimate>) -> String {
    e.map_or_else(
        || "—".to_owned(),
        |e| format!("{:.4} [{:.4}, {:.4}]", e.value, e.ci_low, e.ci_high),
    )
}

/// The report as plain-text tables (full precision: `--json`).
pub fn render(report: &StatsReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "task {} ({}): {} answers in the file, {} counted (completed sessions, not excluded)",
        report.task, report.task_kind, report.answers_in_file, report.answers_counted
    );
    let _ = writeln!(
        out,
        "\nQuiz statistics, every item (GET /api/quizzes/{}/stats): {} participants",
        report.task, report.quiz.completed_participants
    );
    let _ = writeln!(
        out,
        "{:<24} {:>6}  {:<28} {:<28} {:<28}",
        "category", "people", "human average [95% CI]", "human best [95% CI]", "pooled [95% CI]"
    );
    for r in &report.quiz.rows {
        let _ = writeln!(
            out,
            "{:<24} {:>6}  {:<28} {:<28} {:<28}",
            r.category.as_deref().unwrap_or("overall"),
            r.participants,
            estimate(r.human_average),
            estimate(r.human_best),
            estimate(r.pooled)
        );
    }
    for a in &report.quiz.agreement {
        let f = |x: Option<f64>| x.map_or_else(|| "—".to_owned(), |x| format!("{x:.4}"));
        let _ = writeln!(
            out,
            "agreement on `{}`: Fleiss' kappa {}, Krippendorff's alpha {} ({} items, {} raters, {} ratings)",
            a.dimension,
            f(a.fleiss_kappa),
            f(a.krippendorff_alpha),
            a.items,
            a.raters,
            a.ratings
        );
    }
    for b in &report.boards {
        let _ = writeln!(
            out,
            "\nBoard {} / {} (GET /api/boards/{}?split={}&subset={}): {} participants",
            b.split, b.subset, report.task, b.split, b.subset, b.participants
        );
        let _ = writeln!(
            out,
            "{:<24} {:>6}  {:<28} {:<28}",
            "category", "items", "human average [95% CI]", "human best [95% CI]"
        );
        for (avg, best) in b.human_average.iter().zip(&b.human_best) {
            let shown = |c: &CategoryEstimate| {
                if c.suppressed {
                    "too few items to show".to_owned()
                } else {
                    estimate(c.estimate)
                }
            };
            let _ = writeln!(
                out,
                "{:<24} {:>6}  {:<28} {:<28}",
                avg.category.as_deref().unwrap_or("overall"),
                avg.items,
                shown(avg),
                shown(best)
            );
        }
        for f in &b.familiarity {
            let _ = writeln!(
                out,
                "familiarity {:<18} {:>3} participants, {:>4} answers: pooled {}",
                label_key(&f.familiarity),
                f.participants,
                f.answers,
                estimate(f.estimate)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_read_back_with_quotes_line_breaks_and_neutralised_formulas() {
        let text = "\u{feff}a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\r\n'=SUM(1),'plain\n";
        let records = csv_records(text.trim_start_matches('\u{feff}')).unwrap();
        assert_eq!(records[0], (1, vec!["a".into(), "b".into()]));
        assert_eq!(
            records[1],
            (2, vec!["x, \"y\"".into(), "two\nlines".into()])
        );
        assert_eq!(records[2].0, 4);
        assert_eq!(unneutralised(&records[2].1[0]), "=SUM(1)");
        assert_eq!(unneutralised(&records[2].1[1]), "'plain");
        assert!(matches!(
            csv_records("a\n\"open"),
            Err(ExportReadError::Line { line: 2, .. })
        ));
    }

    #[test]
    fn a_csv_without_a_needed_column_names_it() {
        let err = read_export("task,task_kind\nx,text_mcq\n").unwrap_err();
        assert!(err.to_string().contains("no column `participant`"), "{err}");
    }
}

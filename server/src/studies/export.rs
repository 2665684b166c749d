//! The judgement export ([`export_judgements`], [`JUDGEMENT_COLUMNS`]), the tables export
//! ([`export_tables`]) and the per-rater export ([`export_raters`], [`RATER_COLUMNS`]).

use super::{authorized_study, computed_study, study_page};
use crate::error::{ApiError, ApiResult};
use crate::export::cells::iso_time;
use crate::files::csv_text;
use crate::kinds::capabilities::export_fields_of;
use crate::owners;
use crate::pseudonym::pseudonym;
use crate::state::AppState;
use crate::storage::{self, StudyRecord};
use crate::study_tables::TaskJudgements;
use axum::http::HeaderMap;
use memeboard_core::human_eval::thresholds::BELOW_RELIABILITY_THRESHOLD;
use memeboard_core::human_eval::{HUMAN_EVAL_RESAMPLES, HUMAN_EVAL_SEED};
use memeboard_core::predictions::FileFormat;
use std::collections::{BTreeMap, BTreeSet};

/// Every column of the judgement export, in file order, with its meaning.
pub const JUDGEMENT_COLUMNS: &[(&str, &str)] = &[
    ("study", "Study slug."),
    ("task", "Judging task slug (`<study>-rate` or `<study>-rank`)."),
    ("task_kind", "rating or ranking."),
    ("rater", "Rater pseudonym (the same construction as the answer export: per benchmark)."),
    ("session", "Session pseudonym."),
    ("batch", "The fixed batch the page belongs to."),
    ("item", "Judging item (page) id: random and opaque."),
    ("position", "Order shown: the page's position in the rater's batch (0-based)."),
    ("source_item", "The explanation item (meme or comic) judged."),
    ("category", "Its category (meme type, structure type)."),
    ("submission", "The submission whose output is judged; empty for planted outputs."),
    ("model", "That submission's model name."),
    ("planted", "reference or other_meaning for planted quality-check outputs; empty otherwise."),
    ("field", "What the value is about: meaning, origin, example (accuracy), a dimension (visual_correctness, panel_coherence, humour_comprehension, context_handling, faithfulness), rank (rankings), or error:<key> for each error label the rater tagged the output with (one row per tag)."),
    ("value", "disagree / neutral / agree (accuracy), 1–3 (dimensions), the rank given (1 = best, equal = tie), or 1 for an error tag."),
    ("shown_at", "Rankings: the candidate's display position on the page (0-based, the rater's own shuffled order); empty for ratings."),
    ("response_ms", "Time on the page (ms, measured by the browser)."),
    ("answered_at", "When the judgement was stored: ISO 8601 in UTC with milliseconds, e.g. 2026-12-04T21:05:03.123Z (as in the answer export)."),
    ("completed", "1 when the rater finished the batch (only finished batches count in the tables)."),
    ("excluded", "1 when the rater's session is excluded by the study's quality rules, or the finished session of a rater its reliability thresholds leave out."),
    ("exclusion_reason", "Why, as a code (e.g. failed_planted_checks, below_reliability_threshold); empty if not."),
];

/// Every column of the per-rater export, in file order, with its meaning (the fields of
/// `RaterRow`).
pub const RATER_COLUMNS: &[(&str, &str)] = &[
    ("rater", "Rater pseudonym (as in the judgement export)."),
    ("scale", "verdicts (accuracy), dimensions (CMPM scores) or ranks (CMPM rankings)."),
    ("batch", "Verdicts: the batch the κ is computed in; empty for α (the whole study)."),
    ("judgements", "Pages judged on the scale (planted pages included)."),
    ("raters", "Raters in the group (the batch, or the study), this one included."),
    ("with_rater", "The group's agreement with everybody: Fleiss' κ (verdicts) or Krippendorff's ordinal α."),
    ("without_rater", "The same statistic with this rater's values left out."),
    ("loo_delta", "with_rater − without_rater: negative when the others agree better without the rater."),
    ("planted_judged", "Planted quality checks judged (rating scales only)."),
    ("planted_pass_rate", "Share of those passed; empty when none was judged."),
    ("competence", "Dawid–Skene competence (verdicts only): the estimated probability that the rater's verdict is the true one."),
];

/// The columns after [`RATER_COLUMNS`]: what the owner's reliability thresholds made of the
/// rater (the same on each of the rater's rows).
pub const RATER_THRESHOLD_COLUMNS: &[(&str, &str)] = &[
    ("threshold_excluded", "1 when the study's reliability thresholds leave the rater out of every table, else 0."),
    ("failed_thresholds", "The thresholds the rater fails, `;`-separated: planted_pass_rate, competence, loo_gain; empty if none."),
];

/// One CSV cell of a JSON value: empty for null, quoted and guarded text, numbers as JSON
/// writes them.
fn csv_cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => csv_text(s),
        other => other.to_string(),
    }
}

/// One export row's values, in [`JUDGEMENT_COLUMNS`] order.
type ExportRow = Vec<serde_json::Value>;

/// The export's rows; `unreliable`: the pseudonyms of the raters the reliability thresholds
/// leave out (their finished sessions are marked [`BELOW_RELIABILITY_THRESHOLD`]).
fn export_rows(
    study: &StudyRecord,
    tasks: &[TaskJudgements],
    names: &BTreeMap<String, String>,
    unreliable: &BTreeSet<String>,
) -> ApiResult<Vec<ExportRow>> {
    use serde_json::json;
    let mut out = Vec::new();
    for t in tasks {
        for row in &t.rows {
            let rater = pseudonym(&study.benchmark_id, "participant", &row.participant_id);
            let reason = t.excluded.get(&row.session_id).map(|r| r.code.as_str());
            let reason = reason.or_else(|| {
                (row.completed_at.is_some() && unreliable.contains(&rater))
                    .then_some(BELOW_RELIABILITY_THRESHOLD)
            });
            let session = pseudonym(&study.benchmark_id, "session", &row.session_id);
            for f in export_fields_of(row)? {
                let submission = f.submission.as_deref();
                out.push(vec![
                    json!(study.slug),
                    json!(t.task.slug),
                    json!(t.task.kind),
                    json!(rater),
                    json!(session),
                    json!(f.batch),
                    json!(row.item_id),
                    json!(row.position),
                    json!(f.source_item),
                    json!(row.category),
                    json!(submission),
                    json!(submission.and_then(|s| names.get(s))),
                    json!(f.planted),
                    json!(f.field),
                    f.value,
                    json!(f.shown_at),
                    json!(row.response_ms),
                    json!(iso_time(row.answered_at)),
                    json!(i64::from(row.completed_at.is_some())),
                    json!(i64::from(reason.is_some())),
                    json!(reason),
                ]);
            }
        }
    }
    Ok(out)
}

/// `GET /api/owner/studies/{slug}/judgements.csv|.jsonl`: every judgement of the study, one
/// row per field, dimension or ranked candidate (logged as `export_judgements`).
pub async fn export_judgements(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
    format: FileFormat,
) -> ApiResult<String> {
    let (study, actor) = authorized_study(state, headers, slug).await?;
    let storage = &state.storage;
    let ((_, _, _, left_out, _, _), tasks) = computed_study(state, &study).await?;
    let unreliable: BTreeSet<String> = left_out.into_iter().map(|e| e.rater).collect();
    let ids: Vec<String> =
        storage::decode_json("studies.submissions_json", &study.submissions_json)?;
    let mut names = BTreeMap::new();
    for id in ids {
        if let Some(s) = storage.find_submission(&id).await? {
            names.insert(id, s.model_name);
        }
    }
    let rows = export_rows(&study, &tasks, &names, &unreliable)?;
    owners::log_action(
        storage,
        &actor,
        "export_judgements",
        &serde_json::json!({"study": study.slug, "format": match format { FileFormat::Csv => "csv", FileFormat::JsonLines => "jsonl" }, "rows": rows.len()}),
    )
    .await?;
    let mut out = String::new();
    match format {
        FileFormat::Csv => {
            out.push('\u{feff}');
            let header: Vec<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
            out.push_str(&header.join(","));
            out.push_str("\r\n");
            for row in rows {
                let cells: Vec<String> = row.iter().map(csv_cell).collect();
                out.push_str(&cells.join(","));
                out.push_str("\r\n");
            }
        }
        FileFormat::JsonLines => {
            for row in rows {
                let obj: serde_json::Map<String, serde_json::Value> = JUDGEMENT_COLUMNS
                    .iter()
                    .map(|(c, _)| (*c).to_owned())
                    .zip(row)
                    .collect();
                out.push_str(&serde_json::Value::Object(obj).to_string());
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// `GET /api/owner/studies/{slug}/tables.json`: the computed tables, the summary, each
/// rater's reliability and the CMPM per-annotator table and win matrix.
pub async fn export_tables(
    state: &AppState,
    headers: &HeaderMap,
    slug: &str,
) -> ApiResult<serde_json::Value> {
    let page = study_page(state, headers, slug).await?;
    Ok(serde_json::json!({
        "study": page.slug,
        "protocol": page.protocol,
        "submissions": page.submissions,
        "summary": page.summary,
        "tables": page.tables,
        "raters": page.raters,
        "cmpm_tables": page.cmpm_tables,
        "error_tables": page.error_tables,
        "bootstrap": {"seed": HUMAN_EVAL_SEED, "resamples": HUMAN_EVAL_RESAMPLES, "unit": "source item"},
    }))
}

/// `GET /api/owner/studies/{slug}/raters.csv`: the study page's per-rater reliability rows
/// ([`RATER_COLUMNS`]), UTF-8 with a byte-order mark.
pub async fn export_raters(state: &AppState, headers: &HeaderMap, slug: &str) -> ApiResult<String> {
    let page = study_page(state, headers, slug).await?;
    let mut out = String::from('\u{feff}');
    let header: Vec<&str> = RATER_COLUMNS
        .iter()
        .chain(RATER_THRESHOLD_COLUMNS)
        .map(|(c, _)| *c)
        .collect();
    out.push_str(&header.join(","));
    out.push_str("\r\n");
    for row in &page.raters {
        let value = serde_json::to_value(row)
            .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("encode rater row: {e}")))?;
        let mut cells: Vec<String> = RATER_COLUMNS
            .iter()
            .map(|(c, _)| csv_cell(&value[*c]))
            .collect();
        let failed: Vec<String> = page
            .threshold_excluded
            .iter()
            .filter(|x| x.rater == row.rater)
            .flat_map(|x| &x.failures)
            .filter_map(|f| {
                serde_json::to_value(f.rule)
                    .ok()?
                    .as_str()
                    .map(str::to_owned)
            })
            .collect();
        cells.push(if failed.is_empty() { "0" } else { "1" }.to_owned());
        cells.push(failed.join(";"));
        out.push_str(&cells.join(","));
        out.push_str("\r\n");
    }
    Ok(out)
}

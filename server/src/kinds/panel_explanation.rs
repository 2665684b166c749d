//! Comic explanations on the server: model inputs (panels in reading order with the title and
//! caption), no dev gold (there is none), and prediction files that are validated and stored
//! as outputs for human evaluation but never scored automatically.

use super::capabilities::StudySource;
use super::panels::inputs_line;
use super::{FileContext, PredictionFiles, ScoredFile, ServerKind, TypedItem};
use crate::error::ApiResult;
use crate::storage::StoredOutput;
use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
use memeboard_core::human_eval::study::SourceItem;
use memeboard_core::kinds::panel_explanation::PanelExplanation;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::validate_comic_explanations;
use serde_json::{json, Value};

/// A comic explanation item as a study's source: its panels with the title and caption (no
/// reference: the dataset has none).
pub struct ComicSource;

impl StudySource<PanelExplanation> for ComicSource {
    fn source_item(&self, item: TypedItem<PanelExplanation>) -> SourceItem {
        let (title, caption) = item
            .prompt
            .context
            .map(|c| (c.title, c.caption))
            .unwrap_or_default();
        let has_context = title.is_some() || caption.is_some();
        SourceItem {
            id: item.row.id,
            category: item.row.category,
            split: item.row.split,
            subject: RatedSubject::Comic {
                panels: item.prompt.panels.into_iter().map(|m| m.url).collect(),
                title,
                caption,
            },
            reference: None,
            has_context,
        }
    }
}

impl ServerKind for PanelExplanation {
    type Files = Self;
    const PAPER_METRICS: &'static [&'static str] = &[];
    const STUDY_SOURCE: Option<&'static dyn StudySource<Self>> = Some(&ComicSource);
}

impl PredictionFiles for PanelExplanation {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Comic explanations are not scored automatically: the \
        file's explanations are stored for human evaluation; comics without one are left out \
        of it.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["explanation"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        inputs_line(
            item,
            &item.prompt.panels,
            item.prompt.context.as_ref(),
            json!({"task": "explain what the comic means, in your own words"}),
        )
    }

    /// There is no gold: a dev line says only which comic it is.
    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        json!({"item_id": item.row.id, "category": item.row.category})
    }

    fn metric_name(_embedding_model: Option<&str>) -> String {
        memeboard_core::msg!("label.judged_by_people").to_string()
    }

    fn notable_gap(_model_score: f64, _crowd_score: f64) -> bool {
        false
    }

    /// Validates the file and keeps its explanations as outputs; no per-item scores.
    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let file = ctx.validate(&Self::manifest("", items), validate_comic_explanations)?;
        let outputs = items
            .iter()
            .zip(&file.explanations)
            .filter_map(|(item, text)| {
                text.as_ref().map(|t| StoredOutput {
                    item_id: item.row.id.clone(),
                    output: ExplainedOutput {
                        meaning: t.clone(),
                        origin: None,
                        example: None,
                    },
                    scores: None,
                })
            })
            .collect();
        let warning = (!file.missing.is_empty()).then(|| {
            memeboard_core::msg!(
                "file.missing_unjudged",
                count = file.missing.len(),
                ids = file
                    .missing
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
        Ok(ScoredFile {
            scores: Vec::<ItemScore>::new(),
            extra: None,
            num_lines: file.num_lines,
            num_missing: file.missing.len(),
            orders_json: "[]".into(),
            warnings: warning.into_iter().collect(),
            outputs,
        })
    }
}

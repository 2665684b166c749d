//! Ratings on the server: a judging kind, so no prediction files, inputs, templates or dev
//! gold (see [`super::judging`]); raters' answers are stored unscored and counted.

use super::judging::{id_line, no_files, BASELINE, METRIC, MISSING};
use super::{FileContext, ScoredFile, ServerKind, TypedItem};
use crate::error::ApiResult;
use memeboard_core::api::RowKind;
use memeboard_core::kinds::rating::Rating;
use memeboard_core::predictions::{FileFormat, Limits};
use serde_json::Value;

impl ServerKind for Rating {
    const BASELINE_ROW: RowKind = RowKind::Chance;
    const BASELINE_LABEL: &'static str = BASELINE;
    const MISSING_POLICY: &'static str = MISSING;
    const TEMPLATE_FIELDS: &'static [&'static str] = &[];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        id_line(item)
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        id_line(item)
    }

    fn metric_name(_embedding_model: Option<&str>) -> String {
        METRIC.into()
    }

    fn baseline(_item: &TypedItem<Self>) -> Option<f64> {
        None
    }

    fn notable_gap(_model_score: f64, _crowd_score: f64) -> bool {
        false
    }

    async fn score_file(
        ctx: FileContext<'_>,
        _items: &[TypedItem<Self>],
        _text: &str,
        _format: FileFormat,
        _limits: Limits,
    ) -> ApiResult<ScoredFile> {
        no_files(&ctx)
    }
}

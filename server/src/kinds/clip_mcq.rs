//! Clip questions (AVMeme Exam) on the server: model inputs (question, lettered choices in one
//! fixed order per item, drawn at import from the benchmark's secret key and stored with the
//! hidden gold, clip URL, language, sound and question type, full/main subsets), dev
//! gold letters, prediction files scored by accuracy overall, by question type (categories),
//! by sound type and language (secondary figures), on the full set and the main subset (items
//! not answerable from text alone); chance is 1 / choices per item.

use super::capabilities::{AutoScoring, PublicDraws, Subsets};
use super::outcomes::{extra_json, figures, item_scores, Figures};
use super::{FileContext, PredictionFiles, ScoredFile, ServerKind, TypedItem};
use crate::draws::{Key, Purpose};
use crate::error::ApiResult;
use memeboard_core::api::RowKind;
use memeboard_core::kinds::clip_mcq::{ClipMcq, Gold, Prompt};
use memeboard_core::metrics::ItemOutcome;
use memeboard_core::predictions::clips::{
    clip_outcomes, facet_subsets, model_option_order, model_options, model_position,
    validate_clip_answers, ClipGold,
};
use memeboard_core::tasks::label_key;
use serde_json::{json, Value};

/// The item subset without clips answerable from text alone (the benchmark's meme-main).
pub const MAIN: &str = "main";

/// The item's model order: the one stored with its gold (keyed draw), or for items imported
/// by earlier versions the legacy public one (the start-up upgrade re-draws those where no
/// submission refers to it, see `upgrade/draws.rs`).
fn model_order(item: &TypedItem<ClipMcq>) -> Vec<usize> {
    item.gold
        .model_order_for(&item.row.id, item.prompt.choices.len())
}

/// Letters of lettered options.
fn letter(position: usize) -> String {
    char::from_u32(u32::from(b'A') + position as u32)
        .map(String::from)
        .unwrap_or_else(|| (position + 1).to_string())
}

/// Option orders for models that versions before keyed draws did not store (every model saw
/// the choices in one order computed from public data): drawn with the benchmark's key.
pub struct LegacyModelOrders;

impl PublicDraws<ClipMcq> for LegacyModelOrders {
    fn redraw(
        &self,
        key: &Key,
        source: &str,
        prompt: &mut Prompt,
        gold: &mut Gold,
    ) -> anyhow::Result<bool> {
        if !gold.model_order.is_empty() {
            return Ok(false);
        }
        gold.model_order = model_option_order(
            key.seed(Purpose::ClipModelOrder, source),
            prompt.choices.len(),
        );
        Ok(true)
    }
}

/// The board's `main` subset: questions a model cannot answer from the text alone (no text
/// cheat; AVMeme's main set).
pub struct WithoutTextCheat;

impl Subsets<ClipMcq> for WithoutTextCheat {
    fn names(&self) -> &'static [&'static str] {
        &["full", MAIN]
    }

    fn contains(&self, item: &TypedItem<ClipMcq>, subset: &str) -> bool {
        subset != MAIN || !item.prompt.text_cheat
    }
}

/// The board's baseline on one item, chance: one of the clip question's choices uniformly at random.
fn chance(item: &TypedItem<ClipMcq>) -> f64 {
    1.0 / item.prompt.choices.len().max(1) as f64
}

impl ServerKind for ClipMcq {
    type Files = Self;
    const AUTO_SCORING: Option<AutoScoring<Self>> = Some(AutoScoring {
        baseline_row: RowKind::Chance,
        baseline_label: "Chance (random option)",
        baseline: chance,
    });
    const SUBSETS: Option<&'static dyn Subsets<Self>> = Some(&WithoutTextCheat);
    // The question and choices follow the familiarity answer in the quiz: not public while
    // the quiz is open.
    const INPUTS_AFTER_PREFACE: bool = true;
    const PUBLIC_DRAWS: Option<&'static dyn PublicDraws<Self>> = Some(&LegacyModelOrders);

    fn manifest_options(item: &TypedItem<Self>) -> Vec<String> {
        model_options(&model_order(item), &item.prompt.choices)
    }

    fn export_facets(item: &TypedItem<Self>) -> Vec<(String, String)> {
        let p = &item.prompt;
        vec![
            ("language".into(), p.language.clone().unwrap_or_default()),
            ("sound_type".into(), label_key(&p.sound_type)),
            ("question_type".into(), label_key(&p.question_type)),
            ("text_cheat".into(), p.text_cheat.to_string()),
        ]
    }
}

impl PredictionFiles for ClipMcq {
    type Kind = Self;
    const MISSING_POLICY: &'static str = "Items without a prediction are scored as wrong.";
    const TEMPLATE_FIELDS: &'static [&'static str] = &["answer"];

    fn inputs_line(item: &TypedItem<Self>) -> Value {
        let p = &item.prompt;
        let options = Self::manifest_options(item);
        let mut subsets = vec!["full"];
        if !p.text_cheat {
            subsets.push(MAIN);
        }
        json!({
            "item_id": item.row.id,
            "category": item.row.category,
            "split": item.split(),
            "question": p.question,
            "choices": options.iter().enumerate().map(|(i, text)| json!({"letter": letter(i), "text": text})).collect::<Vec<_>>(),
            "clip": {"url": p.clip.url, "file": p.clip.url.trim_start_matches('/'), "media": p.media, "duration_ms": p.duration_ms},
            "language": p.language,
            "sound_type": p.sound_type,
            "question_type": p.question_type,
            "text_cheat": p.text_cheat,
            "subsets": subsets,
        })
    }

    fn dev_gold_line(item: &TypedItem<Self>) -> Value {
        let position = model_position(&model_order(item), item.gold.correct).unwrap_or(0);
        json!({
            "item_id": item.row.id,
            "category": item.row.category,
            "answer_letter": letter(position),
        })
    }

    async fn score_file(ctx: FileContext<'_>, items: &[TypedItem<Self>]) -> ApiResult<ScoredFile> {
        let manifest = Self::manifest("", items);
        let file = ctx.validate(&manifest, validate_clip_answers)?;
        let gold: Vec<ClipGold> = items
            .iter()
            .map(|i| ClipGold {
                item_id: i.row.id.clone(),
                question_type: i.row.category.clone(),
                correct_position: model_position(&model_order(i), i.gold.correct).unwrap_or(0),
                sound_type: label_key(&i.prompt.sound_type),
                language: i.prompt.language.clone(),
                text_cheat: i.prompt.text_cheat,
            })
            .collect();
        let mut outcomes = clip_outcomes(&gold, &file);
        add_study_facets(&mut outcomes, items);
        let rows = || items.iter().map(|i| &i.row);
        let mut extra = extra_json(rows(), &outcomes, board_figures);
        // The same figures over the main subset, for the board's switch.
        let main: Vec<ItemOutcome> = outcomes
            .iter()
            .filter(|o| o.in_subset(MAIN))
            .cloned()
            .collect();
        extra["subsets"] = json!({ MAIN: extra_json(rows(), &main, board_figures) });
        Ok(ScoredFile {
            scores: item_scores(&outcomes, false),
            extra: Some(extra),
            num_lines: file.num_lines,
            num_missing: file.missing.len(),
            orders_json: "[]".into(),
            warnings: file.missing_message().into_iter().collect(),
            outputs: Vec::new(),
        })
    }
}

/// The facets of AVMeme Exam's supplementary studies on each outcome: the strongest visual
/// hint on screen (`hint:title_name`, Figure 7) and the span of the meme's year
/// (`year:2010_2014`, Figure 8; `year:none` when unknown).
fn add_study_facets(outcomes: &mut [ItemOutcome], items: &[TypedItem<ClipMcq>]) {
    let by_id: std::collections::HashMap<&str, &TypedItem<ClipMcq>> =
        items.iter().map(|i| (i.row.id.as_str(), i)).collect();
    for o in outcomes {
        if let Some(item) = by_id.get(o.item.as_str()) {
            o.subsets
                .push(format!("hint:{}", label_key(&item.gold.visual_hint)));
            o.subsets
                .push(format!("year:{}", year_span(item.gold.year)));
        }
    }
}

/// The span of years a clip's year falls in (AVMeme Exam groups years coarsely).
///
/// ```text
/// 1998 → before_2000, 2004 → 2000_2009, 2012 → 2010_2014, 2017 → 2015_2019,
/// 2023 → 2020_later, unknown → none
/// ```
fn year_span(year: Option<u16>) -> &'static str {
    match year {
        None => "none",
        Some(..2000) => "before_2000",
        Some(2000..2010) => "2000_2009",
        Some(2010..2015) => "2010_2014",
        Some(2015..2020) => "2015_2019",
        Some(_) => "2020_later",
    }
}

/// Accuracy on the main subset, then per sound type, language, visual hint and year span.
fn board_figures(outcomes: &[ItemOutcome]) -> Figures {
    let mut subsets: Vec<String> = vec![MAIN.to_owned()];
    for facet in ["sound:", "lang:", "hint:", "year:"] {
        subsets.extend(facet_subsets(outcomes, facet));
    }
    let labelled: Vec<(&str, &str)> = subsets.iter().map(|s| (s.as_str(), s.as_str())).collect();
    // Every clip answer parses, so accuracy on parseable answers is plain accuracy here.
    figures(outcomes, &[], &labelled, false)
}

//! What the submit page shows alike for the kinds whose items are scored right or wrong:
//! the file help's note that missing items count as wrong, and the dev-split preview (the
//! accuracy on the open dev items of a valid prediction file, summarised as the boards
//! summarise it, and its card in the file check).

use super::{KindPanel, ValidFile};
use crate::components::score::{estimate_view, ScoreTable};
use crate::i18n::board::btr;
use crate::i18n::{use_i18n, StringTable};
use leptos::prelude::*;
use memeboard_core::leaderboard::{summarize, CategoryEstimate, ItemScore};
use memeboard_core::messages::Message;
use memeboard_core::tasks::CategoryInfo;

/// Bootstrap resamples of the dev preview intervals.
pub(super) const PREVIEW_RESAMPLES: usize = 1000;

/// The file help's note on missing items, apart from the kinds' page strings so that the
/// quiz bundle does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: missing items are scored as wrong.
    missing_wrong: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    missing_wrong: "没有预测的题目按答错计分。",
};

static HELP_EN: HelpTexts = HelpTexts {
    missing_wrong: "Items without a prediction are scored as wrong.",
};

/// The end of the file help of a kind that scores missing items as wrong.
pub(super) fn missing_wrong_note() -> impl IntoView {
    view! {
        <p>
            <strong>{HelpTexts::text(|t| t.missing_wrong)}</strong>
        </p>
    }
}

/// A preview score on the open dev split.
#[derive(Debug, Clone, PartialEq)]
pub struct DevPreview {
    /// Dev items scored.
    pub items: usize,
    /// Overall then per category.
    pub scores: Vec<CategoryEstimate>,
}

impl DevPreview {
    /// The summary of the dev items' scores (the kind's `seed` for the intervals); `None`
    /// without any scored item.
    pub(super) fn of_scores(
        scores: &[ItemScore],
        categories: &[CategoryInfo],
        seed: u64,
    ) -> Option<Self> {
        let keys: Vec<String> = categories.iter().map(|c| c.key.clone()).collect();
        (!scores.is_empty()).then(|| Self {
            items: scores.len(),
            scores: summarize(scores, &keys, PREVIEW_RESAMPLES, seed),
        })
    }
}

/// The check result of a valid file whose kind shows only the dev preview: its line count,
/// the missing-items warning as the server words it, and the preview where there is one.
pub(super) fn previewed_file(
    lines: usize,
    missing: Option<Message>,
    preview: Option<DevPreview>,
    categories: &[CategoryInfo],
) -> ValidFile {
    let categories = categories.to_vec();
    ValidFile {
        lines,
        missing: missing.map(|m| m.render(crate::i18n::current_lang().locale())),
        panel: KindPanel::new(move || match preview.clone() {
            Some(p) => {
                view! { <DevPreviewScore preview=p categories=categories.clone() /> }.into_any()
            }
            None => ().into_any(),
        }),
    }
}

/// The dev-split preview score of a valid file.
#[component]
pub(super) fn DevPreviewScore(preview: DevPreview, categories: Vec<CategoryInfo>) -> impl IntoView {
    let i18n = use_i18n();
    let overall = preview.scores.first().and_then(|s| s.estimate);
    let scores: Vec<CategoryEstimate> = preview
        .scores
        .into_iter()
        .filter(|s| s.category.is_none() || s.items > 0)
        .collect();
    let items = preview.items;
    view! {
        <section class="dev-preview" data-testid="preview-score">
            <h3>{btr(|t| t.preview_score_title)}</h3>
            <p class="big-score">{estimate_view(overall.as_ref())}</p>
            <ScoreTable scores=scores categories=categories />
            <p class="muted small">{move || (i18n.bt().preview_score_note)(items)}</p>
        </section>
    }
}

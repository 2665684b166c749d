//! What the two multi-panel kinds (panel order, panel type) share in the browser: panel
//! images that do not shift the layout, the comic's text context, the small strip of panels on
//! review cards, the "k / n" score line, and the submit page's parse-rate and dev preview.

use super::dev_preview::{DevPreview, DevPreviewScore};
use super::{KindPanel, ValidFile};
use crate::format::{self, DASH};
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::ResultsResponse;
use memeboard_core::kinds::panels::PanelContext;
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::panels::{Parsed, ValidatedPanelFile};
use memeboard_core::predictions::{Split, TaskManifest};
use memeboard_core::tasks::{CategoryInfo, MediaRef};
use std::collections::HashMap;

/// Panels fetched at once (the first screenful); later ones load as they scroll into view.
const EAGER_PANELS: usize = 3;
/// The `width`/`height` attributes of a panel image: they reserve its box before it loads
/// (no layout shift); CSS scales it to the grid.
const PANEL_SIZE: &str = "320";
/// Seed of the dev preview intervals.
const PREVIEW_SEED: u64 = 0x7061_6e65_6c73_2121;

/// Strings both multi-panel kinds use.
#[derive(Debug)]
struct Texts {
    /// Accessible name of the text-context block.
    context: &'static str,
    /// Label of the post title.
    title: &'static str,
    /// Label of the caption.
    caption: &'static str,
    /// Heading of the readers' comments.
    comments: &'static str,
    /// "Panel 3".
    panel: fn(usize) -> String,
    /// Accessible name of a list of panels.
    panels: &'static str,
    /// Submit preview: the parse rate (manifest items, items unparseable or missing).
    parse_rate: fn(usize, usize) -> String,
}

static ZH: Texts = Texts {
    context: "随漫画一起显示的文字",
    title: "标题",
    caption: "配文",
    comments: "评论",
    panel: |n| format!("第 {n} 格"),
    panels: "漫画各格",
    parse_rate: |items, bad| {
        format!(
            "可解析率：{}（{items} 道题中有 {bad} 道的答案无法解析或缺失，计为无法解析、按答错计分）。",
            share_text(items - bad.min(items), items)
        )
    },
};

static EN: Texts = Texts {
    context: "Text shown with the comic",
    title: "Title",
    caption: "Caption",
    comments: "Comments",
    panel: |n| format!("Panel {n}"),
    panels: "The comic's panels",
    parse_rate: |items, bad| {
        format!(
            "Parse rate: {} ({bad} of {items} items have an answer that could not be read, or none; they count as unparseable and wrong).",
            share_text(items - bad.min(items), items)
        )
    },
};

/// `part / whole` with one decimal, rounded down ("97.5%"): a parse rate just under 100%
/// must not read as 100%. A dash for an empty whole.
fn share_text(part: usize, whole: usize) -> String {
    if whole == 0 {
        return DASH.to_owned();
    }
    let tenths = (part * 1000) / whole;
    format!("{}.{}%", tenths / 10, tenths % 10)
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// The notes both multi-panel kinds' file help ends with (unreadable and missing answers),
/// apart from [`Texts`] so that the quiz bundle, which shows `Texts`, does not carry them.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: unreadable answers.
    unparseable: &'static str,
    /// Submit help: missing items.
    missing: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    unparseable: "无法解析的答案不会导致文件被拒绝，而是计入统计、按答错计分，并降低可解析率。",
    missing: "没有预测的题目计为无法解析，按答错计分。",
};

static HELP_EN: HelpTexts = HelpTexts {
    unparseable: "Answers that cannot be read do not make the file fail: they are counted, scored as wrong, and lower the file's parse rate.",
    missing: "Items without a prediction count as unparseable and are scored as wrong.",
};

/// The end of both multi-panel kinds' file help: unreadable answers count as wrong, and so
/// do missing ones.
pub(super) fn help_notes() -> impl IntoView {
    view! {
        <p>{HelpTexts::text(|t| t.unparseable)}</p>
        <p>
            <strong>{HelpTexts::text(|t| t.missing)}</strong>
        </p>
    }
}

/// "Panel 3" in `lang`, for labels built outside a reactive view.
pub(super) fn panel_label(lang: Lang, n: usize) -> String {
    (lang.table::<Texts>().panel)(n)
}

/// The comic kinds' memes as the survey's familiarity question names them.
pub(super) fn memes_noun(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Chinese multi-panel comic memes",
        Lang::Zh => "中文多格漫画梗",
    }
}

/// The accessible name of a list of panels in `lang`.
pub(super) fn panels_label(lang: Lang) -> &'static str {
    lang.table::<Texts>().panels
}

/// One panel image. `index` is 0-based: the first few load eagerly, the rest lazily. The
/// size attributes keep the box from jumping when the image arrives; native image dragging
/// is off so that pointer dragging of the panel around it works.
pub(super) fn panel_img(panel: &MediaRef, index: usize) -> impl IntoView {
    view! {
        <img
            class="panel-img"
            src=panel.url.clone()
            alt=panel.alt.clone()
            width=PANEL_SIZE
            height=PANEL_SIZE
            loading=if index < EAGER_PANELS { "eager" } else { "lazy" }
            decoding="async"
            draggable="false"
        />
    }
}

/// The comic's text context (title, caption, comments) above its panels, when it has any:
/// in the "with context" variants the joke may depend on it.
#[component]
pub(super) fn ContextBlock(context: Option<PanelContext>) -> impl IntoView {
    let i18n = use_i18n();
    let t = move || i18n.table::<Texts>();
    context.filter(|c| !c.is_empty()).map(|c| {
        let PanelContext {
            title,
            caption,
            comments,
        } = c;
        view! {
            <section class="panel-context" aria-label=move || t().context data-testid="panel-context">
                {title
                    .map(|title| {
                        view! {
                            <p class="context-title">
                                <span class="muted small">{move || t().title} ": "</span>
                                <strong>{title}</strong>
                            </p>
                        }
                    })}
                {caption
                    .map(|caption| {
                        view! {
                            <p>
                                <span class="muted small">{move || t().caption} ": "</span>
                                {caption}
                            </p>
                        }
                    })}
                {(!comments.is_empty())
                    .then(|| {
                        view! {
                            <p class="muted small">{move || t().comments}</p>
                            <ul class="context-comments">
                                {comments.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                            </ul>
                        }
                    })}
            </section>
        }
    })
}

/// A comic's panels in reading order, numbered (the questions that show the whole comic,
/// and the judged comic of the judging kinds).
#[component]
pub(super) fn ReadingStrip(
    /// The panels, in reading order.
    panels: Vec<MediaRef>,
    /// The list's `data-testid`, where it has one.
    #[prop(optional)]
    testid: Option<&'static str>,
) -> impl IntoView {
    let i18n = use_i18n();
    let strip = panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            view! {
                <li class="reading-panel">
                    {panel_img(p, i)}
                    <span class="panel-number">{move || panel_label(i18n.lang(), i + 1)}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <ol class="reading-strip" data-testid=testid aria-label=move || panels_label(i18n.lang())>
            {strip}
        </ol>
    }
}

/// The panels of a reviewed comic, small and numbered as they were shown.
#[component]
pub(super) fn ReviewStrip(panels: Vec<MediaRef>) -> impl IntoView {
    let i18n = use_i18n();
    let items = panels
        .iter()
        .enumerate()
        .map(|(i, p)| {
            view! {
                <li class="strip-panel">
                    {panel_img(p, EAGER_PANELS + i)}
                    <span class="panel-number">{(i + 1).to_string()}</span>
                </li>
            }
        })
        .collect_view();
    view! {
        <ol class="panel-strip" aria-label=move || panels_label(i18n.lang())>
            {items}
        </ol>
    }
}

/// An order of displayed panel numbers: "3 → 1 → 2 → 4".
pub(super) fn order_text(order: &[usize]) -> String {
    order
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" → ")
}

/// A reading order in groups (any order inside a group): "3 → (2, 4) → 1".
pub(super) fn groups_text(groups: &[Vec<usize>]) -> String {
    groups
        .iter()
        .map(|g| match g.as_slice() {
            [one] => one.to_string(),
            many => format!(
                "({})",
                many.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

/// The results page's headline for right/wrong kinds: "3 / 5" plus the kind's wording
/// (`suffix`) and the accuracy, as the multiple-choice kind words it.
pub(super) fn correctness_summary(
    results: &ResultsResponse,
    suffix: fn(Lang) -> &'static str,
) -> AnyView {
    let i18n = use_i18n();
    let overall = results
        .you
        .iter()
        .find(|s| s.category.is_none() && s.answered > 0)
        .map(|s| (s.correct, s.answered, s.mean));
    let text = move || match overall {
        Some((Some(correct), n, mean)) => format!(
            "{correct} / {n}{} ({})",
            suffix(i18n.lang()),
            format::accuracy(mean)
        ),
        Some((None, n, mean)) => format!("{} ({n})", format::accuracy(mean)),
        None => i18n.t().all_held_out.to_owned(),
    };
    let state = if overall.is_some() {
        "scored"
    } else {
        "held-out"
    };
    view! { <p class="score" data-testid="your-score" data-state=state>{text}</p> }.into_any()
}

/// A line of a multi-panel task's dev gold, as the submit page's preview needs it.
pub(super) trait DevLine: Send + Sync + 'static {
    /// What a prediction file gives for an item.
    type Value;
    /// The item.
    fn item_id(&self) -> &str;
    /// Its category key.
    fn category(&self) -> &str;
    /// Whether `value` is right for the item.
    fn is_right(&self, value: &Self::Value) -> bool;
}

/// The submit page's check result of a valid multi-panel file: the missing-items warning as
/// the server words it, the parse rate (unreadable answers count as wrong, they are not
/// rejected), and the accuracy on the open dev items.
pub(super) fn panel_file_check<T, G: DevLine<Value = T>>(
    valid: &ValidatedPanelFile<T>,
    manifest: &TaskManifest,
    dev: &[G],
    categories: &[CategoryInfo],
) -> ValidFile {
    // As on the server, an item without a line counts as unparseable.
    let items = valid.item_ids.len();
    let unparseable = valid.num_unparseable() + valid.missing.len();
    let preview = dev_preview(valid, manifest, dev, categories);
    let categories = categories.to_vec();
    ValidFile {
        lines: valid.num_lines,
        missing: valid
            .missing_message()
            .map(|m| m.render(crate::i18n::current_lang().locale())),
        panel: KindPanel::new(move || {
            let i18n = use_i18n();
            view! {
                <p class="small" data-testid="preview-parse-rate">
                    {move || (i18n.table::<Texts>().parse_rate)(items, unparseable)}
                </p>
                {preview
                    .clone()
                    .map(|p| view! { <DevPreviewScore preview=p categories=categories.clone() /> })}
            }
            .into_any()
        }),
    }
}

/// Accuracy on the dev items of the manifest whose gold is public (`None` without any):
/// missing and unparseable answers score 0, as on the board.
fn dev_preview<T, G: DevLine<Value = T>>(
    valid: &ValidatedPanelFile<T>,
    manifest: &TaskManifest,
    dev: &[G],
    categories: &[CategoryInfo],
) -> Option<DevPreview> {
    let index: HashMap<&str, usize> = valid
        .item_ids
        .iter()
        .enumerate()
        .map(|(i, id)| (id.as_str(), i))
        .collect();
    let scores: Vec<ItemScore> = manifest
        .items
        .iter()
        .filter(|item| item.split == Split::Dev)
        .filter_map(|item| dev.iter().find(|g| g.item_id() == item.id))
        .map(|gold| {
            let right = index
                .get(gold.item_id())
                .and_then(|&i| valid.predictions.get(i))
                .and_then(Option::as_ref)
                .is_some_and(|p| match p {
                    Parsed::Value(v) => gold.is_right(v),
                    Parsed::Unparseable(_) => false,
                });
            ItemScore {
                item_id: gold.item_id().to_owned(),
                category: gold.category().to_owned(),
                score: if right { 1.0 } else { 0.0 },
            }
        })
        .collect();
    DevPreview::of_scores(&scores, categories, PREVIEW_SEED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_and_groups_read_as_arrows() {
        assert_eq!(order_text(&[3, 1, 2, 4]), "3 → 1 → 2 → 4");
        assert_eq!(
            groups_text(&[vec![3], vec![2, 4], vec![1]]),
            "3 → (2, 4) → 1"
        );
        assert_eq!(groups_text(&[]), "");
    }

    #[test]
    fn parse_rates_round_down() {
        assert_eq!(share_text(999, 1000), "99.9%");
        assert_eq!(share_text(1999, 2000), "99.9%");
        assert_eq!(share_text(3, 4), "75.0%");
        assert_eq!(share_text(0, 0), DASH);
    }
}

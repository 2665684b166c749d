//! Text multiple choice in the browser: the fill-in-the-blank question with lettered options
//! and keyboard shortcuts, its review card, "7 / 10" scores, and the submit page's help,
//! validator and dev-split preview score.

use super::cards::{
    use_acked_sender, withheld_dd, OptionChoice, OutcomeCard, QuestionCard, SubmitActions,
};
use super::dev_preview::{missing_wrong_note, previewed_file, DevPreview, PREVIEW_RESAMPLES};
use super::{PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::components::sentence::Sentence;
use crate::format::{self, key_to_option, option_letter};
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::kinds::text_mcq::{Input, Review, TextMcq, View};
use memeboard_core::leaderboard::{score_mcq, summarize, CategoryEstimate, McqGold};
use memeboard_core::predictions::{validate_predictions, FileFormat, Limits, Split, TaskManifest};
use memeboard_core::tasks::CategoryInfo;
use std::collections::HashSet;
use wasm_bindgen::JsCast;

/// Seed of the dev preview intervals.
const PREVIEW_SEED: u64 = 0x7072_6576_6965_7721;

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "填空（五选一）",
};

static EN: Texts = Texts {
    name: "Fill in the blank (five options)",
};

/// This kind's submit-page strings (the file help), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: option orders and samples.
    help_orders: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和答案。答案可以是选项序号（从 1 开始，按 inputs.jsonl 中的标准顺序），也可以是选项的完整原文：",
    help_orders: "可选：如果你按其他选项顺序提问，请加上 \"order\"（0–4，inputs.jsonl 的 options_by_order 列出了每种顺序）；每种顺序可用 \"sample\" 给出多次采样。每种顺序取多数答案，题目得分为文件中所用各顺序的平均。",
    help_csv: "CSV：首行为表头 item_id,answer（可选 order,sample 列），之后每行一条预测：",
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines: one object per line with the item id and the answer, either the option number (1-based, in the canonical order of inputs.jsonl) or the option's exact text:",
    help_orders: "Optional: add \"order\" (0–4) when you asked with the options in another order (inputs.jsonl lists them in options_by_order), and \"sample\" for several samples per order. Each order counts its majority answer; an item scores the mean over the orders used in the file.",
    help_csv: "CSV: a header row item_id,answer (optional order,sample columns), then one prediction per row:",
};

impl UiKind for TextMcq {
    type Files = Self;

    fn condition_text(lang: Lang, key: &str) -> Option<&'static str> {
        let (en, zh) = match key {
            "options" => ("Options", "选项"),
            "labels_only" => ("memes only", "仅梗"),
            "with_meanings" => ("with each option's meaning", "附各选项释义"),
            _ => return None,
        };
        Some(if lang == Lang::Zh { zh } else { en })
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <Question ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        let i18n = use_i18n();
        let text = score_text(results);
        let state = if text.is_some() { "scored" } else { "held-out" };
        view! {
            <p class="score" data-testid="your-score" data-state=state>
                {move || text.clone().unwrap_or_else(|| i18n.t().all_held_out.to_owned())}
            </p>
        }
        .into_any()
    }
}

impl PredictionFiles for TextMcq {
    type DevGold = Vec<McqGold>;

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-mcq">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"answer\": 3}\n{\"item_id\": \"ITEM_ID\", \"answer\": \"躺平\"}"
                </code></pre>
                <p>{HelpTexts::text(|t| t.help_orders)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"answer\": 2, \"order\": 1, \"sample\": 0}"
                </code></pre>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,answer\nITEM_ID,3"</code></pre>
                {missing_wrong_note()}
            </div>
        }
        .into_any()
    }

    /// Without dev gold the file is still checked; the preview just has no score.
    async fn load_dev_gold(slug: String) -> Vec<McqGold> {
        api::dev_gold(&slug).await.unwrap_or_default()
    }

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Vec<McqGold>,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let valid = validate_predictions(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(crate::i18n::current_lang().locale()))?;
        let keys: Vec<String> = categories.iter().map(|c| c.key.clone()).collect();
        let preview = dev_preview(manifest, dev, |gold| {
            summarize(
                &score_mcq(manifest, &valid, gold),
                &keys,
                PREVIEW_RESAMPLES,
                PREVIEW_SEED,
            )
        });
        Ok(previewed_file(
            valid.num_lines,
            valid.missing_message(),
            preview,
            categories,
        ))
    }
}

/// "7 / 10 (0.700)".
/// The headline score, `None` when no answer was on an open item.
fn score_text(results: &ResultsResponse) -> Option<String> {
    results
        .you
        .iter()
        .find(|s| s.category.is_none() && s.answered > 0)
        .map(|s| match s.correct {
            Some(correct) => format!("{correct} / {} ({})", s.answered, format::accuracy(s.mean)),
            None => format!("{} ({})", format::accuracy(s.mean), s.answered),
        })
}

/// Scores the dev items whose gold is public (none: no preview).
fn dev_preview(
    manifest: &TaskManifest,
    dev_gold: &[McqGold],
    score: impl FnOnce(&[McqGold]) -> Vec<CategoryEstimate>,
) -> Option<DevPreview> {
    let dev_ids: HashSet<&str> = manifest
        .items
        .iter()
        .filter(|i| i.split == Split::Dev)
        .map(|i| i.id.as_str())
        .collect();
    let gold: Vec<McqGold> = dev_gold
        .iter()
        .filter(|g| dev_ids.contains(g.item_id.as_str()))
        .cloned()
        .collect();
    (!gold.is_empty()).then(|| DevPreview {
        items: gold.len(),
        scores: score(&gold),
    })
}

/// One question: sentence, lettered options, submit with retry; keyboard shortcuts.
#[component]
fn Question(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View { sentence, options } = view;
    let option_count = options.len();
    let position = ctx.position;
    let sender = use_acked_sender(&ctx);

    let choice = OptionChoice::none();
    let selected = choice.selected;
    let submit = move || {
        if let Some(chosen) = choice.to_send(sender) {
            sender.send(AnswerInput::TextMcq(Input { position: chosen }));
        }
    };

    // Keys 1–5 / A–E choose; Enter submits (on a focused option: choose it and submit).
    let handle = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.default_prevented()
            || ev.ctrl_key()
            || ev.meta_key()
            || ev.alt_key()
            || ev.is_composing()
        {
            return;
        }
        let target = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        let tag = target
            .as_ref()
            .map(|e| e.tag_name().to_ascii_uppercase())
            .unwrap_or_default();
        if matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA") {
            return;
        }
        let key = ev.key();
        if key == "Enter" {
            if ev.repeat() || tag == "A" {
                return;
            }
            if tag == "BUTTON" {
                let option = target
                    .and_then(|e| e.get_attribute("data-option"))
                    .and_then(|v| v.parse::<usize>().ok());
                let Some(i) = option else {
                    return; // other buttons: let the browser click them
                };
                if sender.locked_untracked() {
                    return;
                }
                selected.set(Some(i));
            }
            ev.prevent_default();
            submit();
            return;
        }
        if let Some(i) = key_to_option(&key).filter(|i| *i < option_count) {
            if !sender.locked_untracked() {
                ev.prevent_default();
                choice.choose(i);
            }
        }
    });
    on_cleanup(move || handle.remove());

    let label_id = format!("options-label-{position}");
    let option_buttons = options
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let is_selected = move || selected.get() == Some(i);
            view! {
                <button
                    type="button"
                    role="radio"
                    class="option"
                    class:selected=is_selected
                    aria-checked=move || if is_selected() { "true" } else { "false" }
                    data-testid=format!("option-{i}")
                    data-option=i.to_string()
                    disabled=move || sender.locked()
                    on:click=move |_| choice.choose(i)
                >
                    <span class="letter">{option_letter(i).to_string()}</span>
                    <span class="option-text" lang="zh-CN">
                        {text}
                    </span>
                </button>
            }
        })
        .collect_view();

    view! {
        <QuestionCard ctx=ctx class="card question">
            <Sentence text=sentence />
            <p class="options-label" id=label_id.clone()>
                {move || i18n.t().options_label}
            </p>
            <div class="options" role="radiogroup" aria-labelledby=label_id>
                {option_buttons}
            </div>
            {choice.hint_view()}
            <SubmitActions
                sender=sender
                submit=Callback::new(move |()| submit())
                testid="submit-answer"
                incomplete=move || selected.get().is_none()
            />
            <p class="muted small kbd-hint">{move || i18n.t().keyboard_hint}</p>
        </QuestionCard>
    }
}

/// Whether a reviewed answer was right: `None` when the gold is withheld.
fn review_outcome(ctx: &ReviewContext, review: &Review) -> Option<bool> {
    if ctx.gold_withheld {
        return None;
    }
    review
        .correct
        .or_else(|| review.correct_position.map(|c| c == review.chosen_position))
}

/// One reviewed item: right/wrong, sentence, your answer, the correct one, meaning, crowd.
#[component]
fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = review_outcome(&ctx, &review);
    let answer = |pos: usize| {
        let text = review.options.get(pos).cloned().unwrap_or_default();
        format!("{}. {}", option_letter(pos), text)
    };
    let yours = answer(review.chosen_position);
    let correct = review
        .correct_position
        .filter(|_| !ctx.gold_withheld)
        .map(answer);
    let correct_view = match correct {
        Some(c) => view! { <dd lang="zh-CN">{c}</dd> }.into_any(),
        None => withheld_dd(),
    };
    let meaning = review.meaning.filter(|_| !ctx.gold_withheld);
    let shown = view! { <Sentence text=review.sentence /> }.into_any();
    view! {
        <OutcomeCard ctx=ctx outcome=outcome shown=shown>
            <dt>{move || i18n.t().your_answer}</dt>
            <dd lang="zh-CN">{yours}</dd>
            <dt>{move || i18n.t().correct_answer}</dt>
            {correct_view}
            {meaning
                .map(|m| {
                    view! {
                        <dt>{move || i18n.t().meaning}</dt>
                        <dd lang="zh-CN">{m}</dd>
                    }
                })}
        </OutcomeCard>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memeboard_core::predictions::ManifestItem;

    fn manifest() -> (TaskManifest, Vec<McqGold>) {
        let items: Vec<ManifestItem> = (0..6)
            .map(|i| ManifestItem {
                id: format!("i{i}"),
                category: if i % 2 == 0 { "a" } else { "b" }.into(),
                split: if i < 4 { Split::Dev } else { Split::Test },
                options: (0..5).map(|o| format!("opt{i}-{o}")).collect(),
            })
            .collect();
        // Dev gold: option 1 (canonical 0) is right for i0 and i1 only.
        let gold = (0..4)
            .map(|i| McqGold {
                item_id: format!("i{i}"),
                category: if i % 2 == 0 { "a" } else { "b" }.into(),
                correct: if i < 2 { 0 } else { 3 },
            })
            .collect();
        (
            TaskManifest {
                task: "t".into(),
                items,
            },
            gold,
        )
    }

    #[test]
    fn a_valid_file_gets_a_dev_preview_restricted_to_dev_items() {
        let (m, gold) = manifest();
        let text: String = (0..5)
            .map(|i| format!("{{\"item_id\":\"i{i}\",\"answer\":1}}\n"))
            .collect();
        let valid = validate_predictions(&text, FileFormat::JsonLines, &m, Limits::default())
            .expect("valid");
        assert_eq!(valid.num_lines, 5);
        assert!(valid.missing_warning().is_some_and(|w| w.contains("i5")));
        let cats = vec!["a".to_owned(), "b".to_owned()];
        let dev = dev_preview(&m, &gold, |g| {
            summarize(
                &score_mcq(&m, &valid, g),
                &cats,
                PREVIEW_RESAMPLES,
                PREVIEW_SEED,
            )
        })
        .expect("dev gold");
        assert_eq!(dev.items, 4);
        let overall = dev.scores[0].estimate.unwrap();
        assert!((overall.value - 0.5).abs() < 1e-12);
        assert_eq!(dev.scores.len(), 3);
        assert_eq!(dev_preview(&m, &[], |_| unreachable!()), None);
    }

    #[test]
    fn a_bad_file_lists_its_lines() {
        let (m, _) = manifest();
        let report = validate_predictions(
            "{\"item_id\":\"nope\",\"answer\":1}",
            FileFormat::JsonLines,
            &m,
            Limits::default(),
        )
        .unwrap_err();
        assert_eq!(
            report.lines(),
            vec!["line 1, field `item_id`: unknown item id `nope`".to_owned()]
        );
    }
}

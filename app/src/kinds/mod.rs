//! Task kinds in the browser, as plug-ins: one module per kind implements [`UiKind`] on the
//! core kind's marker type (`memeboard_core::kinds::<kind>`), and the pages stay generic.
//!
//! A kind supplies: its name and consent-page instructions, the question component, the
//! review card and the score wording of the results page, and its prediction files
//! ([`UiKind::Files`]: the submit page's help, file check and dev-split preview, see
//! [`files`]; [`NoFiles`] for kinds judged by people). The pages reach a kind only through
//! the functions below and those of [`files`]: [`with_kind!`] for a [`TaskKind`], and one
//! exhaustive `match` per wire enum ([`PromptView`], [`ReviewDetail`]); a kind that is not
//! handled is a compile error here.
//!
//! The quiz bundle (feature `quiz-bundle`) leaves out the judging kinds' question and review
//! components: raters get the boards bundle, which the server picks for a judging quiz's
//! pages ([`crate::bundles::load_from_server`] covers a judging page met in the quiz bundle).
//!
//! # Adding a kind
//! After core (`core/src/kinds/<kind>.rs`): `app/src/kinds/<kind>.rs` with `impl UiKind`
//! (and `impl PredictionFiles` when models submit files) and its strings table, then one arm
//! in [`question_view`] and one in [`review_view`].

mod cards;
pub mod clip_mcq;
mod dev_preview;
pub mod explanation;
pub mod files;
mod free_text;
mod judging;
pub mod panel_explanation;
pub mod panel_order;
pub mod panel_type;
mod panels;
pub mod ranking;
pub mod rating;
pub mod text_mcq;

pub use files::{
    load_checker, submit_help, KindPanel, NoFiles, PredictionFiles, TaskChecker, ValidFile,
};

use crate::browser::focus_when_shown;
use crate::i18n::{category_label, use_i18n, Lang, Strings};
use leptos::prelude::*;
use memeboard_core::api::{ResultsResponse, ReviewItem, SessionItem, SubmitAnswerResponse};
use memeboard_core::kinds::clip_mcq::{ClipMcq, MediaKind};
use memeboard_core::kinds::explanation::Explanation;
use memeboard_core::kinds::panel_explanation::PanelExplanation;
use memeboard_core::kinds::panel_order::PanelOrder;
use memeboard_core::kinds::panel_type::PanelType;
use memeboard_core::kinds::text_mcq::TextMcq;
#[cfg(not(feature = "quiz-bundle"))]
use memeboard_core::kinds::{ranking::Ranking, rating::Rating};
use memeboard_core::kinds::{Kind, PromptView, ReviewDetail, TaskKind};
use memeboard_core::tasks::{CategoryInfo, Familiarity};
use memeboard_core::with_kind;

/// What a question component gets besides its kind's view of the item.
#[derive(Clone)]
pub struct QuestionContext {
    /// 0-based position in the batch.
    pub position: usize,
    /// The item (needed to answer).
    pub item_id: String,
    /// Show the content warning.
    pub content_warning: bool,
    /// Batch size.
    pub total: usize,
    /// Answers recorded so far.
    pub answered_count: Signal<usize>,
    /// The session.
    pub session_id: String,
    /// The quiz (the task's slug: its public dev gold lets the browser score dev items).
    pub quiz_slug: String,
    /// Called with the acknowledgement when the participant moves on.
    pub on_ack: Callback<(usize, SubmitAnswerResponse)>,
    /// The stored preface answer (kinds with a preface resume after it on a reload).
    pub preface: Option<Familiarity>,
    /// The next item's media, so a kind can fetch it while this question is answered.
    pub next_media: Option<NextMedia>,
    /// Every item shown on this item's page, this one included, in session order (with the
    /// live answered state), when the kind puts several on one page ([`UiKind::page_key`]);
    /// empty otherwise.
    pub page: Vec<SessionItem>,
}

/// A media file of the next item, worth fetching ahead so that it plays without waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextMedia {
    /// The file's URL.
    pub url: String,
    /// Audio or video.
    pub media: MediaKind,
}

impl NextMedia {
    /// The media of an item's prompt, asked of its kind ([`UiKind::next_media`]: clips have
    /// one, other kinds none).
    pub fn of(prompt: &PromptView) -> Option<Self> {
        with_kind!(prompt.kind(), K => {
            K::view_of(prompt.clone()).ok().and_then(|view| K::next_media(&view))
        })
    }
}

/// What a review card gets besides its kind's review.
#[derive(Debug, Clone)]
pub struct ReviewContext {
    /// Position in the batch.
    pub position: usize,
    /// Category key.
    pub category: String,
    /// The item is in a hidden test split: nothing derived from gold may be shown.
    pub gold_withheld: bool,
    /// Share of other participants who got it right, where shown.
    pub crowd_accuracy: Option<f64>,
    /// Category labels.
    pub categories: StoredValue<Vec<CategoryInfo>>,
}

impl ReviewContext {
    /// The category's label in the current language (tracked).
    pub fn category_label(&self) -> impl Fn() -> String + Send + Sync + 'static {
        let i18n = use_i18n();
        let (key, categories) = (self.category.clone(), self.categories);
        move || categories.with_value(|c| category_label(i18n.lang(), &key, c))
    }
}

/// The browser side of a task kind. Implemented on the core marker types.
pub trait UiKind: Kind {
    /// The kind's prediction files: `Self` for a kind whose models submit them (it implements
    /// [`PredictionFiles`]), [`NoFiles`] for a kind judged by people. Stable Rust has no
    /// associated-type defaults, so every kind names its choice in one line.
    type Files: PredictionFiles;

    /// The kind in words (task lists, boards).
    fn name(lang: Lang) -> &'static str;
    /// The consent page's promise of what the end of the batch shows, given the open
    /// (practice) share of items; by default: score and correct answers on open items only.
    fn results_note(lang: Lang, open_percent: Option<u8>) -> String {
        (lang.table::<Strings>().results_note)(open_percent.map(|p| 100u8.saturating_sub(p)))
    }
    /// The question component for one item.
    fn question(ctx: QuestionContext, view: Self::View) -> AnyView;
    /// The review card of one answered item (a `<li data-testid="review-item">`).
    fn review_card(ctx: ReviewContext, review: Self::Review) -> AnyView;
    /// The headline score of a finished batch, worded for the kind's scale.
    fn score_summary(results: &ResultsResponse) -> AnyView;
    /// The kind of meme the quiz asks about, as the background survey's familiarity question
    /// names it; by default CHIME's "Chinese internet memes".
    fn memes_noun(lang: Lang) -> &'static str {
        lang.table::<Strings>().memes_noun
    }
    /// Items of a session with the same key are shown together on one page (CHIME's rating
    /// design: one meme with every model's explanation); `None`: one item per page.
    fn page_key(_view: &Self::View) -> Option<String> {
        None
    }
    /// A run condition's name or value (`Kind::CONDITIONS` keys) in words; `None`: the key
    /// is shown as it is (a condition this version does not know).
    fn condition_text(_lang: Lang, _key: &str) -> Option<&'static str> {
        None
    }
    /// A secondary figure's name the kind's boards carry (`sound:speech`), in words; `None`
    /// for names that are not the kind's.
    fn figure_name(_lang: Lang, _name: &str) -> Option<String> {
        None
    }
    /// A class of the kind's confusion matrices (a structure type) in words; `None` for keys
    /// that are not the kind's.
    fn class_name(_lang: Lang, _key: &str) -> Option<&'static str> {
        None
    }
    /// The media file of an item's view worth fetching while the previous item is answered
    /// (clips); `None` for kinds whose items have none.
    fn next_media(_view: &Self::View) -> Option<NextMedia> {
        None
    }
    /// A familiarity answer of the kind's preface in words (`short`: the board figure's
    /// group label); `None` for kinds without a familiarity preface.
    fn familiarity_text(_lang: Lang, _f: Familiarity, _short: bool) -> Option<&'static str> {
        None
    }
}

/// A task kind in words.
pub fn kind_name(lang: Lang, kind: TaskKind) -> &'static str {
    with_kind!(kind, K => K::name(lang))
}

/// A run condition's name or value in words, by the task's kind (boards, the submit page);
/// an unknown key (or kind) as it is, with spaces for underscores.
pub fn condition_text(lang: Lang, kind: Option<TaskKind>, key: &str) -> String {
    kind.and_then(|k| with_kind!(k, K => K::condition_text(lang, key)))
        .map_or_else(|| key.replace('_', " "), str::to_owned)
}

/// A run's conditions in words, "Name: value" joined by " · " (upload results, model pages).
pub fn conditions_text(
    lang: Lang,
    kind: Option<TaskKind>,
    conditions: &std::collections::BTreeMap<String, String>,
) -> String {
    conditions
        .iter()
        .map(|(k, v)| {
            format!(
                "{}: {}",
                condition_text(lang, kind, k),
                condition_text(lang, kind, v)
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The page key of a session item by its kind ([`UiKind::page_key`]).
pub fn page_key(prompt: &PromptView) -> Option<String> {
    with_kind!(prompt.kind(), K => K::view_of(prompt.clone()).ok().and_then(|v| K::page_key(&v)))
}

/// A secondary figure's name in words, by the first kind that knows it (names are the
/// kinds' own: `sound:speech`, a structure type); `None` for names no kind knows.
pub fn figure_name(lang: Lang, name: &str) -> Option<String> {
    TaskKind::ALL
        .iter()
        .find_map(|&k| with_kind!(k, K => K::figure_name(lang, name)))
}

/// A confusion-matrix class in words, by the first kind that knows it; the key as it is
/// otherwise.
pub fn class_name(lang: Lang, key: &str) -> String {
    TaskKind::ALL
        .iter()
        .find_map(|&k| with_kind!(k, K => K::class_name(lang, key)))
        .map_or_else(|| key.to_owned(), str::to_owned)
}

/// A familiarity answer in words by the board's kind (`short`: the figure's group label);
/// its wire name when the kind has no words for it.
pub fn familiarity_text(
    lang: Lang,
    kind: Option<TaskKind>,
    f: Familiarity,
    short: bool,
) -> &'static str {
    kind.and_then(|k| with_kind!(k, K => K::familiarity_text(lang, f, short)))
        .unwrap_or_else(|| f.key())
}

/// The kind of meme a quiz of `kind` asks about (the survey's familiarity question).
pub fn memes_noun(lang: Lang, kind: TaskKind) -> &'static str {
    with_kind!(kind, K => K::memes_noun(lang))
}

/// The consent page's description of the task.
pub fn instructions(lang: Lang, kind: TaskKind, protocol: Option<&str>) -> &'static str {
    with_kind!(kind, K => K::instructions_for(protocol)[usize::from(lang == Lang::Zh)])
}

/// The consent page's note on what the end of the batch shows (and does not).
pub fn results_note(lang: Lang, kind: TaskKind, open_percent: Option<u8>) -> String {
    with_kind!(kind, K => K::results_note(lang, open_percent))
}

/// What the session runner gives every question of a batch.
#[derive(Clone)]
pub struct RunnerContext {
    /// Batch size.
    pub total: usize,
    /// Answers recorded so far.
    pub answered_count: Signal<usize>,
    /// The session.
    pub session_id: String,
    /// The quiz.
    pub quiz_slug: String,
    /// Called with each acknowledgement when the participant moves on.
    pub on_ack: Callback<(usize, SubmitAnswerResponse)>,
}

/// The question component of a batch item; `next` is the item that follows it, if any (for
/// fetching its media ahead); `page` the items shown with it ([`QuestionContext::page`]).
pub fn question_view(
    item: SessionItem,
    next: Option<&SessionItem>,
    page: Vec<SessionItem>,
    run: RunnerContext,
) -> AnyView {
    let RunnerContext {
        total,
        answered_count,
        session_id,
        quiz_slug,
        on_ack,
    } = run;
    let ctx = QuestionContext {
        position: item.position,
        item_id: item.item_id,
        content_warning: item.content_warning,
        total,
        answered_count,
        session_id,
        quiz_slug,
        on_ack,
        preface: item.preface,
        next_media: next.and_then(|n| NextMedia::of(&n.prompt)),
        page,
    };
    match item.prompt {
        PromptView::TextMcq(view) => TextMcq::question(ctx, view),
        PromptView::Explanation(view) => Explanation::question(ctx, view),
        PromptView::PanelOrder(view) => PanelOrder::question(ctx, view),
        PromptView::PanelType(view) => PanelType::question(ctx, view),
        PromptView::ClipMcq(view) => ClipMcq::question(ctx, view),
        #[cfg(not(feature = "quiz-bundle"))]
        PromptView::Rating(view) => Rating::question(ctx, view),
        #[cfg(not(feature = "quiz-bundle"))]
        PromptView::Ranking(view) => Ranking::question(ctx, view),
        #[cfg(feature = "quiz-bundle")]
        PromptView::Rating(_) | PromptView::Ranking(_) => crate::bundles::load_from_server(),
        PromptView::PanelExplanation(view) => PanelExplanation::question(ctx, view),
    }
}

/// The review card of a reviewed item.
pub fn review_view(item: ReviewItem, categories: StoredValue<Vec<CategoryInfo>>) -> AnyView {
    let ReviewItem {
        position,
        category,
        gold_withheld,
        crowd_accuracy,
        detail,
        ..
    } = item;
    let ctx = ReviewContext {
        position,
        category,
        gold_withheld,
        crowd_accuracy,
        categories,
    };
    match detail {
        ReviewDetail::TextMcq(review) => TextMcq::review_card(ctx, review),
        ReviewDetail::Explanation(review) => Explanation::review_card(ctx, review),
        ReviewDetail::PanelOrder(review) => PanelOrder::review_card(ctx, review),
        ReviewDetail::PanelType(review) => PanelType::review_card(ctx, review),
        ReviewDetail::ClipMcq(review) => ClipMcq::review_card(ctx, review),
        #[cfg(not(feature = "quiz-bundle"))]
        ReviewDetail::Rating(review) => Rating::review_card(ctx, review),
        #[cfg(not(feature = "quiz-bundle"))]
        ReviewDetail::Ranking(review) => Ranking::review_card(ctx, review),
        #[cfg(feature = "quiz-bundle")]
        ReviewDetail::Rating(_) | ReviewDetail::Ranking(_) => crate::bundles::load_from_server(),
        ReviewDetail::PanelExplanation(review) => PanelExplanation::review_card(ctx, review),
    }
}

/// The headline score of a finished batch.
pub fn score_summary(results: &ResultsResponse) -> AnyView {
    with_kind!(results.task_kind, K => K::score_summary(results))
}

/// The top of every question: "Question k of n" (focused when shown, so keyboard and
/// screen-reader users start there), the progress bar, and the content warning.
#[component]
pub fn QuestionHead(
    /// 0-based position.
    position: usize,
    /// Batch size.
    total: usize,
    /// Answers recorded so far.
    answered_count: Signal<usize>,
    /// Show the content warning.
    content_warning: bool,
) -> impl IntoView {
    let i18n = use_i18n();
    let heading = focus_when_shown::<leptos::html::H1>();
    view! {
        <h1 class="progress-label" data-testid="progress" node_ref=heading tabindex="-1">
            {move || (i18n.t().progress)(position + 1, total)}
        </h1>
        <progress
            class="progress-bar"
            max=total.to_string()
            value=move || answered_count.get().to_string()
            aria-hidden="true"
        ></progress>
        {content_warning
            .then(|| {
                view! {
                    <p class="notice warning" role="note" data-testid="content-warning">
                        {move || i18n.t().content_warning}
                    </p>
                }
            })}
    }
}

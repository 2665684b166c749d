//! Audio-visual meme clips in the browser (AVMeme Exam): play the clip with the page's own
//! Play button (no seek bar yet), say whether you know it, then answer its lettered
//! multiple-choice question; the review card, the "k / n correct" score, and the submit
//! page's help, file check and dev-split preview.
//!
//! The familiarity answer (the kind's *preface*) is stored before the server sends the
//! question; a reloaded item whose preface is stored starts at the question. Answers carry
//! the number of times the clip was started.

use super::panels::correctness_summary;
use super::text_mcq::{DevPreview, DevPreviewScore};
use super::{
    KindPanel, NextMedia, QuestionContext, QuestionHead, ReviewContext, UiKind, ValidFile,
};
use crate::api;
use crate::components::answer::{use_answer_sender, AnswerError};
use crate::format::{self, option_letter, DASH};
use crate::i18n::{use_i18n, Lang};
use crate::storage;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{
    AnswerInput, PromptView, ResultsResponse, SubmitAnswerResponse, SubmitPrefaceRequest,
};
use memeboard_core::kinds::clip_mcq::{
    ClipMcq, Familiarity, Input, MediaKind, Review, SoundType, View,
};
use memeboard_core::leaderboard::{summarize, ItemScore};
use memeboard_core::predictions::clips::validate_clip_answers;
use memeboard_core::predictions::{FileFormat, Limits, Split, TaskManifest};
use memeboard_core::survey::NativeLanguage;
use memeboard_core::tasks::{CategoryInfo, MediaRef};
use serde::Deserialize;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use web_sys::HtmlMediaElement;

/// Bootstrap resamples of the dev preview intervals.
const PREVIEW_RESAMPLES: usize = 1000;
/// Seed of the dev preview intervals.
const PREVIEW_SEED: u64 = 0x636c_6970_7321_2121;
/// A playback position this close to 0 s counts as the start of the clip.
const START_EPSILON_S: f64 = 0.05;

/// The three familiarity answers, in the order they are offered.
const FAMILIARITY: [Familiarity; 3] = [
    Familiarity::Familiar,
    Familiarity::SeenNotFamiliar,
    Familiarity::Unseen,
];

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Consent page: what the participant will do.
    instructions: &'static str,
    /// Accessible name of an audio clip.
    clip_audio: &'static str,
    /// Accessible name of a video clip.
    clip_video: &'static str,
    /// Play button before the first play.
    play: &'static str,
    /// Play button once started (plays again from the start).
    replay: &'static str,
    /// Accessible name of the progress bar.
    progress: &'static str,
    /// How often the clip was started.
    plays: fn(u32) -> String,
    /// Status: the clip is playing.
    playing: &'static str,
    /// Status: the clip has been played to the end.
    played: &'static str,
    /// Hint before the clip has been played to the end.
    listen_first: &'static str,
    /// The clip could not be loaded or played.
    media_error: &'static str,
    /// Button: load the clip again.
    reload_clip: &'static str,
    /// The familiarity question.
    familiarity_legend: &'static str,
    /// The three answers, in [`FAMILIARITY`] order.
    familiarity: [&'static str; 3],
    /// The three answers in a few words (the board's figure), in [`FAMILIARITY`] order.
    familiarity_short: [&'static str; 3],
    /// Button: store the familiarity answer.
    familiarity_submit: &'static str,
    /// The familiarity button while saving.
    saving: &'static str,
    /// The familiarity answer could not be saved.
    preface_failed: &'static str,
    /// The server sent something other than the clip's question.
    preface_unexpected: &'static str,
    /// Announcement: the question is shown.
    question_shown: &'static str,
    /// Heading of the question.
    question_heading: &'static str,
    /// Legend of the options.
    options_legend: &'static str,
    /// Note under the player once native controls are shown.
    controls_note: &'static str,
    /// Review: label of the question.
    review_question: &'static str,
    /// Review: label of the options list.
    review_options: &'static str,
    /// Review: "your answer" marker in the options list.
    chosen_mark: &'static str,
    /// Review: "correct" marker in the options list.
    correct_mark: &'static str,
    /// Results: after "3 / 5".
    score_suffix: &'static str,
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: which answers are understood.
    help_answers: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: missing items.
    help_missing: &'static str,
    /// Board: the "sound:" prefix of secondary figures.
    sound: &'static str,
    /// Board: sound types, in [`SoundType`] order (speech, song, music, sound effect).
    sound_types: [&'static str; 4],
    /// Board: the "lang:" prefix of secondary figures.
    language: &'static str,
    /// Board: clips without words.
    language_none: &'static str,
}

static ZH: Texts = Texts {
    name: "音视频梗（听/看片段后选择）",
    instructions: "本任务需要戴耳机：开始前有一个约一分钟的耳机检测（听三个音，选出最轻的一个）。每道题先播放一段音频或视频片段（请完整听完，可以重播）；然后回答你是否见过或听过它；之后才会显示关于该片段的问题和若干选项（A、B、C……），请选出正确答案。请独立作答：不要上网搜索，不要与他人讨论或请他人帮忙。",
    clip_audio: "片段（音频）",
    clip_video: "片段（视频）",
    play: "▶ 播放片段",
    replay: "↺ 从头重播",
    progress: "播放进度",
    plays: |n| format!("已播放 {n} 次"),
    playing: "正在播放…",
    played: "已播放完毕。",
    listen_first: "请先把片段完整播放一遍，然后回答下面的问题。",
    media_error: "片段无法加载或播放。",
    reload_clip: "重新加载片段",
    familiarity_legend: "你以前见过或听过这个片段吗？",
    familiarity: [
        "见过/听过，而且很熟悉",
        "见过/听过，但不太熟悉",
        "从没见过/听过",
    ],
    familiarity_short: ["熟悉", "见过但不熟悉", "没见过"],
    familiarity_submit: "继续答题",
    saving: "保存中…",
    preface_failed: "你的回答未能保存：",
    preface_unexpected: "服务器返回的内容不是本片段的问题，请重试。",
    question_shown: "问题已显示在下方。",
    question_heading: "问题",
    options_legend: "选择正确答案：",
    controls_note: "现在可以用播放器的控件重播或拖动片段。",
    review_question: "问题",
    review_options: "选项",
    chosen_mark: "你的答案",
    correct_mark: "正确答案",
    score_suffix: " 答对",
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和答案：",
    help_answers: "答案可以是 inputs.jsonl 中各选项的字母（A、B、C……），也可以是选项序号（从 1 开始，同一顺序），或选项的完整原文。",
    help_csv: "CSV：首行为表头 item_id,answer，之后每行一条预测：",
    help_missing: "没有预测的题目按答错计分。",
    sound: "声音类型",
    sound_types: ["语音", "歌曲", "音乐", "音效"],
    language: "语言",
    language_none: "无（无语言）",
};

static EN: Texts = Texts {
    name: "Audio-visual memes (clip, then a question)",
    instructions: "Headphones are required: before you start, a one-minute headphone check plays three tones at a time and asks which was the quietest. Each question first plays a short audio or video clip (listen to the end; you may replay it); then you say whether you have seen or heard it before; only then are the question about the clip and its options (A, B, C…) shown: choose the right answer. Work alone: no web search, no help from or discussion with anyone.",
    clip_audio: "The clip (audio)",
    clip_video: "The clip (video)",
    play: "▶ Play the clip",
    replay: "↺ Play again from the start",
    progress: "Playback progress",
    plays: |n| {
        if n == 1 {
            "Played once".to_owned()
        } else {
            format!("Played {n} times")
        }
    },
    playing: "Playing…",
    played: "Played to the end.",
    listen_first: "Play the clip to the end first, then answer the question below.",
    media_error: "The clip could not be loaded or played.",
    reload_clip: "Load the clip again",
    familiarity_legend: "Have you seen or heard this clip before?",
    familiarity: [
        "Yes, and I know it well",
        "Yes, but I don't know it well",
        "No, never",
    ],
    familiarity_short: ["Familiar", "Seen, not familiar", "Never seen"],
    familiarity_submit: "Continue to the question",
    saving: "Saving…",
    preface_failed: "Your answer could not be saved:",
    preface_unexpected: "The server did not send this clip's question; please try again.",
    question_shown: "The question is shown below.",
    question_heading: "Question",
    options_legend: "Choose the right answer:",
    controls_note: "You can now replay the clip or move through it with the player's controls.",
    review_question: "Question",
    review_options: "Options",
    chosen_mark: "your answer",
    correct_mark: "correct",
    score_suffix: " correct",
    help_jsonl: "JSON Lines: one object per line with the item id and the answer:",
    help_answers: "The answer is the letter of an option as lettered in inputs.jsonl (A, B, C…), the option's number (1-based, same order), or the option's exact text.",
    help_csv: "CSV: a header row item_id,answer, then one prediction per row:",
    help_missing: "Items without a prediction are scored as wrong.",
    sound: "sound",
    sound_types: ["speech", "song", "music", "sound effect"],
    language: "language",
    language_none: "none (no words)",
};

fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// A string of [`Texts`] that follows the language.
fn tx(pick: fn(&'static Texts) -> &'static str) -> impl Fn() -> &'static str + Copy + Send + Sync {
    let i18n = use_i18n();
    move || pick(texts(i18n.lang()))
}

/// The wire name of a familiarity answer (`data-familiarity`, as the server spells it).
pub fn familiarity_key(f: Familiarity) -> &'static str {
    match f {
        Familiarity::Familiar => "familiar",
        Familiarity::SeenNotFamiliar => "seen_not_familiar",
        Familiarity::Unseen => "unseen",
    }
}

/// A familiarity answer in `lang` (also the board's familiarity figure uses it).
pub fn familiarity_label(lang: Lang, f: Familiarity) -> &'static str {
    let i = FAMILIARITY.iter().position(|x| *x == f).unwrap_or(0);
    texts(lang).familiarity[i]
}

/// A familiarity group in a few words (the board's familiarity figure).
pub fn familiarity_short(lang: Lang, f: Familiarity) -> &'static str {
    let i = FAMILIARITY.iter().position(|x| *x == f).unwrap_or(0);
    texts(lang).familiarity_short[i]
}

/// A clip board's secondary figure name in `lang` (`sound:speech` → "sound: speech",
/// `lang:zh` → "language: Chinese"); `None` for names that are not the clip kind's, so the
/// board can try other kinds.
pub fn metric_name(lang: Lang, name: &str) -> Option<String> {
    let t = texts(lang);
    let sep = if lang == Lang::Zh { "：" } else { ": " };
    if let Some(sound) = name.strip_prefix("sound:") {
        let ty: SoundType = serde_json::from_value(serde_json::Value::from(sound)).ok()?;
        let i = match ty {
            SoundType::Speech => 0,
            SoundType::Song => 1,
            SoundType::Music => 2,
            SoundType::SoundEffect => 3,
        };
        return Some(format!("{}{sep}{}", t.sound, t.sound_types[i]));
    }
    let code = name.strip_prefix("lang:")?;
    let language = if code == "none" {
        t.language_none.to_owned()
    } else {
        NativeLanguage::ALL
            .iter()
            .zip(lang.strings().languages)
            .find(|(l, _)| l.code() == Some(code))
            .map(|(_, label)| label.to_owned())
            .unwrap_or_else(|| code.to_owned())
    };
    Some(format!("{}{sep}{language}", t.language))
}

/// `m:ss` of a playback position in seconds (`0:00` for nonsense values).
fn clock(seconds: f64) -> String {
    let s = if seconds.is_finite() && seconds > 0.0 {
        seconds.floor() as u64
    } else {
        0
    };
    format!("{}:{:02}", s / 60, s % 60)
}

/// localStorage key of an item's play count, so a reload does not forget earlier plays.
fn plays_key(session_id: &str, item_id: &str) -> String {
    format!("memeboard.plays.{session_id}.{item_id}")
}

/// A dev gold line of a clip task: the right option's letter in inputs.jsonl's lettering.
#[derive(Debug, Clone, Deserialize)]
pub struct ClipGold {
    item_id: String,
    category: String,
    answer_letter: String,
}

impl ClipGold {
    /// The 0-based option index of the answer letter (`None` for anything but one letter).
    fn index(&self) -> Option<usize> {
        let mut chars = self.answer_letter.trim().chars();
        let c = chars.next()?.to_ascii_uppercase();
        (chars.next().is_none() && c.is_ascii_uppercase()).then(|| c as usize - 'A' as usize)
    }
}

impl UiKind for ClipMcq {
    type DevGold = Vec<ClipGold>;

    fn name(lang: Lang) -> &'static str {
        texts(lang).name
    }

    fn instructions(lang: Lang) -> &'static str {
        texts(lang).instructions
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <ClipQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        correctness_summary(results, |lang| texts(lang).score_suffix)
    }

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-clip-mcq">
                <p>{tx(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"answer\": \"B\"}\n{\"item_id\": \"ITEM_ID\", \"answer\": 2}"
                </code></pre>
                <p>{tx(|t| t.help_answers)}</p>
                <p>{tx(|t| t.help_csv)}</p>
                <pre><code>"item_id,answer\nITEM_ID,B"</code></pre>
                <p>
                    <strong>{tx(|t| t.help_missing)}</strong>
                </p>
            </div>
        }
        .into_any()
    }

    /// Without dev gold the file is still checked; the preview just has no score.
    async fn load_dev_gold(slug: String) -> Vec<ClipGold> {
        api::dev_gold_lines(&slug).await.unwrap_or_default()
    }

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Vec<ClipGold>,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let valid = validate_clip_answers(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(crate::i18n::current_lang().locale()))?;
        let answers: HashMap<&str, Option<usize>> = valid
            .item_ids
            .iter()
            .map(String::as_str)
            .zip(valid.answers.iter().copied())
            .collect();
        let preview = dev_preview(manifest, dev, &answers, categories);
        let categories = categories.to_vec();
        Ok(ValidFile {
            lines: valid.num_lines,
            missing: valid
                .missing_message()
                .map(|m| m.render(crate::i18n::current_lang().locale())),
            panel: KindPanel::new(move || match preview.clone() {
                Some(p) => {
                    view! { <DevPreviewScore preview=p categories=categories.clone() /> }.into_any()
                }
                None => ().into_any(),
            }),
        })
    }
}

/// Accuracy on the manifest's dev items whose gold is public (`None` without any); an item
/// without an answer scores 0, as on the board.
fn dev_preview(
    manifest: &TaskManifest,
    dev: &[ClipGold],
    answers: &HashMap<&str, Option<usize>>,
    categories: &[CategoryInfo],
) -> Option<DevPreview> {
    let scores: Vec<ItemScore> = manifest
        .items
        .iter()
        .filter(|item| item.split == Split::Dev)
        .filter_map(|item| dev.iter().find(|g| g.item_id == item.id))
        .map(|gold| {
            let chosen = answers.get(gold.item_id.as_str()).copied().flatten();
            let right = chosen.is_some() && chosen == gold.index();
            ItemScore {
                item_id: gold.item_id.clone(),
                category: gold.category.clone(),
                score: if right { 1.0 } else { 0.0 },
            }
        })
        .collect();
    let keys: Vec<String> = categories.iter().map(|c| c.key.clone()).collect();
    (!scores.is_empty()).then(|| DevPreview {
        items: scores.len(),
        scores: summarize(&scores, &keys, PREVIEW_RESAMPLES, PREVIEW_SEED),
    })
}

/// The clip's question once the familiarity answer is stored.
#[derive(Debug, Clone, PartialEq)]
struct Asked {
    question: String,
    options: Vec<String>,
}

impl Asked {
    /// The question of a view, when the server sent it.
    fn of(view: &View) -> Option<Self> {
        let question = view.question.clone()?;
        (!view.options.is_empty()).then(|| Self {
            question,
            options: view.options.clone(),
        })
    }
}

/// The state of the clip's media element. `Copy`, so handlers can share it.
#[derive(Debug, Clone, Copy)]
struct Player {
    audio: NodeRef<leptos::html::Audio>,
    video: NodeRef<leptos::html::Video>,
    /// Times the clip was started (sent with the answer).
    plays: RwSignal<u32>,
    /// The next `play` event is a new start (from the beginning or after the end).
    fresh: StoredValue<bool>,
    playing: RwSignal<bool>,
    /// Played to the end at least once (unlocks the familiarity question).
    played_through: RwSignal<bool>,
    /// Position and length in seconds.
    current: RwSignal<f64>,
    duration: RwSignal<f64>,
    failed: RwSignal<bool>,
    /// Where the play count is remembered.
    key: StoredValue<String>,
}

impl Player {
    fn new(key: String, duration_ms: u32, played_through: bool) -> Self {
        let plays = storage::get(&key).and_then(|v| v.parse().ok()).unwrap_or(0);
        Self {
            audio: NodeRef::new(),
            video: NodeRef::new(),
            plays: RwSignal::new(plays),
            fresh: StoredValue::new(true),
            playing: RwSignal::new(false),
            played_through: RwSignal::new(played_through),
            current: RwSignal::new(0.0),
            duration: RwSignal::new(f64::from(duration_ms) / 1000.0),
            failed: RwSignal::new(false),
            key: StoredValue::new(key),
        }
    }

    /// The media element, whichever kind it is.
    fn element(self) -> Option<HtmlMediaElement> {
        self.audio
            .get_untracked()
            .map(JsCast::unchecked_into)
            .or_else(|| self.video.get_untracked().map(JsCast::unchecked_into))
    }

    /// Counts one start of the clip.
    fn count(self) {
        self.fresh.set_value(false);
        self.plays.update(|n| *n += 1);
        self.key
            .with_value(|k| storage::set(k, &self.plays.get_untracked().to_string()));
    }

    /// Plays the clip from the start (a user gesture: the button), counting it once.
    fn play_from_start(self) {
        let Some(el) = self.element() else {
            return;
        };
        self.failed.set(false);
        let was_playing = !el.paused() && !el.ended();
        el.set_current_time(0.0);
        if was_playing {
            // No `play` event follows a seek while playing: count the restart here.
            self.count();
            return;
        }
        self.fresh.set_value(true);
        match el.play() {
            Ok(promise) => spawn_local(async move {
                if wasm_bindgen_futures::JsFuture::from(promise).await.is_err() {
                    let _ = self.failed.try_set(true);
                }
            }),
            Err(_) => self.failed.set(true),
        }
    }

    /// Asks the browser to fetch the clip again after an error.
    fn reload(self) {
        if let Some(el) = self.element() {
            self.failed.set(false);
            el.load();
        }
    }

    fn on_play(self) {
        self.playing.set(true);
        self.failed.set(false);
        let at_start = self
            .element()
            .is_none_or(|el| el.current_time() < START_EPSILON_S);
        if self.fresh.get_value() || at_start {
            self.count();
        }
    }

    fn on_ended(self) {
        self.playing.set(false);
        self.played_through.set(true);
        self.fresh.set_value(true);
        if let Some(el) = self.element() {
            self.current.set(el.current_time());
        }
    }

    fn on_time(self) {
        if let Some(el) = self.element() {
            self.current.set(el.current_time());
            let d = el.duration();
            if d.is_finite() && d > 0.0 {
                self.duration.set(d);
            }
        }
    }
}

/// The clip's media element (audio or video) with its event handlers; native controls only
/// once `controls` is true.
fn media_element(
    clip: &MediaRef,
    media: MediaKind,
    player: Player,
    controls: Signal<bool>,
    label: impl Fn() -> &'static str + Copy + Send + Sync + 'static,
) -> AnyView {
    let url = clip.url.clone();
    let described = (!clip.alt.is_empty()).then(|| clip.alt.clone());
    match media {
        MediaKind::Audio => view! {
            <audio
                class="clip-media clip-audio"
                src=url
                preload="auto"
                controls=move || controls.get()
                aria-label=label
                title=described
                data-testid="clip-media"
                node_ref=player.audio
                on:play=move |_| player.on_play()
                on:pause=move |_| player.playing.set(false)
                on:ended=move |_| player.on_ended()
                on:timeupdate=move |_| player.on_time()
                on:loadedmetadata=move |_| player.on_time()
                on:error=move |_| player.failed.set(true)
            ></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video
                class="clip-media clip-video"
                src=url
                preload="auto"
                playsinline=true
                controls=move || controls.get()
                aria-label=label
                title=described
                data-testid="clip-media"
                node_ref=player.video
                on:play=move |_| player.on_play()
                on:pause=move |_| player.playing.set(false)
                on:ended=move |_| player.on_ended()
                on:timeupdate=move |_| player.on_time()
                on:loadedmetadata=move |_| player.on_time()
                on:error=move |_| player.failed.set(true)
            ></video>
        }
        .into_any(),
    }
}

/// The next item's clip, fetched while this one is answered (hidden, muted, never played).
fn preload_view(next: Option<NextMedia>) -> impl IntoView {
    next.map(|n| match n.media {
        MediaKind::Audio => view! {
            <audio
                class="clip-preload"
                src=n.url
                preload="auto"
                muted=true
                hidden=true
                aria-hidden="true"
                data-testid="clip-preload"
            ></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video
                class="clip-preload"
                src=n.url
                preload="auto"
                muted=true
                hidden=true
                aria-hidden="true"
                data-testid="clip-preload"
            ></video>
        }
        .into_any(),
    })
}

/// The three familiarity answers as a radio group (native radios: arrow keys move the choice).
fn familiarity_radios(
    position: usize,
    familiarity: RwSignal<Option<Familiarity>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let group = format!("familiarity-{position}");
    FAMILIARITY
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            let key = familiarity_key(f);
            view! {
                <label class="check radio-choice">
                    <input
                        type="radio"
                        name=group.clone()
                        value=key
                        data-testid="familiarity-option"
                        data-familiarity=key
                        prop:checked=move || familiarity.get() == Some(f)
                        on:change=move |_| familiarity.set(Some(f))
                    />
                    <span>{move || texts(i18n.lang()).familiarity[i]}</span>
                </label>
            }
        })
        .collect_view()
}

/// One clip: the player, then the familiarity question, then (once it is stored) the
/// question with lettered options.
#[component]
fn ClipQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let position = ctx.position;
    let asked = RwSignal::new(Asked::of(&view));
    let View {
        clip,
        media,
        duration_ms,
        ..
    } = view;
    let player = Player::new(
        plays_key(&ctx.session_id, &ctx.item_id),
        duration_ms,
        ctx.preface.is_some(),
    );
    let ids = StoredValue::new((ctx.session_id.clone(), ctx.item_id.clone()));

    // The familiarity answer and its sending.
    let familiarity = RwSignal::new(ctx.preface);
    let sending = RwSignal::new(false);
    let retries = RwSignal::new(0u32);
    let error = RwSignal::new(None::<String>);
    let send_preface = move || {
        let Some(f) = familiarity.get_untracked() else {
            return;
        };
        if sending.get_untracked() || asked.with_untracked(Option::is_some) {
            return;
        }
        let (session_id, item_id) = ids.get_value();
        let request = SubmitPrefaceRequest {
            item_id,
            familiarity: f,
        };
        sending.set(true);
        retries.set(0);
        error.set(None);
        spawn_local(async move {
            let outcome =
                api::submit_preface(&session_id, &request, |n| retries.try_set(n).is_none()).await;
            // The question may be gone by now (navigation): then there is no one to tell.
            match outcome {
                Ok(response) => match &response.item.prompt {
                    PromptView::ClipMcq(v) if Asked::of(v).is_some() => {
                        let _ = asked.try_set(Asked::of(v));
                    }
                    _ => {
                        let text = texts(i18n.lang_untracked()).preface_unexpected;
                        let _ = error.try_set(Some(text.to_owned()));
                    }
                },
                Err(e) => {
                    let _ = error.try_set(Some(e.to_string()));
                }
            }
            let _ = sending.try_set(false);
        });
    };
    // Resumed with a stored preface but without its question: ask again (an identical
    // resend returns the stored item).
    if ctx.preface.is_some() && asked.with_untracked(Option::is_none) {
        send_preface();
    }

    let on_preface = move |ev: SubmitEvent| {
        ev.prevent_default();
        send_preface();
    };
    let controls = Signal::derive(move || asked.with(Option::is_some));
    let label = move || match media {
        MediaKind::Audio => texts(i18n.lang()).clip_audio,
        MediaKind::Video => texts(i18n.lang()).clip_video,
    };
    let player_view = media_element(&clip, media, player, controls, label);
    let status = move || {
        let t = texts(i18n.lang());
        if player.playing.get() {
            t.playing.to_owned()
        } else if player.played_through.get() {
            t.played.to_owned()
        } else {
            String::new()
        }
    };
    let preface_retrying = move || {
        (sending.get() && retries.get() > 0).then(|| {
            view! {
                <p class="notice muted small" role="status" data-testid="preface-retrying">
                    {move || (i18n.t().answer_retrying)(retries.get())}
                </p>
            }
        })
    };
    let preface_error = move || {
        error.get().map(|detail| {
            view! {
                <div class="notice error" role="alert">
                    <p data-testid="preface-error">{tx(|t| t.preface_failed)} " " {detail}</p>
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="retry-preface"
                        disabled=move || sending.get()
                        on:click=move |_| send_preface()
                    >
                        {move || i18n.t().retry}
                    </button>
                </div>
            }
        })
    };
    let stage_one = move || {
        asked.with(Option::is_none).then(|| {
            view! {
                <form class="familiarity-form" on:submit=on_preface novalidate=true>
                    <fieldset
                        class="choice-group"
                        disabled=move || !player.played_through.get() || sending.get()
                    >
                        <legend>{tx(|t| t.familiarity_legend)}</legend>
                        {familiarity_radios(position, familiarity)}
                    </fieldset>
                    <p
                        class="notice info small"
                        data-testid="listen-first"
                        hidden=move || player.played_through.get()
                    >
                        {tx(|t| t.listen_first)}
                    </p>
                    {preface_retrying}
                    {preface_error}
                    <div class="actions">
                        <button
                            type="submit"
                            class="button primary"
                            data-testid="familiarity-submit"
                            disabled=move || {
                                !player.played_through.get() || familiarity.get().is_none()
                                    || sending.get()
                            }
                        >
                            {move || {
                                let t = texts(i18n.lang());
                                if sending.get() { t.saving } else { t.familiarity_submit }
                            }}
                        </button>
                    </div>
                </form>
            }
        })
    };
    let on_ack = ctx.on_ack;
    let on_recorded = Callback::new(move |ack: SubmitAnswerResponse| {
        player.key.with_value(|k| storage::remove(k));
        on_ack.run((position, ack));
    });
    let stage_two = move || {
        asked.get().map(|a| {
            let (session_id, item_id) = ids.get_value();
            view! {
                <ChoiceStep
                    asked=a
                    position=position
                    session_id=session_id
                    item_id=item_id
                    plays=player.plays
                    on_recorded=on_recorded
                />
            }
        })
    };

    view! {
        <section
            class="card question clip-question"
            data-testid="question"
            data-position=position.to_string()
            data-item-id=ctx.item_id.clone()
            data-stage=move || if asked.with(Option::is_some) { "question" } else { "familiarity" }
        >
            <QuestionHead
                position=position
                total=ctx.total
                answered_count=ctx.answered_count
                content_warning=ctx.content_warning
            />
            <div class="clip-player" class:video=media == MediaKind::Video>
                {player_view}
                <div class="clip-controls">
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="clip-play"
                        on:click=move |_| player.play_from_start()
                    >
                        {move || {
                            let t = texts(i18n.lang());
                            if player.plays.get() == 0 { t.play } else { t.replay }
                        }}
                    </button>
                    <progress
                        class="clip-progress"
                        data-testid="clip-progress"
                        max=move || format!("{:.3}", player.duration.get().max(0.001))
                        value=move || format!("{:.3}", player.current.get())
                        aria-label=tx(|t| t.progress)
                        aria-valuetext=move || {
                            format!("{} / {}", clock(player.current.get()), clock(player.duration.get()))
                        }
                    ></progress>
                    <span class="clip-time muted small" aria-hidden="true">
                        {move || {
                            format!("{} / {}", clock(player.current.get()), clock(player.duration.get()))
                        }}
                    </span>
                </div>
                <p class="muted small clip-status" role="status" aria-live="polite" data-testid="clip-status">
                    {status}
                    " "
                    {move || {
                        let n = player.plays.get();
                        (n > 0).then(|| (texts(i18n.lang()).plays)(n))
                    }}
                </p>
                <p class="notice error" role="alert" hidden=move || !player.failed.get()>
                    {tx(|t| t.media_error)}
                    " "
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="clip-reload"
                        on:click=move |_| player.reload()
                    >
                        {tx(|t| t.reload_clip)}
                    </button>
                </p>
                <p class="muted small" hidden=move || !controls.get()>
                    {tx(|t| t.controls_note)}
                </p>
            </div>
            {stage_one}
            {stage_two}
            {preload_view(ctx.next_media.clone())}
        </section>
    }
}

/// The question with its lettered options and the answer button (stage two). The response
/// time counts from when it is shown.
#[component]
fn ChoiceStep(
    asked: Asked,
    position: usize,
    session_id: String,
    item_id: String,
    plays: RwSignal<u32>,
    on_recorded: Callback<SubmitAnswerResponse>,
) -> impl IntoView {
    let i18n = use_i18n();
    let sender = use_answer_sender(&session_id, &item_id);
    Effect::new(move |_| {
        if let Some(ack) = sender.recorded() {
            on_recorded.run(ack);
        }
    });
    let heading = NodeRef::<leptos::html::H3>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });

    let selected = RwSignal::new(None::<usize>);
    let hint = RwSignal::new(false);
    let submit = move || {
        if sender.locked_untracked() {
            return;
        }
        let Some(choice) = selected.get_untracked() else {
            hint.set(true);
            return;
        };
        hint.set(false);
        sender.send(AnswerInput::ClipMcq(Input {
            position: choice,
            plays: plays.get_untracked(),
        }));
    };
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        submit();
    };
    let group = format!("clip-options-{position}");
    let options = asked
        .options
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            view! {
                <label class="option clip-option" class:selected=move || selected.get() == Some(i)>
                    <input
                        type="radio"
                        name=group.clone()
                        value=i.to_string()
                        data-testid="clip-option"
                        data-position=i.to_string()
                        prop:checked=move || selected.get() == Some(i)
                        on:change=move |_| {
                            selected.set(Some(i));
                            hint.set(false);
                        }
                    />
                    <span class="letter" aria-hidden="true">{option_letter(i).to_string()}</span>
                    <span class="visually-hidden">{format!("{}.", option_letter(i))}</span>
                    <span class="option-text">{text}</span>
                </label>
            }
        })
        .collect_view();
    view! {
        <p class="visually-hidden" role="status" aria-live="polite">{tx(|t| t.question_shown)}</p>
        <form class="clip-choice" on:submit=on_submit novalidate=true>
            <p class="muted small">{tx(|t| t.question_heading)}</p>
            <h3 class="clip-question-text" node_ref=heading tabindex="-1" data-testid="clip-question">
                {asked.question}
            </h3>
            <fieldset class="choice-group options" disabled=move || sender.locked()>
                <legend>{tx(|t| t.options_legend)}</legend>
                {options}
            </fieldset>
            <p class="notice info" role="status" aria-live="polite" hidden=move || !hint.get()>
                {move || i18n.t().choose_first}
            </p>
            <AnswerError sender=sender on_retry=Callback::new(move |()| submit()) />
            <div class="actions">
                <button
                    type="submit"
                    class="button primary"
                    data-testid="clip-submit"
                    disabled=move || sender.locked() || selected.get().is_none()
                >
                    {move || if sender.locked() { i18n.t().sending } else { i18n.t().submit }}
                </button>
            </div>
        </form>
    }
}

/// One reviewed clip: right/wrong, the clip (to listen again), the question, the lettered
/// options with yours and the correct one marked, and the crowd's accuracy.
#[component]
fn ReviewCard(ctx: ReviewContext, review: Review) -> impl IntoView {
    let i18n = use_i18n();
    let outcome = if ctx.gold_withheld {
        None
    } else {
        review
            .correct
            .or_else(|| review.correct_position.map(|c| c == review.chosen_position))
    };
    let correct_position = review.correct_position.filter(|_| !ctx.gold_withheld);
    let answer = |pos: usize| {
        let text = review.options.get(pos).cloned().unwrap_or_default();
        format!("{}. {}", option_letter(pos), text)
    };
    let yours = answer(review.chosen_position);
    let correct = correct_position.map(answer);
    let crowd = ctx
        .crowd_accuracy
        .map(format::accuracy)
        .unwrap_or_else(|| DASH.to_owned());
    let category = ctx.category_label();
    let (badge_class, mark) = match outcome {
        Some(true) => ("badge right", "✓ "),
        Some(false) => ("badge wrong", "✗ "),
        None => ("badge withheld", ""),
    };
    let badge_text = move || {
        let t = i18n.t();
        match outcome {
            Some(true) => t.right,
            Some(false) => t.wrong,
            None => t.withheld,
        }
    };
    let chosen = review.chosen_position;
    let options = review
        .options
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let is_chosen = i == chosen;
            let is_correct = correct_position == Some(i);
            view! {
                <li
                    class="review-option"
                    class:chosen=is_chosen
                    class:correct=is_correct
                    data-testid="review-option"
                    data-position=i.to_string()
                >
                    <span class="letter">{option_letter(i).to_string()}</span>
                    " "
                    <span>{text.clone()}</span>
                    {is_chosen
                        .then(|| {
                            view! { <span class="badge small">{tx(|t| t.chosen_mark)}</span> }
                        })}
                    {is_correct
                        .then(|| {
                            view! { <span class="badge right small">{tx(|t| t.correct_mark)}</span> }
                        })}
                </li>
            }
        })
        .collect_view();
    let correct_view = match correct {
        Some(c) => view! { <dd data-testid="review-correct">{c}</dd> }.into_any(),
        None => view! { <dd class="muted">{move || i18n.t().withheld_note}</dd> }.into_any(),
    };
    let label = move || match review.media {
        MediaKind::Audio => texts(i18n.lang()).clip_audio,
        MediaKind::Video => texts(i18n.lang()).clip_video,
    };
    let clip = match review.media {
        MediaKind::Audio => view! {
            <audio class="clip-media review-clip" src=review.clip.url.clone() preload="none" controls=true aria-label=label></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video class="clip-media review-clip" src=review.clip.url.clone() preload="none" controls=true playsinline=true aria-label=label></video>
        }
        .into_any(),
    };
    view! {
        <li
            class="card review-item"
            class:right=outcome == Some(true)
            class:wrong=outcome == Some(false)
            data-testid="review-item"
            data-position=ctx.position.to_string()
            data-correct=match outcome {
                Some(true) => "true",
                Some(false) => "false",
                None => "withheld",
            }
        >
            <p class="review-head">
                <span class=badge_class>{mark} {badge_text}</span>
                <span class="muted">{category}</span>
            </p>
            {clip}
            <dl class="review-grid">
                <dt>{tx(|t| t.review_question)}</dt>
                <dd data-testid="review-question">{review.question.clone()}</dd>
                <dt>{tx(|t| t.review_options)}</dt>
                <dd>
                    <ul class="review-options">
                        {options}
                    </ul>
                </dd>
                <dt>{move || i18n.t().your_answer}</dt>
                <dd data-testid="review-chosen">{yours}</dd>
                <dt>{move || i18n.t().correct_answer}</dt>
                {correct_view}
                <dt>{move || i18n.t().crowd_accuracy}</dt>
                <dd>{crowd}</dd>
            </dl>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memeboard_core::predictions::ManifestItem;

    #[test]
    fn familiarity_keys_are_the_wire_names() {
        for f in FAMILIARITY {
            assert_eq!(
                serde_json::to_value(f).expect("serialises"),
                serde_json::Value::from(familiarity_key(f))
            );
        }
        assert_eq!(
            familiarity_label(Lang::En, Familiarity::Unseen),
            "No, never"
        );
    }

    #[test]
    fn clip_figures_are_translated() {
        assert_eq!(
            metric_name(Lang::En, "sound:speech").as_deref(),
            Some("sound: speech")
        );
        assert_eq!(
            metric_name(Lang::Zh, "sound:speech").as_deref(),
            Some("声音类型：语音")
        );
        assert_eq!(
            metric_name(Lang::En, "sound:sound_effect").as_deref(),
            Some("sound: sound effect")
        );
        assert_eq!(
            metric_name(Lang::En, "lang:zh").as_deref(),
            Some("language: Chinese")
        );
        assert_eq!(
            metric_name(Lang::Zh, "lang:none").as_deref(),
            Some("语言：无（无语言）")
        );
        assert_eq!(
            metric_name(Lang::En, "lang:xx").as_deref(),
            Some("language: xx")
        );
        assert_eq!(metric_name(Lang::En, "sound:bogus"), None);
        assert_eq!(metric_name(Lang::En, "parse rate"), None);
    }

    #[test]
    fn clocks_and_letters() {
        assert_eq!(clock(0.0), "0:00");
        assert_eq!(clock(65.9), "1:05");
        assert_eq!(clock(f64::NAN), "0:00");
        let gold = |l: &str| ClipGold {
            item_id: "c".into(),
            category: "emotion".into(),
            answer_letter: l.into(),
        };
        assert_eq!(gold("B").index(), Some(1));
        assert_eq!(gold(" a ").index(), Some(0));
        assert_eq!(gold("AB").index(), None);
        assert_eq!(gold("2").index(), None);
    }

    #[test]
    fn the_dev_preview_scores_dev_items_only() {
        let items: Vec<ManifestItem> = (0..4)
            .map(|i| ManifestItem {
                id: format!("c{i}"),
                category: "emotion".into(),
                split: if i < 3 { Split::Dev } else { Split::Test },
                options: vec!["x".into(), "y".into(), "z".into()],
            })
            .collect();
        let manifest = TaskManifest {
            task: "t".into(),
            items,
        };
        let dev: Vec<ClipGold> = ["A", "B", "C", "A"]
            .iter()
            .enumerate()
            .map(|(i, l)| ClipGold {
                item_id: format!("c{i}"),
                category: "emotion".into(),
                answer_letter: (*l).into(),
            })
            .collect();
        // Right on c0, wrong on c1, missing c2; c3 is a test item.
        let answers: HashMap<&str, Option<usize>> =
            [("c0", Some(0)), ("c1", Some(0)), ("c3", Some(0))].into();
        let p = dev_preview(&manifest, &dev, &answers, &[]).expect("dev gold");
        assert_eq!(p.items, 3);
        let overall = p.scores[0].estimate.expect("estimate").value;
        assert!((overall - 1.0 / 3.0).abs() < 1e-12);
        assert!(dev_preview(&manifest, &[], &answers, &[]).is_none());
    }
}

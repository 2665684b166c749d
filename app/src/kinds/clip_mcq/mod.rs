//! Audio-visual meme clips in the browser (AVMeme Exam): play the clip with the page's own
//! Play button (no seek bar yet), say whether you know it, then answer its lettered
//! multiple-choice question; the review card, the "k / n correct" score, and the submit
//! page's help, file check and dev-split preview.
//!
//! The familiarity answer (the kind's *preface*) is stored before the server sends the
//! question; a reloaded item whose preface is stored starts at the question. Answers carry
//! the number of times the clip was started.

mod player;
mod question;
mod review;
#[cfg(test)]
mod tests;

use super::dev_preview::{missing_wrong_note, previewed_file, DevPreview};
use super::panels::correctness_summary;
use super::{NextMedia, PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::i18n::{Lang, StringTable, Strings};
use leptos::prelude::*;
use memeboard_core::api::ResultsResponse;
use memeboard_core::kinds::clip_mcq::{ClipMcq, Familiarity, Review, SoundType, View};
use memeboard_core::leaderboard::ItemScore;
use memeboard_core::predictions::clips::validate_clip_answers;
use memeboard_core::predictions::{FileFormat, Limits, Split, TaskManifest};
use memeboard_core::survey::NativeLanguage;
use memeboard_core::tasks::CategoryInfo;
use question::ClipQuestion;
use review::ReviewCard;
use serde::Deserialize;
use std::collections::HashMap;

/// Seed of the dev preview intervals.
const PREVIEW_SEED: u64 = 0x636c_6970_7321_2121;

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
    /// Board: the "sound:" prefix of secondary figures.
    sound: &'static str,
    /// Board: sound types, in [`SoundType`] order (speech, song, music, sound effect).
    sound_types: [&'static str; 4],
    /// Board: the "lang:" prefix of secondary figures.
    language: &'static str,
    /// Board: clips without words.
    language_none: &'static str,
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "音视频梗（听/看片段后选择）",
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
    sound: "声音类型",
    sound_types: ["语音", "歌曲", "音乐", "音效"],
    language: "语言",
    language_none: "无（无语言）",
};

static EN: Texts = Texts {
    name: "Audio-visual memes (clip, then a question)",
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
    sound: "sound",
    sound_types: ["speech", "song", "music", "sound effect"],
    language: "language",
    language_none: "none (no words)",
};

/// This kind's submit-page strings (the file help), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: which answers are understood.
    help_answers: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines：每行一个对象，给出题目编号和答案：",
    help_answers: "答案可以是 inputs.jsonl 中各选项的字母（A、B、C……），也可以是选项序号（从 1 开始，同一顺序），或选项的完整原文。",
    help_csv: "CSV：首行为表头 item_id,answer，之后每行一条预测：",
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "JSON Lines: one object per line with the item id and the answer:",
    help_answers: "The answer is the letter of an option as lettered in inputs.jsonl (A, B, C…), the option's number (1-based, same order), or the option's exact text.",
    help_csv: "CSV: a header row item_id,answer, then one prediction per row:",
};

/// A familiarity answer in `lang` (also the board's familiarity figure uses it).
pub fn familiarity_label(lang: Lang, f: Familiarity) -> &'static str {
    let i = FAMILIARITY.iter().position(|x| *x == f).unwrap_or(0);
    lang.table::<Texts>().familiarity[i]
}

/// A familiarity group in a few words (the board's familiarity figure).
pub fn familiarity_short(lang: Lang, f: Familiarity) -> &'static str {
    let i = FAMILIARITY.iter().position(|x| *x == f).unwrap_or(0);
    lang.table::<Texts>().familiarity_short[i]
}

/// A clip board's secondary figure name in `lang` (`sound:speech` → "sound: speech",
/// `lang:zh` → "language: Chinese"); `None` for names that are not the clip kind's, so the
/// board can try other kinds.
pub fn metric_name(lang: Lang, name: &str) -> Option<String> {
    let t = lang.table::<Texts>();
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
            .zip(lang.table::<Strings>().languages)
            .find(|(l, _)| l.code() == Some(code))
            .map(|(_, label)| label.to_owned())
            .unwrap_or_else(|| code.to_owned())
    };
    Some(format!("{}{sep}{language}", t.language))
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
    type Files = Self;

    /// The clip, fetched while the previous item is answered so that it plays at once.
    fn next_media(view: &View) -> Option<NextMedia> {
        Some(NextMedia {
            url: view.clip.url.clone(),
            media: view.media,
        })
    }

    fn memes_noun(lang: Lang) -> &'static str {
        match lang {
            Lang::En => "internet memes in video and audio clips",
            Lang::Zh => "网络视频与音频里的梗",
        }
    }

    fn figure_name(lang: Lang, name: &str) -> Option<String> {
        metric_name(lang, name)
    }

    fn familiarity_text(lang: Lang, f: Familiarity, short: bool) -> Option<&'static str> {
        Some(if short {
            familiarity_short(lang, f)
        } else {
            familiarity_label(lang, f)
        })
    }

    fn condition_text(lang: Lang, key: &str) -> Option<&'static str> {
        let (en, zh) = match key {
            "input" => ("Input", "输入"),
            "audio" => ("audio only", "仅音频"),
            "audio_visual" => ("audio + video", "音频 + 视频"),
            "text_only" => ("text only (transcript)", "仅文本（转写）"),
            "thinking" => ("Thinking", "思考"),
            "default" => ("default", "默认"),
            "minimal" => ("minimal", "最少"),
            "low" => ("low", "低"),
            "high" => ("high", "高"),
            "hint" => ("Hint", "提示"),
            "none" => ("none", "无"),
            "meme_name" => ("meme name given", "给出梗名"),
            "is_meme" => ("\"This is a meme\"", "“这是一个梗”"),
            "visual_cheat_allowed" => ("visual-cheat clips kept", "保留视觉泄题片段"),
            _ => return None,
        };
        Some(if lang == Lang::Zh { zh } else { en })
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <ClipQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        correctness_summary(results, |lang| lang.table::<Texts>().score_suffix)
    }
}

impl PredictionFiles for ClipMcq {
    type DevGold = Vec<ClipGold>;

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-clip-mcq">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"answer\": \"B\"}\n{\"item_id\": \"ITEM_ID\", \"answer\": 2}"
                </code></pre>
                <p>{HelpTexts::text(|t| t.help_answers)}</p>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,answer\nITEM_ID,B"</code></pre>
                {missing_wrong_note()}
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
        Ok(previewed_file(
            valid.num_lines,
            valid.missing_message(),
            preview,
            categories,
        ))
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
    DevPreview::of_scores(&scores, categories, PREVIEW_SEED)
}

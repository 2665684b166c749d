//! Audio-visual memes (AVMeme Exam): listen to or watch a clip, say whether you know it, then
//! answer a multiple-choice question about it.
//!
//! The kind has a *preface*: for every clip the participant first answers "have you seen or
//! heard this before?" ([`Familiarity`]), and only once that answer is stored does the server
//! send the question and its options ([`FamiliarityFirst`] strips them until then). Options
//! are stored in canonical order and shown shuffled per participant (lettered from A by the
//! page); answers are stored as canonical indices with the number of times the clip was
//! played. Chance is 1 / number of choices. Assignment follows the participant's native
//! language: clips in that language plus clips with no language ([`Kind::eligible`]).

use super::capabilities::{PreCheck, Preface};
use super::{choice, FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::assign::option_order;
use crate::conditions::ConditionDecl;
use crate::survey::SurveyResponse;
use crate::tasks::items::MediaRef;
use serde::{Deserialize, Serialize};

pub use crate::tasks::items::Familiarity;

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct ClipMcq;

/// What kind of sound a clip is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SoundType {
    /// Someone speaking.
    Speech,
    /// A sung song.
    Song,
    /// Instrumental music.
    Music,
    /// A sound effect.
    SoundEffect,
}

/// The benchmark's seven question types (the clip task's categories).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum QuestionType {
    /// What is heard (instruments, voices, sounds).
    AudioAnalysis,
    /// What is said (words, language, wordplay).
    LanguageAnalysis,
    /// What the situation implies.
    ContextualInference,
    /// The feeling conveyed.
    Emotion,
    /// Why it is funny or popular.
    HumorPopularity,
    /// When and how people use it.
    UsageApplication,
    /// Facts about its origin.
    WorldKnowledge,
}

impl QuestionType {
    /// All seven, in the benchmark's order.
    pub const ALL: [QuestionType; 7] = [
        Self::AudioAnalysis,
        Self::LanguageAnalysis,
        Self::ContextualInference,
        Self::Emotion,
        Self::HumorPopularity,
        Self::UsageApplication,
        Self::WorldKnowledge,
    ];
}

/// Emotion labels of a clip (one or more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Emotion {
    /// Happy.
    Happy,
    /// Sad.
    Sad,
    /// Angry or annoyed.
    AngryAnnoyed,
    /// Fearful or anxious.
    FearfulAnxious,
    /// Surprised or shocked.
    SurprisedShocked,
    /// Sarcastic or ironic.
    SarcasticIronic,
    /// Cringe or embarrassed.
    CringeEmbarrassed,
    /// Nostalgic.
    Nostalgic,
    /// Neutral.
    Neutral,
}

/// Sensitive content a clip may contain (participants are warned and may opt out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Sensitivity {
    /// Sexual content.
    Sex,
    /// Violence or gore.
    ViolenceGore,
    /// Drugs or alcohol.
    DrugAlcohol,
    /// Race, gender, geography or identity.
    Identity,
    /// Disadvantaged groups or disability.
    Disability,
}

/// What the video shows that could help (AVMeme's visual hint). Declared in the order of the
/// paper's spectrum, mildest first: the greatest of a clip's hints is its strongest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum VisualHint {
    /// No text on screen.
    NoText,
    /// Text that does not help.
    IrrelevantText,
    /// A transcription of the audio.
    Transcription,
    /// The title or name of the meme.
    TitleName,
    /// The picture gives the answer away: such clips are served audio-only.
    VisualContainsSolution,
}

/// Whether a served clip has pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    /// Sound only (also videos whose picture gives the answer away).
    Audio,
    /// Picture and sound.
    Video,
}

/// A clip and its question, options in canonical order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqPrompt"))]
pub struct Prompt {
    /// The served clip (opaque URL).
    pub clip: MediaRef,
    /// Audio or video, as served.
    pub media: MediaKind,
    /// Length in milliseconds.
    pub duration_ms: u32,
    /// The question.
    pub question: String,
    /// Choices in canonical order (2 or more).
    pub choices: Vec<String>,
    /// ISO 639-1 language of the clip's words, `None` for clips without language.
    pub language: Option<String>,
    /// Kind of sound.
    pub sound_type: SoundType,
    /// Question type (also the item's category).
    pub question_type: QuestionType,
    /// Answerable from the text alone (excluded from the benchmark's main subset).
    pub text_cheat: bool,
    /// Sensitive content (warned; opt-out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sensitivity: Vec<Sensitivity>,
}

/// The answer and the clip's hidden annotations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqGold"))]
pub struct Gold {
    /// 0-based canonical index of the correct choice.
    pub correct: usize,
    /// Year the meme appeared.
    #[serde(default)]
    pub year: Option<u16>,
    /// What the clip is about.
    #[serde(default)]
    pub summary: Option<String>,
    /// Emotion labels.
    #[serde(default)]
    pub emotions: Vec<Emotion>,
    /// The visual hint label: the strongest of those given (it decides whether a video is
    /// served audio-only).
    pub visual_hint: VisualHint,
    /// Every visual hint label given (AVMeme Exam gives one or more), mildest first, without
    /// repeats; hidden like the others, since a title or a solution on screen says what the
    /// clip is. Empty for items imported by earlier versions (only `visual_hint` known).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub visual_hints: Vec<VisualHint>,
    /// How the meme is used (AVMeme Exam's `usage`): hidden, since it answers usage and
    /// context questions outright.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<String>,
    /// What is said or sung in the clip: hidden, since it answers language questions and
    /// would turn a listening question into a reading one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// The source video's address: hidden, since its page names the meme (title,
    /// description, comments).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Where the clip starts in the source video, in seconds (the served file is already cut
    /// to the segment): hidden with the address it belongs to, for provenance only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub onset_s: Option<f64>,
    /// Where the clip ends in the source video, in seconds: hidden like `onset_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_s: Option<f64>,
    /// The one option order models see (the canonical index at each letter), drawn at import
    /// from a seed keyed by the server's secret
    /// ([`model_option_order`](crate::predictions::clips::model_option_order)): hidden, since
    /// with choices listed answer first the order would give the answer away. Empty for items
    /// imported by earlier versions, which used the public
    /// [`legacy_model_option_order`](crate::predictions::clips::legacy_model_option_order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_order: Vec<usize>,
}

impl Gold {
    /// The item's model order: the stored one, or (items imported by earlier versions, or a
    /// stored order that does not fit the choices) the legacy public one.
    pub fn model_order_for(&self, item_id: &str, num_options: usize) -> Vec<usize> {
        use crate::predictions::clips::{is_model_order, legacy_model_option_order};
        if is_model_order(&self.model_order, num_options) {
            self.model_order.clone()
        } else {
            legacy_model_option_order(item_id, num_options)
        }
    }
}

/// The clip as one participant sees it: the question and options only after the familiarity
/// answer is stored (empty before).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqView"))]
pub struct View {
    /// The clip.
    pub clip: MediaRef,
    /// Audio or video.
    pub media: MediaKind,
    /// Length in milliseconds.
    pub duration_ms: u32,
    /// The question; `None` until the familiarity answer is stored.
    pub question: Option<String>,
    /// Options in the participant's order (lettered A, B, … by the page); empty until then.
    pub options: Vec<String>,
}

/// The chosen option as displayed, and how many times the clip was played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqInput"))]
pub struct Input {
    /// 0-based display position (letter A = 0).
    pub position: usize,
    /// Times the clip was started (1 = played once, no replay).
    #[serde(default)]
    pub plays: u32,
}

/// The chosen option canonically, with the play count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqAnswer"))]
pub struct Answer {
    /// 0-based canonical choice.
    pub option: usize,
    /// Times the clip was started.
    #[serde(default)]
    pub plays: u32,
}

/// Right or wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqOutcome"))]
pub struct Outcome {
    /// Whether the chosen option is the correct one.
    pub correct: bool,
}

/// A reviewed clip after the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "ClipMcqReview"))]
pub struct Review {
    /// The clip.
    pub clip: MediaRef,
    /// Audio or video.
    pub media: MediaKind,
    /// The question.
    pub question: String,
    /// Options in the order the participant saw them.
    pub options: Vec<String>,
    /// Display position chosen.
    pub chosen_position: usize,
    /// Display position of the correct option; `None` when withheld.
    pub correct_position: Option<usize>,
    /// Whether the participant was right; `None` when withheld.
    pub correct: Option<bool>,
}

/// The clip task's preface: "have you seen or heard this before?" is answered with only the
/// clip on screen (AVMeme §3); the question and its options come once the answer is stored.
pub struct FamiliarityFirst;

impl Preface<ClipMcq> for FamiliarityFirst {
    /// ```
    /// use memeboard_core::kinds::capabilities::Preface;
    /// use memeboard_core::kinds::clip_mcq::{FamiliarityFirst, MediaKind, View};
    /// use memeboard_core::tasks::MediaRef;
    /// let v = View { clip: MediaRef { url: "/media/x.ogg".into(), alt: String::new() },
    ///     media: MediaKind::Audio, duration_ms: 3000, question: Some("Q?".into()),
    ///     options: vec!["a".into(), "b".into()] };
    /// let before = FamiliarityFirst.before_answer(v);
    /// assert_eq!((before.question, before.options.len()), (None, 0));
    /// ```
    fn before_answer(&self, view: View) -> View {
        View {
            question: None,
            options: Vec::new(),
            ..view
        }
    }
}

impl Kind for ClipMcq {
    const PAPER_TABLES: &'static [crate::paper_tables::spec::TableSpec] =
        super::tables::clip_mcq::TABLES;
    /// AVMeme Exam: the inputs (Tables 1–2: audio only, + visual input, – audio as the
    /// transcript alone), the thinking level (Table 5) and the hint ablations (Table 3: the
    /// meme's name given, "This is a meme", visual-cheat clips kept with their video).
    const CONDITIONS: &'static [ConditionDecl] = &[
        ConditionDecl {
            name: "input",
            values: &["audio", "audio_visual", "text_only"],
            default: "audio",
        },
        ConditionDecl {
            name: "thinking",
            values: &["default", "minimal", "low", "high"],
            default: "default",
        },
        ConditionDecl {
            name: "hint",
            values: &["none", "meme_name", "is_meme", "visual_cheat_allowed"],
            default: "none",
        },
    ];
    const KIND: TaskKind = TaskKind::ClipMcq;
    const KEY: &'static str = "clip_mcq";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "clip_choice";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Headphones are required: before you start, a one-minute headphone check plays three tones at a time and asks which was the quietest. Each question first plays a short audio or video clip (listen to the end; you may replay it); then you say whether you have seen or heard it before; only then are the question about the clip and its options (A, B, C…) shown: choose the right answer. Work alone: no web search, no help from or discussion with anyone.",
        "本任务需要戴耳机：开始前有一个约一分钟的耳机检测（听三个音，选出最轻的一个）。每道题先播放一段音频或视频片段（请完整听完，可以重播）；然后回答你是否见过或听过它；之后才会显示关于该片段的问题和若干选项（A、B、C……），请选出正确答案。请独立作答：不要上网搜索，不要与他人讨论或请他人帮忙。",
    ];
    const PREFACE: Option<&'static dyn Preface<Self>> = Some(&FamiliarityFirst);
    const FILTERS_BY_SURVEY: bool = true;
    const PRE_CHECK: Option<PreCheck> = Some(PreCheck::Headphones);

    crate::kind_types_and_wire!(ClipMcq);

    /// Options shuffled by the session seed and the item id, like the text MCQ.
    fn present(prompt: &Prompt, seed: u64, item_id: &str) -> Presented<View> {
        let order = option_order(seed, item_id, prompt.choices.len());
        Presented {
            view: View {
                clip: prompt.clip.clone(),
                media: prompt.media,
                duration_ms: prompt.duration_ms,
                question: Some(prompt.question.clone()),
                options: choice::in_display_order(&order, &prompt.choices),
            },
            order,
        }
    }

    /// Clips in the participant's native language, and clips without language.
    fn eligible(prompt: &Prompt, survey: &SurveyResponse) -> bool {
        match &prompt.language {
            None => true,
            Some(lang) => survey.native_language.code() == Some(lang.as_str()),
        }
    }

    fn accept(prompt: &Prompt, order: &[usize], input: Input) -> Result<Answer, FieldError> {
        let option = choice::option_at(order, input.position, prompt.choices.len())?;
        Ok(Answer {
            option,
            plays: input.plays,
        })
    }

    fn score(gold: &Gold, answer: &Answer) -> Scoring<Outcome> {
        Scoring::Scored(Outcome {
            correct: answer.option == gold.correct,
        })
    }

    fn primary(outcome: &Outcome) -> f64 {
        choice::right_or_wrong(outcome.correct)
    }

    fn correct(outcome: &Outcome) -> Option<bool> {
        Some(outcome.correct)
    }

    fn choice(answer: &Answer) -> Option<usize> {
        Some(answer.option)
    }

    fn num_choices(prompt: &Prompt) -> Option<usize> {
        Some(prompt.choices.len())
    }

    fn subject(prompt: &Prompt) -> String {
        prompt.question.clone()
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        let shown = choice::ChoiceReview::of(
            input.order,
            input.answer.option,
            input.gold.map(|g| g.correct),
        );
        Review {
            clip: input.prompt.clip.clone(),
            media: input.prompt.media,
            question: input.prompt.question.clone(),
            options: choice::in_display_order(input.order, &input.prompt.choices),
            chosen_position: shown.chosen_position,
            correct_position: shown.correct_position,
            correct: shown.correct,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::survey::{AgeRange, NativeLanguage, OnlineTime};

    pub(crate) fn prompt(language: Option<&str>) -> Prompt {
        Prompt {
            clip: MediaRef {
                url: "/media/0123456789abcdef0123456789abcdef.ogg".into(),
                alt: String::new(),
            },
            media: MediaKind::Audio,
            duration_ms: 4000,
            question: "What is heard?".into(),
            choices: vec!["a bell".into(), "a dog".into(), "rain".into()],
            language: language.map(str::to_owned),
            sound_type: SoundType::SoundEffect,
            question_type: QuestionType::AudioAnalysis,
            text_cheat: false,
            sensitivity: Vec::new(),
        }
    }

    fn survey(native_language: NativeLanguage) -> SurveyResponse {
        SurveyResponse {
            age_range: AgeRange::ALL[1],
            native_language,
            online_time: OnlineTime::ALL[1],
            meme_familiarity: 3,
            skip_flagged: false,
        }
    }

    #[test]
    fn the_question_waits_for_the_preface_and_answers_map_back() {
        let p = prompt(None);
        let shown = ClipMcq::present(&p, 9, "clip-1");
        assert_eq!(shown.view.options.len(), 3);
        let before = FamiliarityFirst.before_answer(shown.view.clone());
        assert!(before.question.is_none() && before.options.is_empty());
        assert_eq!(before.clip, p.clip);
        for position in 0..3 {
            let a = ClipMcq::accept(&p, &shown.order, Input { position, plays: 2 }).unwrap();
            assert_eq!(p.choices[a.option], shown.view.options[position]);
            assert_eq!(a.plays, 2);
        }
        assert!(ClipMcq::accept(
            &p,
            &shown.order,
            Input {
                position: 3,
                plays: 1
            }
        )
        .is_err());
        assert_eq!(ClipMcq::chance(&p), Some(1.0 / 3.0));
    }

    #[test]
    fn assignment_follows_the_native_language() {
        assert!(ClipMcq::eligible(
            &prompt(None),
            &survey(NativeLanguage::Other)
        ));
        assert!(ClipMcq::eligible(
            &prompt(Some("zh")),
            &survey(NativeLanguage::Chinese)
        ));
        assert!(!ClipMcq::eligible(
            &prompt(Some("zh")),
            &survey(NativeLanguage::English)
        ));
        assert!(!ClipMcq::eligible(
            &prompt(Some("es")),
            &survey(NativeLanguage::Other)
        ));
    }

    #[test]
    fn a_withheld_review_shows_nothing_derived_from_gold() {
        let p = prompt(None);
        let gold = Gold {
            correct: 1,
            year: Some(2015),
            summary: Some("s".into()),
            emotions: vec![Emotion::Happy],
            visual_hint: VisualHint::NoText,
            visual_hints: vec![VisualHint::NoText],
            usage: Some("u".into()),
            transcript: Some("t".into()),
            url: Some("https://example.org/v".into()),
            onset_s: Some(1.0),
            offset_s: Some(3.0),
            model_order: vec![2, 0, 1],
        };
        let answer = Answer {
            option: 1,
            plays: 1,
        };
        let order = [2, 1, 0];
        let review = |gold| {
            ClipMcq::review(ReviewInput {
                prompt: &p,
                order: &order,
                answer: &answer,
                gold,
                outcome: None,
                source_note: None,
            })
        };
        let hidden = review(None);
        assert_eq!((hidden.correct_position, hidden.correct), (None, None));
        assert_eq!(hidden.chosen_position, 1);
        let shown = review(Some(&gold));
        assert_eq!(
            (shown.correct_position, shown.correct),
            (Some(1), Some(true))
        );
    }
}

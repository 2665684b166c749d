//! The audio-visual (AVMeme-style) importer: a JSON Lines manifest in the shape of the
//! benchmark's published rows plus a folder of audio and video clips becomes a clip quiz task.
//!
//! Everything is checked before anything is stored: fields and labels, the answer among the
//! choices, and every file with `ffprobe` (present, decodable, an audio stream, a video stream
//! for video formats, 1–30 s long). Clips whose visual hint is "visual contains solution" are
//! stored without their video track (`ffmpeg -vn -c:a copy`, the sound untouched), so people
//! and models get the audio only. Every problem is reported (file, line, field, found,
//! expected) and nothing is imported on any. The format is documented in docs/clips.md.

use crate::import::{split_of, ImportError};
use crate::storage::{BenchmarkRecord, ItemRecord, MediaRecord, Storage, TaskRecord};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::clip_mcq::{
    self, Emotion, MediaKind, QuestionType, Sensitivity, SoundType, VisualHint,
};
use memeboard_core::kinds::{ItemGold, ItemPrompt};
use memeboard_core::media::opaque_media_name;
use memeboard_core::tasks::{label_key, CategoryInfo, MediaRef};
use std::collections::HashMap;

mod manifest;
mod media;
mod published_shape;
pub mod vocabulary;

pub use media::{probe, strip_video, Probe};
use std::path::Path;
use std::sync::Arc;

/// Shortest and longest accepted clip, in milliseconds.
pub const DURATION_MS: std::ops::RangeInclusive<u32> = 1_000..=30_000;

/// Accepted file extensions: audio, then video.
const AUDIO: &[&str] = &["ogg", "opus", "mp3", "wav", "m4a"];
const VIDEO: &[&str] = &["webm", "mp4"];

/// What a clip import is called and how its quiz starts.
#[derive(Debug, Clone)]
pub struct ClipsSpec {
    /// Benchmark slug (ids are minted under it).
    pub slug: String,
    /// The quiz / task slug.
    pub task_slug: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Clips per participant batch (capped by the clips a participant may get).
    pub batch_size: usize,
    /// Share of clips (0–100) in the open dev split.
    pub dev_percent: u8,
    /// Whether the quiz is listed.
    pub quiz_open: bool,
}

/// Everything one clip import writes.
#[derive(Debug, Clone)]
pub struct ClipsImport {
    /// The benchmark.
    pub benchmark: BenchmarkRecord,
    /// The task.
    pub task: TaskRecord,
    /// Its items.
    pub items: Vec<ItemRecord>,
    /// The served clips.
    pub media: Vec<MediaRecord>,
}

/// One validated manifest line.
struct Clip {
    id: String,
    line: usize,
    file: String,
    /// The name the line gave the file (`file` or the published `video_path`).
    file_field: &'static str,
    question: String,
    choices: Vec<String>,
    correct: usize,
    language: Option<String>,
    sound_type: SoundType,
    question_type: QuestionType,
    year: Option<u16>,
    summary: Option<String>,
    emotions: Vec<Emotion>,
    sensitivity: Vec<Sensitivity>,
    /// The strongest visual hint given.
    visual_hint: VisualHint,
    /// Every visual hint given, in the spectrum's order.
    visual_hints: Vec<VisualHint>,
    text_cheat: bool,
    /// The published rows' hidden annotations (usage, transcript, url, onset, offset).
    published: published_shape::Published,
}

/// Parses and checks a manifest and its clips (in `media_dir`); every problem at once, or the
/// records. Runs `ffprobe`/`ffmpeg`: call it off the async executor. `key`: the benchmark's
/// draw key (`crate::draws::benchmark_key`), which seeds the option order models see.
pub fn parse_clips(
    spec: &ClipsSpec,
    key: &crate::draws::Key,
    manifest_name: &str,
    manifest: &str,
    media_dir: &Path,
) -> Result<ClipsImport, ImportError> {
    let mut problems = Vec::new();
    crate::import::files::title_problem(&spec.title, &mut problems);
    let clips = manifest::parse_manifest(manifest_name, manifest, &mut problems);
    // The files, once every line is known good or reported; only regular files inside the
    // media folder (import/files.rs).
    let files = media::clip_files(manifest_name, media_dir, &clips, &mut problems);
    if clips.is_empty() && problems.is_empty() {
        problems.push(format!(
            "{manifest_name}: no clips (the manifest has no lines)"
        ));
    }
    if !problems.is_empty() {
        return Err(ImportError { problems });
    }
    Ok(build_records(spec, key, &clips, &files))
}

fn build_records(
    spec: &ClipsSpec,
    key: &crate::draws::Key,
    clips: &[Clip],
    files: &HashMap<String, (Vec<u8>, &'static str, MediaKind, u32)>,
) -> ClipsImport {
    let task_id = stable_id("task", &[&spec.slug, "clips"]);
    let categories: Vec<CategoryInfo> = QuestionType::ALL
        .iter()
        .map(|&q| question_type_info(q))
        .collect();
    let mut media = Vec::new();
    let mut items = Vec::new();
    for clip in clips {
        let Some((bytes, ext, kind, duration_ms)) = files.get(&clip.id) else {
            continue;
        };
        let mut salted = spec.task_slug.as_bytes().to_vec();
        salted.push(0);
        salted.extend_from_slice(bytes);
        let name = opaque_media_name(&salted, ext);
        let bytes = Arc::new(bytes.clone());
        media.push(MediaRecord {
            name: name.clone(),
            task_id: task_id.clone(),
            sha256: crate::media::sha256_hex(&bytes),
            content_type: content_type(ext).into(),
            bytes,
        });
        let source_id = stable_id("clip", &[&spec.slug, &clip.id]);
        let (split, half) = split_of(&source_id, spec.dev_percent);
        let prompt = ItemPrompt::ClipMcq(clip_mcq::Prompt {
            clip: MediaRef {
                url: format!("/media/{name}"),
                alt: String::new(),
            },
            media: *kind,
            duration_ms: *duration_ms,
            question: clip.question.clone(),
            choices: clip.choices.clone(),
            language: clip.language.clone(),
            sound_type: clip.sound_type,
            question_type: clip.question_type,
            text_cheat: clip.text_cheat,
            sensitivity: clip.sensitivity.clone(),
        });
        let gold = ItemGold::ClipMcq(clip_mcq::Gold {
            correct: clip.correct,
            year: clip.year,
            summary: clip.summary.clone(),
            emotions: clip.emotions.clone(),
            visual_hint: clip.visual_hint,
            visual_hints: clip.visual_hints.clone(),
            usage: clip.published.usage.clone(),
            transcript: clip.published.transcript.clone(),
            url: clip.published.url.clone(),
            onset_s: clip.published.onset_s,
            offset_s: clip.published.offset_s,
            // Keyed by the benchmark's secret key: hidden, unlike the public choices.
            model_order: memeboard_core::predictions::clips::model_option_order(
                key.seed(crate::draws::Purpose::ClipModelOrder, &source_id),
                clip.choices.len(),
            ),
        });
        items.push(ItemRecord {
            id: stable_id("clip", &[&spec.slug, "clips", &clip.id]),
            task_id: task_id.clone(),
            ordinal: clip.line as i64,
            category: label_key(&clip.question_type),
            prompt_json: serde_json::to_string(&prompt).unwrap_or_default(),
            gold_json: serde_json::to_string(&gold).unwrap_or_default(),
            flagged: !clip.sensitivity.is_empty(),
            meme_id: None,
            source_id,
            split: split.into(),
            board_half: half.into(),
        });
    }
    ClipsImport {
        benchmark: BenchmarkRecord {
            id: spec.slug.clone(),
            slug: spec.slug.clone(),
            title: spec.title.clone(),
            description: spec.description.clone(),
            family: "audio_visual".into(),
        },
        task: TaskRecord {
            id: task_id,
            benchmark_id: spec.slug.clone(),
            slug: spec.task_slug.clone(),
            kind: "clip_mcq".into(),
            title: spec.title.clone(),
            description: spec.description.clone(),
            categories_json: serde_json::to_string(&categories).unwrap_or_else(|_| "[]".into()),
            batch_size: spec.batch_size.min(items.len()).max(1) as i64,
            quiz_open: spec.quiz_open,
        },
        items,
        media,
    }
}

/// Parses, checks and stores a clip import in one transaction; returns the clips stored.
/// Refuses to move test items to dev ([`import_clips_with`] to allow it).
pub async fn import_clips(
    storage: &Storage,
    spec: &ClipsSpec,
    manifest_name: &str,
    manifest: &str,
    media_dir: &Path,
) -> anyhow::Result<usize> {
    let refuse = crate::import::guard::TestToDev::Refuse;
    import_clips_with(storage, spec, manifest_name, manifest, media_dir, refuse).await
}

/// [`import_clips`], saying whether test items may move to dev.
pub async fn import_clips_with(
    storage: &Storage,
    spec: &ClipsSpec,
    manifest_name: &str,
    manifest: &str,
    media_dir: &Path,
    moves: crate::import::guard::TestToDev,
) -> anyhow::Result<usize> {
    let key = crate::draws::benchmark_key(storage, &spec.slug).await?;
    let (spec_owned, name, text, dir) = (
        spec.clone(),
        manifest_name.to_owned(),
        manifest.to_owned(),
        media_dir.to_owned(),
    );
    let parsed =
        tokio::task::spawn_blocking(move || parse_clips(&spec_owned, &key, &name, &text, &dir))
            .await??;
    let tasks = [(parsed.task.clone(), parsed.items.clone())];
    crate::import::guard::check_test_to_dev(storage, &tasks, moves).await?;
    storage
        .import_benchmark(&parsed.benchmark, &[], &tasks, &parsed.media)
        .await?;
    Ok(parsed.items.len())
}

/// A question type as a task category, labelled in both languages.
pub fn question_type_info(q: QuestionType) -> CategoryInfo {
    let (en, zh) = match q {
        QuestionType::AudioAnalysis => ("Audio analysis", "音频分析"),
        QuestionType::LanguageAnalysis => ("Language analysis", "语言分析"),
        QuestionType::ContextualInference => ("Contextual inference", "情境推断"),
        QuestionType::Emotion => ("Emotion", "情绪"),
        QuestionType::HumorPopularity => ("Humor & popularity", "幽默与流行"),
        QuestionType::UsageApplication => ("Usage & application", "用法与应用"),
        QuestionType::WorldKnowledge => ("World knowledge", "世界知识"),
    };
    CategoryInfo {
        key: label_key(&q),
        label_en: en.into(),
        label_zh: zh.into(),
    }
}

/// The content type a clip is served with.
fn content_type(ext: &str) -> &'static str {
    match ext {
        "ogg" | "opus" => "audio/ogg",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "m4a" => "audio/mp4",
        "mp4" => "video/mp4",
        _ => "video/webm",
    }
}

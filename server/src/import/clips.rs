//! The audio-visual (AVMeme-style) importer: a JSON Lines manifest in the shape of the
//! benchmark's published rows plus a folder of audio and video clips becomes a clip quiz task.
//!
//! Everything is checked before anything is stored: fields and labels, the answer among the
//! choices, and every file with `ffprobe` (present, decodable, an audio stream, a video stream
//! for video formats, 1–30 s long). Clips whose visual hint is "visual contains solution" are
//! stored without their video track (`ffmpeg -vn -c:a copy`, the sound untouched), so people
//! and models get the audio only. Every problem is reported (file, line, field, found,
//! expected) and nothing is imported on any. The format is documented in docs/clips.md.

use crate::import::{describe, is_safe_relative, split_of, ImportError};
use crate::storage::{BenchmarkRecord, ItemRecord, MediaRecord, Storage, TaskRecord};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::clip_mcq::{
    self, Emotion, MediaKind, QuestionType, Sensitivity, SoundType, VisualHint,
};
use memeboard_core::kinds::{ItemGold, ItemPrompt};
use memeboard_core::media::opaque_media_name;
use memeboard_core::tasks::{label_key, CategoryInfo, MediaRef};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Shortest and longest accepted clip, in milliseconds.
pub const DURATION_MS: std::ops::RangeInclusive<u32> = 1_000..=30_000;

const FIELDS: &[&str] = &[
    "id",
    "file",
    "question",
    "choices",
    "answer",
    "language",
    "sound_type",
    "question_type",
    "year",
    "summary",
    "emotions",
    "sensitivity",
    "visual_hint",
    "text_cheat",
];

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

/// What `ffprobe` says about a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// Length in milliseconds.
    pub duration_ms: u32,
    /// Has a video stream (cover art in audio files does not count).
    pub video: bool,
    /// Has an audio stream.
    pub audio: bool,
}

/// Runs `ffprobe` on a file; the error says why it cannot be read as media.
pub fn probe(path: &Path) -> Result<Probe, String> {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-show_entries",
            "format=duration:stream=codec_type:stream_disposition=attached_pic",
            "-of",
            "json",
        ])
        .arg(path)
        .output()
        .map_err(|e| format!("cannot run ffprobe ({e}); install ffmpeg (scripts/setup.sh does)"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .last()
            .unwrap_or("unknown error")
            .trim()
            .to_owned();
        return Err(format!("not decodable media ({last})"));
    }
    let v: Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("unreadable ffprobe output: {e}"))?;
    let duration = v["format"]["duration"]
        .as_str()
        .and_then(|d| d.parse::<f64>().ok())
        .ok_or("no duration (not decodable media)")?;
    let streams = v["streams"].as_array().cloned().unwrap_or_default();
    let has = |kind: &str| {
        streams.iter().any(|s| {
            s["codec_type"] == kind && s["disposition"]["attached_pic"].as_i64().unwrap_or(0) == 0
        })
    };
    Ok(Probe {
        duration_ms: (duration * 1000.0).round().clamp(0.0, f64::from(u32::MAX)) as u32,
        video: has("video"),
        audio: has("audio"),
    })
}

/// Copies the sound of a video into an audio-only file (`-vn -c:a copy`: the sound is not
/// re-encoded): webm stays webm, mp4 becomes m4a. Returns the bytes and the extension.
pub fn strip_video(path: &Path, extension: &str) -> Result<(Vec<u8>, &'static str), String> {
    let (ext, format) = match extension {
        "mp4" => ("m4a", "mp4"),
        _ => ("webm", "webm"),
    };
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out: PathBuf =
        std::env::temp_dir().join(format!("memeboard-audio-{}-{n}.{ext}", std::process::id()));
    let status = Command::new("ffmpeg")
        .args(["-v", "error", "-y", "-i"])
        .arg(path)
        .args([
            "-vn",
            "-c:a",
            "copy",
            "-map_metadata",
            "-1",
            "-fflags",
            "+bitexact",
            "-f",
            format,
        ])
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run ffmpeg ({e}); install ffmpeg (scripts/setup.sh does)"))?;
    if !status.status.success() {
        let err = String::from_utf8_lossy(&status.stderr);
        return Err(format!(
            "ffmpeg could not take the sound out of it: {}",
            err.lines().last().unwrap_or("unknown error")
        ));
    }
    let bytes = std::fs::read(&out).map_err(|e| format!("reading the audio-only copy: {e}"));
    let _ = std::fs::remove_file(&out);
    Ok((bytes?, ext))
}

/// One validated manifest line.
struct Clip {
    id: String,
    line: usize,
    file: String,
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
    visual_hint: VisualHint,
    text_cheat: bool,
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
    crate::import_files::title_problem(&spec.title, &mut problems);
    let mut clips = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (index, raw) in manifest.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim_start_matches('\u{feff}').trim();
        if raw.is_empty() {
            continue;
        }
        let at = |field: &str| format!("{manifest_name} line {line}, field `{field}`");
        let obj = match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(o)) => o,
            Ok(_) => {
                problems.push(format!(
                    "{manifest_name} line {line}: expected a JSON object"
                ));
                continue;
            }
            Err(e) => {
                problems.push(format!(
                    "{manifest_name} line {line}: not valid JSON at column {}: {e}",
                    e.column()
                ));
                continue;
            }
        };
        let before = problems.len();
        for key in obj.keys() {
            if !FIELDS.contains(&key.as_str()) {
                problems.push(format!(
                    "{}: unknown field (expected one of {})",
                    at(key),
                    FIELDS.join(", ")
                ));
            }
        }
        crate::import_files::long_texts(&obj, &at, &mut problems);
        let mut p = |r: Result<(), String>| {
            if let Err(e) = r {
                problems.push(e);
            }
        };
        let text = |field: &str, obj: &Map<String, Value>| -> Result<String, String> {
            match obj.get(field) {
                Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
                Some(other) => Err(format!(
                    "{}: expected non-empty text, found {}",
                    at(field),
                    describe(other)
                )),
                None => Err(format!("{}: missing", at(field))),
            }
        };
        let id = text("id", &obj);
        let file = text("file", &obj);
        let question = text("question", &obj);
        let choices: Result<Vec<String>, String> = match obj.get("choices") {
            Some(Value::Array(a)) if a.len() >= 2 => a
                .iter()
                .map(|v| match v.as_str().map(str::trim) {
                    Some(s) if !s.is_empty() => Ok(s.to_owned()),
                    _ => Err(format!(
                        "{}: expected texts, found {}",
                        at("choices"),
                        describe(v)
                    )),
                })
                .collect(),
            Some(other) => Err(format!(
                "{}: expected an array of 2 or more option texts, found {}",
                at("choices"),
                describe(other)
            )),
            None => Err(format!("{}: missing", at("choices"))),
        };
        let correct = match (&choices, text("answer", &obj)) {
            (Ok(c), Ok(answer)) => match c.iter().position(|x| *x == answer) {
                Some(i) => Ok(i),
                None => Err(format!(
                    "{}: \"{answer}\" is not among the choices ({})",
                    at("answer"),
                    c.iter()
                        .map(|x| format!("\"{x}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            },
            (_, Err(e)) => Err(e),
            (Err(_), _) => Ok(0),
        };
        if let Ok(c) = &choices {
            let mut seen = std::collections::HashSet::new();
            for x in c {
                if !seen.insert(x) {
                    p(Err(format!("{}: \"{x}\" appears twice", at("choices"))));
                }
            }
        }
        let language = match obj.get("language") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.len() == 2 && s.bytes().all(|b| b.is_ascii_lowercase()) => {
                Ok(Some(s.clone()))
            }
            Some(other) => Err(format!(
                "{}: expected a two-letter ISO 639-1 code such as \"zh\" or null, found {}",
                at("language"),
                describe(other)
            )),
        };
        let sound_type = label::<SoundType>(
            &obj,
            "sound_type",
            &at,
            &["speech", "song", "music", "sound_effect"],
        );
        let question_type = label::<QuestionType>(
            &obj,
            "question_type",
            &at,
            &[
                "audio_analysis",
                "language_analysis",
                "contextual_inference",
                "emotion",
                "humor_popularity",
                "usage_application",
                "world_knowledge",
            ],
        );
        let visual_hint = label::<VisualHint>(
            &obj,
            "visual_hint",
            &at,
            &[
                "no_text",
                "irrelevant_text",
                "transcription",
                "title_name",
                "visual_contains_solution",
            ],
        );
        let emotions = labels::<Emotion>(
            &obj,
            "emotions",
            &at,
            &[
                "happy",
                "sad",
                "angry_annoyed",
                "fearful_anxious",
                "surprised_shocked",
                "sarcastic_ironic",
                "cringe_embarrassed",
                "nostalgic",
                "neutral",
            ],
        );
        let sensitivity = labels::<Sensitivity>(
            &obj,
            "sensitivity",
            &at,
            &[
                "sex",
                "violence_gore",
                "drug_alcohol",
                "identity",
                "disability",
            ],
        );
        let year = match obj.get("year") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) if n.as_u64().is_some_and(|y| (1900..=2100).contains(&y)) => {
                Ok(n.as_u64().map(|y| y as u16))
            }
            Some(other) => Err(format!(
                "{}: expected a year from 1900 to 2100 or null, found {}",
                at("year"),
                describe(other)
            )),
        };
        let summary = match obj.get("summary") {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok((!s.trim().is_empty()).then(|| s.trim().to_owned())),
            Some(other) => Err(format!(
                "{}: expected text, found {}",
                at("summary"),
                describe(other)
            )),
        };
        let text_cheat = match obj.get("text_cheat") {
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(format!(
                "{}: expected true or false, found {}",
                at("text_cheat"),
                describe(other)
            )),
            None => Err(format!(
                "{}: missing (expected true or false)",
                at("text_cheat")
            )),
        };
        if let Ok(id) = &id {
            if let Some(first) = first_line.get(id) {
                p(Err(format!(
                    "{}: duplicate id \"{id}\" (first on line {first})",
                    at("id")
                )));
            } else {
                first_line.insert(id.clone(), line);
            }
        }
        if let Ok(f) = &file {
            let ext = f
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default();
            if !is_safe_relative(f) {
                p(Err(format!(
                    "{}: expected a file name inside the media folder, found \"{f}\"",
                    at("file")
                )));
            } else if !AUDIO.contains(&ext.as_str()) && !VIDEO.contains(&ext.as_str()) {
                p(Err(format!(
                    "{}: \"{f}\" has an unsupported type .{ext}, expected audio ({}) or video ({})",
                    at("file"),
                    AUDIO.join(", "),
                    VIDEO.join(", ")
                )));
            }
        }
        match (
            id,
            file,
            question,
            choices,
            correct,
            language,
            sound_type,
            question_type,
            year,
            summary,
            emotions,
            sensitivity,
            visual_hint,
            text_cheat,
        ) {
            (
                Ok(id),
                Ok(file),
                Ok(question),
                Ok(choices),
                Ok(correct),
                Ok(language),
                Ok(sound_type),
                Ok(question_type),
                Ok(year),
                Ok(summary),
                Ok(emotions),
                Ok(sensitivity),
                Ok(visual_hint),
                Ok(text_cheat),
            ) => {
                if problems.len() == before {
                    clips.push(Clip {
                        id,
                        line,
                        file,
                        question,
                        choices,
                        correct,
                        language,
                        sound_type,
                        question_type,
                        year,
                        summary,
                        emotions,
                        sensitivity,
                        visual_hint,
                        text_cheat,
                    });
                }
            }
            (a, b, c, d, e, f, g, h, i, j, k, l, m, n) => {
                for r in [
                    a.err(),
                    b.err(),
                    c.err(),
                    d.err(),
                    e.err(),
                    f.err(),
                    g.err(),
                    h.err(),
                    i.err(),
                    j.err(),
                    k.err(),
                    l.err(),
                    m.err(),
                    n.err(),
                ]
                .into_iter()
                .flatten()
                {
                    problems.push(r);
                }
            }
        }
    }
    // The files, once every line is known good or reported; only regular files inside the
    // media folder (import_files).
    let folder = crate::import_files::MediaFolder::open(media_dir);
    let mut files: HashMap<String, (Vec<u8>, &'static str, MediaKind, u32)> = HashMap::new();
    for clip in &clips {
        let at = format!("{manifest_name} line {}, field `file`", clip.line);
        let checked = match &folder {
            Ok(folder) => folder.checked_path(&clip.file, crate::import_files::MAX_CLIP_BYTES),
            Err(e) => Err(e.clone()),
        };
        let path = match checked {
            Ok(path) => path,
            Err(e) => {
                problems.push(format!("{at}: {e}"));
                continue;
            }
        };
        let ext = clip
            .file
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        let probed = match probe(&path) {
            Ok(p) => p,
            Err(e) => {
                problems.push(format!("{at}: \"{}\": {e}", clip.file));
                continue;
            }
        };
        if !DURATION_MS.contains(&probed.duration_ms) {
            problems.push(format!(
                "{at}: \"{}\" lasts {:.1} s, expected 1 to 30 s",
                clip.file,
                f64::from(probed.duration_ms) / 1000.0
            ));
            continue;
        }
        if !probed.audio {
            problems.push(format!(
                "{at}: \"{}\" has no sound track, expected audio",
                clip.file
            ));
            continue;
        }
        let is_video = VIDEO.contains(&ext.as_str());
        if is_video && !probed.video {
            problems.push(format!(
                "{at}: \"{}\" is a .{ext} without pictures, expected a video stream",
                clip.file
            ));
            continue;
        }
        let audio_only = is_video && clip.visual_hint == VisualHint::VisualContainsSolution;
        let stored = if audio_only {
            strip_video(&path, &ext).map(|(b, e)| (b, e, MediaKind::Audio))
        } else {
            crate::import_files::read_bounded(&path, crate::import_files::MAX_CLIP_BYTES).map(|b| {
                (
                    b,
                    ext_static(&ext),
                    if is_video {
                        MediaKind::Video
                    } else {
                        MediaKind::Audio
                    },
                )
            })
        };
        match stored {
            Ok((bytes, ext, kind)) => {
                files.insert(clip.id.clone(), (bytes, ext, kind, probed.duration_ms));
            }
            Err(e) => problems.push(format!("{at}: \"{}\": {e}", clip.file)),
        }
    }
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
    let refuse = crate::import_guard::TestToDev::Refuse;
    import_clips_with(storage, spec, manifest_name, manifest, media_dir, refuse).await
}

/// [`import_clips`], saying whether test items may move to dev.
pub async fn import_clips_with(
    storage: &Storage,
    spec: &ClipsSpec,
    manifest_name: &str,
    manifest: &str,
    media_dir: &Path,
    moves: crate::import_guard::TestToDev,
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
    crate::import_guard::check_test_to_dev(storage, &tasks, moves).await?;
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

fn label<T: DeserializeOwned>(
    obj: &Map<String, Value>,
    field: &str,
    at: &dyn Fn(&str) -> String,
    expected: &[&str],
) -> Result<T, String> {
    let list = || {
        expected
            .iter()
            .map(|e| format!("\"{e}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match obj.get(field) {
        Some(Value::String(s)) => serde_json::from_value(Value::String(s.trim().to_owned()))
            .map_err(|_| {
                format!(
                    "{}: unknown label \"{s}\", expected one of {}",
                    at(field),
                    list()
                )
            }),
        Some(other) => Err(format!(
            "{}: expected one of {}, found {}",
            at(field),
            list(),
            describe(other)
        )),
        None => Err(format!(
            "{}: missing (expected one of {})",
            at(field),
            list()
        )),
    }
}

fn labels<T: DeserializeOwned>(
    obj: &Map<String, Value>,
    field: &str,
    at: &dyn Fn(&str) -> String,
    expected: &[&str],
) -> Result<Vec<T>, String> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                let mut one = Map::new();
                one.insert(field.to_owned(), v.clone());
                label::<T>(&one, field, at, expected)
            })
            .collect(),
        Some(other) => Err(format!(
            "{}: expected an array of labels, found {}",
            at(field),
            describe(other)
        )),
    }
}

fn ext_static(ext: &str) -> &'static str {
    AUDIO
        .iter()
        .chain(VIDEO)
        .find(|e| **e == ext)
        .copied()
        .unwrap_or("bin")
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

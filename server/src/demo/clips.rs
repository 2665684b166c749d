//! Demo audio-visual meme clips (AVMeme-style quizzes), generated on the user's machine from
//! Debian packages (`espeak-ng` speech, `sox` tones and effects, `ffmpeg` encoding and video
//! frames) so that no third-party media is committed. The questions live in
//! `server/demo/clips/manifest.jsonl`; the recipes that make each clip file live here.

mod recipes;

use recipes::{recipe, Recipe};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The clip quiz manifest (one JSON object per line), embedded so the server can import the
/// demo without its source tree.
pub const DEMO_CLIPS_MANIFEST: &str = include_str!("../../demo/clips/manifest.jsonl");

/// Slug of the clip demo's benchmark: with each clip's id it makes the clip's source id, and
/// so its split and board half (`import::split_of`).
pub const DEMO_SLUG: &str = "demo-av";
/// Share of the clip demo's clips (by the hash of their source ids) in the dev split. The ids
/// after `k20` were picked with the split in view, so that every question type has at least
/// ten test clips on each board half and a dev clip (see the clip README).
pub const DEV_PERCENT: u8 = 34;

/// Programs the clips are made and checked with; all come from Debian packages
/// (`espeak-ng`, `sox`, `ffmpeg`).
pub const MEDIA_TOOLS: [&str; 4] = ["espeak-ng", "sox", "ffmpeg", "ffprobe"];

pub use crate::import::clips::vocabulary::{
    EMOTIONS, MANIFEST_FIELDS, QUESTION_TYPES, SENSITIVITIES, SOUND_TYPES, VISUAL_HINTS,
};
/// Allowed `language` values besides `null` (no speech) in the demo's clips (the importer
/// takes any two-letter code).
pub const LANGUAGES: [&str; 3] = ["zh", "en", "es"];
/// File extensions of video clips; every other clip is audio only.
pub const VIDEO_EXTENSIONS: [&str; 2] = ["webm", "mp4"];
/// File extensions of audio-only clips.
pub const AUDIO_EXTENSIONS: [&str; 3] = ["ogg", "wav", "mp3"];

/// One clip question of the manifest, in the import format other parts of memeboard read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoClip {
    /// Stable id (`k01`…), also the clip file's stem.
    pub id: String,
    /// Clip file name inside the clip folder.
    pub file: String,
    /// The multiple-choice question (English or Chinese).
    pub question: String,
    /// Three to five choices.
    pub choices: Vec<String>,
    /// Exact text of the right choice.
    pub answer: String,
    /// Spoken language (`zh`, `en`, `es`), or `None` when there is no speech.
    pub language: Option<String>,
    /// One of [`SOUND_TYPES`].
    pub sound_type: String,
    /// One of [`QUESTION_TYPES`].
    pub question_type: String,
    /// Year the meme appeared, when known.
    pub year: Option<u16>,
    /// What the clip contains, for the catalogue and for people who cannot play it.
    pub summary: String,
    /// Labels from [`EMOTIONS`].
    pub emotions: Vec<String>,
    /// Labels from [`SENSITIVITIES`]; empty for none.
    pub sensitivity: Vec<String>,
    /// One of [`VISUAL_HINTS`].
    pub visual_hint: String,
    /// Whether the question can be answered from its text alone, without the clip.
    pub text_cheat: bool,
}

impl DemoClip {
    /// Whether the clip is a video (by its extension), so the player and the stripping of
    /// `visual_contains_solution` pictures know what they handle.
    pub fn is_video(&self) -> bool {
        extension(&self.file).is_some_and(|e| VIDEO_EXTENSIONS.contains(&e))
    }
}

/// Why the clip manifest could not be read or the clips could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ClipDemoError {
    /// A manifest line is not a valid clip object.
    #[error("demo clip manifest line {line}: {message}")]
    Manifest {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Some programs the clips are made with are not installed.
    #[error("demo clips need {0} on PATH (Debian packages espeak-ng, sox, ffmpeg; see scripts/setup.sh)")]
    ToolsMissing(String),
    /// A program could not be started.
    #[error("could not run `{command}`: {source}")]
    Spawn {
        /// The command line, for the log.
        command: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A program ran but failed.
    #[error("`{command}` failed ({status}): {stderr}")]
    Failed {
        /// The command line, for the log.
        command: String,
        /// Its exit status.
        status: String,
        /// The end of what it wrote to stderr.
        stderr: String,
    },
    /// A file or folder could not be read, written or renamed.
    #[error("{path}: {source}")]
    Io {
        /// The path concerned.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// Parses and checks the embedded manifest: every field present, labels from the allowed
/// lists, 3–5 choices with the answer among them, a recipe for each clip.
pub fn demo_clips() -> Result<Vec<DemoClip>, ClipDemoError> {
    parse_manifest(DEMO_CLIPS_MANIFEST)
}

/// Parses and checks a manifest in the clip format (see [`demo_clips`]).
pub fn parse_manifest(text: &str) -> Result<Vec<DemoClip>, ClipDemoError> {
    let mut clips: Vec<DemoClip> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let bad = |message: String| ClipDemoError::Manifest { line, message };
        let value: serde_json::Value = serde_json::from_str(raw).map_err(|e| bad(e.to_string()))?;
        let object = value
            .as_object()
            .ok_or_else(|| bad("not a JSON object".into()))?;
        if let Some(missing) = MANIFEST_FIELDS.iter().find(|f| !object.contains_key(**f)) {
            return Err(bad(format!("field `{missing}` is missing")));
        }
        let clip: DemoClip = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        check_clip(&clip).map_err(bad)?;
        if clips.iter().any(|c| c.id == clip.id || c.file == clip.file) {
            return Err(bad(format!("id or file of `{}` repeated", clip.id)));
        }
        clips.push(clip);
    }
    Ok(clips)
}

fn check_clip(clip: &DemoClip) -> Result<(), String> {
    let one_of = |what: &str, value: &str, allowed: &[&str]| {
        if allowed.contains(&value) {
            Ok(())
        } else {
            Err(format!("{what} `{value}` is not one of {allowed:?}"))
        }
    };
    let safe = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.';
    if clip.file.starts_with('.') || !clip.file.chars().all(safe) {
        return Err(format!("file name `{}` is not a plain name", clip.file));
    }
    let ext = extension(&clip.file).unwrap_or_default();
    if !VIDEO_EXTENSIONS.contains(&ext) && !AUDIO_EXTENSIONS.contains(&ext) {
        return Err(format!("file `{}` has an unknown extension", clip.file));
    }
    if !(3..=5).contains(&clip.choices.len()) {
        return Err(format!("{} choices (3 to 5 needed)", clip.choices.len()));
    }
    if clip.choices.iter().filter(|c| **c == clip.answer).count() != 1 {
        return Err(format!(
            "answer `{}` is not exactly one of the choices",
            clip.answer
        ));
    }
    if let Some(language) = &clip.language {
        one_of("language", language, &LANGUAGES)?;
    }
    one_of("sound_type", &clip.sound_type, &SOUND_TYPES)?;
    one_of("question_type", &clip.question_type, &QUESTION_TYPES)?;
    one_of("visual_hint", &clip.visual_hint, &VISUAL_HINTS)?;
    if clip.year.is_some_and(|y| !(1900..=2100).contains(&y)) {
        return Err("year outside 1900–2100 (the importer's range)".into());
    }
    if clip.emotions.is_empty() {
        return Err("no emotions".into());
    }
    for emotion in &clip.emotions {
        one_of("emotion", emotion, &EMOTIONS)?;
    }
    for flag in &clip.sensitivity {
        one_of("sensitivity", flag, &SENSITIVITIES)?;
    }
    if clip.visual_hint == "visual_contains_solution" && !clip.is_video() {
        return Err("visual_contains_solution on a clip that is not a video".into());
    }
    if recipe(&clip.id).is_none() {
        return Err(format!("no recipe for clip `{}` in demo/clips.rs", clip.id));
    }
    Ok(())
}

fn extension(file: &str) -> Option<&str> {
    file.rsplit_once('.').map(|(_, e)| e)
}

/// Which of [`MEDIA_TOOLS`] are not on PATH, so start-up can say what to install instead of
/// failing half-way through generating clips.
pub fn tools_missing() -> Vec<&'static str> {
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    MEDIA_TOOLS
        .iter()
        .copied()
        .filter(|tool| !dirs.iter().any(|d| d.join(tool).is_file()))
        .collect()
}

/// Writes every clip file the manifest names into `dir` and returns their names in manifest
/// order. Files already there with a non-zero size are kept (a second run costs nothing);
/// each new file is written under a temporary name and renamed, so an interrupted run never
/// leaves a half-written clip behind. The tools run with fixed parameters (no dither, sox's
/// repeatable mode, ffmpeg's bit-exact flags), so every machine gets the same clips.
pub fn generate(dir: &Path) -> Result<Vec<String>, ClipDemoError> {
    let clips = demo_clips()?;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ClipDemoError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let dir = dir.canonicalize().map_err(io(dir))?;
    let todo: Vec<&DemoClip> = clips
        .iter()
        .filter(|clip| {
            let target = dir.join(&clip.file);
            !std::fs::metadata(&target).is_ok_and(|m| m.is_file() && m.len() > 0)
        })
        .collect();
    if !todo.is_empty() {
        let missing = tools_missing();
        if !missing.is_empty() {
            return Err(ClipDemoError::ToolsMissing(missing.join(", ")));
        }
        make_clips(&todo, &dir)?;
    }
    Ok(clips.into_iter().map(|clip| clip.file).collect())
}

/// At most this many clips are made at once.
const MAX_WORKERS: usize = 4;

/// Makes the clips on up to [`MAX_WORKERS`] threads (no more than the machine's cores), each
/// taking the next clip not yet started; the first error stops the others from starting more.
fn make_clips(todo: &[&DemoClip], dir: &Path) -> Result<(), ClipDemoError> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, MAX_WORKERS)
        .min(todo.len());
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let work = || -> Result<(), ClipDemoError> {
        while !failed.load(Ordering::Relaxed) {
            let Some(clip) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            if let Err(e) = make_clip(clip, dir, &dir.join(&clip.file)) {
                failed.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect::<Result<Vec<()>, _>>()
    })?;
    Ok(())
}

fn make_clip(clip: &DemoClip, dir: &Path, target: &Path) -> Result<(), ClipDemoError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ClipDemoError::Io { path, source }
    };
    let recipe = recipe(&clip.id).ok_or_else(|| ClipDemoError::Manifest {
        line: 0,
        message: format!("no recipe for clip `{}`", clip.id),
    })?;
    let work = dir.join(format!(".work-{}", clip.id));
    if work.exists() {
        std::fs::remove_dir_all(&work).map_err(io(&work))?;
    }
    std::fs::create_dir_all(&work).map_err(io(&work))?;
    // Hidden, with the real extension last so ffmpeg picks the container from it.
    let temp = dir.join(format!(".tmp-{}", clip.file));
    let result = (|| {
        for step in &recipe.sound {
            run(&step.command(), &work)?;
        }
        let sox_writes = matches!(extension(&clip.file), Some("ogg" | "wav"));
        let encode = if recipe.sox_audio && sox_writes {
            sox_encode(&clip.file, &temp)
        } else {
            encode(&recipe, &clip.file, &temp)
        };
        run(&encode, &work)?;
        std::fs::rename(&temp, target).map_err(io(target))
    })();
    // Best-effort clean-up; the error that matters is the one from making the clip.
    let _ = std::fs::remove_dir_all(&work);
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// A program and its arguments, run without a shell.
struct Cmd {
    program: &'static str,
    args: Vec<String>,
}

impl Cmd {
    fn display(&self) -> String {
        let mut s = self.program.to_string();
        for arg in &self.args {
            s.push(' ');
            s.push_str(arg);
        }
        s
    }
}

fn run(cmd: &Cmd, cwd: &Path) -> Result<(), ClipDemoError> {
    let output = Command::new(cmd.program)
        .args(&cmd.args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|source| ClipDemoError::Spawn {
            command: cmd.display(),
            source,
        })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let tail: String = {
        let chars: Vec<char> = stderr.trim_end().chars().collect();
        chars[chars.len().saturating_sub(600)..].iter().collect()
    };
    Err(ClipDemoError::Failed {
        command: cmd.display(),
        status: output.status.to_string(),
        stderr: tail,
    })
}

/// The sox command that writes `snd.wav` as the clip itself: Ogg Vorbis (quality 0, about
/// 30 kbit/s for this mono 22050 Hz sound) or 16-bit PCM WAV.
fn sox_encode(file: &str, out: &Path) -> Cmd {
    let mut args: Vec<String> = ["-R", "-D", "snd.wav", "--comment", ""]
        .into_iter()
        .map(String::from)
        .collect();
    if extension(file) == Some("ogg") {
        args.extend(["-C".into(), "0".into()]);
    }
    args.push(out.to_string_lossy().into_owned());
    Cmd {
        program: "sox",
        args,
    }
}

/// The ffmpeg command that turns `snd.wav` (and for videos the frame source) into the clip.
fn encode(recipe: &Recipe, file: &str, out: &Path) -> Cmd {
    let mut args: Vec<String> = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
        .into_iter()
        .map(String::from)
        .collect();
    let push =
        |args: &mut Vec<String>, s: &str| args.extend(s.split_whitespace().map(String::from));
    if let Some((source, seconds)) = recipe.video {
        args.extend(["-f".into(), "lavfi".into(), "-i".into(), source.into()]);
        push(&mut args, "-i snd.wav -map 0:v:0 -map 1:a:0 -af apad -t");
        args.push(seconds.into());
    } else {
        push(&mut args, "-i snd.wav");
    }
    let codecs = match extension(file).unwrap_or_default() {
        "ogg" => "-c:a libopus -b:a 32k -ar 48000",
        "mp3" => "-c:a libmp3lame -b:a 48k -write_xing 0",
        "webm" => "-c:v libvpx -b:v 150k -threads 1 -c:a libopus -b:a 32k -ar 48000",
        "mp4" => {
            "-c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -threads 1 \
             -c:a aac -b:a 48k -ar 44100 -movflags +faststart"
        }
        _ => "-c:a pcm_s16le",
    };
    push(&mut args, codecs);
    push(
        &mut args,
        "-map_metadata -1 -fflags +bitexact -flags:v +bitexact -flags:a +bitexact",
    );
    args.push(out.to_string_lossy().into_owned());
    Cmd {
        program: "ffmpeg",
        args,
    }
}

#[cfg(test)]
mod tests;

//! Demo audio-visual meme clips (AVMeme-style quizzes), generated on the user's machine from
//! Debian packages (`espeak-ng` speech, `sox` tones and effects, `ffmpeg` encoding and video
//! frames) so that no third-party media is committed. The questions live in
//! `server/demo/clips/manifest.jsonl`; the recipes that make each clip file live here.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The clip quiz manifest (one JSON object per line), embedded so the server can import the
/// demo without its source tree.
pub const DEMO_CLIPS_MANIFEST: &str = include_str!("../demo/clips/manifest.jsonl");

/// Programs the clips are made and checked with; all come from Debian packages
/// (`espeak-ng`, `sox`, `ffmpeg`).
pub const MEDIA_TOOLS: [&str; 4] = ["espeak-ng", "sox", "ffmpeg", "ffprobe"];

/// Every field a manifest line must have, so importers can rely on all of them being present
/// (a missing `year` or `language` is written as `null`, never left out).
pub const MANIFEST_FIELDS: [&str; 14] = [
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
/// Allowed `language` values besides `null` (no speech).
pub const LANGUAGES: [&str; 3] = ["zh", "en", "es"];
/// Allowed `sound_type` values.
pub const SOUND_TYPES: [&str; 4] = ["speech", "song", "music", "sound_effect"];
/// Allowed `question_type` values (the seven AVMeme question types).
pub const QUESTION_TYPES: [&str; 7] = [
    "audio_analysis",
    "language_analysis",
    "contextual_inference",
    "emotion",
    "humor_popularity",
    "usage_application",
    "world_knowledge",
];
/// Allowed `emotions` labels.
pub const EMOTIONS: [&str; 9] = [
    "happy",
    "sad",
    "angry_annoyed",
    "fearful_anxious",
    "surprised_shocked",
    "sarcastic_ironic",
    "cringe_embarrassed",
    "nostalgic",
    "neutral",
];
/// Allowed `sensitivity` labels.
pub const SENSITIVITY: [&str; 5] = [
    "sex",
    "violence_gore",
    "drug_alcohol",
    "identity",
    "disability",
];
/// Allowed `visual_hint` values; `visual_contains_solution` clips are videos whose picture
/// gives the answer away, so the server plays only their sound.
pub const VISUAL_HINTS: [&str; 5] = [
    "no_text",
    "irrelevant_text",
    "transcription",
    "title_name",
    "visual_contains_solution",
];
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
    /// Labels from [`SENSITIVITY`]; empty for none.
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
    if clip.emotions.is_empty() {
        return Err("no emotions".into());
    }
    for emotion in &clip.emotions {
        one_of("emotion", emotion, &EMOTIONS)?;
    }
    for flag in &clip.sensitivity {
        one_of("sensitivity", flag, &SENSITIVITY)?;
    }
    if clip.visual_hint == "visual_contains_solution" && !clip.is_video() {
        return Err("visual_contains_solution on a clip that is not a video".into());
    }
    if recipe(&clip.id).is_none() {
        return Err(format!("no recipe for clip `{}` in demo_clips.rs", clip.id));
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
    let mut checked_tools = false;
    let mut names = Vec::with_capacity(clips.len());
    for clip in &clips {
        let target = dir.join(&clip.file);
        let done = std::fs::metadata(&target).is_ok_and(|m| m.is_file() && m.len() > 0);
        if !done {
            if !checked_tools {
                let missing = tools_missing();
                if !missing.is_empty() {
                    return Err(ClipDemoError::ToolsMissing(missing.join(", ")));
                }
                checked_tools = true;
            }
            make_clip(clip, &dir, &target)?;
        }
        names.push(clip.file.clone());
    }
    Ok(names)
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
        run(&encode(&recipe, &clip.file, &temp), &work)?;
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

/// One step that makes an intermediate WAV file in the clip's work folder.
enum Step {
    /// `espeak-ng` speech, padded by sox afterwards.
    Speak {
        voice: &'static str,
        pitch: u32,
        speed: u32,
        text: &'static str,
        out: &'static str,
    },
    /// `sox -R -D` with these whitespace-separated arguments (none contains a space).
    Sox(&'static str),
}

impl Step {
    fn command(&self) -> Cmd {
        match self {
            Step::Speak {
                voice,
                pitch,
                speed,
                text,
                out,
            } => Cmd {
                program: "espeak-ng",
                args: vec![
                    "-v".into(),
                    (*voice).into(),
                    "-p".into(),
                    pitch.to_string(),
                    "-s".into(),
                    speed.to_string(),
                    "-w".into(),
                    (*out).into(),
                    // Ends the options, so a text can never be read as one.
                    "--".into(),
                    (*text).into(),
                ],
            },
            Step::Sox(args) => Cmd {
                program: "sox",
                args: ["-R", "-D"]
                    .into_iter()
                    .chain(args.split_whitespace())
                    .map(String::from)
                    .collect(),
            },
        }
    }
}

/// How one clip is made: steps ending in `snd.wav` (22050 Hz mono, espeak-ng's own rate, so
/// sox can join speech and tones), and for videos a lavfi frame source and a length.
struct Recipe {
    sound: Vec<Step>,
    video: Option<(&'static str, &'static str)>,
}

/// The format every intermediate sox output is written in.
macro_rules! wav {
    () => {
        "-r 22050 -c 1 -b 16"
    };
}

fn speak(voice: &'static str, pitch: u32, speed: u32, text: &'static str) -> Vec<Step> {
    vec![
        Step::Speak {
            voice,
            pitch,
            speed,
            text,
            out: "speech.wav",
        },
        Step::Sox(concat!("speech.wav ", wav!(), " snd.wav pad 0.2 0.3")),
    ]
}

fn audio(sound: Vec<Step>) -> Option<Recipe> {
    Some(Recipe { sound, video: None })
}

fn video(sound: Vec<Step>, source: &'static str, seconds: &'static str) -> Option<Recipe> {
    Some(Recipe {
        sound,
        video: Some((source, seconds)),
    })
}

/// The recipe of each manifest id. Sound first, then (for videos) frames from an ffmpeg lavfi
/// source: no text is drawn, so no font is needed.
fn recipe(id: &str) -> Option<Recipe> {
    match id {
        "k01" => audio(speak("cmn", 20, 105, "唉，我太难了。")),
        "k02" => audio(speak("cmn", 85, 210, "真香！真香！")),
        "k03" => audio(speak("cmn", 70, 160, "一，二，三，茄子！")),
        "k04" => audio(speak("cmn", 60, 165, "恭喜发财，红包拿来！")),
        "k05" => audio(speak("en", 40, 150, "Houston, we have a problem.")),
        "k06" => audio(speak("en", 90, 210, "Wow! I did not see that coming!")),
        "k07" => audio(speak("en", 45, 140, "This is fine. This is fine.")),
        "k08" => audio(vec![
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " clink.wav synth 0.35 sine 2637 sine 3951 remix - fade q 0.002 0.35 0.33 vol 0.4"
            )),
            Step::Speak {
                voice: "en",
                pitch: 70,
                speed: 170,
                text: "Cheers!",
                out: "speech.wav",
            },
            Step::Sox(concat!(
                "clink.wav clink.wav speech.wav ",
                wav!(),
                " snd.wav pad 0.2 0.3"
            )),
        ]),
        "k09" => audio(speak("es", 75, 170, "¡Feliz cumpleaños!")),
        "k10" => audio(speak("es", 25, 120, "Hasta la vista, baby.")),
        "k11" => audio(speak("es", 50, 160, "No pasa nada, tranquilo.")),
        "k12" => video(
            speak("es", 50, 150, "El color es rojo. Rojo."),
            "color=c=0xd01818:s=320x240:r=12",
            "3",
        ),
        "k13" => video(
            vec![Step::Sox(concat!(
                "-n ",
                wav!(),
                " snd.wav synth 3 sine 400-1200 vol 0.5 fade q 0.05 3 0.1"
            ))],
            "testsrc2=s=320x240:r=12",
            "3",
        ),
        "k14" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " hit.wav synth 0.5 sine 120-40 fade q 0.003 0.5 0.45 vol 0.9"
                )),
                // Five hits at 0.5, 1.0, … 2.5 s; the screen flashes on each.
                Step::Sox(concat!("hit.wav ", wav!(), " snd.wav repeat 4 pad 0.5 0.5")),
            ],
            "color=c=0x404080:s=320x240:r=12,\
             eq=brightness='if(between(t,0.49,2.7)*lt(mod(t+0.01,0.5),0.18),0.6,0)':eval=frame",
            "3.5",
        ),
        "k15" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t1.wav synth 0.45 sawtooth 293.66 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t2.wav synth 0.45 sawtooth 277.18 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t3.wav synth 0.45 sawtooth 261.63 lowpass 1400 fade q 0.03 0.45 0.08 vol 0.4"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " t4.wav synth 1.4 sawtooth 246.94 lowpass 1400 tremolo 6 40 \
                     fade q 0.03 1.4 0.4 vol 0.4"
                )),
                Step::Sox(concat!(
                    "t1.wav t2.wav t3.wav t4.wav ",
                    wav!(),
                    " snd.wav pad 0.2 0.3"
                )),
            ],
            "life=s=80x60:r=12:mold=10:ratio=0.1:seed=7:\
             life_color=0x80ff80:death_color=0x202040,scale=320:240:flags=neighbor",
            "3.5",
        ),
        "k16" => video(
            vec![
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n1.wav synth 0.18 triangle 523.25 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n2.wav synth 0.18 triangle 659.25 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n3.wav synth 0.18 triangle 783.99 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-n ",
                    wav!(),
                    " n4.wav synth 0.18 triangle 1046.5 fade q 0.01 0.18 0.05 vol 0.5"
                )),
                Step::Sox(concat!(
                    "-r 22050 -c 3 -n ",
                    wav!(),
                    " chord.wav synth 1.2 triangle 523.25 triangle 659.25 triangle 783.99 \
                     remix - fade q 0.01 1.2 0.6 vol 0.5"
                )),
                Step::Sox(concat!(
                    "n1.wav n2.wav n3.wav n4.wav chord.wav ",
                    wav!(),
                    " snd.wav pad 0.2 0.3"
                )),
            ],
            "mandelbrot=s=320x240:r=12:start_scale=2.5",
            "2.5",
        ),
        "k17" => audio(vec![
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " ding.wav synth 0.6 sine 659.25 sine 1318.5 remix - fade q 0.005 0.6 0.55 vol 0.6"
            )),
            Step::Sox(concat!(
                "-r 22050 -c 2 -n ",
                wav!(),
                " dong.wav synth 1.3 sine 523.25 sine 1046.5 remix - fade q 0.005 1.3 1.2 vol 0.6"
            )),
            Step::Sox(concat!(
                "ding.wav dong.wav ",
                wav!(),
                " snd.wav pad 0.2 0.3"
            )),
        ]),
        "k18" => audio(vec![Step::Sox(concat!(
            "-n ",
            wav!(),
            " snd.wav synth 1.6 brownnoise lowpass 500 fade q 0.01 1.6 1.4 gain -n -3 pad 0.2 0.3"
        ))]),
        "k19" => audio(vec![
            Step::Sox(concat!(
                "-n ",
                wav!(),
                " dot.wav synth 0.1 sine 700 fade q 0.005 0.1 0.005 vol 0.5 pad 0 0.1"
            )),
            Step::Sox(concat!(
                "-n ",
                wav!(),
                " dash.wav synth 0.3 sine 700 fade q 0.005 0.3 0.005 vol 0.5 pad 0 0.1"
            )),
            Step::Sox(concat!("-n ", wav!(), " gap.wav trim 0 0.2")),
            Step::Sox(concat!(
                "dot.wav dot.wav dot.wav gap.wav dash.wav dash.wav dash.wav gap.wav \
                 dot.wav dot.wav dot.wav gap.wav gap.wav gap.wav ",
                wav!(),
                " sos.wav"
            )),
            Step::Sox(concat!("sos.wav ", wav!(), " snd.wav pad 0.3 0")),
        ]),
        "k20" => audio(speak("en", 15, 130, "Nope. Nope. Nope.")),
        _ => None,
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
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::time::Instant;

    /// Whether the media tests can run: they skip when a tool is missing, unless
    /// `MEMEBOARD_REQUIRE_MEDIA_TOOLS=1` makes that a failure (CI with the packages).
    fn tools_ready() -> bool {
        let missing = tools_missing();
        if missing.is_empty() {
            return true;
        }
        if std::env::var("MEMEBOARD_REQUIRE_MEDIA_TOOLS").as_deref() == Ok("1") {
            panic!("MEMEBOARD_REQUIRE_MEDIA_TOOLS=1 but {missing:?} not on PATH");
        }
        eprintln!("skipping demo clip media test: {missing:?} not on PATH (scripts/setup.sh)");
        false
    }

    fn probe(args: &[&str], file: &Path) -> String {
        let output = Command::new("ffprobe")
            .args(["-v", "error"])
            .args(args)
            .arg(file)
            .output()
            .expect("ffprobe runs");
        assert!(output.status.success(), "ffprobe {}", file.display());
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    #[test]
    fn manifest_lines_are_complete_and_valid() {
        let clips = demo_clips().expect("manifest is valid");
        assert_eq!(
            clips.len(),
            DEMO_CLIPS_MANIFEST
                .lines()
                .filter(|l| !l.trim().is_empty())
                .count()
        );
        for line in DEMO_CLIPS_MANIFEST.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            let keys: Vec<&String> = value.as_object().expect("object").keys().collect();
            assert_eq!(keys.len(), MANIFEST_FIELDS.len(), "{line}");
        }
        for clip in &clips {
            assert!(clip.choices.contains(&clip.answer), "{}", clip.id);
            assert_eq!(Some(clip.id.as_str()), clip.file.split('.').next());
            assert!(
                clip.question.chars().count() <= 80,
                "{}: long question",
                clip.id
            );
        }
    }

    #[test]
    fn manifest_rejects_bad_lines() {
        let good = DEMO_CLIPS_MANIFEST.lines().next().expect("a line");
        let missing_year = good.replace("\"year\": 2019, ", "");
        assert!(parse_manifest(&missing_year).is_err());
        let bad_answer = good.replace("\"answer\": \"难过\"", "\"answer\": \"悲伤\"");
        assert!(parse_manifest(&bad_answer).is_err());
        let bad_label = good.replace("\"sad\"", "\"melancholy\"");
        assert!(parse_manifest(&bad_label).is_err());
        assert!(parse_manifest(&format!("{good}\n{good}")).is_err());
    }

    #[test]
    fn manifest_covers_the_quiz_design() {
        let clips = demo_clips().expect("manifest is valid");
        assert!(clips.len() >= 16);
        let count = |f: &dyn Fn(&DemoClip) -> bool| clips.iter().filter(|c| f(c)).count();
        for qt in QUESTION_TYPES {
            let n = count(&|c| c.question_type == qt);
            let least = if ["audio_analysis", "language_analysis", "emotion"].contains(&qt) {
                2
            } else {
                1
            };
            assert!(n >= least, "{qt}: {n} clips");
        }
        for language in LANGUAGES {
            let n = count(&|c| c.language.as_deref() == Some(language) && c.sound_type == "speech");
            assert!(n >= 3, "{language}: {n} speech clips");
        }
        assert!(count(&|c| c.language.is_none()) >= 4);
        assert!(count(&|c| c.is_video()) >= 4);
        assert!(count(&|c| c.file.ends_with(".mp4")) >= 1);
        assert!(count(&|c| c.file.ends_with(".webm")) >= 1);
        assert!(count(&|c| c.file.ends_with(".ogg")) >= 1);
        assert!(count(&|c| c.file.ends_with(".wav")) >= 1);
        assert!(count(&|c| c.visual_hint == "visual_contains_solution" && c.is_video()) >= 2);
        assert!(count(&|c| c.text_cheat) >= 3);
        assert!(count(&|c| !c.sensitivity.is_empty()) >= 2);
        let choice_counts: std::collections::BTreeSet<usize> =
            clips.iter().map(|c| c.choices.len()).collect();
        assert!(choice_counts.len() >= 2, "vary the number of choices");
    }

    #[test]
    fn generated_clips_play_for_the_right_length() {
        if !tools_ready() {
            return;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let start = Instant::now();
        let names = generate(dir.path()).expect("clips generated");
        let took = start.elapsed();
        let clips = demo_clips().expect("manifest is valid");
        assert_eq!(names.len(), clips.len());
        let mut total = 0;
        let mut sizes = BTreeMap::new();
        for clip in &clips {
            let path = dir.path().join(&clip.file);
            let bytes = std::fs::metadata(&path).expect("clip exists").len();
            assert!(bytes > 0, "{} is empty", clip.file);
            total += bytes;
            let duration: f64 = probe(
                &["-show_entries", "format=duration", "-of", "csv=p=0"],
                &path,
            )
            .parse()
            .expect("duration");
            assert!(
                (1.0..=30.0).contains(&duration),
                "{}: {duration} s",
                clip.file
            );
            let streams = probe(
                &["-show_entries", "stream=codec_type", "-of", "csv=p=0"],
                &path,
            );
            let kinds: Vec<&str> = streams.lines().collect();
            assert!(kinds.contains(&"audio"), "{}: {kinds:?}", clip.file);
            assert_eq!(
                kinds.contains(&"video"),
                clip.is_video(),
                "{}: {kinds:?}",
                clip.file
            );
            sizes.insert(clip.file.clone(), (bytes, duration));
        }
        let leftovers: Vec<String> = std::fs::read_dir(dir.path())
            .expect("read dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with('.'))
            .collect();
        assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
        for (file, (bytes, duration)) in &sizes {
            eprintln!("demo clip {file}: {bytes} bytes, {duration:.2} s");
        }
        eprintln!(
            "demo clips: {} files, {total} bytes ({} bytes per clip), generated in {:.2} s",
            sizes.len(),
            total / sizes.len() as u64,
            took.as_secs_f64()
        );

        // A second run keeps every file as it is.
        let before: Vec<(std::time::SystemTime, Vec<u8>)> = names
            .iter()
            .map(|n| {
                let p = dir.path().join(n);
                let modified = std::fs::metadata(&p)
                    .and_then(|m| m.modified())
                    .expect("mtime");
                (modified, std::fs::read(&p).expect("read"))
            })
            .collect();
        let start = Instant::now();
        assert_eq!(generate(dir.path()).expect("second run"), names);
        eprintln!(
            "demo clips: second run {:.3} s",
            start.elapsed().as_secs_f64()
        );
        for (n, (modified, bytes)) in names.iter().zip(&before) {
            let p = dir.path().join(n);
            let now = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .expect("mtime");
            assert_eq!(&now, modified, "{n} rewritten");
            assert_eq!(&std::fs::read(&p).expect("read"), bytes, "{n} changed");
        }

        // A missing file is made again, identical to the first one (deterministic tools).
        let first = dir.path().join(&names[0]);
        std::fs::remove_file(&first).expect("remove");
        generate(dir.path()).expect("third run");
        assert_eq!(std::fs::read(&first).expect("read"), before[0].1);

        // To listen to the clips: MEMEBOARD_DEMO_CLIPS_OUT=<folder> keeps a copy.
        if let Some(out) = std::env::var_os("MEMEBOARD_DEMO_CLIPS_OUT") {
            generate(Path::new(&out)).expect("clips kept");
        }
    }

    #[test]
    fn generation_is_deterministic() {
        if !tools_ready() {
            return;
        }
        let a = tempfile::tempdir().expect("temp dir");
        let b = tempfile::tempdir().expect("temp dir");
        let names = generate(a.path()).expect("first");
        generate(b.path()).expect("second");
        let differing: Vec<&String> = names
            .iter()
            .filter(|n| {
                std::fs::read(a.path().join(n)).ok() != std::fs::read(b.path().join(n)).ok()
            })
            .collect();
        assert!(
            differing.is_empty(),
            "not byte-identical across runs: {differing:?}"
        );
    }
}

//! The recipes read from `server/demo/clips/recipes.txt`: one step a line, `ID STEP ARGS…`,
//! in a small language (speech, tone sequences, raw sox, video frames) that the file's header
//! describes.

use super::{Recipe, Step};

/// The recipe file, embedded like the manifest.
const RECIPES: &str = include_str!("../../../../demo/clips/recipes.txt");

/// The intermediate WAV format (espeak-ng's own rate, mono, 16 bits), the file's `WAV`.
const WAV: [&str; 6] = ["-r", "22050", "-c", "1", "-b", "16"];

/// The recipe of `id` in the data file.
pub(super) fn recipe(id: &str) -> Result<Recipe, String> {
    let mut found = None;
    for (n, line) in lines() {
        let Some((line_id, step)) = line.split_once(' ') else {
            return Err(format!("recipes.txt line {n}: no step"));
        };
        if line_id == id {
            let recipe = found.get_or_insert_with(empty);
            add_step(recipe, step).map_err(|e| format!("recipes.txt line {n}: {e}"))?;
        }
    }
    found.ok_or_else(|| format!("no recipe for `{id}` in recipes.txt"))
}

/// Every recipe of the file, in the order their ids first appear.
#[cfg(test)]
pub(super) fn all() -> Result<Vec<(&'static str, Recipe)>, String> {
    let mut ids: Vec<&'static str> = Vec::new();
    for (n, line) in lines() {
        let id = line
            .split_once(' ')
            .map(|(id, _)| id)
            .ok_or_else(|| format!("recipes.txt line {n}: no step"))?;
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids.into_iter()
        .map(|id| recipe(id).map(|r| (id, r)))
        .collect()
}

/// The numbered lines that hold steps (not blank, not `#` comments).
fn lines() -> impl Iterator<Item = (usize, &'static str)> {
    RECIPES
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

fn empty() -> Recipe {
    Recipe {
        sound: Vec::new(),
        video: None,
        sox_audio: true,
    }
}

/// Adds one `STEP ARGS…` to the recipe.
fn add_step(recipe: &mut Recipe, step: &'static str) -> Result<(), String> {
    let (name, rest) = step.split_once(' ').unwrap_or((step, ""));
    let words: Vec<&'static str> = rest.split_whitespace().collect();
    let number = |s: &str| {
        s.parse::<u32>()
            .map_err(|_| format!("`{s}` is not a whole number"))
    };
    match name {
        // speak VOICE PITCH SPEED | TEXT: speech padded into snd.wav.
        "speak" => {
            let (head, text) = speech_text(rest)?;
            let [voice, pitch, speed] = head[..] else {
                return Err("speak VOICE PITCH SPEED | TEXT".into());
            };
            recipe.sound.push(Step::Speak {
                voice,
                pitch: number(pitch)?,
                speed: number(speed)?,
                text,
                out: "speech.wav",
            });
            recipe.sound.push(Step::SoxArgs(sox_args(&[
                "speech.wav",
                "WAV",
                "snd.wav",
                "pad",
                "0.2",
                "0.3",
            ])));
        }
        // say OUT VOICE PITCH SPEED | TEXT: speech into OUT, for later sox steps.
        "say" => {
            let (head, text) = speech_text(rest)?;
            let [out, voice, pitch, speed] = head[..] else {
                return Err("say OUT VOICE PITCH SPEED | TEXT".into());
            };
            plain_name(out)?;
            recipe.sound.push(Step::Speak {
                voice,
                pitch: number(pitch)?,
                speed: number(speed)?,
                text,
                out,
            });
        }
        // tones OUT WAVE VOLUME NOTE:SECONDS…: a tone sequence into OUT.
        "tones" => recipe.sound.push(Step::SoxArgs(tones(&words)?)),
        // sox ARGS…: any sox command (WAV stands for the intermediate format).
        "sox" => {
            if words.is_empty() {
                return Err("sox needs arguments".into());
            }
            recipe.sound.push(Step::SoxArgs(sox_args(&words)));
        }
        // video SECONDS SOURCE: an ffmpeg lavfi frame source under the sound.
        "video" => {
            let [seconds, source] = words[..] else {
                return Err("video SECONDS SOURCE".into());
            };
            seconds
                .parse::<f64>()
                .map_err(|_| format!("`{seconds}` is not a length"))?;
            recipe.video = Some((source, seconds));
            recipe.sox_audio = false;
        }
        other => return Err(format!("unknown step `{other}`")),
    }
    Ok(())
}

/// `HEAD… | TEXT` of a speech step.
fn speech_text(rest: &'static str) -> Result<(Vec<&'static str>, &'static str), String> {
    let (head, text) = rest
        .split_once(" | ")
        .ok_or("speech steps end in ` | TEXT`")?;
    let text = text.trim();
    if text.is_empty() {
        return Err("empty text".into());
    }
    Ok((head.split_whitespace().collect(), text))
}

fn plain_name(name: &str) -> Result<(), String> {
    let ok = name.ends_with(".wav")
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!("`{name}` is not a plain .wav name"))
    }
}

fn sox_args(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .flat_map(|w| if *w == "WAV" { WAV.to_vec() } else { vec![*w] })
        .map(String::from)
        .collect()
}

/// `sox -n WAV OUT synth … : synth …`: one sox run plays the notes one after another. A note
/// is a name (`C4`, `F#5`, `Bb3`), a frequency in Hz, `FROM-TO` for a glide, or `r` for a
/// rest, with its length in seconds after a colon.
fn tones(words: &[&str]) -> Result<Vec<String>, String> {
    let [out, wave, volume, notes @ ..] = words else {
        return Err("tones OUT WAVE VOLUME NOTE:SECONDS…".into());
    };
    plain_name(out)?;
    if !["sine", "square", "triangle", "sawtooth", "trapezium"].contains(wave) {
        return Err(format!("unknown wave `{wave}`"));
    }
    volume
        .parse::<f64>()
        .map_err(|_| format!("`{volume}` is not a volume"))?;
    if notes.is_empty() {
        return Err("no notes".into());
    }
    let mut args = sox_args(&["-n", "WAV", out]);
    for (i, note) in notes.iter().enumerate() {
        let (pitch, seconds) = note
            .split_once(':')
            .ok_or_else(|| format!("`{note}` needs :SECONDS"))?;
        let length: f64 = seconds
            .parse()
            .ok()
            .filter(|s: &f64| *s > 0.02 && *s <= 10.0)
            .ok_or_else(|| format!("`{seconds}` is not a length"))?;
        if i > 0 {
            args.push(":".into());
        }
        if pitch == "r" {
            args.extend(["trim", "0", seconds].map(String::from));
            continue;
        }
        let frequency = match pitch.split_once('-') {
            Some((from, to)) => format!("{}-{}", hz(from)?, hz(to)?),
            None => hz(pitch)?,
        };
        let fade_out = format!("{:.3}", (length / 4.0).min(0.05));
        args.extend(
            [
                "synth", seconds, wave, &frequency, "fade", "q", "0.005", seconds, &fade_out,
                "vol", volume,
            ]
            .map(String::from),
        );
    }
    Ok(args)
}

/// A note name (`A4` = 440 Hz, equal temperament) or a frequency, as sox reads it.
fn hz(pitch: &str) -> Result<String, String> {
    if let Ok(f) = pitch.parse::<f64>() {
        return Ok(format!("{f:.2}"));
    }
    let bad = || format!("`{pitch}` is not a note");
    let mut chars = pitch.chars();
    let step = match chars.next().ok_or_else(bad)? {
        'C' => -9,
        'D' => -7,
        'E' => -5,
        'F' => -4,
        'G' => -2,
        'A' => 0,
        'B' => 2,
        _ => return Err(bad()),
    };
    let rest = chars.as_str();
    let (shift, octave) = match rest.strip_prefix('#') {
        Some(o) => (1, o),
        None => match rest.strip_prefix('b') {
            Some(o) => (-1, o),
            None => (0, rest),
        },
    };
    let octave: i32 = octave.parse().map_err(|_| bad())?;
    let semitones = step + shift + 12 * (octave - 4);
    Ok(format!(
        "{:.2}",
        440.0 * 2f64.powf(f64::from(semitones) / 12.0)
    ))
}

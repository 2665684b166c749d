//! The clip manifest, line by line: every field of a line checked on its own (all problems
//! of a line reported together), ids unique, file names inside the media folder. Lines in
//! the published row shape are first read into the manifest's own (`published_shape`).

use super::published_shape::{self, Published};
use super::vocabulary::{
    EMOTIONS, MANIFEST_FIELDS, QUESTION_TYPES, SENSITIVITIES, SOUND_TYPES, VISUAL_HINTS,
};
use super::{Clip, AUDIO, VIDEO};
use crate::import::{describe, is_safe_relative};
use memeboard_core::kinds::clip_mcq::{Emotion, QuestionType, Sensitivity, SoundType, VisualHint};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The manifest's clips whose lines have no problem, in manifest order; every problem is
/// added to `problems` (file, line, field, found, expected).
pub(super) fn parse_manifest(
    manifest_name: &str,
    manifest: &str,
    problems: &mut Vec<String>,
) -> Vec<Clip> {
    let mut clips = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    for (index, raw) in manifest.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim_start_matches('\u{feff}').trim();
        if raw.is_empty() {
            continue;
        }
        let raw_at = |field: &str| format!("{manifest_name} line {line}, field `{field}`");
        let mut obj = match crate::import::manifest_object(manifest_name, line, raw) {
            Ok(obj) => obj,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        let before = problems.len();
        crate::import::files::long_texts(&obj, &raw_at, problems);
        let published = published_shape::rewrite(&mut obj, &raw_at, problems);
        // Problems name a field as the line wrote it (`solution`, not `answer`).
        let at = |field: &str| {
            format!(
                "{manifest_name} line {line}, field `{}`",
                published.written(field)
            )
        };
        for key in obj.keys() {
            if !MANIFEST_FIELDS.contains(&key.as_str()) {
                problems.push(format!(
                    "{}: unknown field (expected one of {}, or of the published rows' {})",
                    at(key),
                    MANIFEST_FIELDS.join(", "),
                    published_shape::PUBLISHED_FIELDS.join(", ")
                ));
            }
        }
        let fields = read_fields(&obj, &at);
        if let Ok(c) = &fields.choices {
            let mut seen = std::collections::HashSet::new();
            for x in c {
                if !seen.insert(x) {
                    problems.push(format!("{}: \"{x}\" appears twice", at("choices")));
                }
            }
        }
        if let Ok(id) = &fields.id {
            if let Some(first) = first_line.get(id) {
                problems.push(format!(
                    "{}: duplicate id \"{id}\" (first on line {first})",
                    at("id")
                ));
            } else {
                first_line.insert(id.clone(), line);
            }
        }
        if let Ok(f) = &fields.file {
            let ext = f
                .rsplit_once('.')
                .map(|(_, e)| e.to_ascii_lowercase())
                .unwrap_or_default();
            if !is_safe_relative(f) {
                problems.push(format!(
                    "{}: expected a file name inside the media folder, found \"{f}\"",
                    at("file")
                ));
            } else if !AUDIO.contains(&ext.as_str()) && !VIDEO.contains(&ext.as_str()) {
                problems.push(format!(
                    "{}: \"{f}\" has an unsupported type .{ext}, expected audio ({}) or video ({})",
                    at("file"),
                    AUDIO.join(", "),
                    VIDEO.join(", ")
                ));
            }
        }
        let file_field = published.written("file");
        match fields.into_clip(line, file_field, published) {
            Ok(clip) => {
                if problems.len() == before {
                    clips.push(clip);
                }
            }
            Err(found) => problems.extend(found),
        }
    }
    clips
}

/// One checked field of a manifest line: its value, or the problem with it.
type Field<T> = Result<T, String>;

/// The fields of one manifest line, each checked on its own.
struct LineFields {
    id: Field<String>,
    file: Field<String>,
    question: Field<String>,
    choices: Field<Vec<String>>,
    correct: Field<usize>,
    language: Field<Option<String>>,
    sound_type: Field<SoundType>,
    question_type: Field<QuestionType>,
    year: Field<Option<u16>>,
    summary: Field<Option<String>>,
    emotions: Field<Vec<Emotion>>,
    sensitivity: Field<Vec<Sensitivity>>,
    /// The strongest visual hint, and every one given (in the spectrum's order).
    visual_hint: Field<(VisualHint, Vec<VisualHint>)>,
    text_cheat: Field<bool>,
}

/// Reads and checks every field of a manifest line (`at` names a field of the line).
fn read_fields(obj: &Map<String, Value>, at: &dyn Fn(&str) -> String) -> LineFields {
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
    let id = text("id", obj);
    let file = text("file", obj);
    let question = text("question", obj);
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
    let correct = match (&choices, text("answer", obj)) {
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
    let sound_type = label::<SoundType>(obj, "sound_type", at, &SOUND_TYPES);
    let question_type = label::<QuestionType>(obj, "question_type", at, &QUESTION_TYPES);
    let visual_hint = visual_hints(obj, at);
    let emotions = labels::<Emotion>(obj, "emotions", at, &EMOTIONS);
    let sensitivity = labels::<Sensitivity>(obj, "sensitivity", at, &SENSITIVITIES);
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
    LineFields {
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
    }
}

impl LineFields {
    /// The clip on line `line` (its file named `file_field` there, its published-only
    /// annotations `published`) when every field is good, else the problems of the fields in
    /// field order.
    fn into_clip(
        self,
        line: usize,
        file_field: &'static str,
        published: Published,
    ) -> Result<Clip, Vec<String>> {
        let LineFields {
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
        } = self;
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
                Ok((visual_hint, visual_hints)),
                Ok(text_cheat),
            ) => Ok(Clip {
                id,
                line,
                file,
                file_field,
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
                visual_hints,
                text_cheat,
                published,
            }),
            (a, b, c, d, e, f, g, h, i, j, k, l, m, n) => Err([
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
            .collect()),
        }
    }
}

/// The visual hint: one label or a non-empty array of them (AVMeme Exam gives "one or
/// multiple values"); the strongest of the spectrum (no text < irrelevant text <
/// transcription < title/name < visual contains solution), which decides whether a video is
/// served audio-only, and every label given, in the spectrum's order, without repeats.
fn visual_hints(
    obj: &Map<String, Value>,
    at: &dyn Fn(&str) -> String,
) -> Result<(VisualHint, Vec<VisualHint>), String> {
    let mut all = match obj.get("visual_hint") {
        Some(Value::Array(a)) if a.is_empty() => {
            return Err(format!(
                "{}: expected one label or an array of one or more, found an empty array",
                at("visual_hint")
            ))
        }
        Some(Value::Array(_)) => labels::<VisualHint>(obj, "visual_hint", at, &VISUAL_HINTS)?,
        _ => vec![label::<VisualHint>(obj, "visual_hint", at, &VISUAL_HINTS)?],
    };
    all.sort();
    all.dedup();
    match all.last() {
        Some(&strongest) => Ok((strongest, all)),
        None => Err(format!("{}: missing", at("visual_hint"))),
    }
}

/// One label of field `field` (`expected`: its labels, for the problem).
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

/// The labels of field `field`, an array (absent or null: none).
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

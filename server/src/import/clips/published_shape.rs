//! AVMeme Exam's published row shape read as the manifest's own: field aliases renamed, the
//! paper's label spellings and abbreviations normalised, and the published-only annotations
//! (usage, transcript, url, onset, offset) checked and taken out of the line.

use crate::import::describe;
use memeboard_core::kinds::clip_mcq::{Emotion, QuestionType, Sensitivity, SoundType, VisualHint};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The published names of the manifest's fields: (published name, the manifest's name).
const ALIASES: &[(&str, &str)] = &[
    ("solution", "answer"),
    ("video_path", "file"),
    ("emotion", "emotions"),
];

/// The published rows' fields the manifest's own shape has no name for (hidden annotations),
/// and the aliases: the unknown-field problem lists them.
pub(super) const PUBLISHED_FIELDS: &[&str] = &[
    "solution",
    "video_path",
    "emotion",
    "usage",
    "transcript",
    "url",
    "onset",
    "offset",
];

/// The published-only annotations of one line, checked (a field with a problem is `None`,
/// its problem reported), and the names the line gave its fields.
#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct Published {
    /// How the meme is used.
    pub(super) usage: Option<String>,
    /// What is said or sung (empty or null: none).
    pub(super) transcript: Option<String>,
    /// The source video's address.
    pub(super) url: Option<String>,
    /// Where the clip starts in the source video, in seconds.
    pub(super) onset_s: Option<f64>,
    /// Where the clip ends in the source video, in seconds.
    pub(super) offset_s: Option<f64>,
    /// (the manifest's name, the published name the line used instead).
    renamed: Vec<(&'static str, &'static str)>,
}

impl Published {
    /// The name the line gave the manifest's field `field` (`solution` for `answer` when the
    /// line wrote `solution`), so that problems name the field as written.
    pub(super) fn written<'a>(&self, field: &'a str) -> &'a str {
        self.renamed
            .iter()
            .find(|(current, _)| *current == field)
            .map_or(field, |(_, published)| published)
    }
}

/// Rewrites one manifest line's object from the published shape into the manifest's own
/// names and values, in place, and takes the published-only annotations out of it. Problems
/// (both names of one field, a bad annotation) are added to `problems`; labels that are not
/// known after normalising are left as written, for the manifest's own label problem.
pub(super) fn rewrite(
    obj: &mut Map<String, Value>,
    at: &dyn Fn(&str) -> String,
    problems: &mut Vec<String>,
) -> Published {
    let mut published = Published::default();
    for &(alias, current) in ALIASES {
        let Some(value) = obj.remove(alias) else {
            continue;
        };
        if obj.contains_key(current) {
            problems.push(format!(
                "{}: `{current}` and `{alias}` are both given, expected one of them (they name the same field)",
                at(alias)
            ));
        } else {
            obj.insert(current.to_owned(), value);
            published.renamed.push((current, alias));
        }
    }
    normalise_one(obj, "question_type", Labels::QuestionType);
    normalise_one(obj, "sound_type", Labels::SoundType);
    normalise_many(obj, "emotions", Labels::Emotion);
    normalise_many(obj, "sensitivity", Labels::Sensitivity);
    match obj.get_mut("visual_hint") {
        Some(Value::Array(items)) => items
            .iter_mut()
            .for_each(|v| normalise(v, Labels::VisualHint)),
        Some(v) => normalise(v, Labels::VisualHint),
        None => {}
    }
    if let Some(v) = obj.get_mut("language") {
        if v.as_str()
            .is_some_and(|s| s.trim().is_empty() || s.trim().eq_ignore_ascii_case("none"))
        {
            *v = Value::Null;
        }
    }
    if let Some(v) = obj.get_mut("text_cheat") {
        let flag = match &*v {
            Value::Number(n) => n.as_u64().filter(|&n| n <= 1).map(|n| n == 1),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "1" => Some(true),
                "false" | "0" => Some(false),
                _ => None,
            },
            _ => None,
        };
        if let Some(flag) = flag {
            *v = Value::Bool(flag);
        }
    }
    published.usage = text(obj.remove("usage"), &at("usage"), problems);
    published.transcript = text(obj.remove("transcript"), &at("transcript"), problems);
    published.url = text(obj.remove("url"), &at("url"), problems);
    published.onset_s = seconds(obj.remove("onset"), &at("onset"), problems);
    published.offset_s = seconds(obj.remove("offset"), &at("offset"), problems);
    if let (Some(onset), Some(offset)) = (published.onset_s, published.offset_s) {
        if onset >= offset {
            problems.push(format!(
                "{}: the clip ends at {offset} s, not after its onset at {onset} s, expected 0 <= onset < offset",
                at("offset")
            ));
            (published.onset_s, published.offset_s) = (None, None);
        }
    }
    published
}

/// An annotation text: absent, null or blank is `None`.
fn text(value: Option<Value>, at: &str, problems: &mut Vec<String>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
        Some(other) => {
            problems.push(format!(
                "{at}: expected text or null, found {}",
                describe(&other)
            ));
            None
        }
    }
}

/// A time in the source video, in seconds from its start: absent or null is `None`.
fn seconds(value: Option<Value>, at: &str, problems: &mut Vec<String>) -> Option<f64> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) if n.as_f64().is_some_and(|s| s.is_finite() && s >= 0.0) => {
            n.as_f64()
        }
        Some(other) => {
            problems.push(format!(
                "{at}: expected a number of seconds from 0 (in the source video) or null, found {}",
                describe(&other)
            ));
            None
        }
    }
}

/// The labelled fields, each with the paper's abbreviations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Labels {
    /// `question_type`.
    QuestionType,
    /// `sound_type`.
    SoundType,
    /// `emotions`.
    Emotion,
    /// `sensitivity`.
    Sensitivity,
    /// `visual_hint`.
    VisualHint,
}

impl Labels {
    /// The paper's abbreviations and long names of this field's labels, normalised, with the
    /// label each stands for.
    fn abbreviations(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Self::QuestionType => &[
                ("a", "audio_analysis"),
                ("l", "language_analysis"),
                ("c", "contextual_inference"),
                ("e", "emotion"),
                ("h", "humor_popularity"),
                ("u", "usage_application"),
                ("w", "world_knowledge"),
            ],
            Self::SoundType => &[
                ("sp", "speech"),
                ("so", "song"),
                ("mu", "music"),
                ("sfx", "sound_effect"),
            ],
            Self::Sensitivity => &[
                ("race_gender_geography_identity", "identity"),
                ("disadvantaged_disability", "disability"),
            ],
            Self::VisualHint => &[("visual_cheat", "visual_contains_solution")],
            Self::Emotion => &[],
        }
    }

    /// Whether `key` is one of this field's labels.
    fn knows(self, key: &str) -> bool {
        fn is<T: DeserializeOwned>(key: &str) -> bool {
            serde_json::from_value::<T>(Value::String(key.to_owned())).is_ok()
        }
        match self {
            Self::QuestionType => is::<QuestionType>(key),
            Self::SoundType => is::<SoundType>(key),
            Self::Emotion => is::<Emotion>(key),
            Self::Sensitivity => is::<Sensitivity>(key),
            Self::VisualHint => is::<VisualHint>(key),
        }
    }
}

/// A label as the paper writes it ("Angry/Annoyed", "Humor & Popularity", "Sfx") in the
/// manifest's spelling (`angry_annoyed`, `humor_popularity`, `sound_effect`): lower case,
/// `/`, spaces, `-` and `&` read as `_` (repeats collapsed, ends trimmed), then the paper's
/// abbreviations. The result may still be no label of the field.
pub(super) fn normalise_label(field: Labels, label: &str) -> String {
    let mut key = String::with_capacity(label.len());
    for c in label.trim().chars().flat_map(char::to_lowercase) {
        let c = if matches!(c, '/' | ' ' | '-' | '&') || c.is_whitespace() {
            '_'
        } else {
            c
        };
        if c != '_' || !(key.is_empty() || key.ends_with('_')) {
            key.push(c);
        }
    }
    while key.ends_with('_') {
        key.pop();
    }
    field
        .abbreviations()
        .iter()
        .find(|(short, _)| *short == key)
        .map_or(key, |(_, long)| (*long).to_owned())
}

/// Replaces a label text by its normalised form when that is one of the field's labels.
fn normalise(value: &mut Value, field: Labels) {
    if let Value::String(s) = value {
        let key = normalise_label(field, s);
        if field.knows(&key) {
            *s = key;
        }
    }
}

/// Normalises a one-label field.
fn normalise_one(obj: &mut Map<String, Value>, name: &str, field: Labels) {
    if let Some(v) = obj.get_mut(name) {
        normalise(v, field);
    }
}

/// Normalises a many-label field; one label alone is read as an array of it.
fn normalise_many(obj: &mut Map<String, Value>, name: &str, field: Labels) {
    if let Some(v) = obj.get_mut(name) {
        if v.is_string() {
            *v = Value::Array(vec![v.take()]);
        }
        if let Value::Array(items) = v {
            items.iter_mut().for_each(|v| normalise(v, field));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(field: &str) -> String {
        format!("m.jsonl line 1, field `{field}`")
    }

    fn rewritten(line: Value) -> (Map<String, Value>, Published, Vec<String>) {
        let Value::Object(mut obj) = line else {
            panic!("an object")
        };
        let mut problems = Vec::new();
        let published = rewrite(&mut obj, &at, &mut problems);
        (obj, published, problems)
    }

    #[test]
    fn the_papers_abbreviations_name_the_labels() {
        let q = |s| normalise_label(Labels::QuestionType, s);
        assert_eq!(q("A"), "audio_analysis");
        assert_eq!(q("L"), "language_analysis");
        assert_eq!(q("C"), "contextual_inference");
        assert_eq!(q("E"), "emotion");
        assert_eq!(q("H"), "humor_popularity");
        assert_eq!(q("U"), "usage_application");
        assert_eq!(q("W"), "world_knowledge");
        let s = |s| normalise_label(Labels::SoundType, s);
        assert_eq!(s("Sp"), "speech");
        assert_eq!(s("So"), "song");
        assert_eq!(s("Mu"), "music");
        assert_eq!(s("Sfx"), "sound_effect");
        assert_eq!(s("SFX"), "sound_effect");
        let x = |s| normalise_label(Labels::Sensitivity, s);
        assert_eq!(x("race/gender/geography/identity"), "identity");
        assert_eq!(x("Disadvantaged/Disability"), "disability");
        assert_eq!(x("violence/gore"), "violence_gore");
        assert_eq!(x("drug/alcohol"), "drug_alcohol");
        // An abbreviation of one field is not one of another.
        assert_eq!(normalise_label(Labels::SoundType, "A"), "a");
        assert_eq!(normalise_label(Labels::QuestionType, "Sp"), "sp");
    }

    #[test]
    fn the_papers_spellings_are_normalised() {
        for (field, given, expected) in [
            (Labels::Emotion, "Angry/Annoyed", "angry_annoyed"),
            (
                Labels::QuestionType,
                "Humor & Popularity",
                "humor_popularity",
            ),
            (
                Labels::QuestionType,
                " Usage  &  Application ",
                "usage_application",
            ),
            (Labels::SoundType, "Sound Effect", "sound_effect"),
            (Labels::VisualHint, "title/name", "title_name"),
            (
                Labels::VisualHint,
                "visual contains solution",
                "visual_contains_solution",
            ),
            (Labels::VisualHint, "No-Text", "no_text"),
            (Labels::VisualHint, "/irrelevant text/", "irrelevant_text"),
            // The manifest's own spelling is kept.
            (Labels::Emotion, "sarcastic_ironic", "sarcastic_ironic"),
        ] {
            assert_eq!(normalise_label(field, given), expected, "{given}");
        }
    }

    #[test]
    fn a_published_row_is_read_in_the_manifests_names() {
        let (obj, published, problems) = rewritten(json!({
            "solution": "b", "video_path": "x.mp4", "emotion": "Angry/Annoyed",
            "question_type": "A", "sound_type": "Sfx", "sensitivity": ["race/gender/geography/identity"],
            "visual_hint": ["transcription", "title/name"], "language": "none", "text_cheat": 0,
            "usage": " when annoyed ", "transcript": "", "url": "https://example.org/v",
            "onset": 1.5, "offset": 4,
        }));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(
            Value::Object(obj),
            json!({
                "answer": "b", "file": "x.mp4", "emotions": ["angry_annoyed"],
                "question_type": "audio_analysis", "sound_type": "sound_effect",
                "sensitivity": ["identity"], "visual_hint": ["transcription", "title_name"],
                "language": null, "text_cheat": false,
            })
        );
        assert_eq!(published.usage.as_deref(), Some("when annoyed"));
        assert_eq!(published.transcript, None);
        assert_eq!(published.url.as_deref(), Some("https://example.org/v"));
        assert_eq!(
            (published.onset_s, published.offset_s),
            (Some(1.5), Some(4.0))
        );
        assert_eq!(published.written("answer"), "solution");
        assert_eq!(published.written("file"), "video_path");
        assert_eq!(published.written("question"), "question");
    }

    #[test]
    fn flags_languages_and_unknown_labels() {
        for (given, flag) in [
            (json!(1), json!(true)),
            (json!("false"), json!(false)),
            (json!(" TRUE "), json!(true)),
            (json!(2), json!(2)),
            (json!("maybe"), json!("maybe")),
        ] {
            let (obj, _, _) = rewritten(json!({"text_cheat": given}));
            assert_eq!(obj["text_cheat"], flag);
        }
        let (obj, _, _) = rewritten(json!({"language": ""}));
        assert!(obj["language"].is_null());
        let (obj, _, _) = rewritten(json!({"language": "zh"}));
        assert_eq!(obj["language"], "zh");
        // Unknown labels stay as written, for the manifest's own problem.
        let (obj, _, _) = rewritten(json!({"sound_type": "Noise", "emotions": ["Glad"]}));
        assert_eq!(obj["sound_type"], "Noise");
        assert_eq!(obj["emotions"], json!(["Glad"]));
    }

    #[test]
    fn both_names_of_a_field_and_bad_segments_are_problems() {
        let (obj, _, problems) = rewritten(json!({"answer": "a", "solution": "b"}));
        assert_eq!(obj["answer"], "a");
        assert_eq!(
            problems,
            ["m.jsonl line 1, field `solution`: `answer` and `solution` are both given, expected one of them (they name the same field)"]
        );
        let (_, published, problems) = rewritten(json!({"onset": 5, "offset": 5}));
        assert_eq!((published.onset_s, published.offset_s), (None, None));
        assert_eq!(
            problems,
            ["m.jsonl line 1, field `offset`: the clip ends at 5 s, not after its onset at 5 s, expected 0 <= onset < offset"]
        );
        let (_, _, problems) = rewritten(json!({"onset": -1, "offset": "9", "url": 3}));
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0]
            .starts_with("m.jsonl line 1, field `url`: expected text or null, found the number 3"));
        assert!(
            problems[1].starts_with("m.jsonl line 1, field `onset`: expected a number of seconds")
        );
        assert!(problems[2].contains("field `offset`") && problems[2].contains("found \"9\""));
        let (_, published, problems) = rewritten(json!({"onset": null, "offset": 3}));
        assert!(problems.is_empty());
        assert_eq!((published.onset_s, published.offset_s), (None, Some(3.0)));
    }
}

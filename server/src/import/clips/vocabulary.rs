//! The clip manifest's vocabulary: its fields and the labels each labelled field accepts. One
//! list for the importer that checks manifests and the demo that writes one.

/// Every field a manifest line has, so importers can rely on all of them being present (a
/// missing `year` or `language` is written as `null`, never left out).
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

/// The accepted sound types (`sound_type`).
pub const SOUND_TYPES: [&str; 4] = ["speech", "song", "music", "sound_effect"];

/// The accepted question types (`question_type`): the seven AVMeme question types.
pub const QUESTION_TYPES: [&str; 7] = [
    "audio_analysis",
    "language_analysis",
    "contextual_inference",
    "emotion",
    "humor_popularity",
    "usage_application",
    "world_knowledge",
];

/// The accepted visual hints (`visual_hint`); `visual_contains_solution` clips are videos
/// whose picture gives the answer away, so the server plays only their sound.
pub const VISUAL_HINTS: [&str; 5] = [
    "no_text",
    "irrelevant_text",
    "transcription",
    "title_name",
    "visual_contains_solution",
];

/// The accepted emotion labels (`emotions`).
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

/// The accepted sensitivity labels (`sensitivity`).
pub const SENSITIVITIES: [&str; 5] = [
    "sex",
    "violence_gore",
    "drug_alcohol",
    "identity",
    "disability",
];

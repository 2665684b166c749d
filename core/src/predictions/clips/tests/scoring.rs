//! Tests of scoring a whole file of twelve hand-made items: outcomes, facets and accuracy rows.

use super::super::*;
use super::validate;
use crate::metrics::{summarize_by, summarize_by_subset, Metric, MetricRow};
use crate::predictions::Split;
use serde_json::json;

/// One hand-made item: question type, sound type, language, text cheat, whether the
/// answer is right, and how the line is written (`None` = no line).
struct Case {
    qtype: &'static str,
    sound: &'static str,
    lang: Option<&'static str>,
    cheat: bool,
    right: bool,
    form: Option<Form>,
}

/// How a hand-made line writes its answer.
#[derive(Clone, Copy)]
enum Form {
    Letter,
    Number,
    Text,
}

/// Twelve items (canonical choices `c0`…; the correct canonical choice is item index mod
/// the number of choices), scored through the whole path: model order → manifest and
/// gold → a file written in letters, numbers and option texts → outcomes.
///
/// | item | type              | sound        | lang | cheat | answer          |
/// |------|-------------------|--------------|------|-------|-----------------|
/// | v01  | audio_analysis    | speech       | en   |       | right (letter)  |
/// | v02  | audio_analysis    | song         | en   |       | wrong (number)  |
/// | v03  | audio_analysis    | music        | —    | yes   | right (text)    |
/// | v04  | emotion           | speech       | zh   |       | right (number)  |
/// | v05  | emotion           | sound_effect | —    |       | no line (wrong) |
/// | v06  | emotion           | song         | zh   | yes   | right (letter)  |
/// | v07  | world_knowledge   | speech       | en   |       | wrong (text)    |
/// | v08  | world_knowledge   | speech       | ja   |       | right (text)    |
/// | v09  | humor_popularity  | music        | —    |       | right (letter)  |
/// | v10  | humor_popularity  | song         | en   | yes   | wrong (letter)  |
/// | v11  | language_analysis | speech       | zh   |       | right (number)  |
/// | v12  | language_analysis | sound_effect | —    |       | no line (wrong) |
fn cases() -> Vec<Case> {
    use Form::*;
    let c = |qtype, sound, lang, cheat, right, form| Case {
        qtype,
        sound,
        lang,
        cheat,
        right,
        form,
    };
    vec![
        c(
            "audio_analysis",
            "speech",
            Some("en"),
            false,
            true,
            Some(Letter),
        ),
        c(
            "audio_analysis",
            "song",
            Some("en"),
            false,
            false,
            Some(Number),
        ),
        c("audio_analysis", "music", None, true, true, Some(Text)),
        c("emotion", "speech", Some("zh"), false, true, Some(Number)),
        c("emotion", "sound_effect", None, false, false, None),
        c("emotion", "song", Some("zh"), true, true, Some(Letter)),
        c(
            "world_knowledge",
            "speech",
            Some("en"),
            false,
            false,
            Some(Text),
        ),
        c(
            "world_knowledge",
            "speech",
            Some("ja"),
            false,
            true,
            Some(Text),
        ),
        c("humor_popularity", "music", None, false, true, Some(Letter)),
        c(
            "humor_popularity",
            "song",
            Some("en"),
            true,
            false,
            Some(Letter),
        ),
        c(
            "language_analysis",
            "speech",
            Some("zh"),
            false,
            true,
            Some(Number),
        ),
        c(
            "language_analysis",
            "sound_effect",
            None,
            false,
            false,
            None,
        ),
    ]
}

/// The twelve cases' outcomes, scored from a JSON Lines file written as a model would.
fn case_outcomes() -> Vec<ItemOutcome> {
    let mut items = Vec::new();
    let mut gold = Vec::new();
    let mut lines = Vec::new();
    for (k, case) in cases().iter().enumerate() {
        let id = format!("v{:02}", k + 1);
        // Three to five choices, so letter ranges differ between items.
        let n = 3 + k % 3;
        let choices: Vec<String> = (0..n).map(|c| format!("{id} choice {c}")).collect();
        let order = model_option_order(k as u64, n);
        let options = model_options(&order, &choices);
        let correct = model_position(&order, k % n).unwrap();
        let answered = if case.right {
            correct
        } else {
            (correct + 1) % n
        };
        let answer = match case.form {
            None => None,
            Some(Form::Letter) => Some(json!(option_letter(answered).unwrap().to_string())),
            Some(Form::Number) => Some(json!(answered + 1)),
            Some(Form::Text) => Some(json!(options[answered])),
        };
        if let Some(answer) = answer {
            lines.push(json!({"item_id": id, "answer": answer}).to_string());
        }
        items.push(ManifestItem {
            id: id.clone(),
            category: case.qtype.into(),
            split: Split::Test,
            options,
        });
        gold.push(ClipGold {
            item_id: id,
            question_type: case.qtype.into(),
            correct_position: correct,
            sound_type: case.sound.into(),
            language: case.lang.map(str::to_owned),
            text_cheat: case.cheat,
        });
    }
    let manifest = TaskManifest {
        task: "avmeme".into(),
        items,
    };
    let file = validate_clip_answers(
        &lines.join("\n"),
        FileFormat::JsonLines,
        &manifest,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(file.missing, ["v05", "v12"]);
    clip_outcomes(&gold, &file)
}

/// `(items, accuracy)` of each row (accuracy `None` when the row is empty).
fn values(rows: &[MetricRow]) -> Vec<(usize, Option<f64>)> {
    rows.iter()
        .map(|r| (r.items, r.estimate.map(|e| e.value)))
        .collect()
}

fn assert_rows(rows: &[MetricRow], want: &[(usize, Option<f64>)]) {
    let got = values(rows);
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((items, value), (want_items, want_value)) in got.iter().zip(want) {
        assert_eq!(items, want_items, "{got:?}");
        match (value, want_value) {
            (Some(v), Some(w)) => assert!((v - w).abs() < 1e-12, "{got:?} vs {want:?}"),
            (v, w) => assert_eq!(v, w, "{got:?}"),
        }
    }
}

fn categories() -> Vec<String> {
    crate::kinds::clip_mcq::QuestionType::ALL
        .iter()
        .map(|q| {
            serde_json::to_value(q)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn outcomes_carry_verdicts_categories_and_facet_subsets() {
    let outcomes = case_outcomes();
    let verdicts: Vec<bool> = outcomes
        .iter()
        .map(|o| o.value == OutcomeValue::Verdict(Verdict::Correct))
        .collect();
    let want: Vec<bool> = cases()
        .iter()
        .map(|c| c.right && c.form.is_some())
        .collect();
    assert_eq!(verdicts, want);
    assert_eq!(outcomes[2].category, "audio_analysis");
    assert_eq!(outcomes[0].subsets, ["main", "sound:speech", "lang:en"]);
    assert_eq!(outcomes[2].subsets, ["sound:music", "lang:none"]);
    assert_eq!(
        facet_subsets(&outcomes, "sound"),
        [
            "sound:music",
            "sound:song",
            "sound:sound_effect",
            "sound:speech"
        ]
    );
    assert_eq!(
        facet_subsets(&outcomes, "lang:"),
        ["lang:en", "lang:ja", "lang:zh", "lang:none"]
    );
    assert_eq!(facet_subsets(&outcomes, "visual"), Vec::<String>::new());
}

#[test]
fn accuracy_overall_and_per_question_type() {
    let outcomes = case_outcomes();
    // Right: v01 v03 v04 v06 v08 v09 v11 = 7 of 12. Per type, in QuestionType::ALL order:
    // audio_analysis v01 ✓ v02 ✗ v03 ✓ = 2/3; language_analysis v11 ✓ v12 ✗ = 1/2;
    // contextual_inference none; emotion v04 ✓ v05 ✗ v06 ✓ = 2/3; humor_popularity
    // v09 ✓ v10 ✗ = 1/2; usage_application none; world_knowledge v07 ✗ v08 ✓ = 1/2.
    let rows = summarize_by(Metric::Accuracy, &outcomes, &categories(), None, 50, 1);
    assert_rows(
        &rows,
        &[
            (12, Some(7.0 / 12.0)),
            (3, Some(2.0 / 3.0)),
            (2, Some(0.5)),
            (0, None),
            (3, Some(2.0 / 3.0)),
            (2, Some(0.5)),
            (0, None),
            (2, Some(0.5)),
        ],
    );
}

#[test]
fn accuracy_on_the_main_subset_overall_and_per_question_type() {
    let outcomes = case_outcomes();
    // Main = not text cheats (v03, v06, v10 out): v01 ✓ v02 ✗ v04 ✓ v05 ✗ v07 ✗ v08 ✓
    // v09 ✓ v11 ✓ v12 ✗ = 5/9. Per type: audio_analysis v01 ✓ v02 ✗ = 1/2;
    // language_analysis v11 ✓ v12 ✗ = 1/2; emotion v04 ✓ v05 ✗ = 1/2; humor_popularity
    // v09 ✓ = 1/1; world_knowledge v07 ✗ v08 ✓ = 1/2.
    let rows = summarize_by(
        Metric::Accuracy,
        &outcomes,
        &categories(),
        Some(MAIN_SUBSET),
        50,
        1,
    );
    assert_rows(
        &rows,
        &[
            (9, Some(5.0 / 9.0)),
            (2, Some(0.5)),
            (2, Some(0.5)),
            (0, None),
            (2, Some(0.5)),
            (1, Some(1.0)),
            (0, None),
            (2, Some(0.5)),
        ],
    );
    assert!(rows.iter().all(|r| r.subset.as_deref() == Some("main")));
}

#[test]
fn accuracy_per_sound_type_and_language() {
    let outcomes = case_outcomes();
    // Sound: music v03 ✓ v09 ✓ = 2/2; song v02 ✗ v06 ✓ v10 ✗ = 1/3; sound_effect v05 ✗
    // v12 ✗ = 0/2; speech v01 ✓ v04 ✓ v07 ✗ v08 ✓ v11 ✓ = 4/5.
    let sounds = facet_subsets(&outcomes, "sound");
    let rows = summarize_by_subset(Metric::Accuracy, &outcomes, &sounds, 50, 1);
    assert_rows(
        &rows,
        &[
            (12, Some(7.0 / 12.0)),
            (2, Some(1.0)),
            (3, Some(1.0 / 3.0)),
            (2, Some(0.0)),
            (5, Some(0.8)),
        ],
    );
    // Language: en v01 ✓ v02 ✗ v07 ✗ v10 ✗ = 1/4; ja v08 ✓ = 1/1; zh v04 ✓ v06 ✓ v11 ✓
    // = 3/3; none v03 ✓ v05 ✗ v09 ✓ v12 ✗ = 2/4.
    let langs = facet_subsets(&outcomes, "lang");
    let rows = summarize_by_subset(Metric::Accuracy, &outcomes, &langs, 50, 1);
    assert_rows(
        &rows,
        &[
            (12, Some(7.0 / 12.0)),
            (4, Some(0.25)),
            (1, Some(1.0)),
            (3, Some(1.0)),
            (4, Some(0.5)),
        ],
    );
    // And the main subset beside them, as a board row.
    let rows = summarize_by_subset(
        Metric::Accuracy,
        &outcomes,
        &[MAIN_SUBSET.to_owned()],
        50,
        1,
    );
    assert_rows(&rows, &[(12, Some(7.0 / 12.0)), (9, Some(5.0 / 9.0))]);
    // Every outcome parsed: accuracy on parseable answers is accuracy, the parse rate 1.
    assert_eq!(Metric::ParseRate.compute(&outcomes), Some(1.0));
}

#[test]
fn gold_out_of_step_with_the_file_is_skipped_not_misscored() {
    let gold = |id: &str| ClipGold {
        item_id: id.into(),
        question_type: "emotion".into(),
        correct_position: 0,
        sound_type: "speech".into(),
        language: None,
        text_cheat: false,
    };
    let file = ValidatedClipFile {
        item_ids: vec!["v1".into(), "v2".into()],
        num_lines: 2,
        answers: vec![Some(0), Some(0)],
        missing: vec![],
    };
    let outcomes = clip_outcomes(&[gold("v2"), gold("v2"), gold("v3")], &file);
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].item, "v2");
}

#[test]
fn the_validated_file_and_gold_serialise_as_plain_data() {
    let file = validate(
        "{\"item_id\":\"v2\",\"answer\":\"C\"}",
        FileFormat::JsonLines,
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&file).unwrap(),
        json!({"item_ids": ["v1", "v2", "v3"], "num_lines": 1, "answers": [null, 2, null],
                   "missing": ["v1", "v3"]})
    );
    let gold = ClipGold {
        item_id: "v1".into(),
        question_type: "emotion".into(),
        correct_position: 2,
        sound_type: "song".into(),
        language: Some("ko".into()),
        text_cheat: true,
    };
    let back: ClipGold = serde_json::from_value(serde_json::to_value(&gold).unwrap()).unwrap();
    assert_eq!(back, gold);
    assert_eq!(gold.subsets(), ["sound:song", "lang:ko"]);
}

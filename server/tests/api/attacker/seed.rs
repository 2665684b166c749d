//! The attacker's seeded benchmarks, one per dataset family, at least [`MIN_ITEMS`] items per
//! kind: CHIME JSON (text MCQ, explanation), a panel manifest with tiny PNG headers (panel
//! order and its variants, panel type, comic explanation), clip manifests with WAV tones
//! written here (clip MCQ), and a CMPM study of two uploaded comic explanation submissions
//! (rating, ranking).

use super::{author_token, raw, ADMIN};
use crate::helpers::{files_reader, tone_wav, TestApp};
use axum::http::{Method, StatusCode};
use memeboard_core::kinds::TaskKind;
use memeboard_core::rng::SplitMix64;
use memeboard_core::tasks::MemeType;
use memeboard_server::import::BenchmarkSpec;
use memeboard_server::import_clips::{import_clips, ClipsSpec};
use memeboard_server::import_panels::{import_panels, PanelsSpec};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Fewest items every kind's benchmark has.
pub const MIN_ITEMS: usize = 100;
/// Comics in the panel benchmark (some leave the order task: parallel ones).
pub const COMICS: usize = 130;
/// Clips in the clip benchmark (enough test clips after the 10 % dev split).
pub const CLIPS: usize = 112;
/// Slug of the panel benchmark (public: it names its tasks).
pub const PANELS: &str = "atk-panels";
/// Slug of the comics the judging study rates: a benchmark of its own with every comic on
/// the dev split, because a comic explanation task (panels in reading order) withholds the
/// order task's test comics until that gold is revealed (cross-task gold).
pub const JUDGED_PANELS: &str = "atk-judged";
/// The invitation of the judging study, written to the attacker's rater link.
pub const STUDY: &str = "atk-study";
/// Every model name of the study's submissions contains it (a leak is easy to spot).
pub const MODEL_MARK: &str = "Zyxmodel";

/// The seeded task of each kind. Exhaustive on purpose: a new kind does not compile here
/// until it has a benchmark the attacks run on.
pub fn benchmark_of(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::TextMcq => "atk-chime-mcq",
        TaskKind::Explanation => "atk-chime-explain",
        TaskKind::PanelOrder => "atk-panels-order",
        TaskKind::PanelType => "atk-panels-type",
        TaskKind::ClipMcq => "atk-clips-mcq",
        TaskKind::PanelExplanation => "atk-panels-explain",
        TaskKind::Rating => "atk-study-rate",
        TaskKind::Ranking => "atk-study-rank",
    }
}

/// A comic's id in the (public) dataset: the attacker knows the dataset's comic ids.
pub fn comic_id(k: usize) -> String {
    format!("cmpm-{k:04}")
}

/// Seeds every benchmark; `None` when the clip tools are missing and not required.
pub async fn seed_all(app: &TestApp) -> Option<String> {
    if !crate::clips::tools() {
        return None;
    }
    // The clip import probes every file with ffprobe (the slow part): the rest is seeded
    // meanwhile.
    let others = async {
        chime(app).await;
        panels(app, PANELS, 10, 100).await;
        // Other images: one comic's images in two benchmarks would be a leak of the owner's
        // making (the dev copy shows the test copy's reading order).
        panels(app, JUDGED_PANELS, 100, 400).await;
        study(app).await
    };
    let ((), invite) = tokio::join!(clips(app), others);
    Some(invite)
}

/// 130 memes of six types and one fill-in-the-blank question per meme, its answer at a
/// seeded position.
async fn chime(app: &TestApp) {
    let n = 130;
    let phrase = |k: usize| format!("梗{k}号");
    let memes: Vec<Value> = (0..n)
        .map(|k| {
            let t = MemeType::ALL[k % MemeType::ALL.len()];
            json!({"meme": phrase(k), "meaning": format!("第{k}个梗的意思，与众不同"), "origin": null,
                   "examples": [format!("他说{}。", phrase(k))], "profanity": false, "offense": false,
                   "type_cn": t.upstream_cn(), "type_en": t.upstream_en()})
        })
        .collect();
    let mut rng = SplitMix64::new(2027);
    let mcqs: Vec<Value> = (0..n)
        .map(|k| {
            let correct = rng.below(5);
            let mut others = (1..n).map(|d| phrase((k + d * 7) % n));
            let options: Vec<String> = (0..5)
                .map(|p| {
                    if p == correct {
                        phrase(k)
                    } else {
                        others.next().unwrap()
                    }
                })
                .collect();
            let map: serde_json::Map<String, Value> = options
                .iter()
                .enumerate()
                .map(|(p, o)| ((p + 1).to_string(), json!(o)))
                .collect();
            json!({"sentence": format!("第{k}句话说的是_____吧。"), "correct_answer": correct + 1, "options": map})
        })
        .collect();
    let spec = BenchmarkSpec {
        slug: "atk-chime".into(),
        title: "Attacker CHIME".into(),
        description: "seeded".into(),
        batch_size: MemeType::ALL.len(),
        quiz_open: true,
        dev_percent: 10,
        explain_batch_size: 6,
    };
    app.import_chime_values(&spec, memes, mcqs).await;
}

/// A blank PNG of the given size (the importer decodes every PNG whole).
pub fn png(width: u32, height: u32) -> Vec<u8> {
    crate::helpers::blank_png(width, height)
}

/// [`COMICS`] comics of 2–7 panels (distinct image sizes), strong order dependency, every
/// tenth one parallel; a third have a two-panel group; `dev_percent` of them on the dev split;
/// image sizes from `size` pixels up.
async fn panels(app: &TestApp, slug: &str, dev_percent: u8, size: u32) {
    let types = ["narrative", "progressive", "conversational", "comparison"];
    let mut files: HashMap<String, Vec<u8>> = HashMap::new();
    let mut lines = Vec::new();
    for k in 0..COMICS {
        let n = 2 + k % 6;
        let names: Vec<String> = (1..=n).map(|p| format!("{k}-{p}.png")).collect();
        for (p, name) in names.iter().enumerate() {
            files.insert(name.clone(), png(size + k as u32, size + p as u32));
        }
        let mut groups: Vec<Vec<usize>> = (1..=n).map(|p| vec![p]).collect();
        if n >= 4 && k % 3 == 0 {
            groups = vec![vec![1], vec![2, 3]];
            groups.extend((4..=n).map(|p| vec![p]));
        }
        let structure = if k % 10 == 9 {
            "parallel"
        } else {
            types[(k * 7 / 3) % types.len()]
        };
        lines.push(
            json!({
                "id": comic_id(k), "panels": names, "type": structure,
                "ordering_dependency": "strong", "order_groups": groups,
                "context": {"title": format!("Comic {k}"), "comments": ["lol"]},
                "relation": "complementary",
            })
            .to_string(),
        );
    }
    let spec = PanelsSpec {
        slug: slug.into(),
        title: "Attacker comics".into(),
        description: "seeded".into(),
        batch_size: 3,
        dev_percent,
        quiz_open: true,
    };
    let read = files_reader(&files);
    import_panels(
        app.storage(),
        &spec,
        "m.jsonl",
        &(lines.join("\n") + "\n"),
        &read,
    )
    .await
    .expect("import the attacker's comics");
}

/// [`CLIPS`] clips without language, the answer listed first (as the AVMeme rows and the demo do),
/// the other choices drawn from one pool so that no wording marks the answer.
async fn clips(app: &TestApp) {
    let dir = tempfile::tempdir().unwrap();
    let pool = [
        "a whistle",
        "a drum",
        "a bell",
        "a siren",
        "a violin",
        "a horn",
        "a buzzer",
        "a flute",
    ];
    let question_types = memeboard_server::import_clips::vocabulary::QUESTION_TYPES;
    let mut lines = String::new();
    for k in 0..CLIPS {
        let file = format!("{k}.wav");
        std::fs::write(dir.path().join(&file), tone_wav(200.0 + 7.0 * k as f64)).unwrap();
        let mut words = pool.to_vec();
        SplitMix64::new(k as u64).shuffle(&mut words);
        let choices: Vec<String> = words[..4].iter().map(|w| format!("{w} ({k})")).collect();
        let line = json!({
            "id": format!("clip-{k:03}"), "file": file, "question": format!("Which instrument plays in clip {k}?"),
            "choices": choices, "answer": &choices[0], "language": null,
            "sound_type": "sound_effect", "question_type": question_types[k % question_types.len()],
            "year": 2020, "summary": "a tone", "emotions": ["neutral"], "sensitivity": [],
            "visual_hint": "no_text", "text_cheat": false,
        });
        lines.push_str(&(line.to_string() + "\n"));
    }
    let spec = ClipsSpec {
        slug: "atk-clips".into(),
        task_slug: benchmark_of(TaskKind::ClipMcq).into(),
        title: "Attacker clips".into(),
        description: "seeded".into(),
        batch_size: question_types.len(),
        dev_percent: 10,
        quiz_open: true,
    };
    import_clips(app.storage(), &spec, "m.jsonl", &lines, dir.path())
        .await
        .expect("import the attacker's clips");
}

/// Two comic explanation submissions (by an author who is not the attacker) and an
/// invitation-only CMPM study of them over the [`JUDGED_PANELS`] comics with planted checks (40
/// comics per panel-count bucket, two batches; the comics left out are what planted groups are made
/// of); returns the invitation (the attacker is an invited rater).
async fn study(app: &TestApp) -> String {
    let explain = format!("{JUDGED_PANELS}-explain");
    let token = author_token(app, "Model Lab").await;
    let ids = app.manifest_ids(&explain).await;
    let mut subs = Vec::new();
    for model in ["Alpha", "Bravo"] {
        let file: String = ids
            .iter()
            .map(|id| {
                json!({"item_id": id, "explanation": format!("{model} thinks comic {id} is about a cat")})
                    .to_string()
                    + "\n"
            })
            .collect();
        let path = format!("/api/tasks/{explain}/submissions?model={model}%20{MODEL_MARK}");
        let (status, body) = raw(app, Method::POST, &path, Some(&token), file.into_bytes()).await;
        let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        assert_eq!(status, StatusCode::CREATED, "{body}");
        subs.push(body["submission_id"].as_str().unwrap().to_owned());
    }
    let request = json!({
        "slug": STUDY, "protocol": "cmpm", "submissions": {"pick": "ids", "ids": subs},
        "items_per_category": 40, "split": "dev", "invitation_only": true,
        "batch_size": 200, "raters_per_batch": 1, "planted_checks": true,
    });
    let path = format!("/api/owner/tasks/{explain}/studies");
    let (status, body) = raw(
        app,
        Method::POST,
        &path,
        Some(ADMIN),
        request.to_string().into_bytes(),
    )
    .await;
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body["invite"].as_str().unwrap().to_owned()
}

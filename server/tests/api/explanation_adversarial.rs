//! The adversarial suite of explanation scoring (with the real m3e-small model): hostile files
//! — one template sentence for every meme, the meme phrase repeated, "不知道", another meme's
//! meaning, the sentence nearest the centroid of all meanings, an empty file — must score
//! below the faithful demo model and at or near chance under the primary score (meaning
//! identification), and the true meanings lightly paraphrased near the top.

use crate::helpers::{demo_memes, test_settings, Db, TestApp};
use crate::on_both_databases;
use axum::http::StatusCode;
use memeboard_core::embed::cosine;
use memeboard_server::explain::inference::{Embedder, ModelSettings, OrtEmbedder, Pooling};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::PathBuf;

const TASK: &str = "demo-explain";
const FAITHFUL: &str = include_str!("../../demo/submissions/demo-explain/faithful.jsonl");

/// How far above chance a hostile file may score.
const NEAR_CHANCE: f64 = 0.1;

/// The models folder with m3e-small, or `None` (skip) where it is not installed and not
/// required.
fn m3e_small() -> Option<PathBuf> {
    let models = std::env::var("MEMEBOARD_TEST_MODELS")
        .ok()
        .map(PathBuf::from);
    match models {
        Some(m) if m.join("m3e-small/model.onnx").exists() => Some(m),
        _ => {
            assert!(
                std::env::var("MEMEBOARD_REQUIRE_MODELS").is_err(),
                "m3e-small required but not installed"
            );
            eprintln!("skipping: m3e-small not installed");
            None
        }
    }
}

/// A hostile file: its name, its (item id, meaning) lines, and the flag it must carry.
type Hostile = (&'static str, Vec<(String, String)>, Option<&'static str>);

/// One item of the demo task as the test knows it (gold read from the database).
struct Item {
    id: String,
    meme: String,
    meaning: String,
}

/// Uploads `lines` (one meaning per item id) as `model` of a fresh author; returns the mean
/// primary score over all items (the exact figure the board rounds), and the row's flags.
async fn primary_of(app: &TestApp, model: &str, lines: &[(String, String)]) -> (f64, Value) {
    let (_, author) = app.post("/api/authors", json!({"name": model})).await;
    let token = author["token"].as_str().unwrap();
    let body: String = lines
        .iter()
        .map(|(id, meaning)| json!({"item_id": id, "meaning": meaning}).to_string() + "\n")
        .collect();
    let (status, body) = app
        .post_file(
            &format!("/api/tasks/{TASK}/submissions?model={model}"),
            token,
            body,
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{model}: {body}");
    let id = body["submission_id"].as_str().unwrap();
    let stored = app.storage().find_submission(id).await.unwrap().unwrap();
    let per_item: Vec<Value> = serde_json::from_str(&stored.item_scores_json).unwrap();
    let mean = per_item
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .sum::<f64>()
        / per_item.len() as f64;
    let (_, board) = app.get(&format!("/api/boards/{TASK}")).await;
    let row = board["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["label"] == model)
        .cloned()
        .unwrap_or(Value::Null);
    let generic = row["extra"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| {
            e["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("answers no closer"))
        })
        .map(|e| e["value"].clone());
    eprintln!("{model}: mean {mean:.3}, generic share {generic:?} (rounded)");
    let flags = row["flags"].clone();
    (mean, flags)
}

async fn hostile_files_score_at_chance_and_below_the_faithful_model(db: Db) {
    let Some(models) = m3e_small() else { return };
    let (mut settings, dir) = test_settings(db, true).await;
    settings.model.name = "m3e-small".into();
    settings.model.dir = models.join("m3e-small");
    settings.model.onnxruntime = models.join("onnxruntime/libonnxruntime.so");
    settings.model.threads = 2;
    settings.rate_limits.uploads_per_minute = 0;
    settings.rate_limits.author_creations_per_minute = 0;
    settings.leaderboard.tokens_per_address_per_day = 20;
    settings.leaderboard.tokens_per_network_per_day = 20;
    let app = TestApp::with_settings(settings, dir).await;
    let items: Vec<Item> = app
        .items_with_gold(TASK)
        .await
        .into_iter()
        .map(|(id, prompt, gold)| Item {
            id,
            meme: prompt["meme"].as_str().unwrap().to_owned(),
            meaning: gold["meaning"].as_str().unwrap().to_owned(),
        })
        .collect();
    assert_eq!(items.len(), demo_memes());
    let each = |f: &dyn Fn(usize, &Item) -> String| -> Vec<(String, String)> {
        items
            .iter()
            .enumerate()
            .map(|(k, i)| (i.id.clone(), f(k, i)))
            .collect()
    };
    // The faithful demo model (the demo's own file, keyed by meme phrase).
    let by_meme: HashMap<&str, &str> = items
        .iter()
        .map(|i| (i.meme.as_str(), i.id.as_str()))
        .collect();
    let faithful: Vec<(String, String)> = FAITHFUL
        .lines()
        .filter_map(|l| {
            let v: Value = serde_json::from_str(l).ok()?;
            let id = by_meme.get(v["meme"].as_str()?)?;
            Some((id.to_string(), v["meaning"].as_str()?.to_owned()))
        })
        .collect();
    assert_eq!(faithful.len(), demo_memes());
    // The sentence nearest the centroid of every reference meaning.
    let embedder = OrtEmbedder::load(
        &ModelSettings {
            name: "m3e-small".into(),
            dir: models.join("m3e-small"),
            pooling: Pooling::Mean,
            onnxruntime: models.join("onnxruntime/libonnxruntime.so"),
            threads: 2,
            max_batch: 8,
            max_queue: 8,
            inline_scoring_per_client: 2,
        },
        &models,
    )
    .unwrap();
    let meanings: Vec<String> = items.iter().map(|i| i.meaning.clone()).collect();
    let vectors = embedder.embed(&meanings).unwrap();
    let mut centroid = vec![0.0f32; vectors[0].len()];
    for v in &vectors {
        for (c, x) in centroid.iter_mut().zip(v) {
            *c += x;
        }
    }
    let nearest = (0..vectors.len())
        .max_by(|&a, &b| cosine(&vectors[a], &centroid).total_cmp(&cosine(&vectors[b], &centroid)))
        .unwrap();
    let centroid_sentence = meanings[nearest].clone();

    let (faithful_score, faithful_flags) = primary_of(&app, "faithful", &faithful).await;
    assert!(faithful_score > 0.75, "faithful: {faithful_score}");
    assert!(faithful_flags.is_null(), "{faithful_flags}");
    let paraphrase = each(&|_, i| format!("这个说法的意思是：{}", i.meaning.replace('，', "、")));
    let (paraphrase_score, _) = primary_of(&app, "paraphrase", &paraphrase).await;
    assert!(
        paraphrase_score >= faithful_score - 0.05 && paraphrase_score > 0.9,
        "paraphrase {paraphrase_score} vs faithful {faithful_score}"
    );
    let hostile: Vec<Hostile> = vec![
        (
            "template",
            each(&|_, i| format!("“{}”是一个网络流行语，用来表达某种情绪或态度。", i.meme)),
            Some("filler"),
        ),
        (
            "repeated",
            each(&|_, i| i.meme.repeat(3)),
            Some("copies_prompt"),
        ),
        ("shrug", each(&|_, _| "不知道".to_owned()), None),
        // Another meme's meaning, from another type (the demo lists six of each type in a
        // row): a meaning of the same type shares its wording ("a pun on…", "short for…"),
        // which identification rightly credits in part (0.65 with the next meme's meaning).
        (
            "shifted",
            each(&|k, _| items[(k + items.len() / 2) % items.len()].meaning.clone()),
            None,
        ),
        (
            "centroid",
            each(&|_, _| centroid_sentence.clone()),
            Some("filler"),
        ),
        (
            "empty",
            vec![(items[0].id.clone(), "不知道".to_owned())],
            None,
        ),
    ];
    for (name, lines, flag) in hostile {
        let (score, flags) = primary_of(&app, name, &lines).await;
        eprintln!("{name}: {score:.3} (faithful {faithful_score:.3}) flags {flags}");
        assert!(
            score < faithful_score - 0.2,
            "{name} ({score}) must rank well below the faithful model ({faithful_score})"
        );
        assert!(
            score <= 0.5 + NEAR_CHANCE,
            "{name} ({score}) must be at or near chance"
        );
        if let Some(flag) = flag {
            assert!(
                flags.as_array().is_some_and(|f| f.contains(&json!(flag))),
                "{name} is flagged {flag}: {flags}"
            );
        }
    }
}

on_both_databases!(hostile_files_score_at_chance_and_below_the_faithful_model);

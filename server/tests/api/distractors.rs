//! `memeboard distractors`: nearest-meme distractors, deterministic and re-importable.

use crate::helpers::{demo_questions, fresh_storage, Db};
use memeboard_server::demo::{demo_spec, DEMO_MEMES};
use memeboard_server::explain::inference::{EmbeddingService, ModelSettings, Pooling};
use memeboard_server::import::distractors::regenerate;
use memeboard_server::import::{import_chime, parse_chime};
use std::collections::HashSet;

#[tokio::test]
async fn distractors_are_the_nearest_other_memes_and_reimport_cleanly() {
    let Ok(models) = std::env::var("MEMEBOARD_TEST_MODELS") else {
        assert!(
            std::env::var("MEMEBOARD_REQUIRE_MODELS").is_err(),
            "models required"
        );
        eprintln!("skipping: MEMEBOARD_TEST_MODELS is not set");
        return;
    };
    let models = std::path::PathBuf::from(models);
    let (storage, _dir) = fresh_storage(Db::Sqlite).await;
    import_chime(
        &storage,
        &demo_spec(24, 6),
        DEMO_MEMES,
        memeboard_server::demo::DEMO_MCQ,
    )
    .await
    .unwrap();
    let settings = ModelSettings {
        name: "tiny-bert".into(),
        dir: models.join("tiny-bert"),
        pooling: Pooling::Mean,
        onnxruntime: models.join("onnxruntime/libonnxruntime.so"),
        threads: 1,
        max_batch: 16,
        max_queue: 4,
        inline_scoring_per_client: 2,
    };
    let embeddings = EmbeddingService::load(&settings, &models);
    let first = regenerate(&storage, &embeddings, "demo").await.unwrap();
    let second = regenerate(&storage, &embeddings, "demo").await.unwrap();
    assert_eq!(first, second, "deterministic");
    let questions = first.as_array().unwrap();
    let n = demo_questions();
    assert_eq!(questions.len(), n);
    let original: Vec<serde_json::Value> =
        serde_json::from_str(memeboard_server::demo::DEMO_MCQ).unwrap();
    let mut positions = HashSet::new();
    let mut pattern = 0;
    for (n, (q, old)) in questions.iter().zip(&original).enumerate() {
        let options: Vec<&str> = (1..=5)
            .map(|k| q["options"][k.to_string()].as_str().unwrap())
            .collect();
        assert_eq!(
            options.iter().collect::<HashSet<_>>().len(),
            5,
            "five distinct options: {q}"
        );
        // The answer keeps its text, at a seeded position (no pattern by line).
        let k = old["correct_answer"].to_string();
        let new_k = q["correct_answer"].to_string();
        assert_eq!(q["options"][&new_k], old["options"][&k]);
        positions.insert(new_k);
        pattern += usize::from(q["correct_answer"] == n % 5 + 1);
    }
    assert_eq!(positions.len(), 5, "answers at every position");
    // Chance is n/5 matches; allow three standard deviations above it (14 of 36).
    let limit = n as f64 / 5.0 + 3.0 * (n as f64 * 0.16).sqrt();
    assert!(
        pattern as f64 <= limit,
        "a positional pattern scores {pattern}/{n}"
    );
    // The new file is a valid CHIME MCQ file for the same memes.
    let parsed =
        parse_chime(&demo_spec(24, 6), DEMO_MEMES, &first.to_string()).expect("re-importable");
    assert_eq!(parsed.items.len(), n);
}

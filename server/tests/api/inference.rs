//! The server's embedding backend (ONNX Runtime): agreement with an independent Python
//! onnxruntime run on the generated tiny model, the real m3e-small reference values, and a
//! clear message when no model is installed.

use memeboard_core::embed::{bert_score, cosine};
use memeboard_server::explain::inference::{
    Embedder, EmbeddingService, InferenceError, ModelSettings, OrtEmbedder, Pooling,
};
use std::path::PathBuf;

/// The models directory made by `scripts/model/setup-model.sh`, if the test command ran it.
fn models_dir() -> Option<PathBuf> {
    match std::env::var("MEMEBOARD_TEST_MODELS") {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) if std::env::var("MEMEBOARD_REQUIRE_MODELS").is_ok_and(|v| v == "1") => {
            panic!("MEMEBOARD_REQUIRE_MODELS=1 but MEMEBOARD_TEST_MODELS is not set")
        }
        Err(_) => {
            eprintln!(
                "skipping: MEMEBOARD_TEST_MODELS is not set (run scripts/model/setup-model.sh)"
            );
            None
        }
    }
}

fn settings(model: &str, models: &std::path::Path) -> ModelSettings {
    ModelSettings {
        name: model.into(),
        dir: models.join(model),
        pooling: Pooling::Mean,
        onnxruntime: models.join("onnxruntime/libonnxruntime.so"),
        threads: 1,
        max_batch: 4,
        max_queue: 8,
        inline_scoring_per_client: 2,
    }
}

#[test]
fn tiny_model_matches_python_onnxruntime() {
    let Some(models) = models_dir() else { return };
    let embedder =
        OrtEmbedder::load(&settings("tiny-bert", &models), &models).expect("load tiny model");
    let reference: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(models.join("tiny-bert/reference.json")).unwrap(),
    )
    .unwrap();
    let sentences: Vec<String> = reference["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_owned())
        .collect();
    // Batch of 4: the six sentences run in two batches with different padding.
    let vectors = embedder.embed(&sentences).unwrap();
    for (i, expected) in reference["embeddings"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let expected: Vec<f32> = expected
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect();
        let max_diff = vectors[i]
            .iter()
            .zip(&expected)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(max_diff < 1e-5, "sentence {i}: max abs diff {max_diff}");
    }
    assert_eq!(embedder.model_name(), "tiny-bert");
}

#[test]
fn token_vectors_drop_special_tokens() {
    let Some(models) = models_dir() else { return };
    let embedder = OrtEmbedder::load(&settings("tiny-bert", &models), &models).unwrap();
    let (vectors, dim) = embedder
        .token_vectors(&["躺平".into(), "打工人的一天".into()])
        .unwrap();
    assert_eq!(dim, 32);
    assert_eq!(vectors[0].len(), 2 * dim, "two characters, no [CLS]/[SEP]");
    assert_eq!(vectors[1].len(), 6 * dim);
    let same = bert_score(&vectors[1], &vectors[1], dim);
    assert!((same.f1 - 1.0).abs() < 1e-6);
}

#[test]
fn a_missing_model_says_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let err = OrtEmbedder::load(&settings("m3e-small", dir.path()), dir.path())
        .err()
        .expect("missing model");
    assert!(matches!(err, InferenceError::NotInstalled { .. }));
    assert!(
        err.to_string()
            .ends_with("is missing; run `scripts/model/setup-model.sh`"),
        "{err}"
    );
}

#[tokio::test]
async fn the_service_runs_off_the_executor_and_reports_a_missing_model() {
    let service = EmbeddingService::new(
        Err(InferenceError::NotInstalled {
            missing: "x".into(),
        }),
        2,
    );
    let err = service.embed(vec!["a".into()]).await.unwrap_err();
    assert!(err.to_string().starts_with("embedding model not installed"));
    let Some(models) = models_dir() else { return };
    let service = EmbeddingService::load(&settings("tiny-bert", &models), &models);
    let v = service
        .embed(vec!["躺平".into(), "躺平".into()])
        .await
        .unwrap();
    assert!((cosine(&v[0], &v[1]) - 1.0).abs() < 1e-6);
    assert_eq!(service.model_name().unwrap(), "tiny-bert");
}

#[test]
fn m3e_small_reproduces_the_reference_pair() {
    let Some(models) = models_dir() else { return };
    if !models.join("m3e-small/model.onnx").exists() {
        assert!(
            std::env::var("MEMEBOARD_REQUIRE_MODELS").is_err(),
            "m3e-small required but not installed"
        );
        eprintln!("skipping: m3e-small not installed");
        return;
    }
    let embedder = OrtEmbedder::load(&settings("m3e-small", &models), &models).unwrap();
    let pair: Vec<String> = vec![
        "这个梗用来形容事情彻底搞砸了，无法挽回。".into(),
        "这句流行语表示事情已经完全失败、没救了。".into(),
    ];
    let v = embedder.embed(&pair).unwrap();
    assert_eq!(v[0].len(), 512);
    let cos = cosine(&v[0], &v[1]);
    assert!((cos - 0.803098).abs() < 1e-5, "cos = {cos}");
    let (tokens, dim) = embedder.token_vectors(&pair).unwrap();
    let s = bert_score(&tokens[0], &tokens[1], dim);
    assert!(
        (s.precision - 0.7104).abs() < 5e-4
            && (s.recall - 0.7052).abs() < 5e-4
            && (s.f1 - 0.7078).abs() < 5e-4,
        "{s:?}"
    );
}

//! The real models against the reference implementations: token ids equal to HF
//! `tokenizers`, and sentence-embedding cosines equal (to 1e-3 with f16 weights, far closer
//! with f32) to onnxruntime on `model.onnx`, for the tiny test model and m3e-small. Fixtures
//! in `tests/data/` come from `embed/scripts/make_fixtures.py`; the models from
//! `MEMEBOARD_TEST_MODELS` (skipped when unset, unless `MEMEBOARD_REQUIRE_MODELS=1`).

use memeboard_core::embed::{bert_score, cosine};
use memeboard_embed::{Encoder, ModelManifest, Tokenizer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn required() -> bool {
    std::env::var("MEMEBOARD_REQUIRE_MODELS").is_ok_and(|v| v == "1")
}

/// The models directory made by `scripts/model/setup-model.sh`, if the test command set it.
fn models_dir() -> Option<PathBuf> {
    match std::env::var("MEMEBOARD_TEST_MODELS") {
        Ok(dir) => Some(PathBuf::from(dir)),
        Err(_) if required() => {
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

/// A model file, or `None` (with a message) when it has not been generated.
fn model_file(model: &str, file: &str) -> Option<PathBuf> {
    let path = models_dir()?.join(model).join(file);
    if path.exists() {
        return Some(path);
    }
    let hint = format!(
        "{} is missing (run scripts/model/export_f16.py for the f16 files)",
        path.display()
    );
    assert!(!required(), "MEMEBOARD_REQUIRE_MODELS=1 but {hint}");
    eprintln!("skipping: {hint}");
    None
}

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn pairs() -> Vec<[String; 2]> {
    serde_json::from_str(&data("pairs.json")).expect("pairs.json")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn encoder(model: &str, weights: &str) -> Option<Encoder> {
    let file = model_file(model, weights)?;
    let dir = file.parent().expect("model directory");
    let bytes = std::fs::read(&file).expect("weights file");
    Some(
        Encoder::from_files(
            &read(&dir.join("config.json")),
            &read(&dir.join("tokenizer.json")),
            &bytes,
        )
        .expect("model loads"),
    )
}

fn tokenizer_matches_reference(model: &str) {
    let Some(path) = model_file(model, "tokenizer.json") else {
        return;
    };
    let tokenizer = Tokenizer::from_json(&read(&path)).expect("tokenizer.json loads");
    let fixture: HashMap<String, serde_json::Value> =
        serde_json::from_str(&data("tokens.json")).expect("tokens.json");
    let sentences: Vec<String> =
        serde_json::from_value(fixture["sentences"].clone()).expect("sentences");
    let expected: Vec<Vec<u32>> =
        serde_json::from_value(fixture[model].clone()).expect("token ids");
    assert_eq!(sentences.len(), expected.len());
    // Every sentence of the pairs is covered.
    for [a, b] in pairs() {
        assert!(sentences.contains(&a) && sentences.contains(&b));
    }
    let mismatches: Vec<String> = sentences
        .iter()
        .zip(&expected)
        .filter_map(|(s, want)| {
            let got = tokenizer.encode(s);
            (&got != want).then(|| format!("{s:?}:\n  got  {got:?}\n  want {want:?}"))
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{model}: {} of {} sentences differ from HF tokenizers:\n{}",
        mismatches.len(),
        sentences.len(),
        mismatches.join("\n")
    );
    eprintln!(
        "{model}: token ids equal to HF tokenizers for all {} sentences",
        sentences.len()
    );
}

#[test]
fn tiny_tokenizer_matches_hf_tokenizers() {
    tokenizer_matches_reference("tiny-bert");
}

#[test]
fn m3e_tokenizer_matches_hf_tokenizers() {
    tokenizer_matches_reference("m3e-small");
}

/// Embeds every sentence of the pairs and compares the cosines with onnxruntime's; returns
/// the encoder for further checks.
fn cosines_match_onnxruntime(model: &str, weights: &str, tolerance: f64) -> Option<Encoder> {
    let encoder = encoder(model, weights)?;
    let reference: HashMap<String, Vec<f64>> =
        serde_json::from_str(&data("cosines.json")).expect("cosines.json");
    let reference = &reference[model];
    let pairs = pairs();
    assert_eq!(pairs.len(), reference.len());
    assert!(pairs.len() >= 200);
    let mut vectors: HashMap<&str, Vec<f32>> = HashMap::new();
    for s in pairs.iter().flatten() {
        if !vectors.contains_key(s.as_str()) {
            vectors.insert(s, encoder.embed(s).expect("embed"));
        }
    }
    let (mut worst, mut at) = (0.0f64, 0);
    for (i, ([a, b], &want)) in pairs.iter().zip(reference).enumerate() {
        let got = cosine(&vectors[a.as_str()], &vectors[b.as_str()]);
        let diff = (got - want).abs();
        if diff > worst {
            (worst, at) = (diff, i);
        }
    }
    eprintln!(
        "{model} {weights}: max |cos_rust - cos_ort| = {worst:.2e} over {} pairs ({} sentences; worst pair {at})",
        pairs.len(),
        vectors.len()
    );
    assert!(
        worst < tolerance,
        "{model} {weights}: pair {at} {:?} differs by {worst:e} (tolerance {tolerance:e})",
        pairs[at]
    );
    Some(encoder)
}

#[test]
fn tiny_f32_matches_onnxruntime() {
    let Some(encoder) = cosines_match_onnxruntime("tiny-bert", "model.safetensors", 1e-5) else {
        return;
    };
    // The vectors themselves, against the Python onnxruntime run of the server tests.
    let reference: serde_json::Value = serde_json::from_str(&read(
        &models_dir().unwrap().join("tiny-bert/reference.json"),
    ))
    .unwrap();
    let sentences = reference["sentences"].as_array().unwrap();
    let embeddings = reference["embeddings"].as_array().unwrap();
    for (s, want) in sentences.iter().zip(embeddings) {
        let got = encoder.embed(s.as_str().unwrap()).unwrap();
        let want: Vec<f64> = serde_json::from_value(want.clone()).unwrap();
        let diff = got
            .iter()
            .zip(&want)
            .map(|(&g, &w)| (f64::from(g) - w).abs())
            .fold(0.0, f64::max);
        assert!(diff < 1e-5, "{s}: max abs diff {diff}");
    }
}

#[test]
fn tiny_f16_matches_onnxruntime() {
    cosines_match_onnxruntime("tiny-bert", "model.f16.safetensors", 1e-3);
}

#[test]
fn m3e_f32_matches_onnxruntime() {
    let Some(encoder) = cosines_match_onnxruntime("m3e-small", "model.safetensors", 1e-5) else {
        return;
    };
    // The project's reference pair.
    let a = encoder
        .embed("这个梗用来形容事情彻底搞砸了，无法挽回。")
        .unwrap();
    let b = encoder
        .embed("这句流行语表示事情已经完全失败、没救了。")
        .unwrap();
    let cos = cosine(&a, &b);
    assert!((cos - 0.803098).abs() < 1e-4, "reference pair cosine {cos}");
    assert_eq!(a.len(), 512);

    // Token vectors: one unit vector per token, [CLS]/[SEP] dropped; BERTScore of a text with
    // itself is 1.
    let text = "他说自己退出内卷之后，睡眠质量明显变好了。";
    let (rows, dim) = encoder.token_vectors(text).unwrap();
    assert_eq!(dim, 512);
    assert_eq!(rows.len() / dim, encoder.tokenizer().encode(text).len() - 2);
    for row in rows.chunks_exact(dim) {
        let norm = row.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-5);
    }
    let self_score = bert_score(&rows, &rows, dim);
    assert!((self_score.f1 - 1.0).abs() < 1e-6);
    let (empty, _) = encoder.token_vectors("").unwrap();
    assert!(empty.is_empty());
}

#[test]
fn m3e_f16_matches_onnxruntime() {
    cosines_match_onnxruntime("m3e-small", "model.f16.safetensors", 1e-3);
}

#[test]
fn browser_manifest_describes_the_f16_weights() {
    for model in ["tiny-bert", "m3e-small"] {
        let Some(path) = model_file(model, "browser.json") else {
            return;
        };
        let manifest: ModelManifest = serde_json::from_str(&read(&path)).unwrap();
        let dir = path.parent().unwrap();
        let weights = dir.join(&manifest.weights);
        assert_eq!(
            std::fs::metadata(&weights).unwrap().len(),
            manifest.bytes,
            "{model}"
        );
        assert_eq!(manifest.sha256.len(), 64);
        assert!(dir.join(&manifest.tokenizer).exists());
        let config: serde_json::Value =
            serde_json::from_str(&read(&dir.join("config.json"))).unwrap();
        assert_eq!(
            manifest.config.hidden_size as u64,
            config["hidden_size"].as_u64().unwrap()
        );
    }
}

//! `memeboard distractors`: regenerates text-meme MCQ distractors the way CHIME built them —
//! the four memes whose embeddings are nearest (cosine) to the answer meme, excluding the
//! meme itself and exact-duplicate phrases — and writes the questions in the upstream
//! `chime_mcq.json` format, ready to re-import. Deterministic for a given model.

use crate::explain::inference::EmbeddingService;
use crate::storage::Storage;
use anyhow::Context;
use memeboard_core::embed::nearest;
use memeboard_core::kinds::{text_mcq, ItemGold, ItemPrompt};
use serde_json::{json, Value};
use std::collections::HashMap;

/// Distractors per question (five options in all).
pub const DISTRACTORS: usize = 4;

/// Builds the MCQ file of benchmark `slug` with regenerated distractors. The answer goes to a
/// position drawn from a hash of the benchmark and sentence (seeded, deterministic, uniform
/// over the five positions, unrelated to the stored order or to the line number); the other
/// positions get the nearest memes, most similar first.
pub async fn regenerate(
    storage: &Storage,
    embeddings: &EmbeddingService,
    slug: &str,
) -> anyhow::Result<Value> {
    let memes = storage.benchmark_memes(slug).await?;
    anyhow::ensure!(
        !memes.is_empty(),
        "benchmark `{slug}` has no memes (import it first)"
    );
    let phrases: Vec<String> = memes.iter().map(|m| m.phrase.clone()).collect();
    let vectors = embeddings
        .embed(phrases.clone())
        .await
        .context("embedding the meme phrases")?;
    let index: HashMap<&str, usize> = memes
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.as_str(), i))
        .collect();
    let task = format!("{slug}-mcq");
    let items = storage.task_items(&task).await?;
    let sources: HashMap<String, Option<String>> =
        storage.item_memes(&task).await?.into_iter().collect();
    let mut out = Vec::new();
    for item in &items {
        // Distractors are a text-MCQ concern: other kinds' items are skipped.
        let ItemPrompt::TextMcq(text_mcq::Prompt { sentence, .. }) =
            serde_json::from_str(&item.prompt_json)?
        else {
            continue;
        };
        let ItemGold::TextMcq(_) = serde_json::from_str(&item.gold_json)? else {
            continue;
        };
        let Some(target) = sources
            .get(&item.id)
            .cloned()
            .flatten()
            .and_then(|m| index.get(m.as_str()).copied())
        else {
            anyhow::bail!("question `{}` has no source meme", item.id);
        };
        let near = nearest(target, &vectors, &phrases, DISTRACTORS);
        anyhow::ensure!(
            near.len() == DISTRACTORS,
            "benchmark `{slug}` has too few distinct memes for {DISTRACTORS} distractors"
        );
        let mut fill = near.iter().map(|&i| phrases[i].clone());
        let mut new_options = serde_json::Map::new();
        let n_options = DISTRACTORS + 1;
        let correct = answer_position(slug, &sentence, n_options);
        for position in 0..n_options {
            let text = if position == correct {
                phrases[target].clone()
            } else {
                fill.next().unwrap_or_default()
            };
            new_options.insert((position + 1).to_string(), Value::String(text));
        }
        out.push(
            json!({ "sentence": sentence, "correct_answer": correct + 1, "options": new_options }),
        );
    }
    Ok(Value::Array(out))
}

/// Where the answer goes among `n_options`: from a hash of the benchmark and the sentence.
pub fn answer_position(slug: &str, sentence: &str, n_options: usize) -> usize {
    let h = memeboard_core::ids::fnv1a64(format!("distractors/{slug}/{sentence}").as_bytes());
    (h % n_options.max(1) as u64) as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn answer_positions_cover_every_position_without_a_pattern() {
        let n = 500;
        let mut counts = [0usize; 5];
        let mut pattern = 0;
        for k in 0..n {
            let p = super::answer_position("demo", &format!("sentence {k} _____"), 5);
            counts[p] += 1;
            pattern += usize::from(p == k % 5);
        }
        assert!(
            counts.iter().all(|&c| c > n / 5 - 40 && c < n / 5 + 40),
            "{counts:?}"
        );
        assert!(pattern < n / 5 + 40, "{pattern}");
    }
}

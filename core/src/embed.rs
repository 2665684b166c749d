//! Sentence-embedding post-processing shared by every embedding backend (server ONNX Runtime,
//! browser WebGPU/CPU): mean pooling over the attention mask, L2 normalisation, cosine
//! similarity, BERTScore greedy matching and baseline rescaling. Keeping it in one place is
//! what makes the backends give the same numbers.

use serde::{Deserialize, Serialize};

pub mod identification;

/// Mean of the token vectors whose mask is 1 (`hidden` is `tokens × dim`, row-major).
///
/// ```
/// use memeboard_core::embed::mean_pool;
/// // Two tokens of dim 2, the second masked out (padding).
/// assert_eq!(mean_pool(&[1.0, 3.0, 100.0, 100.0], &[1, 0], 2), vec![1.0, 3.0]);
/// assert_eq!(mean_pool(&[1.0, 3.0, 3.0, 5.0], &[1, 1], 2), vec![2.0, 4.0]);
/// ```
pub fn mean_pool(hidden: &[f32], mask: &[u32], dim: usize) -> Vec<f32> {
    let mut sum = vec![0.0f32; dim];
    let mut count = 0.0f32;
    for (token, &m) in hidden.chunks_exact(dim).zip(mask) {
        if m != 0 {
            for (s, &h) in sum.iter_mut().zip(token) {
                *s += h;
            }
            count += 1.0;
        }
    }
    if count > 0.0 {
        sum.iter_mut().for_each(|s| *s /= count);
    }
    sum
}

/// Scales `v` to unit length in place (a zero vector stays zero).
///
/// ```
/// let mut v = vec![3.0f32, 4.0];
/// memeboard_core::embed::l2_normalize(&mut v);
/// assert_eq!(v, vec![0.6, 0.8]);
/// ```
pub fn l2_normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// Cosine similarity of two vectors (accumulated in f64 for stability).
///
/// ```
/// use memeboard_core::embed::cosine;
/// assert!((cosine(&[1.0, 0.0], &[1.0, 1.0]) - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-7);
/// assert!((cosine(&[1.0, 2.0], &[-1.0, -2.0]) + 1.0).abs() < 1e-12);
/// ```
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0.0f64, 0.0f64, 0.0f64);
    for (&x, &y) in a.iter().zip(b) {
        dot += f64::from(x) * f64::from(y);
        na += f64::from(x) * f64::from(x);
        nb += f64::from(y) * f64::from(y);
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    (dot / (na.sqrt() * nb.sqrt())).clamp(-1.0, 1.0)
}

/// BERTScore precision, recall and F1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BertScore {
    /// Mean over candidate tokens of the best cosine to a reference token.
    pub precision: f64,
    /// Mean over reference tokens of the best cosine to a candidate token.
    pub recall: f64,
    /// Harmonic mean of the two.
    pub f1: f64,
}

/// BERTScore by greedy matching (Zhang et al., 2020, without idf weighting): every token of
/// one text is matched to its most similar token of the other. Inputs are token vectors
/// (`tokens × dim`, special tokens like `[CLS]`/`[SEP]` already dropped).
///
/// **Special tokens, compared with the `bert_score` package.** The server
/// (`token_vectors` in `server/src/explain/inference.rs`) drops `[CLS]` and `[SEP]` from both texts
/// before calling this, so they are neither averaged over nor available as match targets.
/// `bert_score` gives them idf weight 0 (so they are not averaged over either, with or without
/// `idf=True`) but keeps them in the similarity matrix, where a content token may take its
/// maximum on the other text's `[CLS]`/`[SEP]`. With the same token vectors, our precision and
/// recall are therefore less than or equal to `bert_score`'s (fewer targets for each max), and
/// equal whenever no content token's best match is a special token. Two further differences:
/// we use the model's last hidden layer (`bert_score` picks a tuned layer per model), and we
/// apply no baseline rescaling here (see [`rescale`]).
///
/// **F1.** The harmonic mean is only meaningful for positive precision and recall: cosines
/// can be negative, and `2PR/(P+R)` is then negative or unbounded (P = −0.49, R = 0.5 gives
/// −49). F1 is 0 when precision or recall is ≤ 0 (in particular when P + R ≤ 0).
///
/// Worked example: candidate tokens {e1, e2}, reference tokens {e1}: precision = (1 + 0)/2 =
/// 0.5, recall = 1, F1 = 2·0.5·1/1.5 = 0.667.
///
/// ```
/// use memeboard_core::embed::bert_score;
/// let s = bert_score(&[1.0, 0.0, 0.0, 1.0], &[1.0, 0.0], 2);
/// assert_eq!((s.precision, s.recall), (0.5, 1.0));
/// assert!((s.f1 - 2.0 / 3.0).abs() < 1e-12);
/// ```
pub fn bert_score(candidate: &[f32], reference: &[f32], dim: usize) -> BertScore {
    let c: Vec<&[f32]> = candidate.chunks_exact(dim).collect();
    let r: Vec<&[f32]> = reference.chunks_exact(dim).collect();
    if c.is_empty() || r.is_empty() {
        return BertScore {
            precision: 0.0,
            recall: 0.0,
            f1: 0.0,
        };
    }
    let sim: Vec<Vec<f64>> = c
        .iter()
        .map(|x| r.iter().map(|y| cosine(x, y)).collect())
        .collect();
    let precision = sim
        .iter()
        .map(|row| row.iter().copied().fold(f64::NEG_INFINITY, f64::max))
        .sum::<f64>()
        / c.len() as f64;
    let recall = (0..r.len())
        .map(|j| {
            sim.iter()
                .map(|row| row[j])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .sum::<f64>()
        / r.len() as f64;
    let f1 = if precision > 0.0 && recall > 0.0 {
        2.0 * precision * recall / (precision + recall)
    } else {
        0.0
    };
    BertScore {
        precision,
        recall,
        f1,
    }
}

/// Baseline rescaling (as BERTScore does): maps the baseline (e.g. the mean similarity of
/// random explanation pairs of the dataset) to 0 and a perfect 1 to 1, so that the compressed
/// raw cosines of a model become readable. Values below the baseline go negative.
///
/// ```
/// use memeboard_core::embed::rescale;
/// assert!((rescale(0.85, 0.7) - 0.5).abs() < 1e-12);
/// assert_eq!(rescale(1.0, 0.7), 1.0);
/// assert_eq!(rescale(0.7, 0.7), 0.0);
/// ```
pub fn rescale(score: f64, baseline: f64) -> f64 {
    if baseline >= 1.0 {
        return score;
    }
    (score - baseline) / (1.0 - baseline)
}

/// The `k` items most similar to item `target` by cosine of their vectors, most similar
/// first, skipping the item itself and every item whose `key` equals the target's (exact
/// duplicate phrases). Ties go to the lower index, so the result is deterministic.
///
/// This is how text-meme MCQ distractors are chosen: the 4 memes nearest to the answer.
///
/// ```
/// use memeboard_core::embed::nearest;
/// let v = vec![vec![1.0, 0.0], vec![0.9, 0.1], vec![0.0, 1.0], vec![1.0, 0.0], vec![0.7, 0.7]];
/// let keys = ["a", "b", "c", "a", "e"];
/// // Item 3 has the same phrase as item 0, so it is skipped although identical.
/// assert_eq!(nearest(0, &v, &keys, 2), vec![1, 4]);
/// ```
pub fn nearest<K: PartialEq>(
    target: usize,
    vectors: &[Vec<f32>],
    keys: &[K],
    k: usize,
) -> Vec<usize> {
    let mut scored: Vec<(f64, usize)> = vectors
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != target && keys[i] != keys[target])
        .map(|(i, v)| (cosine(&vectors[target], v), i))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(k).map(|(_, i)| i).collect()
}

#[cfg(test)]
mod bert_score_tests {
    use super::bert_score;

    #[test]
    fn f1_is_zero_unless_precision_and_recall_are_positive() {
        // Opposite vectors: precision = recall = -1, so P + R < 0.
        let s = bert_score(&[1.0, 0.0], &[-1.0, 0.0], 2);
        assert_eq!((s.precision, s.recall, s.f1), (-1.0, -1.0, 0.0));
        // R < 0 < P with P + R > 0: 2PR/(P+R) was negative (here -0.6; unbounded as P + R
        // approaches 0). One candidate token; reference tokens at cosine -1 and 0.6 to it.
        let cand = [-1.0, 0.0];
        let reference = [1.0, 0.0, -0.6, 0.8];
        let s = bert_score(&cand, &reference, 2);
        assert!(s.precision > 0.0 && s.recall < 0.0, "{s:?}");
        assert_eq!(s.f1, 0.0);
        assert!(s.f1 >= 0.0 && s.f1 <= 1.0);
    }
}

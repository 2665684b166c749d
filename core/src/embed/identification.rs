//! Meaning identification, the primary score of explanations: does an explanation pick out
//! *its* meme's meaning among the meanings of other memes? A sentence that fits every meme
//! alike ("a popular phrase that expresses an attitude") is as close to the other meanings as
//! to its own and scores at chance, whatever the embedding model's cosine scale.

/// The score of an explanation that fits every meme alike, of a non-answer, of a missing
/// prediction and of an answer flagged as filler: chance.
pub const CHANCE: f64 = 0.5;

/// Fewest other reference meanings a pool needs for identification to mean anything.
pub const MIN_POOL: usize = 5;

/// Half-width of the band in which two cosines count as (partly) tied. The browser's model
/// (f16 weights, WebGPU or CPU) and the server's (f32, onnxruntime) give cosines that differ
/// by up to about 1e-4 (docs/performance.md); with a hard comparison, one near-tie decided
/// differently moves the score by a whole pair (1/60 of a pool of 60 meanings). Inside the
/// band the credit ramps linearly, so the score is continuous in the cosines: a near-tie read
/// differently moves it by `|Δcos| / (2 · TIE_BAND)` of a pair (a twentieth at 1e-4), not a
/// whole one. The band is narrow beside the spread of cosines between different meanings
/// (m3e-small: 0.57–0.88), so only pairs the models cannot tell apart are graded; cosines
/// further apart count as before.
pub const TIE_BAND: f64 = 0.001;

/// Identification of one explanation (an AUC): the share of the pool's other reference
/// meanings that the explanation is *less* similar to than to its own reference, ties
/// counting half. It is the chance that the explanation, shown its own meme's meaning and one
/// other drawn from the pool, is closer to its own: 1 = closer to its own meaning than to any
/// other, [`CHANCE`] = no better than guessing, 0 = closer to every other meaning. `own` is
/// the cosine to its own reference, `others` the cosines to the pool's other references.
/// A near-tie (within [`TIE_BAND`]) earns `½ + (own − other) / (2 · TIE_BAND)`, from 0 to 1.
/// `None` when the pool is empty.
///
/// Worked example: own cosine 0.80; the others 0.90 (above), 0.80 (a tie), 0.50 and 0.30
/// (below): (2 + ½) / 4 = 0.625. With 0.8005 in place of the tie (own is 0.0005 below it,
/// half the band): credit ½ − 0.0005 / 0.002 = ¼, and (2 + ¼) / 4 = 0.5625.
///
/// ```
/// use memeboard_core::embed::identification::identification;
/// assert_eq!(identification(0.8, &[0.9, 0.8, 0.5, 0.3]), Some(0.625));
/// let near = identification(0.8, &[0.9, 0.8005, 0.5, 0.3]).unwrap();
/// assert!((near - 0.5625).abs() < 1e-12);
/// assert_eq!(identification(0.99, &[0.2, 0.1]), Some(1.0));
/// assert_eq!(identification(0.8, &[]), None);
/// ```
pub fn identification(own: f64, others: &[f64]) -> Option<f64> {
    if others.is_empty() {
        return None;
    }
    let credit: f64 = others.iter().map(|&other| pair_credit(own - other)).sum();
    Some(credit / others.len() as f64)
}

/// The credit of one pair whose cosines differ by `gap` (own minus other): 1 above the band,
/// 0 below it, linear inside ([`TIE_BAND`]); ½ at an exact tie (and -0.0 is 0.0).
fn pair_credit(gap: f64) -> f64 {
    if gap >= TIE_BAND {
        1.0
    } else if gap <= -TIE_BAND {
        0.0
    } else {
        0.5 + gap / (2.0 * TIE_BAND)
    }
}

/// What an answer is credited with: its identification, but never more than [`CHANCE`] when
/// it was flagged as filler (a template, the centroid, the prompt copied) — a flag never helps
/// and a filler never beats chance.
///
/// ```
/// use memeboard_core::embed::identification::{credited, CHANCE};
/// assert_eq!(credited(0.9, false), 0.9);
/// assert_eq!(credited(0.9, true), CHANCE);
/// assert_eq!(credited(0.2, true), 0.2);
/// ```
pub fn credited(identification: f64, flagged: bool) -> f64 {
    if flagged {
        identification.min(CHANCE)
    } else {
        identification
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cases written out by `scripts/reference/identification.py` (the Mann–Whitney U
    /// statistic from average ranks, an independent computation of the same AUC).
    #[test]
    fn agrees_with_the_python_reference() {
        let cases: Vec<serde_json::Value> =
            serde_json::from_str(include_str!("identification_reference.json")).unwrap();
        assert!(cases.len() >= 20);
        for case in cases {
            let own = case["own"].as_f64().unwrap();
            let others: Vec<f64> = case["others"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let expected = case["auc"].as_f64().unwrap();
            let got = identification(own, &others).unwrap();
            assert!(
                (got - expected).abs() < 1e-12,
                "{case}: {got} vs {expected}"
            );
        }
    }

    #[test]
    fn near_ties_move_the_score_continuously() {
        // A shift of 1e-4 in one cosine of a near-tie moves a pool of 60 by 1e-4/0.002/60.
        let others: Vec<f64> = (0..60).map(|k| 0.3 + k as f64 * 0.01).collect();
        let own = others[30] + 0.0005;
        let a = identification(own, &others).unwrap();
        let b = identification(own + 1e-4, &others).unwrap();
        assert!(
            (b - a - 1e-4 / (2.0 * TIE_BAND) / 60.0).abs() < 1e-12,
            "{a} {b}"
        );
        assert_eq!(pair_credit(TIE_BAND), 1.0);
        assert_eq!(pair_credit(-TIE_BAND), 0.0);
        assert_eq!(pair_credit(0.0), 0.5);
    }

    #[test]
    fn a_sentence_equally_close_to_every_meaning_scores_chance() {
        assert_eq!(identification(0.7, &[0.7; 9]), Some(CHANCE));
        assert_eq!(identification(0.0, &[-0.0, 0.0]), Some(CHANCE));
    }
}

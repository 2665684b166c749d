//! The headphone screening of clip quizzes, scored by the server: the antiphase-tone test of
//! Woods, Siegel, Traer & McDermott (2017), "Headphone screening to facilitate web-based
//! auditory experiments" (Attention, Perception, & Psychophysics 79:2064–2072).
//!
//! Each of six trials plays three 1 s, 200 Hz pure tones with 0.5 s gaps: one at the reference
//! level, one 6 dB quieter (the right answer), and one at the reference level but in antiphase
//! between the left and right channels. Over loudspeakers the antiphase tone partly cancels in
//! the air and sounds quietest; over headphones it does not, so only headphone listeners
//! reliably pick the −6 dB tone. The order of every trial is drawn here from OS randomness
//! (never from public data) and kept in the database as the check's answer key; the page gets
//! a random check id and plays `sounds/{k}` (one WAV per trial), sends the positions chosen
//! with the session start, and the server scores them once ([`score`]). The page never holds
//! the right answers, so it cannot score itself.

use crate::error::{ApiError, ApiResult};
use crate::ids::random_hex;
use crate::storage::{QuizRow, Storage};
use anyhow::Context;
use memeboard_core::api::{HeadphoneCheck, HeadphoneCheckStart};
use memeboard_core::msg;

/// Trials in the test (Woods et al. use six).
pub const TRIALS: u8 = 6;
/// Sample rate of the sounds (Hz): far above twice the tone, and small files (128 KB a trial).
const RATE: u32 = 8_000;
/// Tone frequency (Hz).
const TONE_HZ: f64 = 200.0;
/// Length of each tone (s).
const TONE_S: f64 = 1.0;
/// Silence between tones (s).
const GAP_S: f64 = 0.5;
/// Raised-cosine onset and offset ramps (s), so the tones start and stop without clicks.
const RAMP_S: f64 = 0.1;
/// Amplitude of the reference tone (full scale = 1): loud enough to hear, far from clipping.
const LEVEL: f64 = 0.25;
/// Level of the quiet tone relative to the reference (dB).
const QUIET_DB: f64 = -6.0;
/// Length of the calibration tone (s).
const CALIBRATION_S: f64 = 4.0;

/// One of a trial's three tones (stored as its number in the answer key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    /// Reference level, in phase.
    Reference = 0,
    /// 6 dB below the reference, in phase: the right answer.
    Quiet = 1,
    /// Reference level, the right channel inverted.
    Antiphase = 2,
}

impl Tone {
    fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Self::Reference),
            1 => Some(Self::Quiet),
            2 => Some(Self::Antiphase),
            _ => None,
        }
    }
}

/// Six trials in random order (Fisher–Yates over OS randomness), as tone codes.
fn draw_key() -> ApiResult<Vec<[u8; 3]>> {
    let mut bytes = [0u8; 2 * TRIALS as usize];
    getrandom::fill(&mut bytes)
        .map_err(|e| ApiError::Unexpected(anyhow::anyhow!("OS randomness unavailable: {e}")))?;
    Ok(bytes
        .chunks(2)
        .map(|r| {
            let mut t = [0u8, 1, 2];
            // Rejection-free but unbiased enough: 256 mod 3 and mod 2 bias below 0.4 %.
            t.swap(2, usize::from(r[0]) % 3);
            t.swap(1, usize::from(r[1]) % 2);
            t
        })
        .collect())
}

/// The 0-based position of the quiet tone in each trial of a stored key.
fn quiet_positions(key: &[[u8; 3]]) -> Vec<u8> {
    key.iter()
        .map(|t| t.iter().position(|c| *c == Tone::Quiet as u8).unwrap_or(0) as u8)
        .collect()
}

fn decode_key(json: &str) -> ApiResult<Vec<[u8; 3]>> {
    Ok(crate::storage::decode_json(
        "headphone_checks.key_json",
        json,
    )?)
}

/// `POST /api/quizzes/{slug}/headphone-checks`: draws a check for an open quiz and stores its
/// answer key.
pub async fn create(storage: &Storage, quiz: &QuizRow) -> ApiResult<HeadphoneCheckStart> {
    let key = draw_key()?;
    let id = random_hex(16)?;
    let key_json = serde_json::to_string(&key).context("encode headphone key")?;
    storage
        .create_headphone_check(&id, &quiz.task.id, &key_json)
        .await?;
    Ok(HeadphoneCheckStart { id, trials: TRIALS })
}

/// `GET /api/headphone-checks/{id}/sounds/{trial}`: trial `1..=6` of the check as a WAV file,
/// `0` the calibration tone.
pub async fn sound(storage: &Storage, id: &str, trial: u8) -> ApiResult<Vec<u8>> {
    let missing = || ApiError::NotFound(msg!("headphone.not_found", id = id, trial = trial));
    let check = storage.headphone_check(id).await?.ok_or_else(missing)?;
    let tones: Vec<Tone> = if trial == 0 {
        vec![Tone::Reference]
    } else {
        let key = decode_key(&check.key_json)?;
        let codes = key.get(usize::from(trial) - 1).ok_or_else(missing)?;
        codes.iter().filter_map(|c| Tone::from_code(*c)).collect()
    };
    let tone_s = if trial == 0 { CALIBRATION_S } else { TONE_S };
    let (left, right) = render(&tones, tone_s, f64::from(RATE));
    Ok(wav(&left, &right, RATE))
}

/// Scores the answers sent with a session start against the check's stored key, once: the
/// first answers stored for a check are the ones scored (a resent start repeats them; other
/// answers are refused, so a check cannot be probed). Returns the stored form of the result:
/// trials, right answers and the pass (at least 5 of 6 right, Woods et al.'s criterion).
pub async fn score(
    storage: &Storage,
    quiz: &QuizRow,
    check: Option<HeadphoneCheck>,
) -> ApiResult<String> {
    let check = check.ok_or_else(|| ApiError::BadRequest(msg!("quiz.headphone_check_missing")))?;
    if check.answers.len() != usize::from(TRIALS) || check.answers.iter().any(|a| *a > 2) {
        return Err(ApiError::BadRequest(msg!(
            "quiz.headphone_check_invalid",
            trials = TRIALS
        )));
    }
    let unknown = || ApiError::BadRequest(msg!("quiz.headphone_check_unknown"));
    if check.id.len() > 64 {
        return Err(unknown());
    }
    let answers_json = serde_json::to_string(&check.answers).context("encode answers")?;
    let stored = storage
        .answer_headphone_check(&check.id, &answers_json)
        .await?
        .filter(|c| c.task_id == quiz.task.id)
        .ok_or_else(unknown)?;
    if stored.answers_json.as_deref() != Some(answers_json.as_str()) {
        return Err(ApiError::Conflict(msg!("quiz.headphone_check_answered")));
    }
    let key = quiet_positions(&decode_key(&stored.key_json)?);
    let correct = key
        .iter()
        .zip(&check.answers)
        .filter(|(k, a)| k == a)
        .count() as u32;
    let trials = u32::from(TRIALS);
    let passed = correct * 6 >= trials * 5;
    Ok(serde_json::json!({"trials": trials, "correct": correct, "passed": passed}).to_string())
}

/// Debug builds only (the browser tests): the quiet tone's 0-based position in each trial.
/// Release builds have no such route, so nothing that ships can read a check's answers.
#[cfg(debug_assertions)]
pub async fn answer_key(storage: &Storage, id: &str) -> ApiResult<Vec<u8>> {
    let check = storage
        .headphone_check(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(msg!("headphone.not_found", id = id, trial = 0)))?;
    Ok(quiet_positions(&decode_key(&check.key_json)?))
}

/// Left and right samples of `tones`, each `tone_s` long with [`GAP_S`] between, at `rate` Hz.
fn render(tones: &[Tone], tone_s: f64, rate: f64) -> (Vec<f32>, Vec<f32>) {
    let tone_len = (tone_s * rate).round() as usize;
    let gap_len = (GAP_S * rate).round() as usize;
    let ramp_len = ((RAMP_S * rate).round() as usize).clamp(1, tone_len / 2 + 1);
    let total = tones.len() * tone_len + tones.len().saturating_sub(1) * gap_len;
    let mut left = vec![0.0f32; total];
    let mut right = vec![0.0f32; total];
    let quiet = 10f64.powf(QUIET_DB / 20.0);
    for (k, tone) in tones.iter().enumerate() {
        let (gain_l, gain_r) = match tone {
            Tone::Reference => (LEVEL, LEVEL),
            Tone::Quiet => (LEVEL * quiet, LEVEL * quiet),
            Tone::Antiphase => (LEVEL, -LEVEL),
        };
        let start = k * (tone_len + gap_len);
        for n in 0..tone_len {
            let edge = n.min(tone_len - 1 - n);
            let envelope = if edge < ramp_len {
                0.5 - 0.5 * (std::f64::consts::PI * edge as f64 / ramp_len as f64).cos()
            } else {
                1.0
            };
            let s = (2.0 * std::f64::consts::PI * TONE_HZ * n as f64 / rate).sin() * envelope;
            left[start + n] = (s * gain_l) as f32;
            right[start + n] = (s * gain_r) as f32;
        }
    }
    (left, right)
}

/// A 16-bit stereo PCM WAV file of `left` and `right` at `rate` Hz.
fn wav(left: &[f32], right: &[f32], rate: u32) -> Vec<u8> {
    let frames = left.len().min(right.len());
    let data_len = (frames * 4) as u32;
    let mut out = Vec::with_capacity(44 + frames * 4);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&2u16.to_le_bytes()); // stereo
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 4).to_le_bytes()); // bytes per second
    out.extend_from_slice(&4u16.to_le_bytes()); // bytes per frame
    out.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    let pcm = |s: f32| ((s.clamp(-1.0, 1.0) * 32767.0).round() as i16).to_le_bytes();
    for n in 0..frames {
        out.extend_from_slice(&pcm(left[n]));
        out.extend_from_slice(&pcm(right[n]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peak(samples: &[f32]) -> f32 {
        samples.iter().fold(0.0f32, |m, s| m.max(s.abs()))
    }

    #[test]
    fn a_trial_has_a_quiet_tone_and_an_antiphase_one() {
        let rate = 8000.0;
        let trial = [Tone::Antiphase, Tone::Reference, Tone::Quiet];
        let (l, r) = render(&trial, TONE_S, rate);
        let tone = (TONE_S * rate) as usize;
        let gap = (GAP_S * rate) as usize;
        assert_eq!(l.len(), 3 * tone + 2 * gap);
        let part = |s: &[f32], k: usize| s[k * (tone + gap)..k * (tone + gap) + tone].to_vec();
        // Antiphase: right = -left, same level as the reference.
        let (a_l, a_r) = (part(&l, 0), part(&r, 0));
        assert!(a_l.iter().zip(&a_r).all(|(x, y)| (x + y).abs() < 1e-6));
        let reference = peak(&part(&l, 1));
        assert!((peak(&a_l) - reference).abs() < 1e-3);
        // Quiet: 6 dB down, in phase.
        let (q_l, q_r) = (part(&l, 2), part(&r, 2));
        assert!((peak(&q_l) / reference - 0.501).abs() < 0.01);
        assert_eq!(q_l, q_r);
        // Silent gaps, and ramps that start from silence.
        assert!(l[tone..tone + gap].iter().all(|s| *s == 0.0));
        assert!(l[0].abs() < 1e-6);
        assert_eq!(quiet_positions(&[[2, 0, 1]]), vec![2]);
    }

    #[test]
    fn keys_are_permutations_and_vary() {
        let keys: Vec<Vec<[u8; 3]>> = (0..20).map(|_| draw_key().unwrap()).collect();
        for key in &keys {
            assert_eq!(key.len(), usize::from(TRIALS));
            for t in key {
                let mut s = *t;
                s.sort_unstable();
                assert_eq!(s, [0, 1, 2]);
            }
        }
        // Every position of the quiet tone occurs over 120 trials.
        let positions: Vec<u8> = keys.iter().flat_map(|k| quiet_positions(k)).collect();
        for p in 0..3 {
            assert!(positions.contains(&p), "{p}");
        }
    }

    #[test]
    fn a_wav_header_describes_its_samples() {
        let (l, r) = render(&[Tone::Reference], 0.5, 8000.0);
        let w = wav(&l, &r, 8000);
        assert_eq!(&w[..4], b"RIFF");
        assert_eq!(&w[8..16], b"WAVEfmt ");
        assert_eq!(w.len(), 44 + l.len() * 4);
        assert_eq!(
            u32::from_le_bytes([w[40], w[41], w[42], w[43]]) as usize,
            l.len() * 4
        );
    }
}

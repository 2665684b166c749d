//! Bounded disclosure of figures over hidden (test) items: grids that round a published
//! figure to what its sample supports, crowd snapshots that move only every few participants,
//! and the Ladder rule (Blum & Hardt 2015) for an author's repeated uploads.
//!
//! Every public surface that shows a figure computed over hidden gold goes through here, so
//! that one upload or one participant's answers can move a published figure by at most one
//! grid step, and only at bounded moments.

use crate::leaderboard::CategoryEstimate;
use crate::stats::Estimate;
use std::collections::BTreeSet;

/// Grid steps a published figure may be rounded to (a "nice" step, so figures read cleanly).
const NICE_STEPS: [f64; 12] = [
    0.001, 0.002, 0.005, 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0,
];

/// The grid for a mean over `items` items: the smallest nice step no finer than
/// `scale / sqrt(items)`. With `scale = 1` that is the 95% interval's half-width of a mean
/// of scores in `[0, 1]` at its widest (`1.96 · 0.5 / sqrt(n)`), so no published digit is
/// finer than what the sample can tell apart. `None` (exact) when `scale` is zero or less.
///
/// ```
/// use memeboard_core::disclosure::item_grid;
/// assert_eq!(item_grid(100, 1.0), Some(0.1));
/// assert_eq!(item_grid(8, 1.0), Some(0.5));
/// assert_eq!(item_grid(10_000, 1.0), Some(0.01));
/// assert_eq!(item_grid(8, 0.0), None);
/// ```
pub fn item_grid(items: usize, scale: f64) -> Option<f64> {
    if scale <= 0.0 || !scale.is_finite() {
        return None;
    }
    let finest = scale / (items.max(1) as f64).sqrt();
    Some(
        NICE_STEPS
            .iter()
            .copied()
            .find(|s| *s >= finest - 1e-12)
            .unwrap_or(1.0),
    )
}

/// `x` to the nearest multiple of `step` (printed without float noise: 0.30, not
/// 0.30000000000000004).
///
/// ```
/// use memeboard_core::disclosure::round_to;
/// assert_eq!(round_to(0.6234, 0.05), 0.6);
/// assert_eq!(round_to(0.3, 0.1), 0.3);
/// ```
pub fn round_to(x: f64, step: f64) -> f64 {
    clean((x / step).round() * step)
}

fn clean(x: f64) -> f64 {
    (x * 1e9).round() / 1e9
}

/// An estimate on the grid: the value to the nearest step, the interval widened outwards
/// to whole steps (so it still covers what the exact one did).
///
/// ```
/// use memeboard_core::disclosure::round_estimate;
/// use memeboard_core::stats::Estimate;
/// let e = round_estimate(Estimate { value: 0.62, ci_low: 0.51, ci_high: 0.74 }, 0.1);
/// assert_eq!((e.value, e.ci_low, e.ci_high), (0.6, 0.5, 0.8));
/// ```
pub fn round_estimate(e: Estimate, step: f64) -> Estimate {
    Estimate {
        value: round_to(e.value, step),
        ci_low: clean((e.ci_low / step + 1e-9).floor() * step),
        ci_high: clean((e.ci_high / step - 1e-9).ceil() * step),
    }
}

/// Rounds each entry of a board summary to the grid of its own item count (see
/// [`item_grid`]); `scale <= 0` leaves them exact.
pub fn round_scores(scores: &mut [CategoryEstimate], scale: f64) {
    for s in scores {
        if let (Some(e), Some(step)) = (s.estimate.as_mut(), item_grid(s.items, scale)) {
            *e = round_estimate(*e, step);
        }
    }
}

/// Rounds a secondary board figure to the grid of the items it covers (`half_items` when it
/// covers the whole half); `scale <= 0` leaves it exact.
pub fn round_named(v: &mut crate::api::NamedValue, half_items: usize, scale: f64) {
    let Some(step) = item_grid(v.items.unwrap_or(half_items), scale) else {
        return;
    };
    v.value = round_to(v.value, step);
    v.ci_low = v.ci_low.map(|x| clean((x / step + 1e-9).floor() * step));
    v.ci_high = v.ci_high.map(|x| clean((x / step - 1e-9).ceil() * step));
}

/// Whether a value lies on the grid of `step` (tests and callers checking a response).
pub fn on_grid(x: f64, step: f64) -> bool {
    ((x / step) - (x / step).round()).abs() < 1e-6
}

/// Laplace noise of scale `scale` from a uniform draw `u` in (0, 1): the inverse of the
/// Laplace distribution function, so a secret-keyed `u` gives noise nobody can predict or
/// average away (the same snapshot always reads the same). Added to a count whose one answer
/// moves it by at most 1, scale `b` bounds what any answer can tell an observer of the sum
/// (ε = 1/b in differential-privacy terms; the median draw is `b · ln 2` from zero).
///
/// ```
/// use memeboard_core::disclosure::laplace;
/// assert_eq!(laplace(0.5, 4.0), 0.0);
/// assert!((laplace(0.75, 4.0) - 4.0 * 2f64.ln()).abs() < 1e-12);
/// assert!((laplace(0.25, 4.0) + 4.0 * 2f64.ln()).abs() < 1e-12);
/// ```
pub fn laplace(u: f64, scale: f64) -> f64 {
    let u = u.clamp(1e-12, 1.0 - 1e-12) - 0.5;
    -scale * u.signum() * (1.0 - 2.0 * u.abs()).ln()
}

/// How far a Laplace draw of scale 1 strays at most, 95 times in 100 (`ln 20`): published
/// intervals are widened by this many scales so that they still cover the exact figure.
pub const LAPLACE_95: f64 = 2.995_732_273_553_991;

/// An estimate as published with noise: value and interval shifted by `noise`, the interval
/// widened by the noise's 95% bound (`LAPLACE_95 · scale`), everything clamped to `range`.
///
/// ```
/// use memeboard_core::disclosure::noisy_estimate;
/// use memeboard_core::stats::Estimate;
/// let e = Estimate { value: 0.6, ci_low: 0.5, ci_high: 0.7 };
/// let n = noisy_estimate(e, 0.02, 0.01, (0.0, 1.0));
/// assert!((n.value - 0.62).abs() < 1e-12);
/// assert!((n.ci_low - (0.52 - 0.02996)).abs() < 1e-4 && (n.ci_high - (0.72 + 0.02996)).abs() < 1e-4);
/// let top = noisy_estimate(Estimate { value: 0.99, ci_low: 0.9, ci_high: 1.0 }, 0.05, 0.01, (0.0, 1.0));
/// assert_eq!((top.value, top.ci_high), (1.0, 1.0));
/// ```
pub fn noisy_estimate(e: Estimate, noise: f64, scale: f64, range: (f64, f64)) -> Estimate {
    let spread = LAPLACE_95 * scale.max(0.0);
    let clamp = |x: f64| x.clamp(range.0, range.1);
    Estimate {
        value: clamp(e.value + noise),
        ci_low: clamp(e.ci_low + noise - spread),
        ci_high: clamp(e.ci_high + noise + spread),
    }
}

/// One completed session, for choosing a crowd snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedSession<'a> {
    /// When the session was completed (ms).
    pub completed_at: i64,
    /// Session id (tie-break and result).
    pub session: &'a str,
    /// Participant id.
    pub participant: &'a str,
}

/// The sessions a published crowd snapshot counts, and its number of participants.
///
/// Participants enter in the order they first completed a batch; the snapshot holds the
/// first `floor(P / step) · step` of them (`P` all participants so far) and only the sessions
/// completed up to the moment the last of them entered. So the published figures change only
/// when the participant count crosses the next multiple of `step`, and then by `step` people
/// at once: one participant's answers (a retake included) never move a figure by themselves.
///
/// ```
/// use memeboard_core::disclosure::{snapshot, CompletedSession};
/// let s = |t, session, participant| CompletedSession { completed_at: t, session, participant };
/// let sessions = [s(1, "a", "p1"), s(2, "b", "p2"), s(3, "c", "p1"), s(4, "d", "p3")];
/// let (kept, people) = snapshot(&sessions, 2);
/// assert_eq!(people, 2);
/// assert_eq!(kept.into_iter().collect::<Vec<_>>(), vec!["a", "b"]);
/// ```
pub fn snapshot<'a>(sessions: &[CompletedSession<'a>], step: usize) -> (BTreeSet<&'a str>, usize) {
    let step = step.max(1);
    let mut ordered: Vec<&CompletedSession<'a>> = sessions.iter().collect();
    ordered.sort_by(|a, b| {
        a.completed_at
            .cmp(&b.completed_at)
            .then(a.session.cmp(b.session))
    });
    let everyone: BTreeSet<&str> = ordered.iter().map(|s| s.participant).collect();
    let target = everyone.len() / step * step;
    let mut seen = BTreeSet::new();
    let mut kept = BTreeSet::new();
    for s in ordered {
        // Sessions after the last newcomer's moment wait for the next step (retakes too).
        if seen.len() == target {
            break;
        }
        seen.insert(s.participant);
        kept.insert(s.session);
    }
    (kept, target)
}

/// The Ladder (Blum & Hardt 2015, "The Ladder: A Reliable Leaderboard for Machine Learning
/// Competitions"), fixed-margin variant: given one author's uploads in time order with their
/// exact overall scores (higher is better), which upload each one's feedback shows. A new
/// score is shown only when it beats the author's shown best by more than `margin`;
/// otherwise the response and the board repeat the previous best. An upload without a score
/// shows the best so far (itself when there is none).
///
/// ```
/// use memeboard_core::disclosure::ladder;
/// // Shown best 0.5: 0.55 does not beat it by more than 0.1, 0.7 does.
/// assert_eq!(ladder(&[Some(0.5), Some(0.55), Some(0.7), Some(0.65)], 0.1, 0.1), vec![0, 0, 2, 2]);
/// ```
pub fn ladder(scores: &[Option<f64>], margin: f64, step: f64) -> Vec<usize> {
    let mut best: Option<(usize, f64)> = None;
    scores
        .iter()
        .enumerate()
        .map(|(i, score)| match (score, best) {
            (Some(v), None) => {
                best = Some((i, round_to(*v, step)));
                i
            }
            (Some(v), Some((_, shown))) if *v > shown + margin + 1e-12 => {
                best = Some((i, round_to(*v, step)));
                i
            }
            (_, Some((b, _))) => b,
            (None, None) => i,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_moves_only_at_steps() {
        let names: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        let sessions: Vec<CompletedSession> = names
            .iter()
            .enumerate()
            .map(|(i, p)| CompletedSession {
                completed_at: i as i64,
                session: p,
                participant: p,
            })
            .collect();
        for n in 5..10 {
            assert_eq!(snapshot(&sessions[..n], 5).0.len(), 5, "{n}");
        }
        assert_eq!(snapshot(&sessions[..10], 5).0.len(), 10);
        assert_eq!(snapshot(&sessions[..4], 5).1, 0);
    }

    #[test]
    fn single_item_changes_do_not_climb_the_ladder() {
        // 100 items: grid 0.1; one changed answer moves the score by 0.01.
        let step = item_grid(100, 1.0).unwrap();
        let scores: Vec<Option<f64>> = (0..20).map(|i| Some(0.55 + i as f64 * 0.01)).collect();
        let shown = ladder(&scores, step, step);
        // 0.55 shows as 0.6 (rounded); only a score above 0.7 is shown anew.
        assert!(shown[..16].iter().all(|&s| s == 0));
        assert_eq!(shown[16], 16);
    }

    #[test]
    fn rounding_stays_on_the_grid() {
        let e = round_estimate(
            Estimate {
                value: 0.4449,
                ci_low: 0.3012,
                ci_high: 0.5987,
            },
            0.05,
        );
        assert!(on_grid(e.value, 0.05) && on_grid(e.ci_low, 0.05) && on_grid(e.ci_high, 0.05));
        assert!(e.ci_low <= 0.3012 && e.ci_high >= 0.5987);
    }
}

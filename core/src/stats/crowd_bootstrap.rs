//! The crowd rows' two-way bootstrap: human average, human best and pooled accuracy with
//! 95% intervals, resampling participants *and* items.

use super::{quantile_sorted, Estimate, Response};
use crate::rng::SplitMix64;

/// Which crowd statistic to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrowdStatistic {
    /// Mean of per-participant accuracies ("human average").
    MeanOfParticipants,
    /// Best per-participant accuracy ("human best").
    BestParticipant,
    /// All responses pooled: correct / answered ("item-level pooled accuracy").
    Pooled,
}

/// Per-participant mean scores under participant and item weights (multiplicities).
/// Participants with no weighted response are left out. Returns `(mean, participant weight)`.
fn weighted_participant_means(
    responses: &[Response],
    num_participants: usize,
    participant_weight: &[u32],
    item_weight: &[u32],
) -> Vec<(f64, u32)> {
    let mut num = vec![0.0f64; num_participants];
    let mut den = vec![0.0f64; num_participants];
    for r in responses {
        let w = f64::from(item_weight[r.item]);
        num[r.participant] += w * r.score;
        den[r.participant] += w;
    }
    (0..num_participants)
        .filter(|&p| participant_weight[p] > 0 && den[p] > 0.0)
        .map(|p| (num[p] / den[p], participant_weight[p]))
        .collect()
}

fn evaluate(
    stat: CrowdStatistic,
    responses: &[Response],
    num_participants: usize,
    participant_weight: &[u32],
    item_weight: &[u32],
) -> Option<f64> {
    match stat {
        CrowdStatistic::MeanOfParticipants => {
            let means = weighted_participant_means(
                responses,
                num_participants,
                participant_weight,
                item_weight,
            );
            let total: u32 = means.iter().map(|(_, w)| w).sum();
            (total > 0).then(|| {
                means.iter().map(|(m, w)| m * f64::from(*w)).sum::<f64>() / f64::from(total)
            })
        }
        CrowdStatistic::BestParticipant => {
            weighted_participant_means(responses, num_participants, participant_weight, item_weight)
                .into_iter()
                .map(|(m, _)| m)
                .fold(None, |best: Option<f64>, m| {
                    Some(best.map_or(m, |b| b.max(m)))
                })
        }
        CrowdStatistic::Pooled => {
            let (mut num, mut den) = (0.0, 0.0);
            for r in responses {
                let w = f64::from(participant_weight[r.participant] * item_weight[r.item]);
                num += w * r.score;
                den += w;
            }
            (den > 0.0).then(|| num / den)
        }
    }
}
/// A crowd statistic with a two-way bootstrap 95% percentile interval.
///
/// Each of `resamples` rounds draws participants with replacement *and* items with
/// replacement, recomputes the statistic, and the interval is the 2.5th–97.5th percentile of
/// those values. `None` when there are no responses.
///
/// Worked example: two participants, one 2/2 correct and one 0/2, give a human average of 0.5
/// and a human best of 1.0; the average's interval spans most of `[0, 1]` because resampling can
/// pick the same participant twice.
///
/// ```
/// use memeboard_core::stats::{crowd_estimate, CrowdStatistic, Response};
/// let r = |participant, item, score| Response { participant, item, score };
/// let data = [r(0, 0, 1.0), r(0, 1, 1.0), r(1, 0, 0.0), r(1, 1, 0.0)];
/// let avg = crowd_estimate(&data, CrowdStatistic::MeanOfParticipants, 1000, 7).unwrap();
/// assert_eq!(avg.value, 0.5);
/// assert_eq!((avg.ci_low, avg.ci_high), (0.0, 1.0));
/// let best = crowd_estimate(&data, CrowdStatistic::BestParticipant, 1000, 7).unwrap();
/// assert_eq!(best.value, 1.0);
/// ```
pub fn crowd_estimate(
    responses: &[Response],
    stat: CrowdStatistic,
    resamples: usize,
    seed: u64,
) -> Option<Estimate> {
    let mut weights = TwoWay::of(responses)?;
    let num_participants = weights.pw.len();
    let value = evaluate(stat, responses, num_participants, &weights.pw, &weights.iw)?;
    let mut rng = SplitMix64::new(seed);
    let mut draws = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        weights.draw(&mut rng);
        if let Some(v) = evaluate(stat, responses, num_participants, &weights.pw, &weights.iw) {
            draws.push(v);
        }
    }
    draws.sort_by(f64::total_cmp);
    Some(Estimate {
        value,
        ci_low: quantile_sorted(&draws, 0.025),
        ci_high: quantile_sorted(&draws, 0.975),
    })
}

/// The three crowd statistics of [`crowd_estimate`] from one set of resamples.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrowdEstimates {
    /// [`CrowdStatistic::MeanOfParticipants`].
    pub human_average: Option<Estimate>,
    /// [`CrowdStatistic::BestParticipant`].
    pub human_best: Option<Estimate>,
    /// [`CrowdStatistic::Pooled`].
    pub pooled: Option<Estimate>,
}

/// [`crowd_estimate`] for all three statistics at once, a third of its work: the draws are
/// the same for every statistic (one seed), so each resample makes one pass over the
/// responses and derives all three from the item-weighted per-participant sums (pooled is
/// `Σ_p w_p·num_p / Σ_p w_p·den_p`, the same sum grouped by participant). Crowd tables with
/// 100,000 answers and 1,000 resamples spend their time here.
///
/// ```
/// use memeboard_core::stats::{crowd_estimate, crowd_estimates, CrowdStatistic, Response};
/// let r = |participant, item, score| Response { participant, item, score };
/// let data = [r(0, 0, 1.0), r(0, 1, 1.0), r(1, 0, 0.0), r(1, 1, 1.0), r(2, 1, 0.0)];
/// let all = crowd_estimates(&data, 1000, 7);
/// assert_eq!(all.human_average, crowd_estimate(&data, CrowdStatistic::MeanOfParticipants, 1000, 7));
/// assert_eq!(all.human_best, crowd_estimate(&data, CrowdStatistic::BestParticipant, 1000, 7));
/// assert_eq!(all.pooled, crowd_estimate(&data, CrowdStatistic::Pooled, 1000, 7));
/// assert_eq!(all.pooled.unwrap().value, 0.6);
/// ```
pub fn crowd_estimates(responses: &[Response], resamples: usize, seed: u64) -> CrowdEstimates {
    let Some(mut weights) = TwoWay::of(responses) else {
        return CrowdEstimates {
            human_average: None,
            human_best: None,
            pooled: None,
        };
    };
    let mut sums = ParticipantSums::new(weights.pw.len());
    let point = sums.evaluate(responses, &weights.pw, &weights.iw);
    let mut rng = SplitMix64::new(seed);
    let mut draws: [Vec<f64>; 3] = std::array::from_fn(|_| Vec::with_capacity(resamples));
    for _ in 0..resamples {
        weights.draw(&mut rng);
        for (d, v) in draws
            .iter_mut()
            .zip(sums.evaluate(responses, &weights.pw, &weights.iw))
        {
            d.extend(v);
        }
    }
    let [average, best, pooled] = draws.map(|mut d| {
        d.sort_by(f64::total_cmp);
        d
    });
    let estimate = |value: Option<f64>, d: &[f64]| {
        value.map(|value| Estimate {
            value,
            ci_low: quantile_sorted(d, 0.025),
            ci_high: quantile_sorted(d, 0.975),
        })
    };
    CrowdEstimates {
        human_average: estimate(point[0], &average),
        human_best: estimate(point[1], &best),
        pooled: estimate(point[2], &pooled),
    }
}

/// The participants and items that occur in the responses, and their weights (how often each
/// is drawn) in one round of the two-way bootstrap; shared by [`crowd_estimate`] and
/// [`crowd_estimates`], which must draw alike.
struct TwoWay {
    participants: Vec<usize>,
    items: Vec<usize>,
    /// Participant weights by index (1 for each participant that occurs, at first).
    pw: Vec<u32>,
    /// Item weights by index (1 each, at first).
    iw: Vec<u32>,
}

impl TwoWay {
    /// The weights of the data as it is; `None` without responses.
    fn of(responses: &[Response]) -> Option<Self> {
        let num_participants = responses.iter().map(|r| r.participant).max()? + 1;
        let num_items = responses.iter().map(|r| r.item).max()? + 1;
        // Only participants and items that occur are resampled.
        let present = |f: fn(&Response) -> usize, n: usize| {
            let mut seen = vec![false; n];
            for r in responses {
                seen[f(r)] = true;
            }
            (0..n).filter(|&i| seen[i]).collect::<Vec<_>>()
        };
        let participants = present(|r| r.participant, num_participants);
        let items = present(|r| r.item, num_items);
        let pw = (0..num_participants)
            .map(|p| u32::from(participants.binary_search(&p).is_ok()))
            .collect();
        Some(Self {
            participants,
            items,
            pw,
            iw: vec![1; num_items],
        })
    }

    /// One round: participants drawn with replacement, then items.
    fn draw(&mut self, rng: &mut SplitMix64) {
        self.pw.iter_mut().for_each(|w| *w = 0);
        self.iw.iter_mut().for_each(|w| *w = 0);
        for _ in 0..self.participants.len() {
            self.pw[self.participants[rng.below(self.participants.len())]] += 1;
        }
        for _ in 0..self.items.len() {
            self.iw[self.items[rng.below(self.items.len())]] += 1;
        }
    }
}

/// Reusable per-participant sums for [`crowd_estimates`] (no allocation per resample).
struct ParticipantSums {
    num: Vec<f64>,
    den: Vec<f64>,
}

impl ParticipantSums {
    fn new(num_participants: usize) -> Self {
        Self {
            num: vec![0.0; num_participants],
            den: vec![0.0; num_participants],
        }
    }

    /// `[mean of participants, best participant, pooled]` under the weights, as
    /// [`evaluate`] gives them one at a time.
    fn evaluate(&mut self, responses: &[Response], pw: &[u32], iw: &[u32]) -> [Option<f64>; 3] {
        self.num.iter_mut().for_each(|x| *x = 0.0);
        self.den.iter_mut().for_each(|x| *x = 0.0);
        for r in responses {
            let w = f64::from(iw[r.item]);
            self.num[r.participant] += w * r.score;
            self.den[r.participant] += w;
        }
        let (mut mean_num, mut mean_den) = (0.0, 0u32);
        let (mut pooled_num, mut pooled_den) = (0.0, 0.0);
        let mut best: Option<f64> = None;
        for ((&n, &d), &w) in self.num.iter().zip(&self.den).zip(pw) {
            if w == 0 {
                continue;
            }
            pooled_num += f64::from(w) * n;
            pooled_den += f64::from(w) * d;
            if d > 0.0 {
                let m = n / d;
                mean_num += m * f64::from(w);
                mean_den += w;
                best = Some(best.map_or(m, |b| b.max(m)));
            }
        }
        [
            (mean_den > 0).then(|| mean_num / f64::from(mean_den)),
            best,
            (pooled_den > 0.0).then(|| pooled_num / pooled_den),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(participant: usize, item: usize, score: f64) -> Response {
        Response {
            participant,
            item,
            score,
        }
    }

    #[test]
    fn pooled_and_mean_of_participants_differ_when_batch_sizes_differ() {
        // P0: 1/1 correct; P1: 1/3 correct.
        let data = [r(0, 0, 1.0), r(1, 1, 1.0), r(1, 2, 0.0), r(1, 3, 0.0)];
        let mean = crowd_estimate(&data, CrowdStatistic::MeanOfParticipants, 200, 1).unwrap();
        let pooled = crowd_estimate(&data, CrowdStatistic::Pooled, 200, 1).unwrap();
        assert!((mean.value - (1.0 + 1.0 / 3.0) / 2.0).abs() < 1e-12);
        assert!((pooled.value - 0.5).abs() < 1e-12);
    }

    #[test]
    fn interval_contains_the_estimate_and_is_deterministic() {
        let mut data = Vec::new();
        for p in 0..20 {
            for i in 0..24 {
                let correct = (p * 7 + i * 3) % 10 < 8;
                data.push(r(p, i, if correct { 1.0 } else { 0.0 }));
            }
        }
        let a = crowd_estimate(&data, CrowdStatistic::MeanOfParticipants, 500, 3).unwrap();
        let b = crowd_estimate(&data, CrowdStatistic::MeanOfParticipants, 500, 3).unwrap();
        assert_eq!(a, b);
        assert!(a.ci_low <= a.value && a.value <= a.ci_high, "{a:?}");
        assert!(a.ci_high - a.ci_low < 0.2, "{a:?}");
    }

    /// The one-pass estimates are the per-statistic ones: exactly for 0/1 scores, and for
    /// graded scores up to the rounding of pooled's regrouped sum; uneven batches and
    /// participants absent from some categories included.
    #[test]
    fn one_pass_estimates_match_each_statistic_alone() {
        let mut rng = SplitMix64::new(11);
        for graded in [false, true] {
            let mut data = Vec::new();
            for p in 0..40 {
                for i in 0..30 {
                    if rng.below(3) == 0 {
                        continue;
                    }
                    let score = if graded {
                        rng.below(1000) as f64 / 999.0
                    } else {
                        (rng.below(4) > 0) as u8 as f64
                    };
                    data.push(r(p * 2, i, score));
                }
            }
            let all = crowd_estimates(&data, 300, 5);
            let one = |stat| crowd_estimate(&data, stat, 300, 5);
            assert_eq!(all.human_average, one(CrowdStatistic::MeanOfParticipants));
            assert_eq!(all.human_best, one(CrowdStatistic::BestParticipant));
            let (a, b) = (all.pooled.unwrap(), one(CrowdStatistic::Pooled).unwrap());
            if graded {
                for (x, y) in [
                    (a.value, b.value),
                    (a.ci_low, b.ci_low),
                    (a.ci_high, b.ci_high),
                ] {
                    assert!((x - y).abs() < 1e-12, "{a:?} {b:?}");
                }
            } else {
                assert_eq!(a, b);
            }
        }
        let none = crowd_estimates(&[], 10, 1);
        assert_eq!(
            (none.human_average, none.human_best, none.pooled),
            (None, None, None)
        );
    }

    #[test]
    fn unanimous_crowd_has_a_zero_width_interval() {
        let data: Vec<Response> = (0..5)
            .flat_map(|p| (0..4).map(move |i| r(p, i, 1.0)))
            .collect();
        let e = crowd_estimate(&data, CrowdStatistic::BestParticipant, 100, 1).unwrap();
        assert_eq!((e.value, e.ci_low, e.ci_high), (1.0, 1.0, 1.0));
    }

    #[test]
    fn no_responses_give_no_estimate() {
        assert_eq!(crowd_estimate(&[], CrowdStatistic::Pooled, 10, 1), None);
    }
}

//! Cross-task analysis (CHIME §5.3): how often a model that gets one task's item right gets
//! the other task's item about the same source (meme) right too, from two runs' per-item
//! scores joined through the source, with a 95% bootstrap interval over the joined pairs, as
//! published on a revealed board view.

use super::TableCell;
use crate::disclosure::{item_grid, round_estimate};
use crate::stats::{item_bootstrap_many, Estimate};
use std::collections::HashMap;

/// One joined pair: a first-task item and the second-task item of its source, each with
/// its run's score.
pub type Joined = (f64, f64);

/// Joins two runs' item scores through the items' sources: each first-task item
/// (`(item, source, score)`) is paired with the second-task item of the same source, when
/// there is one. Each side lists only the items of the view the figures are over, so an
/// item whose partner is not on that view is left out. A first-task item keeps its own pair
/// even when several share one source (CHIME: several questions whose answer is one meme).
///
/// ```
/// use memeboard_core::paper_tables::cross_task::join_through_source;
/// let mcq = [("q1", "m1", 1.0), ("q2", "m1", 0.0), ("q3", "m9", 1.0)];
/// let explain = [("e1", "m1", 0.95), ("e2", "m2", 0.3)];
/// assert_eq!(join_through_source(&mcq, &explain), vec![(1.0, 0.95), (0.0, 0.95)]);
/// ```
pub fn join_through_source(
    first: &[(&str, &str, f64)],
    second: &[(&str, &str, f64)],
) -> Vec<Joined> {
    let mut by_source: HashMap<&str, f64> = HashMap::with_capacity(second.len());
    for (_, source, score) in second {
        by_source.entry(source).or_insert(*score);
    }
    first
        .iter()
        .filter_map(|(_, source, score)| by_source.get(source).map(|s| (*score, *s)))
        .collect()
}

/// One conditional figure, exact: the share of `of` pairs whose other side is correct too.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditional {
    /// The share, in `[0, 1]`.
    pub value: f64,
    /// Lower end of its 95% bootstrap interval over the joined pairs.
    pub ci_low: f64,
    /// Upper end of that interval.
    pub ci_high: f64,
    /// Pairs whose condition holds (the share's denominator).
    pub of: usize,
    /// Every joined pair.
    pub joined: usize,
}

/// The two conditional figures of a cross-task table, exact (`None` where no pair meets the
/// condition).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CrossTaskFigures {
    /// P(first correct | second correct): CHIME's "models that correctly explain meme
    /// meanings achieve around 83% accuracy in MCQ selection".
    pub first_given_second: Option<Conditional>,
    /// P(second correct | first correct): "… only around 73% accuracy in explanation".
    pub second_given_first: Option<Conditional>,
}

/// The conditional accuracies of two tasks over joined pairs: an item counts as correct on
/// a task when its score is at least that task's threshold (`first_correct`,
/// `second_correct`: a spec's [`super::spec::CrossTaskSpec`] thresholds). Each figure carries
/// a 95% percentile interval from `resamples` bootstrap rounds over the joined pairs
/// ([`item_bootstrap_many`] seeded with `seed`; both figures from the same draws): a round
/// recomputes the share over the pairs it drew, and a round in which no drawn pair meets a
/// figure's condition does not count for that figure.
///
/// Worked example (CHIME thresholds: a question right at ≥ 0.5, an explanation right at
/// identification ≥ 0.9), five joined pairs:
///
/// | MCQ | explanation | MCQ right | explanation right |
/// | --- | --- | --- | --- |
/// | 1.0 | 0.95 | yes | yes |
/// | 1.0 | 0.92 | yes | yes |
/// | 0.0 | 0.90 | no | yes |
/// | 1.0 | 0.60 | yes | no |
/// | 0.4 | 0.20 | no | no |
///
/// Three explanations are right, two of them with the question right: P(MCQ | explained) =
/// 2/3. Three questions are right, two of them explained: P(explained | MCQ) = 2/3. A round
/// that draws only the first two pairs gives 1 for both, one that draws the third and fourth
/// only gives 0, so the intervals reach from 0 to 1 over so few pairs.
///
/// ```
/// use memeboard_core::paper_tables::cross_task::cross_task;
/// let pairs = [(1.0, 0.95), (1.0, 0.92), (0.0, 0.90), (1.0, 0.60), (0.4, 0.20)];
/// let f = cross_task(&pairs, 0.5, 0.9, 500, 1);
/// let a = f.first_given_second.unwrap();
/// assert_eq!((a.of, a.joined), (3, 5));
/// assert!((a.value - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!((a.ci_low, a.ci_high), (0.0, 1.0));
/// let b = f.second_given_first.unwrap();
/// assert_eq!((b.of, b.joined), (3, 5));
/// assert!((b.value - 2.0 / 3.0).abs() < 1e-12);
/// assert_eq!(cross_task(&[], 0.5, 0.9, 500, 1).first_given_second, None);
/// // Without resamples the interval collapses to the figure.
/// let exact = cross_task(&pairs, 0.5, 0.9, 0, 1).first_given_second.unwrap();
/// assert_eq!((exact.ci_low, exact.ci_high), (exact.value, exact.value));
/// ```
pub fn cross_task(
    pairs: &[Joined],
    first_correct: f64,
    second_correct: f64,
    resamples: usize,
    seed: u64,
) -> CrossTaskFigures {
    let right: Vec<(bool, bool)> = pairs
        .iter()
        .map(|(a, b)| (*a >= first_correct, *b >= second_correct))
        .collect();
    // Share of the drawn pairs meeting `condition` whose `outcome` holds too: (share, of).
    let share = |w: &[u32], condition: Side, outcome: Side| {
        let (mut held, mut hits) = (0u64, 0u64);
        for (r, &w) in right.iter().zip(w) {
            if condition(*r) {
                held += u64::from(w);
                if outcome(*r) {
                    hits += u64::from(w);
                }
            }
        }
        (held > 0).then(|| (hits as f64 / held as f64, held))
    };
    // (condition, outcome): P(first | second), then P(second | first).
    type Side = fn((bool, bool)) -> bool;
    let figures: [(Side, Side); 2] = [(|r| r.1, |r| r.0), (|r| r.0, |r| r.1)];
    let estimates = item_bootstrap_many(right.len(), resamples, seed, |w| {
        figures
            .iter()
            .map(|(c, o)| share(w, *c, *o).map(|s| s.0))
            .collect()
    });
    let ones = vec![1; right.len()];
    let conditional = |k: usize| {
        let (c, o) = figures[k];
        let (_, of) = share(&ones, c, o)?;
        let e: Estimate = estimates.get(k).copied().flatten()?;
        Some(Conditional {
            value: e.value,
            ci_low: e.ci_low,
            ci_high: e.ci_high,
            of: of as usize,
            joined: pairs.len(),
        })
    };
    CrossTaskFigures {
        first_given_second: conditional(0),
        second_given_first: conditional(1),
    }
}

/// A conditional figure as a table publishes it over hidden items: withheld when fewer than
/// `min_items` pairs meet its condition, else rounded to the grid that count supports
/// ([`item_grid`] with `grid_scale`; the interval widened outwards to the grid), its `items`
/// the joined pairs.
///
/// ```
/// use memeboard_core::paper_tables::cross_task::{published, Conditional};
/// let c = Conditional { value: 0.8333, ci_low: 0.65, ci_high: 0.95, of: 30, joined: 50 };
/// // 30 pairs support a grid of 0.2 at scale 1 (1 / sqrt(30) ≈ 0.18).
/// let cell = published(Some(c), 10, 1.0).unwrap();
/// assert_eq!((cell.value, cell.items), (0.8, Some(50)));
/// assert_eq!((cell.ci_low, cell.ci_high), (Some(0.6), Some(1.0)));
/// assert_eq!(published(Some(c), 31, 1.0), None);
/// let exact = published(Some(c), 10, 0.0).unwrap();
/// assert_eq!((exact.value, exact.ci_low), (0.8333, Some(0.65)));
/// ```
pub fn published(c: Option<Conditional>, min_items: usize, grid_scale: f64) -> Option<TableCell> {
    let c = c.filter(|c| c.of >= min_items.max(1))?;
    let exact = Estimate {
        value: c.value,
        ci_low: c.ci_low,
        ci_high: c.ci_high,
    };
    let e = match item_grid(c.of, grid_scale) {
        Some(step) => round_estimate(exact, step),
        None => exact,
    };
    Some(TableCell {
        value: e.value,
        ci_low: Some(e.ci_low),
        ci_high: Some(e.ci_high),
        items: Some(c.joined),
        pairs: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_inclusive_and_each_question_keeps_its_pair() {
        let mcq = [("q1", "m1", 0.5), ("q2", "m1", 0.4), ("q3", "m2", 1.0)];
        let explain = [("e1", "m1", 0.9), ("e2", "m2", 0.89), ("e3", "m1", 0.0)];
        let joined = join_through_source(&mcq, &explain);
        assert_eq!(joined, [(0.5, 0.9), (0.4, 0.9), (1.0, 0.89)]);
        let f = cross_task(&joined, 0.5, 0.9, 200, 3);
        // Explained: q1 and q2 (m1 at 0.9), one of them right.
        let a = f.first_given_second.unwrap();
        assert_eq!((a.value, a.of, a.joined), (0.5, 2, 3));
        // Right: q1 and q3, q1 explained.
        let b = f.second_given_first.unwrap();
        assert_eq!((b.value, b.of, b.joined), (0.5, 2, 3));
        for c in [a, b] {
            assert!(c.ci_low <= c.value && c.value <= c.ci_high, "{c:?}");
        }
    }

    #[test]
    fn nothing_is_published_without_a_pair_meeting_the_condition() {
        let f = cross_task(&[(0.0, 0.1), (0.2, 0.3)], 0.5, 0.9, 100, 1);
        assert_eq!(f.first_given_second, None);
        assert_eq!(f.second_given_first, None);
        assert_eq!(published(None, 0, 1.0), None);
        let one = Conditional {
            value: 1.0,
            ci_low: 1.0,
            ci_high: 1.0,
            of: 1,
            joined: 2,
        };
        assert_eq!(published(Some(one), 0, 1.0).map(|c| c.value), Some(1.0));
    }
}

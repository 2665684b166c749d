//! Dawid–Skene (1979) competence of raters of categorical verdicts: an EM fit of each rater's
//! confusion matrix (how often they give verdict `l` when the true verdict is `k`) and of the
//! true verdicts' rates, without any gold. Deterministic (majority-vote start, sorted keys,
//! bounded iterations), so the server and the browser get the same numbers.

use std::collections::BTreeMap;

/// Pseudo-count added to every cell of the class rates and of each confusion row, so that a
/// verdict a rater never gave keeps a small probability (no `log 0`).
pub const DS_SMOOTHING: f64 = 0.01;
/// Most EM rounds.
pub const DS_MAX_ITERATIONS: usize = 200;
/// The fit stops once no posterior moved by more than this in a round.
pub const DS_TOLERANCE: f64 = 1e-9;

/// One categorical label: `rater` put `subject` in class `class` (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label<'a> {
    /// What was judged.
    pub subject: &'a str,
    /// Who judged it.
    pub rater: &'a str,
    /// The class given.
    pub class: usize,
}

/// A Dawid–Skene fit.
#[derive(Debug, Clone, PartialEq)]
pub struct DawidSkene {
    /// Estimated rate of each true class.
    pub priors: Vec<f64>,
    /// Per rater (sorted): their confusion matrix, `confusion[k][l]` = P(gives `l` | true `k`).
    pub confusion: BTreeMap<String, Vec<Vec<f64>>>,
    /// Per rater: competence, `Σ_k priors[k] · confusion[k][k]`, the probability that their
    /// verdict on a subject drawn at the class rates is the true one.
    pub competence: BTreeMap<String, f64>,
    /// EM rounds run.
    pub iterations: usize,
    /// Whether the posteriors settled within [`DS_TOLERANCE`] before [`DS_MAX_ITERATIONS`].
    pub converged: bool,
}

/// Labels by dense subject and rater indices (both in sorted key order).
struct Indexed {
    raters: Vec<String>,
    /// Per subject: (rater index, class).
    per_subject: Vec<Vec<(usize, usize)>>,
}

fn index(labels: &[Label<'_>]) -> Indexed {
    let mut subjects: BTreeMap<&str, Vec<(&str, usize)>> = BTreeMap::new();
    let mut raters: BTreeMap<&str, usize> = BTreeMap::new();
    for l in labels {
        subjects
            .entry(l.subject)
            .or_default()
            .push((l.rater, l.class));
        raters.insert(l.rater, 0);
    }
    for (i, v) in raters.values_mut().enumerate() {
        *v = i;
    }
    Indexed {
        raters: raters.keys().map(|r| (*r).to_owned()).collect(),
        per_subject: subjects
            .into_values()
            .map(|ls| ls.into_iter().map(|(r, c)| (raters[r], c)).collect())
            .collect(),
    }
}

/// M step: class rates and confusion matrices from the posteriors.
fn m_step(data: &Indexed, post: &[Vec<f64>], k: usize) -> (Vec<f64>, Vec<Vec<Vec<f64>>>) {
    let a = DS_SMOOTHING;
    let mut priors = vec![a; k];
    let mut conf = vec![vec![vec![a; k]; k]; data.raters.len()];
    for (t, labels) in post.iter().zip(&data.per_subject) {
        for c in 0..k {
            priors[c] += t[c];
            for &(r, l) in labels {
                conf[r][c][l] += t[c];
            }
        }
    }
    let total: f64 = priors.iter().sum();
    priors.iter_mut().for_each(|p| *p /= total);
    for row in conf.iter_mut().flatten() {
        let s: f64 = row.iter().sum();
        row.iter_mut().for_each(|x| *x /= s);
    }
    (priors, conf)
}

/// E step: each subject's posterior over the true class.
fn e_step(data: &Indexed, priors: &[f64], conf: &[Vec<Vec<f64>>]) -> Vec<Vec<f64>> {
    data.per_subject
        .iter()
        .map(|labels| {
            let logs: Vec<f64> = (0..priors.len())
                .map(|c| {
                    priors[c].ln() + labels.iter().map(|&(r, l)| conf[r][c][l].ln()).sum::<f64>()
                })
                .collect();
            let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let w: Vec<f64> = logs.iter().map(|x| (x - top).exp()).collect();
            let s: f64 = w.iter().sum();
            w.into_iter().map(|x| x / s).collect()
        })
        .collect()
}

/// Fits the Dawid–Skene model to categorical `labels` with `classes` classes (class indices
/// at or above `classes` are dropped); `None` without labels.
///
/// The EM starts from each subject's vote shares (soft majority vote), then alternates the M
/// step (class rates `π_k ∝ a + Σ_i T_ik`, confusion rows `θ_r[k][l] ∝ a + Σ_{i: r gave l}
/// T_ik`, with `a` = [`DS_SMOOTHING`]) and the E step (`T_ik ∝ π_k · Π_{r on i} θ_r[k][l_ri]`)
/// until no posterior moves by more than [`DS_TOLERANCE`] or [`DS_MAX_ITERATIONS`] rounds;
/// a last M step gives the reported rates and matrices. Competence is
/// `Σ_k π_k · θ_r[k][k]`.
///
/// Worked example: four subjects of two classes judged by three raters; `a` and `b` agree on
/// every subject, `c` contradicts them on two of the four. The posteriors follow `a` and `b`,
/// so `c` is right half the time: competence 0.5 for `c` and ≈ 1 for `a` and `b` (0.99502,
/// short of 1 by the smoothing; `scripts/reference/raters.py` prints the same).
///
/// ```
/// use memeboard_core::human_eval::dawid_skene::{dawid_skene, Label};
/// let mut labels = Vec::new();
/// for (subject, truth, c_gives) in [("s1", 0, 0), ("s2", 1, 1), ("s3", 0, 1), ("s4", 1, 0)] {
///     labels.push(Label { subject, rater: "a", class: truth });
///     labels.push(Label { subject, rater: "b", class: truth });
///     labels.push(Label { subject, rater: "c", class: c_gives });
/// }
/// let fit = dawid_skene(&labels, 2).unwrap();
/// assert!(fit.converged);
/// assert!((fit.competence["a"] - 0.99502).abs() < 1e-5);
/// assert!((fit.competence["c"] - 0.5).abs() < 1e-9);
/// ```
pub fn dawid_skene(labels: &[Label<'_>], classes: usize) -> Option<DawidSkene> {
    let kept: Vec<Label<'_>> = labels
        .iter()
        .filter(|l| l.class < classes)
        .cloned()
        .collect();
    if kept.is_empty() {
        return None;
    }
    let data = index(&kept);
    let mut post: Vec<Vec<f64>> = data
        .per_subject
        .iter()
        .map(|labels| {
            let mut t = vec![0.0; classes];
            for &(_, l) in labels {
                t[l] += 1.0;
            }
            let n = labels.len() as f64;
            t.iter_mut().for_each(|x| *x /= n);
            t
        })
        .collect();
    let (mut iterations, mut converged) = (0, false);
    while iterations < DS_MAX_ITERATIONS {
        iterations += 1;
        let (priors, conf) = m_step(&data, &post, classes);
        let next = e_step(&data, &priors, &conf);
        let moved = next
            .iter()
            .flatten()
            .zip(post.iter().flatten())
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        post = next;
        if moved < DS_TOLERANCE {
            converged = true;
            break;
        }
    }
    let (priors, conf) = m_step(&data, &post, classes);
    let competence = data
        .raters
        .iter()
        .zip(&conf)
        .map(|(r, m)| {
            let c = (0..classes).map(|k| priors[k] * m[k][k]).sum();
            (r.clone(), c)
        })
        .collect();
    Some(DawidSkene {
        confusion: data.raters.iter().cloned().zip(conf).collect(),
        priors,
        competence,
        iterations,
        converged,
    })
}

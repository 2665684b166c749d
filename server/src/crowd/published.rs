//! Crowd figures as the public sees them: over hidden test items they come from a snapshot
//! of the crowd that moves only every `crowd_snapshot_step` participants, appear only above
//! a minimum of participants and items, and are rounded to `crowd_grid` (see
//! `memeboard_core::disclosure`). Rows over open dev items only stay exact. Owners' views
//! (console, exports) do not come through here.

use crate::config::QuizSettings;
use crate::draws::{Key, Purpose};
use crate::storage::CrowdResponseRow;
use memeboard_core::api::CrowdRow;
use memeboard_core::crowd::AgreementRow;
use memeboard_core::disclosure::{
    laplace, noisy_estimate, round_estimate, snapshot, CompletedSession,
};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The crowd answers published figures may count, and how to bound the figures made of them.
#[derive(Debug, Clone)]
pub struct CrowdSnapshot {
    /// Answers of the snapshot's sessions (all answers when nothing is hidden).
    pub rows: Vec<CrowdResponseRow>,
    /// Bounds for figures over these answers; `None` when no answer is on a hidden item.
    pub bounds: Option<CrowdBounds>,
}

/// The secret-keyed noise on one surface's figures: a Laplace draw per figure, of
/// `counts` answers' worth (see [`memeboard_core::disclosure::laplace`]), fixed for a
/// snapshot so that reading a figure again gives the same value.
#[derive(Debug, Clone)]
pub struct CrowdNoise {
    /// The installation's key (never in a response).
    pub key: Key,
    /// Which surface and task the figures are on (`stats:TASK`, `board:TASK:HALF`): two
    /// surfaces never share a draw, which would let their difference cancel it.
    pub surface: String,
    /// Scale in answers (`[quiz] crowd_noise`); 0 publishes without noise.
    pub counts: f64,
}

/// How many answers and people a row's figures are made of: what one answer can move them by.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RowFacts {
    /// Scored answers in the row.
    pub answers: usize,
    /// Participants with a scored answer in the row.
    pub participants: usize,
    /// The fewest scored answers one of those participants gave in the row.
    pub fewest_per_participant: usize,
}

/// The figures of a crowd row, each with its own noise draw and sensitivity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// Mean of per-participant accuracies: one answer moves it by at most
    /// `1 / (participants · fewest answers per participant)`.
    Average,
    /// The best participant's accuracy: one answer moves it by at most
    /// `1 / fewest answers per participant`.
    Best,
    /// All answers pooled: one answer moves it by `1 / answers`.
    Pooled,
    /// Pooled accuracy of one familiarity group of `answers` answers.
    Group(usize),
    /// An agreement coefficient (range −1 to 1), pooled-like in its sensitivity.
    Agreement,
}

impl Figure {
    fn label(self) -> String {
        match self {
            Self::Average => "average".into(),
            Self::Best => "best".into(),
            Self::Pooled => "pooled".into(),
            Self::Group(_) => "group".into(),
            Self::Agreement => "agreement".into(),
        }
    }

    /// How far one answer can move the figure, given its row's facts.
    fn sensitivity(self, f: &RowFacts) -> f64 {
        let n = |x: usize| x.max(1) as f64;
        match self {
            Self::Average => 1.0 / (n(f.participants) * n(f.fewest_per_participant)),
            Self::Best => 1.0 / n(f.fewest_per_participant),
            Self::Pooled | Self::Agreement => 1.0 / n(f.answers),
            Self::Group(answers) => 1.0 / n(answers),
        }
    }

    fn range(self) -> (f64, f64) {
        match self {
            Self::Agreement => (-1.0, 1.0),
            _ => (0.0, 1.0),
        }
    }
}

/// What decides whether and how a crowd figure over hidden items is published.
#[derive(Debug, Clone)]
pub struct CrowdBounds {
    /// Participants in the snapshot.
    pub participants: usize,
    /// Hidden items answered in the snapshot: overall (`None`) and per category.
    pub hidden_items: BTreeMap<Option<String>, usize>,
    /// Answers and people per row (`None`: overall), for the noise's scale.
    pub facts: BTreeMap<Option<String>, RowFacts>,
    /// Fewest participants for a figure over hidden items.
    pub min_participants: usize,
    /// Fewest hidden items in a row for its figure.
    pub min_items: usize,
    /// Rounding grid (0: exact).
    pub grid: f64,
    /// The keyed noise (`None`: none, as in unit tests of the other bounds).
    pub noise: Option<CrowdNoise>,
}

/// The keyed noise of surface `surface` (`None` when `[quiz] crowd_noise` is 0).
pub async fn surface_noise(
    storage: &crate::storage::Storage,
    surface: String,
    quiz: &QuizSettings,
) -> anyhow::Result<Option<CrowdNoise>> {
    if quiz.crowd_noise <= 0.0 {
        return Ok(None);
    }
    Ok(Some(CrowdNoise {
        key: crate::draws::installation_secret(storage).await?,
        surface,
        counts: quiz.crowd_noise,
    }))
}

/// Answers and people per row (overall and per category) of `rows`' scored answers.
pub fn row_facts(rows: &[CrowdResponseRow]) -> BTreeMap<Option<String>, RowFacts> {
    let mut per: BTreeMap<Option<&str>, HashMap<&str, usize>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.score.is_some()) {
        for key in [None, Some(&*r.category)] {
            *per.entry(key)
                .or_default()
                .entry(&*r.participant_id)
                .or_default() += 1;
        }
    }
    per.into_iter()
        .map(|(key, people)| {
            let facts = RowFacts {
                answers: people.values().sum(),
                participants: people.len(),
                fewest_per_participant: people.values().copied().min().unwrap_or(0),
            };
            (key.map(str::to_owned), facts)
        })
        .collect()
}

/// The snapshot of `rows` (completed sessions' answers) that public figures count. With no
/// hidden item among them, every answer counts, exact. `noise` is the surface's keyed noise.
pub fn crowd_snapshot(
    rows: Vec<CrowdResponseRow>,
    quiz: &QuizSettings,
    noise: Option<CrowdNoise>,
) -> CrowdSnapshot {
    if !rows.iter().any(|r| r.hidden) {
        return CrowdSnapshot { rows, bounds: None };
    }
    let (kept, participants) = {
        let mut seen = HashSet::new();
        let sessions: Vec<CompletedSession> = rows
            .iter()
            .filter(|r| seen.insert(&*r.session_id))
            .map(|r| CompletedSession {
                completed_at: r.completed_at,
                session: &r.session_id,
                participant: &r.participant_id,
            })
            .collect();
        let (kept, people) = snapshot(&sessions, quiz.crowd_snapshot_step);
        let kept: HashSet<String> = kept.into_iter().map(str::to_owned).collect();
        (kept, people)
    };
    let rows: Vec<CrowdResponseRow> = rows
        .into_iter()
        .filter(|r| kept.contains(&*r.session_id))
        .collect();
    let mut items: BTreeMap<Option<&str>, BTreeSet<&str>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.hidden) {
        for key in [None, Some(&*r.category)] {
            items.entry(key).or_default().insert(&r.item_id);
        }
    }
    let hidden_items = items
        .into_iter()
        .map(|(k, v)| (k.map(str::to_owned), v.len()))
        .collect();
    CrowdSnapshot {
        bounds: Some(CrowdBounds {
            participants,
            hidden_items,
            facts: row_facts(&rows),
            min_participants: quiz.min_crowd_participants,
            min_items: quiz.min_crowd_items,
            grid: quiz.crowd_grid,
            noise,
        }),
        rows,
    }
}

impl CrowdBounds {
    /// These bounds for figures over `rows` only (a board half): same snapshot and noise
    /// key, the rows' own facts and a surface of their own.
    pub fn over(&self, rows: &[CrowdResponseRow], surface: &str) -> CrowdBounds {
        let mut b = self.clone();
        b.facts = row_facts(rows);
        if let Some(n) = b.noise.as_mut() {
            n.surface = surface.to_owned();
        }
        b
    }

    /// Figure `figure` of the row for `category` (`None`: overall) as published: left out
    /// below the minimums, else noised and rounded; rows without hidden items stay exact.
    pub fn estimate(
        &self,
        category: Option<&String>,
        figure: Figure,
        e: Option<Estimate>,
    ) -> Option<Estimate> {
        self.estimate_tagged(category, figure, "", e)
    }

    /// [`CrowdBounds::estimate`] for one of several figures of a kind in a row, told apart
    /// by `tag` (each its own noise draw).
    pub fn estimate_tagged(
        &self,
        category: Option<&String>,
        figure: Figure,
        tag: &str,
        e: Option<Estimate>,
    ) -> Option<Estimate> {
        let hidden = self
            .hidden_items
            .get(&category.cloned())
            .copied()
            .unwrap_or(0);
        if hidden == 0 {
            return e;
        }
        if self.participants < self.min_participants.max(1) || hidden < self.min_items.max(1) {
            return None;
        }
        e.map(|e| self.round(self.noised(category, figure, tag, e)))
    }

    /// `e` with its keyed Laplace draw: scale `crowd_noise` answers' worth of the figure.
    /// `tag` tells apart figures of one kind in one row (agreement per dimension).
    fn noised(
        &self,
        category: Option<&String>,
        figure: Figure,
        tag: &str,
        e: Estimate,
    ) -> Estimate {
        let Some(noise) = self.noise.as_ref().filter(|n| n.counts > 0.0) else {
            return e;
        };
        let facts = self
            .facts
            .get(&category.cloned())
            .cloned()
            .unwrap_or_default();
        let scale = noise.counts * figure.sensitivity(&facts);
        let id = format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{tag}",
            noise.surface,
            self.participants,
            category.map_or("", String::as_str),
            figure.label()
        );
        let draw = laplace(noise.key.unit(Purpose::CrowdNoise, &id), scale);
        noisy_estimate(e, draw, scale, figure.range())
    }

    fn round(&self, e: Estimate) -> Estimate {
        if self.grid > 0.0 {
            round_estimate(e, self.grid)
        } else {
            e
        }
    }

    /// Bounds the rows of a crowd table.
    pub fn apply_rows(&self, rows: &mut [CrowdRow]) {
        for r in rows {
            let category = r.category.clone();
            r.human_average = self.estimate(category.as_ref(), Figure::Average, r.human_average);
            r.human_best = self.estimate(category.as_ref(), Figure::Best, r.human_best);
            r.pooled = self.estimate(category.as_ref(), Figure::Pooled, r.pooled);
        }
    }

    /// Bounds agreement figures (they are made of hidden items' answers too).
    pub fn apply_agreement(&self, rows: &mut [AgreementRow]) {
        let shown = self.participants >= self.min_participants.max(1)
            && self.hidden_items.get(&None).copied().unwrap_or(0) >= self.min_items.max(1);
        let bound = |v: Option<f64>, tag: &str| -> Option<f64> {
            let value = v.filter(|_| shown)?;
            let e = Estimate {
                value,
                ci_low: value,
                ci_high: value,
            };
            Some(
                self.round(self.noised(None, Figure::Agreement, tag, e))
                    .value,
            )
        };
        for r in rows {
            r.fleiss_kappa = bound(r.fleiss_kappa, &format!("kappa:{}", r.dimension));
            r.krippendorff_alpha = bound(r.krippendorff_alpha, &format!("alpha:{}", r.dimension));
        }
    }

    /// Bounds a board's human-row figure over hidden items (all of a board's items are),
    /// given the snapshot's participants with answers on the board's items.
    pub fn apply_board(&self, s: &mut CategoryEstimate, figure: Figure, participants: usize) {
        if participants < self.min_participants.max(1) || s.items < self.min_items.max(1) {
            s.estimate = None;
        } else {
            s.estimate = s
                .estimate
                .map(|e| self.round(self.noised(s.category.as_ref(), figure, "", e)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(session: &str, participant: &str, t: i64, hidden: bool) -> CrowdResponseRow {
        CrowdResponseRow {
            session_id: session.into(),
            familiarity: None,
            participant_id: participant.into(),
            item_id: format!("i-{t}").into(),
            category: "c".into(),
            choice: None,
            score: Some(1.0),
            completed_at: t,
            hidden,
        }
    }

    fn settings() -> QuizSettings {
        let mut quiz = crate::config::Settings::defaults().unwrap().quiz;
        quiz.min_crowd_participants = 2;
        quiz.min_crowd_items = 1;
        quiz.crowd_snapshot_step = 2;
        quiz.crowd_grid = 0.05;
        quiz
    }

    #[test]
    fn dev_only_answers_are_exact_and_hidden_ones_wait_for_the_step() {
        let dev = vec![
            row("a", "p1", 1, false),
            row("b", "p2", 2, false),
            row("c", "p3", 3, false),
        ];
        let s = crowd_snapshot(dev, &settings(), None);
        assert!(s.bounds.is_none());
        assert_eq!(s.rows.len(), 3);
        let hidden = vec![
            row("a", "p1", 1, true),
            row("b", "p2", 2, true),
            row("c", "p3", 3, true),
        ];
        let s = crowd_snapshot(hidden, &settings(), None);
        assert_eq!(s.rows.len(), 2);
        let b = s.bounds.unwrap();
        assert_eq!(b.participants, 2);
        let e = Estimate {
            value: 0.6234,
            ci_low: 0.5,
            ci_high: 0.71,
        };
        assert_eq!(
            b.estimate(None, Figure::Pooled, Some(e)).unwrap().value,
            0.6
        );
        let few = CrowdBounds {
            participants: 1,
            ..b
        };
        assert_eq!(few.estimate(None, Figure::Pooled, Some(e)), None);
    }

    fn noisy(counts: f64, surface: &str, rows: Vec<CrowdResponseRow>) -> CrowdBounds {
        let mut quiz = settings();
        quiz.crowd_grid = 0.0;
        let noise = CrowdNoise {
            key: Key::from_hex(&"ab".repeat(32)).unwrap(),
            surface: surface.into(),
            counts,
        };
        crowd_snapshot(rows, &quiz, Some(noise)).bounds.unwrap()
    }

    fn people(n: usize) -> Vec<CrowdResponseRow> {
        (0..n)
            .map(|i| row(&format!("s{i}"), &format!("p{i}"), i as i64, true))
            .collect()
    }

    #[test]
    fn noise_is_fixed_per_snapshot_and_surface_and_shrinks_with_the_crowd() {
        let exact = Estimate {
            value: 0.5,
            ci_low: 0.4,
            ci_high: 0.6,
        };
        let read = |b: &CrowdBounds| b.estimate(None, Figure::Pooled, Some(exact)).unwrap();
        let a = noisy(4.0, "stats:t", people(10));
        // Read again: the same draw (nothing to average away).
        assert_eq!(read(&a), read(&noisy(4.0, "stats:t", people(10))));
        // Another surface over the same answers: an unrelated draw.
        assert_ne!(
            read(&a).value,
            read(&noisy(4.0, "board:t:public", people(10))).value
        );
        // No noise configured: exact.
        assert_eq!(read(&noisy(0.0, "stats:t", people(10))), exact);
        // The interval still covers the exact value, widened by the noise's 95% bound.
        let r = read(&a);
        assert!(r.ci_low < 0.4 && r.ci_high > 0.6, "{r:?}");
        // Noise of 4 answers' worth: over 1,000 answers a figure moves by 0.004 a scale.
        let mut spread = 0.0;
        for surface in 0..200 {
            let b = noisy(4.0, &format!("s{surface}"), people(1000));
            spread += (read(&b).value - 0.5).abs();
        }
        let mean_abs = spread / 200.0;
        assert!((0.002..0.007).contains(&mean_abs), "{mean_abs}");
    }

    #[test]
    fn one_answer_moves_the_best_figure_by_the_fewest_answers_of_anyone() {
        let mut rows = people(10);
        rows.push(row("s0", "p0", 0, true));
        let facts = row_facts(&rows);
        let all = &facts[&None];
        assert_eq!(
            (all.answers, all.participants, all.fewest_per_participant),
            (11, 10, 1)
        );
        assert_eq!(Figure::Best.sensitivity(all), 1.0);
        assert_eq!(Figure::Average.sensitivity(all), 0.1);
        assert!((Figure::Pooled.sensitivity(all) - 1.0 / 11.0).abs() < 1e-12);
    }
}

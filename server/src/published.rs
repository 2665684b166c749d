//! Crowd figures as the public sees them: over hidden test items they come from a snapshot
//! of the crowd that moves only every `crowd_snapshot_step` participants, appear only above
//! a minimum of participants and items, and are rounded to `crowd_grid` (see
//! `memeboard_core::disclosure`). Rows over open dev items only stay exact. Owners' views
//! (console, exports) do not come through here.

use crate::config::QuizSettings;
use crate::storage::CrowdResponseRow;
use memeboard_core::api::CrowdRow;
use memeboard_core::crowd::AgreementRow;
use memeboard_core::disclosure::{round_estimate, round_to, snapshot, CompletedSession};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The crowd answers published figures may count, and how to bound the figures made of them.
#[derive(Debug, Clone)]
pub struct CrowdSnapshot {
    /// Answers of the snapshot's sessions (all answers when nothing is hidden).
    pub rows: Vec<CrowdResponseRow>,
    /// Bounds for figures over these answers; `None` when no answer is on a hidden item.
    pub bounds: Option<CrowdBounds>,
}

/// What decides whether and how a crowd figure over hidden items is published.
#[derive(Debug, Clone)]
pub struct CrowdBounds {
    /// Participants in the snapshot.
    pub participants: usize,
    /// Hidden items answered in the snapshot: overall (`None`) and per category.
    pub hidden_items: BTreeMap<Option<String>, usize>,
    /// Fewest participants for a figure over hidden items.
    pub min_participants: usize,
    /// Fewest hidden items in a row for its figure.
    pub min_items: usize,
    /// Rounding grid (0: exact).
    pub grid: f64,
}

/// The snapshot of `rows` (completed sessions' answers) that public figures count. With no
/// hidden item among them, every answer counts, exact.
pub fn crowd_snapshot(rows: Vec<CrowdResponseRow>, quiz: &QuizSettings) -> CrowdSnapshot {
    if !rows.iter().any(|r| r.hidden) {
        return CrowdSnapshot { rows, bounds: None };
    }
    let (kept, participants) = {
        let mut seen = HashSet::new();
        let sessions: Vec<CompletedSession> = rows
            .iter()
            .filter(|r| seen.insert(r.session_id.as_str()))
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
        .filter(|r| kept.contains(&r.session_id))
        .collect();
    let mut items: BTreeMap<Option<String>, BTreeSet<&str>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.hidden) {
        for key in [None, Some(r.category.clone())] {
            items.entry(key).or_default().insert(&r.item_id);
        }
    }
    let hidden_items = items.into_iter().map(|(k, v)| (k, v.len())).collect();
    CrowdSnapshot {
        bounds: Some(CrowdBounds {
            participants,
            hidden_items,
            min_participants: quiz.min_crowd_participants,
            min_items: quiz.min_crowd_items,
            grid: quiz.crowd_grid,
        }),
        rows,
    }
}

impl CrowdBounds {
    /// A figure of the row for `category` (`None`: overall) as published: left out below the
    /// minimums, else rounded; rows without hidden items stay exact.
    pub fn estimate(&self, category: Option<&String>, e: Option<Estimate>) -> Option<Estimate> {
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
        e.map(|e| self.round(e))
    }

    fn round(&self, e: Estimate) -> Estimate {
        if self.grid > 0.0 {
            round_estimate(e, self.grid)
        } else {
            e
        }
    }

    fn round_value(&self, v: Option<f64>) -> Option<f64> {
        v.map(|v| {
            if self.grid > 0.0 {
                round_to(v, self.grid)
            } else {
                v
            }
        })
    }

    /// Bounds the rows of a crowd table.
    pub fn apply_rows(&self, rows: &mut [CrowdRow]) {
        for r in rows {
            let category = r.category.clone();
            r.human_average = self.estimate(category.as_ref(), r.human_average);
            r.human_best = self.estimate(category.as_ref(), r.human_best);
            r.pooled = self.estimate(category.as_ref(), r.pooled);
        }
    }

    /// Bounds agreement figures (they are made of hidden items' answers too).
    pub fn apply_agreement(&self, rows: &mut [AgreementRow]) {
        let shown = self.participants >= self.min_participants.max(1)
            && self.hidden_items.get(&None).copied().unwrap_or(0) >= self.min_items.max(1);
        for r in rows {
            r.fleiss_kappa = self.round_value(r.fleiss_kappa).filter(|_| shown);
            r.krippendorff_alpha = self.round_value(r.krippendorff_alpha).filter(|_| shown);
        }
    }

    /// Bounds a board's human-row column over hidden items (all of a board's items are),
    /// given the snapshot's participants with answers on the board's items.
    pub fn apply_board(&self, s: &mut CategoryEstimate, participants: usize) {
        if participants < self.min_participants.max(1) || s.items < self.min_items.max(1) {
            s.estimate = None;
        } else {
            s.estimate = s.estimate.map(|e| self.round(e));
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
            item_id: format!("i-{t}"),
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
        let s = crowd_snapshot(dev, &settings());
        assert!(s.bounds.is_none());
        assert_eq!(s.rows.len(), 3);
        let hidden = vec![
            row("a", "p1", 1, true),
            row("b", "p2", 2, true),
            row("c", "p3", 3, true),
        ];
        let s = crowd_snapshot(hidden, &settings());
        assert_eq!(s.rows.len(), 2);
        let b = s.bounds.unwrap();
        assert_eq!(b.participants, 2);
        let e = Estimate {
            value: 0.6234,
            ci_low: 0.5,
            ci_high: 0.71,
        };
        assert_eq!(b.estimate(None, Some(e)).unwrap().value, 0.6);
        let few = CrowdBounds {
            participants: 1,
            ..b
        };
        assert_eq!(few.estimate(None, Some(e)), None);
    }
}

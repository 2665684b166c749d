//! The crowd's responses as the statistics read them, built from the answer rows compactly:
//! while they are read and put in order, each participant, session, item and familiarity is
//! held once by number, and the rows are sorted by ranks of their pseudonyms rather than by a
//! key of strings per answer.

use std::collections::HashMap;
use std::sync::Arc;

/// One scored response of a completed session, for crowd statistics. Its names are shared
/// with the other rows of the same participant, session, item and familiarity (one string
/// each, not one per answer), and the observations built from it take them over as they are.
#[derive(Debug, Clone)]
pub struct CrowdResponseRow {
    /// The session the answer belongs to (exclusions are per session).
    pub session_id: Arc<str>,
    /// The familiarity given before the question (clip tasks), if any.
    pub familiarity: Option<Arc<str>>,
    /// Participant.
    pub participant_id: Arc<str>,
    /// Item.
    pub item_id: Arc<str>,
    /// Category.
    pub category: Arc<str>,
    /// Canonical choice.
    pub choice: Option<i64>,
    /// Score (`None`: not scored yet, or a kind without gold; still counted).
    pub score: Option<f64>,
    /// When the answer's session was completed (ms), which decides crowd snapshots.
    pub completed_at: i64,
    /// Whether the item is a hidden test item (its figures are published bounded).
    pub hidden: bool,
}

/// Distinct strings numbered in the order first seen, with their sort keys once asked for.
#[derive(Debug, Default)]
pub(super) struct Interner {
    index: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
    /// Each name's sort key by number, computed once (a kept copy of the crowd is ranked
    /// again at each recomputation; only the new names' keys are computed then).
    keys: Vec<String>,
}

impl Interner {
    /// The number of `name`, given on first sight.
    pub(super) fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).unwrap_or(u32::MAX);
        let name: Arc<str> = Arc::from(name);
        self.index.insert(name.clone(), id);
        self.names.push(name);
        id
    }

    /// Each name's rank under `key` (equal keys share a rank), by number. `key` must be the
    /// same function at every call on one interner: keys computed before are reused.
    fn ranks(&mut self, key: impl Fn(&str) -> String) -> Vec<u32> {
        let known = self.keys.len();
        self.keys.extend(self.names[known..].iter().map(|n| key(n)));
        let keys = &self.keys;
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_unstable_by(|&a, &b| keys[a].cmp(&keys[b]));
        let mut ranks = vec![0u32; keys.len()];
        let mut rank = 0u32;
        for (at, &i) in order.iter().enumerate() {
            if at > 0 && keys[order[at - 1]] != keys[i] {
                rank += 1;
            }
            ranks[i] = rank;
        }
        ranks
    }
}

/// A task's items as crowd rows name them: id, category and whether hidden, by number.
#[derive(Debug, Default)]
pub(super) struct CrowdItems {
    ids: Interner,
    categories: Vec<Arc<str>>,
    hidden: Vec<bool>,
}

impl CrowdItems {
    /// Adds an item (a test item is hidden); an id added before keeps its first entry.
    pub(super) fn add(&mut self, id: &str, category: &str, hidden: bool) {
        if self.ids.id(id) as usize == self.categories.len() {
            self.categories.push(Arc::from(category));
            self.hidden.push(hidden);
        }
    }

    /// The number of item `id`, if the task has it.
    pub(super) fn number(&self, id: &str) -> Option<u32> {
        self.ids.index.get(id).copied()
    }
}

/// One answer row by numbers (about 60 bytes, nothing on the heap).
#[derive(Debug, Clone, Copy)]
pub(super) struct CompactAnswer {
    pub(super) participant: u32,
    pub(super) session: u32,
    pub(super) item: u32,
    pub(super) familiarity: Option<u32>,
    pub(super) choice: Option<i64>,
    pub(super) score: Option<f64>,
    pub(super) answered_at: i64,
    pub(super) completed_at: i64,
}

/// A task's crowd answers as read, by session, before they are put in order.
#[derive(Debug, Default)]
pub(super) struct CompactCrowd {
    pub(super) participants: Interner,
    pub(super) sessions: Interner,
    pub(super) familiarities: Interner,
    /// Each session's answers, by session number (a session read again replaces its own).
    by_session: Vec<Vec<CompactAnswer>>,
}

impl CompactCrowd {
    /// Adds an answer to its session's.
    pub(super) fn push(&mut self, answer: CompactAnswer) {
        let session = answer.session as usize;
        if self.by_session.len() <= session {
            self.by_session.resize_with(session + 1, Vec::new);
        }
        self.by_session[session].push(answer);
    }

    /// Frees the slack of session `session`'s answers once read (a copy is kept for long).
    pub(super) fn settle_session(&mut self, session: u32) {
        if let Some(answers) = self.by_session.get_mut(session as usize) {
            answers.shrink_to_fit();
        }
    }

    /// Forgets session `session`'s answers (it is about to be read again).
    pub(super) fn clear_session(&mut self, session: u32) {
        if let Some(answers) = self.by_session.get_mut(session as usize) {
            answers.clear();
        }
    }

    /// The rows in the crowd order — participant pseudonym, item id, answer time, session
    /// pseudonym ([`crate::pseudonym::crowd_order`]) — each pseudonym computed once per name
    /// over the life of this copy.
    pub(super) fn rows(
        &mut self,
        benchmark: &str,
        items: &mut CrowdItems,
    ) -> Vec<CrowdResponseRow> {
        use crate::pseudonym::pseudonym;
        let participant_rank = self
            .participants
            .ranks(|id| pseudonym(benchmark, "participant", id));
        let session_rank = self
            .sessions
            .ranks(|id| pseudonym(benchmark, "session", id));
        let item_rank = items.ids.ranks(str::to_owned);
        let key = |a: &CompactAnswer| {
            (
                participant_rank[a.participant as usize],
                item_rank[a.item as usize],
                a.answered_at,
                session_rank[a.session as usize],
            )
        };
        // References, not copies: 8 bytes per answer while they are put in order.
        let mut answers: Vec<&CompactAnswer> = self.by_session.iter().flatten().collect();
        answers.sort_by_key(|a| key(a));
        let name = |interner: &Interner, n: u32| interner.names[n as usize].clone();
        answers
            .iter()
            .map(|a| {
                let item = a.item as usize;
                CrowdResponseRow {
                    session_id: name(&self.sessions, a.session),
                    familiarity: a.familiarity.map(|f| name(&self.familiarities, f)),
                    participant_id: name(&self.participants, a.participant),
                    item_id: items.ids.names[item].clone(),
                    category: items.categories[item].clone(),
                    choice: a.choice,
                    score: a.score,
                    completed_at: a.completed_at,
                    hidden: items.hidden[item],
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbered rows come out in exactly the order of sorting full rows by
    /// `crowd_order`, ties between equal keys kept in reading order.
    #[test]
    fn rows_come_in_the_crowd_order() {
        let mut items = CrowdItems::default();
        for (id, category, hidden) in [("i-b", "x", false), ("i-a", "y", true), ("i-c", "x", false)]
        {
            items.add(id, category, hidden);
        }
        let mut crowd = CompactCrowd::default();
        let mut expected = Vec::new();
        let mut n = 0u64;
        for p in 0..7 {
            for s in 0..2 {
                for i in ["i-c", "i-a", "i-b"] {
                    n = n
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let (participant, session) = (format!("p{p}"), format!("s{p}-{s}"));
                    let at = i64::try_from(n >> 60).unwrap_or(0);
                    let answer = CompactAnswer {
                        participant: crowd.participants.id(&participant),
                        session: crowd.sessions.id(&session),
                        item: items.number(i).unwrap_or(u32::MAX),
                        familiarity: (p % 2 == 0).then(|| crowd.familiarities.id("yes")),
                        choice: Some(at),
                        score: None,
                        answered_at: at,
                        completed_at: 5,
                    };
                    crowd.push(answer);
                    let key = crate::pseudonym::crowd_order("bench", &participant, i, at, &session);
                    expected.push((key, session, i.to_owned(), at));
                }
            }
        }
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        let rows = crowd.rows("bench", &mut items);
        let got: Vec<_> = rows
            .iter()
            .map(|r| {
                (
                    r.session_id.to_string(),
                    r.item_id.to_string(),
                    r.choice.unwrap_or(-1),
                )
            })
            .collect();
        let want: Vec<_> = expected
            .into_iter()
            .map(|(_, s, i, at)| (s, i, at))
            .collect();
        assert_eq!(got, want);
        let first_a = rows
            .iter()
            .find(|r| &*r.item_id == "i-a")
            .map(|r| (&*r.category, r.hidden));
        assert_eq!(first_a, Some(("y", true)));
        assert!(rows.iter().all(|r| r.familiarity.is_some()
            == r.participant_id[1..]
                .parse::<u32>()
                .is_ok_and(|p| p % 2 == 0)));
    }
}

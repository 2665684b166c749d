//! Rankings on the server: a judging kind, so no prediction files, inputs, templates or dev
//! gold ([`NoFiles`]); raters' answers are stored unscored and counted, and read
//! as the study's judgements and export rows here ([`RankingJudged`]).

use super::capabilities::{Judged, JudgedField};
use super::{NoFiles, ServerKind};
use crate::storage::JudgementRow;
use memeboard_core::human_eval::board::{Judgement, JudgementValue};
use memeboard_core::human_eval::ranking::RankedEntry;
use memeboard_core::human_eval::training::PracticeField;
use memeboard_core::kinds::ranking::{
    Answer, Gold, Input, Prompt, Ranking, MAX_CANDIDATES, MIN_CANDIDATES,
};
use memeboard_core::kinds::Kind;
use memeboard_core::messages::Message;
use memeboard_core::msg;
use serde_json::json;
use std::collections::BTreeSet;

/// How a ranking page is judged: its checks, judgements and export values.
pub struct RankingJudged;

/// Dense ranks (1, 2, …) of the given ranks, keeping ties: what is left of a ranking once
/// entries without a submission are dropped.
///
/// ```text
/// densify(&[1, 3, 3, 5]) == [1, 2, 2, 3]
/// ```
fn densify(ranks: &[u8]) -> Vec<u8> {
    let distinct: BTreeSet<u8> = ranks.iter().copied().collect();
    ranks
        .iter()
        .map(|r| {
            let below = distinct.iter().take_while(|d| *d < r).count();
            u8::try_from(below + 1).unwrap_or(u8::MAX)
        })
        .collect()
}

impl Judged<Ranking> for RankingJudged {
    /// A page ranks 2 to 5 candidates, each with its submission named in the gold.
    fn item_problems(&self, item: &str, prompt: &Prompt, gold: &Gold) -> Vec<Message> {
        let n = prompt.candidates.len();
        if (MIN_CANDIDATES..=MAX_CANDIDATES).contains(&n) && gold.submissions.len() == n {
            return Vec::new();
        }
        vec![msg!(
            "judging.candidates",
            item = item,
            candidates = n,
            submissions = gold.submissions.len()
        )]
    }

    /// The submissions' entries with their ranks made dense again; `None` for a planted
    /// subject's page (fewer than two submissions' outputs on it).
    fn judgement(
        &self,
        rater: String,
        row: &JudgementRow,
        gold: Gold,
        answer: Answer,
    ) -> Option<Judgement> {
        let kept: Vec<(String, u8)> = gold
            .submissions
            .iter()
            .zip(&answer.ranks)
            .filter_map(|(s, r)| s.clone().map(|s| (s, *r)))
            .collect();
        if kept.len() < 2 {
            return None;
        }
        let ranks = densify(&kept.iter().map(|(_, r)| *r).collect::<Vec<_>>());
        Some(Judgement {
            rater,
            batch: format!("ranking-{}", gold.batch),
            item: row.item_id.clone(),
            source_item: gold.source_item,
            category: row.category.clone(),
            submission: None,
            value: JudgementValue::Ranking {
                entries: kept
                    .into_iter()
                    .zip(ranks)
                    .map(|((system, _), rank)| RankedEntry { system, rank })
                    .collect(),
            },
        })
    }

    /// One `rank` value per candidate, with where the rater saw it.
    fn export_fields(&self, gold: &Gold, answer: &Answer, order: &[usize]) -> Vec<JudgedField> {
        gold.submissions
            .iter()
            .zip(&answer.ranks)
            .enumerate()
            .map(|(k, (submission, rank))| JudgedField {
                batch: gold.batch,
                source_item: gold.source_item.clone(),
                submission: submission.clone(),
                planted: None,
                field: "rank".to_owned(),
                value: json!(rank),
                shown_at: order.iter().position(|&c| c == k),
            })
            .collect()
    }

    /// Each candidate's rank under its display letter (`A` first), beside the expected rank.
    fn practice_fields(
        &self,
        prompt: &Prompt,
        expected: &Answer,
        given: &Answer,
        order: &[usize],
    ) -> Result<Vec<PracticeField>, Message> {
        let identity: Vec<usize> = (0..prompt.candidates.len()).collect();
        let input = Input {
            ranks: expected.ranks.clone(),
        };
        Ranking::accept(prompt, &identity, input).map_err(|e| e.to_message())?;
        Ok(order
            .iter()
            .enumerate()
            .map(|(shown, &canonical)| {
                let rank = |a: &Answer| a.ranks.get(canonical).map(u8::to_string);
                let (given, expected) = (rank(given).unwrap_or_default(), rank(expected));
                let expected = expected.unwrap_or_default();
                PracticeField {
                    field: char::from(b'A' + u8::try_from(shown).unwrap_or(25)).to_string(),
                    matched: given == expected,
                    given,
                    expected,
                }
            })
            .collect())
    }
}

impl ServerKind for Ranking {
    type Files = NoFiles<Self>;
    const PAPER_METRICS: &'static [&'static str] = &[];
    const JUDGED: Option<&'static dyn Judged<Self>> = Some(&RankingJudged);
}

#[cfg(test)]
mod tests {
    use super::densify;

    #[test]
    fn ranks_are_made_dense_keeping_ties() {
        assert_eq!(densify(&[1, 3, 3, 5]), vec![1, 2, 2, 3]);
        assert_eq!(densify(&[2, 1]), vec![2, 1]);
    }
}

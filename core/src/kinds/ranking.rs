//! Ranking (human evaluation, CMPM Task 2's holistic ranking): a rater orders 2 to 5 anonymous
//! explanations of one meme or comic from best to worst, ties allowed.
//!
//! The candidates are stored in a canonical order and shown in a per-session shuffled order,
//! labelled A–E (like MCQ options: the order is a function of the session seed and the item id,
//! recorded with the answer). The browser sends one rank per *displayed* candidate (1 = best,
//! equal ranks = a tie, dense: `[1, 1, 2]`, never `[1, 1, 3]`); the stored answer holds one rank
//! per *canonical* candidate, so statistics never depend on the display. Like ratings, rankings
//! have no gold: the hidden gold says which submission wrote each candidate.

use super::{FieldError, Kind, Presented, ReviewInput, ScoreScale, Scoring, TaskKind};
use crate::assign::option_order;
use crate::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
use crate::human_eval::ranking::MAX_RANKED;
use crate::msg;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// Fewest candidates on a ranking page (one pair).
pub const MIN_CANDIDATES: usize = 2;
/// Most candidates on a ranking page (the statistics' limit).
pub const MAX_CANDIDATES: usize = MAX_RANKED;

/// The kind's marker type.
#[derive(Debug, Clone, Copy)]
pub struct Ranking;

/// The explanations of one subject to rank (`items.prompt_json`), in canonical order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingPrompt"))]
pub struct Prompt {
    /// What the explanations explain.
    pub subject: RatedSubject,
    /// The reference, when the study may show it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// 2 to 5 explanations, canonical order.
    pub candidates: Vec<ExplainedOutput>,
}

/// Which submission wrote each candidate (`items.gold_json`, hidden).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingGold"))]
pub struct Gold {
    /// Submission of each canonical candidate (`None`: a planted or reference candidate).
    pub submissions: Vec<Option<String>>,
    /// Id of the explanation (or comic) item explained.
    pub source_item: String,
    /// The fixed batch the item belongs to.
    pub batch: u32,
}

/// The ranking page of one rater: candidates in their shuffled display order (A, B, C…).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingView"))]
pub struct View {
    /// What the explanations explain.
    pub subject: RatedSubject,
    /// The reference, when shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// Candidates in display order.
    pub candidates: Vec<ExplainedOutput>,
}

/// The ranks as sent: one per displayed candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingInput"))]
pub struct Input {
    /// `ranks[p]` is the rank of displayed candidate `p` (1 = best; equal = tie; dense).
    pub ranks: Vec<u8>,
}

/// The ranks as stored: one per canonical candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingAnswer"))]
pub struct Answer {
    /// `ranks[c]` is the rank of canonical candidate `c`.
    pub ranks: Vec<u8>,
}

/// A ranked subject on the results page, in the rater's display order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(rename = "RankingReview"))]
pub struct Review {
    /// What was explained.
    pub subject: RatedSubject,
    /// Candidates in display order.
    pub candidates: Vec<ExplainedOutput>,
    /// The rank given to each displayed candidate.
    pub ranks: Vec<u8>,
}

/// Whether `ranks` are dense (the distinct ranks are exactly 1..=k), the rule of
/// [`crate::human_eval::ranking::validate_ranking`].
///
/// ```
/// use memeboard_core::kinds::ranking::dense;
/// assert!(dense(&[2, 1, 2]));
/// assert!(!dense(&[1, 1, 3]));
/// assert!(!dense(&[0, 1]));
/// ```
pub fn dense(ranks: &[u8]) -> bool {
    let distinct: BTreeSet<u8> = ranks.iter().copied().collect();
    distinct.iter().copied().eq(1..=distinct.len() as u8)
}

impl Kind for Ranking {
    const KIND: TaskKind = TaskKind::Ranking;
    const KEY: &'static str = "ranking";
    const SCALE: ScoreScale = ScoreScale::Correctness;
    const INPUT_TAG: &'static str = "ranking";
    const INSTRUCTIONS: [&'static str; 2] = [
        "Each page shows 2 to 5 explanations of the same meme (or multi-panel comic), labelled A–E; you are not told who wrote them. Rank them from best to worst: 1 is best, and two equally good ones may tie (give them the same rank). Mouse: click a rank button or drag a card onto a rank. Keyboard: Tab to a card, press a digit to rank it, arrow keys move between cards, Enter submits.",
        "每页给出同一个梗（或多格漫画）的 2 到 5 条解释，标为 A–E，不显示作者。请从好到差排序：1 表示最好；两条同样好可以并列（给相同名次）。鼠标：点击名次按钮，或把卡片拖到名次上。键盘：用 Tab 聚焦卡片，按数字键给名次，方向键切换卡片，回车提交。",
    ];
    const JUDGING: bool = true;

    crate::kind_types_and_wire!(Ranking, ());

    /// Candidates shuffled by the session seed and the item id (see [`option_order`]).
    fn present(prompt: &Prompt, seed: u64, item_id: &str) -> Presented<View> {
        let order = option_order(seed, item_id, prompt.candidates.len());
        Presented {
            view: View {
                subject: prompt.subject.clone(),
                reference: prompt.reference.clone(),
                candidates: order
                    .iter()
                    .map(|&c| prompt.candidates[c].clone())
                    .collect(),
            },
            order,
        }
    }

    /// One rank per displayed candidate, each from 1 to the number of candidates, dense;
    /// turned into one rank per canonical candidate.
    ///
    /// ```
    /// use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject};
    /// use memeboard_core::kinds::ranking::{Answer, Input, Prompt, Ranking};
    /// use memeboard_core::kinds::Kind;
    /// let out = |m: &str| ExplainedOutput { meaning: m.into(), origin: None, example: None };
    /// let p = Prompt { subject: RatedSubject::Meme { phrase: "yyds".into() }, reference: None,
    ///                  candidates: vec![out("a"), out("b"), out("c")] };
    /// // Shown as c, a, b; the rater ties c and b for best and puts a last.
    /// let answer = Ranking::accept(&p, &[2, 0, 1], Input { ranks: vec![1, 2, 1] }).unwrap();
    /// assert_eq!(answer, Answer { ranks: vec![2, 1, 1] });
    /// assert!(Ranking::accept(&p, &[2, 0, 1], Input { ranks: vec![1, 1, 3] }).is_err());
    /// ```
    fn accept(prompt: &Prompt, order: &[usize], input: Input) -> Result<Answer, FieldError> {
        let n = prompt.candidates.len();
        if input.ranks.len() != n || order.len() != n {
            return Err(FieldError {
                field: "answer.ranks",
                message: msg!("answer.rank_count", n = n, found = input.ranks.len()),
            });
        }
        if let Some(&bad) = input.ranks.iter().find(|&&r| r == 0 || usize::from(r) > n) {
            return Err(FieldError {
                field: "answer.ranks",
                message: msg!("answer.rank_range", n = n, found = bad),
            });
        }
        if !dense(&input.ranks) {
            let shown: Vec<String> = input.ranks.iter().map(u8::to_string).collect();
            return Err(FieldError {
                field: "answer.ranks",
                message: msg!("answer.rank_gap", found = shown.join(", ")),
            });
        }
        let mut ranks = vec![0u8; n];
        for (position, &canonical) in order.iter().enumerate() {
            match ranks.get_mut(canonical) {
                Some(slot) => *slot = input.ranks[position],
                None => {
                    return Err(FieldError {
                        field: "answer.ranks",
                        message: msg!("answer.rank_count", n = n, found = input.ranks.len()),
                    })
                }
            }
        }
        Ok(Answer { ranks })
    }

    /// No gold answer: counted, never scored.
    fn score(_gold: &Gold, _answer: &Answer) -> Scoring<()> {
        Scoring::Unscored
    }

    fn primary(_outcome: &()) -> f64 {
        0.0
    }

    fn subject(prompt: &Prompt) -> String {
        prompt.subject.name()
    }

    fn review(input: ReviewInput<'_, Self>) -> Review {
        let candidates = &input.prompt.candidates;
        let (shown, ranks) = input
            .order
            .iter()
            .filter_map(|&c| Some((candidates.get(c)?.clone(), *input.answer.ranks.get(c)?)))
            .unzip();
        Review {
            subject: input.prompt.subject.clone(),
            candidates: shown,
            ranks,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human_eval::ranking::{validate_ranking, RankedEntry};
    use crate::kinds::{AnswerInput, PromptView};

    fn out(m: &str) -> ExplainedOutput {
        ExplainedOutput {
            meaning: m.into(),
            origin: None,
            example: None,
        }
    }

    fn prompt(n: usize) -> Prompt {
        Prompt {
            subject: RatedSubject::Meme {
                phrase: "躺平".into(),
            },
            reference: None,
            candidates: (0..n).map(|i| out(&format!("m{i}"))).collect(),
        }
    }

    #[test]
    fn display_ranks_become_canonical_ranks_with_ties() {
        let p = prompt(5);
        let shown = Ranking::present(&p, 42, "rank-1");
        assert_eq!(shown.view.candidates.len(), 5);
        for (position, &c) in shown.order.iter().enumerate() {
            assert_eq!(shown.view.candidates[position], p.candidates[c]);
        }
        // The rater ties the first two displayed candidates for best.
        let display = vec![1, 1, 2, 3, 4];
        let wire = serde_json::to_string(&AnswerInput::Ranking(Input {
            ranks: display.clone(),
        }))
        .unwrap();
        assert_eq!(wire, r#"{"kind":"ranking","ranks":[1,1,2,3,4]}"#);
        let input = Ranking::input_of(serde_json::from_str(&wire).unwrap()).unwrap();
        let answer = Ranking::accept(&p, &shown.order, input).unwrap();
        for (position, &c) in shown.order.iter().enumerate() {
            assert_eq!(answer.ranks[c], display[position]);
        }
        // The canonical answer is a valid ranking for the statistics.
        let ranking = crate::human_eval::ranking::Ranking {
            rater: "r".into(),
            item: "i".into(),
            entries: answer
                .ranks
                .iter()
                .enumerate()
                .map(|(c, &rank)| RankedEntry {
                    system: format!("s{c}"),
                    rank,
                })
                .collect(),
        };
        assert!(validate_ranking(&ranking).is_ok());
        // The review shows the display order again.
        let review = Ranking::review(ReviewInput {
            prompt: &p,
            order: &shown.order,
            answer: &answer,
            gold: None,
            outcome: None,
            source_note: None,
        });
        assert_eq!(review.ranks, display);
        assert_eq!(review.candidates, shown.view.candidates);
    }

    #[test]
    fn refuses_wrong_counts_out_of_range_and_gaps() {
        let p = prompt(3);
        let order = [1, 2, 0];
        let err = |ranks: Vec<u8>| {
            Ranking::accept(&p, &order, Input { ranks })
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(vec![1, 2]),
            "`answer.ranks`: expected one rank for each of the 3 explanations, found 2"
        );
        assert_eq!(
            err(vec![1, 2, 4]),
            "`answer.ranks`: expected ranks from 1 (best) to 3, found 4"
        );
        assert_eq!(
            err(vec![0, 1, 2]),
            "`answer.ranks`: expected ranks from 1 (best) to 3, found 0"
        );
        assert_eq!(
            err(vec![1, 1, 3]),
            "`answer.ranks`: ranks must follow on without gaps (ties share a rank, e.g. 1, 1, 2), found 1, 1, 3"
        );
        assert!(Ranking::accept(
            &p,
            &order,
            Input {
                ranks: vec![1, 1, 1]
            }
        )
        .is_ok());
        assert!(serde_json::from_str::<AnswerInput>(r#"{"kind":"ranking"}"#).is_err());
    }

    #[test]
    fn the_view_never_names_submissions_and_orders_differ_by_seed() {
        let p = prompt(5);
        let gold = Gold {
            submissions: vec![Some("sub-a".into()), None, Some("sub-c".into())],
            source_item: "explain-9".into(),
            batch: 0,
        };
        let view =
            serde_json::to_string(&PromptView::Ranking(Ranking::present(&p, 1, "x").view)).unwrap();
        assert!(!view.contains("sub-") && !view.contains("explain-9"));
        let orders: BTreeSet<Vec<usize>> = (0..20)
            .map(|seed| Ranking::present(&p, seed, "x").order)
            .collect();
        assert!(orders.len() > 1);
        let stored = serde_json::to_string(&crate::kinds::ItemGold::Ranking(gold)).unwrap();
        assert!(stored.starts_with(r#"{"kind":"ranking""#));
    }
}

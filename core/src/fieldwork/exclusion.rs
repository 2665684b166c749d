//! The one decision that excludes a session from the human rows, with its reasons.

use super::{QualityRules, MIN_STRAIGHTLINE_ANSWERS};
use serde::{Deserialize, Serialize};

/// Why a session is left out of the human rows (a stable code; texts come with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExclusionCode {
    /// Started while the quiz was in pilot mode (the owner's test run; never counted, whatever
    /// the mode is now).
    Pilot,
    /// Screened out during the session (never completed).
    ScreenedOut,
    /// Failed the headphone check (the board switch `exclude_failed_checks`).
    FailedHeadphoneCheck,
    /// Failed too many attention checks.
    FailedAttentionChecks,
    /// Median response time below the minimum.
    TooFastMedian,
    /// Too many answers below the per-item minimum time.
    TooFastItems,
    /// One display position chosen for most answers.
    StraightLining,
    /// Judged a planted output of known quality the wrong way round (judging tasks).
    FailedPlantedChecks,
    /// Answered too few practice fields as expected before the first real page (judging
    /// tasks with a pass mark; screened out then).
    FailedQualification,
}

impl ExclusionCode {
    /// The stored and serialised key.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pilot => "pilot",
            Self::ScreenedOut => "screened_out",
            Self::FailedHeadphoneCheck => "failed_headphone_check",
            Self::FailedAttentionChecks => "failed_attention_checks",
            Self::TooFastMedian => "too_fast_median",
            Self::TooFastItems => "too_fast_items",
            Self::StraightLining => "straight_lining",
            Self::FailedPlantedChecks => "failed_planted_checks",
            Self::FailedQualification => "failed_qualification",
        }
    }

    /// Parses [`Self::as_str`].
    pub fn parse(key: &str) -> Option<Self> {
        [
            Self::Pilot,
            Self::ScreenedOut,
            Self::FailedHeadphoneCheck,
            Self::FailedAttentionChecks,
            Self::TooFastMedian,
            Self::TooFastItems,
            Self::StraightLining,
            Self::FailedPlantedChecks,
            Self::FailedQualification,
        ]
        .into_iter()
        .find(|c| c.as_str() == key)
    }
}

/// A session's exclusion: the code and what it means in both languages, with its figures.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExclusionReason {
    /// Stable code.
    pub code: ExclusionCode,
    /// In English.
    pub en: String,
    /// In Chinese.
    pub zh: String,
}

/// What the quality rules look at in one session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionFacts {
    /// Started while the quiz was in pilot mode (see [`ExclusionCode::Pilot`]).
    pub pilot: bool,
    /// Screened out during the session (see [`ExclusionCode::ScreenedOut`]).
    pub screened_out: bool,
    /// Whether the session was completed (unanswered checks count as failed only then).
    pub completed: bool,
    /// The headphone check's pass, for quizzes that have one.
    pub headphone_passed: Option<bool>,
    /// Attention checks planned for the session.
    pub checks_planned: usize,
    /// Attention checks answered, and how many of those were wrong.
    pub checks_answered: usize,
    /// Wrong answers among them.
    pub checks_failed: usize,
    /// Response time of each answer (ms).
    pub response_ms: Vec<u64>,
    /// The display position chosen in each choice answer (choice kinds only).
    pub choice_positions: Vec<usize>,
    /// Planted outputs judged (judging tasks), and how many of them the wrong way round.
    pub planted_judged: usize,
    /// Planted outputs judged the wrong way round ([`planted_failed`]).
    pub planted_failed: usize,
}

/// Whether a rating of a planted output of known quality fails the check: the reference itself
/// rated Disagree on its meaning (accuracy) or given a Core4 below 2 (dimensions); another
/// meme's meaning rated Agree, or given a Core4 above 2. Neutral and the middle of the scale
/// pass both.
///
/// ```
/// use memeboard_core::human_eval::accuracy::Verdict3;
/// use memeboard_core::kinds::rating::{Answer, Planted};
/// use memeboard_core::fieldwork::planted_failed;
/// let verdict = |meaning| Answer::Accuracy { meaning, origin: None, example: None, errors: vec![] };
/// assert!(planted_failed(Planted::Reference, &verdict(Verdict3::Disagree)));
/// assert!(!planted_failed(Planted::Reference, &verdict(Verdict3::Neutral)));
/// assert!(planted_failed(Planted::OtherMeaning, &verdict(Verdict3::Agree)));
/// ```
pub fn planted_failed(
    planted: crate::kinds::rating::Planted,
    answer: &crate::kinds::rating::Answer,
) -> bool {
    use crate::human_eval::accuracy::Verdict3;
    use crate::kinds::rating::{Answer, Planted};
    match (planted, answer) {
        (Planted::Reference, Answer::Accuracy { meaning, .. }) => *meaning == Verdict3::Disagree,
        (Planted::OtherMeaning, Answer::Accuracy { meaning, .. }) => *meaning == Verdict3::Agree,
        (Planted::Reference, Answer::Dimensions { scores, .. }) => scores.core4() < 2.0,
        (Planted::OtherMeaning, Answer::Dimensions { scores, .. }) => scores.core4() > 2.0,
    }
}

/// The screen-out reason of a rater whose practice fell short of the pass mark (see
/// [`crate::human_eval::training::Qualification`]).
///
/// ```
/// use memeboard_core::human_eval::training::Qualification;
/// use memeboard_core::fieldwork::{failed_qualification, ExclusionCode};
/// let r = failed_qualification(&Qualification::of(&[(1, 3), (1, 3)], Some(75)));
/// assert_eq!(r.code, ExclusionCode::FailedQualification);
/// assert_eq!(r.en, "answered 2 of 6 practice fields as expected (33%; pass mark 75%)");
/// ```
pub fn failed_qualification(q: &crate::human_eval::training::Qualification) -> ExclusionReason {
    let share = (q.share() * 100.0).round();
    let mark = q.pass_percent.unwrap_or(0);
    ExclusionReason {
        code: ExclusionCode::FailedQualification,
        en: format!(
            "answered {} of {} practice fields as expected ({share}%; pass mark {mark}%)",
            q.matched, q.total
        ),
        zh: format!(
            "练习中 {} 个评判项里有 {} 个与预期一致（{share}%；合格线 {mark}%）",
            q.total, q.matched
        ),
    }
}

/// The median of a list (mean of the middle two for an even length); `None` when empty.
///
/// ```
/// use memeboard_core::fieldwork::median;
/// assert_eq!(median(&[3000, 1000, 2000]), Some(2000.0));
/// assert_eq!(median(&[1000, 4000]), Some(2500.0));
/// assert_eq!(median(&[]), None);
/// ```
pub fn median(values: &[u64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
    }
}

/// Decides whether a session is left out of the human rows, and why (the first rule that
/// applies, in the order: pilot session, screened out, headphones, attention checks, planted outputs, median
/// time, per-item time, straight-lining). `exclude_failed_headphones` is the board switch.
///
/// Worked example: with `fail_checks_at_least = 2`, a finished session with 3 planned checks,
/// 2 answered and 1 of them wrong has 1 + 1 (unanswered) = 2 failures: excluded.
///
/// ```
/// use memeboard_core::fieldwork::{exclusion, ExclusionCode, QualityRules, SessionFacts};
/// let rules = QualityRules { fail_checks_at_least: Some(2), straightline_percent: Some(90), ..Default::default() };
/// let facts = SessionFacts { completed: true, checks_planned: 3, checks_answered: 2, checks_failed: 1, ..Default::default() };
/// assert_eq!(exclusion(&rules, false, &facts).unwrap().code, ExclusionCode::FailedAttentionChecks);
/// // 5 of 6 choices at display position 0 = 83% < 90%: kept.
/// let facts = SessionFacts { completed: true, choice_positions: vec![0, 0, 0, 0, 0, 1], ..Default::default() };
/// assert_eq!(exclusion(&rules, false, &facts), None);
/// ```
pub fn exclusion(
    rules: &QualityRules,
    exclude_failed_headphones: bool,
    facts: &SessionFacts,
) -> Option<ExclusionReason> {
    let reason = |code, en: String, zh: String| Some(ExclusionReason { code, en, zh });
    if facts.pilot {
        return reason(
            ExclusionCode::Pilot,
            "a pilot session (started in pilot mode)".into(),
            "试运行会话（在试运行模式下开始）".into(),
        );
    }
    if facts.screened_out {
        return reason(
            ExclusionCode::ScreenedOut,
            "screened out during the session".into(),
            "答题中途被筛除".into(),
        );
    }
    if exclude_failed_headphones && facts.headphone_passed == Some(false) {
        return reason(
            ExclusionCode::FailedHeadphoneCheck,
            "failed the headphone check".into(),
            "未通过耳机检测".into(),
        );
    }
    if let Some(limit) = rules.fail_checks_at_least {
        let missing = if facts.completed {
            facts.checks_planned.saturating_sub(facts.checks_answered)
        } else {
            0
        };
        let failed = facts.checks_failed + missing;
        if failed >= limit as usize {
            return reason(
                ExclusionCode::FailedAttentionChecks,
                format!(
                    "failed {failed} of {} attention checks (limit {limit})",
                    facts.checks_planned
                ),
                format!(
                    "{} 道注意力检查题中有 {failed} 道未通过（上限 {limit}）",
                    facts.checks_planned
                ),
            );
        }
    }
    if rules.planted_checks && facts.planted_failed > 0 {
        let (failed, judged) = (facts.planted_failed, facts.planted_judged);
        return reason(
            ExclusionCode::FailedPlantedChecks,
            format!(
                "judged {failed} of {judged} planted outputs of known quality the wrong way round"
            ),
            format!("{judged} 个已知质量的预置输出中有 {failed} 个评判方向相反"),
        );
    }
    if let Some(min) = rules.min_median_ms {
        if let Some(m) = median(&facts.response_ms) {
            if m < min as f64 {
                return reason(
                    ExclusionCode::TooFastMedian,
                    format!(
                        "median time per item {:.1} s, below the minimum {:.1} s",
                        m / 1000.0,
                        min as f64 / 1000.0
                    ),
                    format!(
                        "每题用时中位数 {:.1} 秒，低于最低 {:.1} 秒",
                        m / 1000.0,
                        min as f64 / 1000.0
                    ),
                );
            }
        }
    }
    if let Some(min) = rules.min_item_ms {
        let share = u64::from(rules.fast_share_percent.unwrap_or(50));
        let n = facts.response_ms.len() as u64;
        let fast = facts.response_ms.iter().filter(|&&ms| ms < min).count() as u64;
        if n > 0 && fast * 100 >= share * n {
            return reason(
                ExclusionCode::TooFastItems,
                format!(
                    "{fast} of {n} answers faster than {:.1} s (limit {share}%)",
                    min as f64 / 1000.0
                ),
                format!(
                    "{n} 个回答中有 {fast} 个快于 {:.1} 秒（上限 {share}%）",
                    min as f64 / 1000.0
                ),
            );
        }
    }
    if let Some(percent) = rules.straightline_percent {
        let n = facts.choice_positions.len();
        if n >= MIN_STRAIGHTLINE_ANSWERS {
            let mut counts = std::collections::BTreeMap::new();
            for p in &facts.choice_positions {
                *counts.entry(*p).or_insert(0usize) += 1;
            }
            if let Some((&position, &most)) = counts.iter().max_by_key(|(_, c)| **c) {
                if most * 100 >= usize::from(percent) * n {
                    return reason(
                        ExclusionCode::StraightLining,
                        format!(
                            "chose display position {} in {most} of {n} answers (limit {percent}%)",
                            position + 1
                        ),
                        format!(
                            "{n} 个回答中有 {most} 个选了第 {} 个位置（上限 {percent}%）",
                            position + 1
                        ),
                    );
                }
            }
        }
    }
    None
}

//! Running a study: the owner's settings of a quiz (participant target, items, content-flag
//! policy, recruitment hand-off, quality rules), attention checks drawn per session, the one
//! decision that excludes a session from the human rows, and the live-progress wire types.
//!
//! Everything here is pure: the server stores and serves, the app renders, both agree on the
//! same rules because they run this code.

use crate::crowd::AgreementRow;
use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};

/// Most attention checks a session can carry.
pub const MAX_ATTENTION_CHECKS: u8 = 5;
/// Options of an attention check (a five-point agreement scale, see [`check_option_labels`]).
pub const CHECK_OPTIONS: u8 = 5;
/// Fewest choice answers before straight-lining is judged (with fewer, one repeated position
/// says nothing).
pub const MIN_STRAIGHTLINE_ANSWERS: usize = 4;
/// Prolific's completion page; `?cc=CODE` completes the submission with the study's code.
pub const PROLIFIC_COMPLETE_URL: &str = "https://app.prolific.com/submissions/complete";
/// Longest completion code, screen-out code or URL template.
pub const MAX_HANDOFF_LEN: usize = 500;

/// Which participants a content warning may reach.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FlaggedPolicy {
    /// Each participant chooses on the survey whether to see flagged items (the default).
    #[default]
    ParticipantChoice,
    /// Flagged items are never assigned.
    Never,
}

/// Where a participant goes when they finish or are screened out: Prolific's completion URL
/// with the study's code, or a URL template of another panel.
///
/// Templates may use `{participant}` (the `PROLIFIC_PID` when present, else the site's
/// anonymous participant id), `{code}` (the code shown: Prolific's study-wide code when set,
/// else the session's own completion code), `{study}` and `{session}` (`STUDY_ID`,
/// `SESSION_ID`); values are percent-encoded. A template starting with `/` stays on this site.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct Handoff {
    /// Prolific's study-wide completion code: shown at the end and sent as
    /// `https://app.prolific.com/submissions/complete?cc=CODE`.
    pub prolific_completion_code: Option<String>,
    /// Prolific's screen-out code, for participants excluded early.
    pub prolific_screenout_code: Option<String>,
    /// Completion redirect of another panel (wins over the Prolific URL when both are set).
    pub completion_url_template: Option<String>,
    /// Screen-out redirect of another panel.
    pub screenout_url_template: Option<String>,
    /// Let one `PROLIFIC_PID` take the quiz more than once (by default an unfinished session
    /// is resumed only by the browser holding its participant secret, and a finished one
    /// refused). Ids are compared after [`crate::recruitment::normalize_prolific_id`].
    pub allow_repeat_participation: bool,
    /// Refuse starts without a `PROLIFIC_PID` (a study run only through Prolific, where a
    /// link without the id is a participant who could otherwise take part twice).
    pub require_prolific_id: bool,
}

/// Rules that leave a participant's session out of the human rows (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct QualityRules {
    /// Excluded when at least this many attention checks are failed (an unanswered check of
    /// a finished session counts as failed). With a screen-out set, reaching it during the
    /// quiz ends the session there.
    pub fail_checks_at_least: Option<u32>,
    /// Excluded when the median response time per item is below this (ms).
    pub min_median_ms: Option<u64>,
    /// With `fast_share_percent`: excluded when at least that share of answers took less than
    /// this (ms).
    pub min_item_ms: Option<u64>,
    /// See `min_item_ms` (default 50 when unset).
    pub fast_share_percent: Option<u8>,
    /// Choice kinds: excluded when one display position holds at least this share (percent)
    /// of the choice answers (at least [`MIN_STRAIGHTLINE_ANSWERS`] of them).
    pub straightline_percent: Option<u8>,
    /// Screen out at the start those who fail the headphone check (clip quizzes; needs a
    /// screen-out code or URL). Leaving them out of the rows is the board switch
    /// `exclude_failed_checks`.
    pub screen_out_failed_headphones: bool,
    /// Judging tasks (ratings): excluded when any planted output of known quality was judged
    /// the wrong way round — the reference itself rated Disagree (Core4 below 2), or another
    /// meme's meaning rated Agree (Core4 above 2). See [`planted_failed`].
    pub planted_checks: bool,
}

/// Everything an owner sets on a quiz's console beyond the board switches.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields, default)]
pub struct StudySettings {
    /// Stop taking new participants once this many sessions are completed (sessions already
    /// started may still finish).
    pub participant_target: Option<u32>,
    /// Only these categories are assigned (empty: all).
    pub categories: Vec<String>,
    /// Items never assigned.
    pub excluded_items: Vec<String>,
    /// Content warnings.
    pub flagged_policy: FlaggedPolicy,
    /// Attention checks per session (0 to [`MAX_ATTENTION_CHECKS`]).
    pub attention_checks: u8,
    /// Completion and screen-out hand-off.
    pub handoff: Handoff,
    /// Exclusion rules.
    pub quality: QualityRules,
}

impl StudySettings {
    /// Whether a screen-out destination is set (then early exclusions end the session).
    pub fn has_screenout(&self) -> bool {
        self.handoff.prolific_screenout_code.is_some()
            || self.handoff.screenout_url_template.is_some()
    }

    /// Checks every field: which one is wrong and what was expected.
    pub fn validate(&self) -> Result<(), crate::messages::Message> {
        use crate::msg;
        if self.participant_target == Some(0) {
            return Err(msg!("study.participant_target"));
        }
        if self.attention_checks > MAX_ATTENTION_CHECKS {
            return Err(msg!(
                "study.range",
                field = "attention_checks",
                min = 0,
                max = MAX_ATTENTION_CHECKS,
                found = self.attention_checks
            ));
        }
        let h = &self.handoff;
        for (field, code) in [
            (
                "handoff.prolific_completion_code",
                &h.prolific_completion_code,
            ),
            (
                "handoff.prolific_screenout_code",
                &h.prolific_screenout_code,
            ),
        ] {
            if let Some(c) = code {
                if c.is_empty()
                    || c.len() > 64
                    || !c
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    return Err(msg!("study.code_chars", field = field, found = c));
                }
            }
        }
        for (field, template) in [
            (
                "handoff.completion_url_template",
                &h.completion_url_template,
            ),
            ("handoff.screenout_url_template", &h.screenout_url_template),
        ] {
            if let Some(t) = template {
                let ok_start = t.starts_with("https://")
                    || t.starts_with("http://")
                    || (t.starts_with('/') && !t.starts_with("//"));
                if !ok_start || t.len() > MAX_HANDOFF_LEN || t.chars().any(char::is_whitespace) {
                    return Err(msg!(
                        "study.url_template",
                        field = field,
                        max = MAX_HANDOFF_LEN,
                        found = t
                    ));
                }
            }
        }
        let q = &self.quality;
        for (field, p) in [
            ("quality.fast_share_percent", q.fast_share_percent),
            ("quality.straightline_percent", q.straightline_percent),
        ] {
            if let Some(p) = p {
                if !(1..=100).contains(&p) {
                    return Err(msg!(
                        "study.range",
                        field = field,
                        min = 1,
                        max = 100,
                        found = p
                    ));
                }
            }
        }
        if q.fail_checks_at_least == Some(0) {
            return Err(msg!("study.fail_checks"));
        }
        if q.screen_out_failed_headphones && !self.has_screenout() {
            return Err(msg!("study.screenout_needs_target"));
        }
        Ok(())
    }
}

/// What a hand-off URL is filled with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HandoffIds<'a> {
    /// The site's anonymous participant id.
    pub participant_id: &'a str,
    /// `PROLIFIC_PID`, `STUDY_ID`, `SESSION_ID`, when the start had them.
    pub prolific_pid: Option<&'a str>,
    /// `STUDY_ID`.
    pub study_id: Option<&'a str>,
    /// `SESSION_ID`.
    pub session_id: Option<&'a str>,
    /// The session's own completion code (completion only).
    pub completion_code: Option<&'a str>,
}

/// Percent-encodes a value for a URL query or path (RFC 3986 unreserved characters kept).
pub fn percent_encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn fill(template: &str, code: &str, ids: &HandoffIds<'_>) -> String {
    template
        .replace(
            "{participant}",
            &percent_encode(ids.prolific_pid.unwrap_or(ids.participant_id)),
        )
        .replace("{code}", &percent_encode(code))
        .replace("{study}", &percent_encode(ids.study_id.unwrap_or_default()))
        .replace(
            "{session}",
            &percent_encode(ids.session_id.unwrap_or_default()),
        )
}

/// Where to send someone who finished, and the code to show them: `(url, code)`.
///
/// ```
/// use memeboard_core::study::{completion_handoff, Handoff, HandoffIds};
/// let ids = HandoffIds { participant_id: "P-1", prolific_pid: Some("5f0c"), completion_code: Some("AB12CD34"), ..Default::default() };
/// let prolific = Handoff { prolific_completion_code: Some("C1ABCDEF".into()), ..Default::default() };
/// assert_eq!(completion_handoff(&prolific, &ids), Some((
///     "https://app.prolific.com/submissions/complete?cc=C1ABCDEF".to_owned(), "C1ABCDEF".to_owned())));
/// let panel = Handoff { completion_url_template: Some("https://panel.example/done?id={participant}&c={code}".into()), ..Default::default() };
/// assert_eq!(completion_handoff(&panel, &ids).unwrap().0, "https://panel.example/done?id=5f0c&c=AB12CD34");
/// assert_eq!(completion_handoff(&Handoff::default(), &ids), None);
/// ```
pub fn completion_handoff(h: &Handoff, ids: &HandoffIds<'_>) -> Option<(String, String)> {
    let code = h
        .prolific_completion_code
        .as_deref()
        .or(ids.completion_code)
        .unwrap_or_default()
        .to_owned();
    if let Some(t) = &h.completion_url_template {
        return Some((fill(t, &code, ids), code));
    }
    let cc = h.prolific_completion_code.as_deref()?;
    Some((
        format!("{PROLIFIC_COMPLETE_URL}?cc={}", percent_encode(cc)),
        code,
    ))
}

/// Where to send someone screened out, and the code to show: `(url, code)`; `None` without a
/// screen-out destination.
///
/// ```
/// use memeboard_core::study::{screenout_handoff, Handoff, HandoffIds};
/// let h = Handoff { prolific_screenout_code: Some("SCREEN1".into()), ..Default::default() };
/// let ids = HandoffIds { participant_id: "P-1", ..Default::default() };
/// assert_eq!(screenout_handoff(&h, &ids).unwrap().0, "https://app.prolific.com/submissions/complete?cc=SCREEN1");
/// ```
pub fn screenout_handoff(h: &Handoff, ids: &HandoffIds<'_>) -> Option<(String, String)> {
    let code = h.prolific_screenout_code.clone().unwrap_or_default();
    if let Some(t) = &h.screenout_url_template {
        return Some((fill(t, &code, ids), code));
    }
    let cc = h.prolific_screenout_code.as_deref()?;
    Some((
        format!("{PROLIFIC_COMPLETE_URL}?cc={}", percent_encode(cc)),
        code,
    ))
}

/// One instructed-response check of a session: "choose option `target + 1` of
/// `num_options`", shown just before the item at `before_position`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckPlan {
    /// 0-based index of the check in the session.
    pub index: u8,
    /// Shown before the item at this batch position (1 or later: never before the first
    /// item, so a check cannot be mistaken for the instructions).
    pub before_position: usize,
    /// The option to choose, 0-based (not a secret: the instruction names it).
    pub target: u8,
    /// Options shown.
    pub num_options: u8,
}

/// The checks of a session, drawn from its seed: `count` distinct positions in
/// `1..batch_size` (fewer when the batch is too small), each with its own target.
///
/// ```
/// use memeboard_core::study::plan_checks;
/// let a = plan_checks(42, 24, 3);
/// assert_eq!(a, plan_checks(42, 24, 3)); // deterministic per seed
/// assert_eq!(a.len(), 3);
/// assert!(a.windows(2).all(|w| w[0].before_position < w[1].before_position));
/// assert!(a.iter().all(|c| (1..24).contains(&c.before_position) && c.target < c.num_options));
/// assert_eq!(plan_checks(42, 1, 3), vec![]); // no room between items
/// ```
pub fn plan_checks(seed: u64, batch_size: usize, count: u8) -> Vec<CheckPlan> {
    if batch_size < 2 || count == 0 {
        return Vec::new();
    }
    // Mixed with a constant so that the checks do not follow the option orders of the seed.
    let mut rng = SplitMix64::new(seed ^ 0x6174_7465_6e74_696f);
    let mut positions: Vec<usize> = (1..batch_size).collect();
    rng.shuffle(&mut positions);
    positions.truncate(usize::from(count.min(MAX_ATTENTION_CHECKS)));
    positions.sort_unstable();
    positions
        .into_iter()
        .zip(0u8..)
        .map(|(before_position, index)| CheckPlan {
            index,
            before_position,
            target: u8::try_from(rng.below(usize::from(CHECK_OPTIONS))).unwrap_or(0),
            num_options: CHECK_OPTIONS,
        })
        .collect()
}

/// The options of an attention check in a language (`zh` or anything else for English):
/// a five-point agreement scale, so that the right answer is never the obvious one.
pub fn check_option_labels(lang_zh: bool) -> [&'static str; CHECK_OPTIONS as usize] {
    if lang_zh {
        ["非常不同意", "不同意", "说不清", "同意", "非常同意"]
    } else {
        [
            "Strongly disagree",
            "Disagree",
            "Neither",
            "Agree",
            "Strongly agree",
        ]
    }
}

/// The instruction of an attention check in a language.
///
/// ```
/// use memeboard_core::study::check_instruction;
/// assert_eq!(check_instruction(false, 2), "This question checks attention. Please choose the third option, “Neither”.");
/// assert_eq!(check_instruction(true, 0), "本题用于检查注意力：请选择第一个选项“非常不同意”。");
/// ```
pub fn check_instruction(lang_zh: bool, target: u8) -> String {
    let label = check_option_labels(lang_zh)
        .get(usize::from(target))
        .copied()
        .unwrap_or_default();
    if lang_zh {
        let nth = ["一", "二", "三", "四", "五"]
            .get(usize::from(target))
            .copied()
            .unwrap_or("一");
        format!("本题用于检查注意力：请选择第{nth}个选项“{label}”。")
    } else {
        let nth = ["first", "second", "third", "fourth", "fifth"]
            .get(usize::from(target))
            .copied()
            .unwrap_or("first");
        format!("This question checks attention. Please choose the {nth} option, “{label}”.")
    }
}

/// Why a session is left out of the human rows (a stable code; texts come with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExclusionCode {
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
}

impl ExclusionCode {
    /// The stored and serialised key.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ScreenedOut => "screened_out",
            Self::FailedHeadphoneCheck => "failed_headphone_check",
            Self::FailedAttentionChecks => "failed_attention_checks",
            Self::TooFastMedian => "too_fast_median",
            Self::TooFastItems => "too_fast_items",
            Self::StraightLining => "straight_lining",
            Self::FailedPlantedChecks => "failed_planted_checks",
        }
    }

    /// Parses [`Self::as_str`].
    pub fn parse(key: &str) -> Option<Self> {
        [
            Self::ScreenedOut,
            Self::FailedHeadphoneCheck,
            Self::FailedAttentionChecks,
            Self::TooFastMedian,
            Self::TooFastItems,
            Self::StraightLining,
            Self::FailedPlantedChecks,
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
/// use memeboard_core::study::planted_failed;
/// let verdict = |meaning| Answer::Accuracy { meaning, origin: None, example: None };
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
        (Planted::Reference, Answer::Dimensions { scores }) => scores.core4() < 2.0,
        (Planted::OtherMeaning, Answer::Dimensions { scores }) => scores.core4() > 2.0,
    }
}

/// The median of a list (mean of the middle two for an even length); `None` when empty.
///
/// ```
/// use memeboard_core::study::median;
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
/// applies, in the order: screened out, headphones, attention checks, planted outputs, median
/// time, per-item time, straight-lining). `exclude_failed_headphones` is the board switch.
///
/// Worked example: with `fail_checks_at_least = 2`, a finished session with 3 planned checks,
/// 2 answered and 1 of them wrong has 1 + 1 (unanswered) = 2 failures: excluded.
///
/// ```
/// use memeboard_core::study::{exclusion, ExclusionCode, QualityRules, SessionFacts};
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

/// `POST /api/sessions/{id}/checks`: the answer to one attention check.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SubmitCheckRequest {
    /// Which check (its `index`).
    pub index: u8,
    /// The option chosen, 0-based.
    pub choice: u8,
    /// Milliseconds from showing the check to answering.
    pub response_ms: u64,
}

/// Where a screened-out participant goes, and the code to show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ScreenOut {
    /// Why (also the owner's exclusion list).
    pub reason: ExclusionReason,
    /// The screen-out redirect.
    pub redirect_url: String,
    /// The screen-out code (may be empty for URL-only panels).
    pub code: String,
}

/// The stored answer to a check (no right/wrong is revealed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SubmitCheckResponse {
    /// True when this repeated the stored answer.
    pub replayed: bool,
    /// Set when this answer ended the session (too many failed checks, with a screen-out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen_out: Option<ScreenOut>,
}

/// A check as a session carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionCheck {
    /// The plan.
    #[serde(flatten)]
    pub plan: CheckPlan,
    /// Already answered.
    pub answered: bool,
}

/// One action of an owner (or the admin), as the console lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OwnerAction {
    /// Who: `admin` or the owner's name.
    pub actor: String,
    /// The owner id (`None` for the admin).
    pub owner_id: Option<String>,
    /// Task slug, for task actions.
    pub task: Option<String>,
    /// What (`update_settings`, `update_board`, `create_owner`, …).
    pub action: String,
    /// Details (e.g. changed fields with old and new values).
    pub detail: serde_json::Value,
    /// When (ms since the epoch).
    pub at: i64,
}

/// An excluded session, for the owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ExcludedSession {
    /// Session id.
    pub session_id: String,
    /// Anonymous participant id.
    pub participant_id: String,
    /// `PROLIFIC_PID`, if any (to reject or pay on Prolific).
    pub prolific_pid: Option<String>,
    /// Why.
    pub reason: ExclusionReason,
}

/// The board switches the console shows beside the study settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ConsoleSettings {
    /// Listed and open to new participants.
    pub quiz_open: bool,
    /// Items per participant.
    pub batch_size: u32,
    /// Someone who finished may take the quiz again (participant id).
    pub allow_retake: bool,
    /// Failed headphone checks are left out of the human rows.
    pub exclude_failed_checks: bool,
    /// The rest.
    pub study: StudySettings,
}

/// An item as the console lists it (for the item selection).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsoleItem {
    /// Id.
    pub item_id: String,
    /// Category key.
    pub category: String,
    /// Content warning.
    pub flagged: bool,
}

/// `GET /api/owner/tasks/{slug}/console`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConsoleResponse {
    /// Task slug.
    pub task: String,
    /// Task title.
    pub title: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Who is looking (`admin` or the owner's name).
    pub actor: String,
    /// Current settings.
    pub settings: ConsoleSettings,
    /// Categories (keys and labels).
    pub categories: Vec<crate::tasks::CategoryInfo>,
    /// Items of the pool.
    pub items: Vec<ConsoleItem>,
    /// Owner actions on this benchmark, newest first (at most 200).
    pub actions: Vec<OwnerAction>,
    /// Excluded sessions with reasons.
    pub exclusions: Vec<ExcludedSession>,
    /// Completed sessions before and after exclusions.
    pub completed_before_exclusions: usize,
    /// After exclusions.
    pub completed_after_exclusions: usize,
    /// The completion redirect as it will look (placeholders filled with examples), if any.
    pub completion_preview: Option<String>,
    /// The screen-out redirect likewise.
    pub screenout_preview: Option<String>,
    /// Answer-level downloads.
    pub exports: Vec<String>,
}

/// A task an owner token may manage (`GET /api/owner/tasks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OwnedTask {
    /// Slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Open as a quiz.
    pub quiz_open: bool,
}

/// `POST /api/admin/owners`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateOwnerRequest {
    /// Benchmark slug the owner may manage.
    pub benchmark: String,
    /// Who (a person or lab, for the action log).
    pub name: String,
}

/// The new owner and its token (shown only here; only a hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateOwnerResponse {
    /// Owner id.
    pub owner_id: String,
    /// Benchmark slug.
    pub benchmark: String,
    /// Name.
    pub name: String,
    /// Bearer token for `/api/owner/…` (and the board switches of the benchmark's tasks).
    pub token: String,
}

/// Answers and timing of one item so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ItemProgress {
    /// Item id.
    pub item_id: String,
    /// Category.
    pub category: String,
    /// Answers stored (any session).
    pub answers: usize,
    /// Median response time (ms), if answered.
    pub median_ms: Option<f64>,
}

/// Answers per category so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CategoryProgress {
    /// Category key.
    pub category: String,
    /// Answers stored.
    pub answers: usize,
}

/// Sessions that stopped before the item at `position` (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DropPoint {
    /// The first unanswered position.
    pub position: usize,
    /// Sessions.
    pub sessions: usize,
}

/// One bin of the completion-time histogram: sessions finished in `[from_s, to_s)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct HistogramBin {
    /// Lower edge (seconds).
    pub from_s: u64,
    /// Upper edge (seconds, exclusive).
    pub to_s: u64,
    /// Sessions.
    pub sessions: usize,
}

/// `GET /api/owner/tasks/{slug}/progress`: the live view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProgressResponse {
    /// Task slug.
    pub task: String,
    /// Sessions started.
    pub started: usize,
    /// Completed.
    pub completed: usize,
    /// Completed and not excluded.
    pub completed_after_exclusions: usize,
    /// Unfinished with activity in the last [`DROP_AFTER_MS`].
    pub in_progress: usize,
    /// Unfinished and idle longer.
    pub dropped: usize,
    /// Screened out.
    pub screened_out: usize,
    /// Where the dropped sessions stopped.
    pub dropped_at: Vec<DropPoint>,
    /// The participant target, if any.
    pub participant_target: Option<u32>,
    /// Per item, in pool order.
    pub items: Vec<ItemProgress>,
    /// Per category, in benchmark order.
    pub categories: Vec<CategoryProgress>,
    /// Agreement so far (completed, non-excluded sessions).
    pub agreement: Vec<AgreementRow>,
    /// Time from start to completion.
    pub completion_histogram: Vec<HistogramBin>,
    /// When these figures were computed (ms since the epoch).
    pub computed_at: i64,
}

/// An unfinished session counts as dropped after this long without an answer (30 minutes).
pub const DROP_AFTER_MS: i64 = 30 * 60 * 1000;

/// Bins of a completion-time histogram: 10 equal bins from 0 to the longest duration rounded
/// up to a whole minute (a single bin for no data).
///
/// ```
/// use memeboard_core::study::histogram;
/// let bins = histogram(&[30_000, 45_000, 170_000]);
/// assert_eq!(bins.len(), 10);
/// assert_eq!((bins[0].from_s, bins[0].to_s), (0, 18)); // 180 s / 10
/// assert_eq!(bins[1].sessions + bins[2].sessions, 2);  // 30 s and 45 s
/// assert_eq!(bins[9].sessions, 1);                      // 170 s
/// ```
pub fn histogram(durations_ms: &[i64]) -> Vec<HistogramBin> {
    let max_s = durations_ms.iter().copied().max().unwrap_or(0).max(0) as u64 / 1000 + 1;
    let top = max_s.div_ceil(60) * 60;
    let width = (top / 10).max(1);
    let mut bins: Vec<HistogramBin> = (0..10)
        .map(|i| HistogramBin {
            from_s: i * width,
            to_s: (i + 1) * width,
            sessions: 0,
        })
        .collect();
    for &d in durations_ms {
        let s = d.max(0) as u64 / 1000;
        let i = usize::try_from(s / width).unwrap_or(usize::MAX).min(9);
        bins[i].sessions += 1;
    }
    bins
}

#[cfg(test)]
mod tests;

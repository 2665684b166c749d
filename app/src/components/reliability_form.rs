//! The study page's reliability thresholds (owners only): the raters and judgements before and
//! after them, the raters they leave out of every table and why, and the small form that sets
//! them (`PUT /api/owner/studies/{slug}/reliability`). Its strings, in both languages, live
//! here like the rater table's: only the study page (the studio bundle) uses them, so the quiz
//! and board bundles never carry them.

use crate::i18n::{text, use_i18n, Lang, StringTable};
use crate::study_api;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::human_eval::thresholds::{
    ExcludedRater, ReliabilityThresholds, ThresholdCounts, ThresholdFailure, ThresholdRule,
};

/// The section's strings in one language.
#[derive(Debug)]
pub struct ThresholdStrings {
    /// Heading.
    pub title: &'static str,
    /// What the thresholds do (applied once, to the rows of the table above).
    pub intro: &'static str,
    /// Field labels: planted pass rate, competence, leave-one-out gain.
    pub fields: [&'static str; 3],
    /// Save button.
    pub save: &'static str,
    /// Saved notice.
    pub saved: &'static str,
    /// A field that is not a number: its label.
    pub not_a_number: fn(&str) -> String,
    /// Raters and judgements before → after.
    pub counts: fn(&ThresholdCounts) -> String,
    /// Nobody left out.
    pub none_excluded: &'static str,
    /// Heading of the list of raters left out.
    pub excluded_title: &'static str,
    /// One failed threshold: rule name, value, threshold.
    pub failure: fn(&str, f64, f64) -> String,
    /// Rule names, in [`ThresholdRule`] order.
    pub rules: [&'static str; 3],
}

static EN: ThresholdStrings = ThresholdStrings {
    title: "Reliability thresholds",
    intro: "Leave raters out of every table (agreement, results, the board) when their \
            planted-check pass rate or Dawid–Skene competence is below a minimum, or when \
            leaving them out raises their group's agreement (κ or α) by more than a maximum. \
            Applied once, to the per-rater rows above (the raters the quality rules keep); \
            leave a field empty for no threshold.",
    fields: [
        "Minimum planted-check pass rate (0–1)",
        "Minimum competence (0–1, accuracy verdicts)",
        "Maximum agreement gain without the rater (0–2)",
    ],
    save: "Save thresholds",
    saved: "Thresholds saved.",
    not_a_number: |label| format!("{label}: not a number"),
    counts: |n| {
        format!(
            "Counted: {} of {} raters and {} of {} judgements (before the thresholds → after).",
            n.raters_after, n.raters_before, n.judgements_after, n.judgements_before
        )
    },
    none_excluded: "No rater is left out by the thresholds.",
    excluded_title: "Left out by the thresholds",
    failure: |rule, value, threshold| format!("{rule} {value:.2} (threshold {threshold:.2})"),
    rules: [
        "planted-check pass rate",
        "competence",
        "agreement gain without them",
    ],
};

static ZH: ThresholdStrings = ThresholdStrings {
    title: "信度阈值",
    intro: "当评分者的预设检查通过率或 Dawid–Skene 能力低于最小值，或去掉此人后其所在组的\
            一致性（κ 或 α）提高超过最大值时，将其从所有表（一致性、结果、榜单）中排除。\
            只对上表中的逐评分者信度（通过质量规则的评分者）应用一次；留空表示不设阈值。",
    fields: [
        "最低预设检查通过率（0–1）",
        "最低能力（0–1，准确性评判）",
        "去掉此人后一致性的最大提升（0–2）",
    ],
    save: "保存阈值",
    saved: "阈值已保存。",
    not_a_number: |label| format!("{label}：不是数字"),
    counts: |n| {
        format!(
            "计入：{} 名评分者中的 {} 名，{} 条判断中的 {} 条（阈值前 → 阈值后）。",
            n.raters_before, n.raters_after, n.judgements_before, n.judgements_after
        )
    },
    none_excluded: "没有评分者被阈值排除。",
    excluded_title: "被阈值排除",
    failure: |rule, value, threshold| format!("{rule} {value:.2}（阈值 {threshold:.2}）"),
    rules: ["预设检查通过率", "能力", "去掉此人后一致性的提升"],
};

impl StringTable for ThresholdStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// A threshold field's value: empty is no threshold, otherwise a number (an error if not).
pub fn parse_threshold(text: &str) -> Result<Option<f64>, std::num::ParseFloatError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<f64>().map(Some)
}

/// One rater's failed thresholds, in `lang`.
pub fn failures_text(lang: Lang, failures: &[ThresholdFailure]) -> String {
    let t = lang.table::<ThresholdStrings>();
    let parts: Vec<String> = failures
        .iter()
        .map(|f| {
            let rule = match f.rule {
                ThresholdRule::PlantedPassRate => t.rules[0],
                ThresholdRule::Competence => t.rules[1],
                ThresholdRule::LooGain => t.rules[2],
            };
            (t.failure)(rule, f.value, f.threshold)
        })
        .collect();
    parts.join("; ")
}

/// A number field's text.
fn text_of(v: Option<f64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

/// The reliability-threshold section of the study page.
#[component]
pub fn ReliabilityForm(
    /// Study slug.
    slug: String,
    /// The owner token.
    token: String,
    /// The stored thresholds.
    thresholds: ReliabilityThresholds,
    /// The raters they leave out.
    excluded: Vec<ExcludedRater>,
    /// Raters and judgements before and after.
    counts: Option<ThresholdCounts>,
    /// Reloads the study page once saved (the tables follow the thresholds).
    reload: Callback<()>,
) -> impl IntoView {
    let i18n = use_i18n();
    let t = text::<ThresholdStrings>;
    let values = [
        thresholds.min_planted_pass_rate,
        thresholds.min_competence,
        thresholds.max_loo_gain,
    ]
    .map(|v| RwSignal::new(text_of(v)));
    let message = RwSignal::new(None::<Result<(), String>>);
    let sending = RwSignal::new(false);
    let (slug, token) = (StoredValue::new(slug), StoredValue::new(token));
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        if sending.get_untracked() {
            return;
        }
        let s = i18n.lang_untracked().table::<ThresholdStrings>();
        let mut parsed = [None; 3];
        for (i, v) in values.iter().enumerate() {
            match parse_threshold(&v.get_untracked()) {
                Ok(x) => parsed[i] = x,
                Err(_) => {
                    message.set(Some(Err((s.not_a_number)(s.fields[i]))));
                    return;
                }
            }
        }
        let body = ReliabilityThresholds {
            min_planted_pass_rate: parsed[0],
            min_competence: parsed[1],
            max_loo_gain: parsed[2],
        };
        sending.set(true);
        spawn_local(async move {
            let r = study_api::set_thresholds(&slug.get_value(), &token.get_value(), &body).await;
            let _ = sending.try_set(false);
            let ok = r.is_ok();
            let _ = message.try_set(Some(r.map(|_| ()).map_err(|e| e.to_string())));
            if ok {
                reload.run(());
            }
        });
    };
    let counts_line = counts.map(|n| {
        let line = move || (i18n.table::<ThresholdStrings>().counts)(&n);
        view! { <p data-testid="threshold-counts">{line}</p> }
    });
    let left_out = if excluded.is_empty() {
        view! { <p class="muted small" data-testid="threshold-none">{t(|s| s.none_excluded)}</p> }
            .into_any()
    } else {
        let items = excluded
            .into_iter()
            .map(|e| {
                let failures = e.failures.clone();
                let why = move || failures_text(i18n.lang(), &failures);
                view! { <li data-testid="threshold-excluded"><code>{e.rater}</code> ": " {why}</li> }
            })
            .collect_view();
        view! { <h4>{t(|s| s.excluded_title)}</h4> <ul>{items}</ul> }.into_any()
    };
    let ids = [
        "threshold-planted",
        "threshold-competence",
        "threshold-gain",
    ];
    let fields = ids
        .into_iter()
        .zip(values)
        .enumerate()
        .map(|(i, (id, value))| {
            let label = move || i18n.table::<ThresholdStrings>().fields[i];
            view! {
                <div class="field">
                    <label for=id>{label}</label>
                    <input
                        id=id
                        type="number"
                        step="any"
                        min="0"
                        data-testid=id
                        prop:value=move || value.get()
                        on:input=move |ev| value.set(event_target_value(&ev))
                    />
                </div>
            }
        })
        .collect_view();
    view! {
        <h3>{t(|s| s.title)}</h3>
        {counts_line}
        {left_out}
        <form class="stack" on:submit=on_submit data-testid="threshold-form">
            <p class="muted small">{t(|s| s.intro)}</p>
            {fields}
            <button type="submit" class="button primary" data-testid="threshold-save" disabled=move || sending.get()>
                {t(|s| s.save)}
            </button>
        </form>
        {move || message.get().map(|m| match m {
            Ok(()) => view! { <p class="notice" role="status">{t(|s| s.saved)}</p> }.into_any(),
            Err(e) => view! { <p class="notice error" role="alert" data-testid="threshold-error">{e}</p> }.into_any(),
        })}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_empty_or_numbers() {
        assert_eq!(parse_threshold("  "), Ok(None));
        assert_eq!(parse_threshold("0.5"), Ok(Some(0.5)));
        assert_eq!(parse_threshold(" 1 "), Ok(Some(1.0)));
        assert!(parse_threshold("half").is_err());
        assert_eq!(text_of(Some(0.25)), "0.25");
        assert_eq!(text_of(None), "");
    }

    #[test]
    fn both_languages_say_the_counts_and_why() {
        let n = ThresholdCounts {
            raters_before: 3,
            raters_after: 2,
            judgements_before: 12,
            judgements_after: 8,
        };
        assert_eq!(
            (EN.counts)(&n),
            "Counted: 2 of 3 raters and 8 of 12 judgements (before the thresholds → after)."
        );
        assert!((ZH.counts)(&n).contains("3 名评分者中的 2 名"));
        let failures = [
            ThresholdFailure {
                rule: ThresholdRule::PlantedPassRate,
                value: 0.0,
                threshold: 0.5,
            },
            ThresholdFailure {
                rule: ThresholdRule::LooGain,
                value: 0.8,
                threshold: 0.5,
            },
        ];
        assert_eq!(
            failures_text(Lang::En, &failures),
            "planted-check pass rate 0.00 (threshold 0.50); agreement gain without them 0.80 (threshold 0.50)"
        );
        assert!(failures_text(Lang::Zh, &failures).starts_with("预设检查通过率 0.00（阈值 0.50）"));
        for s in [&EN, &ZH] {
            assert!(s.fields.iter().chain(&s.rules).all(|f| !f.is_empty()));
        }
    }
}

//! The console's action log in words: each action named in the reader's language and its
//! details as lines ("Attention checks per session (0 to 5): 0 → 2"), never raw JSON.

use super::date_time;
use crate::format;
use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::fieldwork::OwnerAction;
use serde_json::Value;

/// The label of a setting as the settings form shows it, by its path in the logged change
/// (`study.handoff.prolific_completion_code`); `None` for a path the form does not have.
fn setting_label(s: &'static FieldworkStrings, path: &str) -> Option<&'static str> {
    Some(match path {
        "quiz_open" => s.quiz_open,
        "batch_size" => s.batch_size,
        "allow_retake" => s.allow_retake,
        "exclude_failed_checks" => s.exclude_headphones,
        "study.participant_target" => s.participant_target,
        "study.categories" => s.categories_label,
        "study.excluded_items" => s.excluded_items_label,
        "study.flagged_policy" => s.flagged_label,
        "study.attention_checks" => s.checks_label,
        "study.batches_per_rater" => s.rater_batches,
        "study.handoff.prolific_completion_code" => s.prolific_code,
        "study.handoff.prolific_screenout_code" => s.prolific_screenout,
        "study.handoff.completion_url_template" => s.completion_template,
        "study.handoff.screenout_url_template" => s.screenout_template,
        "study.handoff.allow_repeat_participation" => s.allow_repeat,
        "study.handoff.require_prolific_id" => s.require_pid,
        "study.quality.fail_checks_at_least" => s.fail_checks,
        "study.quality.min_median_ms" => s.min_median,
        "study.quality.min_item_ms" => s.min_item,
        "study.quality.fast_share_percent" => s.fast_share,
        "study.quality.straightline_percent" => s.straightline,
        "study.quality.screen_out_failed_headphones" => s.screen_headphones,
        "study.quality.planted_checks" => s.planted_checks,
        _ => return None,
    })
}

/// A logged value in words: nothing as a dash, switches as on/off, lists joined.
fn value_text(s: &'static FieldworkStrings, v: &Value) -> String {
    match v {
        Value::Null => format::DASH.to_owned(),
        Value::Bool(b) => s.on_off[usize::from(!*b)].to_owned(),
        Value::String(t) if t.is_empty() => format::DASH.to_owned(),
        Value::String(t) => t.clone(),
        Value::Array(items) if items.is_empty() => format::DASH.to_owned(),
        Value::Array(items) => items
            .iter()
            .map(|i| value_text(s, i))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{k} {}", value_text(s, v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::Number(n) => n.to_string(),
    }
}

/// An action's details as lines: a settings change as "label: from → to" per field, anything
/// else as "key: value" per field.
pub(super) fn detail_lines(lang: Lang, action: &OwnerAction) -> Vec<String> {
    let s = lang.table::<FieldworkStrings>();
    if let Some(changed) = action.detail.get("changed").and_then(Value::as_object) {
        return changed
            .iter()
            .map(|(path, change)| {
                let label = setting_label(s, path).unwrap_or(path);
                let (from, to) = (&change["from"], &change["to"]);
                format!("{label}: {} → {}", value_text(s, from), value_text(s, to))
            })
            .collect();
    }
    match &action.detail {
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| format!("{k}: {}", value_text(s, v)))
            .collect(),
        Value::Null => Vec::new(),
        other => vec![value_text(s, other)],
    }
}

/// The action log table, newest first.
#[component]
pub(super) fn ActionLog(actions: Vec<OwnerAction>) -> impl IntoView {
    let i18n = use_i18n();
    view! {
        <section class="card">
            <h2>{st(|s| s.actions_title)}</h2>
            <div class="console-table">
                <table data-testid="actions">
                    <thead>
                        <tr>
                            <th scope="col">{st(|s| s.col_when)}</th>
                            <th scope="col">{st(|s| s.col_who)}</th>
                            <th scope="col">{st(|s| s.col_what)}</th>
                            <th scope="col">{st(|s| s.col_detail)}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {actions
                            .into_iter()
                            .map(|a| {
                                let a = StoredValue::new(a);
                                let name = move || {
                                    a.with_value(|a| {
                                        let s = i18n.table::<FieldworkStrings>();
                                        (s.action_name)(&a.action)
                                            .map_or_else(|| a.action.clone(), str::to_owned)
                                    })
                                };
                                let task = a.with_value(|a| a.task.clone().map(|t| format!(" · {t}")));
                                view! {
                                    <tr data-action=a.with_value(|a| a.action.clone())>
                                        <td>{a.with_value(|a| date_time(a.at))}</td>
                                        <td>{a.with_value(|a| a.actor.clone())}</td>
                                        <td>{name}{task}</td>
                                        <td>
                                            <ul class="plain small">
                                                {move || {
                                                    a.with_value(|a| detail_lines(i18n.lang(), a))
                                                        .into_iter()
                                                        .map(|l| view! { <li>{l}</li> })
                                                        .collect_view()
                                                }}
                                            </ul>
                                        </td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn action(name: &str, detail: Value) -> OwnerAction {
        OwnerAction {
            actor: "Lab A".into(),
            owner_id: None,
            task: Some("demo-mcq".into()),
            action: name.into(),
            detail,
            at: 0,
        }
    }

    #[test]
    fn a_settings_change_reads_as_label_from_and_to() {
        let a = action(
            "update_settings",
            json!({"changed": {
                "study.attention_checks": {"from": 0, "to": 2},
                "study.categories": {"from": [], "to": ["slang", "phenomenon"]},
                "study.handoff.require_prolific_id": {"from": false, "to": true},
                "study.handoff.prolific_completion_code": {"from": null, "to": "C1AB"},
            }}),
        );
        let lines = detail_lines(Lang::En, &a);
        assert!(lines.contains(&"Attention checks per session (0 to 5): 0 → 2".to_owned()));
        assert!(lines
            .contains(&"Categories assigned (none ticked: all): — → slang, phenomenon".to_owned()));
        assert!(lines.iter().any(|l| l.ends_with(": off → on")));
        assert!(lines.contains(&"Prolific completion code: — → C1AB".to_owned()));
        let zh = detail_lines(Lang::Zh, &a);
        assert!(zh.contains(&"每个会话的注意力检查题数（0 到 5）: 0 → 2".to_owned()));
        assert!(lines.iter().chain(&zh).all(|l| !l.contains('{')));
    }

    #[test]
    fn other_details_read_as_key_and_value_without_json() {
        let a = action(
            "delete_participant",
            json!({"participants": 1, "sessions": 2, "answers": 24}),
        );
        assert_eq!(
            detail_lines(Lang::En, &a),
            vec!["answers: 24", "participants: 1", "sessions: 2"]
        );
        let board = action("update_board", json!({"blind": true, "quiz_open": null}));
        assert_eq!(detail_lines(Lang::En, &board), vec!["blind: on"]);
        assert_eq!(
            (Lang::En.table::<FieldworkStrings>().action_name)("update_settings"),
            Some("Settings changed")
        );
        assert_eq!(
            (Lang::En.table::<FieldworkStrings>().action_name)("something_new"),
            None
        );
    }
}

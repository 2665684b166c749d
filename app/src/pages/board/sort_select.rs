//! The sort control of a phone, where the board's rows are cards and its column headers are
//! hidden (a row of a dozen sort chips took a screen of its own): one select of the columns
//! and a direction button, on the table's own sort state.

use super::sort::{SortDir, SortKey};
use crate::i18n::board::BoardStrings;
use crate::i18n::{category_label, use_i18n};
use leptos::prelude::*;
use memeboard_core::tasks::CategoryInfo;

/// The select's value of `key` ([`key_of`] reads it back).
fn value_of(key: SortKey) -> String {
    match key {
        SortKey::Rank => "rank".into(),
        SortKey::Label => "label".into(),
        SortKey::Kind => "kind".into(),
        SortKey::Organisation => "organisation".into(),
        SortKey::Parameters => "parameters".into(),
        SortKey::Weights => "weights".into(),
        SortKey::Submitted => "submitted".into(),
        SortKey::Score(i) => format!("score-{i}"),
    }
}

/// The key of a select value ([`value_of`]).
fn key_of(value: &str) -> Option<SortKey> {
    Some(match value {
        "rank" => SortKey::Rank,
        "label" => SortKey::Label,
        "kind" => SortKey::Kind,
        "organisation" => SortKey::Organisation,
        "parameters" => SortKey::Parameters,
        "weights" => SortKey::Weights,
        "submitted" => SortKey::Submitted,
        other => SortKey::Score(other.strip_prefix("score-")?.parse().ok()?),
    })
}

/// "Sort by" with the table's columns (the category columns `shown`, 1-based score indices)
/// and the direction; shown on phones only (style: `.sort-select`).
#[component]
pub(super) fn SortSelect(
    sort: RwSignal<(SortKey, SortDir)>,
    categories: StoredValue<Vec<CategoryInfo>>,
    shown: StoredValue<Vec<usize>>,
) -> impl IntoView {
    let i18n = use_i18n();
    let options = move || {
        let lang = i18n.lang();
        let t = lang.table::<BoardStrings>();
        let mut list: Vec<(SortKey, String)> = vec![
            (SortKey::Rank, t.col_rank.into()),
            (SortKey::Label, t.col_model.into()),
            (SortKey::Score(0), i18n.bt().overall.into()),
            (SortKey::Kind, t.col_kind.into()),
            (SortKey::Organisation, t.col_organisation.into()),
            (SortKey::Parameters, t.col_params.into()),
            (SortKey::Weights, t.col_weights.into()),
            (SortKey::Submitted, t.col_submitted.into()),
        ];
        list.extend(shown.get_value().into_iter().map(|i| {
            let name = categories.with_value(|c| category_label(lang, &c[i - 1].key, c));
            (SortKey::Score(i), name)
        }));
        list.into_iter()
            .map(|(key, label)| {
                view! {
                    <option value=value_of(key) selected=move || sort.get().0 == key>
                        {label}
                    </option>
                }
            })
            .collect_view()
    };
    view! {
        <div class="sort-select" data-testid="sort-select">
            <label>
                <span>{move || i18n.bt().sort_by}</span>
                <select
                    data-testid="sort-key"
                    prop:value=move || value_of(sort.get().0)
                    on:change=move |ev| {
                        if let Some(key) = key_of(&event_target_value(&ev)) {
                            sort.set((key, key.first_direction()));
                        }
                    }
                >
                    {options}
                </select>
            </label>
            <button
                type="button"
                class="button secondary"
                data-testid="sort-direction"
                on:click=move |_| sort.update(|(_, d)| *d = d.flip())
            >
                {move || {
                    let t = i18n.bt();
                    match sort.get().1 {
                        SortDir::Ascending => t.sort_ascending,
                        SortDir::Descending => t.sort_descending,
                    }
                }}
            </button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_from_its_value() {
        for key in [
            SortKey::Rank,
            SortKey::Label,
            SortKey::Kind,
            SortKey::Organisation,
            SortKey::Parameters,
            SortKey::Weights,
            SortKey::Submitted,
            SortKey::Score(0),
            SortKey::Score(7),
        ] {
            assert_eq!(key_of(&value_of(key)), Some(key));
        }
        assert_eq!(key_of("score-x"), None);
        assert_eq!(key_of("other"), None);
    }
}

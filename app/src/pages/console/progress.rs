//! The console's live progress view, polled every few seconds.

use super::date_time;
use crate::api::{self, ApiError};
use crate::components::status::Loading;
use crate::format;
use crate::i18n::fieldwork::{st, FieldworkStrings};
use crate::i18n::{category_label, use_i18n};
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::fieldwork::ProgressResponse;

/// How often the progress view refreshes (ms).
const POLL_MS: i32 = 3_000;

/// The live progress view: fetched now and every few seconds while the page is open.
#[component]
pub(super) fn Progress(
    slug: String,
    token: String,
    categories: Vec<memeboard_core::tasks::CategoryInfo>,
) -> impl IntoView {
    let i18n = use_i18n();
    let data = RwSignal::new(None::<Result<ProgressResponse, ApiError>>);
    spawn_local(async move {
        loop {
            let result = api::progress(&slug, &token).await;
            if data.try_set(Some(result)).is_some() {
                break; // the page is gone
            }
            crate::browser::sleep_ms(POLL_MS).await;
        }
    });
    let cats = StoredValue::new(categories);
    view! {
        <section class="card" data-testid="progress" aria-live="off">
            <h2>{st(|s| s.progress_title)}</h2>
            {move || match data.get() {
                None => view! { <Loading /> }.into_any(),
                Some(Err(e)) => view! { <p class="notice error" role="alert">{e.to_string()}</p> }.into_any(),
                Some(Ok(p)) => {
                    let s = i18n.table::<FieldworkStrings>();
                    let lang = i18n.lang();
                    let max_bin = p.completion_histogram.iter().map(|b| b.sessions).max().unwrap_or(0).max(1);
                    view! {
                        <dl class="facts progress-figures">
                            <div><dt>{s.started}</dt><dd data-testid="progress-started">{p.started}</dd></div>
                            <div><dt>{s.completed}</dt><dd data-testid="progress-completed">{p.completed}</dd></div>
                            <div><dt>{s.after_exclusions}</dt><dd>{p.completed_after_exclusions}</dd></div>
                            <div><dt>{s.in_progress}</dt><dd data-testid="progress-in-progress">{p.in_progress}</dd></div>
                            <div><dt>{s.dropped}</dt><dd>{p.dropped}</dd></div>
                            <div><dt>{s.screened_out}</dt><dd>{p.screened_out}</dd></div>
                            {(p.pilot_sessions > 0).then(|| view! {
                                <div><dt>{s.pilot_sessions}</dt><dd data-testid="progress-pilot">{p.pilot_sessions} " / " {p.pilot_completed}</dd></div>
                            })}
                            <div><dt>{s.target}</dt><dd>{p.participant_target.map_or_else(|| format::DASH.to_owned(), |t| t.to_string())}</dd></div>
                        </dl>
                        <ul class="small">
                            {p.dropped_at.iter().map(|d| view! { <li>{(s.dropped_after)(d.position, d.sessions)}</li> }).collect_view()}
                        </ul>
                        <h3>{s.per_category}</h3>
                        <ul class="chips">
                            {p.categories.iter().map(|c| {
                                let label = cats.with_value(|cats| category_label(lang, &c.category, cats));
                                view! { <li class="chip">{label} ": " {c.answers}</li> }
                            }).collect_view()}
                        </ul>
                        <h3>{s.agreement}</h3>
                        <ul>
                            {p.agreement.iter().map(|a| view! {
                                <li>
                                    {a.dimension.clone()} ": κ " {a.fleiss_kappa.map_or_else(|| format::DASH.to_owned(), |k| format!("{k:.2}"))}
                                    ", α " {a.krippendorff_alpha.map_or_else(|| format::DASH.to_owned(), |k| format!("{k:.2}"))}
                                    " (" {a.raters} ")"
                                </li>
                            }).collect_view()}
                        </ul>
                        <h3>{s.histogram}</h3>
                        <ul class="histogram">
                            {p.completion_histogram.iter().map(|b| {
                                let width = format!("width: {}%", b.sessions * 100 / max_bin);
                                view! {
                                    <li>
                                        <span class="bar" style=width></span>
                                        <span class="small">{(s.bin)(b.from_s, b.to_s, b.sessions)}</span>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                        <details>
                            <summary>{s.per_item}</summary>
                            <div class="console-table">
                                <table>
                                    <thead>
                                        <tr>
                                            <th scope="col">{s.col_item}</th>
                                            <th scope="col">{s.col_category}</th>
                                            <th scope="col">{s.col_answers}</th>
                                            <th scope="col">{s.col_median}</th>
                                        </tr>
                                    </thead>
                                    <tbody>
                                        {p.items.iter().map(|i| view! {
                                            <tr>
                                                <td><code>{i.item_id.clone()}</code></td>
                                                <td>{i.category.clone()}</td>
                                                <td class="num">{i.answers}</td>
                                                <td class="num">{i.median_ms.map_or_else(|| format::DASH.to_owned(), |m| format!("{:.1}", m / 1000.0))}</td>
                                            </tr>
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        </details>
                        <p class="muted small">{(s.updated)(&date_time(p.computed_at))}</p>
                    }
                        .into_any()
                }
            }}
        </section>
    }
}

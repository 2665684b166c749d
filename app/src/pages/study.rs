//! Human-evaluation studies for a board's owner: the console's form that creates a study from
//! an explanation board (with the board's existing studies), and `/console/studies/{slug}`,
//! the study page (judged models, progress per batch, agreement, results with the papers'
//! tables, downloads).

mod cmpm_shape;
mod error_labels;
mod error_tables;
mod paper_shape;
mod paper_tables;
mod statements;
mod training_form;

use crate::api::{self, ApiError};
use crate::components::export::ExportButton;
use crate::components::fields::{CheckField, TextField};
use crate::components::human_eval::{HumanColumns, StudySummary, Validity};
use crate::components::rater_links::RaterLinks;
use crate::components::rater_table::RaterTable;
use crate::components::reliability_form::ReliabilityForm;
use crate::components::status::{error_fallback, Loading};
use crate::components::study_preview::StudyPreviewView;
use crate::components::title::use_page_title;
use crate::i18n::human::{hs, protocol_name, HumanStrings};
use crate::i18n::use_i18n;
use crate::storage;
use crate::study_api;
use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_params_map;
use memeboard_core::human_eval::statements::AccuracyStatements;
use memeboard_core::human_eval::study::{
    CreateStudyRequest, CreateStudyResponse, RaterLink, StudyPage, StudyPreview, StudyProtocol,
    SubmissionPick,
};
use memeboard_core::kinds::TaskKind;
use memeboard_core::predictions::Split;

/// The console's study section: the board's studies and the form that creates one (only on
/// explanation boards).
#[component]
pub fn StudyForm(
    /// The board's task slug.
    slug: String,
    /// The owner token.
    token: String,
) -> impl IntoView {
    let (slug, token) = (StoredValue::new(slug), StoredValue::new(token));
    let version = RwSignal::new(0u32);
    // Kept here so that the outcome of a creation survives the list's reload.
    let result = RwSignal::new(None::<Result<CreateStudyResponse, ApiError>>);
    let kind = LocalResource::new(move || {
        let slug = slug.get_value();
        async move {
            api::list_tasks()
                .await
                .map(|tasks| tasks.into_iter().find(|t| t.slug == slug).map(|t| t.kind))
        }
    });
    let studies = LocalResource::new(move || {
        version.track();
        let (slug, token) = (slug.get_value(), token.get_value());
        async move { study_api::board_studies(&slug, &token).await }
    });
    let list = move || {
        Suspend::new(async move {
            let list = studies.await.unwrap_or_default();
            if list.is_empty() {
                view! { <p class="muted">{hs(|s| s.no_studies)}</p> }.into_any()
            } else {
                view! {
                    <ul data-testid="study-list">
                        {list
                            .into_iter()
                            .map(|s| {
                                view! {
                                    <li>
                                        <a href=format!("/console/studies/{}", api::encode_component(&s))>
                                            {s.clone()}
                                        </a>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
                .into_any()
            }
        })
    };
    view! {
        <Suspense fallback=|| view! { <Loading /> }>
            {move || Suspend::new(async move {
                let protocol = kind.await.ok().flatten().and_then(TaskKind::study_protocol);
                protocol.map(|p| {
                    view! {
                        <section class="card" data-testid="study-section">
                            <h2>{hs(|s| s.form_title)}</h2>
                            <p class="muted small">{hs(|s| s.form_intro)}</p>
                            <h3>{hs(|s| s.existing)}</h3>
                            <Transition fallback=|| view! { <Loading /> }>{list}</Transition>
                            <NewStudy
                                slug=slug.get_value()
                                token=token.get_value()
                                protocol=p
                                result=result
                                created=Callback::new(move |()| version.update(|v| *v += 1))
                            />
                        </section>
                    }
                })
            })}
        </Suspense>
    }
}

/// What creating answered: the study's name and rater links (with the invitation secret,
/// once), or the error.
#[component]
fn Created(result: RwSignal<Option<Result<CreateStudyResponse, ApiError>>>) -> impl IntoView {
    let i18n = use_i18n();
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    move || {
        result.get().map(|r| match r {
            Ok(c) => {
                let t = i18n.table::<HumanStrings>();
                let secret = c.invite.is_some();
                view! {
                    <div class="notice" role="status" data-testid="study-created">
                        <p>
                            {(t.created)(&c.study)} " "
                            <a href=format!("/console/studies/{}", api::encode_component(&c.study))>{c.study.clone()}</a>
                        </p>
                        {secret.then(|| view! { <p><strong>{t.secret_once}</strong></p> })}
                        <ul>
                            {c.tasks.into_iter().map(|task| {
                                let link = format!("{origin}{}", task.link);
                                let prolific = format!("{origin}{}", task.prolific_link);
                                view! {
                                    <li data-testid="study-task">
                                        <code>{task.slug.clone()}</code> ": "
                                        {t.rater_link} " "
                                        <a href=link.clone() data-testid="rater-link">{link.clone()}</a>
                                        " · " {t.prolific_link} " "
                                        <code class="small">{prolific}</code>
                                    </li>
                                }
                            }).collect_view()}
                        </ul>
                    </div>
                }
                .into_any()
            }
            Err(e) => view! {
                <p class="notice error" role="alert" data-testid="study-error">{e.to_string()}</p>
            }
            .into_any(),
        })
    }
}

/// The form itself; after creating, the rater links (with the invitation secret, once).
#[component]
fn NewStudy(
    slug: String,
    token: String,
    protocol: StudyProtocol,
    result: RwSignal<Option<Result<CreateStudyResponse, ApiError>>>,
    created: Callback<()>,
) -> impl IntoView {
    let i18n = use_i18n();
    let name = RwSignal::new(String::new());
    let title = RwSignal::new(String::new());
    let top = RwSignal::new("3".to_owned());
    let items = RwSignal::new("5".to_owned());
    let batch = RwSignal::new("10".to_owned());
    let raters = RwSignal::new("3".to_owned());
    let test_split = RwSignal::new(false);
    let invitation = RwSignal::new(false);
    let planted = RwSignal::new(true);
    let dense = RwSignal::new(false);
    let one_category = RwSignal::new(false);
    let one_page = RwSignal::new(false);
    let stratify_by = RwSignal::new(String::new());
    let min_ms = RwSignal::new(String::new());
    let seed = RwSignal::new(String::new());
    let statements = RwSignal::new(AccuracyStatements::default());
    let training = training_form::TrainingForm::new();
    let error_labels = error_labels::ErrorLabelsForm::new(protocol);
    let accuracy = protocol == StudyProtocol::Accuracy;
    let sending = RwSignal::new(false);
    let (slug, token) = (StoredValue::new(slug), StoredValue::new(token));
    let number = |v: RwSignal<String>| v.get_untracked().trim().parse::<usize>().unwrap_or(0);
    let optional = |v: RwSignal<String>| v.get_untracked().trim().parse::<u64>().ok();
    // The request the form describes (for creating and for the preview).
    let request = move || CreateStudyRequest {
        slug: name.get_untracked().trim().to_owned(),
        title: Some(title.get_untracked().trim().to_owned()).filter(|t| !t.is_empty()),
        protocol,
        submissions: SubmissionPick::Top { k: number(top) },
        items_per_category: number(items),
        split: if test_split.get_untracked() {
            Split::Test
        } else {
            Split::Dev
        },
        invitation_only: invitation.get_untracked(),
        batch_size: number(batch),
        raters_per_batch: number(raters),
        planted_checks: planted.get_untracked(),
        min_item_ms: optional(min_ms),
        seed: optional(seed),
        dense: dense.get_untracked(),
        one_category_batches: one_category.get_untracked(),
        one_page_per_subject: accuracy && one_page.get_untracked(),
        stratify_by: Some(stratify_by.get_untracked().trim().to_owned())
            .filter(|s| !accuracy && !s.is_empty()),
        statements: accuracy.then(|| statements.get_untracked()),
        training: training.request(),
        error_labels: error_labels.request(),
    };
    let preview = RwSignal::new(None::<Result<StudyPreview, ApiError>>);
    let on_preview = move |_| {
        let request = request();
        spawn_local(async move {
            let r = study_api::preview_study(&slug.get_value(), &token.get_value(), &request).await;
            let _ = preview.try_set(Some(r));
        });
    };
    let on_submit = move |ev: SubmitEvent| {
        ev.prevent_default();
        let request = request();
        sending.set(true);
        spawn_local(async move {
            let r = study_api::create_study(&slug.get_value(), &token.get_value(), &request).await;
            if r.is_ok() {
                created.run(());
            }
            let _ = sending.try_set(false);
            let _ = result.try_set(Some(r));
        });
    };
    view! {
        <form class="stack" on:submit=on_submit data-testid="study-form">
            <p>
                <strong>{hs(|s| s.field_protocol)} ": "</strong>
                {move || protocol_name(i18n.lang(), protocol)}
            </p>
            <TextField id="study-slug" label=hs(|s| s.field_slug) value=name />
            <TextField id="study-title" label=hs(|s| s.field_title) value=title />
            <TextField id="study-top" label=hs(|s| s.field_top) value=top kind="number" />
            <TextField id="study-items" label=hs(|s| s.field_items) value=items kind="number" />
            <TextField id="study-batch" label=hs(|s| s.field_batch) value=batch kind="number" />
            <TextField id="study-raters" label=hs(|s| s.field_raters) value=raters kind="number" />
            <CheckField id="study-test-split" label=hs(|s| s.split_test) value=test_split />
            <CheckField id="study-invitation" label=hs(|s| s.field_invitation) value=invitation />
            <CheckField id="study-planted" label=hs(|s| s.field_planted) value=planted />
            <CheckField id="study-one-category" label=hs(|s| s.field_one_category) value=one_category />
            {accuracy.then(|| view! { <CheckField id="study-one-page" label=hs(|s| s.field_one_page) value=one_page /> })}
            <CheckField id="study-dense" label=hs(|s| s.field_dense) value=dense />
            <TextField id="study-min-ms" label=hs(|s| s.field_min_ms) value=min_ms kind="number" />
            <TextField id="study-seed" label=hs(|s| s.field_seed) value=seed kind="number" />
            {(!accuracy).then(|| view! { <TextField id="study-stratify-by" label=hs(|s| s.field_stratify_by) value=stratify_by /> })}
            {accuracy.then(|| view! { <statements::StatementsFields value=statements /> })}
            <training_form::TrainingFields form=training />
            <error_labels::ErrorLabelsFields form=error_labels />
            <button type="button" class="button secondary" data-testid="study-preview-button" on:click=on_preview>
                {hs(|s| s.preview)}
            </button>
            {move || preview.get().map(|p| match p {
                Ok(p) => view! { <StudyPreviewView preview=p /> }.into_any(),
                Err(e) => view! { <p class="notice error" role="alert">{e.to_string()}</p> }.into_any(),
            })}
            <button type="submit" class="button primary" data-testid="study-create" disabled=move || sending.get() || training.invalid()>
                {move || {
                    let t = i18n.table::<HumanStrings>();
                    if sending.get() { t.creating } else { t.create }
                }}
            </button>
        </form>
        <Created result=result />
    }
}

/// `/console/studies/{slug}`.
#[component]
pub fn StudyPagePage() -> impl IntoView {
    let params = use_params_map();
    let slug = move || params.read().get("slug").unwrap_or_default();
    let token = storage::owner_token();
    let i18n = use_i18n();
    use_page_title(move |lang| (lang.table::<HumanStrings>().page_title)(&slug()));
    // Bumped to read the page again (after the reliability thresholds change).
    let version = RwSignal::new(0u32);
    let data = LocalResource::new(move || {
        version.track();
        let (slug, token) = (slug(), token.clone());
        async move {
            match token {
                Some(t) => study_api::study_page(&slug, &t).await.map(|p| (p, t)),
                None => Err(ApiError::Server {
                    status: 401,
                    detail: "owner token missing: enter it on /console".into(),
                    body: String::new(),
                }),
            }
        }
    });
    view! {
        <section class="intro">
            <h1>{move || (i18n.table::<HumanStrings>().page_title)(&slug())}</h1>
            <p><a href="/console">{hs(|s| s.back)}</a></p>
        </section>
        <Suspense fallback=|| view! { <Loading /> }>
            <ErrorBoundary fallback=error_fallback>
                {move || Suspend::new(async move {
                    let reload = Callback::new(move |()| version.update(|v| *v += 1));
                    data.await.map(|(page, token)| view! { <StudyView page=page token=token reload=reload /> })
                })}
            </ErrorBoundary>
        </Suspense>
    }
}

/// The study page's content.
#[component]
fn StudyView(page: StudyPage, token: String, reload: Callback<()>) -> impl IntoView {
    let i18n = use_i18n();
    let p = StoredValue::new(page.clone());
    let intro = move || {
        let lang = i18n.lang();
        p.with_value(|p| {
            (lang.table::<HumanStrings>().page_intro)(
                protocol_name(lang, p.protocol),
                &p.source_task,
                &p.created_by,
            )
        })
    };
    let exposed = page.exposed_test_items.len();
    let progress = batch_tables(&page);
    let labels: Vec<(String, String)> = page
        .submissions
        .iter()
        .map(|s| (s.submission_id.clone(), s.label.clone()))
        .collect();
    let columns: Vec<_> = labels
        .iter()
        .filter_map(|(id, label)| {
            let c = page
                .tables
                .columns
                .iter()
                .find(|c| &c.submission_id == id)?;
            Some((label.clone(), c.clone()))
        })
        .collect();
    let results = if columns.is_empty() {
        view! { <p class="muted">{hs(|s| s.no_judgements)}</p> }.into_any()
    } else {
        let validity = page
            .tables
            .validity
            .clone()
            .into_iter()
            .map(|v| view! { <Validity panel=v /> })
            .collect_view();
        view! {
            <HumanColumns rows=columns />
            {validity}
            <paper_tables::PaperTables
                tables=page.tables.clone()
                cmpm=page.cmpm_tables.clone()
                models=labels.clone()
            />
            {page.error_tables.clone().map(|t| view! {
                <error_tables::ErrorLabelTables tables=t models=labels.clone() />
            })}
        }
        .into_any()
    };
    let slug = page.slug.clone();
    let downloads = [
        "judgements.csv",
        "judgements.jsonl",
        "tables.json",
        "raters.csv",
    ]
    .into_iter()
    .map(|f| view! { <ExportButton url=study_api::study_file_url(&slug, f) token=token.clone() /> })
    .collect_view();
    view! {
        <section class="card" data-testid="study-page">
            <p>{intro}</p>
            {(exposed > 0).then(|| {
                let line = move || (i18n.table::<HumanStrings>().exposed_line)(exposed);
                view! { <p class="notice" data-testid="exposed-items">{line}</p> }
            })}
            <h2>{hs(|s| s.submissions_title)}</h2>
            <ul data-testid="study-models">
                {labels.into_iter().map(|(_, l)| view! { <li>{l}</li> }).collect_view()}
            </ul>
        </section>
        <section class="card">
            <h2>{hs(|s| s.progress_title)}</h2>
            <RaterLinks
                slug=page.slug.clone()
                token=token.clone()
                invitation_only=page.invitation_only
                links=page
                    .tasks
                    .iter()
                    .map(|t| RaterLink {
                        task: t.task.slug.clone(),
                        link: t.task.link.clone(),
                        prolific_link: t.task.prolific_link.clone(),
                    })
                    .collect()
            />
            {progress}
        </section>
        <section class="card">
            <h2>{hs(|s| s.agreement_title)}</h2>
            <StudySummary summary=page.summary.clone() />
            <paper_tables::KappaTable batches=page.summary.batches.clone() />
            <RaterTable rows=page.raters.clone() />
            <ReliabilityForm
                slug=page.slug.clone()
                token=token.clone()
                thresholds=page.thresholds
                excluded=page.threshold_excluded.clone()
                counts=page.summary.reliability
                reload=reload
            />
        </section>
        <section class="card">
            <h2>{hs(|s| s.results_title)}</h2>
            {results}
        </section>
        <section class="card">
            <h2>{hs(|s| s.exports_title)}</h2>
            <div class="actions">{downloads}</div>
        </section>
    }
}

/// Each judging task's fixed batches: pages, raters finished and excluded, raters wanted.
fn batch_tables(page: &StudyPage) -> impl IntoView {
    let i18n = use_i18n();
    page.tasks
        .iter()
        .map(|t| {
            let task = t.task.slug.clone();
            let wanted = page.request.raters_per_batch;
            let rows = t
                .batches
                .iter()
                .map(|b| {
                    view! {
                        <tr>
                            <th scope="row">{b.batch}</th>
                            <td>{b.items}</td>
                            <td data-testid="batch-finished">{b.completed}</td>
                            <td>{b.excluded}</td>
                            <td>{wanted}</td>
                        </tr>
                    }
                })
                .collect_view();
            let caption = move || (i18n.table::<HumanStrings>().batches_caption)(&task);
            view! {
                <div class="table-wrap">
                    <table class="board-table compact" data-testid="batch-table">
                        <caption>{caption}</caption>
                        <thead>
                            <tr>
                                <th scope="col">{hs(|s| s.col_batch)}</th>
                                <th scope="col">{hs(|s| s.col_pages)}</th>
                                <th scope="col">{hs(|s| s.col_finished)}</th>
                                <th scope="col">{hs(|s| s.col_excluded)}</th>
                                <th scope="col">{hs(|s| s.col_wanted)}</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
        })
        .collect_view()
}

//! The explanation question: the participant writes what a meme means; the answer is stored
//! first, then the server's score, the crowd's scores and (for open dev items) the reference
//! meaning are shown before moving on.

use crate::api;
use crate::browser::{elapsed_ms, now_ms, random_key};
use crate::embedder::BrowserScore;
use crate::i18n::{use_i18n, Lang};
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::{
    AnswerInput, ExplanationFeedback, SessionItem, SubmitAnswerRequest, SubmitAnswerResponse,
};

/// Longest explanation accepted by the server.
const MAX_CHARS: usize = 1000;

/// `(en, zh)` in the current language.
fn pick(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// Share of the crowd's scores strictly below `score`, as a percentage.
fn percentile(score: f64, crowd: &[f64]) -> Option<u32> {
    (crowd.len() > 1).then(|| {
        let below = crowd.iter().filter(|&&c| c < score).count();
        (100.0 * below as f64 / (crowd.len() - 1).max(1) as f64)
            .round()
            .min(100.0) as u32
    })
}

/// One explanation item: meme, text box, submit (idempotent, with retry), then feedback.
#[component]
pub fn ExplainQuestion(
    /// The batch item.
    item: SessionItem,
    /// The meme phrase to explain.
    meme: String,
    /// Batch size.
    total: usize,
    /// Answers recorded so far.
    answered_count: Signal<usize>,
    /// The session.
    session_id: String,
    /// Called with the acknowledgement when the participant moves on.
    on_ack: Callback<(usize, SubmitAnswerResponse)>,
) -> impl IntoView {
    let i18n = use_i18n();
    let position = item.position;
    let shown_at = now_ms();
    let text = RwSignal::new(String::new());
    let sending = RwSignal::new(false);
    let error = RwSignal::new(None::<String>);
    let ack = RwSignal::new(None::<SubmitAnswerResponse>);
    let pending_key = storage::pending_key(&session_id, &item.item_id);
    let ids = StoredValue::new((session_id, item.item_id.clone(), pending_key));

    let submit = move || {
        let answer = text.get_untracked().trim().to_owned();
        if sending.get_untracked() || answer.is_empty() {
            return;
        }
        let (session_id, item_id, pending_key) = ids.get_value();
        let idempotency_key = storage::get(&pending_key)
            .filter(|k| !k.is_empty())
            .unwrap_or_else(|| {
                let k = random_key();
                storage::set(&pending_key, &k);
                k
            });
        let request = SubmitAnswerRequest {
            item_id,
            idempotency_key,
            answer: AnswerInput::Text { text: answer },
            response_ms: elapsed_ms(shown_at),
        };
        error.set(None);
        sending.set(true);
        spawn_local(async move {
            match api::submit_answer(&session_id, &request).await {
                Ok(response) => {
                    storage::remove(&pending_key);
                    ack.set(Some(response));
                }
                Err(e) => error.set(Some(e.to_string())),
            }
            sending.set(false);
        });
    };

    let progress = move || {
        let n = (answered_count.get() + 1).min(total);
        if i18n.lang() == Lang::Zh {
            format!("第 {n} 题，共 {total} 题")
        } else {
            format!("Question {n} of {total}")
        }
    };
    let chars = move || text.with(|t| t.chars().count());

    view! {
        <section class="card question explain" data-testid="question" data-position=position.to_string()>
            <h2 class="progress-label" data-testid="progress">{progress}</h2>
            {item.content_warning.then(|| view! {
                <p class="notice warning" role="note" data-testid="content-warning">
                    {move || pick(i18n.lang(), "Content warning: this meme may contain profanity or offensive language.", "内容提示：此梗可能含有粗俗或冒犯性的内容。")}
                </p>
            })}
            <p class="explain-prompt">{move || pick(i18n.lang(), "What does this meme mean? Explain it in your own words.", "这个梗是什么意思？请用自己的话解释。")}</p>
            <p class="meme" lang="zh-CN" data-testid="meme">{meme}</p>
            <label class="field">
                <span class="muted small">{move || pick(i18n.lang(), "Your explanation", "你的解释")}</span>
                <textarea
                    data-testid="explanation-input"
                    rows="4"
                    maxlength=MAX_CHARS.to_string()
                    lang="zh-CN"
                    prop:value=move || text.get()
                    prop:disabled=move || sending.get() || ack.with(Option::is_some)
                    on:input=move |ev| text.set(event_target_value(&ev))
                ></textarea>
                <span class="muted small">{move || format!("{} / {MAX_CHARS}", chars())}</span>
            </label>
            {move || error.get().map(|e| view! {
                <div class="notice error" role="alert">
                    <p data-testid="answer-error">{e}</p>
                    <button type="button" class="button" data-testid="retry-answer" on:click=move |_| submit()>
                        {move || pick(i18n.lang(), "Try again", "重试")}
                    </button>
                </div>
            })}
            {move || match ack.get() {
                None => view! {
                    <button
                        type="button"
                        class="button primary"
                        data-testid="submit-answer"
                        prop:disabled=move || sending.get() || chars() == 0
                        on:click=move |_| submit()
                    >
                        {move || if sending.get() { pick(i18n.lang(), "Saving…", "保存中…") } else { pick(i18n.lang(), "Submit explanation", "提交解释") }}
                    </button>
                }.into_any(),
                Some(response) => {
                    let feedback = response.feedback.clone();
                    let next = response.clone();
                    let answer = text.get_untracked();
                    view! {
                        {feedback.map(|f| view! { <Feedback feedback=f answer=answer /> })}
                        <button
                            type="button"
                            class="button primary"
                            data-testid="next-item"
                            on:click=move |_| on_ack.run((position, next.clone()))
                        >
                            {move || pick(i18n.lang(), "Next", "下一题")}
                        </button>
                    }.into_any()
                }
            }}
        </section>
    }
}

/// The scores and reference shown once an explanation is stored. Where the reference is
/// shown (open dev items), the browser scores the answer too and shows both numbers.
#[component]
fn Feedback(feedback: ExplanationFeedback, answer: String) -> impl IntoView {
    let i18n = use_i18n();
    if feedback.scores_with_results {
        // Hidden test item: nothing derived from the reference is sent per answer.
        return view! {
            <div class="feedback card" data-testid="explanation-feedback" role="status">
                <p data-testid="scores-with-results">
                    {move || pick(i18n.lang(), "Your answer is stored. Scores come with your results.", "你的回答已保存。得分将与结果一起显示。")}
                </p>
                <p class="muted small" data-testid="reference-withheld">
                    {move || pick(i18n.lang(), "This meme belongs to the hidden test set: its reference and per-item score are not shown; your results show your average over hidden memes.", "此梗属于隐藏测试集：不显示参考释义和单题得分；结果页显示你在隐藏梗上的平均分。")}
                </p>
            </div>
        }
        .into_any();
    }
    let score = feedback.server_score.clone();
    let server_cosine = score.as_ref().map(|s| s.cosine);
    let browser = RwSignal::new(None::<Result<BrowserScore, String>>);
    let download = RwSignal::new(None::<(f64, f64)>);
    if let Some(reference) = feedback.reference.clone() {
        spawn_local(async move {
            let manifest = match api::embedding_model().await {
                Ok(info) => info.browser_manifest,
                Err(e) => {
                    browser.set(Some(Err(e.to_string())));
                    return;
                }
            };
            let Some(manifest) = manifest else {
                browser.set(Some(Err(
                    "no browser copy of the model is installed on this server".into(),
                )));
                return;
            };
            let result = crate::embedder::cosine(
                &manifest,
                &answer,
                &reference.meaning,
                move |loaded, total| {
                    if !download.is_disposed() {
                        download.set(Some((loaded, total)));
                    }
                },
            )
            .await;
            if !browser.is_disposed() {
                browser.set(Some(result));
            }
        });
    }
    let crowd = feedback.crowd_scores.clone();
    let standing = score.as_ref().and_then(|s| percentile(s.cosine, &crowd));
    view! {
        <div class="feedback card" data-testid="explanation-feedback" role="status">
            {match score {
                Some(s) => view! {
                    <p data-testid="server-score" data-value=s.cosine.to_string()>
                        {move || pick(i18n.lang(), "Similarity to the reference (server): ", "与参考释义的相似度（服务器）：")}
                        <strong>{format!("{:.3}", s.cosine)}</strong>
                        {format!(" · rescaled {:.2} · BERTScore-F1 {:.3} · {}", s.rescaled, s.bert_f1, s.model)}
                    </p>
                }.into_any(),
                None => view! {
                    <p class="muted" data-testid="server-score">{feedback.scoring_error.clone().unwrap_or_default()}</p>
                }.into_any(),
            }}
            {move || match browser.get() {
                None => download.get().map(|(loaded, total)| view! {
                    <p class="muted small">
                        {move || pick(i18n.lang(), "Loading the scoring model in your browser… ", "正在浏览器中加载评分模型……")}
                        <progress data-testid="model-progress" max=total.to_string() value=loaded.to_string()></progress>
                    </p>
                }.into_any()),
                Some(Ok(b)) => {
                    let agrees = server_cosine.map(|s| (s - b.cosine).abs());
                    Some(view! {
                        <p data-testid="browser-score" data-value=b.cosine.to_string()>
                            {move || pick(i18n.lang(), "Computed in your browser: ", "在你的浏览器中计算：")}
                            <strong>{format!("{:.3}", b.cosine)}</strong>
                            <span class="muted small">{format!(" ({})", b.backend)}</span>
                            {agrees.map(|d| view! {
                                <span class="muted small">
                                    {move || if i18n.lang() == Lang::Zh { format!(" · 与服务器相差 {d:.1e}") } else { format!(" · differs from the server by {d:.1e}") }}
                                </span>
                            })}
                        </p>
                    }.into_any())
                }
                Some(Err(e)) => Some(view! {
                    <p class="muted small" data-testid="browser-score-error">{e}</p>
                }.into_any()),
            }}
            {standing.map(|p| view! {
                <p data-testid="crowd-standing">
                    {move || if i18n.lang() == Lang::Zh {
                        format!("高于 {p}% 的其他参与者（共 {} 份解释）", crowd.len())
                    } else {
                        format!("Higher than {p}% of other participants ({} explanations)", crowd.len())
                    }}
                </p>
            })}
            {match feedback.reference {
                Some(r) => view! {
                    <div data-testid="reference-meaning">
                        <p class="muted small">{move || pick(i18n.lang(), "Reference meaning", "参考释义")}</p>
                        <p lang="zh-CN">{r.meaning}</p>
                        {r.origin.map(|o| view! { <p class="muted small" lang="zh-CN">{o}</p> })}
                    </div>
                }.into_any(),
                None => view! {
                    <p class="muted small" data-testid="reference-withheld">
                        {move || pick(i18n.lang(), "The reference for this meme is withheld: it belongs to the hidden test set.", "此梗的参考释义属于隐藏测试集，不予显示。")}
                    </p>
                }.into_any(),
            }}
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn standing_counts_the_others_below() {
        assert_eq!(percentile(0.8, &[0.5, 0.6, 0.8, 0.9]), Some(67));
        assert_eq!(percentile(0.8, &[0.8]), None);
    }
}

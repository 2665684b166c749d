//! Explanations in the browser: the participant writes what a meme means; the answer is stored
//! first, then the server's score, the crowd's scores and (for open dev items) the reference
//! meaning are shown before moving on. Also the review card, the mean-similarity score wording
//! of the results page, and the submit page's help, validator and in-browser dev preview.
//!
//! The browser model is opt-in ([`BrowserModelPanel`]): nothing is downloaded until the
//! participant asks. Once it is loaded, an open dev item's answer is scored in the browser as
//! soon as it is sent (against the task's public dev gold), shown as an instant estimate until
//! the server's score arrives with the acknowledgement.

mod feedback;
mod identify;
mod preview;
mod question;
mod review;
#[cfg(test)]
mod tests;

use super::{KindPanel, PredictionFiles, QuestionContext, ReviewContext, UiKind, ValidFile};
use crate::api;
use crate::format::DASH;
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::ResultsResponse;
use memeboard_core::kinds::explanation::{Explanation, Review, View};
use memeboard_core::kinds::Kind as _;
use memeboard_core::predictions::{validate_explanations, FileFormat, Limits, TaskManifest};
use memeboard_core::tasks::CategoryInfo;
use preview::ExplainDevPreview;
use question::ExplainQuestion;
use review::ReviewCard;

/// This kind's interface strings (the generic ones are in [`crate::i18n`]).
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Consent page: what is shown per answer and at the end, given the hidden share.
    results_note: fn(Option<u8>) -> String,
    /// Question: the prompt above the meme.
    prompt: &'static str,
    /// Question: label of the text box.
    your_explanation: &'static str,
    /// Question: submit button.
    submit: &'static str,
    /// Question: submit button while sending.
    saving: &'static str,
    /// Feedback: the button to the next item.
    next: &'static str,
    /// Feedback: before the server's score.
    server_score: &'static str,
    /// The secondary numbers of a score: raw cosine, rescaled cosine and BERTScore-F1.
    score_details: fn(f64, f64, f64) -> String,
    /// Question: before the browser's score, until the server's arrives.
    instant_estimate: &'static str,
    /// Feedback: before the browser's score, under the server's.
    browser_score: &'static str,
    /// Feedback: how far the browser's score is from the server's.
    differs: fn(f64) -> String,
    /// Feedback: share of other participants below (percent, number of explanations).
    standing: fn(u32, usize) -> String,
    /// Feedback and review: the reference meaning.
    reference: &'static str,
    /// Feedback: the reference is withheld (hidden test item).
    reference_withheld: &'static str,
    /// Feedback on a hidden test item: stored, scores come with the results.
    scores_with_results: &'static str,
    /// Review of a hidden test item: its score only counts in the rounded hidden mean.
    in_hidden_mean: &'static str,
    /// Review: the similarity.
    similarity: &'static str,
    /// Results: what the mean similarity is (number of scored explanations).
    mean_note: fn(usize) -> String,
    /// Results: the rescaled mean and what it means.
    rescaled_note: fn(f64) -> String,
    /// Results: nothing scored yet.
    not_scored: &'static str,
}

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

static ZH: Texts = Texts {
    name: "解释梗义（自由作答，按句向量评分）",
    results_note: |hidden| {
        let hidden = hidden.map_or_else(|| "部分".to_owned(), |h| format!("约 {h}% 的"));
        format!("公开（练习）题目在作答后会立即显示参考释义和你的得分，结束时给出你在这些题目上的平均分；{hidden}题目属于隐藏测试集：不显示其参考释义，结果页只给出你在这些题上的平均分（四舍五入）。")
    },
    prompt: "这个梗是什么意思？请用自己的话解释。",
    your_explanation: "你的解释",
    submit: "提交解释",
    saving: "保存中…",
    next: "下一题",
    server_score: "释义辨识度（服务器）：",
    score_details: |cosine, rescaled, bert| {
        format!(" · 余弦 {cosine:.3} · 重标定 {rescaled:.2} · BERTScore-F1 {bert:.3}")
    },
    instant_estimate: "即时估计（在你的浏览器中计算，等待服务器评分）：",
    browser_score: "浏览器的即时估计：",
    differs: |d| format!(" · 与服务器相差 {d:.1e}"),
    standing: |p, n| format!("高于 {p}% 的其他参与者（共 {n} 份解释）"),
    reference: "参考释义",
    reference_withheld:
        "此梗属于隐藏测试集：不显示参考释义和单题得分；结果页显示你在隐藏题上的平均分（四舍五入）。",
    scores_with_results: "你的回答已保存。得分将与结果一起显示。",
    in_hidden_mean: "计入隐藏题的平均分",
    similarity: "辨识度",
    mean_note: |n| {
        format!("你的解释的平均释义辨识度：每份解释与本梗释义比与另一条公开释义更接近的概率（0.5 = 随机；共 {n} 份已评分的解释）。")
    },
    rescaled_note: |r| {
        format!(
            "重标定分数：{r:.2}（0 = 与两条随机参考释义之间的相似度相当，1 = 与参考释义相同）。"
        )
    },
    not_scored: "你的解释尚未评分。",
};

static EN: Texts = Texts {
    name: "Explain the meme (free text, embedding-scored)",
    results_note: |hidden| {
        let hidden = hidden.map_or_else(|| "some".to_owned(), |h| format!("about {h}%"));
        format!("For open (practice) items you see the reference meaning and your score right after answering, and at the end your average over them; {hidden} of items are hidden test items: their references are never shown, and your results give only a rounded average over them.")
    },
    prompt: "What does this meme mean? Explain it in your own words.",
    your_explanation: "Your explanation",
    submit: "Submit explanation",
    saving: "Saving…",
    next: "Next",
    server_score: "Meaning identification (server): ",
    score_details: |cosine, rescaled, bert| {
        format!(" · cosine {cosine:.3} · rescaled {rescaled:.2} · BERTScore-F1 {bert:.3}")
    },
    instant_estimate: "Instant estimate (computed in your browser, until the server's score arrives): ",
    browser_score: "Your browser's instant estimate: ",
    differs: |d| format!(" · differs from the server by {d:.1e}"),
    standing: |p, n| format!("Higher than {p}% of other participants ({n} explanations)"),
    reference: "Reference meaning",
    reference_withheld: "This meme belongs to the hidden test set: its reference and per-item score are not shown; your results show your rounded average over hidden memes.",
    scores_with_results: "Your answer is stored. Scores come with your results.",
    in_hidden_mean: "counted in your hidden-meme average",
    similarity: "Identification",
    mean_note: |n| {
        format!("Mean meaning identification of your explanations: the chance that each is closer to its own meme's meaning than to another open meaning (0.5 = chance; {n} scored).")
    },
    rescaled_note: |r| {
        format!("Rescaled: {r:.2}, where 0 is as similar as two random reference meanings and 1 is the reference itself.")
    },
    not_scored: "Your explanations are not scored yet.",
};

/// This kind's submit-page strings (the file help, the file check and preview), apart from [`Texts`] so that the quiz
/// bundle, which shows `Texts` on its pages, does not carry it.
#[derive(Debug)]
struct HelpTexts {
    /// Submit help: JSON Lines.
    help_jsonl: &'static str,
    /// Submit help: CSV.
    help_csv: &'static str,
    /// Submit help: missing items.
    help_missing: &'static str,
    /// Submit check: the file is scored on the server.
    preview_note: &'static str,
    /// Submit dev preview: heading.
    dev_title: &'static str,
    /// Submit dev preview: waiting for the browser model.
    dev_waiting: &'static str,
    /// Submit dev preview: what the number is (dev items, answered, backend).
    dev_note: fn(usize, usize, &str) -> String,
}

impl StringTable for HelpTexts {
    const EN: &'static Self = &HELP_EN;
    const ZH: &'static Self = &HELP_ZH;
}

static HELP_ZH: HelpTexts = HelpTexts {
    help_jsonl: "解释类任务的 JSON Lines：每行给出题目编号和对梗义的解释，来源（origin）和例句（example）可选：",
    help_csv: "CSV：首行为表头 item_id,meaning（可选 origin,example 列）：",
    help_missing: "没有预测的题目按随机水平（0.5）计分。",
    preview_note: "解释类文件在服务器上用句向量评分；这里检查文件格式；加载浏览器评分模型（可选）后，还会在你的浏览器中给出开发集预览。",
    dev_title: "开发集预览（在你的浏览器中计算）",
    dev_waiting: "加载浏览器评分模型后即可看到开发集预览。",
    dev_note: |total, answered, backend| {
        format!("{total} 个开发集条目的平均释义辨识度（文件回答了 {answered} 个，缺失的按随机水平 0.5 计；{backend}）。这不是排行榜分数。")
    },
};

static HELP_EN: HelpTexts = HelpTexts {
    help_jsonl: "Explanation tasks, JSON Lines: one object per line with the item id and your explanation of the meme's meaning; origin and example are optional:",
    help_csv: "CSV: a header row item_id,meaning (optional origin,example columns):",
    help_missing: "Items without a prediction score at chance (0.5).",
    preview_note: "Explanation files are scored with sentence embeddings on the server; this check covers the file's format and, if you load the browser model (optional), a dev split preview computed in your browser.",
    dev_title: "Dev split preview (computed in your browser)",
    dev_waiting: "Load the browser model to see the dev split preview.",
    dev_note: |total, answered, backend| {
        format!("Mean meaning identification over the {total} dev items ({answered} answered; missing ones score chance, 0.5; {backend}). Not the leaderboard score.")
    },
};

/// The current language's [`Texts`] (tracked).
fn t() -> &'static Texts {
    use_i18n().table()
}

/// The [`HelpTexts`] of the current language (tracked).
fn help_t() -> &'static HelpTexts {
    use_i18n().table()
}

impl UiKind for Explanation {
    type Files = Self;

    fn condition_text(lang: Lang, key: &str) -> Option<&'static str> {
        let (en, zh) = match key {
            "shot" => ("Prompting", "提示方式"),
            "zero_shot" => ("zero-shot", "零样本"),
            "one_shot" => ("one-shot", "单样本"),
            _ => return None,
        };
        Some(if lang == Lang::Zh { zh } else { en })
    }

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn results_note(lang: Lang, open_percent: Option<u8>) -> String {
        (lang.table::<Texts>().results_note)(open_percent.map(|p| 100u8.saturating_sub(p)))
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <ExplainQuestion ctx=ctx meme=view.meme /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <ReviewCard ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        let overall = results
            .you
            .iter()
            .find(|s| s.category.is_none() && s.answered > 0);
        let rescaled: Vec<f64> = results
            .review
            .iter()
            .filter_map(|item| Explanation::review_of(item.detail.clone()).ok())
            .filter_map(|r| r.score.map(|s| s.rescaled))
            .collect();
        let rescaled_mean =
            (!rescaled.is_empty()).then(|| rescaled.iter().sum::<f64>() / rescaled.len() as f64);
        match overall {
            Some(s) => {
                let (mean, n) = (s.mean, s.answered);
                view! {
                    <p class="score" data-testid="your-score" data-value=mean.to_string()>
                        {format!("{mean:.3}")}
                    </p>
                    <p class="muted small" data-testid="score-meaning">
                        {move || (t().mean_note)(n)}
                        {rescaled_mean.map(|r| view! { " " {move || (t().rescaled_note)(r)} })}
                    </p>
                }
                .into_any()
            }
            None => view! {
                <p class="score" data-testid="your-score">
                    {DASH}
                </p>
                <p class="muted small">{Texts::text(|t| t.not_scored)}</p>
            }
            .into_any(),
        }
    }
}

impl PredictionFiles for Explanation {
    /// `(item id, reference meaning)` of the open dev items (public by design).
    type DevGold = Vec<(String, String)>;

    fn submit_help() -> AnyView {
        view! {
            <div data-testid="help-explanation">
                <p>{HelpTexts::text(|t| t.help_jsonl)}</p>
                <pre><code>
                    "{\"item_id\": \"ITEM_ID\", \"meaning\": \"…\", \"origin\": \"…\", \"example\": \"…\"}"
                </code></pre>
                <p>{HelpTexts::text(|t| t.help_csv)}</p>
                <pre><code>"item_id,meaning,origin,example\nITEM_ID,…,…,…"</code></pre>
                <p>
                    <strong>{HelpTexts::text(|t| t.help_missing)}</strong>
                </p>
            </div>
        }
        .into_any()
    }

    /// Without dev meanings the file is still checked; there is just no preview.
    async fn load_dev_gold(slug: String) -> Vec<(String, String)> {
        api::dev_meanings(&slug).await.unwrap_or_default()
    }

    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Vec<(String, String)>,
        _categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        let valid = validate_explanations(text, format, manifest, Limits::default())
            .map_err(|report| report.lines_in(crate::i18n::current_lang().locale()))?;
        // (item id, predicted meaning) of the dev items the file answers; missing dev items
        // score chance, as on the server.
        let answers: Vec<(String, String)> = dev
            .iter()
            .filter_map(|(id, _)| {
                let i = valid.item_ids.iter().position(|x| x == id)?;
                valid.predictions[i]
                    .as_ref()
                    .map(|p| (id.clone(), p.meaning.clone()))
            })
            .collect();
        let pool = dev.clone();
        let total = dev.len();
        Ok(ValidFile {
            lines: valid.num_lines,
            missing: missing_warning(&valid.missing),
            panel: KindPanel::new(move || {
                let (answers, pool) = (answers.clone(), pool.clone());
                view! {
                    <p class="small">{HelpTexts::text(|t| t.preview_note)}</p>
                    {(total > 0).then(|| view! { <ExplainDevPreview answers=answers pool=pool total=total /> })}
                }
                .into_any()
            }),
        })
    }
}

/// The server's note on an explanation file's missing items.
fn missing_warning(missing: &[String]) -> Option<String> {
    missing_warning_in(crate::i18n::current_lang(), missing)
}

/// [`missing_warning`] in `lang`.
fn missing_warning_in(lang: crate::i18n::Lang, missing: &[String]) -> Option<String> {
    super::free_text::missing_note(lang, "file.missing_floor", missing)
}

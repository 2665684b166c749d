//! Interface strings in Chinese and English, and the reactive language choice.
//!
//! The choice lives in a context ([`I18n`]) provided by the app root; it starts from
//! localStorage (`memeboard.lang`) or, failing that, from `navigator.language`, and every
//! switch is written back to localStorage and to `<html lang>`.

use crate::storage;
use leptos::prelude::*;
use memeboard_core::tasks::{CategoryInfo, MemeType};

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Simplified Chinese.
    Zh,
    /// English.
    En,
}

impl Lang {
    /// The value stored in localStorage.
    pub fn code(self) -> &'static str {
        match self {
            Self::Zh => "zh",
            Self::En => "en",
        }
    }

    /// The BCP 47 tag for `<html lang>`.
    pub fn html_tag(self) -> &'static str {
        match self {
            Self::Zh => "zh-CN",
            Self::En => "en",
        }
    }

    /// Parses a stored code or a browser language tag (`zh-CN`, `en-GB`…).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().to_ascii_lowercase();
        if s.starts_with("zh") {
            Some(Self::Zh)
        } else if s.starts_with("en") {
            Some(Self::En)
        } else {
            None
        }
    }

    /// The other language.
    pub fn other(self) -> Self {
        match self {
            Self::Zh => Self::En,
            Self::En => Self::Zh,
        }
    }

    /// The same language for the shared message catalogue (server errors, file checks).
    pub fn locale(self) -> memeboard_core::messages::Locale {
        match self {
            Self::Zh => memeboard_core::messages::Locale::Zh,
            Self::En => memeboard_core::messages::Locale::En,
        }
    }

    /// The strings of this language.
    pub fn strings(self) -> &'static Strings {
        match self {
            Self::Zh => &ZH,
            Self::En => &EN,
        }
    }
}

/// The language context: a reactive [`Lang`] shared by every page.
#[derive(Debug, Clone, Copy)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked).
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// The current language, untracked (for async code and event handlers).
    pub fn lang_untracked(&self) -> Lang {
        self.lang.get_untracked()
    }

    /// The current strings (tracked).
    pub fn t(&self) -> &'static Strings {
        self.lang.get().strings()
    }

    /// Switches language and remembers the choice.
    pub fn set(&self, lang: Lang) {
        storage::set(storage::LANG_KEY, lang.code());
        CURRENT.with(|c| c.set(Some(lang)));
        self.lang.set(lang);
    }

    /// Switches to the other language.
    pub fn toggle(&self) {
        self.set(self.lang.get_untracked().other());
    }
}

thread_local! {
    /// The language last chosen, for code outside the reactive tree (API error messages).
    static CURRENT: std::cell::Cell<Option<Lang>> = const { std::cell::Cell::new(None) };
}

/// The current language without a context (for messages built in async API code): the last
/// choice, else the starting one.
pub fn current_lang() -> Lang {
    CURRENT.with(|c| {
        c.get().unwrap_or_else(|| {
            // (Native unit tests have no browser to ask.)
            let lang = if cfg!(target_arch = "wasm32") {
                initial_lang()
            } else {
                Lang::En
            };
            c.set(Some(lang));
            lang
        })
    })
}

/// The language to start with: the stored choice, else the browser's, else English.
fn initial_lang() -> Lang {
    storage::get(storage::LANG_KEY)
        .and_then(|s| Lang::parse(&s))
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.navigator().language())
                .and_then(|l| Lang::parse(&l))
        })
        .unwrap_or(Lang::En)
}

/// Provides the [`I18n`] context and keeps `<html lang>` in sync. Call once, at the root.
pub fn provide_i18n() -> I18n {
    let i18n = I18n {
        lang: RwSignal::new(initial_lang()),
    };
    provide_context(i18n);
    Effect::new(move |_| {
        let lang = i18n.lang();
        CURRENT.with(|c| c.set(Some(lang)));
        let tag = lang.html_tag();
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("lang", tag);
        }
    });
    i18n
}

/// The [`I18n`] context (falls back to a fresh one if the root did not provide it).
pub fn use_i18n() -> I18n {
    use_context::<I18n>().unwrap_or_else(|| I18n {
        lang: RwSignal::new(initial_lang()),
    })
}

/// A piece of interface text that follows the language: `tr(|t| t.title)`.
///
/// Every call returns the same closure type, so the view code that renders such text is
/// compiled once for the whole app instead of once per string (a large wasm saving).
pub fn tr(
    pick: fn(&'static Strings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || pick(i18n.t())
}

/// A category's label in `lang`: from the quiz's own labels, else the CHIME meme types,
/// else the raw key.
pub fn category_label(lang: Lang, key: &str, categories: &[CategoryInfo]) -> String {
    if let Some(c) = categories.iter().find(|c| c.key == key) {
        return match lang {
            Lang::Zh => c.label_zh.clone(),
            Lang::En => c.label_en.clone(),
        };
    }
    if let Some(t) = MemeType::from_key(key) {
        return match lang {
            Lang::Zh => t.upstream_cn().to_owned(),
            Lang::En => t.upstream_en().to_owned(),
        };
    }
    key.to_owned()
}

/// Every interface string of one language.
#[derive(Debug)]
pub struct Strings {
    /// Name of the *other* language, shown on the switch button.
    pub other_language: &'static str,
    /// Accessible label of the switch button.
    pub switch_language: &'static str,
    /// Placeholder while data loads.
    pub loading: &'static str,
    /// Heading of the shared error view.
    pub error_title: &'static str,
    /// Link back to the home page.
    pub back_home: &'static str,
    /// Body of the 404 page.
    pub not_found: &'static str,
    /// Heading shown when the server sent a smaller bundle for a page it lacks (the bigger
    /// bundle, `dist/boards-app/` or `dist/studio/`, was not built).
    pub bundle_missing: &'static str,
    /// What to do about [`Strings::bundle_missing`].
    pub bundle_missing_detail: &'static str,
    /// Attention check heading (these study strings are the participant side of
    /// [`crate::study_i18n`], kept here so the quiz bundle does not carry that table).
    pub check_title: &'static str,
    /// Continue after a check.
    pub check_continue: &'static str,
    /// Screened-out heading.
    pub screened_title: &'static str,
    /// Screened-out text.
    pub screened_text: &'static str,
    /// Redirect note.
    pub redirect_note: &'static str,
    /// Redirect link.
    pub redirect_link: &'static str,
    /// Code label.
    pub study_code: &'static str,
    /// Full quiz badge (home page).
    pub full: &'static str,
    /// Footer note.
    pub footer: &'static str,

    /// Consent page: what the end of the batch shows, given the hidden share in percent.
    pub results_note: fn(Option<u8>) -> String,

    /// Home page heading.
    pub home_title: &'static str,
    /// Home page introduction.
    pub home_intro: &'static str,
    /// Shown when no quiz is open.
    pub no_quizzes: &'static str,
    /// "N items in the pool".
    pub item_count: fn(usize) -> String,
    /// "N questions per participant".
    pub batch_size: fn(usize) -> String,
    /// "N participants completed".
    pub participants: fn(usize) -> String,
    /// Label before the category chips.
    pub categories: &'static str,
    /// Start link on a quiz card.
    pub start: &'static str,

    /// Heading of the resume box.
    pub resume_title: &'static str,
    /// Text of the resume box.
    pub resume_text: &'static str,
    /// Resume link.
    pub resume_link: &'static str,
    /// Start-over button.
    pub start_over: &'static str,
    /// Note under the start-over button.
    pub start_over_note: &'static str,
    /// Step 1 heading.
    pub step1_title: &'static str,
    /// Heading above the rules.
    pub rules_title: &'static str,
    /// The rules participants agree to.
    pub rules: [&'static str; 5],
    /// Consent checkbox label.
    pub consent_label: &'static str,
    /// Continue button of step 1.
    pub continue_: &'static str,
    /// Step 2 heading.
    pub step2_title: &'static str,
    /// Step 1 heading when the flow has three steps (clip quizzes add a headphone check).
    pub step1_of3_title: &'static str,
    /// The survey's heading when the flow has three steps.
    pub step3_of3_title: &'static str,
    /// Step 2 introduction.
    pub survey_intro: &'static str,
    /// Placeholder option of the survey selects.
    pub choose: &'static str,
    /// Age question.
    pub age_label: &'static str,
    /// Labels of `AgeRange::ALL`.
    pub ages: [&'static str; 6],
    /// Native language question.
    pub language_label: &'static str,
    /// Labels of `NativeLanguage::ALL`.
    pub languages: [&'static str; 8],
    /// Time online question.
    pub online_label: &'static str,
    /// Labels of `OnlineTime::ALL`.
    pub online: [&'static str; 4],
    /// Familiarity question.
    pub familiarity_label: &'static str,
    /// Labels of familiarity 1..=5.
    pub familiarity: [&'static str; 5],
    /// Skip-flagged checkbox label.
    pub skip_flagged_label: &'static str,
    /// Survey submit button.
    pub survey_submit: &'static str,
    /// Survey submit button while sending.
    pub starting: &'static str,
    /// Shown when a survey question is unanswered.
    pub survey_missing: &'static str,
    /// Back button of step 2.
    pub back: &'static str,
    /// "You will answer N questions".
    pub batch_note: fn(usize) -> String,

    /// "Question k of N".
    pub progress: fn(usize, usize) -> String,
    /// Content warning above a flagged question.
    pub content_warning: &'static str,
    /// Accessible name of the blank.
    pub blank: &'static str,
    /// Instruction above the options.
    pub options_label: &'static str,
    /// Submit button.
    pub submit: &'static str,
    /// Submit button while sending.
    pub sending: &'static str,
    /// Keyboard hint.
    pub keyboard_hint: &'static str,
    /// Shown when Enter is pressed with nothing chosen.
    pub choose_first: &'static str,
    /// Prefix of a failed submission message.
    pub answer_failed: &'static str,
    /// Shown while a failed answer is being resent automatically (attempt number).
    pub answer_retrying: fn(u32) -> String,
    /// Retry button.
    pub retry: &'static str,
    /// Heading once the batch is done.
    pub done_title: &'static str,
    /// Label of the completion code.
    pub completion_code: &'static str,
    /// What to do with the completion code.
    pub completion_hint: &'static str,
    /// Link to the results page.
    pub see_results: &'static str,

    /// Results heading.
    pub results_title: &'static str,
    /// "Your score: c / n".
    pub your_score: &'static str,
    /// Results: answers to hidden test items are not scored or reviewed.
    pub held_out_note: fn(usize) -> String,
    /// The headline score when every answer was on hidden test items (nothing to score here).
    pub all_held_out: &'static str,
    /// Similarity kinds: the rounded mean over the hidden items (count, mean).
    pub hidden_mean_note: fn(usize, f64) -> String,
    /// A category figure left out because the category has too few items on the board half.
    pub too_few_items: &'static str,
    /// Tooltip of [`Strings::too_few_items`].
    pub too_few_items_title: &'static str,
    /// Heading of the comparison table.
    pub compare_title: &'static str,
    /// Column: category.
    pub col_category: &'static str,
    /// Column: you.
    pub col_you: &'static str,
    /// Column: human average.
    pub col_average: &'static str,
    /// Column: human best.
    pub col_best: &'static str,
    /// Column: pooled.
    pub col_pooled: &'static str,
    /// Column: participants.
    pub col_n: &'static str,
    /// Row label of the overall row.
    pub overall: &'static str,
    /// Label of the chance line.
    pub chance: &'static str,
    /// Explanation of the numbers.
    pub ci_note: &'static str,
    /// Label of the agreement line.
    pub agreement: &'static str,
    /// Review heading.
    pub review_title: &'static str,
    /// Review: your answer.
    pub your_answer: &'static str,
    /// Review: correct answer.
    pub correct_answer: &'static str,
    /// Review: meaning.
    pub meaning: &'static str,
    /// Review: crowd accuracy.
    pub crowd_accuracy: &'static str,
    /// Review: right.
    pub right: &'static str,
    /// Review: wrong.
    pub wrong: &'static str,
    /// Review: gold withheld (hidden test item).
    pub withheld: &'static str,
    /// Review: why the correct answer is not shown.
    pub withheld_note: &'static str,
    /// Heading when results are not available yet.
    pub results_not_ready: &'static str,
    /// Link back to an unfinished quiz.
    pub continue_quiz: &'static str,

    /// Accessible name of the main navigation.
    pub nav_label: &'static str,
    /// Nav: quizzes (home).
    pub nav_quizzes: &'static str,
    /// Nav: leaderboards.
    pub nav_boards: &'static str,
    /// Nav: submit predictions.
    pub nav_submit: &'static str,
    /// Nav: account (author token).
    pub nav_account: &'static str,

    /// Row kind badge: a submitted model.
    pub kind_model: &'static str,
    /// Row kind badge: a crowd human row.
    pub kind_human: &'static str,
    /// Row kind badge: a chance baseline.
    pub kind_baseline: &'static str,
    /// Open weights.
    pub weights_open: &'static str,
    /// Closed weights.
    pub weights_closed: &'static str,
    /// Submission status: scored.
    pub status_scored: &'static str,
    /// Submission status: stored, scores hidden (blind board).
    pub status_received: &'static str,
    /// Submission status: stored without an automatic score (judged by people only).
    pub status_unscored: &'static str,
    /// Label of the human-average board row.
    pub row_human_average: &'static str,
    /// Label of the human-best board row.
    pub row_human_best: &'static str,
    /// Label of the chance board row (the expected score of random answers).
    pub row_chance: &'static str,
    /// Label of the display-order baseline row (panel order boards).
    pub row_display_order: &'static str,
    /// Label of the seeded random-order baseline row.
    pub row_random_order: &'static str,
    /// Label of the majority-type baseline row (structure boards).
    pub row_majority_type: &'static str,
    /// Label of the seeded random-type baseline row.
    pub row_random_type: &'static str,
    /// Label of the "copy of the prompt" baseline row (explanation boards).
    pub row_prompt_copy: &'static str,
    /// Label of the "all answers pooled" human board row.
    pub row_human_pooled: &'static str,
    /// Column: model / row label.
    pub col_model: &'static str,
    /// Withdraw button.
    pub withdraw: &'static str,
    /// Withdraw: the question of the confirmation step.
    pub withdraw_question: &'static str,
    /// Withdraw: the confirming button.
    pub withdraw_yes: &'static str,
    /// Withdraw: while the request runs.
    pub withdrawing: &'static str,
    /// Withdraw: the note shown afterwards.
    pub withdrawn_note: &'static str,
    /// Column: accuracy with interval.
    pub col_accuracy: &'static str,
    /// Column: items scored.
    pub col_items: &'static str,

    /// Heading of the chart.
    pub chart_title: &'static str,
    /// Text description of the chart (for screen readers).
    pub chart_desc: &'static str,
    /// Shown instead of bars when no model is scored yet.
    pub no_models: &'static str,

    /// While the task manifest loads.
    pub task_loading: &'static str,
    /// Heading of the dev preview score.
    pub preview_score_title: &'static str,
    /// Note under the dev preview score.
    pub preview_score_note: fn(usize) -> String,
    /// Upload button.
    pub upload: &'static str,

    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// The clipboard is unavailable for the completion code.
    pub copy_code_failed: &'static str,
    /// Cancel.
    pub cancel: &'static str,

    /// Label of the "random pair of reference meanings" baseline row (explanation boards).
    pub row_random_pair: &'static str,
    /// Column: metric name.
    pub col_metric: &'static str,
}

/// Chinese strings.
pub static ZH: Strings = Strings {
    other_language: "English",
    switch_language: "切换语言 / Switch language",
    loading: "加载中…",
    error_title: "出错了",
    back_home: "返回首页",
    not_found: "页面不存在。",
    bundle_missing: "此页面未安装",
    bundle_missing_detail: "排行榜页面（dist/boards-app/）和研究者页面（dist/studio/：控制台、研究、提交、账户）是单独构建的，本服务器上没有。请用 scripts/build-web.sh 构建前端。",
    check_title: "注意力检查",
    check_continue: "继续",
    screened_title: "谢谢：本研究对你到此结束",
    screened_text: "你的会话已提前结束。请用下面的代码或链接返回研究平台。",
    redirect_note: "几秒后将带你返回研究平台…",
    redirect_link: "立即返回研究平台",
    study_code: "研究代码",
    full: "已满：不再接收新参与者",
    footer: "memeboard：为梗理解基准收集匿名的人类作答。",

    results_note: |hidden| match hidden {
        Some(h) => format!("结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；约 {h}% 的题目属于隐藏测试集，不显示其答案。"),
        None => "结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；部分题目属于隐藏测试集，不显示其答案。".to_owned(),
    },

    home_title: "梗理解：人类基准测试",
    home_intro: "参与一个关于中文网络梗的小测验。你的匿名作答将成为与 AI 模型对比的人类基准。",
    no_quizzes: "目前没有开放的测验。",
    item_count: |n| format!("题库共 {n} 题"),
    batch_size: |n| format!("每人作答 {n} 题"),
    participants: |n| format!("已有 {n} 人完成"),
    categories: "类别",
    start: "开始",

    resume_title: "继续你的测验",
    resume_text: "你在此浏览器中已开始过这个测验。",
    resume_link: "继续作答",
    start_over: "重新开始",
    start_over_note: "重新开始会分配一组新的题目；之前已提交的答案仍会保留。",
    step1_title: "第 1 步（共 2 步）：说明与知情同意",
    rules_title: "作答规则",
    rules: [
        "请勿上网搜索，也不要使用 AI 工具或其他参考资料。",
        "请独立作答，不要向他人求助。",
        "请如实作答：不确定时可以凭直觉选择，答错没有惩罚。",
        "参与完全匿名：我们只保存你的答案、作答用时和简短的背景问卷，并以随机编号关联。",
        "你必须年满 18 周岁。",
    ],
    consent_label: "我同意：我已年满 18 周岁，并会遵守以上规则。",
    continue_: "继续",
    step2_title: "第 2 步（共 2 步）：关于你",
    step1_of3_title: "第 1 步（共 3 步）：说明与知情同意",
    step3_of3_title: "第 3 步（共 3 步）：关于你",
    survey_intro: "几个粗略的背景问题，不涉及任何可识别个人身份的信息。",
    choose: "请选择…",
    age_label: "年龄段",
    ages: ["18–24 岁", "25–34 岁", "35–44 岁", "45–54 岁", "55 岁及以上", "不愿透露"],
    language_label: "母语",
    languages: [
        "中文", "英语", "西班牙语", "法语", "德语", "日语", "韩语", "其他",
    ],
    online_label: "每天上网时间",
    online: ["少于 1 小时", "1–3 小时", "3–6 小时", "超过 6 小时"],
    familiarity_label: "你对中文网络梗的熟悉程度（1–5）",
    familiarity: [
        "1 – 完全不熟悉",
        "2 – 不太熟悉",
        "3 – 一般",
        "4 – 比较熟悉",
        "5 – 非常熟悉",
    ],
    skip_flagged_label: "跳过被标记为含有粗俗或冒犯性内容的题目",
    survey_submit: "开始答题",
    starting: "正在开始…",
    survey_missing: "请回答以上所有问题。",
    back: "返回上一步",
    batch_note: |n| format!("你将回答 {n} 道题。"),

    progress: |k, n| format!("第 {k} 题，共 {n} 题"),
    content_warning: "内容提醒：本题可能含有粗俗或冒犯性的语言。",
    blank: "空白处",
    options_label: "选择最适合填入空白处的梗：",
    submit: "提交答案",
    sending: "提交中…",
    keyboard_hint: "键盘操作：按 1–5 或 A–E 选择，按 Enter 提交。",
    choose_first: "请先选择一个选项。",
    answer_failed: "答案未能保存：",
    answer_retrying: |n| format!("正在保存……（连接有问题，第 {n} 次重试）"),
    retry: "重试",
    done_title: "全部完成，谢谢参与！",
    completion_code: "你的完成码",
    completion_hint: "如果你来自招募平台，请把这个完成码粘贴回该平台。",
    see_results: "查看你的结果",

    results_title: "你的结果",
    your_score: "你的得分",
    held_out_note: |n| {
        format!("你有 {n} 道题属于隐藏测试集：这些作答计入人类基准，但不计入此处得分，也不显示正确答案。")
    },
    all_held_out: "你的题目都属于隐藏测试集：作答已计入人类基准，此处不显示得分。",
    hidden_mean_note: |n, mean| {
        format!("隐藏测试题（{n} 道）的平均相似度：{mean:.1}（四舍五入；不显示单题得分）")
    },
    too_few_items: "题目太少，不显示",
    too_few_items_title: "仅公布本榜单中题目足够多的类别",
    compare_title: "与其他参与者比较",
    col_category: "类别",
    col_you: "你",
    col_average: "人类平均",
    col_best: "人类最佳",
    col_pooled: "合并正确率",
    col_n: "人数",
    overall: "总体",
    chance: "随机猜测",
    ci_note: "数值为正确率；方括号内为 95% 自助法置信区间；人数为作答过该类别的参与者数。",
    agreement: "标注一致性",
    review_title: "逐题回顾",
    your_answer: "你的答案",
    correct_answer: "正确答案",
    meaning: "含义",
    crowd_accuracy: "参与者正确率",
    right: "答对",
    wrong: "答错",
    withheld: "答案保密",
    withheld_note: "本题属于隐藏测试集，不公布正确答案。",
    results_not_ready: "结果尚不可用",
    continue_quiz: "继续答题",

    nav_label: "主导航",
    nav_quizzes: "测验",
    nav_boards: "排行榜",
    nav_submit: "提交",
    nav_account: "账户",

    kind_model: "模型",
    kind_human: "人类",
    kind_baseline: "基线",
    weights_open: "开放",
    weights_closed: "闭源",
    status_scored: "已评分",
    status_received: "已接收",
    status_unscored: "仅人工评判",
    row_human_average: "人类平均（众包）",
    row_human_best: "人类最佳（众包）",
    row_chance: "随机猜测（期望值）",
    row_display_order: "按展示顺序作答",
    row_random_order: "随机顺序（每题一次固定种子抽样）",
    row_majority_type: "总选最常见的类型",
    row_random_type: "随机类型（每题一次固定种子抽样）",
    row_prompt_copy: "照抄题目（把梗本身当作释义）",
    row_human_pooled: "人类（众包，全部作答合并）",
    col_model: "模型",
    withdraw: "撤回",
    withdraw_question: "要将此提交从所有排行榜撤下吗？此操作无法撤销。",
    withdraw_yes: "确定撤回",
    withdrawing: "正在撤回…",
    withdrawn_note: "已撤回：此提交不再出现在任何排行榜上。",
    col_accuracy: "得分（95% 置信区间）",
    col_items: "题数",


    chart_title: "各类别得分（总体前 5 名模型）",
    chart_desc: "柱形为总体成绩前 5 名模型在每个类别上的得分；实线为人类平均，点线为人类最佳，虚线为随机基线。",
    no_models: "还没有已评分的模型提交。",

    task_loading: "正在加载任务清单…",
    preview_score_title: "开发集（公开答案）——不是排行榜成绩",
    preview_score_note: |n| {
        format!("在你的浏览器中仅用 {n} 道开发集题目计算；排行榜使用隐藏的测试题。")
    },
    upload: "上传并评分",

    copy: "复制",
    copied: "已复制",
    copy_code_failed: "无法访问剪贴板，请手动选中完成码并复制。",
    cancel: "取消",

    row_random_pair: "随机配对的参考释义",
    col_metric: "指标",
};

/// English strings.
pub static EN: Strings = Strings {
    other_language: "中文",
    switch_language: "Switch language / 切换语言",
    loading: "Loading…",
    error_title: "Something went wrong",
    back_home: "Back to home",
    not_found: "Page not found.",
    bundle_missing: "This page is not installed",
    bundle_missing_detail: "The leaderboard pages (dist/boards-app/) and the researcher pages (dist/studio/: console, studies, submit, account) are separate builds, which this server does not have. Build the front end with scripts/build-web.sh.",
    check_title: "Attention check",
    check_continue: "Continue",
    screened_title: "Thank you: the study ends here for you",
    screened_text: "Your session has ended early. Return to the study with this code or link.",
    redirect_note: "Taking you back to the study in a few seconds…",
    redirect_link: "Return to the study now",
    study_code: "Code for the study",
    full: "Full: no new participants",
    footer: "memeboard collects anonymous human answers as baselines for meme-understanding benchmarks.",

    results_note: |hidden| match hidden {
        Some(h) => format!("At the end you will see your score on the open (practice) items of your batch and their correct answers; about {h}% of items are hidden test items whose answers are not shown."),
        None => "At the end you will see your score on the open (practice) items of your batch and their correct answers; some items are hidden test items whose answers are not shown.".to_owned(),
    },

    home_title: "Meme understanding: human baselines",
    home_intro: "Take a short quiz on Chinese internet memes. Your anonymous answers become the human baseline that AI models are compared against.",
    no_quizzes: "No quizzes are open right now.",
    item_count: |n| format!("{n} items in the pool"),
    batch_size: |n| format!("{n} questions per participant"),
    participants: |n| {
        if n == 1 {
            "1 participant completed".to_owned()
        } else {
            format!("{n} participants completed")
        }
    },
    categories: "Categories",
    start: "Start",

    resume_title: "Resume your quiz",
    resume_text: "You already started this quiz in this browser.",
    resume_link: "Resume your quiz",
    start_over: "Start over",
    start_over_note: "Starting over gives you a new set of questions; answers you already sent stay recorded.",
    step1_title: "Step 1 of 2: Instructions and consent",
    rules_title: "Rules",
    rules: [
        "Do not search the web, and do not use AI tools or other references.",
        "Answer on your own; do not ask anyone for help.",
        "Answer honestly. If you are unsure, go with your best guess; there is no penalty for wrong answers.",
        "Participation is anonymous: we store only your answers, response times and the short background survey, under a random id.",
        "You must be 18 or older.",
    ],
    consent_label: "I agree: I am 18 or older and I will follow these rules.",
    continue_: "Continue",
    step2_title: "Step 2 of 2: About you",
    step1_of3_title: "Step 1 of 3: Instructions and consent",
    step3_of3_title: "Step 3 of 3: About you",
    survey_intro: "A few coarse background questions; nothing that identifies you.",
    choose: "Choose…",
    age_label: "Age range",
    ages: ["18–24", "25–34", "35–44", "45–54", "55 or older", "Prefer not to say"],
    language_label: "Native language",
    languages: [
        "Chinese", "English", "Spanish", "French", "German", "Japanese", "Korean", "Other",
    ],
    online_label: "Time online per day",
    online: ["Under 1 hour", "1–3 hours", "3–6 hours", "Over 6 hours"],
    familiarity_label: "How familiar are you with Chinese internet memes? (1–5)",
    familiarity: [
        "1 – Not at all familiar",
        "2 – Slightly familiar",
        "3 – Somewhat familiar",
        "4 – Quite familiar",
        "5 – Very familiar",
    ],
    skip_flagged_label: "Skip questions flagged for profanity or offensive content",
    survey_submit: "Start the quiz",
    starting: "Starting…",
    survey_missing: "Please answer every question above.",
    back: "Back",
    batch_note: |n| format!("You will answer {n} questions."),

    progress: |k, n| format!("Question {k} of {n}"),
    content_warning: "Content warning: this question may contain profanity or offensive language.",
    blank: "blank",
    options_label: "Choose the meme that fills the blank:",
    submit: "Submit answer",
    sending: "Sending…",
    keyboard_hint: "Keyboard: press 1–5 or A–E to choose, Enter to submit.",
    choose_first: "Choose an option first.",
    answer_failed: "Your answer was not saved: ",
    answer_retrying: |n| format!("Saving… (connection trouble, retry {n})"),
    retry: "Retry",
    done_title: "All done — thank you!",
    completion_code: "Your completion code",
    completion_hint: "If you came from a recruitment platform, paste this code there.",
    see_results: "See your results",

    results_title: "Your results",
    your_score: "Your score",
    held_out_note: |n| {
        format!("{n} of your answers are to hidden test items: they count towards the crowd baseline, but not towards your score here, and their correct answers are not shown.")
    },
    all_held_out: "All your items are hidden test items: your answers count toward the human baseline; no score is shown here.",
    hidden_mean_note: |n, mean| {
        format!("Hidden test items ({n}): average similarity {mean:.1} (rounded; no per-item scores)")
    },
    too_few_items: "too few items to show",
    too_few_items_title: "Published only for categories with enough items on this board half",
    compare_title: "Compared with other participants",
    col_category: "Category",
    col_you: "You",
    col_average: "Human average",
    col_best: "Human best",
    col_pooled: "Pooled",
    col_n: "Participants",
    overall: "Overall",
    chance: "Chance",
    ci_note: "Numbers are accuracies; brackets give 95% bootstrap confidence intervals; participants = people who answered in that category.",
    agreement: "Agreement",
    review_title: "Review",
    your_answer: "Your answer",
    correct_answer: "Correct answer",
    meaning: "Meaning",
    crowd_accuracy: "Crowd accuracy",
    right: "Right",
    wrong: "Wrong",
    withheld: "Answer withheld",
    withheld_note: "This question belongs to a hidden test set, so its answer is not shown.",
    results_not_ready: "Results are not available yet",
    continue_quiz: "Continue the quiz",

    nav_label: "Main",
    nav_quizzes: "Quizzes",
    nav_boards: "Leaderboards",
    nav_submit: "Submit",
    nav_account: "Account",

    kind_model: "model",
    kind_human: "human",
    kind_baseline: "baseline",
    weights_open: "open",
    weights_closed: "closed",
    status_scored: "scored",
    status_received: "received",
    status_unscored: "judged by people only",
    row_human_average: "Human average (crowd)",
    row_human_best: "Human best (crowd)",
    row_chance: "Chance (expected score of random answers)",
    row_display_order: "Display order (answer = the order shown)",
    row_random_order: "Random order (one seeded draw per item)",
    row_majority_type: "Majority type (always the most common type)",
    row_random_type: "Random type (one seeded draw per item)",
    row_prompt_copy: "Copy of the prompt (the meme phrase as its meaning)",
    row_human_pooled: "Humans pooled (crowd)",
    col_model: "Model",
    withdraw: "Withdraw",
    withdraw_question: "Take this submission off every board? This cannot be undone.",
    withdraw_yes: "Yes, withdraw",
    withdrawing: "Withdrawing…",
    withdrawn_note: "Withdrawn: this submission is on no board.",
    col_accuracy: "Score (95% CI)",
    col_items: "Items",


    chart_title: "Scores by category (top 5 models overall)",
    chart_desc: "Bars show the score of the five best models overall in each category; the solid line marks the human average, the dotted line the human best and the dashed line the chance baseline.",
    no_models: "No scored model submissions yet.",

    task_loading: "Loading the task manifest…",
    preview_score_title: "Dev split (public gold) — not the leaderboard score",
    preview_score_note: |n| {
        format!("Computed in your browser on the {n} dev items only; the leaderboard uses hidden test items.")
    },
    upload: "Upload and score",

    copy: "Copy",
    copied: "Copied",
    copy_code_failed: "The clipboard is not available; select the code and copy it by hand.",
    cancel: "Cancel",

    row_random_pair: "Random pair of reference meanings",
    col_metric: "Metric",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_map_to_languages() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-Hant-TW"), Some(Lang::Zh));
        assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::parse(Lang::Zh.code()), Some(Lang::Zh));
    }

    #[test]
    fn category_labels_prefer_the_quiz_then_meme_types() {
        let cats = vec![CategoryInfo {
            key: "slang".into(),
            label_en: "Slang!".into(),
            label_zh: "俗语！".into(),
        }];
        assert_eq!(category_label(Lang::En, "slang", &cats), "Slang!");
        assert_eq!(category_label(Lang::Zh, "homophonic_pun", &cats), "谐音");
        assert_eq!(category_label(Lang::En, "other", &cats), "other");
    }

    #[test]
    fn leaderboard_strings() {
        assert_eq!((EN.quota_left)(2, 5), "2 of 5 left today");
        assert_eq!((ZH.quota_left)(2, 5), "今日还剩 2 / 5 次");
        assert_eq!((EN.lines_ok)(36), "36 lines OK");
        assert_eq!((EN.participants_n)(1), "1 participant");
        assert!((EN.help_limits)(Some(5)).contains("5 uploads"));
    }

    #[test]
    fn progress_strings() {
        assert_eq!((EN.progress)(3, 24), "Question 3 of 24");
        assert_eq!((ZH.progress)(3, 24), "第 3 题，共 24 题");
    }
}

//! Interface strings of the leaderboard, model and researcher pages in both languages, apart
//! from the main tables of [`crate::i18n`] so that the quiz bundle, which has none of these
//! pages, does not carry them (issue 12's size budget). [`BoardStrings`] dereferences to the
//! main [`Strings`], so those pages read both from one value: `t.col_rank`, `t.loading`.

use crate::i18n::{use_i18n, I18n, Lang, Strings, EN as MAIN_EN, ZH as MAIN_ZH};

/// The board and researcher page strings of one language, plus the main table.
#[derive(Debug)]
pub struct BoardStrings {
    /// The main strings of the same language (reached through `Deref`).
    pub main: &'static Strings,
    /// Model page: the document title for a model name.
    pub model_page_title: fn(&str) -> String,
    /// Badge on a model row whose answers mostly repeat the prompt.
    pub flag_copies_prompt: &'static str,
    /// "N participants" under a human row.
    pub participants_n: fn(usize) -> String,
    /// Column: rank.
    pub col_rank: &'static str,
    /// Column: row kind.
    pub col_kind: &'static str,
    /// Column: organisation.
    pub col_organisation: &'static str,
    /// Column: parameters.
    pub col_params: &'static str,
    /// Column: weights.
    pub col_weights: &'static str,
    /// Column: submission date.
    pub col_submitted: &'static str,
    /// Board filters: the group's label.
    pub filters_label: &'static str,
    /// Board filters: any value.
    pub filter_all: &'static str,
    /// Board filters: the size filter's label.
    pub filter_size: &'static str,
    /// Size bucket: up to 10B parameters.
    pub size_le10b: &'static str,
    /// Size bucket: 10B to 100B.
    pub size_10to100b: &'static str,
    /// Size bucket: over 100B.
    pub size_gt100b: &'static str,
    /// Size bucket: no size given (or not readable).
    pub size_unknown: &'static str,
    /// Board filters: the date filter's label.
    pub filter_since: &'static str,
    /// Board filters: reset link.
    pub filter_clear: &'static str,
    /// Board filters: how many model rows are shown (shown, total).
    pub filter_shown: fn(usize, usize) -> String,
    /// Attempts toggle: show every upload (total attempts).
    pub attempts_show_all: fn(usize) -> String,
    /// Attempts toggle: back to one row per model.
    pub attempts_one_per_model: &'static str,
    /// Board note: one row per model, its best upload.
    pub attempts_best_note: &'static str,
    /// Board note: one row per model, its latest upload.
    pub attempts_latest_note: &'static str,
    /// Board note: every upload of every model.
    pub attempts_all_note: &'static str,
    /// Rank cell of a human or baseline row (screen readers).
    pub not_ranked: &'static str,
    /// Withdraw: the submission's state afterwards.
    pub withdrawn: &'static str,
    /// Submit page: uploads left today before uploading (left, limit).
    pub quota_before: fn(usize, usize) -> String,
    /// Hint above a sortable table.
    pub sort_hint: &'static str,
    /// Leaderboard index heading.
    pub boards_title: &'static str,
    /// Leaderboard index introduction.
    pub boards_intro: &'static str,
    /// Shown when no task has a board.
    pub no_tasks: &'static str,
    /// Item counts per split: dev, public test, private test.
    pub split_counts: fn(usize, usize, usize) -> String,
    /// "N submissions".
    pub submissions_n: fn(usize) -> String,
    /// Link to a board.
    pub view_board: &'static str,
    /// Link to the submit page for a task.
    pub submit_to: &'static str,
    /// Public board toggle.
    pub board_public: &'static str,
    /// Private board toggle.
    pub board_private: &'static str,
    /// Accessible name of the public/private toggle.
    pub board_split_label: &'static str,
    /// Accessible name of the item-subset switch.
    pub board_subset_label: &'static str,
    /// Subset `main`: items not answerable from the text alone.
    pub subset_main: &'static str,
    /// Subset `full`: every item.
    pub subset_full: &'static str,
    /// Heading of the familiarity figure.
    pub familiarity_chart_title: &'static str,
    /// What the familiarity figure shows.
    pub familiarity_chart_note: &'static str,
    /// Familiarity table: caption.
    pub familiarity_table_caption: &'static str,
    /// Familiarity table: the group column.
    pub col_familiarity: &'static str,
    /// Familiarity table: accuracy with its interval.
    pub col_human_accuracy: &'static str,
    /// Familiarity table: participants.
    pub col_participants: &'static str,
    /// Familiarity table: answers.
    pub col_answers: &'static str,
    /// Under a bar: participants.
    pub familiarity_participants: fn(usize) -> String,
    /// Under a bar: answers.
    pub familiarity_answers: fn(usize) -> String,
    /// A group with too few answers to show.
    pub too_few_answers: &'static str,
    /// Heading while the private board is not revealed.
    pub board_locked_title: &'static str,
    /// Blind board note.
    pub board_blind_note: &'static str,
    /// Board of a task without an automatic metric (comic explanations).
    pub board_unscored_note: &'static str,
    /// "Scored on N test items · metric: accuracy".
    pub board_items: fn(usize, &str) -> String,
    /// Label of the missing-items policy.
    pub missing_policy_label: &'static str,
    /// Explanation of the numbers on a board.
    pub board_ci_note: &'static str,
    /// Heading of the download links.
    pub downloads: &'static str,
    /// Download the board as CSV.
    pub download_csv: &'static str,
    /// Download the board as JSON.
    pub download_json: &'static str,
    /// Accessible name of the scrollable table region.
    pub board_table_label: &'static str,
    /// Submit page heading.
    pub submit_title: &'static str,
    /// Submit page introduction.
    pub submit_intro: &'static str,
    /// Help heading.
    pub help_title: &'static str,
    /// Limits (daily quota if known).
    pub help_limits: fn(Option<usize>) -> String,
    /// Heading of the per-task downloads.
    pub task_files: &'static str,
    /// Download: model inputs.
    pub dl_inputs: &'static str,
    /// Download: JSON Lines template.
    pub dl_template_jsonl: &'static str,
    /// Download: CSV template.
    pub dl_template_csv: &'static str,
    /// Download: dev gold.
    pub dl_dev_gold: &'static str,
    /// Command line heading.
    pub cli_title: &'static str,
    /// Before the curl example.
    pub cli_curl: &'static str,
    /// Before the CLI example.
    pub cli_tool: &'static str,
    /// Upload form heading.
    pub form_title: &'static str,
    /// Task select label.
    pub task_label: &'static str,
    /// Token field label.
    pub token_label: &'static str,
    /// Before the account link under the token field.
    pub token_missing: &'static str,
    /// Account link text under the token field.
    pub token_create_link: &'static str,
    /// Model name label.
    pub model_label: &'static str,
    /// Organisation label.
    pub organisation_label: &'static str,
    /// Organisation hint.
    pub organisation_hint: &'static str,
    /// Parameters label.
    pub parameters_label: &'static str,
    /// Weights label.
    pub weights_label: &'static str,
    /// Open weights option.
    pub weights_open_option: &'static str,
    /// Closed weights option.
    pub weights_closed_option: &'static str,
    /// Link label.
    pub link_label: &'static str,
    /// Description label.
    pub description_label: &'static str,
    /// File field label.
    pub file_label: &'static str,
    /// Drop zone text.
    pub drop_text: &'static str,
    /// "Selected: name (size)".
    pub file_selected: fn(&str, f64) -> String,
    /// While the file is read and checked.
    pub checking: &'static str,
    /// The file could not be read.
    pub file_unreadable: &'static str,
    /// The file is over the size limit.
    pub file_too_big: fn(f64, usize) -> String,
    /// Heading of the preview error list.
    pub preview_errors_title: &'static str,
    /// "N lines OK".
    pub lines_ok: fn(usize) -> String,
    /// Upload button while sending.
    pub uploading: &'static str,
    /// Accessible name of the progress bar.
    pub upload_progress: &'static str,
    /// Model name missing.
    pub need_model: &'static str,
    /// Token missing.
    pub need_token: &'static str,
    /// Heading of the server's error list.
    pub upload_failed: &'static str,
    /// Result heading.
    pub result_title: &'static str,
    /// Label of the status.
    pub status_label: &'static str,
    /// "N lines read".
    pub lines_read: fn(usize) -> String,
    /// Heading of the public score.
    pub public_score_title: &'static str,
    /// Blind board: scores later.
    pub received_note: &'static str,
    /// Heading of the warnings.
    pub warnings_title: &'static str,
    /// "2 of 5 left today".
    pub quota_left: fn(usize, usize) -> String,
    /// Link to the board.
    pub see_board: &'static str,
    /// Link to the model page.
    pub see_model: &'static str,
    /// Account heading.
    pub account_title: &'static str,
    /// Account introduction.
    pub account_intro: &'static str,
    /// Create-token heading.
    pub create_title: &'static str,
    /// Name field.
    pub name_label: &'static str,
    /// Create button.
    pub create_token: &'static str,
    /// Create button while sending.
    pub creating: &'static str,
    /// Name missing.
    pub need_name: &'static str,
    /// New-token heading.
    pub new_token_title: &'static str,
    /// New-token note.
    pub new_token_note: &'static str,
    /// Clipboard unavailable.
    pub copy_failed: &'static str,
    /// Heading of the stored token's account.
    pub your_account: &'static str,
    /// Uploads left label.
    pub quota_label: &'static str,
    /// Own submissions heading.
    pub my_submissions: &'static str,
    /// No own submissions.
    pub no_submissions: &'static str,
    /// Forget-token button.
    pub forget_token: &'static str,
    /// Confirmation question.
    pub forget_confirm: &'static str,
    /// Confirm forgetting.
    pub forget_yes: &'static str,
    /// Summary of the "create another token" box.
    pub create_another: &'static str,
    /// Heading of the "use an existing token" box.
    pub use_existing: &'static str,
    /// Save button.
    pub save: &'static str,
    /// Model page: task label.
    pub model_task: &'static str,
    /// Model page: link label.
    pub model_link: &'static str,
    /// Model page: lines label.
    pub model_lines: &'static str,
    /// Model page: missing items label.
    pub model_missing: &'static str,
    /// Model page: scores hidden.
    pub scores_hidden: &'static str,
    /// Heading of the gap table.
    pub gaps_title: &'static str,
    /// Note under the gap heading.
    pub gaps_note: &'static str,
    /// No gap items.
    pub no_gaps: &'static str,
    /// Column: question.
    pub col_question: &'static str,
    /// Heading of the secondary metrics table.
    pub secondary_title: &'static str,
    /// Secondary figure: parse rate.
    pub metric_parse_rate: &'static str,
    /// Secondary figure: macro-F1.
    pub metric_macro_f1: &'static str,
    /// Secondary figure: weighted-F1.
    pub metric_weighted_f1: &'static str,
    /// Secondary figure: accuracy counting unparseable answers as wrong.
    pub metric_accuracy_all: &'static str,
    /// Secondary figure: accuracy on the comics of one structure type.
    pub metric_accuracy_of_type: fn(&str) -> String,
    /// Summary of a row's confusion matrix.
    pub confusion_title: fn(&str) -> String,
    /// Caption of a confusion matrix.
    pub confusion_caption: &'static str,
    /// Corner header: gold label.
    pub confusion_gold: &'static str,
    /// Column: unparseable answers.
    pub confusion_unparseable: &'static str,
    /// Column: value.
    pub col_value: &'static str,
    /// Column: the crowd's mean score on an item.
    pub col_crowd_score: &'static str,
    /// Column: model score on an item.
    pub col_model_score: &'static str,
}

impl std::ops::Deref for BoardStrings {
    type Target = Strings;
    fn deref(&self) -> &Strings {
        self.main
    }
}

impl Lang {
    /// The board and researcher page strings of this language.
    pub fn board_strings(self) -> &'static BoardStrings {
        match self {
            Self::Zh => &ZH,
            Self::En => &EN,
        }
    }
}

impl I18n {
    /// The board and researcher page strings of the current language (reactive).
    pub fn bt(&self) -> &'static BoardStrings {
        self.lang().board_strings()
    }
}

/// [`crate::i18n::tr`] for the board and researcher page strings: `btr(|t| t.col_rank)`.
pub fn btr(
    pick: fn(&'static BoardStrings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || pick(i18n.bt())
}

/// 中文.
pub static ZH: BoardStrings = BoardStrings {
    main: &MAIN_ZH,
    model_page_title: |name| format!("模型：{name}"),
    flag_copies_prompt: "多数回答照抄了题目",
    participants_n: |n| format!("{n} 名参与者"),
    col_rank: "排名",
    col_kind: "类型",
    col_organisation: "机构",
    col_params: "参数量",
    col_weights: "权重",
    col_submitted: "提交日期",
    filters_label: "筛选模型",
    filter_all: "全部",
    filter_size: "规模（参数量）",
    size_le10b: "≤ 10B",
    size_10to100b: "10B–100B",
    size_gt100b: "> 100B",
    size_unknown: "未知",
    filter_since: "提交日期不早于",
    filter_clear: "清除筛选",
    filter_shown: |shown, total| format!("显示 {total} 个模型行中的 {shown} 个"),
    attempts_show_all: |n| format!("显示全部 {n} 次提交"),
    attempts_one_per_model: "每个模型只显示一行",
    attempts_best_note: "每个模型一行：其最佳提交。",
    attempts_latest_note: "每个模型一行：其最新提交。",
    attempts_all_note: "显示每个模型的每一次提交。",
    not_ranked: "不参与排名",
    withdrawn: "已撤回",
    quota_before: |left, limit| format!("此令牌今日还可上传 {left} 次（共 {limit} 次）"),
    sort_hint: "点击列标题可排序。",
    boards_title: "排行榜",
    boards_intro: "模型在隐藏的测试题上评分，并与众包得到的人类基线并列展示。",
    no_tasks: "目前还没有排行榜。",
    split_counts: |dev, public, private| {
        format!("开发集 {dev} 题 · 公开榜 {public} 题 · 私有榜 {private} 题")
    },
    submissions_n: |n| format!("{n} 次提交"),
    view_board: "查看排行榜",
    submit_to: "提交预测",
    board_public: "公开榜",
    board_private: "私有榜",
    board_split_label: "选择榜单",
    board_subset_label: "题目范围",
    subset_main: "主要子集（不能仅凭文字作答的题目）",
    subset_full: "全部题目",
    familiarity_chart_title: "人类准确率与熟悉程度",
    familiarity_chart_note: "按参与者在看题前对片段熟悉程度的回答分组；竖线为 95% 置信区间（对参与者和题目做自助法重抽样）。",
    familiarity_table_caption: "各熟悉程度组的人类准确率",
    col_familiarity: "熟悉程度",
    col_human_accuracy: "准确率 [95% 置信区间]",
    col_participants: "参与者",
    col_answers: "作答数",
    familiarity_participants: |p| format!("{p} 人"),
    familiarity_answers: |a| format!("{a} 次作答"),
    too_few_answers: "作答太少，不显示",
    board_locked_title: "私有榜尚未公布",
    board_blind_note: "本榜为盲评：组织者公布之前，模型成绩保持隐藏。",
    board_unscored_note: "这项任务没有标准答案，也没有自动指标：模型的解读由人工评判，排名来自人工评测。",
    board_items: |n, metric| format!("基于 {n} 道测试题评分 · 指标：{metric}"),
    missing_policy_label: "缺失的预测",
    board_ci_note: "数值为本榜指标（见上方）；方括号内为按题目自助法得到的 95% 置信区间。",
    downloads: "下载",
    download_csv: "下载 CSV",
    download_json: "下载 JSON",
    board_table_label: "排行榜表格（可横向滚动）",
    submit_title: "提交预测",
    submit_intro: "上传模型对某个任务全部题目的预测，即可在隐藏测试题上评分并进入排行榜。",
    help_title: "如何提交",
    help_limits: |quota| match quota {
        Some(q) => format!("限制：文件不超过 20 MB、20 万行；每个令牌每天（UTC）最多上传 {q} 次。"),
        None => "限制：文件不超过 20 MB、20 万行；每个令牌每天（UTC）有上传次数上限（见账户页）。".to_owned(),
    },
    task_files: "本任务的文件",
    dl_inputs: "模型输入（inputs.jsonl）",
    dl_template_jsonl: "模板（JSON Lines）",
    dl_template_csv: "模板（CSV）",
    dl_dev_gold: "开发集答案（dev-gold.jsonl）",
    cli_title: "命令行提交",
    cli_curl: "使用 curl：",
    cli_tool: "使用 memeboard 命令行工具：",
    form_title: "上传",
    task_label: "任务",
    token_label: "作者令牌",
    token_missing: "还没有令牌？",
    token_create_link: "在账户页创建",
    model_label: "模型名称（必填）",
    organisation_label: "机构",
    organisation_hint: "留空则使用账户中的机构。",
    parameters_label: "参数量（如 7B）",
    weights_label: "权重",
    weights_open_option: "开放权重",
    weights_closed_option: "闭源（仅 API 或未发布）",
    link_label: "链接（论文或代码，http/https）",
    description_label: "说明",
    file_label: "预测文件",
    drop_text: "把 .jsonl 或 .csv 文件拖到这里，或选择文件：",
    file_selected: |name, bytes| format!("已选择：{name}（{:.1} KB）", bytes / 1024.0),
    checking: "正在检查文件…",
    file_unreadable: "无法读取该文件。",
    file_too_big: |bytes, limit| format!("文件大小为 {bytes} 字节，上限为 {limit} 字节。"),
    preview_errors_title: "文件有以下问题，修正后才能上传：",
    lines_ok: |n| format!("{n} 行格式正确"),
    uploading: "上传中…",
    upload_progress: "上传进度",
    need_model: "请填写模型名称。",
    need_token: "请填写作者令牌（可在账户页创建）。",
    upload_failed: "服务器拒绝了这次上传：",
    result_title: "上传成功",
    status_label: "状态",
    lines_read: |n| format!("读取 {n} 行"),
    public_score_title: "公开榜成绩",
    received_note: "本榜为盲评：文件已保存并评分，成绩将在组织者公布后显示。",
    warnings_title: "提醒",
    quota_left: |left, limit| format!("今日还剩 {left} / {limit} 次"),
    see_board: "查看排行榜",
    see_model: "模型页面",
    account_title: "账户",
    account_intro: "上传预测需要作者令牌。在这里创建令牌：令牌只显示一次，并保存在此浏览器中。",
    create_title: "创建令牌",
    name_label: "姓名或团队名",
    create_token: "创建令牌",
    creating: "正在创建…",
    need_name: "请填写姓名或团队名。",
    new_token_title: "你的新令牌",
    new_token_note: "请立即复制并妥善保存：它不会再次显示。此浏览器已记住它。",
    copy_failed: "无法访问剪贴板，请手动选中令牌并复制。",
    your_account: "你的账户",
    quota_label: "今日上传",
    my_submissions: "你的提交",
    no_submissions: "还没有提交。",
    forget_token: "在此浏览器中忘记令牌",
    forget_confirm: "确定忘记吗？没有这个令牌，就无法再以该作者身份上传。",
    forget_yes: "确定忘记",
    create_another: "创建另一个令牌",
    use_existing: "使用已有令牌",
    save: "保存",
    model_task: "任务",
    model_link: "链接",
    model_lines: "行数",
    model_missing: "缺失题目（按答错计）",
    scores_hidden: "本榜为盲评：成绩将在组织者公布后显示。",
    gaps_title: "模型答错、但多数人答对的题目",
    gaps_note: "只有提交者本人能看到（仅开发集题目：测试集题目的对错会泄露答案）。",
    no_gaps: "没有这样的题目。",
    col_question: "题目",
    secondary_title: "次要指标（总体）",
    metric_parse_rate: "可解析率",
    metric_macro_f1: "宏平均 F1",
    metric_weighted_f1: "加权 F1",
    metric_accuracy_all: "准确率（无法解析算错）",
    metric_accuracy_of_type: |t| format!("准确率：{t}"),
    confusion_title: |row| format!("混淆矩阵：{row}"),
    confusion_caption: "行为标注类型，列为预测类型（最后一列：无法解析）",
    confusion_gold: "标注 \\ 预测",
    confusion_unparseable: "无法解析",
    col_value: "数值",
    col_crowd_score: "人群得分",
    col_model_score: "模型得分",
};

/// English.
pub static EN: BoardStrings = BoardStrings {
    main: &MAIN_EN,
    model_page_title: |name| format!("Model: {name}"),
    flag_copies_prompt: "most answers copy the prompt",
    participants_n: |n| {
        if n == 1 {
            "1 participant".to_owned()
        } else {
            format!("{n} participants")
        }
    },
    col_rank: "Rank",
    col_kind: "Type",
    col_organisation: "Organisation",
    col_params: "Params",
    col_weights: "Weights",
    col_submitted: "Submitted",
    filters_label: "Filter models",
    filter_all: "All",
    filter_size: "Size (parameters)",
    size_le10b: "≤ 10B",
    size_10to100b: "10B–100B",
    size_gt100b: "> 100B",
    size_unknown: "unknown",
    filter_since: "Submitted on or after",
    filter_clear: "Clear filters",
    filter_shown: |shown, total| format!("Showing {shown} of {total} model rows"),
    attempts_show_all: |n| format!("Show all {n} attempts"),
    attempts_one_per_model: "Show one row per model",
    attempts_best_note: "One row per model: its best upload.",
    attempts_latest_note: "One row per model: its latest upload.",
    attempts_all_note: "Every upload of every model.",
    not_ranked: "not ranked",
    withdrawn: "Withdrawn",
    quota_before: |left, limit| format!("{left} of {limit} uploads left today for this token"),
    sort_hint: "Select a column header to sort.",
    boards_title: "Leaderboards",
    boards_intro: "Models are scored on hidden test items and shown beside the crowd's human baseline.",
    no_tasks: "No leaderboards yet.",
    split_counts: |dev, public, private| {
        format!("{dev} dev · {public} public-board · {private} private-board items")
    },
    submissions_n: |n| {
        if n == 1 {
            "1 submission".to_owned()
        } else {
            format!("{n} submissions")
        }
    },
    view_board: "View leaderboard",
    submit_to: "Submit predictions",
    board_public: "Public board",
    board_private: "Private board",
    board_split_label: "Board",
    board_subset_label: "Items",
    subset_main: "Main subset (not answerable from the text alone)",
    subset_full: "All items",
    familiarity_chart_title: "Human accuracy by familiarity",
    familiarity_chart_note: "Grouped by what participants said about knowing each clip before its question; whiskers show 95% intervals (bootstrap over participants and items).",
    familiarity_table_caption: "Human accuracy per familiarity group",
    col_familiarity: "Familiarity",
    col_human_accuracy: "Accuracy [95% interval]",
    col_participants: "Participants",
    col_answers: "Answers",
    familiarity_participants: |p| format!("{p} participants"),
    familiarity_answers: |a| format!("{a} answers"),
    too_few_answers: "too few answers to show",
    board_locked_title: "The private board is not revealed yet",
    board_blind_note: "This board is blind: model scores stay hidden until the organisers reveal them.",
    board_unscored_note: "This task has no gold and no automatic metric: the models' explanations are judged by people, and human evaluation ranks them.",
    board_items: |n, metric| format!("Scored on {n} test items · metric: {metric}"),
    missing_policy_label: "Missing predictions",
    board_ci_note: "Numbers use the board's metric (above); brackets give 95% item-bootstrap confidence intervals.",
    downloads: "Download",
    download_csv: "Download CSV",
    download_json: "Download JSON",
    board_table_label: "Leaderboard table (scrolls sideways)",
    submit_title: "Submit predictions",
    submit_intro: "Upload your model's predictions for every item of a task; they are scored on hidden test items and join the leaderboard.",
    help_title: "How to submit",
    help_limits: |quota| match quota {
        Some(q) => format!("Limits: files up to 20 MB and 200,000 lines; {q} uploads per token per UTC day."),
        None => "Limits: files up to 20 MB and 200,000 lines; a daily upload quota per token (see your account page).".to_owned(),
    },
    task_files: "Files for this task",
    dl_inputs: "Model inputs (inputs.jsonl)",
    dl_template_jsonl: "Template (JSON Lines)",
    dl_template_csv: "Template (CSV)",
    dl_dev_gold: "Dev gold (dev-gold.jsonl)",
    cli_title: "From the command line",
    cli_curl: "With curl:",
    cli_tool: "With the memeboard CLI:",
    form_title: "Upload",
    task_label: "Task",
    token_label: "Author token",
    token_missing: "No token yet?",
    token_create_link: "Create one on the account page",
    model_label: "Model name (required)",
    organisation_label: "Organisation",
    organisation_hint: "Leave empty to use your account's.",
    parameters_label: "Parameters (e.g. 7B)",
    weights_label: "Weights",
    weights_open_option: "Open weights",
    weights_closed_option: "Closed (API only or unreleased)",
    link_label: "Link (paper or code, http/https)",
    description_label: "Description",
    file_label: "Prediction file",
    drop_text: "Drop a .jsonl or .csv file here, or choose one:",
    file_selected: |name, bytes| format!("Selected: {name} ({:.1} KB)", bytes / 1024.0),
    checking: "Checking the file…",
    file_unreadable: "The file could not be read.",
    file_too_big: |bytes, limit| format!("The file is {bytes} bytes; the limit is {limit} bytes."),
    preview_errors_title: "The file has problems; fix them to upload:",
    lines_ok: |n| if n == 1 { "1 line OK".to_owned() } else { format!("{n} lines OK") },
    uploading: "Uploading…",
    upload_progress: "Upload progress",
    need_model: "Enter a model name.",
    need_token: "Enter your author token (create one on the account page).",
    upload_failed: "The server rejected the upload:",
    result_title: "Uploaded",
    status_label: "Status",
    lines_read: |n| if n == 1 { "1 line read".to_owned() } else { format!("{n} lines read") },
    public_score_title: "Public board score",
    received_note: "This board is blind: your file is stored and scored, and the scores appear when the organisers reveal the board.",
    warnings_title: "Warnings",
    quota_left: |left, limit| format!("{left} of {limit} left today"),
    see_board: "See the leaderboard",
    see_model: "Model page",
    account_title: "Account",
    account_intro: "Uploading predictions needs an author token. Create one here: it is shown only once and kept in this browser.",
    create_title: "Create a token",
    name_label: "Your name or team",
    create_token: "Create token",
    creating: "Creating…",
    need_name: "Enter your name or team.",
    new_token_title: "Your new token",
    new_token_note: "Copy it now and keep it safe: it will not be shown again. This browser remembers it.",
    copy_failed: "The clipboard is not available; select the token and copy it by hand.",
    your_account: "Your account",
    quota_label: "Uploads today",
    my_submissions: "Your submissions",
    no_submissions: "No submissions yet.",
    forget_token: "Forget the token in this browser",
    forget_confirm: "Forget it? Without this token you cannot upload as this author again.",
    forget_yes: "Yes, forget it",
    create_another: "Create another token",
    use_existing: "Use an existing token",
    save: "Save",
    model_task: "Task",
    model_link: "Link",
    model_lines: "Lines",
    model_missing: "Missing items (scored as wrong)",
    scores_hidden: "This board is blind: scores appear when the organisers reveal it.",
    gaps_title: "Items the model missed that most people got right",
    gaps_note: "Only you, the author, see this (dev items only: right/wrong on test items would reveal their answers).",
    no_gaps: "No such items.",
    col_question: "Question",
    secondary_title: "Secondary metrics (overall)",
    metric_parse_rate: "parse rate",
    metric_macro_f1: "macro-F1",
    metric_weighted_f1: "weighted-F1",
    metric_accuracy_all: "accuracy, unparseable as wrong",
    metric_accuracy_of_type: |t| format!("accuracy: {t}"),
    confusion_title: |row| format!("Confusion matrix: {row}"),
    confusion_caption: "Rows: annotated type; columns: predicted type (last: unparseable)",
    confusion_gold: "gold \\ predicted",
    confusion_unparseable: "unparseable",
    col_value: "Value",
    col_crowd_score: "Crowd score",
    col_model_score: "Model score",
};

//! Strings of the fieldwork features in both languages: the owner's console, attention checks,
//! the completion and screen-out hand-off, full quizzes and exclusion counts. A table of its
//! own beside the main [`crate::i18n::Strings`], so that the feature's words stay together.

use crate::i18n::{text, StringTable};

/// The fieldwork strings of one language.
#[derive(Debug)]
pub struct FieldworkStrings {
    /// Console page title.
    pub console_title: &'static str,
    /// Console intro.
    pub console_intro: &'static str,
    /// Owner token field.
    pub owner_token_label: &'static str,
    /// Save the owner token.
    pub owner_token_save: &'static str,
    /// Forget the owner token.
    pub owner_token_forget: &'static str,
    /// Where owner tokens come from.
    pub owner_token_note: &'static str,
    /// Heading of the task list.
    pub your_quizzes: &'static str,
    /// "open"/"closed" badges.
    pub open: &'static str,
    /// Closed badge.
    pub closed: &'static str,
    /// Settings heading.
    pub settings_title: &'static str,
    /// Open to participants.
    pub quiz_open: &'static str,
    /// Items per participant.
    pub batch_size: &'static str,
    /// Participant target.
    pub participant_target: &'static str,
    /// Categories assigned.
    pub categories_label: &'static str,
    /// Items never assigned.
    pub excluded_items_label: &'static str,
    /// Content warnings.
    pub flagged_label: &'static str,
    /// Participants choose.
    pub flagged_choice: &'static str,
    /// Never assign flagged items.
    pub flagged_never: &'static str,
    /// Attention checks per session.
    pub checks_label: &'static str,
    /// Judging tasks: how many batches one rater may judge.
    pub rater_batches: &'static str,
    /// Hand-off heading.
    pub handoff_title: &'static str,
    /// Prolific completion code.
    pub prolific_code: &'static str,
    /// Prolific screen-out code.
    pub prolific_screenout: &'static str,
    /// Completion URL template.
    pub completion_template: &'static str,
    /// Screen-out URL template.
    pub screenout_template: &'static str,
    /// Placeholder help.
    pub template_help: &'static str,
    /// Allow repeat participation.
    pub allow_repeat: &'static str,
    /// Require a Prolific id to start.
    pub require_pid: &'static str,
    /// Quality heading.
    pub quality_title: &'static str,
    /// Failed checks limit.
    pub fail_checks: &'static str,
    /// Minimum median time.
    pub min_median: &'static str,
    /// Minimum time per item.
    pub min_item: &'static str,
    /// Share of fast answers.
    pub fast_share: &'static str,
    /// Straight-lining share.
    pub straightline: &'static str,
    /// Leave out failed headphone checks.
    pub exclude_headphones: &'static str,
    /// Screen out failed headphone checks.
    pub screen_headphones: &'static str,
    /// Judging tasks: exclude raters who judge planted outputs the wrong way round.
    pub planted_checks: &'static str,
    /// Pilot mode switch.
    pub pilot_mode: &'static str,
    /// Allow retakes.
    pub allow_retake: &'static str,
    /// Save button.
    pub save: &'static str,
    /// After saving.
    pub saved: &'static str,
    /// A number field holds something else.
    pub not_a_number: fn(&str) -> String,
    /// Completion redirect preview.
    pub preview_completion: &'static str,
    /// Screen-out redirect preview.
    pub preview_screenout: &'static str,
    /// Progress heading.
    pub progress_title: &'static str,
    /// Started.
    pub started: &'static str,
    /// Completed.
    pub completed: &'static str,
    /// Completed after exclusions.
    pub after_exclusions: &'static str,
    /// In progress.
    pub in_progress: &'static str,
    /// Dropped.
    pub dropped: &'static str,
    /// Screened out.
    pub screened_out: &'static str,
    /// Pilot sessions (started / completed), counted nowhere else.
    pub pilot_sessions: &'static str,
    /// Target.
    pub target: &'static str,
    /// Dropped after n answers.
    pub dropped_after: fn(usize, usize) -> String,
    /// Per category heading.
    pub per_category: &'static str,
    /// Per item heading.
    pub per_item: &'static str,
    /// Column: item.
    pub col_item: &'static str,
    /// Column: category.
    pub col_category: &'static str,
    /// Column: answers.
    pub col_answers: &'static str,
    /// Column: median time.
    pub col_median: &'static str,
    /// Agreement heading.
    pub agreement: &'static str,
    /// Histogram heading.
    pub histogram: &'static str,
    /// A histogram bin.
    pub bin: fn(u64, u64, usize) -> String,
    /// When figures were computed.
    pub updated: fn(&str) -> String,
    /// Exclusions heading.
    pub exclusions_title: &'static str,
    /// Before/after counts.
    pub before_after: fn(usize, usize) -> String,
    /// Column: session.
    pub col_session: &'static str,
    /// Column: participant.
    pub col_participant: &'static str,
    /// Column: reason.
    pub col_reason: &'static str,
    /// Nobody excluded.
    pub none_excluded: &'static str,
    /// Action log heading.
    pub actions_title: &'static str,
    /// Column: when.
    pub col_when: &'static str,
    /// Column: who.
    pub col_who: &'static str,
    /// Column: what.
    pub col_what: &'static str,
    /// Column: details.
    pub col_detail: &'static str,
    /// Export heading.
    pub exports_title: &'static str,
    /// Export button.
    pub download: fn(&str) -> String,
    /// Board: participants before exclusions.
    pub before_exclusions: fn(usize) -> String,
    /// Study links heading.
    pub links_title: &'static str,
    /// The quiz's plain link.
    pub quiz_link: &'static str,
    /// The link for Prolific, with what to do with it.
    pub prolific_link: &'static str,
    /// Copy button.
    pub copy: &'static str,
    /// After copying.
    pub copied: &'static str,
    /// The clipboard is unavailable.
    pub copy_failed: &'static str,
    /// Deleting a participant's data: heading.
    pub delete_title: &'static str,
    /// What to enter.
    pub delete_label: &'static str,
    /// The button.
    pub delete_button: &'static str,
    /// The confirmation asked first.
    pub delete_confirm: fn(&str) -> String,
    /// What was deleted: participants, sessions, answers.
    pub deleted: fn(usize, usize, usize) -> String,
    /// Rescoring a task's uploads: heading.
    pub rescore_title: &'static str,
    /// What rescoring does.
    pub rescore_intro: &'static str,
    /// The reason field's label.
    pub rescore_label: &'static str,
    /// The button.
    pub rescore_button: &'static str,
    /// Started: where to see it done.
    pub rescore_started: &'static str,
    /// A logged action in words (`None`: show its code).
    pub action_name: fn(&str) -> Option<&'static str>,
    /// A setting switched on / off, in the action log.
    pub on_off: [&'static str; 2],
}

/// English.
pub static EN: FieldworkStrings = FieldworkStrings {
    console_title: "Study console",
    console_intro: "Run your benchmark's quizzes: open or close them, set the participant target, the recruitment hand-off and quality rules, and follow progress live.",
    owner_token_label: "Owner token",
    owner_token_save: "Use this token",
    owner_token_forget: "Forget the owner token in this browser",
    owner_token_note: "The site's admin creates owner tokens (memeboard owner create). The token is kept in this browser only.",
    your_quizzes: "Your quizzes",
    open: "open",
    closed: "closed",
    settings_title: "Settings",
    quiz_open: "Open to participants",
    batch_size: "Items per participant",
    participant_target: "Participant target (completed sessions; empty: none)",
    categories_label: "Categories assigned (none ticked: all)",
    excluded_items_label: "Items never assigned (one id per line)",
    flagged_label: "Items with a content warning",
    flagged_choice: "Each participant chooses",
    flagged_never: "Never assign them",
    checks_label: "Attention checks per session (0 to 5)",
    rater_batches: "Batches one rater may judge (1 to 100; never the same batch twice)",
    handoff_title: "Recruitment hand-off",
    prolific_code: "Prolific completion code",
    prolific_screenout: "Prolific screen-out code",
    completion_template: "Completion redirect URL of another panel",
    screenout_template: "Screen-out redirect URL of another panel",
    template_help: "Placeholders: {participant}, {code}, {study}, {session}.",
    allow_repeat: "Let one Prolific id take part more than once",
    require_pid: "Require a Prolific id (starts without PROLIFIC_PID are refused)",
    quality_title: "Quality control",
    fail_checks: "Exclude after this many failed attention checks",
    min_median: "Minimum median time per item (ms)",
    min_item: "Minimum time per item (ms)",
    fast_share: "Exclude when this share of answers is faster (%)",
    straightline: "Straight-lining: exclude when one position holds this share of choices (%)",
    exclude_headphones: "Leave out participants who failed the headphone check",
    screen_headphones: "Screen out a failed headphone check at the start",
    planted_checks: "Judging tasks: exclude raters who judge a planted output of known quality the wrong way round (the reference rated Disagree, another meme's meaning rated Agree)",
    pilot_mode: "Pilot mode: sessions started while this is on are test runs, stored apart and never counted (not even after it is turned off)",
    allow_retake: "Let people who finished take the quiz again",
    save: "Save settings",
    saved: "Saved.",
    not_a_number: |field| format!("{field}: expected a whole number or nothing."),
    preview_completion: "Completion redirect",
    preview_screenout: "Screen-out redirect",
    progress_title: "Live progress",
    started: "Started",
    completed: "Completed",
    after_exclusions: "After exclusions",
    in_progress: "In progress",
    dropped: "Dropped",
    screened_out: "Screened out",
    pilot_sessions: "Pilot sessions (started / completed, not counted)",
    target: "Target",
    dropped_after: |answers, n| format!("{n} stopped after {answers} answer(s)"),
    per_category: "Answers per category",
    per_item: "Answers per item",
    col_item: "Item",
    col_category: "Category",
    col_answers: "Answers",
    col_median: "Median time (s)",
    agreement: "Agreement so far",
    histogram: "Completion time",
    bin: |from, to, n| format!("{from}–{to} s: {n}"),
    updated: |t| format!("Updated {t}"),
    exclusions_title: "Excluded participants",
    before_after: |before, after| format!("Completed sessions: {before} before exclusions, {after} after."),
    col_session: "Session",
    col_participant: "Participant",
    col_reason: "Reason",
    none_excluded: "Nobody is excluded.",
    actions_title: "Action log",
    col_when: "When",
    col_who: "Who",
    col_what: "What",
    col_detail: "Details",
    exports_title: "Answer-level export",
    download: |what| format!("Download {what}"),
    before_exclusions: |n| format!("{n} before exclusions"),
    links_title: "Study links",
    quiz_link: "Quiz link",
    prolific_link: "Link for Prolific (paste it as the study URL; Prolific fills in the ids)",
    copy: "Copy",
    copied: "Copied.",
    copy_failed: "The clipboard is not available; select the link and copy it by hand.",
    delete_title: "Delete a participant's data",
    delete_label: "Participant pseudonym (as in the export) or Prolific id",
    delete_button: "Delete their data",
    delete_confirm: |who| format!("Delete everything {who} recorded in this benchmark? This cannot be undone."),
    deleted: |p, s, a| format!("Deleted {p} participant(s), {s} session(s), {a} answer(s)."),
    rescore_title: "Score every upload again",
    rescore_intro: "After correcting the gold (a re-import does this by itself), every stored prediction file of this task is scored again, in the background, exactly as a new upload would be. The board lists when and why.",
    rescore_label: "Why (shown on the board)",
    rescore_button: "Score again",
    rescore_started: "Started: the board's \"Scores recomputed\" list shows it when done.",
    action_name: |a| Some(match a {
        "update_settings" => "Settings changed",
        "update_board" => "Board switches changed",
        "export" => "Answers exported",
        "export_judgements" => "Judgements exported",
        "delete_participant" => "Participant data deleted",
        "create_owner" => "Owner token created",
        "create_study" => "Study created",
        "set_reliability_thresholds" => "Study reliability thresholds changed",
        "download_inputs" => "Model inputs downloaded",
        "rescore" => "Uploads scored again",
        _ => return None,
    }),
    on_off: ["on", "off"],
};

/// 中文.
pub static ZH: FieldworkStrings = FieldworkStrings {
    console_title: "研究控制台",
    console_intro:
        "管理你的基准测验：开放或关闭、设置目标人数、招募平台跳转和质量规则，并实时查看进度。",
    owner_token_label: "所有者令牌",
    owner_token_save: "使用此令牌",
    owner_token_forget: "在此浏览器中忘记所有者令牌",
    owner_token_note: "所有者令牌由站点管理员创建（memeboard owner create），只保存在此浏览器中。",
    your_quizzes: "你的测验",
    open: "开放",
    closed: "关闭",
    settings_title: "设置",
    quiz_open: "向参与者开放",
    batch_size: "每位参与者的题数",
    participant_target: "目标人数（完成的会话数；留空：不限）",
    categories_label: "分配的类别（都不勾选：全部）",
    excluded_items_label: "永不分配的题目（每行一个 id）",
    flagged_label: "带内容提示的题目",
    flagged_choice: "由参与者选择",
    flagged_never: "从不分配",
    checks_label: "每个会话的注意力检查题数（0 到 5）",
    rater_batches: "每位评审最多可评判的批次数（1 到 100；同一批次不会评判两次）",
    handoff_title: "招募平台跳转",
    prolific_code: "Prolific 完成码",
    prolific_screenout: "Prolific 筛除码",
    completion_template: "其他平台的完成跳转网址",
    screenout_template: "其他平台的筛除跳转网址",
    template_help: "占位符：{participant}、{code}、{study}、{session}。",
    allow_repeat: "允许同一 Prolific id 多次参与",
    require_pid: "必须提供 Prolific id（不带 PROLIFIC_PID 的开始请求将被拒绝）",
    quality_title: "质量控制",
    fail_checks: "未通过这么多道注意力检查题即排除",
    min_median: "每题用时中位数下限（毫秒）",
    min_item: "每题用时下限（毫秒）",
    fast_share: "快于下限的回答达到此比例即排除（%）",
    straightline: "直线作答：同一位置的选择达到此比例即排除（%）",
    exclude_headphones: "排除未通过耳机检测的参与者",
    screen_headphones: "开始时筛除未通过耳机检测者",
    planted_checks: "评判任务：排除把已知质量的预置输出评反的评判者（参考解释被评为不同意，或另一个梗的含义被评为同意）",
    pilot_mode: "试运行模式：开启期间开始的会话为测试，单独存放、从不计入（关闭后也不计入）",
    allow_retake: "允许已完成者再次作答",
    save: "保存设置",
    saved: "已保存。",
    not_a_number: |field| format!("{field}：应为整数或留空。"),
    preview_completion: "完成跳转",
    preview_screenout: "筛除跳转",
    progress_title: "实时进度",
    started: "已开始",
    completed: "已完成",
    after_exclusions: "排除后",
    in_progress: "进行中",
    dropped: "已流失",
    screened_out: "已筛除",
    pilot_sessions: "试运行会话（开始 / 完成，不计入）",
    target: "目标",
    dropped_after: |answers, n| format!("{n} 人在回答 {answers} 题后离开"),
    per_category: "各类别回答数",
    per_item: "各题回答数",
    col_item: "题目",
    col_category: "类别",
    col_answers: "回答数",
    col_median: "用时中位数（秒）",
    agreement: "目前的一致性",
    histogram: "完成用时",
    bin: |from, to, n| format!("{from}–{to} 秒：{n}"),
    updated: |t| format!("更新于 {t}"),
    exclusions_title: "被排除的参与者",
    before_after: |before, after| format!("完成的会话：排除前 {before} 个，排除后 {after} 个。"),
    col_session: "会话",
    col_participant: "参与者",
    col_reason: "原因",
    none_excluded: "没有人被排除。",
    actions_title: "操作记录",
    col_when: "时间",
    col_who: "操作者",
    col_what: "操作",
    col_detail: "详情",
    exports_title: "逐条回答导出",
    download: |what| format!("下载 {what}"),
    before_exclusions: |n| format!("排除前 {n} 人"),
    links_title: "研究链接",
    quiz_link: "测验链接",
    prolific_link: "Prolific 链接（作为研究网址粘贴；Prolific 会填入各 id）",
    copy: "复制",
    copied: "已复制。",
    copy_failed: "剪贴板不可用；请选中链接手动复制。",
    delete_title: "删除一位参与者的数据",
    delete_label: "参与者化名（与导出文件一致）或 Prolific id",
    delete_button: "删除其数据",
    delete_confirm: |who| format!("删除 {who} 在此基准中记录的全部数据？此操作无法撤销。"),
    deleted: |p, s, a| format!("已删除 {p} 位参与者、{s} 个会话、{a} 条回答。"),
    rescore_title: "重新评分全部提交",
    rescore_intro: "更正标准答案后（重新导入会自动完成），此任务保存的每个预测文件都会在后台按新提交的方式重新评分。榜单会列出时间和原因。",
    rescore_label: "原因（显示在榜单上）",
    rescore_button: "重新评分",
    rescore_started: "已开始：完成后榜单的“重新评分记录”会显示。",
    action_name: |a| Some(match a {
        "update_settings" => "修改了设置",
        "update_board" => "修改了榜单开关",
        "export" => "导出了回答",
        "export_judgements" => "导出了评判",
        "delete_participant" => "删除了参与者数据",
        "create_owner" => "创建了所有者令牌",
        "create_study" => "创建了评测研究",
        "set_reliability_thresholds" => "修改了研究的信度阈值",
        "download_inputs" => "下载了模型输入",
        "rescore" => "重新评分了提交",
        _ => return None,
    }),
    on_off: ["开", "关"],
};

impl StringTable for FieldworkStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// [`text`] of the study strings (follows the language switch).
pub fn st(
    pick: fn(&'static FieldworkStrings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    text(pick)
}

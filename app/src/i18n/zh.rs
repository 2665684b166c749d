//! The Chinese interface strings.

use super::Strings;
use memeboard_core::page_text::board::BOARD_ZH as BOARD;
use memeboard_core::page_text::ZH as PAGE;

/// Chinese strings.
pub static ZH: Strings = Strings {
    page: PAGE,
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
    footer: "memeboard：为梗理解基准收集匿名的人类作答。",

    results_note: |hidden| match hidden {
        Some(h) => format!("结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；约 {h}% 的题目属于隐藏测试集，不显示其答案。"),
        None => "结束时你会看到自己在本组公开（练习）题目上的得分，以及这些题目的正确答案；部分题目属于隐藏测试集，不显示其答案。".to_owned(),
    },


    resume_title: "继续你的测验",
    resume_text: "你在此浏览器中已开始过这个测验。",
    resume_link: "继续作答",
    start_over: "重新开始",
    start_over_note: "重新开始会分配一组新的题目；之前已提交的答案仍会保留。",
    next_batch: "评判下一批",
    next_batch_note: "下一批是你还没有评判过的；你已完成的评判都会保留。",
    finished_title: "你已完成这个测验",
    finished_text: "你的结果和完成码都在结果页上。",
    step2_title: "第 2 步（共 2 步）：关于你",
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
    familiarity_label: |memes| format!("你对{memes}的熟悉程度（1–5）"),
    memes_noun: "中文网络梗",
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
    compare_title: "与其他参与者比较",
    col_category: "类别",
    col_you: "你",
    col_average: "人类平均",
    col_best: "人类最佳",
    col_pooled: "合并正确率",
    col_n: "人数",
    overall: BOARD.overall,
    ci_note: "数值为正确率；方括号内为 95% 自助法置信区间；人数为作答过该类别的参与者数。",
    ci_note_scores: "数值为平均得分；方括号内为 95% 自助法置信区间；人数为作答过该类别的参与者数。",
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

    kind_model: BOARD.kind_model,




    copy: "复制",
    copied: "已复制",
    copy_code_failed: "无法访问剪贴板，请手动选中完成码并复制。",

};

//! Strings of the human-evaluation features in both languages: the board's human-judged
//! columns and metric-validity panel, the console's study form and the study page. A table
//! of its own beside the main [`crate::i18n::Strings`], so that the feature's words stay
//! together.

use crate::i18n::{text, StringTable};

mod names;
mod training;
pub use names::*;
pub use training::*;

/// The human-evaluation strings of one language.
#[derive(Debug)]
pub struct HumanStrings {
    /// Board section heading.
    pub board_title: &'static str,
    /// Board section intro.
    pub board_intro: &'static str,
    /// Caption of the human-columns table.
    pub columns_caption: &'static str,
    /// Column: model.
    pub col_model: &'static str,
    /// Column: % agree.
    pub col_agree: &'static str,
    /// Column: % neutral.
    pub col_neutral: &'static str,
    /// Column: % disagree.
    pub col_disagree: &'static str,
    /// Column: Core4.
    pub col_core4: &'static str,
    /// Column: win rate.
    pub col_win_rate: &'static str,
    /// Column: Bradley–Terry rating.
    pub col_bt: &'static str,
    /// Column: raters.
    pub col_raters: &'static str,
    /// Column: judgements.
    pub col_judgements: &'static str,
    /// Studies heading.
    pub studies_title: &'static str,
    /// "{study}: {protocol}, {raters} raters ({excluded} excluded), {judgements} judgements".
    pub study_line: fn(&str, &str, usize, usize, usize) -> String,
    /// "Fleiss' κ per batch: {min}–{max}, mean {mean} over {n} batches".
    pub kappa_line: fn(f64, f64, f64, usize) -> String,
    /// "N test items exposed to raters".
    pub exposed_line: fn(usize) -> String,
    /// Caption of the α table.
    pub alpha_caption: &'static str,
    /// Column: dimension.
    pub col_dimension: &'static str,
    /// Column: α.
    pub col_alpha: &'static str,
    /// Validity heading.
    pub validity_title: &'static str,
    /// Validity intro.
    pub validity_intro: &'static str,
    /// Caption of the validity table: "{human score} against each metric".
    pub validity_caption: fn(&str) -> String,
    /// Column: metric.
    pub col_metric: &'static str,
    /// Column: level.
    pub col_level: &'static str,
    /// Column: Kendall's τ-b.
    pub col_tau: &'static str,
    /// Column: Spearman's ρ.
    pub col_rho: &'static str,
    /// Column: points.
    pub col_n: &'static str,
    /// System level.
    pub level_system: &'static str,
    /// Segment level.
    pub level_segment: &'static str,
    /// Why the rescaled cosine has the same correlations.
    pub rescaled_note: &'static str,
    /// Study form heading.
    pub form_title: &'static str,
    /// Study form intro.
    pub form_intro: &'static str,
    /// Field: study slug.
    pub field_slug: &'static str,
    /// Field: title.
    pub field_title: &'static str,
    /// Protocol shown.
    pub field_protocol: &'static str,
    /// Field: top k.
    pub field_top: &'static str,
    /// Field: items per category.
    pub field_items: &'static str,
    /// Field: batch size.
    pub field_batch: &'static str,
    /// Field: raters per batch.
    pub field_raters: &'static str,
    /// Field: split.
    pub field_split: &'static str,
    /// Dev split.
    pub split_dev: &'static str,
    /// Test split.
    pub split_test: &'static str,
    /// Field: invitation only.
    pub field_invitation: &'static str,
    /// Field: planted checks.
    pub field_planted: &'static str,
    /// Field: batches of one category.
    pub field_one_category: &'static str,
    /// Study form: one page per meme with every model's explanation (accuracy only).
    pub field_one_page: &'static str,
    /// Study form (CMPM): the labelling task to sample by.
    pub field_stratify_by: &'static str,
    /// Field: the dense design.
    pub field_dense: &'static str,
    /// Field: minimum time per page.
    pub field_min_ms: &'static str,
    /// Field: seed.
    pub field_seed: &'static str,
    /// Accuracy studies: heading of the statements raters judge.
    pub statements_title: &'static str,
    /// What the statements are and where the defaults come from.
    pub statements_help: &'static str,
    /// The three fields' names, meaning, origin, example.
    pub statement_fields: [&'static str; 3],
    /// The two languages' names, English and Chinese.
    pub statement_langs: [&'static str; 2],
    /// Create button.
    pub create: &'static str,
    /// Creating…
    pub creating: &'static str,
    /// "Study {slug} created."
    pub created: fn(&str) -> String,
    /// The secret is shown once.
    pub secret_once: &'static str,
    /// Rater link label.
    pub rater_link: &'static str,
    /// Prolific link label.
    pub prolific_link: &'static str,
    /// Preview button of the study form.
    pub preview: &'static str,
    /// Preview table caption.
    pub preview_caption: &'static str,
    /// Preview columns: category, eligible on dev, eligible on test, drawn.
    pub preview_columns: [&'static str; 4],
    /// Preview summary: items drawn, rating pages, rating batches, planted groups, ranking
    /// pages, raters wanted.
    pub preview_summary: fn(usize, usize, u32, u32, usize, u32) -> String,
    /// What the plan shows raters of the test split: exposed now, and if drawn from test.
    pub preview_exposure: fn(usize, Option<usize>) -> String,
    /// Reissue an invitation-only study's secret.
    pub reissue: &'static str,
    /// The confirmation asked first.
    pub reissue_confirm: &'static str,
    /// Why the page shows no invitation link.
    pub invitation_hidden: &'static str,
    /// Existing studies heading.
    pub existing: &'static str,
    /// No studies yet.
    pub no_studies: &'static str,
    /// Not an explanation board.
    pub not_explanation: &'static str,
    /// Study page title.
    pub page_title: fn(&str) -> String,
    /// Study page intro: "{protocol} study of {board}, created by {who}".
    pub page_intro: fn(&str, &str, &str) -> String,
    /// Judged submissions heading.
    pub submissions_title: &'static str,
    /// Progress heading.
    pub progress_title: &'static str,
    /// Caption of a task's batch table.
    pub batches_caption: fn(&str) -> String,
    /// Column: batch.
    pub col_batch: &'static str,
    /// Column: pages.
    pub col_pages: &'static str,
    /// Column: finished.
    pub col_finished: &'static str,
    /// Column: excluded.
    pub col_excluded: &'static str,
    /// Column: wanted.
    pub col_wanted: &'static str,
    /// Agreement heading.
    pub agreement_title: &'static str,
    /// No agreement yet.
    pub no_agreement: &'static str,
    /// Results heading.
    pub results_title: &'static str,
    /// No judgements yet.
    pub no_judgements: &'static str,
    /// Exports heading.
    pub exports_title: &'static str,
    /// Judgements CSV.
    pub export_csv: &'static str,
    /// Judgements JSON Lines.
    pub export_jsonl: &'static str,
    /// Tables JSON.
    pub export_tables: &'static str,
    /// Back to the console.
    pub back: &'static str,
    /// Heading of the papers' tables.
    pub paper_title: &'static str,
    /// What the papers' tables are.
    pub paper_intro: &'static str,
    /// Caption of CHIME Table 3.
    pub table3_caption: &'static str,
    /// Caption of CHIME Table 11.
    pub table11_caption: &'static str,
    /// Caption of CHIME Table 12.
    pub table12_caption: &'static str,
    /// Caption of the CMPM dimension table.
    pub dimensions_caption: &'static str,
    /// Caption of the CMPM ranking table.
    pub ranking_caption: &'static str,
    /// Column: subjects of κ.
    pub col_subjects: &'static str,
    /// Column: Fleiss' κ.
    pub col_kappa: &'static str,
    /// Column: comparisons.
    pub col_comparisons: &'static str,
    /// Column: wins.
    pub col_wins: &'static str,
    /// Column: ties.
    pub col_ties: &'static str,
    /// Column: losses.
    pub col_losses: &'static str,
    /// Column: Bradley–Terry strength.
    pub col_strength: &'static str,
    /// Caption of CMPM Table 7 per annotator.
    pub per_rater_caption: &'static str,
    /// Column: the rater pseudonym.
    pub col_annotator: &'static str,
    /// Mark of a rater the reliability thresholds leave out.
    pub threshold_mark: &'static str,
    /// Caption of the pairwise win matrix.
    pub win_matrix_caption: &'static str,
    /// Header of the win matrix's row labels.
    pub col_row_model: &'static str,
    /// Caption of CMPM Table 8 (context ablation).
    pub table8_caption: &'static str,
    /// Table 8 columns: with the comic's context, from the panels only, the difference.
    pub col_full_context: &'static str,
    /// Column: image only.
    pub col_image_only: &'static str,
    /// Column: Δ (full − image only).
    pub col_delta: &'static str,
    /// Table 8's pooled row.
    pub row_overall: &'static str,
    /// Table 8's per-comic line: matched comics, helps, hurts, small or mixed.
    pub context_effects_line: fn(usize, usize, usize, usize) -> String,
}

/// English.
pub static EN: HumanStrings = HumanStrings {
    board_title: "Judged by people",
    board_intro: "Human evaluation studies of this board's outputs: raters judged each explanation without knowing which model wrote it. Intervals are 95% bootstrap intervals that resample memes.",
    columns_caption: "Human-judged columns per model",
    col_model: "Model",
    col_agree: "% agree",
    col_neutral: "% neutral",
    col_disagree: "% disagree",
    col_core4: "Core4 (1–3)",
    col_win_rate: "Pairwise win rate",
    col_bt: "Bradley–Terry rating",
    col_raters: "Raters",
    col_judgements: "Judgements",
    studies_title: "Studies",
    study_line: |study, protocol, raters, excluded, judgements| {
        format!("{study}: {protocol}, {raters} raters ({excluded} excluded), {judgements} judgements")
    },
    kappa_line: |min, mean, max, n| {
        format!("Fleiss' κ per batch: {min:.2}–{max:.2}, mean {mean:.2} over {n} batch(es)")
    },
    exposed_line: |n| format!("{n} test item(s) exposed to raters (their gold was shown)"),
    alpha_caption: "Krippendorff's ordinal α per dimension",
    col_dimension: "Dimension",
    col_alpha: "α",
    validity_title: "Does the automatic metric agree with people?",
    validity_intro: "Rank correlations between each automatic metric and the human score, across models (system level) and across single explanations (segment level), with 95% bootstrap intervals.",
    validity_caption: |human| format!("Metric validity against {human}"),
    col_metric: "Metric",
    col_level: "Level",
    col_tau: "Kendall's τ-b",
    col_rho: "Spearman's ρ",
    col_n: "n",
    level_system: "Across models",
    level_segment: "Across explanations",
    rescaled_note: "The rescaled cosine is an increasing transform of the cosine, so its rank correlations are the same.",
    form_title: "Human evaluation study",
    form_intro: "Create a study from this board: raters judge the chosen models' explanations blind, in fixed batches; the board then shows the human-judged columns.",
    field_slug: "Study name (lower-case letters, digits, hyphens)",
    field_title: "Title shown to raters (optional)",
    field_protocol: "Protocol",
    field_top: "Judge the best k models",
    field_items: "Items per category",
    field_batch: "Pages per batch",
    field_raters: "Raters per batch",
    field_split: "Items from",
    split_dev: "dev items (default)",
    split_test: "test items (invitation-only studies)",
    field_invitation: "Invitation only (secret link)",
    field_planted: "Planted quality checks (exclude raters who fail them)",
    field_one_category: "Batches of one category each (CHIME: 20 memes of one type per batch)",
    field_one_page: "One page per meme with every model's explanation (CHIME)",
    field_stratify_by: "Sample by the labels of task (e.g. the structure-type task; dev only)",
    field_dense: "Dense design: every rater judges every page, one batch after another (CMPM)",
    field_min_ms: "Minimum time per page (ms, optional)",
    field_seed: "Seed (optional)",
    statements_title: "Statements raters judge",
    statements_help: "Raters answer Disagree / Neutral / Agree to one statement per field of each explanation. The paper's statements (CHIME §4.3) are filled in; reword or translate them for this study. Each is one line of at most 300 characters.",
    statement_fields: ["Meaning", "Origin", "Example sentence"],
    statement_langs: ["English", "Chinese"],
    create: "Create study",
    creating: "Creating…",
    created: |slug| format!("Study {slug} created."),
    secret_once: "Keep these links: the invitation secret is shown only now.",
    rater_link: "Rater link",
    prolific_link: "Prolific link",
    preview: "Preview",
    preview_caption: "Source items per category: eligible on each split, and drawn by this request",
    preview_columns: ["Category", "Eligible (dev)", "Eligible (test)", "Drawn"],
    preview_summary: |items, pages, batches, planted, ranking, raters| {
        let ranking = if ranking > 0 { format!(", {ranking} ranking pages") } else { String::new() };
        format!("{items} items drawn: {pages} rating pages in {batches} batch(es), {planted} with a planted group{ranking}; {raters} rater(s) wanted.")
    },
    preview_exposure: |now, test| match test {
        Some(t) => format!("Raters would see the gold of {now} test item(s); drawn from test instead (invitation-only), of {t}."),
        None => format!("Raters would see the gold of {now} test item(s); the test split cannot make this study."),
    },
    reissue: "Reissue the invitation",
    reissue_confirm: "Make a new invitation secret? Links with the old one stop admitting new raters (raters who started keep their sessions).",
    invitation_hidden: "This study is invitation-only: its secret was shown once, when it was created. Lost it? Reissue the invitation for new links.",
    existing: "Studies of this board",
    no_studies: "No studies yet.",
    not_explanation: "Studies are made from explanation boards.",
    page_title: |slug| format!("Study {slug}"),
    page_intro: |protocol, board, who| format!("{protocol} study of the board {board}, created by {who}."),
    submissions_title: "Judged models",
    progress_title: "Progress",
    batches_caption: |task| format!("Batches of {task}"),
    col_batch: "Batch",
    col_pages: "Pages",
    col_finished: "Raters finished",
    col_excluded: "Excluded",
    col_wanted: "Wanted",
    agreement_title: "Agreement",
    no_agreement: "Not enough judgements for agreement yet.",
    results_title: "Results",
    no_judgements: "No finished batches yet.",
    exports_title: "Downloads",
    export_csv: "Judgements (CSV)",
    export_jsonl: "Judgements (JSON Lines)",
    export_tables: "Computed tables (JSON)",
    back: "Back to the console",
    paper_title: "The papers' tables",
    paper_intro: "The tables the papers report, from this study's judgements (the raters kept). Percentages are shares of verdicts; means are on the 1–3 scale; below each figure its 95% bootstrap interval over memes. Owners see every figure, however few memes are behind it.",
    table3_caption: "Table 3 (CHIME): % of verdicts agree, neutral and disagree per model and field, every meme type",
    table11_caption: "Table 11 (CHIME): Fleiss' κ per batch",
    table12_caption: "Table 12 (CHIME): % of verdicts agree, neutral and disagree on the meaning per model and meme type",
    dimensions_caption: "Table 7 (CMPM), by model: the mean (1–3) of each dimension and Core4 (per annotator, as the paper gives it, below)",
    ranking_caption: "Rankings (CMPM): pairwise wins, ties and losses, win rate and Bradley–Terry strength and rating per model",
    col_subjects: "Subjects",
    col_kappa: "Fleiss' κ",
    col_comparisons: "Comparisons",
    col_wins: "Wins",
    col_ties: "Ties",
    col_losses: "Losses",
    col_strength: "Strength (geometric mean 1)",
    per_rater_caption: "Table 7 (CMPM), per annotator: each rater's mean (1–3) of each dimension and Core4 over the explanations they scored, with the pages behind each (planted checks left out)",
    col_annotator: "Annotator",
    threshold_mark: "left out by a reliability threshold",
    win_matrix_caption: "Pairwise win matrix (CMPM §6.5): how often the row's model was ranked above the column's, ties counted half, with wins–ties–losses and comparisons",
    col_row_model: "Model (row) vs (column)",
    table8_caption: "Table 8 (CMPM): context ablation on matched comics (each model's explanations with and without the comic's title, caption and comments, both rated): mean Core4 (1–3, context handling left out) with the ratings behind it, and Δ = full − image only with its 95% bootstrap interval over comics",
    col_full_context: "Full context",
    col_image_only: "Image only",
    col_delta: "Δ",
    row_overall: "Overall",
    context_effects_line: |n, helps, hurts, mixed| {
        format!("{n} matched comic(s): context helps {helps} comics, hurts {hurts}, small or mixed {mixed} (per-comic change ≥ 0.1)")
    },
};

/// 中文.
pub static ZH: HumanStrings = HumanStrings {
    board_title: "人工评判",
    board_intro: "本榜单输出的人工评估研究：评分者在不知道模型的情况下评判每条解释。区间为对梗重抽样的 95% 自助区间。",
    columns_caption: "各模型的人工评判列",
    col_model: "模型",
    col_agree: "同意 %",
    col_neutral: "中立 %",
    col_disagree: "不同意 %",
    col_core4: "Core4（1–3）",
    col_win_rate: "成对胜率",
    col_bt: "Bradley–Terry 评分",
    col_raters: "评分者",
    col_judgements: "评判数",
    studies_title: "研究",
    study_line: |study, protocol, raters, excluded, judgements| {
        format!("{study}：{protocol}，{raters} 名评分者（排除 {excluded} 名），{judgements} 条评判")
    },
    kappa_line: |min, mean, max, n| {
        format!("各批次 Fleiss κ：{min:.2}–{max:.2}，{n} 个批次的平均值 {mean:.2}")
    },
    exposed_line: |n| format!("{n} 个测试条目已向评分者公开（展示了标准答案）"),
    alpha_caption: "各维度的 Krippendorff 有序 α",
    col_dimension: "维度",
    col_alpha: "α",
    validity_title: "自动指标与人的判断一致吗？",
    validity_intro: "各自动指标与人工分数之间的秩相关：跨模型（系统层面）与跨单条解释（片段层面），附 95% 自助区间。",
    validity_caption: |human| format!("相对于{human}的指标效度"),
    col_metric: "指标",
    col_level: "层面",
    col_tau: "Kendall τ-b",
    col_rho: "Spearman ρ",
    col_n: "n",
    level_system: "跨模型",
    level_segment: "跨解释",
    rescaled_note: "重标定余弦是余弦的单调递增变换，因此秩相关与余弦相同。",
    form_title: "人工评估研究",
    form_intro: "从本榜单创建研究：评分者以固定批次、在不知模型的情况下评判所选模型的解释；之后榜单会显示人工评判列。",
    field_slug: "研究名称（小写字母、数字、连字符）",
    field_title: "向评分者显示的标题（可选）",
    field_protocol: "评估方案",
    field_top: "评判前 k 名模型",
    field_items: "每个类别的条目数",
    field_batch: "每批页数",
    field_raters: "每批评分者数",
    field_split: "条目来源",
    split_dev: "开发集条目（默认）",
    split_test: "测试集条目（仅限邀请的研究）",
    field_invitation: "仅限邀请（秘密链接）",
    field_planted: "预置质量检查（排除未通过的评分者）",
    field_one_category: "每个批次只含一个类别（CHIME：每批 20 个同类型的梗）",
    field_one_page: "每页一个梗及所有模型对它的解释（CHIME）",
    field_stratify_by: "按该任务的标签抽样（如结构类型任务；仅限开发集）",
    field_dense: "密集设计：每位评分者评判全部页面，逐批完成（CMPM）",
    field_min_ms: "每页最短时间（毫秒，可选）",
    field_seed: "随机种子（可选）",
    statements_title: "评分者评判的陈述",
    statements_help: "评分者对每条解释的每个字段的一条陈述选择不同意 / 中立 / 同意。这里预先填好了论文的陈述（CHIME §4.3）；可以为本研究改写或翻译。每条一行，最多 300 个字符。",
    statement_fields: ["含义", "出处", "例句"],
    statement_langs: ["英文", "中文"],
    create: "创建研究",
    creating: "正在创建…",
    created: |slug| format!("研究 {slug} 已创建。"),
    secret_once: "请保存这些链接：邀请密钥只显示这一次。",
    rater_link: "评分者链接",
    prolific_link: "Prolific 链接",
    preview: "预览",
    preview_caption: "各类别的来源题目：每个划分中符合条件的数量，以及本次请求抽取的数量",
    preview_columns: ["类别", "符合条件（开发集）", "符合条件（测试集）", "抽取"],
    preview_summary: |items, pages, batches, planted, ranking, raters| {
        let ranking = if ranking > 0 { format!("，{ranking} 个排序页面") } else { String::new() };
        format!("抽取 {items} 道题：{pages} 个评分页面，分为 {batches} 批，其中 {planted} 批含预置检查{ranking}；需要 {raters} 位评分者。")
    },
    preview_exposure: |now, test| match test {
        Some(t) => format!("评分者将看到 {now} 道测试集题目的答案；若改从测试集抽取（仅限受邀者），则为 {t} 道。"),
        None => format!("评分者将看到 {now} 道测试集题目的答案；测试集无法组成此研究。"),
    },
    reissue: "重新签发邀请",
    reissue_confirm: "生成新的邀请密钥？使用旧密钥的链接将不再接纳新评分者（已开始的评分者保留其会话）。",
    invitation_hidden: "此研究仅限受邀者：邀请密钥只在创建时显示过一次。丢失了？重新签发邀请以获得新链接。",
    existing: "本榜单的研究",
    no_studies: "还没有研究。",
    not_explanation: "研究只能从解释榜单创建。",
    page_title: |slug| format!("研究 {slug}"),
    page_intro: |protocol, board, who| format!("榜单 {board} 的{protocol}研究，由 {who} 创建。"),
    submissions_title: "被评判的模型",
    progress_title: "进度",
    batches_caption: |task| format!("{task} 的批次"),
    col_batch: "批次",
    col_pages: "页数",
    col_finished: "已完成的评分者",
    col_excluded: "已排除",
    col_wanted: "目标",
    agreement_title: "一致性",
    no_agreement: "评判还不够，暂无一致性。",
    results_title: "结果",
    no_judgements: "还没有完成的批次。",
    exports_title: "下载",
    export_csv: "评判（CSV）",
    export_jsonl: "评判（JSON Lines）",
    export_tables: "计算结果表（JSON）",
    back: "返回控制台",
    paper_title: "论文中的表格",
    paper_intro: "论文报告的表格，由本研究保留的评分者的评判算出。百分比为评判所占比例，均值为 1–3 分；每个数字下方是对梗重抽样的 95% 自助区间。所有者可以看到每个数字，无论其背后的梗有多少。",
    table3_caption: "表 3（CHIME）：各模型在各字段上同意、中立、不同意的评判比例（所有梗类型）",
    table11_caption: "表 11（CHIME）：各批次的 Fleiss κ",
    table12_caption: "表 12（CHIME）：各模型在各梗类型上对含义同意、中立、不同意的评判比例",
    dimensions_caption: "表 7（CMPM），按模型：各维度与 Core4 的平均分（1–3）（论文的按标注者版本见下表）",
    ranking_caption: "排序（CMPM）：各模型的成对胜、平、负，胜率以及 Bradley–Terry 强度与评分",
    col_subjects: "评判对象",
    col_kappa: "Fleiss κ",
    col_comparisons: "比较次数",
    col_wins: "胜",
    col_ties: "平",
    col_losses: "负",
    col_strength: "强度（几何平均为 1）",
    per_rater_caption: "表 7（CMPM），按标注者：每位评分者在其评分的解释上各维度与 Core4 的平均分（1–3），附各自的页数（不含质量检查页）",
    col_annotator: "标注者",
    threshold_mark: "因可靠性阈值被排除",
    win_matrix_caption: "成对胜率矩阵（CMPM §6.5）：行模型排在列模型之上的比例（平局计一半），附胜–平–负与比较次数",
    col_row_model: "模型（行）对（列）",
    table8_caption: "表 8（CMPM）：配对漫画上的上下文消融（同一模型有、无漫画标题、配文与评论时的解释都被评分）：Core4 平均分（1–3，不含上下文处理）及其评分数，Δ = 完整上下文 − 仅图像，附对漫画重抽样的 95% 自助区间",
    col_full_context: "完整上下文",
    col_image_only: "仅图像",
    col_delta: "Δ",
    row_overall: "总体",
    context_effects_line: |n, helps, hurts, mixed| {
        format!("{n} 则配对漫画：上下文有帮助 {helps} 则，有损害 {hurts} 则，影响很小或不一 {mixed} 则（每则变化 ≥ 0.1）")
    },
};

impl StringTable for HumanStrings {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// [`text`] of the human-evaluation strings (follows the language switch).
pub fn hs(
    pick: fn(&'static HumanStrings) -> &'static str,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    text(pick)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_fill_every_formatted_string() {
        for s in [&EN, &ZH] {
            assert!((s.study_line)("pilot", "x", 3, 1, 40).contains("pilot"));
            assert!((s.kappa_line)(0.27, 0.44, 0.74, 12).contains("0.44"));
            assert!((s.exposed_line)(5).contains('5'));
            assert!((s.page_intro)("p", "demo-explain", "admin").contains("demo-explain"));
            assert!((s.context_effects_line)(31, 13, 10, 8).contains("13"));
        }
    }
}

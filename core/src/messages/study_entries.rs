//! The catalogue entries of human-evaluation studies and judging tasks: what an owner meets
//! while planning a study or creating a judging task (left out of the quiz browser bundle).

use super::Entry;

/// The messages of study planning, the owner's study API and judging-task creation: part of
/// [`catalogue`](super::catalogue) except with the `quiz-messages` feature, like
/// [`RESEARCHER_CATALOGUE`](super::RESEARCHER_CATALOGUE).
pub const STUDY_CATALOGUE: &[Entry] = &[
    // Human-evaluation studies (planning, owner API).
    Entry {
        code: "study_plan.no_submissions",
        en: "the board has no submissions to judge; upload explanation predictions first",
        zh: "该榜单没有可评判的提交；请先上传解释预测",
    },
    Entry {
        code: "study_plan.nothing_picked",
        en: "`submissions`: no submissions picked; expected top k with k ≥ 1 or at least one submission id",
        zh: "`submissions`：未选择任何提交；应为前 k 名（k ≥ 1）或至少一个提交编号",
    },
    Entry {
        code: "study_plan.too_few_submissions",
        en: "`submissions`: top {k} asked for but the board has {available} submissions",
        zh: "`submissions`：要求前 {k} 名，但榜单只有 {available} 个提交",
    },
    Entry {
        code: "study_plan.unknown_submission",
        en: "`submissions`: submission `{id}` is not on this board",
        zh: "`submissions`：提交 `{id}` 不在此榜单上",
    },
    Entry {
        code: "study_plan.duplicate_submission",
        en: "`submissions`: submission `{id}` is listed twice",
        zh: "`submissions`：提交 `{id}` 出现了两次",
    },
    Entry {
        code: "study_plan.no_outputs",
        en: "submission `{id}` has no stored outputs for the {split} items; only submissions uploaded with their explanations can be judged",
        zh: "提交 `{id}` 没有 {split} 条目的已存输出；只有连同解释一起上传的提交才能评判",
    },
    Entry {
        code: "study_plan.ranking_size",
        en: "`submissions`: a CMPM study ranks 2 to {max} submissions per page; {picked} picked",
        zh: "`submissions`：CMPM 研究每页排序 2 到 {max} 个提交；实际选择了 {picked} 个",
    },
    Entry {
        code: "study_plan.test_needs_invitation",
        en: "`split`: a study of test items shows their gold to raters, so it must be invitation-only; use the dev split or make the study invitation-only",
        zh: "`split`：测试条目的研究会向评分者展示标准答案，因此必须仅限邀请；请使用开发集或将研究设为仅限邀请",
    },
    Entry {
        code: "study_plan.out_of_range",
        en: "`{field}` is {value}; expected {min} to {max}",
        zh: "`{field}` 为 {value}；应为 {min} 到 {max}",
    },
    Entry {
        code: "study_plan.too_few_items",
        en: "only {eligible} {split} items have an output from every picked submission{@reference}; a study needs at least {min}",
        zh: "只有 {eligible} 个 {split} 条目有所选每个提交的输出{@reference}；一项研究至少需要 {min} 个",
    },
    Entry { code: "study_plan.and_reference", en: " and a reference", zh: "且有参考解释" },
    Entry { code: "study_plan.none", en: "", zh: "" },
    Entry {
        code: "study.source_kind",
        en: "task `{slug}` is a `{kind}` task; studies are made from explanation boards (explanation or panel_explanation)",
        zh: "任务 `{slug}` 是 `{kind}` 任务；研究只能从解释榜单（explanation 或 panel_explanation）创建",
    },
    Entry {
        code: "study.protocol_kind",
        en: "`protocol`: {protocol} does not fit a `{kind}` board; use {expected}",
        zh: "`protocol`：{protocol} 不适用于 `{kind}` 榜单；请使用 {expected}",
    },
    Entry {
        code: "study.slug",
        en: "`slug`: expected 1 to 50 lower-case letters, digits and hyphens, found `{found}`",
        zh: "`slug`：应为 1 到 50 个小写字母、数字或连字符，实际为 `{found}`",
    },
    Entry {
        code: "study.dense_parts",
        en: "`dense`: `{task}` has {batches} batches and one rater may judge at most {max}; choose a larger `batch_size`",
        zh: "`dense`：`{task}` 有 {batches} 个批次，而一位评分者最多评判 {max} 个；请选择更大的 `batch_size`",
    },
    Entry {
        code: "study.statement",
        en: "`{field}`: expected a statement of 1 to {max} characters, found {found}",
        zh: "`{field}`：应为 1 到 {max} 个字符的陈述，实际为 {found} 个字符",
    },
    Entry {
        code: "study.statement_line",
        en: "`{field}`: expected one line, without line breaks or control characters",
        zh: "`{field}`：应为一行，不能含换行或控制字符",
    },
    Entry {
        code: "study.statements_protocol",
        en: "`statements`: only an accuracy study (CHIME) asks raters to agree with statements; a CMPM study scores five dimensions",
        zh: "`statements`：只有准确性研究（CHIME）请评分者对陈述表态；CMPM 研究按五个维度打分",
    },
    Entry {
        code: "study.error_labels_count",
        en: "`error_labels`: expected 1 to {max} error labels, found {found}",
        zh: "`error_labels`：应有 1 到 {max} 个错误标签，实际为 {found} 个",
    },
    Entry {
        code: "study.error_label_key",
        en: "`{field}`: expected a key of 1 to {max} characters a-z, 0-9 and _ starting with a letter, found `{found}`",
        zh: "`{field}`：键应为以字母开头、由 a-z、0-9 和 _ 组成的 1 到 {max} 个字符，实际为 `{found}`",
    },
    Entry {
        code: "study.error_label_duplicate",
        en: "`{field}`: `{key}` is used by another label",
        zh: "`{field}`：`{key}` 已被另一个标签使用",
    },
    Entry {
        code: "study.error_label_text",
        en: "`{field}`: expected a label of 1 to {max} characters, found {found}",
        zh: "`{field}`：标签应为 1 到 {max} 个字符，实际为 {found} 个字符",
    },
    Entry {
        code: "study.error_label_line",
        en: "`error_labels` line {line}: expected `key | English | 中文`, found `{found}`",
        zh: "`error_labels` 第 {line} 行：应为 `key | English | 中文`，实际为 `{found}`",
    },
    Entry {
        code: "answer.error_label_unknown",
        en: "`{key}` is not one of this page's error labels ({keys})",
        zh: "`{key}` 不是本页的错误标签（{keys}）",
    },
    Entry {
        code: "answer.error_label_twice",
        en: "`{key}` is tagged twice",
        zh: "`{key}` 被标记了两次",
    },
    Entry {
        code: "answer.error_label_not_wrong",
        en: "error labels are for an explanation judged wrong: {@rule}",
        zh: "错误标签只用于被判为有误的解释：{@rule}",
    },
    Entry {
        code: "answer.error_label_rule_accuracy",
        en: "disagree with at least one statement first",
        zh: "请先对至少一项陈述选择“不同意”",
    },
    Entry {
        code: "answer.error_label_rule_dimensions",
        en: "score at least one dimension 1 first",
        zh: "请先给至少一个维度打 1 分",
    },
    Entry {
        code: "study.one_page_protocol",
        en: "`one_page_per_subject`: only an accuracy study (CHIME) shows a meme with all models' explanations on one page; a CMPM study rates one explanation per page",
        zh: "`one_page_per_subject`：只有准确性研究（CHIME）把一个梗和所有模型的解释放在同一页；CMPM 研究每页评一条解释",
    },
    Entry {
        code: "study.strata_split",
        en: "`stratify_by`: a study sampled by another task's labels draws from the dev split only (a test item's label is that task's hidden gold)",
        zh: "`stratify_by`：按另一任务的标签抽样的研究只能从开发集抽取（测试题的标签是该任务的隐藏答案）",
    },
    Entry {
        code: "study.strata_task",
        en: "`stratify_by`: expected a task of this benchmark whose items are labelled with a class (such as the comics' structure-type task), found `{slug}`",
        zh: "`stratify_by`：应为本基准中为题目标注类别的任务（如漫画结构类型任务），实际为 `{slug}`",
    },
    Entry { code: "study.slug_taken", en: "a study named `{slug}` already exists", zh: "名为 `{slug}` 的研究已存在" },
    Entry {
        code: "study.open_to_all",
        en: "study `{slug}` is open to anyone with its link: it has no invitation to reissue",
        zh: "研究 `{slug}` 对所有持链接者开放：没有可重新签发的邀请",
    },
    Entry {
        code: "study.reliability_threshold",
        en: "`{field}`: expected a number from {min} to {max}, found {found}",
        zh: "`{field}`：应为 {min} 到 {max} 之间的数，实际为 {found}",
    },
    Entry {
        code: "study.min_item_ms",
        en: "`min_item_ms`: expected at most 600000 (ten minutes), found {found}",
        zh: "`min_item_ms`：最多为 600000（十分钟），实际为 {found}",
    },
    Entry { code: "benchmark.not_found", en: "no benchmark named `{slug}`", zh: "没有名为 `{slug}` 的基准" },
    Entry {
        code: "study.unknown_category",
        en: "`study.categories`: unknown category `{category}` (expected some of {expected})",
        zh: "`study.categories`：未知类别 `{category}`（应为以下之一：{expected}）",
    },
    Entry {
        code: "study.unknown_item",
        en: "`study.excluded_items`: no item `{item}` in task `{slug}`",
        zh: "`study.excluded_items`：任务 `{slug}` 中没有条目 `{item}`",
    },
    Entry {
        code: "study.no_items_left",
        en: "`study`: these categories and excluded items leave no item to assign",
        zh: "`study`：按这些类别和排除条目，已没有可分配的条目",
    },
    Entry {
        code: "study.batch_size",
        en: "`batch_size`: expected 1 to {max} (the items of the pool), found {found}",
        zh: "`batch_size`：应为 1 到 {max}（题库中的条目数），实际为 {found}",
    },
    Entry {
        code: "study.participant_target",
        en: "`participant_target`: expected at least 1 (or null for no target)",
        zh: "`participant_target`：应至少为 1（或 null 表示不设目标）",
    },
    Entry {
        code: "study.range",
        en: "`{field}`: expected {min} to {max}, found {found}",
        zh: "`{field}`：应为 {min} 到 {max}，实际为 {found}",
    },
    Entry {
        code: "study.code_chars",
        en: "`{field}`: expected 1 to 64 letters, digits, `-` or `_`, found `{found}`",
        zh: "`{field}`：应为 1 到 64 个字母、数字、`-` 或 `_`，实际为 `{found}`",
    },
    Entry {
        code: "study.url_template",
        en: "`{field}`: expected an http(s) URL or a path starting with `/` (at most {max} characters, no spaces), found `{found}`",
        zh: "`{field}`：应为 http(s) 网址或以 `/` 开头的路径（最多 {max} 个字符，不含空格），实际为 `{found}`",
    },
    Entry {
        code: "study.fail_checks",
        en: "`quality.fail_checks_at_least`: expected at least 1 (or null)",
        zh: "`quality.fail_checks_at_least`：应至少为 1（或 null）",
    },
    Entry {
        code: "study.screenout_needs_target",
        en: "`quality.screen_out_failed_headphones`: set a screen-out code or URL (`handoff.prolific_screenout_code` or `handoff.screenout_url_template`) first",
        zh: "`quality.screen_out_failed_headphones`：请先设置筛除代码或网址（`handoff.prolific_screenout_code` 或 `handoff.screenout_url_template`）",
    },
    // Judging tasks (created from a spec file).
    Entry {
        code: "judging.no_files",
        en: "task `{slug}` is a human-judging task: it takes no prediction files and has no model inputs",
        zh: "任务 `{slug}` 是人工评判任务：不接收预测文件，也没有模型输入",
    },
    Entry {
        code: "judging.kind",
        en: "`kind`: a judging task is `rating` or `ranking`, found `{found}`",
        zh: "`kind`：评判任务应为 `rating` 或 `ranking`，实际为 `{found}`",
    },
    Entry {
        code: "judging.slug",
        en: "`slug`: expected 1 to 64 lowercase letters, digits and hyphens, found `{found}`",
        zh: "`slug`：应为 1 到 64 个小写字母、数字或连字符，实际为 `{found}`",
    },
    Entry { code: "judging.batch_size", en: "`batch_size`: expected at least 1", zh: "`batch_size`：至少应为 1" },
    Entry {
        code: "judging.invite_hash",
        en: "`invite_hash`: expected the SHA-256 of the invitation secret as 64 hex digits",
        zh: "`invite_hash`：应为邀请密钥的 SHA-256（64 位十六进制数字）",
    },
    Entry { code: "judging.empty", en: "`items`: a judging task needs at least one item", zh: "`items`：评判任务至少需要一道题" },
    Entry {
        code: "judging.item_id",
        en: "item `{item}`: ids must be 1 to {max} characters without spaces, unique within the task",
        zh: "题目 `{item}`：编号应为 1 到 {max} 个不含空白的字符，且在任务内唯一",
    },
    Entry {
        code: "judging.item_kind",
        en: "item `{item}`: its {what} is a `{found}` one; this task is `{expected}`",
        zh: "题目 `{item}`：其 {what} 属于 `{found}`；本任务为 `{expected}`",
    },
    Entry {
        code: "judging.item_batch",
        en: "item `{item}`: `batch` is {batch} but its gold says {gold}",
        zh: "题目 `{item}`：`batch` 为 {batch}，但其隐藏信息中为 {gold}",
    },
    Entry {
        code: "judging.reference",
        en: "item `{item}`: the accuracy protocol shows the reference first; `reference` is missing",
        zh: "题目 `{item}`：准确性评分须先展示参考解释；缺少 `reference`",
    },
    Entry {
        code: "judging.error_labels",
        en: "item `{item}`: {@problem}",
        zh: "题目 `{item}`：{@problem}",
    },
    Entry {
        code: "judging.candidates",
        en: "item `{item}`: expected 2 to 5 candidates with one submission entry each, found {candidates} candidates and {submissions} entries",
        zh: "题目 `{item}`：应有 2 到 5 条候选解释且每条对应一个提交，实际为 {candidates} 条候选、{submissions} 个提交",
    },
    // Rater training and qualification (practice pages before the real ones).
    Entry {
        code: "training.rubric",
        en: "`training.rubric`: expected 1 to {max} characters of rubric, found {found}",
        zh: "`training.rubric`：评分细则应为 1 到 {max} 个字符，实际为 {found}",
    },
    Entry {
        code: "training.too_many_pages",
        en: "`training.practice`: at most {max} practice pages, found {found}",
        zh: "`training.practice`：练习页最多 {max} 页，实际为 {found}",
    },
    Entry {
        code: "training.pass_mark",
        en: "`training.pass_percent`: expected a percentage from 0 to 100, found {found}",
        zh: "`training.pass_percent`：应为 0 到 100 之间的百分比，实际为 {found}",
    },
    Entry {
        code: "training.pass_mark_without_pages",
        en: "`training.pass_percent`: a pass mark needs at least one practice page",
        zh: "`training.pass_percent`：设置合格线至少需要一页练习",
    },
    Entry {
        code: "training.page_source",
        en: "`training.practice[{page}].source_item`: expected the id of a dev item of the source board",
        zh: "`training.practice[{page}].source_item`：应为源榜单中某个开发集题目的编号",
    },
    Entry {
        code: "training.page_output",
        en: "`training.practice[{page}].output.meaning`: expected the explanation to judge, found nothing",
        zh: "`training.practice[{page}].output.meaning`：应填写待评判的解释，实际为空",
    },
    Entry {
        code: "training.page_note",
        en: "`training.practice[{page}].note`: at most {max} characters, found {found}",
        zh: "`training.practice[{page}].note`：最多 {max} 个字符，实际为 {found}",
    },
    Entry {
        code: "training.page_unknown_item",
        en: "`training.practice[{page}].source_item`: `{item}` is not a dev item of the source board (a test item's reference is hidden)",
        zh: "`training.practice[{page}].source_item`：`{item}` 不是源榜单的开发集题目（测试集题目的参考答案是隐藏的）",
    },
    Entry {
        code: "training.page_expected",
        en: "`training.practice[{page}].expected`: not an answer to its page: {@problem}",
        zh: "`training.practice[{page}].expected`：不是对该练习页的有效评判：{@problem}",
    },
    Entry {
        code: "training.first",
        en: "answer the practice pages first: {answered} of {pages} answered",
        zh: "请先完成练习页：已答 {answered} / {pages} 页",
    },
    Entry {
        code: "training.unknown_page",
        en: "this session has no practice page `{item}` ({pages} practice pages)",
        zh: "本会话没有练习页 `{item}`（共 {pages} 页练习）",
    },
    Entry {
        code: "training.already_answered",
        en: "practice page `{item}` was already answered with another judgement; a practice answer cannot be changed",
        zh: "练习页 `{item}` 已用另一评判作答；练习答案不能更改",
    },
    Entry {
        code: "training.spec_pages",
        en: "`training`: practice page {page} is not a page of this task's kind `{kind}`",
        zh: "`training`：练习页 {page} 不是本任务题型 `{kind}` 的页面",
    },
    Entry { code: "judging.benchmark", en: "no benchmark with id `{id}`", zh: "没有编号为 `{id}` 的基准" },
    Entry { code: "judging.slug_taken", en: "a task named `{slug}` already exists", zh: "名为 `{slug}` 的任务已存在" },
    Entry {
        code: "label.human_judged",
        en: "judged by people (no automatic metric)",
        zh: "由人评判（无自动指标）",
    },
    Entry {
        code: "label.missing_judging",
        en: "Judging tasks take no prediction files.",
        zh: "评判任务不接收预测文件。",
    },
];

//! The catalogue entries only researchers, owners and board readers meet (left out of the quiz
//! browser bundle).

use super::Entry;

/// The messages only researchers, owners and board readers meet (prediction-file checks,
/// metric labels, study and judging setup, tokens and quotas): part of [`catalogue`](super::catalogue) except
/// with the `quiz-messages` feature, which the quiz browser bundle builds with so that quiz
/// participants do not download them (issue 12's size budget; the app shows the English
/// `detail` for a code it lacks).
#[cfg(not(feature = "quiz-messages"))]
pub const RESEARCHER_CATALOGUE: &[Entry] = &[
    // Board queries.
    Entry {
        code: "request.invalid_split",
        en: "invalid query: {reason} (expected split=public or split=private)",
        zh: "查询参数无效：{reason}（应为 split=public 或 split=private）",
    },
    Entry {
        code: "request.invalid_attempts",
        en: "invalid query: `attempts={found}` (expected attempts=all, or nothing for one row per model)",
        zh: "查询参数无效：`attempts={found}`（应为 attempts=all，或不填以每个模型一行）",
    },
    Entry {
        code: "request.unknown_subset",
        en: "invalid query: unknown subset `{subset}` for `{slug}` (expected {expected})",
        zh: "查询参数无效：`{slug}` 没有子集 `{subset}`（应为 {expected}）",
    },
    // Accounts, tokens and quotas.
    Entry {
        code: "auth.tokens_network",
        en: "too many new tokens from your network today (limit {limit} per day); try again after 00:00 UTC",
        zh: "你的网络今天创建的新令牌过多（每天上限 {limit} 个）；请在 UTC 00:00 之后再试",
    },
    Entry {
        code: "auth.tokens_site",
        en: "the site's limit of {limit} new tokens per day is reached; try again after 00:00 UTC (an invitation code from the site's owner, or the token of an author with an accepted upload, sent as the bearer token, still gets one)",
        zh: "本站每天 {limit} 个新令牌的上限已用完；请在 UTC 00:00 之后再试（以 Bearer 方式附上站长的邀请码，或已有成功上传的作者令牌，仍可创建）",
    },
    Entry {
        code: "auth.tokens_wider_network",
        en: "too many new tokens from addresses near yours (the same /24 or /48 network) today (limit {limit} per day); try again after 00:00 UTC",
        zh: "与你相邻的地址（同一 /24 或 /48 网络）今天创建的新令牌过多（每天上限 {limit} 个）；请在 UTC 00:00 之后再试",
    },
    Entry {
        code: "auth.tokens_proven",
        en: "this author already got {limit} new tokens today on the strength of an accepted upload; try again after 00:00 UTC",
        zh: "该作者今天已凭成功上传获得 {limit} 个新令牌；请在 UTC 00:00 之后再试",
    },
    Entry {
        code: "auth.invite_invalid",
        en: "the invitation code is not valid: altered, expired, or issued under another admin token",
        zh: "邀请码无效：已被改动、已过期，或由另一个管理员令牌签发",
    },
    Entry {
        code: "auth.invite_used",
        en: "this invitation was already used (each one gives a single author token)",
        zh: "该邀请已被使用（每个邀请只能创建一个作者令牌）",
    },
    Entry {
        code: "task.inputs_need_token",
        en: "the inputs of task `{slug}` (questions and choices) are given only with an author token while its human quiz is open, so that participants cannot read the questions before answering; send `Authorization: Bearer <token>` (get a token on the account page, /account); each download is logged",
        zh: "任务 `{slug}` 的人类测验开放期间，其输入（问题和选项）只凭作者令牌提供，以免参与者在作答前读到问题；请发送 `Authorization: Bearer <token>`（在账户页 /account 获取令牌）；每次下载都会记录",
    },
    Entry {
        code: "headphone.not_found",
        en: "no headphone check `{id}` (or no sound {trial})",
        zh: "没有耳机检测 `{id}`（或没有第 {trial} 个声音）",
    },
    Entry {
        code: "auth.missing_token",
        en: "missing token: send `Authorization: Bearer <token>` (get a token on the account page, /account)",
        zh: "缺少令牌：请发送 `Authorization: Bearer <token>`（在账户页 /account 获取令牌）",
    },
    Entry {
        code: "auth.unknown_token",
        en: "unknown token: check it, or create a new one on the account page (/account)",
        zh: "令牌无效：请检查，或在账户页（/account）创建新令牌",
    },
    Entry {
        code: "auth.admin_disabled",
        en: "admin endpoints are disabled: set MEMEBOARD__ADMIN__TOKEN",
        zh: "管理接口已停用：请设置 MEMEBOARD__ADMIN__TOKEN",
    },
    Entry {
        code: "auth.admin_required",
        en: "admin token required: send `Authorization: Bearer <admin token>`",
        zh: "需要管理员令牌：请发送 `Authorization: Bearer <admin token>`",
    },
    Entry {
        code: "quota.used_up",
        en: "daily quota{@scope} used up: {used} of {limit} submissions today; it resets at 00:00 UTC",
        zh: "每日配额{@scope}已用完：今天已提交 {used} 次，上限 {limit} 次；UTC 00:00 重置",
    },
    Entry { code: "quota.scope_token", en: "", zh: "" },
    Entry { code: "quota.scope_author", en: " of author `{author}`", zh: "（作者 `{author}`）" },
    Entry { code: "quota.scope_model", en: " of model `{model}` on this task", zh: "（本任务的模型 `{model}`）" },
    // Boards, submissions and uploads.
    Entry {
        code: "owner.missing_token",
        en: "missing token: send `Authorization: Bearer <owner token>` (an owner token of the task's benchmark, or the admin token)",
        zh: "缺少令牌：请发送 `Authorization: Bearer <owner token>`（该任务所属基准的负责人令牌，或管理员令牌）",
    },
    Entry {
        code: "owner.unknown_token",
        en: "unknown owner token: ask the site's admin for one (`memeboard owner create`)",
        zh: "未知的负责人令牌：请向站点管理员申请（`memeboard owner create`）",
    },
    Entry {
        code: "owner.other_benchmark",
        en: "this owner token manages benchmark `{owned}`; task `{slug}` belongs to benchmark `{benchmark}`",
        zh: "此负责人令牌管理基准 `{owned}`；任务 `{slug}` 属于基准 `{benchmark}`",
    },
    Entry { code: "model.file_not_found", en: "no model file `{file}`", zh: "没有模型文件 `{file}`" },
    Entry {
        code: "board.private_hidden",
        en: "the private board of `{slug}` is not revealed yet",
        zh: "`{slug}` 的私有榜尚未公布",
    },
    Entry { code: "submission.not_found", en: "no submission with id `{id}`", zh: "没有编号为 `{id}` 的提交" },
    Entry { code: "submission.not_found_short", en: "no submission `{id}`", zh: "没有提交 `{id}`" },
    Entry {
        code: "submission.task_gone",
        en: "the task of submission `{id}` no longer exists",
        zh: "提交 `{id}` 所属的任务已不存在",
    },
    Entry { code: "submission.task_gone_short", en: "the submission's task no longer exists", zh: "该提交所属的任务已不存在" },
    Entry {
        code: "submission.author_only",
        en: "only the author of a submission (or an admin) can see its per-item view",
        zh: "只有提交的作者（或管理员）可以查看逐题结果",
    },
    Entry {
        code: "submission.blind",
        en: "the board is blind: per-item results are shown after the organisers reveal it",
        zh: "该榜单为盲评：组织者公布后才显示逐题结果",
    },
    Entry {
        code: "submission.not_yours",
        en: "submission `{id}` is not yours; only its author can withdraw it",
        zh: "提交 `{id}` 不属于你；只有作者可以撤回",
    },
    Entry {
        code: "upload.weights",
        en: "`weights`: expected `open` or `closed`, found `{found}`",
        zh: "`weights`：应为 `open` 或 `closed`，实际为 `{found}`",
    },
    Entry {
        code: "upload.link",
        en: "`link`: expected an http(s) URL of at most 300 characters, found `{found}`",
        zh: "`link`：应为最多 300 个字符的 http(s) 网址，实际为 `{found}`",
    },
    Entry {
        code: "upload.format",
        en: "`format`: expected `jsonl` or `csv`, found `{found}`",
        zh: "`format`：应为 `jsonl` 或 `csv`，实际为 `{found}`",
    },
    Entry {
        code: "upload.too_large",
        en: "file is larger than the limit of {limit} bytes",
        zh: "文件超过 {limit} 字节的上限",
    },
    Entry { code: "upload.unreadable", en: "could not read the upload: {reason}", zh: "无法读取上传内容：{reason}" },
    // Prediction files: where a problem is.
    Entry { code: "file.at_line_field", en: "line {line}, field `{field}`: {@problem}", zh: "第 {line} 行，字段 `{field}`：{@problem}" },
    Entry { code: "file.at_line", en: "line {line}: {@problem}", zh: "第 {line} 行：{@problem}" },
    Entry { code: "file.at_field", en: "field `{field}`: {@problem}", zh: "字段 `{field}`：{@problem}" },
    Entry { code: "file.more_problems", en: "… and {count} more problem(s)", zh: "……另有 {count} 个问题" },
    // Prediction files: what the problem is.
    Entry {
        code: "file.too_large",
        en: "file is {size} bytes; the limit is {limit} bytes",
        zh: "文件大小为 {size} 字节；上限为 {limit} 字节",
    },
    Entry { code: "file.too_many_rows", en: "file has {rows} rows; the limit is {limit} rows", zh: "文件有 {rows} 行；上限为 {limit} 行" },
    Entry { code: "file.empty", en: "file contains no predictions", zh: "文件中没有预测" },
    Entry { code: "file.not_utf8", en: "the file is not valid UTF-8 text", zh: "文件不是有效的 UTF-8 文本" },
    Entry { code: "file.missing", en: "missing", zh: "缺失" },
    Entry {
        code: "file.missing_wrong",
        en: "{count} item(s) have no prediction and are scored as wrong: {ids}",
        zh: "{count} 道题没有预测，按答错计分：{ids}",
    },
    Entry {
        code: "file.missing_unparseable",
        en: "{count} item(s) have no prediction and are counted as unparseable: {ids}",
        zh: "{count} 道题没有预测，记为不可解析：{ids}",
    },
    Entry {
        code: "file.missing_floor",
        en: "{count} item(s) have no prediction and score at chance (0.5): {ids}",
        zh: "{count} 道题没有预测，按随机水平计分（0.5）：{ids}",
    },
    Entry {
        code: "file.unparseable_orders",
        en: "{count} answer(s) did not parse as an order of all displayed panels (counted as unparseable)",
        zh: "{count} 个答案不是全部所示分格的顺序（记为不可解析）",
    },
    Entry {
        code: "file.unparseable_types",
        en: "{count} label(s) are not one of the five types (counted as unparseable)",
        zh: "{count} 个标签不属于五种类型（记为不可解析）",
    },
    Entry {
        code: "file.read_as_csv",
        en: "read as CSV (its first line is a CSV header); pass format=csv to say so",
        zh: "已按 CSV 读取（首行是 CSV 表头）；可传 format=csv 明确说明",
    },
    Entry { code: "file.expected_found", en: "expected {@expected}, found {found}", zh: "应为{@expected}，实际为 {found}" },
    Entry { code: "file.invalid_json", en: "not valid JSON (column {column}): {reason}", zh: "不是有效的 JSON（第 {column} 列）：{reason}" },
    Entry { code: "file.expected_object", en: "expected a JSON object like {{{example}}}", zh: "应为 JSON 对象，例如 {{{example}}}" },
    Entry { code: "file.unknown_field", en: "unknown field (expected {expected})", zh: "未知字段（应为 {expected}）" },
    Entry { code: "file.invalid_csv", en: "not valid CSV: {@reason}", zh: "不是有效的 CSV：{@reason}" },
    Entry {
        code: "file.csv_header",
        en: "expected a header row with columns {columns}, found `{found}`",
        zh: "应有包含列 {columns} 的表头行，实际为 `{found}`",
    },
    Entry {
        code: "file.csv_header_optional",
        en: "expected a header row with columns {columns} (optional: {optional}), found `{found}`",
        zh: "应有包含列 {columns} 的表头行（可选：{optional}），实际为 `{found}`",
    },
    Entry { code: "file.unknown_column", en: "unknown column (expected {expected})", zh: "未知列（应为 {expected}）" },
    Entry { code: "file.column_twice", en: "column appears twice", zh: "该列出现了两次" },
    Entry {
        code: "file.csv_cells",
        en: "expected {expected} fields as in the header, found {found}",
        zh: "应与表头一样有 {expected} 个字段，实际为 {found} 个",
    },
    Entry { code: "file.csv_unclosed_quote", en: "a quoted field is not closed", zh: "引号内的字段没有闭合" },
    Entry {
        code: "file.csv_after_quote",
        en: "unexpected `{found}` after a closing quote (quote the whole field)",
        zh: "闭合引号后出现了意外的 `{found}`（请给整个字段加引号）",
    },
    Entry { code: "file.unknown_item", en: "unknown item id `{id}`", zh: "未知的题目编号 `{id}`" },
    Entry {
        code: "file.duplicate",
        en: "duplicate prediction for `{id}`; first on line {first}",
        zh: "`{id}` 的预测重复；首次出现在第 {first} 行",
    },
    Entry {
        code: "file.duplicate_order_sample",
        en: "duplicate prediction for `{id}` (order {order}, sample {sample}); first on line {first}",
        zh: "`{id}` 的预测重复（order {order}，sample {sample}）；首次出现在第 {first} 行",
    },
    Entry {
        code: "file.index_range",
        en: "expected a whole number from 0 to {max}, found `{found}`",
        zh: "应为 0 到 {max} 的整数，实际为 `{found}`",
    },
    Entry {
        code: "file.option_number",
        en: "expected an option number from 1 to {n} or an option's text, found `{found}`",
        zh: "应为 1 到 {n} 的选项编号或某个选项的文字，实际为 `{found}`",
    },
    Entry {
        code: "file.not_an_option",
        en: "`{found}` is not one of this item's options (expected 1 to {n} or an option's exact text)",
        zh: "`{found}` 不是此题的选项（应为 1 到 {n} 或某个选项的原文）",
    },
    Entry {
        code: "file.explanation_length_empty",
        en: "expected 1 to {max} characters of text, found an empty string",
        zh: "应为 1 到 {max} 个字符的文字，实际为空字符串",
    },
    Entry {
        code: "file.explanation_length_chars",
        en: "expected 1 to {max} characters of text, found {found} characters",
        zh: "应为 1 到 {max} 个字符的文字，实际为 {found} 个字符",
    },
    Entry {
        code: "file.missing_unjudged",
        en: "{count} comic(s) have no explanation and are left out of human evaluation: {ids}",
        zh: "{count} 则漫画没有解读，不参与人工评测：{ids}",
    },
    Entry {
        code: "file.explanation_and_meaning",
        en: "give the explanation in `explanation` or in `meaning`, not both",
        zh: "解读请写在 `explanation` 或 `meaning` 中的一个，不要两个都写",
    },
    Entry {
        code: "file.clip_expected",
        en: "expected a letter A to {last}, a number 1 to {n} or the text of one option, found {found}",
        zh: "应为字母 A 到 {last}、数字 1 到 {n} 或某个选项的文字，实际为 {found}",
    },
    Entry {
        code: "file.clip_no_options",
        en: "this item has no options to choose from, found {found}",
        zh: "此题没有可选的选项，实际为 {found}",
    },
    Entry {
        code: "file.clip_ambiguous",
        en: "ambiguous: {found} reads as option {mark} but is also the text of option {text} (write the letter alone)",
        zh: "有歧义：{found} 可读作选项 {mark}，但也是选项 {text} 的文字（请只写字母）",
    },
    Entry {
        code: "file.clip_mark_and_text",
        en: "{found} names option {mark} but then gives the text of option {text}",
        zh: "{found} 指明了选项 {mark}，但随后给出的是选项 {text} 的文字",
    },
    Entry {
        code: "file.clip_case_ambiguous",
        en: "ambiguous: {found} is the text of options {letters} up to letter case (write the letter)",
        zh: "有歧义：不计大小写时 {found} 是选项 {letters} 的文字（请写字母）",
    },
    // Labels the server sends in English (metric names, baseline rows, scoring notes); the
    // app reads them back with `parse_label`.
    Entry { code: "label.accuracy", en: "accuracy", zh: "准确率" },
    Entry { code: "label.accuracy_on_parseable", en: "accuracy on parseable answers", zh: "可解析答案的准确率" },
    Entry {
        code: "label.meaning_identification",
        en: "meaning identification: the chance that an explanation is closer to its own meme's meaning than to another open reference meaning (0.5 = chance, 1 = always; {model} embeddings)",
        zh: "释义辨识度：解释与本梗参考释义比与另一条公开参考释义更接近的概率（0.5 = 随机，1 = 总是；{model} 嵌入）",
    },
    Entry { code: "label.embedding_model", en: "embedding model", zh: "嵌入模型" },
    Entry { code: "label.chance_option", en: "Chance (random option)", zh: "随机（随机选项）" },
    Entry { code: "label.random_order", en: "Random order (expected value)", zh: "随机顺序（期望值）" },
    Entry {
        code: "label.chance_type",
        en: "Chance (uniform random type, expected value)",
        zh: "随机（均匀随机类型，期望值）",
    },
    Entry {
        code: "label.random_pair",
        en: "Chance (a meaning that fits every meme alike)",
        zh: "随机（对每个梗都一样适用的释义）",
    },
    Entry {
        code: "label.missing_wrong",
        en: "Items without a prediction are scored as wrong.",
        zh: "没有预测的题目按答错计分。",
    },
    Entry {
        code: "label.missing_order",
        en: "Items without a prediction, and answers that do not parse as an order of all displayed panels, count as unparseable: they lower the parse rate and are left out of accuracy (which is over parseable answers).",
        zh: "没有预测的题目，以及无法解析为全部显示分格顺序的答案，记为不可解析：它们降低解析率，且不计入准确率（准确率只统计可解析的答案）。",
    },
    Entry {
        code: "label.missing_type",
        en: "Items without a prediction, and labels that do not parse as one of the five types, count as wrong and lower the parse rate.",
        zh: "没有预测的题目，以及无法解析为五种类型之一的标签，按答错计分并降低解析率。",
    },
    Entry {
        code: "label.judged_by_people",
        en: "judged by people only (no automatic metric)",
        zh: "仅由人工评判（无自动指标）",
    },
    Entry {
        code: "label.no_baseline",
        en: "No baseline (nothing is scored automatically)",
        zh: "无基线（不自动计分）",
    },
    Entry {
        code: "label.missing_comic_explanation",
        en: "Comic explanations are not scored automatically: the file's explanations are stored for human evaluation; comics without one are left out of it.",
        zh: "漫画解读不自动计分：文件中的解读会被保存，供人工评测使用；没有解读的漫画不参与评测。",
    },
    Entry {
        code: "label.missing_explanation",
        en: "Items without a prediction, and answers that say nothing (\"I don't know\", \"不知道\"…), score at chance (0.5); answers flagged as filler (one template for many memes, or the prompt copied) score at most chance.",
        zh: "没有预测的题目，以及没有实际内容的答案（“I don't know”“不知道”等），按随机计分（0.5）；被标为套话的答案（许多梗共用一个模板，或照抄题面）最多按随机计分。",
    },
    Entry { code: "label.raw_cosine", en: "raw cosine (model scale)", zh: "原始余弦（模型尺度）" },
    Entry { code: "label.origin_cosine", en: "origin cosine (items with an origin)", zh: "出处余弦（有出处的题目）" },
    Entry { code: "label.copying_prompt", en: "answers copying the prompt", zh: "照抄题面的答案" },
    Entry {
        code: "label.filler_share",
        en: "answers flagged as filler (one template for many memes)",
        zh: "被标为套话的答案（许多梗共用一个模板）",
    },
    Entry {
        code: "label.generic_share",
        en: "answers no closer to their own meaning than to the centroid of the open meanings",
        zh: "与本梗释义的相似度不高于与公开释义中心的答案",
    },
    Entry {
        code: "label.meaning_cosine_raw",
        en: "meaning cosine, raw (CHIME's metric; {model}; answered items)",
        zh: "释义余弦（原始值，CHIME 的指标；{model}；已作答题目）",
    },
    Entry { code: "label.meaning_bertscore", en: "meaning BERTScore-F1 ({model})", zh: "释义 BERTScore-F1（{model}）" },
    Entry { code: "label.origin_bertscore", en: "origin BERTScore-F1 ({model}; items with an origin)", zh: "出处 BERTScore-F1（{model}；有出处的题目）" },
];

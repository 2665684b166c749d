//! The catalogue entries of the papers' reproduction: run conditions on uploads, a paper's
//! published figures, the whole-split and all-items boards and rescoring (researchers only;
//! left out of the quiz browser bundle).

use super::Entry;

/// Messages about run conditions and published-figure files: part of
/// [`catalogue`](super::catalogue) except with the `quiz-messages` feature.
#[cfg(not(feature = "quiz-messages"))]
pub const PAPER_CATALOGUE: &[Entry] = &[
    Entry { code: "expect.number", en: "a number", zh: "数字" },
    Entry {
        code: "tables.not_found",
        en: "benchmark `{benchmark}` has no paper table `{found}`; its tables are {allowed}",
        zh: "基准 `{benchmark}` 没有论文表格 `{found}`；其表格为 {allowed}",
    },
    Entry {
        code: "tables.format",
        en: "`{found}`: expected a table id followed by `.csv` or `.tex`",
        zh: "`{found}`：应为表格编号加 `.csv` 或 `.tex`",
    },
    Entry {
        code: "figures.key",
        en: "expected a key of lower-case letters, digits, `_`, `-` and `:`, found `{found}`",
        zh: "应为由小写字母、数字、`_`、`-` 和 `:` 组成的键，实际为 `{found}`",
    },
    Entry {
        code: "figures.task",
        en: "no task `{found}` in benchmark `{benchmark}`; its tasks are {allowed}",
        zh: "基准 `{benchmark}` 中没有任务 `{found}`；其任务为 {allowed}",
    },
    Entry {
        code: "figures.metric",
        en: "task `{task}` publishes no metric `{found}`; its metrics are {allowed}",
        zh: "任务 `{task}` 没有指标 `{found}`；其指标为 {allowed}",
    },
    Entry {
        code: "figures.category",
        en: "task `{task}` has no category `{found}`; its categories are {allowed} (or a facet such as `sound:song`)",
        zh: "任务 `{task}` 没有类别 `{found}`；其类别为 {allowed}（或 `sound:song` 这样的分面）",
    },
    Entry {
        code: "figures.repeated",
        en: "the same figure (task, model, conditions, metric, category, subset, source) is already on line {first}",
        zh: "相同的数据（任务、模型、条件、指标、类别、子集、来源）已在第 {first} 行出现",
    },
    Entry {
        code: "condition.pair",
        en: "`conditions`: expected `name=value` pairs separated by commas, found `{found}`",
        zh: "`conditions`：应为以逗号分隔的 `名称=取值`，实际为 `{found}`",
    },
    Entry {
        code: "condition.repeated",
        en: "`conditions`: `{name}` is given twice",
        zh: "`conditions`：`{name}` 出现了两次",
    },
    Entry {
        code: "condition.too_many",
        en: "`conditions`: at most {max} conditions",
        zh: "`conditions`：最多 {max} 个条件",
    },
    Entry {
        code: "condition.none",
        en: "`conditions`: this task has no run conditions, found `{name}`",
        zh: "`conditions`：该任务没有运行条件，实际给出 `{name}`",
    },
    Entry {
        code: "condition.unknown",
        en: "`conditions`: unknown condition `{name}`; this task's conditions are {allowed}",
        zh: "`conditions`：未知条件 `{name}`；该任务的条件为 {allowed}",
    },
    Entry {
        code: "condition.header",
        en: "line {line}: the file's conditions header expected condition names with text values (`name=value` pairs), found {found}",
        zh: "第 {line} 行：文件的条件声明应为条件名称及其文本取值（`名称=取值`），实际为 {found}",
    },
    Entry {
        code: "condition.conflict",
        en: "`conditions`: `{name}` is `{header}` in the file's header but `{query}` in the upload's conditions",
        zh: "`conditions`：`{name}` 在文件声明中为 `{header}`，在上传参数中却为 `{query}`",
    },
    Entry {
        code: "condition.value",
        en: "`conditions`: `{name}` expected one of {allowed}, found `{found}`",
        zh: "`conditions`：`{name}` 应为 {allowed} 之一，实际为 `{found}`",
    },
    Entry {
        code: "board.whole_hidden",
        en: "the whole test split of `{slug}` is shown once its private half is revealed",
        zh: "`{slug}` 的完整测试集成绩在私有榜公布后显示",
    },
    Entry {
        code: "rescore.reason_required",
        en: "`reason`: say why the uploads are scored again (e.g. \"gold of 3 items corrected\"); the board's history shows it",
        zh: "`reason`：请说明重新评分的原因（例如“更正了 3 道题的标准答案”）；榜单的历史记录会显示它",
    },
    Entry {
        code: "rescore.running",
        en: "the uploads of `{slug}` are being scored again already; the board's history shows when it is done",
        zh: "`{slug}` 的提交正在重新评分；完成后榜单的历史记录会显示",
    },
    Entry {
        code: "board.all_owners_only",
        en: "the board of `{slug}` over every item, dev and test, is for the benchmark's owners: send an owner or admin token",
        zh: "`{slug}` 涵盖全部题目（开发集与测试集）的榜单仅供基准所有者查看：请提供所有者或管理员令牌",
    },
];

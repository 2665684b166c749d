//! The catalogue entries the site's own pages never produce for a participant: protocol
//! errors only other API clients cause, and messages of researchers' and authors' tools that
//! the quiz pages never show (left out of the quiz browser bundle).

use super::Entry;

/// Messages a quiz participant cannot meet through the site: protocol errors that only other
/// API clients cause (unknown endpoints and paths, start keys, an answer of another kind,
/// impossible panel orders), prediction-file value types, deleting a participant, looking up
/// a study, upload and token quotas. Part of [`catalogue`](super::catalogue) except with the
/// `quiz-messages` feature (the quiz browser bundle, whose size budget they would spend; a
/// client still gets each code with its English `detail`).
#[cfg(not(feature = "quiz-messages"))]
pub const CLIENT_CATALOGUE: &[Entry] = &[
    // Protocol errors the site's own pages never cause (other API clients can): unknown
    // endpoints and paths, start keys, an answer of another kind, impossible panel orders.
    Entry { code: "request.no_endpoint", en: "no API endpoint at `{path}`", zh: "`{path}` 处没有 API 接口" },
    Entry {
        code: "request.method_not_allowed",
        en: "method {method} is not allowed at `{path}` (allowed: {allowed})",
        zh: "`{path}` 不接受 {method} 请求（可用：{allowed}）",
    },
    Entry {
        code: "request.uri_too_long",
        en: "the request address is {length} bytes long; at most {limit} are accepted",
        zh: "请求地址长 {length} 字节；最多接受 {limit} 字节",
    },
    Entry { code: "request.invalid_path", en: "invalid path: {reason}", zh: "路径无效：{reason}" },
    Entry {
        code: "quiz.empty_start_key",
        en: "`start_key`: expected 1 to 128 printable characters, found an empty key",
        zh: "`start_key`：应为 1 到 128 个可打印字符，实际为空",
    },
    Entry {
        code: "quiz.start_key_other_quiz",
        en: "`start_key`: this key already started a session of another quiz; use a new key",
        zh: "`start_key`：此键已用于开始另一个测验的会话；请换一个新键",
    },
    Entry {
        code: "answer.wrong_kind",
        en: "`answer.kind`: this item expects `{expected}`",
        zh: "`answer.kind`：此题需要 `{expected}`",
    },
    Entry {
        code: "answer.panel_count",
        en: "expected all {n} displayed panel numbers (1 to {n}) once each, found {found} number(s)",
        zh: "应包含全部 {n} 个显示的分格编号（1 到 {n}）各一次，实际为 {found} 个编号",
    },
    Entry {
        code: "answer.panel_range",
        en: "expected displayed panel numbers from 1 to {n}, found {found}",
        zh: "分格编号应在 1 到 {n} 之间，实际为 {found}",
    },
    Entry { code: "answer.panel_twice", en: "panel {panel} appears twice", zh: "分格 {panel} 出现了两次" },
    Entry {
        code: "check.unknown_index",
        en: "`index`: this session has {count} attention check(s), numbered from 0; found {found}",
        zh: "`index`：此会话有 {count} 道注意力检查题，从 0 开始编号；实际为 {found}",
    },
    // Prediction-file value types, owners' participant deletion, studies, author quotas.
    Entry { code: "rate.uploads", en: "uploads", zh: "上传" },
    Entry { code: "rate.author_tokens", en: "new author tokens", zh: "创建作者令牌" },
    Entry { code: "study.not_found", en: "no study named `{slug}`", zh: "没有名为 `{slug}` 的研究" },
    Entry {
        code: "participant.name_expected",
        en: "expected a participant pseudonym (16 hex digits, the export's `participant` column) or a Prolific id",
        zh: "应为参与者假名（16 位十六进制，导出文件的 `participant` 列）或 Prolific id",
    },
    Entry {
        code: "participant.not_found",
        en: "no participant with pseudonym or Prolific id `{who}` in the benchmark of task `{slug}`; nothing was deleted",
        zh: "任务 `{slug}` 所属基准中没有假名或 Prolific id 为 `{who}` 的参与者；未删除任何数据",
    },
    Entry { code: "expect.text", en: "text", zh: "文字" },
    Entry { code: "expect.whole_number", en: "a whole number", zh: "整数" },
    Entry { code: "expect.option", en: "an option number or option text", zh: "选项编号或选项文字" },
    Entry {
        code: "expect.clip_option",
        en: "a letter, an option number or an option's text",
        zh: "字母、选项编号或选项文字",
    },
    Entry {
        code: "expect.panel_order",
        en: "displayed panel numbers in reading order",
        zh: "按阅读顺序排列的显示分格编号",
    },
    Entry { code: "expect.other", en: "another value", zh: "其他值" },
];

//! The catalogue entries quiz participants can meet (every build has them).

use super::Entry;

/// Every message in every build, by code: what quiz participants can meet (the rest is
/// [`CLIENT_CATALOGUE`](super::CLIENT_CATALOGUE) and
/// [`RESEARCHER_CATALOGUE`](super::RESEARCHER_CATALOGUE); [`catalogue`](super::catalogue)
/// iterates them all). English wording is the API's `detail`; keep it stable (clients and
/// tests read it). Parameters: the same set in both templates.
pub const CATALOGUE: &[Entry] = &[
    // Generic.
    Entry { code: "text", en: "{text}", zh: "{text}" },
    Entry { code: "internal", en: "internal server error", zh: "服务器内部错误" },
    Entry {
        code: "not_recorded",
        en: "the answer was not recorded (the database could not store it); nothing was saved, please send it again in a moment",
        zh: "答案未被记录（数据库无法保存）；没有保存任何内容，请稍后重新发送",
    },
    Entry {
        code: "not_stored",
        en: "not stored: the database cannot store data right now (e.g. the disk is full); nothing was saved, please try again in a moment",
        zh: "未保存：数据库暂时无法保存数据（例如磁盘已满）；没有保存任何内容，请稍后重试",
    },
    Entry { code: "request.invalid_body", en: "invalid request body: {reason}", zh: "请求体无效：{reason}" },
    Entry { code: "request.body_too_large", en: "request body is larger than the limit", zh: "请求体超过大小上限" },
    Entry { code: "request.invalid_query", en: "invalid query: {reason}", zh: "查询参数无效：{reason}" },
    Entry {
        code: "request.body_timeout",
        en: "the request body did not arrive within {secs} s; send it again",
        zh: "请求正文未在 {secs} 秒内送达；请重新发送",
    },
    Entry { code: "request.refused", en: "request refused ({status}): {reason}", zh: "请求被拒绝（{status}）：{reason}" },
    Entry {
        code: "request.rate_limited",
        en: "too many {@what} from your network: at most {limit} per minute; try again in {retry_after} s",
        zh: "你的网络{@what}过于频繁：每分钟最多 {limit} 次；请 {retry_after} 秒后再试",
    },
    Entry { code: "rate.session_starts", en: "session starts", zh: "开始测验" },
    Entry { code: "service.unavailable", en: "{reason}", zh: "服务暂不可用：{reason}" },
    // Fields of a request.
    Entry {
        code: "field.at_most_printable",
        en: "`{field}`: expected at most {max} printable characters",
        zh: "`{field}`：最多 {max} 个可打印字符",
    },
    Entry {
        code: "field.required_chars",
        en: "`{field}`: required, expected 1 to {max} characters",
        zh: "`{field}`：必填，应为 1 到 {max} 个字符",
    },
    Entry {
        code: "field.too_long",
        en: "`{field}`: expected at most {max} characters, found {found}",
        zh: "`{field}`：最多 {max} 个字符，实际为 {found} 个",
    },
    Entry {
        code: "field.control_chars",
        en: "`{field}`: control characters are not allowed",
        zh: "`{field}`：不允许使用控制字符",
    },
    Entry {
        code: "field.key_chars",
        en: "`{field}`: expected 1 to {max} characters",
        zh: "`{field}`：应为 1 到 {max} 个字符",
    },
    Entry { code: "field.problem", en: "`{field}`: {@problem}", zh: "`{field}`：{@problem}" },
    // Quizzes and sessions.
    Entry { code: "quiz.not_found", en: "no open quiz named `{slug}`", zh: "没有名为 `{slug}` 的开放测验" },
    Entry {
        code: "quiz.consent_required",
        en: "`consent`: the instructions and consent must be accepted (true) before starting",
        zh: "`consent`：开始前必须接受说明与知情同意（true）",
    },
    Entry {
        code: "quiz.wrong_participant_secret",
        en: "`participant_secret`: missing or wrong for this participant id; start without `participant_id` to take part under a new id",
        zh: "`participant_secret`：缺失或与该参与者编号不符；不带 `participant_id` 开始即可用新编号参加",
    },
    Entry {
        code: "quiz.no_retake",
        en: "participant `{participant}` has already completed quiz `{slug}`; its owner does not allow taking it again (your results stay available)",
        zh: "参与者 `{participant}` 已完成测验 `{slug}`；其所有者不允许重做（你的结果仍可查看）",
    },
    Entry { code: "quiz.no_items", en: "quiz `{slug}` has no items to answer", zh: "测验 `{slug}` 没有可作答的题目" },
    Entry { code: "quiz.cannot_assign", en: "cannot assign a batch: {@reason}", zh: "无法分配题目：{@reason}" },
    Entry {
        code: "quiz.not_enough_items",
        en: "only {available} eligible items for a batch of {wanted}",
        zh: "一组需要 {wanted} 道题，但只有 {available} 道符合条件",
    },
    Entry {
        code: "quiz.headphone_check_missing",
        en: "`headphone_check`: this quiz starts with a headphone check; send its id and answers ({{\"id\": …, \"answers\": […]}})",
        zh: "`headphone_check`：本测验以耳机检测开始；请发送其编号和作答（{{\"id\": …, \"answers\": […]}}）",
    },
    Entry {
        code: "quiz.headphone_check_invalid",
        en: "`headphone_check.answers`: expected {trials} answers, each 0, 1 or 2",
        zh: "`headphone_check.answers`：应为 {trials} 个作答，每个为 0、1 或 2",
    },
    Entry {
        code: "quiz.headphone_check_unknown",
        en: "`headphone_check.id`: no such headphone check for this quiz; please do the check again",
        zh: "`headphone_check.id`：本测验没有这个耳机检测；请重新做一次检测",
    },
    Entry {
        code: "quiz.headphone_check_answered",
        en: "`headphone_check`: this check was already answered differently (each check is scored once); please do the check again",
        zh: "`headphone_check`：此检测已用不同的作答提交过（每次检测只评分一次）；请重新做一次检测",
    },
    Entry {
        code: "session.prolific_id_in_use",
        en: "this Prolific id already has a session of this quiz, started in another browser; continue it there (a Prolific id alone cannot resume a session)",
        zh: "此 Prolific id 已在另一个浏览器中开始了本测验；请在那里继续（仅凭 Prolific id 无法恢复会话）",
    },
    Entry {
        code: "quiz.prolific_id_required",
        en: "this quiz is taken only through Prolific: open it from your Prolific study link (it carries your PROLIFIC_PID)",
        zh: "本测验只能通过 Prolific 参加：请从 Prolific 研究链接打开（链接中带有 PROLIFIC_PID）",
    },
    Entry {
        code: "survey.familiarity_range",
        en: "survey field `meme_familiarity`: expected an integer from 1 to 5, found {found}",
        zh: "问卷字段 `meme_familiarity`：应为 1 到 5 的整数，实际为 {found}",
    },
    Entry { code: "session.not_found", en: "no session with id `{id}`", zh: "没有编号为 `{id}` 的会话" },
    Entry {
        code: "session.not_stored",
        en: "the session was not started (the database could not store it); nothing was saved, please start again in a moment",
        zh: "会话未能开始（数据库无法保存）；没有保存任何内容，请稍后重新开始",
    },
    Entry {
        code: "answer.position_range",
        en: "expected a displayed option position from 0 to {max}, found {found}",
        zh: "应为 0 到 {max} 的选项显示位置，实际为 {found}",
    },
    Entry {
        code: "answer.text_length",
        en: "expected 1 to {max} characters, found {found}",
        zh: "应为 1 到 {max} 个字符，实际为 {found} 个",
    },
    Entry {
        code: "preface.none",
        en: "quiz `{slug}` asks no question before its items; send answers only",
        zh: "测验 `{slug}` 在题目前没有提问；请只发送答案",
    },
    Entry {
        code: "session.item_not_in_batch",
        en: "item `{item}` is not in this session's batch; nothing was recorded",
        zh: "题目 `{item}` 不在本会话的题目组中；未记录任何内容",
    },
    Entry {
        code: "preface.already_answered",
        en: "item `{item}` already has the familiarity answer `{stored}`; the first answer stands and nothing new was recorded",
        zh: "题目 `{item}` 已有熟悉度回答 `{stored}`；以第一次回答为准，未记录新内容",
    },
    Entry {
        code: "preface.first",
        en: "item `{item}`: answer the familiarity question first (POST /api/sessions/{session}/prefaces); its question is sent only after that is stored; nothing was recorded",
        zh: "题目 `{item}`：请先回答熟悉度问题（POST /api/sessions/{session}/prefaces）；保存后才会发送题目；未记录任何内容",
    },
    Entry {
        code: "answer.duplicate",
        en: "item `{item}` is already answered in this session; the first answer stands and nothing new was recorded",
        zh: "题目 `{item}` 在本会话中已作答；以第一次回答为准，未记录新内容",
    },
    Entry {
        code: "answer.key_reused",
        en: "idempotency key `{key}` was already used for another item; nothing was recorded",
        zh: "幂等键 `{key}` 已用于另一道题；未记录任何内容",
    },
    Entry {
        code: "answer.key_reused_other_answer",
        en: "idempotency key `{key}` was already used for a different answer to this item; the first answer stands and nothing new was recorded (a resend must repeat the same answer)",
        zh: "幂等键 `{key}` 已用于此题的另一个答案；以第一次回答为准，未记录新内容（重发须与原答案相同）",
    },
    Entry {
        code: "results.unanswered",
        en: "results are shown once the whole batch is answered: {unanswered} of {total} item(s) still unanswered",
        zh: "全部题目作答后才显示结果：{total} 道题中还有 {unanswered} 道未作答",
    },
    Entry {
        code: "quiz.prolific_repeat",
        en: "Prolific participant `{pid}` has already taken part in quiz `{slug}`; each Prolific id may take part once (return to Prolific to see your submission)",
        zh: "Prolific 参与者 `{pid}` 已参加过测验 `{slug}`；每个 Prolific id 只能参加一次（请回到 Prolific 查看您的提交）",
    },
    Entry {
        code: "quiz.target_reached",
        en: "quiz `{slug}` has reached its participant target ({target} completed sessions) and takes no new participants; thank you for your interest",
        zh: "测验 `{slug}` 已达到参与人数目标（{target} 个已完成的会话），不再接受新参与者；感谢您的关注",
    },
    Entry {
        code: "quiz.target_reached_handoff",
        en: "quiz `{slug}` has reached its participant target ({target} completed sessions) and takes no new participants; return to Prolific with the code {code}: {url}",
        zh: "测验 `{slug}` 已达到参与人数目标（{target} 个已完成的会话），不再接受新参与者；请带着代码 {code} 回到 Prolific：{url}",
    },
    Entry {
        code: "quiz.no_sound",
        en: "quiz `{slug}` plays sound, and this browser cannot play sound: please open the link in a current Chrome, Edge, Firefox or Safari, with sound on",
        zh: "测验 `{slug}` 需要播放声音，而此浏览器无法播放声音：请用最新版 Chrome、Edge、Firefox 或 Safari 打开链接，并打开声音",
    },
    Entry {
        code: "quiz.no_sound_handoff",
        en: "quiz `{slug}` plays sound, and this browser cannot play sound; return to Prolific with the code {code}: {url}",
        zh: "测验 `{slug}` 需要播放声音，而此浏览器无法播放声音；请带着代码 {code} 回到 Prolific：{url}",
    },
    Entry {
        code: "quiz.format_unplayable",
        en: "quiz `{slug}` plays {format} clips, which this browser cannot play: please open the link in a current Chrome, Edge, Firefox or Safari",
        zh: "测验 `{slug}` 的片段为 {format} 格式，此浏览器无法播放：请用最新版 Chrome、Edge、Firefox 或 Safari 打开链接",
    },
    Entry {
        code: "quiz.format_unplayable_handoff",
        en: "quiz `{slug}` plays {format} clips, which this browser cannot play; return to Prolific with the code {code}: {url}",
        zh: "测验 `{slug}` 的片段为 {format} 格式，此浏览器无法播放；请带着代码 {code} 回到 Prolific：{url}",
    },
    Entry {
        code: "quiz.device_param",
        en: "`device`: expected `audio` or one of the quiz's media types ({expected}), found `{found}`",
        zh: "`device`：应为 `audio` 或本测验的媒体类型之一（{expected}），实际为 `{found}`",
    },
    Entry {
        code: "quiz.screened_out",
        en: "this session was ended early (screen-out) and takes no more answers; nothing was recorded",
        zh: "此会话已提前结束（筛除），不再接受作答；未记录任何内容",
    },
    Entry {
        code: "check.choice_range",
        en: "`choice`: expected an option from 0 to {max}, found {found}",
        zh: "`choice`：应为 0 到 {max} 的选项，实际为 {found}",
    },
    Entry {
        code: "check.already_answered",
        en: "attention check {index} is already answered; the first answer stands and nothing new was recorded",
        zh: "注意力检查题 {index} 已作答；以第一次作答为准，未记录新内容",
    },
    Entry { code: "task.not_found", en: "no task named `{slug}`", zh: "没有名为 `{slug}` 的任务" },
    Entry { code: "media.task_not_found", en: "no task `{slug}`", zh: "没有任务 `{slug}`" },
    Entry { code: "media.not_found", en: "no media file `{name}`", zh: "没有媒体文件 `{name}`" },
    Entry {
        code: "explain.unavailable",
        en: "explanation scoring is unavailable: {reason}",
        zh: "释义评分暂不可用：{reason}",
    },
    // What a field of a prediction file should hold (the `{@expected}` of file.expected_found).
    // Judging tasks (kinds `rating` and `ranking`): answers, starts, files, labels.
    Entry {
        code: "answer.rating_protocol",
        en: "this page asks for a `{expected}` rating, found a `{found}` one",
        zh: "此页需要 `{expected}` 评分，实际为 `{found}` 评分",
    },
    Entry {
        code: "answer.rating_needs",
        en: "this output has an {field}: give a verdict on it",
        zh: "该输出含有 {field}：请对其给出判断",
    },
    Entry {
        code: "answer.rating_no_field",
        en: "this output has no {field}: leave the {field} verdict out",
        zh: "该输出没有 {field}：请不要给出 {field} 的判断",
    },
    Entry {
        code: "answer.dimension_range",
        en: "`{dimension}`: expected a score from {min} to {max}, found {found}",
        zh: "`{dimension}`：分数应在 {min} 到 {max} 之间，实际为 {found}",
    },
    Entry {
        code: "answer.context_needed",
        en: "this comic has text context: score context handling (1 to 3)",
        zh: "这则漫画带有文字信息：请为“文字信息运用”打分（1 到 3）",
    },
    Entry {
        code: "answer.context_not_applicable",
        en: "this comic has no text context: leave context handling out",
        zh: "这则漫画没有文字信息：请不要为“文字信息运用”打分",
    },
    Entry {
        code: "answer.rank_count",
        en: "expected one rank for each of the {n} explanations, found {found}",
        zh: "应为 {n} 条解释各给出一个名次，实际为 {found} 个",
    },
    Entry {
        code: "answer.rank_range",
        en: "expected ranks from 1 (best) to {n}, found {found}",
        zh: "名次应在 1（最好）到 {n} 之间，实际为 {found}",
    },
    Entry {
        code: "answer.rank_gap",
        en: "ranks must follow on without gaps (ties share a rank, e.g. 1, 1, 2), found {found}",
        zh: "名次须连续、不能跳号（并列名次相同，如 1, 1, 2），实际为 {found}",
    },
    Entry {
        code: "judging.invite_required",
        en: "quiz `{slug}` is by invitation only: open the study link you were given (its `invite` parameter is missing or wrong)",
        zh: "测验 `{slug}` 仅限受邀参加：请打开你收到的研究链接（其 `invite` 参数缺失或有误）",
    },
    Entry {
        code: "judging.already_judged",
        en: "participant `{participant}` has already finished judging task `{slug}`; nobody judges the same outputs twice (your results stay available)",
        zh: "参与者 `{participant}` 已完成评判任务 `{slug}`；同一输出不会让同一人评判两次（你的结果仍可查看）",
    },
];

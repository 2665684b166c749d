//! The words of the pages' first content — the home page's quiz list, a quiz's intro and
//! consent, a board's table ([`board`]) — in one place, so that the browser app's string tables and the server's
//! pre-rendered first paint (`server/src/first_paint/`) say exactly the same thing.

pub mod board;

/// The first content's words in one language.
#[derive(Debug, Clone, Copy)]
pub struct PageText {
    /// Home page heading.
    pub home_title: &'static str,
    /// Home page lead paragraph.
    pub home_intro: &'static str,
    /// Home page: no quiz open.
    pub no_quizzes: &'static str,
    /// "N items in the pool".
    pub item_count: fn(usize) -> String,
    /// "N questions per participant".
    pub batch_size: fn(usize) -> String,
    /// "N participants completed" (with its singular).
    pub participants: fn(usize) -> String,
    /// Label before a quiz's category chips.
    pub categories: &'static str,
    /// The start link of a quiz card.
    pub start: &'static str,
    /// A quiz whose participant target is reached.
    pub full: &'static str,
    /// Quiz intro: "You will answer N questions."
    pub batch_note: fn(usize) -> String,
    /// Consent card heading of a two-step start.
    pub step1_title: &'static str,
    /// Consent card heading of a three-step start (headphone check in between).
    pub step1_of3_title: &'static str,
    /// Heading of the rules.
    pub rules_title: &'static str,
    /// The rules participants agree to.
    pub rules: [&'static str; 5],
    /// The consent checkbox's label.
    pub consent_label: &'static str,
    /// The consent card's button.
    pub continue_: &'static str,
}

/// English.
pub const EN: PageText = PageText {
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
    full: "Full: no new participants",
    batch_note: |n| format!("You will answer {n} questions."),
    step1_title: "Step 1 of 2: Instructions and consent",
    step1_of3_title: "Step 1 of 3: Instructions and consent",
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
};

/// Simplified Chinese.
pub const ZH: PageText = PageText {
    home_title: "梗理解：人类基准测试",
    home_intro: "参与一个关于中文网络梗的小测验。你的匿名作答将成为与 AI 模型对比的人类基准。",
    no_quizzes: "目前没有开放的测验。",
    item_count: |n| format!("题库共 {n} 题"),
    batch_size: |n| format!("每人作答 {n} 题"),
    participants: |n| format!("已有 {n} 人完成"),
    categories: "类别",
    start: "开始",
    full: "已满：不再接收新参与者",
    batch_note: |n| format!("你将回答 {n} 道题。"),
    step1_title: "第 1 步（共 2 步）：说明与知情同意",
    step1_of3_title: "第 1 步（共 3 步）：说明与知情同意",
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
};

/// The part of a bilingual text ("English · 中文") in English (`zh` false) or Chinese; a
/// text without the separator is returned whole.
///
/// ```
/// use memeboard_core::page_text::in_lang;
/// assert_eq!(in_lang("Memes · 梗", false), "Memes");
/// assert_eq!(in_lang("Memes · 梗", true), "梗");
/// assert_eq!(in_lang("Only English", true), "Only English");
/// ```
pub fn in_lang(text: &str, zh: bool) -> &str {
    match text.split_once(" · ") {
        Some((en, _)) if !zh => en.trim(),
        Some(_) => text.rsplit_once(" · ").map_or(text, |(_, z)| z.trim()),
        None => text,
    }
}

/// A category's label in English (`zh` false) or Chinese: from the task's own labels, else
/// the CHIME meme types', else the raw key.
///
/// ```
/// use memeboard_core::page_text::category_label;
/// use memeboard_core::tasks::CategoryInfo;
/// let cats = [CategoryInfo { key: "speech".into(), label_en: "Speech".into(), label_zh: "语音".into() }];
/// assert_eq!(category_label("speech", &cats, true), "语音");
/// assert_eq!(category_label("other", &cats, false), "other");
/// ```
pub fn category_label(key: &str, categories: &[crate::tasks::CategoryInfo], zh: bool) -> String {
    if let Some(c) = categories.iter().find(|c| c.key == key) {
        return if zh {
            c.label_zh.clone()
        } else {
            c.label_en.clone()
        };
    }
    if let Some(t) = crate::tasks::MemeType::from_key(key) {
        return if zh { t.upstream_cn() } else { t.upstream_en() }.to_owned();
    }
    key.to_owned()
}

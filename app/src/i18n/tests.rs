//! Tests of the language choice and of a few strings of both languages.

use super::*;

#[test]
fn browser_tags_map_to_languages() {
    assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
    assert_eq!(Lang::parse("zh-Hant-TW"), Some(Lang::Zh));
    assert_eq!(Lang::parse("en-GB"), Some(Lang::En));
    assert_eq!(Lang::parse("de"), None);
    assert_eq!(Lang::parse(Lang::Zh.code()), Some(Lang::Zh));
}

#[test]
fn category_labels_prefer_the_quiz_then_meme_types() {
    let cats = vec![CategoryInfo {
        key: "slang".into(),
        label_en: "Slang!".into(),
        label_zh: "俗语！".into(),
    }];
    assert_eq!(category_label(Lang::En, "slang", &cats), "Slang!");
    assert_eq!(category_label(Lang::Zh, "homophonic_pun", &cats), "谐音");
    assert_eq!(category_label(Lang::En, "other", &cats), "other");
}

#[test]
fn leaderboard_strings() {
    // The board strings live in crate::i18n::board since the quiz bundle leaves them out.
    use crate::i18n::board::{EN, ZH};
    assert_eq!((EN.quota_left)(2, 5), "2 of 5 left today");
    assert_eq!((ZH.quota_left)(2, 5), "今日还剩 2 / 5 次");
    assert_eq!((EN.lines_ok)(36), "36 lines OK");
    assert_eq!((EN.participants_n)(1), "1 participant");
    assert!((EN.help_limits)(Some(5)).contains("5 uploads"));
}

#[test]
fn progress_strings() {
    assert_eq!((EN.progress)(3, 24), "Question 3 of 24");
    assert_eq!((ZH.progress)(3, 24), "第 3 题，共 24 题");
}

#[test]
fn the_familiarity_question_names_the_quizs_kind_of_meme() {
    use crate::kinds::memes_noun;
    use memeboard_core::kinds::TaskKind;
    let ask =
        |lang: Lang, kind| (lang.table::<Strings>().familiarity_label)(memes_noun(lang, kind));
    assert_eq!(
        ask(Lang::En, TaskKind::TextMcq),
        "How familiar are you with Chinese internet memes? (1–5)"
    );
    assert!(ask(Lang::En, TaskKind::PanelOrder).contains("multi-panel comic memes"));
    assert!(ask(Lang::En, TaskKind::ClipMcq).contains("video and audio clips"));
    assert_eq!(
        ask(Lang::Zh, TaskKind::PanelType),
        "你对中文多格漫画梗的熟悉程度（1–5）"
    );
    for kind in TaskKind::ALL {
        assert_ne!(memes_noun(Lang::Zh, kind), memes_noun(Lang::En, kind));
    }
}

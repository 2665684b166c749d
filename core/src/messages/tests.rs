//! Unit tests for `crate::messages`.

use super::*;
use std::collections::BTreeSet;

#[test]
fn codes_are_unique_and_well_formed() {
    let mut seen = BTreeSet::new();
    for e in catalogue() {
        assert!(seen.insert(e.code), "code `{}` appears twice", e.code);
        assert!(
            e.code
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'_'),
            "code `{}`: lower case, digits, dots and underscores only",
            e.code
        );
    }
}

#[test]
fn both_languages_use_the_same_parameters() {
    for e in catalogue() {
        assert_eq!(placeholders(e.en), placeholders(e.zh), "code `{}`", e.code);
    }
}

#[test]
fn every_code_renders_in_both_languages_with_all_parameters_substituted() {
    for e in catalogue() {
        let mut m = Message::new(e.code);
        for p in placeholders(e.en) {
            // Embedded messages get a known code (here: "missing").
            m = m.with(
                p,
                if e.en.contains(&format!("{{@{p}}}")) {
                    "file.missing"
                } else {
                    "X"
                },
            );
        }
        for locale in [Locale::En, Locale::Zh] {
            let text = m.render(locale);
            let unescaped = e.template(locale).replace("{{", "").replace("}}", "");
            if !unescaped.contains('{') {
                assert_eq!(
                    text,
                    e.template(locale).replace("{{", "{").replace("}}", "}")
                );
            }
            assert!(
                !placeholders(e.template(locale))
                    .iter()
                    .any(|p| text.contains(&format!("{{{p}}}"))),
                "`{}` in {locale:?} left a placeholder: {text}",
                e.code
            );
        }
        // 中文 templates are Chinese where English has words (codes like `text` aside).
        let mut words = e.en.to_owned();
        for p in placeholders(e.en) {
            words = words
                .replace(&format!("{{@{p}}}"), "")
                .replace(&format!("{{{p}}}"), "");
        }
        if words.chars().any(|c| c.is_ascii_alphabetic()) {
            assert!(
                e.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
                    || e.zh.trim().is_empty(),
                "`{}` has no Chinese text: {}",
                e.code,
                e.zh
            );
        }
    }
}

#[test]
fn embedded_messages_render_in_the_outer_language_and_unknown_codes_pass_through() {
    let m = msg!("file.at_line_field", line = 2, field = "answer").with_message(
        "problem",
        msg!("file.expected_found", found = "3").with_message("expected", msg!("expect.text")),
    );
    assert_eq!(
        m.to_string(),
        "line 2, field `answer`: expected text, found 3"
    );
    assert_eq!(
        m.render(Locale::Zh),
        "第 2 行，字段 `answer`：应为文字，实际为 3"
    );
    let raw = msg!("file.invalid_csv", reason = "odd bytes");
    assert_eq!(raw.render(Locale::Zh), "不是有效的 CSV：odd bytes");
    assert_eq!(
        render("no.such.code", &BTreeMap::new(), Locale::En),
        None,
        "the app falls back to `detail`"
    );
    assert_eq!(
        msg!("file.expected_object", example = "\"a\": 1").to_string(),
        "expected a JSON object like {\"a\": 1}"
    );
}

#[test]
fn labels_read_back_with_their_parameters() {
    let m = parse_label(
            "meaning identification: the chance that an explanation is closer to its own meme's meaning than to another open reference meaning (0.5 = chance, 1 = always; bge-m3 embeddings)",
        )
        .unwrap();
    assert_eq!(m.params().get("model").map(String::as_str), Some("bge-m3"));
    assert!(m.render(Locale::Zh).contains("bge-m3 嵌入"));
    assert_eq!(parse_label("accuracy").unwrap().code(), "label.accuracy");
    assert_eq!(parse_label("accuracy!"), None);
    for e in catalogue().filter(|e| e.code.starts_with("label.")) {
        let mut m = Message::new(e.code);
        for p in placeholders(e.en) {
            m = m.with(p, "v");
        }
        assert_eq!(parse_label(&m.to_string()), Some(m), "{}", e.code);
    }
}

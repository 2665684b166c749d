//! Unit tests of the tokenizer on a tiny hand-written `tokenizer.json`.

use super::*;
use crate::tables::{MARK_NONSPACING, OTHER, PUNCTUATION, STRIP_ACCENTS};

fn tiny(normalizer: &str, added: &str) -> Tokenizer {
    let json = format!(
        r###"{{"added_tokens": [{added}], "normalizer": {normalizer},
            "pre_tokenizer": {{"type": "BertPreTokenizer"}},
            "post_processor": {{"type": "TemplateProcessing",
              "single": [{{"SpecialToken": {{"id": "[CLS]", "type_id": 0}}}},
                         {{"Sequence": {{"id": "A", "type_id": 0}}}},
                         {{"SpecialToken": {{"id": "[SEP]", "type_id": 0}}}}],
              "special_tokens": {{"[CLS]": {{"id": "[CLS]", "ids": [2], "tokens": ["[CLS]"]}},
                                 "[SEP]": {{"id": "[SEP]", "ids": [3], "tokens": ["[SEP]"]}}}}}},
            "model": {{"type": "WordPiece", "unk_token": "[UNK]",
              "continuing_subword_prefix": "##", "max_input_chars_per_word": 5,
              "vocab": {{"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "[MASK]": 4,
                "a": 5, "##b": 6, "ab": 7, "e": 8, "!": 9, "，": 10, "梗": 11,
                "\u1112": 12, "##\u1161": 13, "##\u11AB": 14}}}}}}"###
    );
    Tokenizer::from_json(&json).unwrap()
}

const LOWER: &str = r#"{"type": "BertNormalizer", "clean_text": true,
    "handle_chinese_chars": true, "strip_accents": null, "lowercase": true}"#;
const CASED: &str = r#"{"type": "BertNormalizer", "clean_text": true,
    "handle_chinese_chars": true, "strip_accents": null, "lowercase": false}"#;
const MASK: &str = r#"{"id": 4, "content": "[MASK]", "single_word": false, "lstrip": false,
    "rstrip": false, "normalized": false, "special": true}"#;

#[test]
fn word_piece_and_specials() {
    let t = tiny(LOWER, "");
    assert_eq!(t.encode(""), vec![2, 3]);
    assert_eq!(t.encode("ab abb a!"), vec![2, 7, 7, 6, 5, 9, 3]);
    // "abc" cannot be covered → the whole word is unknown, not "ab" + [UNK].
    assert_eq!(t.tokenize("abc"), vec![1]);
    // Longer than max_input_chars_per_word (5).
    assert_eq!(t.tokenize("abbbbb"), vec![1]);
    assert_eq!(t.tokenize("abbbb"), vec![7, 6, 6, 6]);
    assert_eq!((t.special_prefix_len(), t.special_suffix_len()), (1, 1));
}

#[test]
fn normalizer_steps() {
    let t = tiny(LOWER, "");
    // Accents stripped then lowercased; full-width comma is punctuation; CJK spaced.
    assert_eq!(t.normalize("ÉA\u{301}\u{7}\n梗"), "ea  梗 ");
    assert_eq!(t.tokenize("É，梗!"), vec![8, 10, 11, 9]);
    // Hangul syllables decompose into jamo when stripping accents.
    assert_eq!(t.tokenize("한"), vec![12, 13, 14]);
    let cased = tiny(CASED, "");
    assert_eq!(cased.normalize("É"), "É");
}

#[test]
fn added_tokens_and_truncation() {
    let t = tiny(LOWER, MASK);
    // "b" alone is unknown ("##b" only continues); "[mask]" is not the raw added token.
    assert_eq!(t.tokenize("a[MASK]b [mask]"), vec![5, 4, 1, 1, 1, 1]);
    let short = t.clone().with_max_len(4);
    assert_eq!(short.encode("a a a a"), vec![2, 5, 5, 3]);
    assert_eq!(t.clone().with_max_len(1).encode("a"), vec![2, 3]);
    assert_eq!(t.token_id("[MASK]"), Some(4));
    assert_eq!(t.vocab_size(), 15);
}

#[test]
fn unsupported_configuration_is_refused() {
    let bad = r#"{"normalizer": {"type": "NFKC"}, "model": {"unk_token": "[UNK]", "vocab": {"[UNK]": 0}}}"#;
    assert!(Tokenizer::from_json(bad).is_err());
    let no_unk = r#"{"model": {"unk_token": "[UNK]", "vocab": {"a": 0}}}"#;
    assert!(Tokenizer::from_json(no_unk).is_err());
}

#[test]
fn tables_are_sorted() {
    for table in [PUNCTUATION, MARK_NONSPACING, OTHER] {
        assert!(table.windows(2).all(|w| w[0].1 < w[1].0));
    }
    assert!(STRIP_ACCENTS.windows(2).all(|w| w[0].0 < w[1].0));
}

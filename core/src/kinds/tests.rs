//! Unit tests for `crate::kinds`.

use super::*;

#[test]
fn every_kind_round_trips_its_storage_key() {
    for kind in TaskKind::ALL {
        assert_eq!(TaskKind::parse(kind.as_str()), Some(kind));
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(json, format!("\"{}\"", kind.as_str()));
    }
}

#[test]
fn stored_json_of_earlier_versions_still_decodes() {
    // Rows as written before kinds became plug-ins.
    let prompt: ItemPrompt =
        serde_json::from_str(r#"{"kind":"text_mcq","sentence":"a _____","options":["x","y"]}"#)
            .unwrap();
    assert_eq!(prompt.kind(), TaskKind::TextMcq);
    let gold: ItemGold = serde_json::from_str(r#"{"kind":"choice","correct":1}"#).unwrap();
    assert_eq!(gold, ItemGold::TextMcq(text_mcq::Gold { correct: 1 }));
    let gold: ItemGold =
        serde_json::from_str(r#"{"kind":"explanation","meaning":"m","origin":null}"#).unwrap();
    assert_eq!(gold.kind(), TaskKind::Explanation);
    let answer: AnswerValue = serde_json::from_str(r#"{"kind":"choice","option":3}"#).unwrap();
    assert_eq!(answer, AnswerValue::TextMcq(text_mcq::Answer { option: 3 }));
    let answer: AnswerValue = serde_json::from_str(r#"{"kind":"text","text":"t"}"#).unwrap();
    assert_eq!(answer.kind(), TaskKind::Explanation);
    let prompt: ItemPrompt =
        serde_json::from_str(r#"{"kind":"explanation","meme":"yyds"}"#).unwrap();
    assert_eq!(
        serde_json::to_string(&prompt).unwrap(),
        r#"{"kind":"explanation","meme":"yyds"}"#
    );
}

/// Decodes `json` with [`tag_first_deserialize!`]'s decoder (what the browser app uses).
pub(crate) fn view_tag_first(json: &str) -> serde_json::Result<PromptView> {
    PromptView::deserialize_tag_first(&mut serde_json::Deserializer::from_str(json))
}

/// Decodes `json` with [`tag_first_deserialize!`]'s decoder (what the browser app uses).
pub(crate) fn review_tag_first(json: &str) -> serde_json::Result<ReviewDetail> {
    ReviewDetail::deserialize_tag_first(&mut serde_json::Deserializer::from_str(json))
}

#[test]
fn tag_first_decoding_matches_the_derived_one() {
    let prompt: text_mcq::Prompt =
        serde_json::from_str(r#"{"sentence":"a _____","options":["x","y","z"]}"#).unwrap();
    let view = PromptView::TextMcq(text_mcq::TextMcq::present(&prompt, 3, "p").view);
    let json = serde_json::to_string(&view).unwrap();
    assert!(json.starts_with(r#"{"kind":"text_mcq","#), "{json}");
    assert_eq!(view_tag_first(&json).unwrap(), view);
    assert_eq!(serde_json::from_str::<PromptView>(&json).unwrap(), view);
    let prompt: explanation::Prompt = serde_json::from_str(r#"{"meme":"yyds"}"#).unwrap();
    let view = PromptView::Explanation(explanation::Explanation::present(&prompt, 1, "p").view);
    let json = serde_json::to_string(&view).unwrap();
    assert_eq!(view_tag_first(&json).unwrap(), view);
    // Only the tag's position differs: serde always writes it first.
    let moved = r#"{"meme":"yyds","kind":"explanation"}"#;
    assert!(serde_json::from_str::<PromptView>(moved).is_ok());
    let err = view_tag_first(moved).unwrap_err().to_string();
    assert!(
        err.contains(r#"expected the "kind" tag as the first field"#),
        "{err}"
    );
    let err = view_tag_first(r#"{"kind":"quiz","meme":"m"}"#)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown variant `quiz`"), "{err}");
    assert!(review_tag_first(r#"{"kind":"text_mcq"}"#).is_err());
}

#[test]
fn mismatched_kinds_are_an_error_not_a_score() {
    let gold = ItemGold::TextMcq(text_mcq::Gold { correct: 0 });
    let text = AnswerValue::Explanation(explanation::Answer { text: "x".into() });
    let err = score_stored(gold, text).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a `text_mcq` stored answer, found a `explanation` one"
    );
}

/// Every kind's run conditions have distinct names, distinct values and a default among
/// them, so a submission that names none is valid.
#[test]
fn every_kinds_conditions_are_well_formed() {
    for kind in TaskKind::ALL {
        crate::with_kind!(kind, K => {
            let mut names = std::collections::BTreeSet::new();
            for c in K::CONDITIONS {
                assert!(names.insert(c.name), "{kind:?}: `{}` twice", c.name);
                assert!(c.values.contains(&c.default), "{kind:?}: `{}`", c.name);
                let distinct: std::collections::BTreeSet<_> = c.values.iter().collect();
                assert_eq!(distinct.len(), c.values.len(), "{kind:?}: `{}`", c.name);
            }
        });
    }
}

/// The `kind` tags of the wire enums are stored and sent as they are, and serde would
/// silently tag a variant without a name of its own by its Rust name (`ToyChoice`): every
/// variant of the enums without `rename_all` names its tag, in snake case, one per kind.
#[test]
fn every_wire_variant_names_a_snake_case_tag() {
    let source = include_str!("wire.rs");
    for name in ["ItemGold", "AnswerValue", "AnswerInput"] {
        let start = source
            .find(&format!("pub enum {name} {{"))
            .unwrap_or_else(|| panic!("enum {name} in wire.rs"));
        let body = &source[start..];
        let body = &body[..body.find("\n}").expect("end of the enum")];
        let lines: Vec<&str> = body.lines().skip(1).map(str::trim).collect();
        let mut tags = std::collections::BTreeSet::new();
        let mut variants = 0;
        for (i, line) in lines.iter().enumerate() {
            if !line.starts_with(|c: char| c.is_ascii_uppercase()) {
                continue;
            }
            variants += 1;
            let tag = lines[..i]
                .iter()
                .rev()
                .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                .find_map(|l| l.strip_prefix("#[serde(rename = \"")?.strip_suffix("\")]"));
            let tag = tag.unwrap_or_else(|| panic!("{name}::{line} names no serde tag"));
            assert!(
                !tag.is_empty() && tag.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{name}::{line}: tag `{tag}` is not snake case"
            );
            assert!(tags.insert(tag), "{name}: tag `{tag}` twice");
        }
        assert_eq!(
            variants,
            TaskKind::ALL.len(),
            "{name}: one variant per kind"
        );
    }
}

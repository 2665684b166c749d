//! Tests of reading one answer: letters, numbers, option texts and what is rejected.

use super::super::*;
use super::parse;
use serde_json::json;

#[test]
fn every_documented_letter_form_reads_as_its_option() {
    for (text, want) in [
        ("B", 1),
        ("b", 1),
        (" D ", 3),
        ("(B)", 1),
        ("[b]", 1),
        ("（B）", 1),
        ("B.", 1),
        ("B)", 1),
        ("B:", 1),
        ("B：", 1),
        ("B、", 1),
        ("B．", 1),
        ("B）", 1),
        ("B) Nyan Cat", 1),
        ("B. nyan cat", 1),
        ("B) Nyan Cat.", 1),
        ("(B) Nyan Cat", 1),
        ("A. I'm not sure", 0),
        ("Option B", 1),
        ("option c", 2),
        ("OPTION: A", 0),
        ("Answer: (b)", 1),
        ("answer B.", 1),
        ("Choice 2", 1),
        ("选项B", 1),
        ("选项：C", 2),
        ("答案：B", 1),
        ("答案:D", 3),
        ("答案 2", 1),
    ] {
        assert_eq!(parse(json!(text)), Ok(want), "{text}");
    }
}

#[test]
fn numbers_are_one_based_as_json_integers_or_digit_texts() {
    for (answer, want) in [
        (json!(1), 0),
        (json!(4), 3),
        (json!("2"), 1),
        (json!(" 3 "), 2),
    ] {
        assert_eq!(parse(answer.clone()), Ok(want), "{answer}");
    }
    let expected = |found: &str| {
        Err(format!(
            "expected a letter A to D, a number 1 to 4 or the text of one option, found {found}"
        ))
    };
    assert_eq!(parse(json!(0)), expected("0"));
    assert_eq!(parse(json!(5)), expected("5"));
    assert_eq!(parse(json!(-1)), expected("-1"));
    assert_eq!(parse(json!(2.0)), expected("2.0"));
    assert_eq!(parse(json!("0")), expected("\"0\""));
    assert_eq!(parse(json!("5")), expected("\"5\""));
    assert_eq!(parse(json!("2.")), expected("\"2.\""));
}

#[test]
fn option_texts_match_exactly_then_up_to_letter_case() {
    assert_eq!(parse(json!("Trololo")), Ok(2));
    assert_eq!(parse(json!("  Numa Numa ")), Ok(3));
    assert_eq!(parse(json!("NYAN CAT")), Ok(1));
    let options = ["Cat", "cat", "Dog"].map(String::from);
    assert_eq!(parse_clip_answer(&json!("cat"), &options), Ok(1));
    assert_eq!(parse_clip_answer(&json!("Cat"), &options), Ok(0));
    assert_eq!(
            parse_clip_answer(&json!("CAT"), &options),
            Err(
                "ambiguous: \"CAT\" is the text of options A and B up to letter case (write the letter)"
                    .into()
            )
        );
    // Non-ASCII texts compare as written, and up to case where they have it.
    let options = ["躺平", "Ärger"].map(String::from);
    assert_eq!(parse_clip_answer(&json!("躺平"), &options), Ok(0));
    assert_eq!(parse_clip_answer(&json!("ärger"), &options), Ok(1));
}

#[test]
fn an_answer_that_reads_two_ways_must_name_one_option() {
    // Number 2 is B, but C's text is "2".
    let options = ["3", "1", "2", "4"].map(String::from);
    assert_eq!(
            parse_clip_answer(&json!("2"), &options),
            Err("ambiguous: \"2\" reads as option B but is also the text of option C (write the letter alone)".into())
        );
    // A JSON number is a number.
    assert_eq!(parse_clip_answer(&json!(2), &options), Ok(1));
    // Both readings agree: fine.
    let options = ["1", "2"].map(String::from);
    assert_eq!(parse_clip_answer(&json!("2"), &options), Ok(1));
    // A letter that is another option's text.
    let options = ["B", "A"].map(String::from);
    assert_eq!(
            parse_clip_answer(&json!("A"), &options),
            Err("ambiguous: \"A\" reads as option A but is also the text of option B (write the letter alone)".into())
        );
    assert_eq!(parse_clip_answer(&json!("(A)"), &options), Ok(0));
    // An option's whole text that starts like a letter form is that option.
    let options = ["Nyan Cat", "A.I. voice", "A) B) C)"].map(String::from);
    assert_eq!(parse_clip_answer(&json!("A.I. voice"), &options), Ok(1));
    assert_eq!(parse_clip_answer(&json!("A) B) C)"), &options), Ok(2));
    assert_eq!(parse_clip_answer(&json!("A. something"), &options), Ok(0));
}

#[test]
fn a_letter_followed_by_another_options_text_is_contradictory() {
    assert_eq!(
        parse(json!("B) Trololo")),
        Err("\"B) Trololo\" names option B but then gives the text of option C".into())
    );
    assert_eq!(
        parse(json!("(A) numa numa")),
        Err("\"(A) numa numa\" names option A but then gives the text of option D".into())
    );
    assert_eq!(parse(json!("B) Trololo?")), Ok(1));
}

#[test]
fn anything_else_is_rejected_saying_what_was_expected() {
    let expected = |found: &str| {
        Err(format!(
            "expected a letter A to D, a number 1 to 4 or the text of one option, found {found}"
        ))
    };
    for text in [
        "E",
        "e)",
        "(E)",
        "Option E",
        "B is right",
        "Bb",
        "Nyan",
        "",
        "  ",
        "the answer is B",
        "Ｂ",
    ] {
        assert_eq!(
            parse(json!(text)),
            expected(&json!(text).to_string()),
            "{text}"
        );
    }
    assert_eq!(parse(json!(true)), expected("true"));
    assert_eq!(parse(json!(["B"])), expected("[\"B\"]"));
    assert_eq!(
        parse(json!({"letter": "B"})),
        expected("{\"letter\":\"B\"}")
    );
    let long = "x".repeat(60);
    let Err(message) = parse(json!(long)) else {
        panic!("a long text read as an option")
    };
    assert!(message.ends_with(&format!("found \"{}…", "x".repeat(39))));
    // Letters stop at the item's last option; more than 26 options stop at Z.
    let two = ["yes", "no"].map(String::from);
    assert_eq!(
        parse_clip_answer(&json!("C"), &two),
        Err(
            "expected a letter A to B, a number 1 to 2 or the text of one option, found \"C\""
                .into()
        )
    );
    let many: Vec<String> = (0..30).map(|k| format!("o{k}")).collect();
    assert_eq!(parse_clip_answer(&json!("Z"), &many), Ok(25));
    assert_eq!(parse_clip_answer(&json!(30), &many), Ok(29));
    assert!(parse_clip_answer(&json!("z?"), &many)
        .unwrap_err()
        .starts_with("expected a letter A to Z, a number 1 to 30"));
    assert_eq!(
        parse_clip_answer(&json!("A"), &[]),
        Err("this item has no options to choose from, found \"A\"".into())
    );
}

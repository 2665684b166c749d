//! Unit tests of the rating kind.

use super::*;
use crate::human_eval::accuracy::Verdict3::{Agree, Disagree, Neutral};
use crate::kinds::{AnswerInput, AnswerValue, ItemGold, PromptView};

fn prompt(protocol: RatingProtocol) -> Prompt {
    Prompt {
        protocol,
        subject: RatedSubject::Comic {
            panels: vec!["/media/a.png".into(), "/media/b.png".into()],
            title: Some("Cat".into()),
            caption: None,
        },
        reference: Some(Reference {
            meaning: "gold meaning".into(),
            origin: None,
            examples: vec![],
        }),
        output: ExplainedOutput {
            meaning: "a cat".into(),
            origin: None,
            example: Some("ex".into()),
        },
        has_context: true,
        statements: None,
        one_page_per_subject: false,
        error_labels: vec![],
    }
}

fn scores(context: Option<u8>) -> DimensionScores {
    DimensionScores {
        visual_correctness: 3,
        panel_coherence: 2,
        humour_comprehension: 1,
        context_handling: context,
        faithfulness: 2,
    }
}

#[test]
fn present_and_accept_round_trip_through_the_wire() {
    let p = prompt(RatingProtocol::Accuracy);
    let shown = Rating::present(&p, 7, "r1");
    assert!(shown.order.is_empty());
    assert_eq!(shown.view.output, p.output);
    assert_eq!(shown.view.reference, p.reference);
    let input = Answer::Accuracy {
        meaning: Agree,
        origin: None,
        example: Some(Disagree),
        errors: vec![],
    };
    let wire = serde_json::to_string(&AnswerInput::Rating(input.clone())).unwrap();
    assert_eq!(
        wire,
        r#"{"kind":"rating","protocol":"accuracy","meaning":"agree","example":"disagree"}"#
    );
    let back: AnswerInput = serde_json::from_str(&wire).unwrap();
    let input = Rating::input_of(back).unwrap();
    let answer = Rating::accept(&p, &shown.order, input.clone()).unwrap();
    assert_eq!(answer, input);
    let stored = serde_json::to_string(&AnswerValue::Rating(answer.clone())).unwrap();
    let read: AnswerValue = serde_json::from_str(&stored).unwrap();
    assert_eq!(Rating::answer_of(read).unwrap(), answer);
    assert_eq!(
        Rating::score(
            &Gold {
                submission_id: Some("s".into()),
                source_item: "i".into(),
                planted: None,
                batch: 0
            },
            &answer
        ),
        Scoring::Unscored
    );

    let d = prompt(RatingProtocol::Dimensions);
    let answer = Answer::Dimensions {
        scores: scores(Some(3)),
        errors: vec![],
    };
    let wire = serde_json::to_string(&AnswerInput::Rating(answer.clone())).unwrap();
    let back = Rating::input_of(serde_json::from_str(&wire).unwrap()).unwrap();
    assert_eq!(Rating::accept(&d, &[], back), Ok(answer));
}

#[test]
fn refuses_the_wrong_protocol_missing_fields_and_bad_scores() {
    let a = prompt(RatingProtocol::Accuracy);
    let d = prompt(RatingProtocol::Dimensions);
    let dims = |context| Answer::Dimensions {
        scores: scores(context),
        errors: vec![],
    };
    let err = Rating::accept(&a, &[], dims(Some(1))).unwrap_err();
    assert_eq!(err.field, "answer.protocol");
    assert_eq!(
        err.to_string(),
        "`answer.protocol`: this page asks for a `accuracy` rating, found a `dimensions` one"
    );
    // The output has an example but no origin.
    let no_example = Answer::Accuracy {
        meaning: Neutral,
        origin: None,
        example: None,
        errors: vec![],
    };
    assert_eq!(
        Rating::accept(&a, &[], no_example).unwrap_err().field,
        "answer.example"
    );
    let extra_origin = Answer::Accuracy {
        meaning: Neutral,
        origin: Some(Agree),
        example: Some(Agree),
        errors: vec![],
    };
    assert_eq!(
        Rating::accept(&a, &[], extra_origin)
            .unwrap_err()
            .to_string(),
        "`answer.origin`: this output has no origin: leave the origin verdict out"
    );
    assert_eq!(
        Rating::accept(&d, &[], dims(None)).unwrap_err().field,
        "answer.scores.context_handling"
    );
    let mut no_context = d.clone();
    no_context.has_context = false;
    assert!(Rating::accept(&no_context, &[], dims(Some(2))).is_err());
    assert!(Rating::accept(&no_context, &[], dims(None)).is_ok());
    let mut bad = scores(Some(2));
    bad.faithfulness = 4;
    assert_eq!(
        Rating::accept(
            &d,
            &[],
            Answer::Dimensions {
                scores: bad,
                errors: vec![]
            }
        )
        .unwrap_err()
        .to_string(),
        "`answer.scores`: `faithfulness`: expected a score from 1 to 3, found 4"
    );
    // A missing field in the JSON is refused by the decoder.
    assert!(serde_json::from_str::<AnswerInput>(
        r#"{"kind":"rating","protocol":"dimensions","scores":{"visual_correctness":1}}"#
    )
    .is_err());
    assert!(
        serde_json::from_str::<AnswerInput>(r#"{"kind":"rating","protocol":"accuracy"}"#).is_err()
    );
}

#[test]
fn nothing_sent_to_the_rater_names_the_submission() {
    let p = prompt(RatingProtocol::Accuracy);
    let gold = Gold {
        submission_id: Some("sub-secret-123".into()),
        source_item: "explain-1".into(),
        planted: None,
        batch: 2,
    };
    let view =
        serde_json::to_string(&PromptView::Rating(Rating::present(&p, 1, "x").view)).unwrap();
    let answer = Answer::Accuracy {
        meaning: Agree,
        origin: None,
        example: Some(Agree),
        errors: vec![],
    };
    let review = Rating::review(ReviewInput {
        prompt: &p,
        order: &[],
        answer: &answer,
        gold: Some(&gold),
        outcome: None,
        source_note: None,
    });
    let review = serde_json::to_string(&crate::kinds::ReviewDetail::Rating(review)).unwrap();
    // The browser's tag-first decoder reads both as serde's derived one does.
    assert_eq!(
        crate::kinds::tests::view_tag_first(&view).unwrap(),
        serde_json::from_str::<PromptView>(&view).unwrap()
    );
    assert_eq!(
        crate::kinds::tests::review_tag_first(&review).unwrap(),
        serde_json::from_str::<crate::kinds::ReviewDetail>(&review).unwrap()
    );
    for text in [view, review] {
        assert!(!text.contains("sub-secret-123"), "{text}");
        assert!(!text.contains("explain-1"), "{text}");
    }
    let stored = serde_json::to_string(&ItemGold::Rating(gold)).unwrap();
    assert!(stored.contains(r#""kind":"rating""#));
}

#[test]
fn error_tags_come_from_the_page_once_each_on_an_output_judged_wrong() {
    use crate::human_eval::error_labels::{chime_error_labels, cmpm_error_labels};
    let mut a = prompt(RatingProtocol::Accuracy);
    a.error_labels = chime_error_labels();
    let verdicts = |meaning, example, tags: &[&str]| Answer::Accuracy {
        meaning,
        origin: None,
        example: Some(example),
        errors: tags.iter().map(|t| (*t).to_owned()).collect(),
    };
    // Tagged after a Disagree on any field, also on the example only.
    let ok = verdicts(Agree, Disagree, &["semantic_shift", "origin_confusion"]);
    assert_eq!(Rating::accept(&a, &[], ok.clone()), Ok(ok.clone()));
    assert!(ok.judged_wrong());
    // The wire: the tags after the verdicts, absent when none.
    let wire = serde_json::to_string(&AnswerInput::Rating(verdicts(
        Disagree,
        Agree,
        &["semantic_shift"],
    )))
    .unwrap();
    assert_eq!(
        wire,
        r#"{"kind":"rating","protocol":"accuracy","meaning":"disagree","example":"agree","errors":["semantic_shift"]}"#
    );
    let cases = [
        (
            verdicts(Agree, Neutral, &["semantic_shift"]),
            "`answer.errors`: error labels are for an explanation judged wrong: disagree with at least one statement first",
        ),
        (
            verdicts(Disagree, Agree, &["contrast_swap"]),
            "`answer.errors`: `contrast_swap` is not one of this page's error labels (origin_confusion, semantic_shift, cross_type_confusion)",
        ),
        (
            verdicts(Disagree, Agree, &["semantic_shift", "semantic_shift"]),
            "`answer.errors`: `semantic_shift` is tagged twice",
        ),
    ];
    for (answer, says) in cases {
        assert_eq!(
            Rating::accept(&a, &[], answer).unwrap_err().to_string(),
            says
        );
    }
    // A page without labels takes no tag.
    let plain = prompt(RatingProtocol::Accuracy);
    let err =
        Rating::accept(&plain, &[], verdicts(Disagree, Agree, &["semantic_shift"])).unwrap_err();
    assert!(err.to_string().contains("error labels (none)"), "{err}");

    // Dimensions: some score 1 makes the output wrong.
    let mut d = prompt(RatingProtocol::Dimensions);
    d.error_labels = cmpm_error_labels();
    let tagged = |s: DimensionScores| Answer::Dimensions {
        scores: s,
        errors: vec!["reply_misorder".into()],
    };
    assert!(Rating::accept(&d, &[], tagged(scores(Some(3)))).is_ok());
    let mut good = scores(Some(3));
    good.humour_comprehension = 2;
    assert_eq!(
        Rating::accept(&d, &[], tagged(good)).unwrap_err().to_string(),
        "`answer.errors`: error labels are for an explanation judged wrong: score at least one dimension 1 first"
    );
    // Stored rows of earlier versions (no labels, no tags) decode unchanged.
    let old: Prompt = serde_json::from_str(
        r#"{"protocol":"accuracy","subject":{"kind":"meme","phrase":"x"},"output":{"meaning":"m"}}"#,
    )
    .unwrap();
    assert!(old.error_labels.is_empty());
    let view = serde_json::to_string(&Rating::present(&old, 1, "i").view).unwrap();
    assert!(!view.contains("error_labels"), "{view}");
}

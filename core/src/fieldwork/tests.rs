//! Unit tests for `crate::fieldwork`.

use super::*;

#[test]
fn templates_are_filled_and_encoded() {
    let h = Handoff {
        completion_url_template: Some("/?handoff={code}&p={participant}&s={study}".into()),
        ..Default::default()
    };
    let ids = HandoffIds {
        participant_id: "P-1",
        prolific_pid: None,
        study_id: Some("a b&c"),
        session_id: None,
        completion_code: Some("XYZ"),
    };
    assert_eq!(
        completion_handoff(&h, &ids),
        Some(("/?handoff=XYZ&p=P-1&s=a%20b%26c".into(), "XYZ".into()))
    );
}

#[test]
fn settings_are_validated_field_by_field() {
    let mut s = FieldworkSettings::default();
    assert!(s.validate().is_ok());
    s.handoff.completion_url_template = Some("javascript:alert(1)".into());
    assert!(s
        .validate()
        .unwrap_err()
        .to_string()
        .contains("completion_url_template"));
    s.handoff.completion_url_template = Some("//evil.example/x".into());
    assert!(s.validate().is_err());
    s.handoff.completion_url_template = None;
    s.quality.screen_out_failed_headphones = true;
    assert!(s.validate().unwrap_err().to_string().contains("screen-out"));
    s.handoff.prolific_screenout_code = Some("SO-1".into());
    assert!(s.validate().is_ok());
    s.handoff.prolific_completion_code = Some("bad code".into());
    assert!(s.validate().is_err());
}

#[test]
fn exclusion_rules_apply_in_order() {
    let rules = QualityRules {
        min_median_ms: Some(1000),
        min_item_ms: Some(500),
        fast_share_percent: Some(50),
        straightline_percent: Some(100),
        ..Default::default()
    };
    let fast = SessionFacts {
        completed: true,
        response_ms: vec![100, 200, 5000],
        ..Default::default()
    };
    assert_eq!(
        exclusion(&rules, false, &fast).unwrap().code,
        ExclusionCode::TooFastMedian
    );
    let some_fast = SessionFacts {
        completed: true,
        response_ms: vec![100, 200, 5000, 6000],
        ..Default::default()
    };
    assert_eq!(
        exclusion(&rules, false, &some_fast).unwrap().code,
        ExclusionCode::TooFastItems
    );
    let same = SessionFacts {
        completed: true,
        choice_positions: vec![2; 6],
        ..Default::default()
    };
    let r = exclusion(&rules, false, &same).unwrap();
    assert_eq!(r.code, ExclusionCode::StraightLining);
    assert_eq!(
        r.en,
        "chose display position 3 in 6 of 6 answers (limit 100%)"
    );
    let few = SessionFacts {
        completed: true,
        choice_positions: vec![2; 3],
        ..Default::default()
    };
    assert_eq!(exclusion(&rules, false, &few), None);
    let deaf = SessionFacts {
        headphone_passed: Some(false),
        ..Default::default()
    };
    assert_eq!(exclusion(&rules, false, &deaf), None);
    assert_eq!(
        exclusion(&rules, true, &deaf).unwrap().code,
        ExclusionCode::FailedHeadphoneCheck
    );
}

#[test]
fn planted_outputs_judged_the_wrong_way_round_exclude_when_the_rule_is_on() {
    use crate::human_eval::dimensions::DimensionScores;
    use crate::kinds::rating::{Answer, Planted};
    let flat = |v| Answer::Dimensions {
        scores: DimensionScores {
            visual_correctness: v,
            panel_coherence: v,
            humour_comprehension: v,
            context_handling: None,
            faithfulness: v,
        },
        errors: vec![],
    };
    assert!(planted_failed(Planted::Reference, &flat(1)));
    assert!(!planted_failed(Planted::Reference, &flat(2)));
    assert!(planted_failed(Planted::OtherMeaning, &flat(3)));
    assert!(!planted_failed(Planted::OtherMeaning, &flat(2)));
    let facts = SessionFacts {
        completed: true,
        planted_judged: 2,
        planted_failed: 1,
        ..Default::default()
    };
    assert_eq!(exclusion(&QualityRules::default(), false, &facts), None);
    let rules = QualityRules {
        planted_checks: true,
        ..Default::default()
    };
    let r = exclusion(&rules, false, &facts).unwrap();
    assert_eq!(r.code, ExclusionCode::FailedPlantedChecks);
    assert_eq!(
        r.en,
        "judged 1 of 2 planted outputs of known quality the wrong way round"
    );
    assert_eq!(
        ExclusionCode::parse("failed_planted_checks"),
        Some(ExclusionCode::FailedPlantedChecks)
    );
}

#[test]
fn check_texts_exist_in_both_languages_for_every_target() {
    for t in 0..CHECK_OPTIONS {
        assert!(check_instruction(false, t).contains(check_option_labels(false)[usize::from(t)]));
        assert!(check_instruction(true, t).contains(check_option_labels(true)[usize::from(t)]));
    }
}

#[test]
fn pilot_sessions_are_excluded_first_and_stored_settings_stay_valid() {
    // Even with no rule on, and before any other reason.
    let facts = SessionFacts {
        pilot: true,
        screened_out: true,
        completed: true,
        ..Default::default()
    };
    let r = exclusion(&QualityRules::default(), false, &facts).unwrap();
    assert_eq!(r.code, ExclusionCode::Pilot);
    assert_eq!(ExclusionCode::parse("pilot"), Some(ExclusionCode::Pilot));
    // Settings stored before pilot mode read as pilot mode off.
    let old: FieldworkSettings = serde_json::from_str(r#"{"participant_target": 5}"#).unwrap();
    assert!(!old.pilot);
    let on: FieldworkSettings = serde_json::from_str(r#"{"pilot": true}"#).unwrap();
    assert!(on.pilot);
}

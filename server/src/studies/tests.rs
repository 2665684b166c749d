//! Tests of the studies module: rater links and the exports' column dictionaries.

use super::*;
use std::collections::BTreeSet;

#[test]
fn rater_links_carry_the_invitation_and_prolific_parameters() {
    let (link, prolific) = links("s-rate", Some("abc"));
    assert_eq!(link, "/quiz/s-rate?invite=abc");
    assert_eq!(
        prolific,
        "/quiz/s-rate?invite=abc&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}"
    );
    assert!(links("s-rate", None)
        .1
        .starts_with("/quiz/s-rate?PROLIFIC_PID="));
}

#[test]
fn the_export_dictionary_names_every_column_once_and_the_docs_list_them_in_order() {
    let names: BTreeSet<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
    assert_eq!(names.len(), JUDGEMENT_COLUMNS.len());
    let doc = include_str!("../../../docs/human-evaluation.md");
    let documented: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("### Export"))
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let served: Vec<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
    assert_eq!(documented, served);
}

#[test]
fn the_rater_export_names_every_field_of_a_rater_row_and_the_docs_list_them_in_order() {
    use memeboard_core::human_eval::raters::{RaterRow, RaterScale};
    let row = RaterRow {
        rater: "r".into(),
        scale: RaterScale::Verdicts,
        batch: Some("1".into()),
        judgements: 1,
        raters: 2,
        with_rater: None,
        without_rater: None,
        loo_delta: None,
        planted_judged: 0,
        planted_pass_rate: None,
        competence: None,
    };
    let value = serde_json::to_value(&row).unwrap();
    let fields: BTreeSet<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let served: Vec<&str> = RATER_COLUMNS.iter().map(|(c, _)| *c).collect();
    assert_eq!(fields, served.iter().copied().collect::<BTreeSet<_>>());
    assert_eq!(fields.len(), served.len());
    let served: Vec<&str> = RATER_COLUMNS
        .iter()
        .chain(RATER_THRESHOLD_COLUMNS)
        .map(|(c, _)| *c)
        .collect();
    let doc = include_str!("../../../docs/human-evaluation.md");
    let documented: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("## 8. Per-rater reliability"))
        .take_while(|l| !l.starts_with("**Leave-one-out"))
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    assert_eq!(documented, served);
}

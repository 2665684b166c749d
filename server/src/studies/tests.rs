//! Tests of the studies module: rater links and the judgement export's column dictionary.

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
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .collect();
    let served: Vec<&str> = JUDGEMENT_COLUMNS.iter().map(|(c, _)| *c).collect();
    assert_eq!(documented, served);
}

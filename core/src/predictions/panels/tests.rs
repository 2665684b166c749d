//! Unit tests for `crate::predictions::panels`.

use super::*;
use crate::kinds::panels::StructureType::*;
use crate::metrics::{Metric, OutcomeValue, Verdict};
use crate::predictions::Split;

/// Items `c1`…`c{count}` of four panels each.
fn manifest(count: usize) -> TaskManifest {
    TaskManifest {
        task: "t".into(),
        items: (1..=count)
            .map(|k| ManifestItem {
                id: format!("c{k}"),
                category: "x".into(),
                split: Split::Test,
                options: (1..=4).map(|d| d.to_string()).collect(),
            })
            .collect(),
    }
}

fn orders(text: &str, format: FileFormat) -> Result<ValidatedPanelFile<Vec<usize>>, Vec<String>> {
    validate_orders(text, format, &manifest(3), Limits::default()).map_err(|r| r.lines())
}

fn types(text: &str, format: FileFormat) -> Result<ValidatedPanelFile<StructureType>, Vec<String>> {
    validate_types(text, format, &manifest(3), Limits::default()).map_err(|r| r.lines())
}

#[test]
fn every_documented_order_form_parses() {
    let want = Some(vec![3, 1, 2, 4]);
    for text in [
        "3,1,2,4",
        "3, 1, 2, 4",
        "3 ,1 , 2,4",
        "3 1 2 4",
        "3  1\t2 4",
        "[3,1,2,4]",
        "[ 3, 1, 2, 4 ]",
        "(3 1 2 4)",
        "3-1-2-4",
        "3 - 1 - 2 - 4",
        "3>1>2>4",
        "3->1->2->4",
        "3 -> 1 -> 2 -> 4",
        "3=>1=>2=>4",
        "3→1→2→4",
        "3 → 1 → 2 → 4",
        "3，1，2，4",
        "3、1、2、4",
        "3;1;2;4",
        "3,1 2→4",
        "3,1,2,4.",
        "[3,1,2,4]。",
        "  03,1,2,4  ",
    ] {
        assert_eq!(parse_order(text, 4), want, "{text:?}");
    }
    assert_eq!(parse_order("1", 1), Some(vec![1]));
    assert_eq!(
        parse_order("10 9 8 7 6 5 4 3 2 1 11", 11).map(|o| o[0]),
        Some(10)
    );
}

#[test]
fn orders_that_are_not_permutations_or_not_numbers_do_not_parse() {
    for text in [
        "1,2",
        "1,2,3,4,5",
        "1,1,2,3",
        "0,1,2,3",
        "1,2,3,5",
        "3,,1,2,4",
        "3,1,2,4,",
        ",3,1,2,4",
        "3-->1-2-4",
        "3.1.2.4",
        "31 2 4",
        "[3,1,2,4",
        "panel 3 first",
        "three, one, two, four",
        "３,１,２,４",
        "99999999999999999999999,1,2,3",
        "",
        "  ",
        "[]",
    ] {
        assert_eq!(parse_order(text, 4), None, "{text:?}");
    }
    assert_eq!(parse_order("", 0), None);
}

#[test]
fn a_structure_is_read_when_exactly_one_type_occurs() {
    for t in StructureType::ALL {
        assert_eq!(parse_structure(t.key()), Some(t));
        assert_eq!(parse_structure(t.name_zh()), Some(t));
        assert_eq!(
            parse_structure(&format!("Answer: {}", t.key().to_uppercase())),
            Some(t)
        );
        assert_eq!(
            parse_structure(&format!("结构类型：{}型", t.name_zh())),
            Some(t)
        );
    }
    assert_eq!(parse_structure("\"Comparison.\""), Some(Comparison));
    assert_eq!(parse_structure("Type: Narrative"), Some(Narrative));
    assert_eq!(parse_structure("narrative (叙事)"), Some(Narrative));
    assert_eq!(
        parse_structure("Narrative. It is narrative."),
        Some(Narrative)
    );
    assert_eq!(parse_structure("non-narrative"), Some(Narrative));
    assert_eq!(parse_structure("类型narrative"), Some(Narrative));
    assert_eq!(
        parse_structure("narratives are fun, this is parallel"),
        Some(Parallel)
    );
    for text in [
        "narrative or parallel",
        "Narrative, not comparison",
        "叙事还是对比",
        "narrative 对比",
        "narratives",
        "narrative_type",
        "narrative2",
        "a story",
        "",
    ] {
        assert_eq!(parse_structure(text), None, "{text:?}");
    }
}

#[test]
fn order_files_read_the_same_in_json_lines_and_csv() {
    let json = [
        r#"{"item_id": "c1", "order": [3, 1, 2, 4]}"#,
        "",
        r#"{"item_id": " c3 ", "order": "3 → 1 → 2 → 4"}"#,
    ]
    .join("\n");
    let csv = "\u{feff}Item_ID,order\nc1,\"3,1,2,4\"\n\nc3,3 → 1 → 2 → 4\n";
    for (text, format) in [
        (json.as_str(), FileFormat::JsonLines),
        (csv, FileFormat::Csv),
    ] {
        let ok = orders(text, format).unwrap();
        assert_eq!(ok.item_ids, vec!["c1", "c2", "c3"]);
        assert_eq!(
            ok.predictions,
            vec![
                Some(Parsed::Value(vec![3, 1, 2, 4])),
                None,
                Some(Parsed::Value(vec![3, 1, 2, 4]))
            ]
        );
        assert_eq!(ok.missing, vec!["c2"]);
        assert_eq!(ok.num_lines, 2);
        assert_eq!(ok.num_unparseable(), 0);
        assert_eq!(
            ok.missing_warning().as_deref(),
            Some("1 item(s) have no prediction and are counted as unparseable: c2")
        );
    }
}

#[test]
fn an_order_that_is_there_but_does_not_parse_is_kept_not_rejected() {
    let long = "I think the first panel to read is the third one, then ".repeat(3);
    let text = [
        r#"{"item_id": "c1", "order": [1, 2]}"#.to_owned(),
        r#"{"item_id": "c2", "order": ""}"#.to_owned(),
        format!(r#"{{"item_id": "c3", "order": "{long}"}}"#),
    ]
    .join("\n");
    let ok = orders(&text, FileFormat::JsonLines).unwrap();
    let kept: String = long
        .trim()
        .chars()
        .take(MAX_UNPARSEABLE_CHARS - 1)
        .collect();
    assert_eq!(
        ok.predictions,
        vec![
            Some(Parsed::Unparseable("[1,2]".into())),
            Some(Parsed::Unparseable(String::new())),
            Some(Parsed::Unparseable(format!("{kept}…"))),
        ]
    );
    if let Some(Some(Parsed::Unparseable(s))) = ok.predictions.last() {
        assert_eq!(s.chars().count(), MAX_UNPARSEABLE_CHARS);
    }
    assert_eq!(ok.num_unparseable(), 3);
    assert_eq!(ok.missing_warning(), None);

    // Other JSON shapes: kept as their JSON text.
    for (order, kept) in [
        ("7", "7"),
        ("3.5", "3.5"),
        ("true", "true"),
        (r#"{"a": 1}"#, r#"{"a":1}"#),
        (r#"["3","1","2","4"]"#, r#"["3","1","2","4"]"#),
        ("[3, 1, 2, -4]", "[3,1,2,-4]"),
        ("[3, 1, 2, 4.0]", "[3,1,2,4.0]"),
    ] {
        let ok = orders(
            &format!(r#"{{"item_id": "c1", "order": {order}}}"#),
            FileFormat::JsonLines,
        )
        .unwrap();
        assert_eq!(
            ok.predictions[0],
            Some(Parsed::Unparseable(kept.into())),
            "{order}"
        );
    }

    // CSV: the column is there, so an empty cell is an empty answer.
    let ok = orders(
        "item_id,order\nc1,\nc2, words \nc3,\"1,2,3,4\"\n",
        FileFormat::Csv,
    )
    .unwrap();
    assert_eq!(
        ok.predictions,
        vec![
            Some(Parsed::Unparseable(String::new())),
            Some(Parsed::Unparseable("words".into())),
            Some(Parsed::Value(vec![1, 2, 3, 4])),
        ]
    );
}

#[test]
fn framing_problems_reject_an_order_file_with_line_and_field() {
    let text = [
        r#"{"item_id": "c1", "order": [1, 2, 3, 4]"#,
        r#"{"order": [1, 2, 3, 4]}"#,
        r#"{"item_id": "c9", "order": [1, 2, 3, 4]}"#,
        r#"{"item_id": "c2"}"#,
        r#"{"item_id": "c3", "order": null}"#,
        r#"{"item_id": "c1", "order": "1 2 3 4", "model": "x"}"#,
        r#"{"item_id": "c1", "order": "4 3 2 1"}"#,
        r#"{"item_id": 3, "order": "4 3 2 1"}"#,
    ]
    .join("\n");
    assert_eq!(
        orders(&text, FileFormat::JsonLines).unwrap_err(),
        vec![
            "line 1: not valid JSON (column 39): EOF while parsing an object at line 1 column 39",
            "line 2, field `item_id`: missing",
            "line 3, field `item_id`: unknown item id `c9`",
            "line 4, field `order`: missing",
            "line 5, field `order`: missing",
            "line 6, field `model`: unknown field (expected item_id, order)",
            "line 7, field `item_id`: duplicate prediction for `c1`; first on line 6",
            "line 8, field `item_id`: expected text, found 3",
        ]
    );
    assert_eq!(
        orders("item_id,order,model\nc1,1 2 3 4,x\n", FileFormat::Csv).unwrap_err(),
        vec!["line 1, field `model`: unknown column (expected item_id, order)"]
    );
    assert_eq!(
        orders("item_id,answer\nc1,1 2 3 4\n", FileFormat::Csv).unwrap_err(),
        vec!["line 1: expected a header row with columns item_id,order, found `item_id,answer`"]
    );
    assert_eq!(
        orders(
            "item_id,order\nc1,1 2 3 4\nc1,4 3 2 1\n,1 2 3 4\n",
            FileFormat::Csv
        )
        .unwrap_err(),
        vec![
            "line 3, field `item_id`: duplicate prediction for `c1`; first on line 2",
            "line 4, field `item_id`: missing",
        ]
    );
    assert_eq!(
        orders("[1, 2, 3, 4]", FileFormat::JsonLines).unwrap_err(),
        vec!["line 1: expected a JSON object like {\"item_id\": \"…\", \"order\": [3, 1, 2, 4]}"]
    );
    assert_eq!(
        orders("", FileFormat::JsonLines).unwrap_err(),
        vec!["file contains no predictions"]
    );
}

#[test]
fn an_items_number_of_panels_is_its_number_of_options() {
    let mut m = manifest(2);
    m.items[1].options = vec!["1".into(), "2".into()];
    let ok = validate_orders(
        "item_id,order\nc1,2 1\nc2,2 1\n",
        FileFormat::Csv,
        &m,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(
        ok.predictions,
        vec![
            Some(Parsed::Unparseable("2 1".into())),
            Some(Parsed::Value(vec![2, 1]))
        ]
    );
}

#[test]
fn type_files_keep_unparseable_labels_and_reject_framing_problems() {
    let json = [
        r#"{"item_id": "c1", "structure": "Narrative"}"#,
        r#"{"item_id": "c2", "structure": "对比"}"#,
        r#"{"item_id": "c3", "structure": "narrative or parallel"}"#,
    ]
    .join("\n");
    let csv = "item_id,structure\nc1,Narrative\nc2,对比\nc3,narrative or parallel\n";
    for (text, format) in [
        (json.as_str(), FileFormat::JsonLines),
        (csv, FileFormat::Csv),
    ] {
        let ok = types(text, format).unwrap();
        assert_eq!(
            ok.predictions,
            vec![
                Some(Parsed::Value(Narrative)),
                Some(Parsed::Value(Comparison)),
                Some(Parsed::Unparseable("narrative or parallel".into())),
            ]
        );
        assert_eq!(ok.num_unparseable(), 1);
        assert!(ok.missing.is_empty());
    }
    let ok = types("item_id,structure\nc1,\n", FileFormat::Csv).unwrap();
    assert_eq!(ok.predictions[0], Some(Parsed::Unparseable(String::new())));
    let ok = types(
        r#"{"item_id": "c1", "structure": " "}"#,
        FileFormat::JsonLines,
    )
    .unwrap();
    assert_eq!(ok.predictions[0], Some(Parsed::Unparseable(String::new())));

    let text = [
        r#"{"item_id": "c1"}"#,
        r#"{"item_id": "c2", "structure": ["narrative"]}"#,
        r#"{"item_id": "c3", "structure": "parallel", "order": [1]}"#,
        r#"{"item_id": "c3", "structure": "parallel"}"#,
    ]
    .join("\n");
    assert_eq!(
        types(&text, FileFormat::JsonLines).unwrap_err(),
        vec![
            "line 1, field `structure`: missing",
            "line 2, field `structure`: expected text, found [\"narrative\"]",
            "line 3, field `order`: unknown field (expected item_id, structure)",
            "line 4, field `item_id`: duplicate prediction for `c3`; first on line 3",
        ]
    );
}

#[test]
fn the_missing_warning_names_five_then_an_ellipsis() {
    let m = manifest(8);
    let ok = validate_types(
        r#"{"item_id":"c4","structure":"parallel"}"#,
        FileFormat::JsonLines,
        &m,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(ok.missing.len(), 7);
    assert_eq!(
        ok.missing_warning().as_deref(),
        Some("7 item(s) have no prediction and are counted as unparseable: c1, c2, c3, c5, c6, …")
    );
}

fn order_gold(id: &str) -> OrderGold {
    OrderGold {
        item_id: id.into(),
        category: "cat".into(),
        display: vec![4, 2, 1, 3],
        order_groups: vec![vec![1], vec![2, 3], vec![4]],
        subsets: vec!["main".into()],
    }
}

#[test]
fn orders_score_by_group_aware_reading_order_and_keep_unparseable_apart() {
    let m = TaskManifest {
        task: "t".into(),
        items: manifest(6).items,
    };
    let text =
        "item_id,order\nc1,\"3,2,4,1\"\nc2,3 4 2 1\nc3,\"1,2,3,4\"\nc4,\"1,2\"\nc6,4 1 3 2\n";
    let file = validate_orders(text, FileFormat::Csv, &m, Limits::default()).unwrap();
    let gold: Vec<OrderGold> = (1..=6).map(|k| order_gold(&format!("c{k}"))).collect();
    let outcomes = order_outcomes(&gold, &file);
    let verdicts: Vec<OutcomeValue> = outcomes.iter().map(|o| o.value.clone()).collect();
    use Verdict::*;
    // c6: "4 1 3 2" reads canonical 3, 4, 1, 2: wrong.
    assert_eq!(
        verdicts,
        [Correct, Correct, Wrong, Unparseable, Unparseable, Wrong].map(OutcomeValue::Verdict)
    );
    assert!(outcomes
        .iter()
        .all(|o| o.category == "cat" && o.in_subset("main")));
    assert_eq!(outcomes[3].item, "c4");
    assert_eq!(Metric::AccuracyOnParseable.compute(&outcomes), Some(0.5));
    assert_eq!(Metric::ParseRate.compute(&outcomes), Some(4.0 / 6.0));
    assert_eq!(Metric::Accuracy.compute(&outcomes), Some(2.0 / 6.0));
}

#[test]
fn gold_out_of_step_with_the_file_is_skipped_not_misscored() {
    let file = orders(
        r#"{"item_id":"c1","order":"3 2 4 1"}"#,
        FileFormat::JsonLines,
    )
    .unwrap();
    // c2 and c3 swapped, and one gold item more than the manifest.
    let gold: Vec<OrderGold> = ["c1", "c3", "c2", "c4"].map(order_gold).to_vec();
    let outcomes = order_outcomes(&gold, &file);
    assert_eq!(outcomes.len(), 1);
    assert_eq!(outcomes[0].value, OutcomeValue::Verdict(Verdict::Correct));
    assert!(order_outcomes(&[], &file).is_empty());
}

#[test]
fn types_score_to_labels_for_f1_and_the_confusion_matrix() {
    let text = "item_id,structure\nc1,Narrative\nc2,comparison\nc3,dunno\n";
    let file = types(text, FileFormat::Csv).unwrap();
    let gold: Vec<TypeGold> = [("c1", Narrative), ("c2", Parallel), ("c3", Comparison)]
        .map(|(id, s)| TypeGold {
            item_id: id.into(),
            category: "cat".into(),
            structure: s,
            subsets: vec!["main".into(), "ctx".into()],
        })
        .to_vec();
    let outcomes = type_outcomes(&gold, &file);
    let label = |g: &str, p: Option<&str>| OutcomeValue::Label {
        gold: g.into(),
        predicted: p.map(Into::into),
    };
    assert_eq!(
        outcomes.iter().map(|o| o.value.clone()).collect::<Vec<_>>(),
        vec![
            label("narrative", Some("narrative")),
            label("parallel", Some("comparison")),
            label("comparison", None),
        ]
    );
    assert!(outcomes.iter().all(|o| o.subsets == ["main", "ctx"]));
    // Classes narrative (F1 1), parallel (0), comparison (TP 0, FP 1, FN 1: 0).
    assert_eq!(Metric::MacroF1.compute(&outcomes), Some(1.0 / 3.0));
    assert_eq!(Metric::ParseRate.compute(&outcomes), Some(2.0 / 3.0));
    let mut swapped = gold.clone();
    swapped.swap(0, 1);
    assert_eq!(type_outcomes(&swapped, &file).len(), 1);
}

#[test]
fn parsed_answers_serialise_externally_tagged() {
    let v: Parsed<Vec<usize>> = Parsed::Value(vec![2, 1]);
    assert_eq!(serde_json::to_string(&v).unwrap(), r#"{"value":[2,1]}"#);
    let u: Parsed<StructureType> = Parsed::Unparseable("?".into());
    assert_eq!(serde_json::to_string(&u).unwrap(), r#"{"unparseable":"?"}"#);
    let back: Parsed<StructureType> = serde_json::from_str(r#"{"value":"parallel"}"#).unwrap();
    assert_eq!(back, Parsed::Value(Parallel));
}

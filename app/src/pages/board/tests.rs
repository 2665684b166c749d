//! Unit tests of the board page's sorting, ranks, filters, links and label names.

use super::metrics::{label_text, metric_text};
use super::nav::{board_href, subset_text};
use super::*;
use crate::format;
use crate::i18n::Lang;
use memeboard_core::api::{BoardRow, ModelInfo, RowKind, SubmissionStatus, Weights};
use memeboard_core::leaderboard::CategoryEstimate;
use memeboard_core::stats::Estimate;

fn model(label: &str, overall: Option<f64>, params: &str, at: i64) -> BoardRow {
    BoardRow {
        flags: Vec::new(),
        confusion: None,
        kind: RowKind::Model,
        label: label.into(),
        submission_id: Some(format!("S-{label}")),
        model: Some(ModelInfo {
            model_name: label.into(),
            organisation: format!("org {label}"),
            parameters: Some(params.into()).filter(|p: &String| !p.is_empty()),
            weights: Weights::Open,
            link: None,
            description: String::new(),
            conditions: Default::default(),
        }),
        submitted_at: Some(at),
        status: if overall.is_some() {
            SubmissionStatus::Scored
        } else {
            SubmissionStatus::Received
        },
        scores: overall
            .map(|v| {
                vec![CategoryEstimate {
                    category: None,
                    items: 10,
                    estimate: Some(Estimate {
                        value: v,
                        ci_low: v,
                        ci_high: v,
                    }),
                    suppressed: false,
                }]
            })
            .unwrap_or_default(),
        participants: None,
        participants_before_exclusions: None,
        source: None,
        extra: vec![],
    }
}

fn rows() -> Vec<BoardRow> {
    vec![
        model("b", Some(0.9), "70B", 3),
        model("A", Some(0.5), "7B", 1),
        model("c", Some(0.7), "", 2),
        model("blind", None, "1T", 4),
    ]
}

fn reference(kind: RowKind, label: &str, overall: f64) -> BoardRow {
    let mut r = model(label, Some(overall), "", 0);
    r.kind = kind;
    r.model = None;
    r.submission_id = None;
    r.submitted_at = None;
    r
}

#[test]
fn reference_rows_are_never_ranked() {
    let rows = vec![
        reference(RowKind::HumanBest, "Human best", 0.95),
        model("a", Some(0.9), "7B", 1),
        reference(RowKind::HumanAverage, "Human average", 0.8),
        model("b", Some(0.5), "70B", 2),
        reference(RowKind::Chance, "Chance", 0.25),
        model("blind", None, "", 3),
    ];
    assert_eq!(
        model_ranks(&rows),
        vec![None, Some(1), None, Some(2), None, None]
    );
}

#[test]
fn sizes_fall_into_buckets() {
    assert_eq!(SizeFilter::bucket(Some("7B")), SizeFilter::UpTo10B);
    assert_eq!(SizeFilter::bucket(Some("350M")), SizeFilter::UpTo10B);
    assert_eq!(SizeFilter::bucket(Some("10B")), SizeFilter::UpTo10B);
    assert_eq!(SizeFilter::bucket(Some("70b")), SizeFilter::From10To100B);
    assert_eq!(SizeFilter::bucket(Some("1.8T")), SizeFilter::Over100B);
    assert_eq!(SizeFilter::bucket(Some("175B")), SizeFilter::Over100B);
    assert_eq!(SizeFilter::bucket(Some("big")), SizeFilter::Unknown);
    assert_eq!(SizeFilter::bucket(None), SizeFilter::Unknown);
    for s in SizeFilter::ALL {
        assert_eq!(SizeFilter::parse(Some(s.key())), s);
    }
    assert_eq!(SizeFilter::parse(Some("huge")), SizeFilter::All);
    assert_eq!(WeightsFilter::parse(Some("open")), WeightsFilter::Open);
    assert_eq!(WeightsFilter::parse(None), WeightsFilter::All);
}

#[test]
fn dates_read_as_utc_day_starts() {
    assert_eq!(day_start_ms("1970-01-01"), Some(0));
    assert_eq!(day_start_ms("2026-01-01"), Some(1_767_225_600_000));
    assert_eq!(
        format::date(day_start_ms("2024-02-29").unwrap()),
        "2024-02-29"
    );
    assert_eq!(day_start_ms("2026-02-30"), None);
    assert_eq!(day_start_ms("2026-13-01"), None);
    assert_eq!(day_start_ms("yesterday"), None);
    assert_eq!(day_start_ms(""), None);
}

#[test]
fn filters_keep_reference_rows_and_matching_models() {
    let day = 86_400_000;
    let mut closed = model("closed", Some(0.6), "1.8T", 20_000 * day);
    closed.model.as_mut().unwrap().weights = Weights::Closed;
    let rows = [
        model("small", Some(0.7), "7B", 10_000 * day),
        closed,
        model("nosize", Some(0.5), "", 20_000 * day),
        reference(RowKind::Chance, "Chance", 0.25),
    ];
    let kept = |f: &Filters| -> Vec<&str> {
        rows.iter()
            .filter(|r| f.keeps(r))
            .map(|r| r.label.as_str())
            .collect()
    };
    let f = Filters::from_query(Some("open"), None, None);
    assert_eq!(kept(&f), vec!["small", "nosize", "Chance"]);
    let f = Filters::from_query(None, Some("gt100b"), None);
    assert_eq!(kept(&f), vec!["closed", "Chance"]);
    let f = Filters::from_query(None, Some("unknown"), None);
    assert_eq!(kept(&f), vec!["nosize", "Chance"]);
    let since = format::date(15_000 * day);
    let f = Filters::from_query(None, None, Some(&since));
    assert_eq!(kept(&f), vec!["closed", "nosize", "Chance"]);
    assert!(f.is_active());
    // Unknown values are no filter.
    let f = Filters::from_query(Some("x"), Some("y"), Some("not a date"));
    assert!(!f.is_active());
    assert_eq!(kept(&f).len(), 4);
    assert_eq!(
        Filters::from_query(Some("open"), Some("le10b"), Some("2026-01-01")).params(),
        [
            ("weights", Some("open".to_owned())),
            ("size", Some("le10b".to_owned())),
            ("since", Some("2026-01-01".to_owned())),
            ("condition", None),
        ]
    );
}

/// A model row names how it was run where that differs from the defaults; the condition
/// filter keeps the runs under one value; differences read with their sign and interval.
#[test]
fn run_conditions_label_rows_filter_them_and_word_differences() {
    use super::conditions::{delta_text, RunConditions};
    use memeboard_core::api::PairedDifference;
    use memeboard_core::tasks::TaskKind;
    let conditions = RunConditions {
        specs: TaskKind::TextMcq.conditions(),
        kind: Some(TaskKind::TextMcq),
    };
    let run = |value: &str| {
        let mut r = model("m", Some(0.5), "", 0);
        if let Some(m) = r.model.as_mut() {
            m.conditions.insert("options".into(), value.into());
        }
        r
    };
    let (plain, meanings) = (run("labels_only"), run("with_meanings"));
    let text = |r: &BoardRow| conditions.row_text(Lang::En, r.model.as_ref().unwrap());
    assert_eq!(text(&plain), None);
    assert_eq!(
        text(&meanings).as_deref(),
        Some("with each option's meaning")
    );
    let zh = conditions.row_text(Lang::Zh, meanings.model.as_ref().unwrap());
    assert_eq!(zh.as_deref(), Some("附各选项释义"));
    assert!(conditions.choices(Lang::En).contains(&(
        "options=with_meanings".into(),
        "Options: with each option's meaning".into()
    )));

    let f = Filters::from_query(None, None, None).with_condition(Some("options=with_meanings"));
    assert!(f.is_active());
    assert!(f.keeps(&meanings) && !f.keeps(&plain));
    assert!(f.keeps(&reference(RowKind::Chance, "Chance", 0.2)));
    assert_eq!(
        f.params()[3],
        ("condition", Some("options=with_meanings".to_owned()))
    );
    assert!(!Filters::default().with_condition(Some("")).is_active());

    let mut d = PairedDifference {
        model: "m".into(),
        condition: "options".into(),
        from: "labels_only".into(),
        to: "with_meanings".into(),
        from_submission: "S-1".into(),
        to_submission: "S-2".into(),
        delta: 0.125,
        ci_low: None,
        ci_high: None,
        items: 12,
    };
    assert_eq!(delta_text(&d), format!("+{}", format::accuracy(0.125)));
    d.delta = -0.05;
    d.ci_low = Some(-0.1);
    d.ci_high = Some(0.0);
    assert_eq!(
        delta_text(&d),
        format!(
            "−{} [−{}, +{}]",
            format::accuracy(0.05),
            format::accuracy(0.1),
            format::accuracy(0.0)
        )
    );
}

#[test]
fn query_changes_keep_other_parameters() {
    let current = vec![
        ("split".to_owned(), "private".to_owned()),
        ("weights".to_owned(), "open".to_owned()),
    ];
    assert_eq!(
        with_params("/boards/x", &current, &[("attempts", Some("all".into()))]),
        "/boards/x?split=private&weights=open&attempts=all"
    );
    assert_eq!(
        with_params(
            "/boards/x",
            &current,
            &[("weights", Some("closed".into())), ("size", None)]
        ),
        "/boards/x?split=private&weights=closed"
    );
    assert_eq!(
        with_params("/boards/x", &current[1..], &[("weights", None)]),
        "/boards/x"
    );
}

#[test]
fn scores_sort_both_ways_with_blind_rows_last() {
    let r = rows();
    assert_eq!(
        sorted_indices(&r, SortKey::Score(0), SortDir::Descending),
        vec![0, 2, 1, 3]
    );
    assert_eq!(
        sorted_indices(&r, SortKey::Score(0), SortDir::Ascending),
        vec![1, 2, 0, 3]
    );
    assert_eq!(
        sorted_indices(&r, SortKey::Rank, SortDir::Descending),
        vec![3, 2, 1, 0]
    );
}

#[test]
fn text_and_sizes_sort_sensibly() {
    let r = rows();
    assert_eq!(
        sorted_indices(&r, SortKey::Label, SortDir::Ascending),
        vec![1, 0, 3, 2]
    );
    // Sizes by magnitude; a row without a size goes last.
    assert_eq!(
        sorted_indices(&r, SortKey::Parameters, SortDir::Descending),
        vec![3, 0, 1, 2]
    );
    assert_eq!(
        sorted_indices(&r, SortKey::Submitted, SortDir::Ascending),
        vec![1, 2, 0, 3]
    );
}

#[test]
fn first_clicks_and_splits() {
    assert_eq!(SortKey::Score(2).first_direction(), SortDir::Descending);
    assert_eq!(SortKey::Label.first_direction(), SortDir::Ascending);
    assert_eq!(SortDir::Ascending.flip().aria(), "descending");
    assert_eq!(parse_split(Some("private")), BoardSplit::Private);
    assert_eq!(parse_split(Some("whole")), BoardSplit::Whole);
    assert_eq!(parse_split(Some("x")), BoardSplit::Public);
    assert_eq!(parse_split(None), BoardSplit::Public);
}

#[test]
fn board_links_keep_split_and_subset() {
    assert_eq!(
        board_href("clips", BoardSplit::Public, None),
        "/boards/clips"
    );
    assert_eq!(
        board_href("clips", BoardSplit::Public, Some("main")),
        "/boards/clips?subset=main"
    );
    assert_eq!(
        board_href("clips", BoardSplit::Private, Some("full")),
        "/boards/clips?split=private&subset=full"
    );
    assert_eq!(
        board_href("clips", BoardSplit::Whole, None),
        "/boards/clips?split=whole"
    );
}

#[test]
fn clip_figures_and_subsets_are_named() {
    assert_eq!(metric_text(Lang::En, "sound:speech"), "sound: speech");
    assert_eq!(metric_text(Lang::Zh, "sound:speech"), "声音类型：语音");
    assert_eq!(
        metric_text(Lang::En, "lang:none"),
        "language: none (no words)"
    );
    assert_eq!(metric_text(Lang::En, "parse rate"), "parse rate");
    assert_eq!(metric_text(Lang::En, "something"), "something");
    assert_eq!(
        metric_text(Lang::Zh, "origin cosine (items with an origin)"),
        "出处余弦（有出处的题目）"
    );
    assert_eq!(label_text(Lang::Zh, "accuracy"), "准确率");
    assert_eq!(label_text(Lang::En, "accuracy"), "accuracy");
    assert_eq!(subset_text(Lang::En, "full"), "All items");
    assert_eq!(subset_text(Lang::En, "odd"), "odd");
}

/// A category column is left out only when every figure in it is withheld for too few items:
/// one row with a figure keeps it, and a column of dashes alone (nothing suppressed) stays.
#[test]
fn a_category_column_is_dropped_only_when_every_figure_in_it_is_withheld() {
    let cell = |value: Option<f64>, suppressed: bool| CategoryEstimate {
        category: Some("slang".into()),
        items: if suppressed { 3 } else { 12 },
        estimate: value.map(|v| Estimate {
            value: v,
            ci_low: v,
            ci_high: v,
        }),
        suppressed,
    };
    let with = |cells: Vec<CategoryEstimate>| {
        cells
            .into_iter()
            .map(|c| {
                let mut r = model("m", Some(0.5), "", 0);
                r.scores.push(c);
                r
            })
            .collect::<Vec<_>>()
    };
    let withheld = with(vec![cell(None, true), cell(None, true)]);
    assert!(crate::components::score::all_suppressed(&withheld, 1));
    assert!(
        !crate::components::score::all_suppressed(&withheld, 0),
        "the overall column"
    );
    let one_shown = with(vec![cell(None, true), cell(Some(0.4), false)]);
    assert!(!crate::components::score::all_suppressed(&one_shown, 1));
    let dashes = with(vec![cell(None, false), cell(None, false)]);
    assert!(!crate::components::score::all_suppressed(&dashes, 1));
    assert!(
        !crate::components::score::all_suppressed(&withheld, 2),
        "no such column"
    );
}

/// A paper's row goes by its own name, with its own badge and key, and no rank.
#[test]
fn published_rows_are_marked_and_not_ranked() {
    use crate::components::score::{kind_key, kind_text, row_label};
    let mut r = reference(RowKind::Published, "GPT-4o", 0.75);
    r.source = Some("CHIME (EMNLP 2025), Table 4".into());
    assert_eq!(row_label(Lang::En, &r), "GPT-4o");
    assert_eq!(kind_key(r.kind), "published");
    assert_eq!(kind_text(Lang::En, r.kind), "published");
    let ranks = super::sort::model_ranks(&[model("m", Some(0.5), "", 0), r]);
    assert_eq!(ranks, vec![Some(1), None]);
}

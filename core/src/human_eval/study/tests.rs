//! Unit tests for `crate::human_eval::study`.

use super::*;
use std::collections::BTreeSet;

fn out(m: &str) -> ExplainedOutput {
    ExplainedOutput {
        meaning: m.into(),
        origin: Some(format!("origin of {m}")),
        example: None,
    }
}

fn items(n: usize, categories: &[&str], split: Split, with_reference: bool) -> Vec<SourceItem> {
    (0..n)
        .map(|k| SourceItem {
            id: format!("{}{k:02}", split.as_str()),
            category: categories[k % categories.len()].into(),
            split,
            subject: RatedSubject::Meme {
                phrase: format!("phrase {k}"),
            },
            reference: with_reference.then(|| Reference {
                meaning: format!("gold meaning {k}"),
                origin: Some(format!("gold origin {k}")),
                examples: vec![format!("gold example {k}")],
            }),
            has_context: k % 2 == 0,
        })
        .collect()
}

fn board(ids: &[(&str, Option<f64>)], items: &[SourceItem]) -> Vec<BoardSubmission> {
    ids.iter()
        .map(|&(id, score)| BoardSubmission {
            id: id.into(),
            score,
            outputs: items
                .iter()
                .map(|i| (i.id.clone(), out(&format!("{id} says {}", i.id))))
                .collect(),
        })
        .collect()
}

fn request(protocol: StudyProtocol, pick: SubmissionPick) -> PlanRequest {
    PlanRequest {
        protocol,
        submissions: pick,
        items_per_category: 3,
        split: Split::Dev,
        invitation_only: false,
        batch_size: 5,
        raters_per_batch: 3,
        planted_checks: true,
        one_category_batches: false,
        one_page_per_subject: false,
        seed: 42,
    }
}

/// What a rater sees cannot tell planted pages: in every batch a planted subject has the
/// usual page count, every output text appears under one subject only in the whole plan,
/// planted subjects are no drawn item (so on no ranking page either way) and differ.
fn assert_plants_look_real(plan: &StudyPlan) {
    let mut subjects_of_text: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for r in &plan.ratings {
        subjects_of_text
            .entry(r.output.meaning.as_str())
            .or_default()
            .insert(r.source_item.as_str());
    }
    for (text, subjects) in &subjects_of_text {
        assert_eq!(subjects.len(), 1, "{text} under {subjects:?}");
    }
    let mut planted_subjects = BTreeSet::new();
    for batch in 1..=plan.rating_batches {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        let mut planted: BTreeSet<&str> = BTreeSet::new();
        for r in plan.ratings.iter().filter(|r| r.batch == batch) {
            *count.entry(r.source_item.as_str()).or_default() += 1;
            if r.planted.is_some() {
                planted.insert(r.source_item.as_str());
                assert!(!r.output.meaning.ends_with(&format!(" {}", r.source_item)));
            }
        }
        assert!(planted.len() <= 1);
        let max = count.values().copied().max().unwrap_or(0);
        for p in planted {
            assert!(!plan.source_items.iter().any(|i| i == p));
            assert!(planted_subjects.insert(p), "{p} planted twice");
            let real_max = count
                .iter()
                .filter(|(s, _)| **s != p)
                .map(|(_, n)| *n)
                .max()
                .unwrap_or(0);
            assert_eq!(count[p], real_max.min(max), "batch {batch}");
        }
    }
}

#[test]
fn no_spare_items_no_plant_and_the_owner_is_told() {
    let src = items(6, &["pun"], Split::Dev, true);
    let b = board(&[("s1", None), ("s2", None)], &src);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 2 });
    req.items_per_category = 6;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert!(plan.ratings.iter().all(|r| r.planted.is_none()));
    assert_eq!(plan.ratings.len(), 12);
    assert_eq!((plan.planted_groups, plan.unplanted_batches), (0, 3));
    // One spare item is not enough for a group (a subject and a donor): both batches told.
    req.items_per_category = 5;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!((plan.planted_groups, plan.unplanted_batches), (0, 2));
}

#[test]
fn accuracy_plan_pairs_every_drawn_item_with_every_submission_in_batches() {
    let mut src = items(10, &["pun", "slang"], Split::Dev, true);
    src.extend(items(4, &["pun"], Split::Test, true));
    let b = board(&[("s1", Some(0.5)), ("s2", Some(0.9)), ("s3", None)], &src);
    let plan = plan_study(
        &request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 2 }),
        &b,
        &src,
        0,
    )
    .unwrap();
    assert_eq!(plan.submissions, ["s2", "s1"]);
    assert_eq!(
        plan.per_category.values().copied().collect::<Vec<_>>(),
        [3, 3]
    );
    assert!(plan.source_items.iter().all(|i| i.starts_with("dev")));
    let real: Vec<&PlannedRating> = plan
        .ratings
        .iter()
        .filter(|r| r.planted.is_none())
        .collect();
    assert_eq!(real.len(), 12);
    // Each (item, submission) exactly once, and the output is that submission's.
    let pairs: BTreeSet<(String, String)> = real
        .iter()
        .map(|r| (r.source_item.clone(), r.submission_id.clone().unwrap()))
        .collect();
    assert_eq!(pairs.len(), 12);
    for r in &real {
        let sid = r.submission_id.as_deref().unwrap();
        assert_eq!(r.output.meaning, format!("{sid} says {}", r.source_item));
        assert!(r.reference.is_some());
    }
    // Batches of at most 5 pages in all: four spare items make two planted groups of 2 pages
    // (no planted reference: it would repeat the reference shown above it), each beside one
    // whole subject (2 pages: two subjects and a group would be 6); the other 8 real pages
    // fill a batch of 5 and a last one of 3, without plants.
    assert_eq!(plan.rating_batches, 4);
    assert_eq!((plan.planted_groups, plan.unplanted_batches), (2, 2));
    for batch in 1..=4 {
        let in_batch: Vec<_> = plan.ratings.iter().filter(|r| r.batch == batch).collect();
        assert_eq!(
            in_batch.len(),
            [4, 4, 5, 3][batch as usize - 1],
            "batch {batch}"
        );
        let planted: Vec<_> = in_batch.iter().filter_map(|r| r.planted).collect();
        let want: &[Planted] = if batch > 2 {
            &[]
        } else {
            &[Planted::OtherMeaning; 2]
        };
        assert_eq!(planted, want);
        for r in in_batch.iter().filter(|r| r.planted.is_some()) {
            assert!(r.output.meaning.contains(" says "), "{}", r.output.meaning);
            assert!(r.reference.is_some());
        }
    }
    assert_plants_look_real(&plan);
    assert!(plan.rankings.is_empty());
    assert!(plan.exposed_test_items.is_empty());
}

#[test]
fn a_planted_reference_only_where_pages_show_no_reference() {
    let src = items(12, &["pun"], Split::Dev, true);
    let b = board(&[("s1", None), ("s2", None)], &src);
    let mut req = request(StudyProtocol::Cmpm, SubmissionPick::Top { k: 2 });
    req.items_per_category = 6;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert!(plan.ratings.iter().all(|r| r.reference.is_none()));
    // Three planted groups, each beside one whole subject (batches of at most 5), then the 6
    // real pages left in batches of 5 and 1 without one.
    assert_eq!((plan.planted_groups, plan.unplanted_batches), (3, 2));
    for r in plan.ratings.iter() {
        if r.planted == Some(Planted::Reference) {
            let k: usize = r.source_item[3..].parse().unwrap();
            assert_eq!(r.output.meaning, format!("gold meaning {k}"));
        }
    }
    assert_plants_look_real(&plan);
    let planted: Vec<_> = plan.ratings.iter().filter_map(|r| r.planted).collect();
    assert_eq!(
        planted.iter().filter(|p| **p == Planted::Reference).count() as u32,
        plan.planted_groups
    );
}

#[test]
fn ids_are_opaque_unique_and_never_mention_a_submission() {
    let src = items(8, &["pun"], Split::Dev, false);
    let b = board(&[("alpha", None), ("bravo", None), ("charlie", None)], &src);
    let mut req = request(StudyProtocol::Cmpm, SubmissionPick::Top { k: 3 });
    req.items_per_category = 8;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    let mut all: Vec<&str> = plan.ratings.iter().map(|r| r.id.as_str()).collect();
    all.extend(plan.rankings.iter().map(|r| r.id.as_str()));
    let unique: BTreeSet<&str> = all.iter().copied().collect();
    assert_eq!(unique.len(), all.len());
    for id in all {
        assert_eq!(id.len(), 17);
        assert!(id.starts_with('j') && id[1..].chars().all(|c| c.is_ascii_hexdigit()));
        for s in ["alpha", "bravo", "charlie"] {
            assert!(!id.contains(s));
        }
    }
}

#[test]
fn cmpm_adds_one_ranking_page_per_item_with_every_submission() {
    let src = items(10, &["three_panel", "four_panel"], Split::Dev, false);
    let b = board(&[("a", None), ("b", None), ("c", None), ("d", None)], &src);
    let mut req = request(StudyProtocol::Cmpm, SubmissionPick::Top { k: 4 });
    req.batch_size = 4;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!(plan.source_items.len(), 6);
    // Six drawn comics and two planted subject groups (below), each ranked too.
    assert_eq!(plan.rankings.len(), 8);
    assert_eq!(plan.ranking_batches, 2);
    for r in plan.rankings.iter().filter(|r| r.submissions[0].is_some()) {
        assert_eq!(r.candidates.len(), 4);
        let subs: BTreeSet<&str> = r.submissions.iter().flatten().map(String::as_str).collect();
        assert_eq!(subs, BTreeSet::from(["a", "b", "c", "d"]));
        for (c, s) in r.candidates.iter().zip(r.submissions.iter().flatten()) {
            assert_eq!(c.meaning, format!("{s} says {}", r.source_item));
        }
    }
    // Every rated subject is ranked; a planted one's ranking page has no submissions behind
    // its candidates, which are the outputs its rating pages show.
    for rating in &plan.ratings {
        let ranked: Vec<&PlannedRanking> = plan
            .rankings
            .iter()
            .filter(|r| r.source_item == rating.source_item)
            .collect();
        assert_eq!(
            ranked.len(),
            1,
            "{} is rated, never ranked",
            rating.source_item
        );
        if rating.planted.is_some() {
            assert!(ranked[0].submissions.iter().all(Option::is_none));
            assert!(ranked[0].candidates.contains(&rating.output));
        }
    }
    // No references on comics: no planted reference, but planted groups of other comics'
    // outputs (four spare comics: two groups of four pages; the other four batches none).
    assert!(plan.ratings.iter().all(|r| r.reference.is_none()));
    assert_eq!(plan.rating_batches, 6);
    assert_eq!((plan.planted_groups, plan.unplanted_batches), (2, 4));
    let planted: Vec<_> = plan.ratings.iter().filter_map(|r| r.planted).collect();
    assert_eq!(planted.len(), 8);
    assert!(planted.iter().all(|p| *p == Planted::OtherMeaning));
    assert_plants_look_real(&plan);
    for r in plan.ratings.iter().filter(|r| r.planted.is_some()) {
        assert!(!r.output.meaning.ends_with(&format!(" {}", r.source_item)));
    }
}

#[test]
fn same_request_same_plan_and_another_seed_another_plan() {
    let src = items(12, &["pun", "slang"], Split::Dev, true);
    let b = board(&[("s1", Some(0.1)), ("s2", Some(0.2))], &src);
    let req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 2 });
    let a = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!(a, plan_study(&req, &b, &src, 0).unwrap());
    let mut other = req.clone();
    other.seed = 43;
    let c = plan_study(&other, &b, &src, 0).unwrap();
    assert_ne!(a.ratings[0].id, c.ratings[0].id);
}

#[test]
fn test_items_need_an_invitation_only_study_and_are_reported_as_exposed() {
    let mut src = items(4, &["pun"], Split::Dev, true);
    src.extend(items(5, &["pun"], Split::Test, true));
    let b = board(&[("s1", Some(0.3))], &src);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 1 });
    req.split = Split::Test;
    assert_eq!(
        plan_study(&req, &b, &src, 0),
        Err(PlanError::TestNeedsInvitation)
    );
    req.invitation_only = true;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!(plan.source_items.len(), 3);
    assert!(plan.source_items.iter().all(|i| i.starts_with("test")));
    // The planted subject's reference is shown too (the accuracy protocol's page).
    assert_eq!(plan.planted_groups, 1);
    assert_eq!(plan.exposed_test_items.len(), 4);
    assert!(plan
        .source_items
        .iter()
        .all(|i| plan.exposed_test_items.contains(i)));
}

#[test]
fn explicit_ids_keep_their_order_and_are_checked() {
    let src = items(4, &["pun"], Split::Dev, true);
    let b = board(&[("s1", Some(0.3)), ("s2", Some(0.9))], &src);
    let pick = |ids: &[&str]| SubmissionPick::Ids {
        ids: ids.iter().map(|s| s.to_string()).collect(),
    };
    let plan = plan_study(
        &request(StudyProtocol::Accuracy, pick(&["s1", "s2"])),
        &b,
        &src,
        0,
    )
    .unwrap();
    assert_eq!(plan.submissions, ["s1", "s2"]);
    let err = |p| {
        plan_study(&request(StudyProtocol::Accuracy, p), &b, &src, 0)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(err(pick(&["s9"])), "submission s9 is not on this board");
    assert_eq!(err(pick(&["s1", "s1"])), "submission s1 is listed twice");
    assert!(err(pick(&[])).contains("no submissions picked"));
    assert_eq!(
        err(SubmissionPick::Top { k: 3 }),
        "top 3 asked for but the board has 2 submissions"
    );
}

#[test]
fn clear_errors_for_what_cannot_be_planned() {
    let src = items(4, &["pun"], Split::Dev, true);
    let acc = |k| request(StudyProtocol::Accuracy, SubmissionPick::Top { k });
    assert_eq!(
        plan_study(&acc(1), &[], &src, 0),
        Err(PlanError::NoSubmissions)
    );
    // A submission without stored outputs.
    let mut b = board(&[("s1", Some(0.3)), ("s2", Some(0.1))], &src);
    b[1].outputs.clear();
    assert_eq!(
        plan_study(&acc(2), &b, &src, 0).unwrap_err().to_string(),
        "submission s2 has no stored outputs for the dev items; only submissions uploaded \
             with their explanations can be judged"
    );
    // Outputs for one item only: too few items.
    b[1].outputs.insert("dev00".into(), out("x"));
    assert_eq!(
        plan_study(&acc(2), &b, &src, 0).unwrap_err().to_string(),
        "only 1 dev items have an output from every picked submission and a reference; a \
             study needs at least 2"
    );
    // Ranking size.
    let six: Vec<(String, Option<f64>)> = (0..6).map(|k| (format!("m{k}"), None)).collect();
    let six: Vec<(&str, Option<f64>)> = six.iter().map(|(s, v)| (s.as_str(), *v)).collect();
    let b6 = board(&six, &src);
    let cmpm = |k| request(StudyProtocol::Cmpm, SubmissionPick::Top { k });
    assert_eq!(
        plan_study(&cmpm(6), &b6, &src, 0).unwrap_err().to_string(),
        "a CMPM study ranks 2 to 5 submissions per page; 6 picked"
    );
    assert!(matches!(
        plan_study(&cmpm(1), &b6, &src, 0),
        Err(PlanError::RankingSize { picked: 1, .. })
    ));
    // Ranges.
    let mut r = acc(1);
    r.batch_size = 0;
    assert_eq!(
        plan_study(&r, &b6, &src, 0).unwrap_err().to_string(),
        "batch_size is 0; expected 1 to 200"
    );
    // Comics without references cannot run the accuracy protocol.
    let comics = items(4, &["pun"], Split::Dev, false);
    let bc = board(&[("s1", None)], &comics);
    assert!(matches!(
        plan_study(&acc(1), &bc, &comics, 0),
        Err(PlanError::TooFewItems { eligible: 0, .. })
    ));
}

#[test]
fn planted_checks_off_gives_only_real_pages() {
    let src = items(4, &["pun"], Split::Dev, true);
    let b = board(&[("s1", Some(0.3))], &src);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 1 });
    req.planted_checks = false;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!(plan.ratings.len(), 3);
    assert!(plan.ratings.iter().all(|r| r.planted.is_none()));
}

#[test]
fn request_serde_defaults_to_dev_items_and_public_study() {
    let req: PlanRequest = serde_json::from_str(
        r#"{"protocol":"cmpm","submissions":{"pick":"top","k":3},"items_per_category":40,
                "batch_size":20,"raters_per_batch":3,"seed":1}"#,
    )
    .unwrap();
    assert_eq!(req.split, Split::Dev);
    assert!(!req.invitation_only && !req.planted_checks);
    assert_eq!(req.submissions, SubmissionPick::Top { k: 3 });
    assert_eq!(StudyProtocol::parse("cmpm"), Some(StudyProtocol::Cmpm));
    assert_eq!(
        StudyProtocol::parse(StudyProtocol::Accuracy.as_str()),
        Some(StudyProtocol::Accuracy)
    );
}

#[test]
fn batches_hold_the_pages_asked_for_planted_pages_included() {
    // The owner's "6 pages per batch" with two submissions once made 8, 8, 5.
    let src = items(16, &["pun"], Split::Dev, true);
    let b = board(&[("s1", None), ("s2", None)], &src);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 2 });
    req.items_per_category = 8;
    req.batch_size = 6;
    let plan = plan_study(&req, &b, &src, 0).unwrap();
    assert_eq!(
        plan.ratings.iter().filter(|r| r.planted.is_none()).count(),
        16
    );
    // Eight spare items: four planted groups, each with two subjects: 4 × 6 pages.
    assert_eq!(
        (
            plan.rating_batches,
            plan.planted_groups,
            plan.unplanted_batches
        ),
        (4, 4, 0)
    );
    for batch in 1..=plan.rating_batches {
        let n = plan.ratings.iter().filter(|r| r.batch == batch).count();
        assert_eq!(n, 6, "batch {batch}");
    }
    assert_plants_look_real(&plan);
}

/// CHIME's design (App. C.4): 40 dev memes of each of six types, seven models, batches of 20
/// memes of one type: 12 batches of 20 × 7 = 140 pages, 3 raters each — 36 rater sessions
/// and 3 verdicts per model and meme.
#[test]
fn the_chime_design_gives_the_papers_counts() {
    let types = ["a", "b", "c", "d", "e", "f"];
    let all = items(6 * 45, &types, Split::Dev, true);
    let models: Vec<(String, Option<f64>)> = (0..7)
        .map(|m| (format!("m{m}"), Some(0.9 - f64::from(m) * 0.1)))
        .collect();
    let ids: Vec<(&str, Option<f64>)> = models.iter().map(|(id, s)| (id.as_str(), *s)).collect();
    let subs = board(&ids, &all);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 7 });
    (req.items_per_category, req.batch_size, req.planted_checks) = (40, 140, false);
    req.one_category_batches = true;
    let plan = plan_study(&req, &subs, &all, 0).unwrap();
    assert_eq!(plan.source_items.len(), 240);
    assert_eq!((plan.rating_batches, plan.ratings.len()), (12, 12 * 140));
    for batch in 1..=12 {
        let pages: Vec<&PlannedRating> = plan.ratings.iter().filter(|r| r.batch == batch).collect();
        let memes: BTreeSet<&str> = pages.iter().map(|r| r.source_item.as_str()).collect();
        let categories: BTreeSet<&str> = pages.iter().map(|r| r.category.as_str()).collect();
        assert_eq!(
            (pages.len(), memes.len(), categories.len()),
            (140, 20, 1),
            "batch {batch}"
        );
    }
    // Raters per batch × batches is the task's target (the server's), 3 × 12 = 36.
    assert_eq!(req.raters_per_batch * plan.rating_batches as usize, 36);
}

/// With batches of one category, planted groups come from the batch's own category, and a
/// category without spare items leaves its batch unplanted rather than planting another type.
#[test]
fn one_category_batches_plant_only_their_own_category() {
    // Category "a" has spare items beyond the sample; "b" has none.
    let mut all = items(8, &["a"], Split::Dev, true);
    all.extend(items(3, &["b"], Split::Dev, true).into_iter().map(|mut i| {
        i.id = format!("b-{}", i.id);
        i
    }));
    let subs = board(&[("s1", Some(0.5)), ("s2", Some(0.4))], &all);
    let mut req = request(StudyProtocol::Accuracy, SubmissionPick::Top { k: 2 });
    (req.items_per_category, req.batch_size) = (3, 8);
    req.one_category_batches = true;
    let plan = plan_study(&req, &subs, &all, 0).unwrap();
    for batch in 1..=plan.rating_batches {
        let categories: BTreeSet<&str> = plan
            .ratings
            .iter()
            .filter(|r| r.batch == batch)
            .map(|r| r.category.as_str())
            .collect();
        assert_eq!(categories.len(), 1, "batch {batch}: {categories:?}");
    }
    assert!(
        plan.planted_groups >= 1 && plan.unplanted_batches >= 1,
        "{plan:?}"
    );
    assert_plants_look_real(&plan);
}

//! Drawing a study plan: checking the request, picking the submissions, sampling the source
//! items, and building the rating and ranking pages with their planted checks.

use super::cut::{chunk_len, usual_pages};
use super::pick::pick;
use super::{
    BoardSubmission, PlanError, PlanRequest, PlannedRanking, PlannedRating, SourceItem, StudyPlan,
    StudyProtocol, MAX_BATCH_SIZE, MAX_ITEMS_PER_CATEGORY, MAX_RATERS_PER_BATCH,
};
use crate::human_eval::outputs::{ExplainedOutput, Reference};
use crate::human_eval::ranking::MAX_RANKED;
use crate::kinds::rating::Planted;
use crate::predictions::Split;
use crate::rng::SplitMix64;
use std::collections::{BTreeMap, BTreeSet};

/// Least source items a study needs (a planted "other meaning" needs a second item).
pub const MIN_SOURCE_ITEMS: usize = 2;

fn check_range(field: &'static str, value: usize, min: usize, max: usize) -> Result<(), PlanError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(PlanError::OutOfRange {
            field,
            value,
            min,
            max,
        })
    }
}

/// Draws fresh opaque ids (`j` + 16 hex digits) from the plan's generator, never repeating.
struct IdMint {
    rng: SplitMix64,
    used: BTreeSet<String>,
}

impl IdMint {
    fn next(&mut self) -> String {
        loop {
            let id = format!("j{:016x}", self.rng.next_u64());
            if self.used.insert(id.clone()) {
                return id;
            }
        }
    }
}

/// Whether `item` may stand in a batch of `category` (`None`: batches mix categories).
fn fits_batch(item: &SourceItem, category: Option<&str>) -> bool {
    category.is_none_or(|c| item.category == c)
}

/// Spare items a planted group may come from ([`fits_batch`]: no plant of another category).
fn plants_left(spare: &[&SourceItem], category: Option<&str>) -> usize {
    spare.iter().filter(|i| fits_batch(i, category)).count()
}

/// Takes a planted group's subject and donor from the spare items: the last two that may be
/// planted (see [`plants_left`]); `None` when fewer than two remain.
fn take_plant<'a>(
    spare: &mut Vec<&'a SourceItem>,
    category: Option<&str>,
) -> Option<(&'a SourceItem, &'a SourceItem)> {
    let at: Vec<usize> = (0..spare.len())
        .rev()
        .filter(|&k| fits_batch(spare[k], category))
        .take(2)
        .collect();
    if at.len() < 2 {
        return None;
    }
    // The higher index first, so the lower one stays valid.
    let subject = spare.remove(at[0]);
    let donor = spare.remove(at[1]);
    Some((subject, donor))
}

/// The reference written as an output, for a planted check.
fn reference_output(r: &Reference) -> ExplainedOutput {
    ExplainedOutput {
        meaning: r.meaning.clone(),
        origin: r.origin.clone(),
        example: r.examples.first().cloned(),
    }
}

/// Plans a study: picks the submissions, draws the source items, builds the rating pages (one
/// per source item × submission, plus planted checks) in batches of `batch_size`, and for CMPM
/// one ranking page per source item, all with random opaque ids.
///
/// Rules, in order:
/// 1. `items_per_category` 1–[`MAX_ITEMS_PER_CATEGORY`], `batch_size` 1–[`MAX_BATCH_SIZE`],
///    `raters_per_batch` 1–[`MAX_RATERS_PER_BATCH`]; test items only for invitation-only
///    studies ([`PlanError::TestNeedsInvitation`]).
/// 2. Submissions: [`SubmissionPick`]; CMPM ranks them together, so 2 to [`MAX_RANKED`].
///    Every picked submission needs stored outputs on the split.
/// 3. Eligible source items: on the split, with an output from every picked submission, and
///    (accuracy) with a reference to show first. Per category (sorted), a seeded sample of
///    `items_per_category` (all when fewer); at least [`MIN_SOURCE_ITEMS`] overall.
/// 4. Rating pages: source items in seeded random order, each followed by its submissions'
///    outputs in seeded random order, cut into batches of `batch_size` pages in all, planted
///    pages included: a batch with a planted group (rule 5) holds whole subjects and the
///    group, `batch_size` rounded down to whole subjects (see `chunk_len`); the last batch may
///    be smaller. With `one_page_per_subject` every batch holds whole subjects (a page shows
///    all of a subject's outputs). Raters see a batch in their own random order (the judging kind does that).
///    With `one_category_batches` the drawn items are grouped by category (sorted; each
///    keeps its seeded order) and a batch ends where its category's pages end, so every
///    batch holds one category (its last batch may be smaller); its planted group comes from
///    spare items of the same category (none left: the batch is unplanted).
/// 5. Planted checks (when on) look like ordinary pages: every rating batch gets one planted
///    *subject group* while eligible items the sample left out remain (two per group): a
///    spare item shown as a subject with as many pages as a subject of the batch usually has
///    (one per picked submission), each page a picked submission's real output for a second
///    spare item ([`Planted::OtherMeaning`]), so no subject stands out by its page count and
///    no planted text appears under any other subject of the study. Under the dimensions
///    protocol (no reference on the pages) one page of the group is instead the subject's own
///    reference ([`Planted::Reference`], where it has one; none e.g. for comics). A batch
///    with no spare items left gets no plant (counted in
///    [`StudyPlan::unplanted_batches`]) rather than a detectable one. Their place among the
///    pages is each rater's own random order, and their ids are as random as any.
/// 6. Ranking pages (CMPM): one per source item with every picked submission's output in
///    seeded random order, in batches of `batch_size` in the rating pages' item order.
/// 7. Exposed test items: test source items whose reference is shown (the accuracy protocol's
///    reference, a planted reference, or a planted other meaning).
///
/// The same request, board, items and `id_salt` give the same plan; the server passes a fresh
/// random `id_salt` so that two studies drawn with the same seed still get distinct item ids
/// (item ids are unique across the site), while the sample and batches stay the seed's.
///
/// Worked example: two submissions, six dev memes of one type, two per category, batches of
/// four pages, planted checks on: two memes are drawn, giving 2 × 2 = 4 rating pages, two (one
/// subject) per batch, and each batch gets a planted group of two spare memes (a subject with
/// as many pages as its batch's subjects, 2, showing the other's outputs): two batches of
/// four pages, as asked.
/// ```
/// use memeboard_core::human_eval::outputs::{ExplainedOutput, RatedSubject, Reference};
/// use memeboard_core::human_eval::study::*;
/// use memeboard_core::predictions::Split;
/// let out = |m: &str| ExplainedOutput { meaning: m.into(), origin: None, example: None };
/// let items: Vec<SourceItem> = ["a", "b", "c", "d", "e", "f"].iter().map(|id| SourceItem {
///     id: id.to_string(), category: "slang".into(), split: Split::Dev,
///     subject: RatedSubject::Meme { phrase: format!("phrase {id}") },
///     reference: Some(Reference { meaning: format!("gold {id}"), origin: None, examples: vec![] }),
///     has_context: false,
/// }).collect();
/// let board: Vec<BoardSubmission> = [("s1", 0.8), ("s2", 0.6)].iter().map(|&(id, score)| BoardSubmission {
///     id: id.into(), score: Some(score),
///     outputs: ["a", "b", "c", "d", "e", "f"].iter().map(|i| (i.to_string(), out(&format!("{id} on {i}")))).collect(),
/// }).collect();
/// let request = PlanRequest {
///     protocol: StudyProtocol::Accuracy, submissions: SubmissionPick::Top { k: 2 },
///     items_per_category: 2, split: Split::Dev, invitation_only: false,
///     batch_size: 4, raters_per_batch: 3, planted_checks: true, one_category_batches: false,
///     one_page_per_subject: false, seed: 7,
/// };
/// let plan = plan_study(&request, &board, &items, 0).unwrap();
/// assert_eq!(plan.submissions, ["s1", "s2"]);
/// assert_eq!(plan.source_items.len(), 2);
/// assert_eq!((plan.rating_batches, plan.ratings.len()), (2, 8));
/// assert!((1..=2).all(|b| plan.ratings.iter().filter(|r| r.batch == b).count() == 4));
/// assert_eq!(plan.ratings.iter().filter(|r| r.planted.is_some()).count(), 4);
/// assert_eq!((plan.planted_groups, plan.unplanted_batches), (2, 0));
/// assert!(plan.ratings.iter().all(|r| r.id.starts_with('j') && r.reference.is_some()));
/// assert!(plan.rankings.is_empty() && plan.exposed_test_items.is_empty());
/// ```
pub fn plan_study(
    request: &PlanRequest,
    board: &[BoardSubmission],
    items: &[SourceItem],
    id_salt: u64,
) -> Result<StudyPlan, PlanError> {
    check_request(request)?;
    let picked = pick(board, &request.submissions)?;
    if request.protocol == StudyProtocol::Cmpm && !(2..=MAX_RANKED).contains(&picked.len()) {
        return Err(PlanError::RankingSize {
            picked: picked.len(),
            max: MAX_RANKED,
        });
    }
    let by_category = eligible_items(request, &picked, items)?;

    let mut rng = SplitMix64::new(request.seed);
    let mut sample = draw_sample(&mut rng, by_category, request.items_per_category);
    if request.one_category_batches {
        // Grouped by category (stable: each keeps its seeded order), so batches can be cut
        // at the category boundaries.
        sample.drawn.sort_by(|a, b| a.category.cmp(&b.category));
    }
    let ids = IdMint {
        rng: SplitMix64::new(rng.next_u64() ^ id_salt),
        used: BTreeSet::new(),
    };
    let mut draw = Draw {
        rng,
        ids,
        exposed: BTreeSet::new(),
    };
    let rating = rating_pages(request, &picked, &sample.drawn, sample.spare, &mut draw);
    let (rankings, ranking_batches) = if request.protocol == StudyProtocol::Cmpm {
        ranking_pages(request, &picked, &sample.drawn, &rating.planted, &mut draw)
    } else {
        (Vec::new(), 0)
    };

    Ok(StudyPlan {
        protocol: request.protocol,
        submissions: picked.iter().map(|s| s.id.clone()).collect(),
        source_items: sample.source_items,
        per_category: sample.per_category,
        ratings: rating.ratings,
        rating_batches: rating.batches,
        rankings,
        ranking_batches,
        planted_groups: rating.planted_groups,
        unplanted_batches: rating.unplanted_batches,
        exposed_test_items: draw.exposed.into_iter().collect(),
    })
}

/// Rule 1 of [`plan_study`]: the sizes in range, and test items only for invitation-only
/// studies.
fn check_request(request: &PlanRequest) -> Result<(), PlanError> {
    check_range(
        "items_per_category",
        request.items_per_category,
        1,
        MAX_ITEMS_PER_CATEGORY,
    )?;
    check_range("batch_size", request.batch_size, 1, MAX_BATCH_SIZE)?;
    check_range(
        "raters_per_batch",
        request.raters_per_batch,
        1,
        MAX_RATERS_PER_BATCH,
    )?;
    if request.split == Split::Test && !request.invitation_only {
        return Err(PlanError::TestNeedsInvitation);
    }
    Ok(())
}

/// Rules 2 and 3 of [`plan_study`]: every picked submission has outputs on the split; the
/// eligible source items by category, at least [`MIN_SOURCE_ITEMS`] of them.
fn eligible_items<'a>(
    request: &PlanRequest,
    picked: &[&BoardSubmission],
    items: &'a [SourceItem],
) -> Result<BTreeMap<&'a str, Vec<&'a SourceItem>>, PlanError> {
    let on_split: Vec<&SourceItem> = items.iter().filter(|i| i.split == request.split).collect();
    for s in picked {
        if !on_split.iter().any(|i| s.outputs.contains_key(&i.id)) {
            return Err(PlanError::NoOutputs {
                submission: s.id.clone(),
                split: request.split.as_str(),
            });
        }
    }
    let needs_reference = request.protocol == StudyProtocol::Accuracy;
    let mut by_category: BTreeMap<&str, Vec<&SourceItem>> = BTreeMap::new();
    for item in &on_split {
        if super::preview::eligible(item, picked, request.protocol) {
            by_category
                .entry(item.category.as_str())
                .or_default()
                .push(item);
        }
    }
    let eligible: usize = by_category.values().map(Vec::len).sum();
    if eligible < MIN_SOURCE_ITEMS {
        return Err(PlanError::TooFewItems {
            eligible,
            split: request.split.as_str(),
            reference: if needs_reference {
                " and a reference"
            } else {
                ""
            },
            min: MIN_SOURCE_ITEMS,
        });
    }
    Ok(by_category)
}

/// The seeded sample of source items and the eligible items it left out.
struct Sample<'a> {
    /// The drawn items, in seeded random order.
    drawn: Vec<&'a SourceItem>,
    /// The drawn items' ids, sorted.
    source_items: Vec<String>,
    /// Items drawn per category.
    per_category: BTreeMap<String, usize>,
    /// Eligible items the sample left out, in seeded order: planted groups take theirs here.
    spare: Vec<&'a SourceItem>,
}

/// Rule 3's sample: per category (sorted), a seeded `items_per_category` of the eligible items.
fn draw_sample<'a>(
    rng: &mut SplitMix64,
    by_category: BTreeMap<&'a str, Vec<&'a SourceItem>>,
    items_per_category: usize,
) -> Sample<'a> {
    let mut all_eligible: Vec<&SourceItem> = by_category.values().flatten().copied().collect();
    let mut drawn: Vec<&SourceItem> = Vec::new();
    let mut per_category = BTreeMap::new();
    for (category, mut pool) in by_category {
        pool.sort_by(|a, b| a.id.cmp(&b.id));
        rng.shuffle(&mut pool);
        pool.truncate(items_per_category);
        per_category.insert(category.to_owned(), pool.len());
        drawn.extend(pool);
    }
    drawn.sort_by(|a, b| a.id.cmp(&b.id));
    let source_items: Vec<String> = drawn.iter().map(|i| i.id.clone()).collect();
    rng.shuffle(&mut drawn);
    // Eligible items the sample left out, in seeded order: planted groups take theirs here.
    all_eligible.retain(|i| source_items.binary_search(&i.id).is_err());
    all_eligible.sort_by(|a, b| a.id.cmp(&b.id));
    rng.shuffle(&mut all_eligible);
    Sample {
        drawn,
        source_items,
        per_category,
        spare: all_eligible,
    }
}

/// What the page builders draw from and record as they go: the plan's seeded generator, its
/// ids, and the test items whose gold a page shows.
struct Draw {
    rng: SplitMix64,
    ids: IdMint,
    exposed: BTreeSet<String>,
}

/// The rating pages of a plan, with their batch counts.
struct RatingPages<'a> {
    ratings: Vec<PlannedRating>,
    batches: u32,
    planted_groups: u32,
    unplanted_batches: u32,
    /// Each planted subject group: its rating batch, subject and outputs (a ranking page of
    /// its own follows in CMPM, so that no subject is rated without being ranked).
    planted: Vec<(u32, &'a SourceItem, Vec<ExplainedOutput>)>,
}

/// Rules 4, 5 and 7 of [`plan_study`]: the rating pages in batches, each batch with its
/// planted subject group while spare items remain.
fn rating_pages<'a>(
    request: &PlanRequest,
    picked: &[&'a BoardSubmission],
    drawn: &[&'a SourceItem],
    mut spare: Vec<&'a SourceItem>,
    draw: &mut Draw,
) -> RatingPages<'a> {
    let needs_reference = request.protocol == StudyProtocol::Accuracy;
    let (mut planted_groups, mut unplanted_batches) = (0u32, 0u32);
    let mut planted_pages = Vec::new();
    let Draw { rng, ids, exposed } = draw;
    let mut expose = |item: &SourceItem| {
        if item.split == Split::Test {
            exposed.insert(item.id.clone());
        }
    };

    // Rating pages: (source item, submission) in item order, submissions shuffled per item.
    let mut pairs: Vec<(&SourceItem, &BoardSubmission)> = Vec::new();
    for item in drawn {
        let mut subs = picked.to_vec();
        rng.shuffle(&mut subs);
        pairs.extend(subs.into_iter().map(|s| (*item, s)));
    }
    let rating_page = |item: &SourceItem,
                       batch: u32,
                       id: String,
                       output: ExplainedOutput,
                       submission_id: Option<String>,
                       planted: Option<Planted>| PlannedRating {
        id,
        batch,
        source_item: item.id.clone(),
        category: item.category.clone(),
        split: item.split,
        subject: item.subject.clone(),
        reference: if needs_reference {
            item.reference.clone()
        } else {
            None
        },
        has_context: item.has_context,
        output,
        submission_id,
        planted,
    };
    let mut ratings = Vec::new();
    let mut rating_batches = 0u32;
    let mut start = 0;
    while start < pairs.len() {
        // With batches of one category, a batch ends where its category's pages end.
        let category = request
            .one_category_batches
            .then(|| pairs[start].0.category.as_str());
        let end = start
            + pairs[start..]
                .iter()
                .take_while(|(item, _)| fits_batch(item, category))
                .count();
        let planting = request.planted_checks && plants_left(&spare, category) >= 2;
        let len = chunk_len(
            end - start,
            request.batch_size,
            picked.len(),
            planting,
            request.one_page_per_subject,
        );
        let chunk = &pairs[start..start + len];
        start += len;
        rating_batches += 1;
        let batch = rating_batches;
        for &(item, sub) in chunk {
            if needs_reference {
                expose(item);
            }
            let output = sub.outputs.get(&item.id).cloned().unwrap_or_else(|| {
                // Eligibility guarantees an output; an empty one would only show a blank page.
                ExplainedOutput {
                    meaning: String::new(),
                    origin: None,
                    example: None,
                }
            });
            ratings.push(rating_page(
                item,
                batch,
                ids.next(),
                output,
                Some(sub.id.clone()),
                None,
            ));
        }
        if request.planted_checks {
            // A planted subject group: an eligible item drawn nowhere else in the study, shown
            // with one page per picked submission like every real subject, each page another
            // spare item's output (so its text is under no other subject any rater sees).
            let Some((subject, donor)) = take_plant(&mut spare, category) else {
                unplanted_batches += 1;
                continue;
            };
            planted_groups += 1;
            if needs_reference {
                expose(subject);
            }
            let mut subs = picked.to_vec();
            rng.shuffle(&mut subs);
            subs.truncate(usual_pages(chunk));
            // Under dimensions (no reference on the page) one page of the group is the
            // subject's own reference, an output a careful rater scores well.
            let reference_at = match &subject.reference {
                Some(_) if !needs_reference => Some(rng.below(subs.len())),
                _ => None,
            };
            let mut group = Vec::new();
            for (at, sub) in subs.iter().enumerate() {
                let page = match (&subject.reference, reference_at == Some(at)) {
                    (Some(r), true) => {
                        expose(subject);
                        Some((reference_output(r), Planted::Reference))
                    }
                    _ => sub
                        .outputs
                        .get(&donor.id)
                        .map(|o| (o.clone(), Planted::OtherMeaning)),
                };
                if let Some((output, planted)) = page {
                    group.push(output.clone());
                    ratings.push(rating_page(
                        subject,
                        batch,
                        ids.next(),
                        output,
                        None,
                        Some(planted),
                    ));
                }
            }
            planted_pages.push((batch, subject, group));
        }
    }

    RatingPages {
        ratings,
        batches: rating_batches,
        planted_groups,
        unplanted_batches,
        planted: planted_pages,
    }
}

/// Rule 6 of [`plan_study`] (CMPM): one ranking page per drawn item, in batches, and one
/// per planted subject group, in the ranking batch of the same number as its rating batch
/// (the last when there are fewer), with the group's outputs as candidates and no
/// submissions behind them: a rater holding both invitations finds every rated subject
/// among the ranked ones.
fn ranking_pages(
    request: &PlanRequest,
    picked: &[&BoardSubmission],
    drawn: &[&SourceItem],
    planted: &[(u32, &SourceItem, Vec<ExplainedOutput>)],
    draw: &mut Draw,
) -> (Vec<PlannedRanking>, u32) {
    let Draw { rng, ids, .. } = draw;
    let mut rankings = Vec::new();
    let mut ranking_batches = 0u32;
    for chunk in drawn.chunks(request.batch_size) {
        ranking_batches += 1;
        for item in chunk {
            let mut subs = picked.to_vec();
            rng.shuffle(&mut subs);
            rankings.push(PlannedRanking {
                id: ids.next(),
                batch: ranking_batches,
                source_item: item.id.clone(),
                category: item.category.clone(),
                split: item.split,
                subject: item.subject.clone(),
                candidates: subs
                    .iter()
                    .filter_map(|s| s.outputs.get(&item.id).cloned())
                    .collect(),
                submissions: subs.iter().map(|s| Some(s.id.clone())).collect(),
            });
        }
    }
    for (batch, subject, outputs) in planted.iter().filter(|p| p.2.len() >= 2) {
        let mut candidates = outputs.clone();
        rng.shuffle(&mut candidates);
        let page = PlannedRanking {
            id: ids.next(),
            batch: (*batch).min(ranking_batches.max(1)),
            source_item: subject.id.clone(),
            category: subject.category.clone(),
            split: subject.split,
            subject: subject.subject.clone(),
            submissions: vec![None; candidates.len()],
            candidates,
        };
        // In its batch's place, so that the page order tells nothing either.
        let at = rankings
            .iter()
            .rposition(|r| r.batch <= page.batch)
            .map_or(0, |k| k + 1);
        let within = rankings[..at]
            .iter()
            .filter(|r| r.batch == page.batch)
            .count();
        rankings.insert(at - rng.below(within + 1), page);
    }
    (rankings, ranking_batches)
}

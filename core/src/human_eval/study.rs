//! Planning a human-evaluation study from a board: which submissions and which items are
//! judged, how the judging pages are batched, where the planted quality checks go, and which
//! test items the study shows to raters. Pure: the server feeds it the board's submissions,
//! their stored outputs and the source items, and turns the plan into judging tasks.
//!
//! Every judging item gets a random opaque id drawn from the plan's seeded [`SplitMix64`]; no id
//! is derived from a submission id, so nothing a rater's browser receives names a model.

use super::outputs::{ExplainedOutput, RatedSubject, Reference};
use super::ranking::MAX_RANKED;
use crate::kinds::rating::Planted;
use crate::predictions::Split;
use crate::rng::SplitMix64;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Most judging pages in one batch (a rater does a whole batch in one sitting).
pub const MAX_BATCH_SIZE: usize = 200;
/// Most raters an owner may ask for per batch.
pub const MAX_RATERS_PER_BATCH: usize = 50;
/// Most source items a study may draw per category.
pub const MAX_ITEMS_PER_CATEGORY: usize = 1000;

/// Which protocol a study runs: the benchmark's human evaluation it reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StudyProtocol {
    /// CHIME: read the reference, then rate the model's meaning, origin and example
    /// Disagree / Neutral / Agree.
    Accuracy,
    /// CMPM task 2: rate one explanation per page on five 1–3 dimensions, and rank up to five
    /// explanations of the same meme on a separate page.
    Cmpm,
}

impl StudyProtocol {
    /// The stored and serialised key (`accuracy`, `cmpm`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accuracy => "accuracy",
            Self::Cmpm => "cmpm",
        }
    }

    /// Parses the stored key.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "accuracy" => Some(Self::Accuracy),
            "cmpm" => Some(Self::Cmpm),
            _ => None,
        }
    }
}

/// Which submissions a study judges.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "pick", rename_all = "snake_case")]
pub enum SubmissionPick {
    /// The best `k` by the board's primary score (unscored ones after scored ones, then in
    /// board order).
    Top {
        /// How many.
        k: usize,
    },
    /// Exactly these submissions, in this order.
    Ids {
        /// Submission ids, each on the board once.
        ids: Vec<String>,
    },
}

/// What the owner asks for when creating a study.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PlanRequest {
    /// The protocol.
    pub protocol: StudyProtocol,
    /// The submissions to judge.
    pub submissions: SubmissionPick,
    /// Source items drawn per category (meme type, comic structure type); a category with
    /// fewer eligible items gives all it has.
    pub items_per_category: usize,
    /// Which split the items come from: `dev` (default) or `test` (invitation-only studies
    /// only, since raters see the test items' gold).
    #[serde(default = "dev_split")]
    pub split: Split,
    /// Whether the study is reached only through its secret link.
    #[serde(default)]
    pub invitation_only: bool,
    /// Judging pages per batch, before planted checks (a rater does one whole batch).
    pub batch_size: usize,
    /// Raters wanted per batch (the task's target is batches × this).
    pub raters_per_batch: usize,
    /// Whether every rating batch gets planted outputs of known quality (the reference
    /// itself, another item's meaning).
    #[serde(default)]
    pub planted_checks: bool,
    /// Seed of the sampling, batching and item ids (the server draws one when the owner
    /// gives none).
    pub seed: u64,
}

fn dev_split() -> Split {
    Split::Dev
}

/// A submission on the board, with the board's primary score (`None` on boards without an
/// automatic metric, such as comic explanations).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoardSubmission {
    /// Submission id.
    pub id: String,
    /// Primary score on the board (higher is better).
    pub score: Option<f64>,
    /// The submission's stored outputs by source item id.
    pub outputs: BTreeMap<String, ExplainedOutput>,
}

/// An item of the board's task that outputs explain: a meme or a comic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceItem {
    /// Item id in the source task.
    pub id: String,
    /// Category (meme type, comic structure type).
    pub category: String,
    /// Split of the source item.
    pub split: Split,
    /// What the outputs explain.
    pub subject: RatedSubject,
    /// The gold explanation, where the dataset has one (comics have none).
    pub reference: Option<Reference>,
    /// Whether the item has text context (title, caption), so context handling applies.
    pub has_context: bool,
}

/// One rating page: one output of one source item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedRating {
    /// Random opaque judging-item id.
    pub id: String,
    /// Batch number, from 1.
    pub batch: u32,
    /// The source item judged.
    pub source_item: String,
    /// Its category.
    pub category: String,
    /// Its split.
    pub split: Split,
    /// What the output explains.
    pub subject: RatedSubject,
    /// The reference shown first (accuracy protocol only).
    pub reference: Option<Reference>,
    /// Whether context handling applies (dimension protocol).
    pub has_context: bool,
    /// The output to judge.
    pub output: ExplainedOutput,
    /// The submission that produced it; `None` for a planted output.
    pub submission_id: Option<String>,
    /// Which planted check this is, if any.
    pub planted: Option<Planted>,
}

/// One ranking page: the judged submissions' outputs for one source item (CMPM).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlannedRanking {
    /// Random opaque judging-item id.
    pub id: String,
    /// Batch number, from 1.
    pub batch: u32,
    /// The source item judged.
    pub source_item: String,
    /// Its category.
    pub category: String,
    /// Its split.
    pub split: Split,
    /// What the outputs explain.
    pub subject: RatedSubject,
    /// Candidates in a seeded random canonical order (the page shuffles again per rater).
    pub candidates: Vec<ExplainedOutput>,
    /// The submission of each candidate, aligned with `candidates`.
    pub submissions: Vec<String>,
}

/// The plan of a study: the judging items of its rating task and (CMPM) its ranking task.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudyPlan {
    /// The protocol.
    pub protocol: StudyProtocol,
    /// Judged submissions, in pick order.
    pub submissions: Vec<String>,
    /// Source items drawn, sorted by id.
    pub source_items: Vec<String>,
    /// Source items drawn per category.
    pub per_category: BTreeMap<String, usize>,
    /// Rating pages, by batch.
    pub ratings: Vec<PlannedRating>,
    /// Rating batches.
    pub rating_batches: u32,
    /// Ranking pages, by batch (CMPM only; empty for accuracy).
    pub rankings: Vec<PlannedRanking>,
    /// Ranking batches.
    pub ranking_batches: u32,
    /// Planted subject groups placed (at most one per rating batch).
    pub planted_groups: u32,
    /// Rating batches left without a planted group because no eligible item outside the
    /// study was left to plant (the owner is told; a plant is never made detectable instead).
    pub unplanted_batches: u32,
    /// Test items whose gold some page shows (sorted); empty unless the study draws test
    /// items, which needs an invitation-only study.
    pub exposed_test_items: Vec<String>,
}

/// Why a study cannot be planned, saying what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The board has no submissions.
    #[error("the board has no submissions to judge; upload explanation predictions first")]
    NoSubmissions,
    /// `Top { k: 0 }` or an empty id list.
    #[error("no submissions picked; expected top k with k ≥ 1 or at least one submission id")]
    NothingPicked,
    /// More submissions asked for than the board has.
    #[error("top {k} asked for but the board has {available} submissions")]
    TooFewSubmissions {
        /// Asked for.
        k: usize,
        /// On the board.
        available: usize,
    },
    /// An explicit id that is not on the board.
    #[error("submission {0} is not on this board")]
    UnknownSubmission(String),
    /// An explicit id given twice.
    #[error("submission {0} is listed twice")]
    DuplicateSubmission(String),
    /// A submission without stored outputs on the study's split.
    #[error(
        "submission {submission} has no stored outputs for the {split} items; only submissions \
         uploaded with their explanations can be judged"
    )]
    NoOutputs {
        /// Submission id.
        submission: String,
        /// The split.
        split: &'static str,
    },
    /// A ranking page needs 2 to 5 candidates.
    #[error("a CMPM study ranks 2 to {max} submissions per page; {picked} picked")]
    RankingSize {
        /// Picked.
        picked: usize,
        /// Most allowed.
        max: usize,
    },
    /// Test items in a public study.
    #[error(
        "a study of test items shows their gold to raters, so it must be invitation-only; \
         use the dev split or make the study invitation-only"
    )]
    TestNeedsInvitation,
    /// A number outside its range.
    #[error("{field} is {value}; expected {min} to {max}")]
    OutOfRange {
        /// Field name.
        field: &'static str,
        /// Given.
        value: usize,
        /// Least allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
    /// Too few source items have an output from every picked submission.
    #[error(
        "only {eligible} {split} items have an output from every picked submission{reference}; \
         a study needs at least {min}"
    )]
    TooFewItems {
        /// Eligible items.
        eligible: usize,
        /// The split.
        split: &'static str,
        /// " and a reference" for the accuracy protocol.
        reference: &'static str,
        /// Least needed.
        min: usize,
    },
}

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

/// Picks the submissions: top `k` by score (scored before unscored, ties and unscored in board
/// order) or the explicit ids, each checked to be on the board.
fn pick<'a>(
    board: &'a [BoardSubmission],
    how: &SubmissionPick,
) -> Result<Vec<&'a BoardSubmission>, PlanError> {
    if board.is_empty() {
        return Err(PlanError::NoSubmissions);
    }
    match how {
        SubmissionPick::Top { k } => {
            if *k == 0 {
                return Err(PlanError::NothingPicked);
            }
            if *k > board.len() {
                return Err(PlanError::TooFewSubmissions {
                    k: *k,
                    available: board.len(),
                });
            }
            let mut order: Vec<&BoardSubmission> = board.iter().collect();
            // Stable: equal scores and unscored rows keep the board's order.
            order.sort_by(|a, b| match (a.score, b.score) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            });
            order.truncate(*k);
            Ok(order)
        }
        SubmissionPick::Ids { ids } => {
            if ids.is_empty() {
                return Err(PlanError::NothingPicked);
            }
            let mut seen = BTreeSet::new();
            ids.iter()
                .map(|id| {
                    if !seen.insert(id.as_str()) {
                        return Err(PlanError::DuplicateSubmission(id.clone()));
                    }
                    board
                        .iter()
                        .find(|s| &s.id == id)
                        .ok_or_else(|| PlanError::UnknownSubmission(id.clone()))
                })
                .collect()
        }
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

/// The usual page count of a subject in a batch (the most common, ties to the larger): a
/// planted group gets as many pages, so that no subject stands out by its count (a batch cut
/// may leave a real subject with fewer pages than there are submissions).
fn usual_pages(chunk: &[(&SourceItem, &BoardSubmission)]) -> usize {
    let mut per_item: BTreeMap<&str, usize> = BTreeMap::new();
    for (item, _) in chunk {
        *per_item.entry(item.id.as_str()).or_default() += 1;
    }
    let mut frequency: BTreeMap<usize, usize> = BTreeMap::new();
    for n in per_item.values() {
        *frequency.entry(*n).or_default() += 1;
    }
    frequency
        .iter()
        .max_by_key(|(n, f)| (**f, **n))
        .map_or(1, |(n, _)| *n)
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
///    outputs in seeded random order, cut into batches of `batch_size` pages (the last may be
///    smaller). Raters see a batch in their own random order (the judging kind does that).
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
/// three, planted checks on: two memes are drawn, giving 2 × 2 = 4 rating pages in batches of
/// 3 and 1; each batch gets a planted group of two spare memes (a subject with as many pages as
/// its batch's subjects usually have, 2 and 1, showing the other's outputs): 7 pages in all.
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
///     batch_size: 3, raters_per_batch: 3, planted_checks: true, seed: 7,
/// };
/// let plan = plan_study(&request, &board, &items, 0).unwrap();
/// assert_eq!(plan.submissions, ["s1", "s2"]);
/// assert_eq!(plan.source_items.len(), 2);
/// assert_eq!((plan.rating_batches, plan.ratings.len()), (2, 7));
/// assert_eq!(plan.ratings.iter().filter(|r| r.planted.is_some()).count(), 3);
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
    let picked = pick(board, &request.submissions)?;
    if request.protocol == StudyProtocol::Cmpm && !(2..=MAX_RANKED).contains(&picked.len()) {
        return Err(PlanError::RankingSize {
            picked: picked.len(),
            max: MAX_RANKED,
        });
    }
    let on_split: Vec<&SourceItem> = items.iter().filter(|i| i.split == request.split).collect();
    for s in &picked {
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
        let complete = picked.iter().all(|s| s.outputs.contains_key(&item.id));
        if complete && (!needs_reference || item.reference.is_some()) {
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

    let mut rng = SplitMix64::new(request.seed);
    let mut all_eligible: Vec<&SourceItem> = by_category.values().flatten().copied().collect();
    let mut drawn: Vec<&SourceItem> = Vec::new();
    let mut per_category = BTreeMap::new();
    for (category, mut pool) in by_category {
        pool.sort_by(|a, b| a.id.cmp(&b.id));
        rng.shuffle(&mut pool);
        pool.truncate(request.items_per_category);
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
    let mut spare = all_eligible;
    let (mut planted_groups, mut unplanted_batches) = (0u32, 0u32);

    let mut ids = IdMint {
        rng: SplitMix64::new(rng.next_u64() ^ id_salt),
        used: BTreeSet::new(),
    };
    let mut exposed: BTreeSet<String> = BTreeSet::new();
    let mut expose = |item: &SourceItem| {
        if item.split == Split::Test {
            exposed.insert(item.id.clone());
        }
    };

    // Rating pages: (source item, submission) in item order, submissions shuffled per item.
    let mut pairs: Vec<(&SourceItem, &BoardSubmission)> = Vec::new();
    for item in &drawn {
        let mut subs = picked.clone();
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
    for chunk in pairs.chunks(request.batch_size) {
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
            if spare.len() < 2 {
                unplanted_batches += 1;
                continue;
            }
            let (subject, donor) = (spare[spare.len() - 1], spare[spare.len() - 2]);
            spare.truncate(spare.len() - 2);
            planted_groups += 1;
            if needs_reference {
                expose(subject);
            }
            let mut subs = picked.clone();
            rng.shuffle(&mut subs);
            subs.truncate(usual_pages(chunk));
            // Under dimensions (no reference on the page) one page of the group is the
            // subject's own reference, an output a careful rater scores well.
            let reference_at = match &subject.reference {
                Some(_) if !needs_reference => Some(rng.below(subs.len())),
                _ => None,
            };
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
        }
    }

    let mut rankings = Vec::new();
    let mut ranking_batches = 0u32;
    if request.protocol == StudyProtocol::Cmpm {
        for chunk in drawn.chunks(request.batch_size) {
            ranking_batches += 1;
            for item in chunk {
                let mut subs = picked.clone();
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
                    submissions: subs.iter().map(|s| s.id.clone()).collect(),
                });
            }
        }
    }

    Ok(StudyPlan {
        protocol: request.protocol,
        submissions: picked.iter().map(|s| s.id.clone()).collect(),
        source_items,
        per_category,
        ratings,
        rating_batches,
        rankings,
        ranking_batches,
        planted_groups,
        unplanted_batches,
        exposed_test_items: exposed.into_iter().collect(),
    })
}

impl PlanError {
    /// The error as a catalogue message (both languages), for API responses.
    pub fn message(&self) -> crate::messages::Message {
        use crate::msg;
        match self {
            Self::NoSubmissions => msg!("study_plan.no_submissions"),
            Self::NothingPicked => msg!("study_plan.nothing_picked"),
            Self::TooFewSubmissions { k, available } => {
                msg!(
                    "study_plan.too_few_submissions",
                    k = k,
                    available = available
                )
            }
            Self::UnknownSubmission(id) => msg!("study_plan.unknown_submission", id = id),
            Self::DuplicateSubmission(id) => msg!("study_plan.duplicate_submission", id = id),
            Self::NoOutputs { submission, split } => {
                msg!("study_plan.no_outputs", id = submission, split = split)
            }
            Self::RankingSize { picked, max } => {
                msg!("study_plan.ranking_size", picked = picked, max = max)
            }
            Self::TestNeedsInvitation => msg!("study_plan.test_needs_invitation"),
            Self::OutOfRange {
                field,
                value,
                min,
                max,
            } => msg!(
                "study_plan.out_of_range",
                field = field,
                value = value,
                min = min,
                max = max
            ),
            Self::TooFewItems {
                eligible,
                split,
                reference,
                min,
            } => msg!(
                "study_plan.too_few_items",
                eligible = eligible,
                split = split,
                min = min
            )
            .with_message(
                "reference",
                if reference.is_empty() {
                    msg!("study_plan.none")
                } else {
                    msg!("study_plan.and_reference")
                },
            ),
        }
    }
}

/// `POST /api/owner/tasks/{slug}/studies`: what an owner asks for when creating a study from
/// an explanation board (the [`PlanRequest`] plus the study's name and quality settings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateStudyRequest {
    /// URL name of the study (1–50 lower-case letters, digits, hyphens); its tasks are
    /// `<slug>-rate` and (CMPM) `<slug>-rank`.
    pub slug: String,
    /// Title shown to raters (default: "Rate explanations" / "Rank explanations").
    #[serde(default)]
    pub title: Option<String>,
    /// The protocol.
    pub protocol: StudyProtocol,
    /// The submissions to judge.
    pub submissions: SubmissionPick,
    /// Source items per category.
    pub items_per_category: usize,
    /// `dev` (default) or `test` (invitation-only studies only).
    #[serde(default = "dev_split")]
    pub split: Split,
    /// Reached only through a secret link (returned once).
    #[serde(default)]
    pub invitation_only: bool,
    /// Judging pages per batch (before planted checks).
    pub batch_size: usize,
    /// Raters wanted per batch.
    pub raters_per_batch: usize,
    /// Planted outputs of known quality in every rating batch, and raters who judge them the
    /// wrong way round excluded.
    #[serde(default)]
    pub planted_checks: bool,
    /// Minimum time per page (ms); raters faster on any page are excluded.
    #[serde(default)]
    pub min_item_ms: Option<u64>,
    /// Seed of the sample and batches (default: a random one, reported on the study page).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// One judging task of a study, with the link raters use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyTaskLink {
    /// Task (quiz) slug.
    pub slug: String,
    /// `rating` or `ranking`.
    pub kind: String,
    /// Judging pages (planted checks included).
    pub items: usize,
    /// Fixed batches.
    pub batches: u32,
    /// Raters wanted: batches × raters per batch (the task's participant target).
    pub raters_target: u32,
    /// The rater link (site path), with the invitation secret when the study is
    /// invitation-only and the secret is known (only in the creation response).
    pub link: String,
    /// The same link with Prolific's URL parameters
    /// (`PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`).
    pub prolific_link: String,
}

/// The answer to creating a study. The invitation secret is in here once and never again
/// (only its hash is stored).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateStudyResponse {
    /// Study slug.
    pub study: String,
    /// The judging tasks (rating; CMPM also ranking).
    pub tasks: Vec<StudyTaskLink>,
    /// The invitation secret (invitation-only studies): keep it, it is not shown again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// Judged submissions.
    pub submissions: Vec<String>,
    /// Source items drawn.
    pub source_items: usize,
    /// Test items whose gold raters will see.
    pub exposed_test_items: usize,
    /// Planted quality-check subject groups placed (one per rating batch where possible).
    #[serde(default)]
    pub planted_groups: u32,
    /// Rating batches without a planted group: no eligible item was left outside the study
    /// to plant (draw fewer items per category to plant in every batch).
    #[serde(default)]
    pub unplanted_batches: u32,
    /// The seed used.
    pub seed: u64,
}

/// A judged submission as the study page names it (owners see model names; raters never).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudySubmission {
    /// Submission id.
    pub submission_id: String,
    /// Model name.
    pub label: String,
}

/// Progress of one fixed batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BatchProgress {
    /// Batch number.
    pub batch: u32,
    /// Pages in the batch.
    pub items: usize,
    /// Raters who finished it (excluded ones included).
    pub completed: usize,
    /// Raters who finished it and were excluded.
    pub excluded: usize,
}

/// One judging task's progress on the study page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyTaskProgress {
    /// The task and its link (without the invitation secret).
    pub task: StudyTaskLink,
    /// Per batch.
    pub batches: Vec<BatchProgress>,
}

/// `GET /api/owner/studies/{slug}`: the study page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StudyPage {
    /// Study slug.
    pub slug: String,
    /// The board (explanation task) the study judges.
    pub source_task: String,
    /// Protocol.
    pub protocol: StudyProtocol,
    /// When it was created (ms since the Unix epoch).
    pub created_at: i64,
    /// Who created it (`admin` or the owner's name).
    pub created_by: String,
    /// Reached only through the secret link.
    pub invitation_only: bool,
    /// What was asked for.
    pub request: CreateStudyRequest,
    /// Judged submissions.
    pub submissions: Vec<StudySubmission>,
    /// The judging tasks and their progress.
    pub tasks: Vec<StudyTaskProgress>,
    /// Source items drawn.
    pub source_items: usize,
    /// Test items whose gold raters see.
    pub exposed_test_items: Vec<String>,
    /// Raters, exclusions, κ per batch, α per dimension.
    pub summary: super::board::HumanEvalSummary,
    /// The computed tables.
    pub tables: super::board::HumanTables,
}

#[cfg(test)]
mod tests;

//! The crowd baseline table of a quiz: overall and per-category human rows plus agreement,
//! computed from the scored answers of completed batches.
//!
//! Two layers: the generic [`CrowdObservation`] API (facets such as familiarity, subsets such
//! as "main", answers without gold, rating dimensions at any Krippendorff level) and the
//! original choice-quiz API ([`CrowdAnswer`], [`crowd_rows`], [`choice_agreement`]), now thin
//! wrappers over it that give the same numbers as before.

use crate::stats::{
    crowd_estimates, krippendorff_alpha, modal_fleiss_kappa, AlphaLevel, Estimate, Response,
};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

mod rows;
pub use rows::*;

/// One scored answer of a completed batch.
#[derive(Debug, Clone, PartialEq)]
pub struct CrowdAnswer {
    /// Anonymous participant id.
    pub participant: Arc<str>,
    /// Item id.
    pub item: Arc<str>,
    /// Category key.
    pub category: Arc<str>,
    /// Canonical option chosen (choice tasks), for agreement.
    pub choice: Option<usize>,
    /// Score in `[0, 1]`.
    pub score: f64,
}

/// One rating an answer gives on a named dimension, so that rating and ranking tasks get
/// agreement statistics without a gold answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Rating {
    /// Dimension name (e.g. `"choice"`, `"funniness"`); agreement is computed per dimension.
    /// A fixed name is borrowed, not copied into every answer's rating.
    pub dimension: Cow<'static, str>,
    /// Scale of the dimension, which picks Krippendorff's difference function.
    pub level: AlphaLevel,
    /// The rated value: a category index (`0, 1, …`) for nominal dimensions, a rank or number
    /// otherwise. Non-finite values are ignored.
    pub value: f64,
    /// Declared number of categories of a nominal dimension (e.g. options shown), if known.
    pub num_categories: Option<usize>,
}

/// One answer of one participant to one item, with everything the crowd tables group by.
///
/// Its names are shared strings: a crowd table holds one observation per answer (over a
/// million for a large crowd), and the participant, item, category, facet and subset names
/// repeat across them, so each is stored once and every observation points at it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CrowdObservation {
    /// Anonymous participant id.
    pub participant: Arc<str>,
    /// Item id.
    pub item: Arc<str>,
    /// Category key.
    pub category: Arc<str>,
    /// `(facet, value)` pairs describing this answer, e.g. `("familiarity", "unseen")`.
    pub facets: Vec<(Arc<str>, Arc<str>)>,
    /// Subsets the item belongs to, e.g. `"main"`.
    pub subsets: Vec<Arc<str>>,
    /// Score in `[0, 1]` when the item has gold; `None` for ratings and rankings (still
    /// counted as an answer, skipped by accuracy rows).
    pub score: Option<f64>,
    /// Ratings given in this answer, for agreement.
    pub ratings: Vec<Rating>,
}

impl CrowdObservation {
    /// One answer with no facet, subset or rating yet: where every observation the site
    /// builds starts (then [`Self::with_choice`], [`Self::with_facet`]).
    ///
    /// ```
    /// use memeboard_core::crowd::CrowdObservation;
    /// let o = CrowdObservation::answer("p1", "i1", "x", Some(1.0))
    ///     .with_choice(Some(2), Some(5))
    ///     .with_facet("familiarity", "seen");
    /// assert_eq!((o.ratings[0].value, o.ratings[0].num_categories), (2.0, Some(5)));
    /// assert_eq!(o.facet("familiarity"), Some("seen"));
    /// ```
    pub fn answer(
        participant: impl Into<Arc<str>>,
        item: impl Into<Arc<str>>,
        category: impl Into<Arc<str>>,
        score: Option<f64>,
    ) -> Self {
        Self {
            participant: participant.into(),
            item: item.into(),
            category: category.into(),
            facets: Vec::new(),
            subsets: Vec::new(),
            score,
            ratings: Vec::new(),
        }
    }

    /// The chosen option (canonical index) as the nominal `choice` rating over `options`
    /// choices when known: the agreement on what people chose. No choice (or a negative
    /// one), no rating.
    pub fn with_choice(mut self, choice: Option<i64>, options: Option<usize>) -> Self {
        if let Some(c) = choice.and_then(|c| usize::try_from(c).ok()) {
            self.ratings.push(Rating {
                dimension: Cow::Borrowed(CHOICE),
                level: AlphaLevel::Nominal,
                value: c as f64,
                num_categories: options,
            });
        }
        self
    }

    /// The answer's value of `facet` (e.g. the familiarity given before the question).
    pub fn with_facet(mut self, facet: &str, value: impl Into<Arc<str>>) -> Self {
        self.facets.push((facet.into(), value.into()));
        self
    }

    /// The value of `facet` for this answer, if it has one, so callers can group like
    /// [`facet_rows`] does.
    pub fn facet(&self, facet: &str) -> Option<&str> {
        self.facets
            .iter()
            .find(|(f, _)| &**f == facet)
            .map(|(_, v)| &**v)
    }

    /// Whether the item belongs to `subset`, so callers can filter like the row functions do.
    pub fn in_subset(&self, subset: &str) -> bool {
        self.subsets.iter().any(|s| &**s == subset)
    }
}

fn dense_index<'a>(keys: impl Iterator<Item = &'a str>) -> BTreeMap<&'a str, usize> {
    let mut map = BTreeMap::new();
    for k in keys {
        let n = map.len();
        map.entry(k).or_insert(n);
    }
    map
}

/// Counts and accuracy estimates of one group of answers.
struct GroupStats {
    participants: usize,
    items: usize,
    answers: usize,
    scored: usize,
    human_average: Option<Estimate>,
    human_best: Option<Estimate>,
    pooled: Option<Estimate>,
}

/// Everyone who answered counts; only scored answers enter the estimates. Dense indices
/// follow first appearance among the scored answers (the order the original rows used, so the
/// bootstrap draws, and hence the intervals, are unchanged).
fn group_stats(observations: &[&CrowdObservation], resamples: usize, seed: u64) -> GroupStats {
    let scored: Vec<(&CrowdObservation, f64)> = observations
        .iter()
        .filter_map(|o| o.score.map(|s| (*o, s)))
        .collect();
    let participants = dense_index(scored.iter().map(|(o, _)| &*o.participant));
    let items = dense_index(scored.iter().map(|(o, _)| &*o.item));
    let responses: Vec<Response> = scored
        .iter()
        .map(|(o, score)| Response {
            participant: participants[&*o.participant],
            item: items[&*o.item],
            score: *score,
        })
        .collect();
    let estimates = crowd_estimates(&responses, resamples, seed);
    let distinct = |f: fn(&CrowdObservation) -> &str| {
        observations
            .iter()
            .map(|o| f(o))
            .collect::<BTreeSet<_>>()
            .len()
    };
    GroupStats {
        participants: distinct(|o| &o.participant),
        items: distinct(|o| &o.item),
        answers: observations.len(),
        scored: scored.len(),
        human_average: estimates.human_average,
        human_best: estimates.human_best,
        pooled: estimates.pooled,
    }
}

fn crowd_row(
    observations: &[&CrowdObservation],
    category: Option<&str>,
    resamples: usize,
    seed: u64,
) -> CrowdRow {
    let g = group_stats(observations, resamples, seed);
    CrowdRow {
        category: category.map(str::to_owned),
        participants: g.participants,
        human_average: g.human_average,
        human_best: g.human_best,
        pooled: g.pooled,
    }
}

/// The overall row, then one row per category in `categories` order (categories with no
/// answers get an empty row so tables keep their shape), optionally restricted to the items
/// of one subset. Participants are counted over every answer, scored or not; the accuracy
/// estimates use the scored answers only (`None` where there are none).
///
/// ```
/// use memeboard_core::crowd::{category_rows, CrowdObservation};
/// let o = |p: &str, i: &str, c: &str, s: Option<f64>| CrowdObservation {
///     participant: p.into(), item: i.into(), category: c.into(), facets: vec![],
///     subsets: if i == "i1" { vec!["main".into()] } else { vec![] }, score: s, ratings: vec![],
/// };
/// let data = [o("p1", "i1", "x", Some(1.0)), o("p1", "i2", "x", Some(0.0)), o("p2", "i1", "x", None)];
/// let rows = category_rows(&data, &["x".into()], None, 100, 1);
/// assert_eq!(rows[0].participants, 2);
/// assert_eq!(rows[1].pooled.unwrap().value, 0.5);
/// let main = category_rows(&data, &["x".into()], Some("main"), 100, 1);
/// assert_eq!(main[0].pooled.unwrap().value, 1.0);
/// ```
pub fn category_rows(
    observations: &[CrowdObservation],
    categories: &[String],
    subset: Option<&str>,
    resamples: usize,
    seed: u64,
) -> Vec<CrowdRow> {
    let kept: Vec<&CrowdObservation> = observations
        .iter()
        .filter(|o| subset.is_none_or(|s| o.in_subset(s)))
        .collect();
    let mut rows = vec![crowd_row(&kept, None, resamples, seed)];
    for c in categories {
        let group: Vec<&CrowdObservation> = kept
            .iter()
            .copied()
            .filter(|o| *o.category == **c)
            .collect();
        rows.push(crowd_row(&group, Some(c), resamples, seed));
    }
    rows
}

/// The crowd numbers of one value of one facet (e.g. the answers given to items the
/// participant had not seen before), so boards can compare groups side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FacetRow {
    /// Facet name, e.g. `"familiarity"`.
    pub facet: String,
    /// Facet value of this row, e.g. `"unseen"`.
    pub value: String,
    /// Participants with at least one answer here (scored or not).
    pub participants: usize,
    /// Distinct items answered here.
    pub items: usize,
    /// Answers here, scored or not (`answers / items` = answers per item).
    pub answers: usize,
    /// Answers with a score (the ones the estimates use).
    pub scored: usize,
    /// Mean of per-participant accuracies, with bootstrap 95% interval.
    pub human_average: Option<Estimate>,
    /// Best per-participant accuracy, with bootstrap 95% interval.
    pub human_best: Option<Estimate>,
    /// All scored answers pooled, with bootstrap 95% interval.
    pub pooled: Option<Estimate>,
}

/// One row per value of `facet`, in sorted value order, optionally restricted to a subset.
/// Answers without that facet are in no row.
///
/// ```
/// use memeboard_core::crowd::{facet_rows, CrowdObservation};
/// let o = |p: &str, i: &str, fam: &str, s| CrowdObservation {
///     participant: p.into(), item: i.into(), category: "x".into(),
///     facets: vec![("familiarity".into(), fam.into())], subsets: vec![], score: Some(s), ratings: vec![],
/// };
/// let rows = facet_rows(&[o("p1", "i1", "seen", 1.0), o("p1", "i2", "unseen", 0.0)], "familiarity", None, 100, 1);
/// assert_eq!(rows.iter().map(|r| r.value.as_str()).collect::<Vec<_>>(), ["seen", "unseen"]);
/// assert_eq!(rows[1].pooled.unwrap().value, 0.0);
/// ```
pub fn facet_rows(
    observations: &[CrowdObservation],
    facet: &str,
    subset: Option<&str>,
    resamples: usize,
    seed: u64,
) -> Vec<FacetRow> {
    let mut groups: BTreeMap<&str, Vec<&CrowdObservation>> = BTreeMap::new();
    for o in observations {
        if subset.is_some_and(|s| !o.in_subset(s)) {
            continue;
        }
        if let Some(v) = o.facet(facet) {
            groups.entry(v).or_default().push(o);
        }
    }
    groups
        .into_iter()
        .map(|(value, group)| {
            let g = group_stats(&group, resamples, seed);
            FacetRow {
                facet: facet.to_owned(),
                value: value.to_owned(),
                participants: g.participants,
                items: g.items,
                answers: g.answers,
                scored: g.scored,
                human_average: g.human_average,
                human_best: g.human_best,
                pooled: g.pooled,
            }
        })
        .collect()
}

/// The benchmark's figure of human accuracy by familiarity (AVMeme: familiar / seen but not
/// familiar / unseen): pooled accuracy of the answers given with each familiarity answer
/// (facet `familiarity`), with its bootstrap interval, shown only from `min_answers` answers.
/// One function for the site's board and `memeboard stats --export`, so both give the same
/// numbers.
///
/// ```
/// use memeboard_core::crowd::{familiarity_rows, CrowdObservation};
/// use memeboard_core::tasks::Familiarity;
/// let o = |p: &str, i: &str, fam: &str, s| CrowdObservation {
///     participant: p.into(), item: i.into(), category: "x".into(),
///     facets: vec![("familiarity".into(), fam.into())], subsets: vec![], score: Some(s), ratings: vec![],
/// };
/// let answers = [o("p1", "i1", "familiar", 1.0), o("p2", "i1", "familiar", 0.0), o("p1", "i2", "unseen", 0.0)];
/// let rows = familiarity_rows(&answers, 100, 1, 2);
/// assert_eq!(rows[0].familiarity, Familiarity::Familiar);
/// assert_eq!((rows[0].participants, rows[0].answers), (2, 2));
/// assert_eq!(rows[0].estimate.unwrap().value, 0.5); // 1 of 2 answers right
/// assert_eq!(rows[1].answers, 0); // nobody answered "seen"
/// assert!(rows[2].estimate.is_none()); // 1 answer: below the minimum of 2
/// ```
pub fn familiarity_rows(
    observations: &[CrowdObservation],
    resamples: usize,
    seed: u64,
    min_answers: usize,
) -> Vec<FamiliarityRow> {
    use crate::tasks::{label_key, Familiarity};
    let by_value: BTreeMap<String, FacetRow> =
        facet_rows(observations, "familiarity", None, resamples, seed)
            .into_iter()
            .map(|r| (r.value.clone(), r))
            .collect();
    [
        Familiarity::Familiar,
        Familiarity::SeenNotFamiliar,
        Familiarity::Unseen,
    ]
    .into_iter()
    .map(|f| {
        let row = by_value.get(&label_key(&f));
        let answers = row.map_or(0, |r| r.scored);
        FamiliarityRow {
            familiarity: f,
            participants: row.map_or(0, |r| r.participants),
            answers,
            estimate: row
                .and_then(|r| r.pooled)
                .filter(|_| answers >= min_answers.max(1)),
        }
    })
    .collect()
}

/// Inter-rater agreement on one rating dimension, so every rated aspect of a task reports
/// how consistent the crowd is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AgreementRow {
    /// Dimension name.
    pub dimension: String,
    /// Scale the dimension was rated on (alpha's difference function).
    pub level: AlphaLevel,
    /// Fleiss' kappa (nominal dimensions only) over the items rated by the most common number
    /// (≥ 2) of raters; `None` for other levels or when not computable.
    pub fleiss_kappa: Option<f64>,
    /// Krippendorff's alpha at `level` over every rating (missing allowed), if computable.
    pub krippendorff_alpha: Option<f64>,
    /// Distinct items with at least one rating on this dimension.
    pub items: usize,
    /// Distinct participants who rated this dimension.
    pub raters: usize,
    /// Ratings on this dimension (`ratings / items` = ratings per item).
    pub ratings: usize,
}

/// The ratings of one dimension: per item, the values given.
#[derive(Default)]
struct DimensionRatings<'a> {
    per_item: BTreeMap<&'a str, Vec<f64>>,
    raters: BTreeSet<&'a str>,
    declared_categories: usize,
    ratings: usize,
}

/// Agreement per rating dimension (one row per dimension and level, sorted by dimension), over
/// every rating of every answer, scored or not.
///
/// Each rating is one value for its item (a participant who rated an item twice gives two
/// values, as the original choice agreement did). Kappa is computed for nominal dimensions
/// only; alpha at the dimension's level. A dimension rated at two levels yields two rows, so
/// the inconsistency shows.
///
/// Worked example: three items, two raters, six options; ratings (5, 5), (0, 0), (0, 5).
/// P̄ = (1 + 1 + 0) / 3 = 2/3 and P̄e = 0.5² + 0.5² = 1/2, so κ = (2/3 − 1/2) / (1/2) = 1/3;
/// the coincidences give α = 1 − 5 · 2 / 18 = 4/9.
///
/// ```
/// use memeboard_core::crowd::{agreement_by_dimension, CrowdObservation, Rating};
/// use memeboard_core::stats::AlphaLevel;
/// let o = |p: &str, i: &str, v: f64| CrowdObservation {
///     participant: p.into(), item: i.into(), category: "x".into(), facets: vec![], subsets: vec![], score: None,
///     ratings: vec![Rating { dimension: "choice".into(), level: AlphaLevel::Nominal, value: v, num_categories: Some(6) }],
/// };
/// let data = [o("a", "i1", 5.0), o("b", "i1", 5.0), o("a", "i2", 0.0), o("b", "i2", 0.0), o("a", "i3", 0.0), o("b", "i3", 5.0)];
/// let rows = agreement_by_dimension(&data);
/// assert_eq!((rows[0].items, rows[0].raters, rows[0].ratings), (3, 2, 6));
/// assert!((rows[0].fleiss_kappa.unwrap() - 1.0 / 3.0).abs() < 1e-12);
/// assert!((rows[0].krippendorff_alpha.unwrap() - 4.0 / 9.0).abs() < 1e-12);
/// ```
pub fn agreement_by_dimension(observations: &[CrowdObservation]) -> Vec<AgreementRow> {
    let level_rank = |l: AlphaLevel| match l {
        AlphaLevel::Nominal => 0u8,
        AlphaLevel::Ordinal => 1,
        AlphaLevel::Interval => 2,
    };
    let mut dims: BTreeMap<(&str, u8), (AlphaLevel, DimensionRatings)> = BTreeMap::new();
    for o in observations {
        for r in o.ratings.iter().filter(|r| r.value.is_finite()) {
            let (_, d) = dims
                .entry((&*r.dimension, level_rank(r.level)))
                .or_insert_with(|| (r.level, DimensionRatings::default()));
            d.per_item.entry(&*o.item).or_default().push(r.value);
            d.raters.insert(&*o.participant);
            d.declared_categories = d.declared_categories.max(r.num_categories.unwrap_or(0));
            d.ratings += 1;
        }
    }
    dims.into_iter()
        .map(|((dimension, _), (level, d))| {
            let units: Vec<Vec<Option<f64>>> = d
                .per_item
                .values()
                .map(|vals| vals.iter().map(|&v| Some(v)).collect())
                .collect();
            AgreementRow {
                dimension: dimension.to_owned(),
                level,
                fleiss_kappa: match level {
                    AlphaLevel::Nominal => modal_fleiss_kappa(&d.per_item, d.declared_categories),
                    AlphaLevel::Ordinal | AlphaLevel::Interval => None,
                },
                krippendorff_alpha: krippendorff_alpha(&units, level),
                items: d.per_item.len(),
                raters: d.raters.len(),
                ratings: d.ratings,
            }
        })
        .collect()
}

/// The generic form of a scored choice answer (no facets, no subsets).
fn observation(a: &CrowdAnswer, ratings: Vec<Rating>) -> CrowdObservation {
    CrowdObservation {
        ratings,
        ..CrowdObservation::answer(
            a.participant.clone(),
            a.item.clone(),
            a.category.clone(),
            Some(a.score),
        )
    }
}

/// The overall row, then one row per category in `categories` order (categories with no
/// answers get an empty row so tables keep their shape).
///
/// ```
/// use memeboard_core::crowd::{crowd_rows, CrowdAnswer};
/// let a = |p: &str, i: &str, c: &str, s| CrowdAnswer { participant: p.into(), item: i.into(), category: c.into(), choice: None, score: s };
/// let rows = crowd_rows(&[a("p1", "i1", "x", 1.0), a("p1", "i2", "y", 0.0), a("p2", "i1", "x", 1.0)], &["x".into(), "y".into()], 100, 1);
/// assert_eq!(rows.len(), 3);
/// assert_eq!(rows[0].participants, 2);
/// assert_eq!(rows[0].human_average.unwrap().value, 0.75); // (0.5 + 1.0) / 2
/// assert_eq!(rows[1].human_best.unwrap().value, 1.0);
/// assert_eq!(rows[2].pooled.unwrap().value, 0.0);
/// ```
pub fn crowd_rows(
    answers: &[CrowdAnswer],
    categories: &[String],
    resamples: usize,
    seed: u64,
) -> Vec<CrowdRow> {
    let observations: Vec<CrowdObservation> =
        answers.iter().map(|a| observation(a, Vec::new())).collect();
    category_rows(&observations, categories, None, resamples, seed)
}

/// The dimension name [`choice_agreement`] rates choices on.
const CHOICE: &str = "choice";

/// Agreement on choice items: (Fleiss' kappa, Krippendorff's nominal alpha).
///
/// Fleiss' kappa needs the same number of raters per item, so it uses the items answered by
/// the most common number (≥ 2) of participants; alpha uses every answer (missing allowed).
/// Choices at or beyond `num_options` are ignored.
pub fn choice_agreement(answers: &[CrowdAnswer], num_options: usize) -> (Option<f64>, Option<f64>) {
    let observations: Vec<CrowdObservation> = answers
        .iter()
        .filter_map(|a| {
            let c = a.choice.filter(|&c| c < num_options)?;
            let rating = Rating {
                dimension: Cow::Borrowed(CHOICE),
                level: AlphaLevel::Nominal,
                value: c as f64,
                num_categories: Some(num_options),
            };
            Some(observation(a, vec![rating]))
        })
        .collect();
    agreement_by_dimension(&observations)
        .into_iter()
        .next()
        .map_or((None, None), |row| {
            (row.fleiss_kappa, row.krippendorff_alpha)
        })
}

#[cfg(test)]
mod tests;

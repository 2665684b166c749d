//! What the multi-panel kinds (CMPM) share: the structure-type and ordering labels, the
//! optional text context and the comic's name in lists, and the one fixed shuffled display
//! per item that people and models both see.
//!
//! The labels' keys are the benchmark's spellings (`narrative`, `strong`, `sarcastic_conflict`…)
//! and are what manifests and prediction files use.

use crate::ids::fnv1a64;
use crate::rng::SplitMix64;
use crate::scoring::is_linear_extension;
use crate::tasks::items::{CategoryInfo, MediaRef};
use serde::{Deserialize, Serialize};

/// The constant earlier versions seeded displays with (CMPM shuffles with seed 42), combined
/// with a hash of the comic's public source id ([`legacy_display_seed`]). Anyone could
/// recompute those displays, so they hid nothing: kept only to recognise displays drawn that
/// way (the server's start-up upgrade) and for tests that play the attacker.
pub const LEGACY_DISPLAY_SEED: u64 = 42;

/// The seed earlier versions drew a comic's display with: public data only, hence
/// compromised (see [`LEGACY_DISPLAY_SEED`]). Never use it for a new draw.
///
/// ```
/// use memeboard_core::kinds::panels::{legacy_display_seed, LEGACY_DISPLAY_SEED};
/// use memeboard_core::ids::fnv1a64;
/// assert_eq!(legacy_display_seed("comic-7"), LEGACY_DISPLAY_SEED ^ fnv1a64(b"comic-7"));
/// ```
pub fn legacy_display_seed(source_id: &str) -> u64 {
    LEGACY_DISPLAY_SEED ^ fnv1a64(source_id.as_bytes())
}

/// How the panels of a comic relate (CMPM's five structure types).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum StructureType {
    /// A story told panel by panel: set-up, development, punchline.
    Narrative,
    /// The same thing escalating or changing step by step.
    Progressive,
    /// A dialogue: panels are turns of a conversation.
    Conversational,
    /// Variations side by side, in no necessary order.
    Parallel,
    /// A contrast of two (or more) states: before/after, expectation/reality.
    Comparison,
}

impl StructureType {
    /// All five, in the benchmark's order (also the order of choices on a page).
    pub const ALL: [StructureType; 5] = [
        Self::Narrative,
        Self::Progressive,
        Self::Conversational,
        Self::Parallel,
        Self::Comparison,
    ];

    /// The label as manifests and prediction files spell it.
    pub fn key(self) -> &'static str {
        match self {
            Self::Narrative => "narrative",
            Self::Progressive => "progressive",
            Self::Conversational => "conversational",
            Self::Parallel => "parallel",
            Self::Comparison => "comparison",
        }
    }

    /// Position in [`StructureType::ALL`] (the choice index for agreement statistics).
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// Parses a label: the English key in any letter case, surrounding spaces, quotes and a
    /// trailing full stop ignored, or the Chinese name (叙事, 递进, 对话, 并列, 对比).
    ///
    /// ```
    /// use memeboard_core::kinds::panels::StructureType;
    /// assert_eq!(StructureType::parse(" Narrative. "), Some(StructureType::Narrative));
    /// assert_eq!(StructureType::parse("对比"), Some(StructureType::Comparison));
    /// assert_eq!(StructureType::parse("a story"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Self> {
        let t = text
            .trim()
            .trim_matches(|c: char| c == '"' || c == '\'' || c == '`')
            .trim_end_matches(['.', '。'])
            .trim()
            .to_lowercase();
        Self::ALL
            .into_iter()
            .find(|s| s.key() == t || s.name_zh() == t)
    }

    /// The Chinese name.
    pub fn name_zh(self) -> &'static str {
        match self {
            Self::Narrative => "叙事",
            Self::Progressive => "递进",
            Self::Conversational => "对话",
            Self::Parallel => "并列",
            Self::Comparison => "对比",
        }
    }
}

/// Whether reordering the panels destroys the joke.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OrderingDependency {
    /// The order is essential.
    Strong,
    /// The order matters little.
    Weak,
}

/// How a comic's text context relates to its panels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ContextRelation {
    /// The images carry the joke.
    ImageDominant,
    /// The text carries the joke.
    TextDominant,
    /// Both are needed.
    Complementary,
    /// The text says the opposite of the images.
    SarcasticConflict,
    /// Annotators could not tell.
    Unclear,
}

/// A comic's text context (title, caption, comments), shown in the "with context" variants.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PanelContext {
    /// Post title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Caption under the comic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// Readers' comments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
}

impl PanelContext {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.caption.is_none() && self.comments.is_empty()
    }
}

/// The text that names a comic in lists (every comic kind's [`Kind::subject`]): its title,
/// or its number of panels when it has none.
///
/// [`Kind::subject`]: super::Kind::subject
///
/// ```
/// use memeboard_core::kinds::panels::{comic_subject, PanelContext};
/// use memeboard_core::tasks::MediaRef;
/// let panels = vec![MediaRef { url: "/media/a.png".into(), alt: String::new() }; 3];
/// assert_eq!(comic_subject(&panels, None), "3 panels");
/// let titled = PanelContext { title: Some("Monday".into()), ..PanelContext::default() };
/// assert_eq!(comic_subject(&panels, Some(&titled)), "Monday");
/// ```
pub fn comic_subject(panels: &[MediaRef], context: Option<&PanelContext>) -> String {
    context
        .and_then(|c| c.title.clone())
        .unwrap_or_else(|| format!("{} panels", panels.len()))
}

/// The display order of an item's panels, fixed per item (not per participant) so that people
/// and models see the same display: `display[i]` is the 1-based canonical number of the panel
/// shown at position `i`.
///
/// The display is the order task's gold in disguise (knowing it turns the shown panels back
/// into reading order), so `display_seed` must not follow from public data: the server derives
/// it from its per-installation secret, the benchmark and the comic (a keyed hash, see
/// docs/panels.md); the same seed always gives the same display, so a re-import with the same
/// secret keeps every display. A display that would itself be a valid reading order is
/// redrawn (as in the benchmark, where answering the display order scores 0%), unless every
/// order is valid (a single group), where any display is.
///
/// ```
/// use memeboard_core::kinds::panels::fixed_display;
/// use memeboard_core::scoring::is_linear_extension;
/// let groups = vec![vec![1], vec![2, 3], vec![4]];
/// let seed = 0x9d2c_5680_1f3b_77a1; // derived from a secret key by the server
/// let display = fixed_display(seed, &groups);
/// assert_eq!(display, fixed_display(seed, &groups)); // fixed
/// assert!(!is_linear_extension(&display, &groups)); // never already in reading order
/// let mut sorted = display.clone();
/// sorted.sort();
/// assert_eq!(sorted, vec![1, 2, 3, 4]);
/// ```
pub fn fixed_display(display_seed: u64, order_groups: &[Vec<usize>]) -> Vec<usize> {
    let n: usize = order_groups.iter().map(Vec::len).sum();
    let mut rng = SplitMix64::new(display_seed);
    let mut display: Vec<usize> = (1..=n).collect();
    let all_orders_valid = order_groups.len() <= 1;
    for _ in 0..64 {
        rng.shuffle(&mut display);
        if all_orders_valid || !is_linear_extension(&display, order_groups) {
            return display;
        }
    }
    // Practically unreachable (needs 64 draws that are all valid orders); a rotation of the
    // canonical order is never valid when there are two or more groups.
    let mut rotated: Vec<usize> = (1..=n).collect();
    rotated.rotate_left(1);
    rotated
}

/// What is shown at each position under `old_display` (e.g. the panel images), reordered for
/// `new_display`, so that a redrawn display keeps each panel with its image; `None` when the
/// lengths differ or the two displays are not permutations of the same panels.
///
/// ```
/// use memeboard_core::kinds::panels::reorder_shown;
/// let shown = ["img-of-3", "img-of-1", "img-of-2"];
/// assert_eq!(
///     reorder_shown(&shown, &[3, 1, 2], &[2, 3, 1]),
///     Some(vec!["img-of-2", "img-of-3", "img-of-1"])
/// );
/// assert_eq!(reorder_shown(&shown, &[3, 1, 2], &[1, 2]), None);
/// ```
pub fn reorder_shown<T: Clone>(
    shown: &[T],
    old_display: &[usize],
    new_display: &[usize],
) -> Option<Vec<T>> {
    if shown.len() != old_display.len() || old_display.len() != new_display.len() {
        return None;
    }
    new_display
        .iter()
        .map(|panel| {
            let at = old_display.iter().position(|p| p == panel)?;
            shown.get(at).cloned()
        })
        .collect()
}

/// The panels of an item as stored: opaque image references, in the order they are *shown*.
pub type Panels = Vec<MediaRef>;

/// A panel-count bucket: the categories of both multi-panel tasks (the benchmark reports
/// order recovery by strip length, and long strips are much harder). Public on purpose: the
/// number of panels is visible, whereas the structure type is the typing task's gold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PanelBucket {
    /// Category key.
    pub key: &'static str,
    /// Fewest panels in the bucket.
    pub min: usize,
    /// English label.
    pub label_en: &'static str,
    /// Chinese label.
    pub label_zh: &'static str,
}

impl PanelBucket {
    /// The bucket as a category of a task.
    pub fn info(&self) -> CategoryInfo {
        CategoryInfo {
            key: self.key.into(),
            label_en: self.label_en.into(),
            label_zh: self.label_zh.into(),
        }
    }
}

/// The three buckets, shortest strips first: 2–3, 4–6 and 7+ panels.
pub const PANEL_BUCKETS: [PanelBucket; 3] = [
    PanelBucket {
        key: "panels_2_3",
        min: 0,
        label_en: "2–3 panels",
        label_zh: "2–3 格",
    },
    PanelBucket {
        key: "panels_4_6",
        min: 4,
        label_en: "4–6 panels",
        label_zh: "4–6 格",
    },
    PanelBucket {
        key: "panels_7_plus",
        min: 7,
        label_en: "7+ panels",
        label_zh: "7 格以上",
    },
];

/// The bucket of a strip of `num_panels` panels.
///
/// ```
/// use memeboard_core::kinds::panels::panel_bucket;
/// assert_eq!(panel_bucket(3).key, "panels_2_3");
/// assert_eq!(panel_bucket(4).key, "panels_4_6");
/// assert_eq!(panel_bucket(12).key, "panels_7_plus");
/// ```
pub fn panel_bucket(num_panels: usize) -> &'static PanelBucket {
    PANEL_BUCKETS
        .iter()
        .rev()
        .find(|b| num_panels >= b.min)
        .unwrap_or(&PANEL_BUCKETS[0])
}

/// The display orders a multi-panel task can use (the benchmark's context ablation is this
/// crossed with context none / with comments).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum DisplayOrder {
    /// The fixed shuffled display ([`fixed_display`]).
    Shuffled,
    /// Canonical reading order.
    Canonical,
}

/// Expected accuracy of a uniformly random reading order on one item: the number of valid
/// orders (the product of the group sizes' factorials) over `n!`.
///
/// Worked example: `[[1],[2,3],[4]]` has 1!·2!·1! = 2 valid orders of 4! = 24, so 1/12.
///
/// ```
/// use memeboard_core::kinds::panels::random_order_expectation;
/// let p = random_order_expectation(&[vec![1], vec![2, 3], vec![4]]);
/// assert!((p - 1.0 / 12.0).abs() < 1e-15);
/// assert_eq!(random_order_expectation(&[vec![1, 2]]), 1.0);
/// ```
pub fn random_order_expectation(order_groups: &[Vec<usize>]) -> f64 {
    // Multiply group factorials and divide by n! term by term (no overflow for long strips).
    let mut p = 1.0;
    let mut k = 0usize;
    for group in order_groups {
        for j in 1..=group.len() {
            k += 1;
            p *= j as f64 / k as f64;
        }
    }
    p
}

/// Whether a reading order over displayed panel numbers (1-based) is right for `display` and
/// `order_groups`.
///
/// ```
/// use memeboard_core::kinds::panels::reads_in_order;
/// // Shown: canonical 3, 1, 2. Reading order "2,3,1" is panels 1, 2, 3.
/// assert!(reads_in_order(&[3, 1, 2], &[vec![1], vec![2], vec![3]], &[2, 3, 1]));
/// assert!(!reads_in_order(&[3, 1, 2], &[vec![1], vec![2], vec![3]], &[1, 2, 3]));
/// ```
pub fn reads_in_order(display: &[usize], order_groups: &[Vec<usize>], order: &[usize]) -> bool {
    let zero_based: Option<Vec<usize>> = order.iter().map(|&d| d.checked_sub(1)).collect();
    zero_based
        .and_then(|o| crate::scoring::displayed_order_to_canonical(display, &o))
        .is_some_and(|seq| is_linear_extension(&seq, order_groups))
}

/// Checks that `order` is a permutation of `1..=n` (displayed panel numbers); the message
/// says what was expected.
pub fn check_permutation(order: &[usize], n: usize) -> Result<(), crate::messages::Message> {
    if order.len() != n {
        return Err(crate::msg!(
            "answer.panel_count",
            n = n,
            found = order.len()
        ));
    }
    let mut seen = vec![false; n];
    for &d in order {
        if d == 0 || d > n {
            return Err(crate::msg!("answer.panel_range", n = n, found = d));
        }
        if std::mem::replace(&mut seen[d - 1], true) {
            return Err(crate::msg!("answer.panel_twice", panel = d));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_expectation_matches_brute_force_on_small_cases() {
        // Count valid permutations of 5 panels with groups [[1,2],[3],[4,5]]: 2!·1!·2! = 4.
        let groups = vec![vec![1, 2], vec![3], vec![4, 5]];
        let mut perms = Vec::new();
        permute(&mut (1..=5).collect::<Vec<_>>(), 0, &mut perms);
        let valid = perms
            .iter()
            .filter(|p| is_linear_extension(p, &groups))
            .count();
        assert_eq!(valid, 4);
        assert!((random_order_expectation(&groups) - valid as f64 / 120.0).abs() < 1e-15);
    }

    fn permute(v: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>) {
        if k == v.len() {
            out.push(v.clone());
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            permute(v, k + 1, out);
            v.swap(k, i);
        }
    }

    #[test]
    fn displays_are_fixed_and_never_already_valid() {
        for n in 2..12 {
            let groups: Vec<Vec<usize>> = (1..=n).map(|i| vec![i]).collect();
            for seed in [1, 2, 3, u64::MAX] {
                let d = fixed_display(seed, &groups);
                assert_eq!(d, fixed_display(seed, &groups));
                assert!(!is_linear_extension(&d, &groups), "{seed} {n}: {d:?}");
            }
        }
        // Two panels in one group: every order is valid, any display will do.
        assert_eq!(fixed_display(7, &[vec![1, 2]]).len(), 2);
    }

    #[test]
    fn the_display_follows_the_seed_not_the_public_id() {
        // Over 200 comics of 6 panels, displays drawn from unrelated (secret-derived) seeds
        // agree with the legacy public draw about as often as chance (1/720 per comic, here
        // allowing a handful), and vary between seeds.
        let groups: Vec<Vec<usize>> = (1..=6).map(|i| vec![i]).collect();
        let mut rng = SplitMix64::new(0x5eed);
        let mut same_as_legacy = 0;
        let mut distinct = std::collections::BTreeSet::new();
        for k in 0..200 {
            let id = format!("comic-{k}");
            let keyed = fixed_display(rng.next_u64(), &groups);
            same_as_legacy +=
                usize::from(keyed == fixed_display(legacy_display_seed(&id), &groups));
            distinct.insert(keyed);
        }
        assert!(
            same_as_legacy <= 3,
            "{same_as_legacy} of 200 match the public draw"
        );
        assert!(distinct.len() > 150, "{} distinct displays", distinct.len());
    }

    #[test]
    fn permutation_errors_name_the_problem() {
        assert!(check_permutation(&[2, 1, 3], 3).is_ok());
        assert_eq!(
            check_permutation(&[2, 2, 3], 3).unwrap_err().to_string(),
            "panel 2 appears twice"
        );
        assert!(check_permutation(&[0, 1, 2], 3)
            .unwrap_err()
            .to_string()
            .contains("from 1 to 3"));
        assert!(check_permutation(&[1, 2], 3)
            .unwrap_err()
            .to_string()
            .contains("found 2 number(s)"));
    }

    #[test]
    fn labels_parse_in_both_languages() {
        for t in StructureType::ALL {
            assert_eq!(StructureType::parse(t.key()), Some(t));
            assert_eq!(StructureType::parse(&t.key().to_uppercase()), Some(t));
            assert_eq!(StructureType::parse(t.name_zh()), Some(t));
            assert_eq!(StructureType::ALL[t.index()], t);
        }
    }
}

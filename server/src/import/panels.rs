//! The multi-panel (CMPM-style) importer: a JSON Lines manifest plus a folder of panel images
//! becomes a benchmark with an order-recovery and a structure-typing task (and their context
//! ablation variants), every panel stored under an opaque per-task name.
//!
//! Everything is checked before anything is stored: the manifest's fields and labels, the
//! order groups, every image (present, readable, a PNG, JPEG or WebP whose bytes match its
//! extension). Every problem is reported (file, line, field, found, expected) and an import
//! with any problem stores nothing. Ids come from the benchmark slug and the manifest's own
//! item ids (public data only), so a re-import keeps them; the displays come from the
//! benchmark's secret key (`crate::draws`), so a re-import with the same key keeps them too.
//! The format is documented in docs/panels.md.

use crate::draws::{Key, Purpose};
use crate::import::{split_of, ImportError};
use crate::storage::{BenchmarkRecord, ItemRecord, MediaRecord, Storage, TaskRecord};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::panels::{
    fixed_display, panel_bucket, OrderingDependency, PanelContext, StructureType, PANEL_BUCKETS,
};
use memeboard_core::kinds::{
    panel_explanation, panel_order, panel_type, ItemGold, ItemPrompt, TaskKind,
};
use memeboard_core::media::opaque_media_name;
use memeboard_core::tasks::{CategoryInfo, MediaRef};
use std::collections::BTreeMap;

mod images;
mod manifest;

use images::PanelFile;

/// Most panels a comic may have (CMPM has 2–15).
pub const MAX_PANELS: usize = 20;

/// What a multi-panel import is called and how its quizzes start.
#[derive(Debug, Clone)]
pub struct PanelsSpec {
    /// Benchmark slug; task slugs are `<slug>-order`, `<slug>-type` and the variants.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// Comics per participant batch (capped by the number of items).
    pub batch_size: usize,
    /// Share of comics (0–100) in the open dev split.
    pub dev_percent: u8,
    /// Whether the two main quizzes are listed (variants always start closed).
    pub quiz_open: bool,
}

/// One task variant of the import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Variant {
    suffix: &'static str,
    title_en: &'static str,
    title_zh: &'static str,
    order: bool,
    shuffled: bool,
    context: bool,
    main: bool,
}

/// The benchmark's tasks: order recovery in the 2×2 context ablation (display canonical /
/// shuffled × context none / with comments) and structure typing with and without context.
/// The `main` tasks hold every comic (of the order pool, for order recovery); the others,
/// the ablation, only the comics with comments (the main order task's `cas` subset).
const VARIANTS: [Variant; 6] = [
    Variant {
        suffix: "order",
        title_en: "Panel order",
        title_zh: "漫画排序",
        order: true,
        shuffled: true,
        context: false,
        main: true,
    },
    Variant {
        suffix: "order-context",
        title_en: "Panel order, with comments",
        title_zh: "漫画排序（附评论）",
        order: true,
        shuffled: true,
        context: true,
        main: false,
    },
    Variant {
        suffix: "order-canonical",
        title_en: "Panel order, shown in order",
        title_zh: "漫画排序（原顺序展示）",
        order: true,
        shuffled: false,
        context: false,
        main: false,
    },
    Variant {
        suffix: "order-canonical-context",
        title_en: "Panel order, shown in order, with comments",
        title_zh: "漫画排序（原顺序展示，附评论）",
        order: true,
        shuffled: false,
        context: true,
        main: false,
    },
    Variant {
        suffix: "type",
        title_en: "Comic structure",
        title_zh: "漫画结构类型",
        order: false,
        shuffled: false,
        context: false,
        main: true,
    },
    Variant {
        suffix: "type-context",
        title_en: "Comic structure, with comments",
        title_zh: "漫画结构类型（附评论）",
        order: false,
        shuffled: false,
        context: true,
        main: false,
    },
];

/// One validated manifest line.
#[derive(Debug, Clone)]
struct Comic {
    id: String,
    line: usize,
    panels: Vec<PanelFile>,
    structure: StructureType,
    dependency: OrderingDependency,
    order_groups: Option<Vec<Vec<usize>>>,
    context: Option<PanelContext>,
    alt: Vec<String>,
    flagged: bool,
}

impl Comic {
    /// Whether readers' comments come with the comic (CMPM's comment-available comics).
    fn has_comments(&self) -> bool {
        self.context
            .as_ref()
            .is_some_and(|c| !c.comments.is_empty())
    }

    /// Order recovery uses items with strong dependency, a non-parallel type and order
    /// groups (at least two groups: with one, every order is right).
    fn in_order_task(&self) -> bool {
        self.dependency == OrderingDependency::Strong
            && self.structure != StructureType::Parallel
            && self.order_groups.as_ref().is_some_and(|g| g.len() >= 2)
    }
}

/// Everything one multi-panel import writes.
#[derive(Debug, Clone)]
pub struct PanelsImport {
    /// The benchmark.
    pub benchmark: BenchmarkRecord,
    /// Tasks with their items.
    pub tasks: Vec<(TaskRecord, Vec<ItemRecord>)>,
    /// Panel images under their per-task names.
    pub media: Vec<MediaRecord>,
}

/// The comics and task items an import stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PanelsSummary {
    /// Comics in the manifest.
    pub comics: usize,
    /// Items of the main order-recovery task.
    pub order_items: usize,
    /// Items of the main typing task.
    pub type_items: usize,
    /// Task slugs, main tasks first.
    pub tasks: Vec<String>,
}

/// Where panel files come from: a folder on disk, or (for the demo) images made in memory.
pub type MediaReader<'a> = dyn Fn(&str) -> std::io::Result<Vec<u8>> + Sync + 'a;

/// Parses and checks a manifest and its images; every problem at once, or the records.
/// `key`: the benchmark's draw key (`crate::draws::benchmark_key`), which seeds the displays.
pub fn parse_panels(
    spec: &PanelsSpec,
    key: &Key,
    manifest_name: &str,
    manifest: &str,
    read_media: &MediaReader<'_>,
) -> Result<PanelsImport, ImportError> {
    let mut problems = Vec::new();
    crate::import::files::title_problem(&spec.title, &mut problems);
    let comics = manifest::parse_manifest(manifest_name, manifest, read_media, &mut problems);
    if comics.is_empty() && problems.is_empty() {
        problems.push(format!(
            "{manifest_name}: no comics (the manifest has no lines)"
        ));
    }
    if !problems.is_empty() {
        return Err(ImportError { problems });
    }
    Ok(build_records(spec, key, &comics))
}

/// Turns checked comics into benchmark, task, item and media records.
fn build_records(spec: &PanelsSpec, key: &Key, comics: &[Comic]) -> PanelsImport {
    let benchmark = BenchmarkRecord {
        id: spec.slug.clone(),
        slug: spec.slug.clone(),
        title: spec.title.clone(),
        description: spec.description.clone(),
        family: "multi_panel".into(),
    };
    let categories: Vec<CategoryInfo> = PANEL_BUCKETS.iter().map(|b| b.info()).collect();
    let categories_json = serde_json::to_string(&categories).unwrap_or_else(|_| "[]".into());
    let mut tasks = Vec::new();
    let mut media: BTreeMap<String, MediaRecord> = BTreeMap::new();
    for variant in VARIANTS {
        let slug = format!("{}-{}", spec.slug, variant.suffix);
        let task_id = stable_id("task", &[&spec.slug, variant.suffix]);
        let mut items = Vec::new();
        for comic in comics {
            if variant.order && !comic.in_order_task() {
                continue;
            }
            // The ablation variants (CMPM Table 6's grid) hold only the comics with
            // comments, as the paper's cells do; the main tasks keep every comic.
            if !variant.main && !comic.has_comments() {
                continue;
            }
            let source_id = stable_id("comic", &[&spec.slug, &comic.id]);
            let item_id = stable_id("panel", &[&spec.slug, variant.suffix, &comic.id]);
            let (split, half) = split_of(&source_id, spec.dev_percent);
            let n = comic.panels.len();
            // The display is fixed per comic, so every variant, every participant and every
            // model sees the same one; its seed is keyed by the benchmark's secret key (the
            // display is the gold in disguise: public data must not give it).
            let display: Vec<usize> = match (&comic.order_groups, variant.shuffled) {
                (Some(groups), true) => {
                    fixed_display(key.seed(Purpose::PanelDisplay, &source_id), groups)
                }
                _ => (1..=n).collect(),
            };
            let panels: Vec<MediaRef> = display
                .iter()
                .map(|&canonical| served_panel(&slug, &task_id, comic, canonical, &mut media))
                .collect();
            let context = if variant.context {
                comic.context.clone()
            } else {
                None
            };
            let (prompt, gold) = if variant.order {
                (
                    ItemPrompt::PanelOrder(panel_order::Prompt { panels, context }),
                    ItemGold::PanelOrder(panel_order::Gold {
                        display,
                        order_groups: comic.order_groups.clone().unwrap_or_default(),
                        structure: comic.structure,
                        comments_available: comic.has_comments(),
                    }),
                )
            } else {
                (
                    ItemPrompt::PanelType(panel_type::Prompt { panels, context }),
                    ItemGold::PanelType(panel_type::Gold {
                        structure: comic.structure,
                    }),
                )
            };
            items.push(ItemRecord {
                id: item_id,
                task_id: task_id.clone(),
                ordinal: comic.line as i64,
                category: panel_bucket(n).key.to_owned(),
                prompt_json: serde_json::to_string(&prompt).unwrap_or_default(),
                gold_json: serde_json::to_string(&gold).unwrap_or_default(),
                flagged: comic.flagged,
                meme_id: None,
                source_id,
                split: split.into(),
                board_half: half.into(),
            });
        }
        let kind = if variant.order {
            "panel_order"
        } else {
            "panel_type"
        };
        tasks.push((
            TaskRecord {
                id: task_id,
                benchmark_id: spec.slug.clone(),
                slug,
                kind: kind.into(),
                title: format!("{} · {}", variant.title_en, variant.title_zh),
                description: spec.description.clone(),
                categories_json: categories_json.clone(),
                batch_size: spec.batch_size.min(items.len()).max(1) as i64,
                quiz_open: spec.quiz_open && variant.main,
            },
            items,
        ));
    }
    tasks.push(explanation_task(spec, comics, &categories_json, &mut media));
    PanelsImport {
        benchmark,
        tasks,
        media: media.into_values().collect(),
    }
}

/// Which task's public inputs reveal which other task's hidden gold in a multi-panel
/// benchmark, as `(revealing, hidden)` task ids: every task showing the panels in reading
/// order (the canonical-display order variants, the typing tasks, the comic explanation task)
/// reveals the answers of every shuffled order task for the same comics. From the slug alone,
/// so that the start-up upgrade records the same pairs for benchmarks imported before.
pub fn panel_gold_reveals(benchmark_slug: &str) -> Vec<(String, String)> {
    let hidden: Vec<String> = VARIANTS
        .iter()
        .filter(|v| v.order && v.shuffled)
        .map(|v| stable_id("task", &[benchmark_slug, v.suffix]))
        .collect();
    let revealing = VARIANTS
        .iter()
        .filter(|v| !v.shuffled)
        .map(|v| stable_id("task", &[benchmark_slug, v.suffix]))
        .chain(std::iter::once(explanation_task_id(benchmark_slug)));
    revealing
        .flat_map(|r| hidden.iter().map(move |h| (r.clone(), h.clone())))
        .collect()
}

/// Slug suffix of the comic explanation task (`<slug>-explain`).
pub const EXPLAIN_SUFFIX: &str = "explain";

/// The id of a comic's explanation item: from the benchmark slug and the comic's source id
/// (public data only).
pub fn explanation_item_id(benchmark_slug: &str, source_id: &str) -> String {
    stable_id("panel", &[benchmark_slug, EXPLAIN_SUFFIX, source_id])
}

/// The comic explanation task's id in a benchmark.
pub fn explanation_task_id(benchmark_slug: &str) -> String {
    stable_id("task", &[benchmark_slug, EXPLAIN_SUFFIX])
}

/// The comic explanation task's record (title, closed quiz) in a benchmark.
pub fn explanation_task_record(
    benchmark_slug: &str,
    description: &str,
    categories_json: &str,
    batch_size: usize,
    items: usize,
) -> TaskRecord {
    TaskRecord {
        id: explanation_task_id(benchmark_slug),
        benchmark_id: benchmark_slug.to_owned(),
        slug: format!("{benchmark_slug}-{EXPLAIN_SUFFIX}"),
        kind: TaskKind::PanelExplanation.as_str().into(),
        title: "Comic explanation · 漫画解读".into(),
        description: description.to_owned(),
        categories_json: categories_json.to_owned(),
        batch_size: batch_size.min(items).max(1) as i64,
        quiz_open: false,
    }
}

/// The panel `canonical` (1-based) of a comic under its name in task `slug`: named per task,
/// so the same image gets unrelated URLs in different tasks.
fn served_panel(
    slug: &str,
    task_id: &str,
    comic: &Comic,
    canonical: usize,
    media: &mut BTreeMap<String, MediaRecord>,
) -> MediaRef {
    let file = &comic.panels[canonical - 1];
    let mut salted = slug.as_bytes().to_vec();
    salted.push(0);
    salted.extend_from_slice(&file.bytes);
    let name = opaque_media_name(&salted, file.extension);
    media.entry(name.clone()).or_insert_with(|| MediaRecord {
        name: name.clone(),
        task_id: task_id.to_owned(),
        sha256: file.sha256.clone(),
        content_type: file.content_type.into(),
        bytes: file.bytes.clone(),
    });
    MediaRef {
        url: format!("/media/{name}"),
        alt: comic.alt.get(canonical - 1).cloned().unwrap_or_default(),
    }
}

/// The comic explanation task: every comic, panels in reading order with its title and
/// caption (no comments), no gold. Not auto-scored; its quiz starts closed.
fn explanation_task(
    spec: &PanelsSpec,
    comics: &[Comic],
    categories_json: &str,
    media: &mut BTreeMap<String, MediaRecord>,
) -> (TaskRecord, Vec<ItemRecord>) {
    let slug = format!("{}-{EXPLAIN_SUFFIX}", spec.slug);
    let task_id = explanation_task_id(&spec.slug);
    let items: Vec<ItemRecord> = comics
        .iter()
        .map(|comic| {
            let source_id = stable_id("comic", &[&spec.slug, &comic.id]);
            let (split, half) = split_of(&source_id, spec.dev_percent);
            let panels = (1..=comic.panels.len())
                .map(|canonical| served_panel(&slug, &task_id, comic, canonical, media))
                .collect();
            let context = comic
                .context
                .as_ref()
                .map(|c| PanelContext {
                    title: c.title.clone(),
                    caption: c.caption.clone(),
                    comments: Vec::new(),
                })
                .filter(|c| !c.is_empty());
            let prompt =
                ItemPrompt::PanelExplanation(panel_explanation::Prompt { panels, context });
            let gold = ItemGold::PanelExplanation(panel_explanation::Gold {});
            ItemRecord {
                // From the comic's source id, so that the start-up upgrade (which adds this
                // task to benchmarks imported before it existed, without their manifest) mints
                // the same ids.
                id: explanation_item_id(&spec.slug, &source_id),
                task_id: task_id.clone(),
                ordinal: comic.line as i64,
                category: panel_bucket(comic.panels.len()).key.to_owned(),
                prompt_json: serde_json::to_string(&prompt).unwrap_or_default(),
                gold_json: serde_json::to_string(&gold).unwrap_or_default(),
                flagged: comic.flagged,
                meme_id: None,
                source_id,
                split: split.into(),
                board_half: half.into(),
            }
        })
        .collect();
    let task = explanation_task_record(
        &spec.slug,
        &spec.description,
        categories_json,
        spec.batch_size,
        items.len(),
    );
    (task, items)
}

/// Parses, checks and stores a multi-panel import in one transaction; refuses to move test
/// items to dev ([`import_panels_with`] to allow it).
pub async fn import_panels(
    storage: &Storage,
    spec: &PanelsSpec,
    manifest_name: &str,
    manifest: &str,
    read_media: &MediaReader<'_>,
) -> anyhow::Result<PanelsSummary> {
    let refuse = crate::import::guard::TestToDev::Refuse;
    import_panels_with(storage, spec, manifest_name, manifest, read_media, refuse).await
}

/// [`import_panels`], saying whether test items may move to dev.
pub async fn import_panels_with(
    storage: &Storage,
    spec: &PanelsSpec,
    manifest_name: &str,
    manifest: &str,
    read_media: &MediaReader<'_>,
    moves: crate::import::guard::TestToDev,
) -> anyhow::Result<PanelsSummary> {
    let key = crate::draws::benchmark_key(storage, &spec.slug).await?;
    let parsed = parse_panels(spec, &key, manifest_name, manifest, read_media)?;
    crate::import::guard::check_test_to_dev(storage, &parsed.tasks, moves).await?;
    storage
        .import_benchmark_revealing(
            &parsed.benchmark,
            &[],
            &parsed.tasks,
            &parsed.media,
            &panel_gold_reveals(&spec.slug),
        )
        .await?;
    let count = |suffix: &str| {
        parsed
            .tasks
            .iter()
            .find(|(t, _)| t.slug == format!("{}-{suffix}", spec.slug))
            .map_or(0, |(_, items)| items.len())
    };
    Ok(PanelsSummary {
        comics: parsed
            .tasks
            .iter()
            .find(|(t, _)| t.kind == "panel_type")
            .map_or(0, |(_, i)| i.len()),
        order_items: count("order"),
        type_items: count("type"),
        tasks: parsed.tasks.iter().map(|(t, _)| t.slug.clone()).collect(),
    })
}

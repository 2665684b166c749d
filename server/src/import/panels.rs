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
use crate::import::{is_safe_relative, split_of, ImportError};
use crate::storage::{BenchmarkRecord, ItemRecord, MediaRecord, Storage, TaskRecord};
use memeboard_core::ids::stable_id;
use memeboard_core::kinds::panels::{
    fixed_display, panel_bucket, ContextRelation, OrderingDependency, PanelContext, StructureType,
    PANEL_BUCKETS,
};
use memeboard_core::kinds::{
    panel_explanation, panel_order, panel_type, ItemGold, ItemPrompt, TaskKind,
};
use memeboard_core::media::opaque_media_name;
use memeboard_core::tasks::{CategoryInfo, MediaRef};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Most panels a comic may have (CMPM has 2–15).
pub const MAX_PANELS: usize = 20;

/// The fields a manifest line may have.
const FIELDS: &[&str] = &[
    "id",
    "panels",
    "type",
    "ordering_dependency",
    "order_groups",
    "context",
    "relation",
    "alt",
    "content_warning",
];

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
    /// Order recovery uses items with strong dependency, a non-parallel type and order
    /// groups (at least two groups: with one, every order is right).
    fn in_order_task(&self) -> bool {
        self.dependency == OrderingDependency::Strong
            && self.structure != StructureType::Parallel
            && self.order_groups.as_ref().is_some_and(|g| g.len() >= 2)
    }
}

#[derive(Debug, Clone)]
struct PanelFile {
    extension: &'static str,
    content_type: &'static str,
    sha256: String,
    bytes: Arc<Vec<u8>>,
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
    crate::import_files::title_problem(&spec.title, &mut problems);
    let mut comics = Vec::new();
    let mut first_line: HashMap<String, usize> = HashMap::new();
    // Each distinct file is read and checked once, however many comics use it.
    let mut files: HashMap<String, Result<PanelFile, String>> = HashMap::new();
    for (index, raw) in manifest.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim_start_matches('\u{feff}').trim();
        if raw.is_empty() {
            continue;
        }
        let at = |field: &str| format!("{manifest_name} line {line}, field `{field}`");
        let obj = match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(obj)) => obj,
            Ok(other) => {
                problems.push(format!(
                    "{manifest_name} line {line}: expected a JSON object, found {}",
                    describe(&other)
                ));
                continue;
            }
            Err(e) => {
                problems.push(format!(
                    "{manifest_name} line {line}: not valid JSON at column {}: {e}",
                    e.column()
                ));
                continue;
            }
        };
        let before = problems.len();
        for key in obj.keys() {
            if !FIELDS.contains(&key.as_str()) {
                problems.push(format!(
                    "{}: unknown field (expected one of {})",
                    at(key),
                    FIELDS.join(", ")
                ));
            }
        }
        crate::import_files::long_texts(&obj, &at, &mut problems);
        let id = text(&obj, "id", &at, &mut problems);
        if let Some(id) = &id {
            if let Some(first) = first_line.get(id) {
                problems.push(format!(
                    "{}: duplicate id \"{id}\" (first on line {first})",
                    at("id")
                ));
            } else {
                first_line.insert(id.clone(), line);
            }
        }
        let structure = label(
            &obj,
            "type",
            &at,
            &mut problems,
            |s| StructureType::ALL.into_iter().find(|t| t.key() == s),
            &StructureType::ALL.map(StructureType::key),
        );
        let dependency = label(
            &obj,
            "ordering_dependency",
            &at,
            &mut problems,
            |s| match s {
                "strong" => Some(OrderingDependency::Strong),
                "weak" => Some(OrderingDependency::Weak),
                _ => None,
            },
            &["strong", "weak"],
        );
        if obj.get("relation").is_some_and(|v| !v.is_null()) {
            let relations = [
                "image_dominant",
                "text_dominant",
                "complementary",
                "sarcastic_conflict",
                "unclear",
            ];
            label(
                &obj,
                "relation",
                &at,
                &mut problems,
                |s| serde_json::from_value::<ContextRelation>(Value::String(s.to_owned())).ok(),
                &relations,
            );
        }
        let panel_names = panel_names(&obj, &at, &mut problems);
        let mut panels = Vec::new();
        for (i, name) in panel_names.iter().enumerate() {
            let checked = files
                .entry(name.clone())
                .or_insert_with(|| read_panel(name, read_media));
            match checked {
                Ok(p) => panels.push(p.clone()),
                Err(e) => problems.push(format!("{}: {e}", at(&format!("panels[{i}]")))),
            }
        }
        // Panels as listed (a bad name is reported once, not again as a missing group member).
        let n = obj
            .get("panels")
            .and_then(Value::as_array)
            .map_or(panel_names.len(), Vec::len);
        let order_groups = match obj.get("order_groups") {
            None | Some(Value::Null) => None,
            Some(v) => match check_groups(v, n) {
                Ok(g) => Some(g),
                Err(e) => {
                    problems.push(format!("{}: {e}", at("order_groups")));
                    None
                }
            },
        };
        let context = match obj.get("context") {
            None | Some(Value::Null) => None,
            Some(v) => match read_context(v) {
                Ok(c) => (!c.is_empty()).then_some(c),
                Err(e) => {
                    problems.push(format!("{}: {e}", at("context")));
                    None
                }
            },
        };
        let alt = match obj.get("alt") {
            None | Some(Value::Null) => vec![String::new(); n],
            Some(Value::Array(a)) if a.len() == n && a.iter().all(|v| v.as_str().is_some()) => a
                .iter()
                .map(|v| v.as_str().unwrap_or_default().trim().to_owned())
                .collect(),
            Some(other) => {
                problems.push(format!(
                    "{}: expected an array of {n} texts (one per panel), found {}",
                    at("alt"),
                    describe(other)
                ));
                Vec::new()
            }
        };
        let flagged = match obj.get("content_warning") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                problems.push(format!(
                    "{}: expected true or false, found {}",
                    at("content_warning"),
                    describe(other)
                ));
                false
            }
        };
        if problems.len() > before {
            continue;
        }
        if let (Some(id), Some(structure), Some(dependency)) = (id, structure, dependency) {
            comics.push(Comic {
                id,
                line,
                panels,
                structure,
                dependency,
                order_groups,
                context,
                alt,
                flagged,
            });
        }
    }
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
    let refuse = crate::import_guard::TestToDev::Refuse;
    import_panels_with(storage, spec, manifest_name, manifest, read_media, refuse).await
}

/// [`import_panels`], saying whether test items may move to dev.
pub async fn import_panels_with(
    storage: &Storage,
    spec: &PanelsSpec,
    manifest_name: &str,
    manifest: &str,
    read_media: &MediaReader<'_>,
    moves: crate::import_guard::TestToDev,
) -> anyhow::Result<PanelsSummary> {
    let key = crate::draws::benchmark_key(storage, &spec.slug).await?;
    let parsed = parse_panels(spec, &key, manifest_name, manifest, read_media)?;
    crate::import_guard::check_test_to_dev(storage, &parsed.tasks, moves).await?;
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

/// A required non-empty text field.
fn text(
    obj: &Map<String, Value>,
    field: &str,
    at: &dyn Fn(&str) -> String,
    problems: &mut Vec<String>,
) -> Option<String> {
    match obj.get(field) {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(other) => {
            problems.push(format!(
                "{}: expected non-empty text, found {}",
                at(field),
                describe(other)
            ));
            None
        }
        None => {
            problems.push(format!("{}: missing", at(field)));
            None
        }
    }
}

/// A required label from a closed set.
fn label<T>(
    obj: &Map<String, Value>,
    field: &str,
    at: &dyn Fn(&str) -> String,
    problems: &mut Vec<String>,
    parse: impl Fn(&str) -> Option<T>,
    expected: &[&str],
) -> Option<T> {
    let expected = || {
        expected
            .iter()
            .map(|e| format!("\"{e}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match obj.get(field) {
        Some(Value::String(s)) => parse(s.trim()).or_else(|| {
            problems.push(format!(
                "{}: unknown label \"{s}\", expected one of {}",
                at(field),
                expected()
            ));
            None
        }),
        Some(other) => {
            problems.push(format!(
                "{}: expected one of {}, found {}",
                at(field),
                expected(),
                describe(other)
            ));
            None
        }
        None => {
            problems.push(format!(
                "{}: missing (expected one of {})",
                at(field),
                expected()
            ));
            None
        }
    }
}

/// The `panels` array: 2 to [`MAX_PANELS`] relative file names.
fn panel_names(
    obj: &Map<String, Value>,
    at: &dyn Fn(&str) -> String,
    problems: &mut Vec<String>,
) -> Vec<String> {
    let Some(value) = obj.get("panels") else {
        problems.push(format!("{}: missing", at("panels")));
        return Vec::new();
    };
    let Value::Array(items) = value else {
        problems.push(format!(
            "{}: expected an array of image file names, found {}",
            at("panels"),
            describe(value)
        ));
        return Vec::new();
    };
    if items.len() < 2 || items.len() > MAX_PANELS {
        problems.push(format!(
            "{}: expected 2 to {MAX_PANELS} panels, found {}",
            at("panels"),
            items.len()
        ));
    }
    let mut names = Vec::new();
    for (i, v) in items.iter().enumerate() {
        match v.as_str().map(str::trim) {
            Some(name) if is_safe_relative(name) => names.push(name.to_owned()),
            Some(name) => problems.push(format!(
                "{}: expected a file name inside the media folder, found \"{name}\"",
                at(&format!("panels[{i}]"))
            )),
            None => problems.push(format!(
                "{}: expected a file name, found {}",
                at(&format!("panels[{i}]")),
                describe(v)
            )),
        }
    }
    names
}

/// Reads a panel file and checks that it is a PNG, JPEG or WebP image matching its extension,
/// with a readable size.
fn read_panel(name: &str, read_media: &MediaReader<'_>) -> Result<PanelFile, String> {
    let bytes = read_media(name).map_err(|e| format!("cannot read \"{name}\": {e}"))?;
    let extension = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let (expected_ext, ext, content_type): (&[&str], &'static str, &'static str) =
        match sniff_image(&bytes) {
            Some("png") => (&["png"], "png", "image/png"),
            Some("jpg") => (&["jpg", "jpeg"], "jpg", "image/jpeg"),
            Some("webp") => (&["webp"], "webp", "image/webp"),
            Some(other) => {
                return Err(format!(
                    "\"{name}\" is a {} image, expected PNG, JPEG or WebP",
                    other.to_uppercase()
                ))
            }
            None => {
                return Err(format!(
            "\"{name}\" is not an image ({} bytes of another format), expected PNG, JPEG or WebP",
            bytes.len()
        ))
            }
        };
    if !expected_ext.contains(&extension.as_str()) {
        return Err(format!(
            "\"{name}\" holds a {} image but is named .{extension}, expected .{}",
            ext.to_uppercase(),
            expected_ext.join(" or .")
        ));
    }
    match imagesize::blob_size(&bytes) {
        Ok(size) if size.width > 0 && size.height > 0 => {
            crate::import_files::check_image_size(size.width, size.height)
                .map_err(|e| format!("\"{name}\" {e}"))?;
        }
        _ => {
            return Err(format!(
                "\"{name}\" is unreadable: its {} header is damaged or cut off",
                ext.to_uppercase()
            ))
        }
    }
    // PNG decodes here (the size is capped above); JPEG and WebP are checked by header only
    // (no decoder in the build).
    if ext == "png" {
        crate::import_files::check_png_decodes(&bytes).map_err(|e| format!("\"{name}\" {e}"))?;
    }
    Ok(PanelFile {
        extension: ext,
        content_type,
        sha256: crate::media::sha256_hex(&bytes),
        bytes: Arc::new(bytes),
    })
}

/// The image format by its magic bytes: the accepted three, or a common other one (named in
/// the error), or `None`.
fn sniff_image(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Some("jpg")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else if bytes.starts_with(b"GIF8") {
        Some("gif")
    } else if bytes.starts_with(b"BM") {
        Some("bmp")
    } else if bytes.starts_with(b"<svg") || bytes.starts_with(b"<?xml") {
        Some("svg")
    } else {
        None
    }
}

/// Order groups over 1-based panel numbers covering `1..=n` exactly once, in blocks.
fn check_groups(value: &Value, n: usize) -> Result<Vec<Vec<usize>>, String> {
    let shape = || {
        format!(
            "expected blocks of panel numbers such as [[1],[2,3],[4]] covering 1 to {n} once each, found {}",
            compact(value)
        )
    };
    let groups: Vec<Vec<usize>> = serde_json::from_value(value.clone()).map_err(|_| shape())?;
    if groups.iter().any(Vec::is_empty) {
        return Err(format!("{}: an empty block", shape()));
    }
    let mut seen = vec![0usize; n + 1];
    for &p in groups.iter().flatten() {
        if p == 0 || p > n {
            return Err(format!(
                "{}: panel {p} does not exist (the comic has {n} panels)",
                shape()
            ));
        }
        seen[p] += 1;
    }
    let twice: Vec<String> = (1..=n)
        .filter(|&p| seen[p] > 1)
        .map(|p| p.to_string())
        .collect();
    let missing: Vec<String> = (1..=n)
        .filter(|&p| seen[p] == 0)
        .map(|p| p.to_string())
        .collect();
    if !twice.is_empty() {
        return Err(format!(
            "{}: panel(s) {} appear more than once",
            shape(),
            twice.join(", ")
        ));
    }
    if !missing.is_empty() {
        return Err(format!(
            "{}: panel(s) {} missing",
            shape(),
            missing.join(", ")
        ));
    }
    Ok(groups)
}

/// The optional context object.
fn read_context(value: &Value) -> Result<PanelContext, String> {
    let Value::Object(obj) = value else {
        return Err(format!(
            "expected an object with title, caption and comments, found {}",
            describe(value)
        ));
    };
    for key in obj.keys() {
        if !["title", "caption", "comments"].contains(&key.as_str()) {
            return Err(format!(
                "unknown field `{key}` (expected title, caption, comments)"
            ));
        }
    }
    let opt = |k: &str| -> Result<Option<String>, String> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok((!s.trim().is_empty()).then(|| s.trim().to_owned())),
            Some(other) => Err(format!("`{k}`: expected text, found {}", describe(other))),
        }
    };
    let comments = match obj.get("comments") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(|s| s.trim().to_owned())
                    .ok_or_else(|| format!("`comments`: expected texts, found {}", describe(v)))
            })
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect(),
        Some(other) => {
            return Err(format!(
                "`comments`: expected an array of texts, found {}",
                describe(other)
            ))
        }
    };
    Ok(PanelContext {
        title: opt("title")?,
        caption: opt("caption")?,
        comments,
    })
}

/// As the other importers describe values, but arrays (panel lists, groups) shown.
fn describe(v: &Value) -> String {
    match v {
        Value::Array(_) => format!("the array {}", compact(v)),
        other => crate::import::describe(other),
    }
}

/// A value as compact JSON, shortened.
fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

//! The panel manifest, line by line: fields and labels, unique ids, panel names (each image
//! read once), order groups, context and alt texts.

use super::images::{read_panel, PanelFile};
use super::{Comic, MediaReader, MAX_PANELS};
use crate::import::is_safe_relative;
use memeboard_core::kinds::panels::{
    ContextRelation, OrderingDependency, PanelContext, StructureType,
};
use serde_json::{Map, Value};
use std::collections::HashMap;

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

/// The manifest's comics whose lines have no problem, in manifest order; every problem is
/// added to `problems` (file, line, field, found, expected).
pub(super) fn parse_manifest(
    manifest_name: &str,
    manifest: &str,
    read_media: &MediaReader<'_>,
    problems: &mut Vec<String>,
) -> Vec<Comic> {
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
        let obj = match crate::import::manifest_object(manifest_name, line, raw) {
            Ok(obj) => obj,
            Err(problem) => {
                problems.push(problem);
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
        crate::import::files::long_texts(&obj, &at, problems);
        let id = text(&obj, "id", &at, problems);
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
        let fields = comic_fields(&obj, &at, &mut files, read_media, problems);
        if problems.len() > before {
            continue;
        }
        let ComicFields {
            structure,
            dependency,
            panels,
            order_groups,
            context,
            alt,
            flagged,
        } = fields;
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
    comics
}

/// The fields of a manifest line after its id (`None` or empty where a field has a problem).
struct ComicFields {
    structure: Option<StructureType>,
    dependency: Option<OrderingDependency>,
    panels: Vec<PanelFile>,
    order_groups: Option<Vec<Vec<usize>>>,
    context: Option<PanelContext>,
    alt: Vec<String>,
    flagged: bool,
}

/// Reads and checks the fields of a manifest line after its id (`at` names a field of the
/// line); each panel file is read once into `files`, however many comics use it.
fn comic_fields(
    obj: &Map<String, Value>,
    at: &dyn Fn(&str) -> String,
    files: &mut HashMap<String, Result<PanelFile, String>>,
    read_media: &MediaReader<'_>,
    problems: &mut Vec<String>,
) -> ComicFields {
    let structure = label(
        obj,
        "type",
        at,
        problems,
        |s| StructureType::ALL.into_iter().find(|t| t.key() == s),
        &StructureType::ALL.map(StructureType::key),
    );
    let dependency = label(
        obj,
        "ordering_dependency",
        at,
        problems,
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
            obj,
            "relation",
            at,
            problems,
            |s| serde_json::from_value::<ContextRelation>(Value::String(s.to_owned())).ok(),
            &relations,
        );
    }
    let panel_names = panel_names(obj, at, problems);
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
    ComicFields {
        structure,
        dependency,
        panels,
        order_groups,
        context,
        alt,
        flagged,
    }
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

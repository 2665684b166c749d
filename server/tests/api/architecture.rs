//! Structural rules the code relies on, checked on the source tree: no import cycles between
//! the modules of any crate, file by file; files of at most 600 lines and functions of at
//! most 150; and no kind decisions written as comparisons outside the kind modules (kinds
//! are dispatched exhaustively with `with_kind!`, so a new kind cannot silently fall into
//! another kind's path).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir` (source-reading tests).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every hand-written crate's `src` files: each file's path, and the same path relative to
/// the workspace root (what the rules report and match prefixes against).
pub(crate) fn crate_sources() -> Vec<(PathBuf, PathBuf)> {
    let root = workspace();
    let mut files = Vec::new();
    for dir in ["core/src", "server/src", "app/src", "embed/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    files
        .into_iter()
        .map(|file| {
            let rel = file.strip_prefix(&root).expect("under root").to_owned();
            (file, rel)
        })
        .collect()
}

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_owned()
}

/// `crate::x` references per top-level module of a crate's `src` (a folder module counts as
/// one; `main` and `lib` are the roots, not modules).
fn module_edges(crate_src: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = workspace().join(crate_src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let first = rel.components().next().expect("a component");
        let top = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if top == "main" || top == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        edges.entry(top.clone()).or_default();
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() && name != top {
                edges.entry(top.clone()).or_default().insert(name);
            }
        }
    }
    edges
}

fn reaches(edges: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let mut stack = vec![from.to_owned()];
    let mut seen = BTreeSet::new();
    while let Some(node) = stack.pop() {
        for next in edges.get(&node).into_iter().flatten() {
            if next == to {
                return true;
            }
            if seen.insert(next.clone()) {
                stack.push(next.clone());
            }
        }
    }
    false
}

/// The import cycles among a crate's top-level modules.
fn cycles_in(crate_src: &str) -> Vec<String> {
    let edges = module_edges(crate_src);
    edges
        .iter()
        .flat_map(|(from, tos)| tos.iter().map(move |to| (from, to)))
        .filter(|(from, to)| reaches(&edges, to, from))
        .map(|(from, to)| format!("{crate_src}: {from} -> {to} -> … -> {from}"))
        .collect()
}

#[test]
fn server_modules_have_no_import_cycles() {
    let edges = module_edges("server/src");
    assert!(edges.contains_key("quiz") && edges.contains_key("kinds"));
    let cycles = cycles_in("server/src");
    assert!(cycles.is_empty(), "module import cycles: {cycles:?}");
}

/// A file's module path under its crate's `src` (`human_eval/study/plan.rs` →
/// `human_eval::study::plan`; `mod.rs`, `lib.rs` and `main.rs` name their folder or the root).
fn module_of(rel: &std::path::Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Edges between the files (sub-modules) of a crate: a `crate::a::b::…` or `super::…` path
/// (in code or in a doc link) names the deepest module file it reaches. A module using one of
/// its ancestors is not an edge (a child may use its parent, `use super::*` included), nor is
/// a module using itself.
fn file_edges(crate_src: &str) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let src = workspace().join(crate_src);
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .map(|f| module_of(f.strip_prefix(&src).expect("under src")))
        .collect();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let me = module_of(rel);
        let text = std::fs::read_to_string(file).expect("read source");
        for start in ["crate::", "super::"] {
            for (i, _) in text.match_indices(start) {
                if i > 0 && text[..i].ends_with(|c: char| ident(c) || c == ':') {
                    continue; // `super::super::`, `a::crate::` are read from their start
                }
                // `super` names the parent module (of `foo.rs` and of `foo/mod.rs` alike).
                let mut path: Vec<String> = if start == "crate::" {
                    Vec::new()
                } else {
                    me[..me.len().saturating_sub(1)].to_vec()
                };
                let mut rest = &text[i + start.len()..];
                while let Some(seg) = rest.strip_prefix("super::") {
                    path.pop();
                    rest = seg;
                }
                for seg in rest.split("::") {
                    let name: String = seg.chars().take_while(|c| ident(*c)).collect();
                    if name.is_empty() || name.len() != seg.len() && !seg.starts_with(&name) {
                        break;
                    }
                    path.push(name.clone());
                    if name.len() != seg.len() {
                        break;
                    }
                }
                while !path.is_empty() && !modules.contains(&path) {
                    path.pop();
                }
                let ancestor = path.len() <= me.len() && me[..path.len()] == path[..];
                if !path.is_empty() && !ancestor {
                    edges.entry(me.clone()).or_default().insert(path);
                }
            }
        }
    }
    edges
}

/// The other crates' module graphs are acyclic too, file by file (issue 26: core had a
/// seven-module circle, the app one between console and study).
#[test]
fn no_crate_has_import_cycles_between_files() {
    let mut cycles = Vec::new();
    for crate_src in ["core/src", "app/src", "embed/src", "server/src"] {
        let edges = file_edges(crate_src);
        for (from, tos) in &edges {
            for to in tos {
                let mut stack = vec![to.clone()];
                let mut seen = BTreeSet::new();
                while let Some(node) = stack.pop() {
                    if &node == from {
                        cycles.push(format!(
                            "{crate_src}: {} -> {} -> …",
                            from.join("::"),
                            to.join("::")
                        ));
                        break;
                    }
                    for next in edges.get(&node).into_iter().flatten() {
                        if seen.insert(next.clone()) {
                            stack.push(next.clone());
                        }
                    }
                }
            }
        }
    }
    assert!(cycles.is_empty(), "module import cycles: {cycles:#?}");
}

/// Lines a hand-written source file may have (tests in it included).
const MAX_FILE_LINES: usize = 600;
/// Lines a function may have, from its signature to its closing brace.
const MAX_FN_LINES: usize = 150;

/// Where the function whose signature is on line `start` ends (its closing brace), counting
/// braces outside string and character literals and comments; `None` for a declaration.
fn function_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0i64;
    let mut opened = false;
    for (j, line) in lines.iter().enumerate().skip(start) {
        let code = line.split("//").next().unwrap_or_default();
        let code = code
            .replace("'{'", "' '")
            .replace("'}'", "' '")
            .replace("'\"'", "' '");
        let mut in_str = false;
        let mut prev = ' ';
        for c in code.chars() {
            match c {
                '"' if prev != '\\' => in_str = !in_str,
                '{' if !in_str => {
                    depth += 1;
                    opened = true;
                }
                '}' if !in_str => depth -= 1,
                _ => {}
            }
            prev = c;
        }
        if !opened && code.contains(';') {
            return None;
        }
        if opened && depth <= 0 {
            return Some(j);
        }
    }
    None
}

/// Whether a line starts a function item (any visibility, `async`, `const`, `unsafe`).
fn starts_fn(line: &str) -> bool {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    for prefix in ["const ", "async ", "unsafe "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    rest.starts_with("fn ")
}

/// Issue 26: files and functions a person can hold in their head, in every crate (generated
/// files, marked `Generated by` in their first lines, excepted).
#[test]
fn files_and_functions_stay_small() {
    let mut offenders = Vec::new();
    for (file, rel) in crate_sources() {
        let rel = rel.display().to_string();
        let text = std::fs::read_to_string(&file).expect("read source");
        let lines: Vec<&str> = text.lines().collect();
        if lines.iter().take(3).any(|l| l.contains("Generated by")) {
            continue;
        }
        if lines.len() > MAX_FILE_LINES {
            offenders.push(format!(
                "{rel}: {} lines (at most {MAX_FILE_LINES})",
                lines.len()
            ));
        }
        for (i, line) in lines.iter().enumerate() {
            if !starts_fn(line) {
                continue;
            }
            if let Some(end) = function_end(&lines, i) {
                let n = end - i + 1;
                if n > MAX_FN_LINES {
                    offenders.push(format!(
                        "{rel}:{}: a function of {n} lines (at most {MAX_FN_LINES})",
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "split these by feature: {offenders:#?}"
    );
}

#[test]
fn kind_decisions_live_in_the_kind_modules() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in ["core/src", "server/src", "app/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut offenders = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&root).expect("under root").to_owned();
        if rel.components().any(|c| c.as_os_str() == "kinds") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        for (n, line) in text.lines().enumerate() {
            let compares = [
                "== TaskKind::",
                "!= TaskKind::",
                "matches!(kind, TaskKind::",
            ]
            .iter()
            .any(|p| line.contains(p));
            if compares {
                offenders.push(format!("{}:{}: {}", rel.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "kind decisions outside kinds/ (dispatch with `with_kind!` instead): {offenders:#?}"
    );
}

/// The wire enums of the kinds: a `match` on one of them outside the kind modules must name
/// every variant it handles and no `_` arm, so that a new kind breaks the build where it
/// must be handled instead of falling silently into "none of these".
const WIRE_ENUMS: [&str; 6] = [
    "ItemGold",
    "ItemPrompt",
    "AnswerValue",
    "AnswerInput",
    "PromptView",
    "ReviewDetail",
];

/// Lines of the `_ =>` arms of matches on wire enums in `text`: an arm counts when a line of
/// its own `match` (from the nearest `match` above, less indented, to the arm) names a variant
/// of a wire enum as a pattern.
fn wildcard_arms_on_wire_enums(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let wildcard = |l: &str| {
        let t = l.trim_start();
        t.starts_with("_ =>") || t.contains("| _ =>")
    };
    let own_match = |arm: usize| {
        (0..arm)
            .rev()
            .find(|&i| indent(lines[i]) < indent(lines[arm]) && lines[i].contains("match "))
            .unwrap_or(arm)
    };
    let variant = |l: &str| {
        WIRE_ENUMS.iter().any(|e| {
            l.match_indices(&format!("{e}::")).any(|(i, _)| {
                let rest = &l[i + e.len() + 2..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
                let after = rest[name.len()..].trim_start();
                !name.is_empty() && ["(", "{", "=>", "|"].iter().any(|p| after.starts_with(p))
            })
        })
    };
    (0..lines.len())
        .filter(|&i| wildcard(lines[i]) && lines[own_match(i)..i].iter().any(|l| variant(l)))
        .map(|i| i + 1)
        .collect()
}

#[test]
fn wire_enums_are_matched_without_wildcards_outside_the_kinds() {
    let planted = "match gold {\n    ItemGold::Rating(g) => Some(g),\n    _ => None,\n}";
    assert_eq!(
        wildcard_arms_on_wire_enums(planted),
        vec![3],
        "the rule sees a planted arm"
    );
    let mut offenders = Vec::new();
    for (file, rel) in crate_sources() {
        if rel.components().any(|c| c.as_os_str() == "kinds") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        let name = rel.display().to_string();
        offenders.extend(
            wildcard_arms_on_wire_enums(&text)
                .into_iter()
                .map(|n| format!("{name}:{n}")),
        );
    }
    assert!(
        offenders.is_empty(),
        "`_ =>` arms on wire enums outside kinds/ (name the variants, or ask the kind through a \
         method of its own): {offenders:#?}"
    );
}

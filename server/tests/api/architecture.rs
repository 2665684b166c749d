//! Structural rules the code relies on, checked on the source tree: no import cycles between
//! the server's modules, and no kind decisions written as comparisons outside the kind modules
//! (kinds are dispatched exhaustively with `with_kind!`, so a new kind cannot silently fall
//! into another kind's path).

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

/// The workspace root.
pub(crate) fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_owned()
}

/// `crate::x` references per top-level module of `server/src` (a folder module counts as one).
fn module_edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = workspace().join("server/src");
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
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
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

#[test]
fn server_modules_have_no_import_cycles() {
    let edges = module_edges();
    assert!(edges.contains_key("quiz") && edges.contains_key("kinds"));
    let cycles: Vec<String> = edges
        .iter()
        .flat_map(|(from, tos)| tos.iter().map(move |to| (from, to)))
        .filter(|(from, to)| reaches(&edges, to, from))
        .map(|(from, to)| format!("{from} -> {to} -> … -> {from}"))
        .collect();
    assert!(cycles.is_empty(), "module import cycles: {cycles:?}");
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

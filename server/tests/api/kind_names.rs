//! A kind's names stay in its own modules (issue 26): outside the `kinds/` folders, a source
//! file may name a kind's module (`kinds::clip_mcq`, `crate::kinds::explanation::…`) only
//! when it belongs to that kind — its importer, its prediction-file reader, the service only
//! its kinds use — or when it is one of the few listed exceptions, each with its reason.
//! Shared layers reach a kind through `with_kind!` and the kind traits' hooks instead.

use crate::architecture::{crate_sources, workspace};

/// The kinds' module names, as `kinds::<name>` spells them in every crate: each kind's
/// storage key, so a new kind is covered the moment it is registered (the test below checks
/// that every key names the kind's module in each crate).
fn kind_modules() -> Vec<&'static str> {
    memeboard_core::kinds::TaskKind::ALL
        .into_iter()
        .map(|k| k.as_str())
        .collect()
}

/// Files and folders outside `kinds/` that belong to some kinds (path prefix, the kinds).
const OWNED: &[(&str, &[&str])] = &[
    // CHIME's importer and its MCQ distractors make the text MCQ and explanation tasks.
    ("server/src/import/chime.rs", &["text_mcq", "explanation"]),
    ("server/src/import/distractors.rs", &["text_mcq"]),
    // The multi-panel importer makes the three comic kinds; their prediction readers.
    (
        "server/src/import/panels",
        &["panel_order", "panel_type", "panel_explanation"],
    ),
    (
        "core/src/predictions/panels",
        &["panel_order", "panel_type"],
    ),
    ("core/src/predictions/comics", &["panel_explanation"]),
    // The clip importer and prediction reader.
    ("server/src/import/clips", &["clip_mcq"]),
    ("core/src/predictions/clips", &["clip_mcq"]),
    // The embedding scorer of free-text explanations (memes and comics).
    ("server/src/explain", &["explanation", "panel_explanation"]),
    ("server/src/upgrade/explanations.rs", &["explanation"]),
    ("core/src/predictions/explanation.rs", &["explanation"]),
    // Human evaluation: the judging kinds' statistics, study planner and rater checks.
    ("core/src/human_eval", &["rating", "ranking"]),
    ("core/src/fieldwork", &["rating", "ranking"]),
    ("server/src/studies", &["rating", "ranking"]),
    ("server/src/crowd/quality.rs", &["rating"]),
];

/// The files that still name a kind in a shared layer, and why; the list only shrinks.
const EXCEPTIONS: &[(&str, &[&str], &str)] = &[
    (
        "server/src/upgrade.rs",
        &["panel_explanation"],
        "the start-up upgrade rewrites data stored by earlier versions, step by step, each \
         step about one kind's stored items",
    ),
    (
        "server/src/startup.rs",
        &["explanation"],
        "start-up spawns the explanation kind's background scorer of stored, unscored \
         answers (a start-up hook of the kinds would replace it)",
    ),
    (
        "core/src/api.rs",
        &["explanation"],
        "the answer response's feedback is the explanation kind's own type (an associated \
         feedback type of the kinds is still open in issue 26)",
    ),
    (
        "core/src/api/sessions.rs",
        &["explanation"],
        "as core/src/api.rs",
    ),
];

/// The kind modules a source text names after `kinds::` (single paths and `{…}` groups,
/// nested ones too), comments and test modules left out.
fn kind_modules_named(text: &str) -> Vec<&'static str> {
    let code: String = text
        .split("#[cfg(test)]")
        .next()
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = Vec::new();
    for (at, _) in code.match_indices("kinds::") {
        let rest = &code[at + "kinds::".len()..];
        let mut heads = Vec::new();
        if let Some(group) = rest.strip_prefix('{') {
            // The first segment of every item of the group, at any depth.
            let mut depth = 1;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => {
                        depth += 1;
                        item_start = true;
                    }
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' => item_start = true,
                    c if c.is_whitespace() => {}
                    _ if item_start => {
                        heads.push(ident(&group[i..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            heads.push(ident(rest));
        }
        for head in heads {
            if let Some(m) = kind_modules().into_iter().find(|m| *m == head) {
                found.push(m);
            }
        }
    }
    found
}

#[test]
fn kind_names_stay_in_their_own_modules() {
    let planted = "use crate::kinds::{ItemGold, clip_mcq::{Gold, View}};\n\
                   // kinds::rating in a comment\n\
                   let x = memeboard_core::kinds::panel_type::parse(y);\n\
                   #[cfg(test)]\nuse crate::kinds::ranking;";
    assert_eq!(
        kind_modules_named(planted),
        ["clip_mcq", "panel_type"],
        "the rule sees planted names"
    );
    let mut offenders = Vec::new();
    let mut exceptions_used = Vec::new();
    for (file, rel) in crate_sources() {
        let is_test = rel
            .components()
            .any(|c| c.as_os_str() == "tests" || c.as_os_str() == "tests.rs");
        if is_test || rel.components().any(|c| c.as_os_str() == "kinds") {
            continue;
        }
        let name = rel.display().to_string();
        let text = std::fs::read_to_string(&file).expect("read source");
        let mut named = kind_modules_named(&text);
        named.sort_unstable();
        named.dedup();
        for module in named {
            let owned = OWNED
                .iter()
                .any(|(prefix, kinds)| name.starts_with(prefix) && kinds.contains(&module));
            let excepted = EXCEPTIONS
                .iter()
                .any(|(path, kinds, _)| name == *path && kinds.contains(&module));
            if excepted {
                exceptions_used.push(name.clone());
            }
            if !owned && !excepted {
                offenders.push(format!("{name}: names kinds::{module}"));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "a shared layer names a kind (reach it through `with_kind!` and a hook of the kind \
         traits, or move the code into the kind's module): {offenders:#?}"
    );
    for (path, _, _) in EXCEPTIONS {
        assert!(
            exceptions_used.iter().any(|p| p == path),
            "{path} no longer names its kind: take it off EXCEPTIONS"
        );
    }
}

/// Every kind's storage key is its module's name in each crate (`kinds/<key>.rs` or
/// `kinds/<key>/mod.rs`), so the rule above, which knows the modules by those keys, sees
/// every kind, a new one included.
#[test]
fn every_kind_key_names_its_module_in_each_crate() {
    let root = workspace();
    for key in kind_modules() {
        for dir in ["core/src/kinds", "server/src/kinds", "app/src/kinds"] {
            let dir = root.join(dir);
            let found =
                dir.join(format!("{key}.rs")).is_file() || dir.join(key).join("mod.rs").is_file();
            assert!(found, "no module `{key}` in {}", dir.display());
        }
    }
}

/// The files that may list every kind (a new kind's registration, docs/architecture.md's
/// checklist): the core's `TaskKind` and `with_kind!`, the wire enums, and the app's question
/// and review dispatch. `server/src/kinds/mod.rs` registers a kind with a `pub mod` line only.
const REGISTRATION_FILES: [&str; 3] = [
    "core/src/kinds/mod.rs",
    "core/src/kinds/wire.rs",
    "app/src/kinds/mod.rs",
];

/// A kind's Rust name as its variants spell it (`text_mcq` → `TextMcq`).
fn variant_name(key: &str) -> String {
    key.split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Whether `text` names the variant `name` of some enum (`TaskKind::ClipMcq`,
/// `Self::ClipMcq(_)`, `PromptView::ClipMcq(view)`).
fn names_variant(text: &str, name: &str) -> bool {
    text.match_indices(&format!("::{name}"))
        .any(|(i, m)| !text[i + m.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Issue 26's measure of the plug-in boundary: a new kind edits at most 8 shared files. A
/// shared source file that names every kind's variant is an exhaustive list the next kind
/// would have to join; outside the registration files there is none (two dry runs that added
/// a toy kind edited exactly the registration files, after `server/src/upgrade.rs` and the
/// app's next-media lookup stopped listing every kind).
#[test]
fn only_the_registration_files_list_every_kind() {
    let names: Vec<String> = kind_modules().into_iter().map(variant_name).collect();
    assert_eq!(variant_name("panel_explanation"), "PanelExplanation");
    assert!(names_variant("Some(TaskKind::Rating) =>", "Rating"));
    assert!(!names_variant(
        "use kinds::rating::RatingStrings;",
        "Rating"
    ));
    let root = workspace();
    let mut offenders = Vec::new();
    for (file, rel) in crate_sources() {
        let rel = rel.display().to_string();
        if REGISTRATION_FILES.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        if names.iter().all(|n| names_variant(code, n)) {
            offenders.push(rel);
        }
    }
    assert!(
        offenders.is_empty(),
        "files listing every kind outside the registration files (a new kind would have to \
         edit them; ask the kind through a hook instead): {offenders:#?}"
    );
    assert!(
        REGISTRATION_FILES.iter().all(|f| {
            let text = std::fs::read_to_string(root.join(f)).expect("read source");
            names.iter().all(|n| names_variant(&text, n))
        }),
        "each registration file lists every kind"
    );
}

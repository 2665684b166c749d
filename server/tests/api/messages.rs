//! Every user-visible message goes through the catalogue (`memeboard_core::messages`), so the
//! app can show it in either language: no `ApiError` built from a raw English string in
//! `server/src`, every `msg!` names a known code with that code's parameters, and
//! `docs/errors.md` lists the catalogue as it is.

use crate::architecture::{rust_files, workspace};
use memeboard_core::messages::{catalogue, placeholders};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn sources(dirs: &[&str]) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for dir in dirs {
        rust_files(&workspace().join(dir), &mut files);
    }
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("read source");
            (f, text)
        })
        .collect()
}

/// The positions and bytes of `text` from `from` on that stand outside string literals
/// (the quotes themselves, and escaped characters inside a literal, skipped).
fn code_bytes(text: &str, from: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
    let bytes = text.as_bytes();
    let mut in_string = false;
    let mut k = from;
    std::iter::from_fn(move || {
        while k < bytes.len() {
            let (at, b) = (k, bytes[k]);
            k += 1;
            if in_string {
                if b == b'\\' {
                    k += 1;
                } else if b == b'"' {
                    in_string = false;
                }
            } else if b == b'"' {
                in_string = true;
            } else {
                return Some((at, b));
            }
        }
        None
    })
}

/// The text inside the parentheses that open at `open` (which is `(`), string literals
/// skipped; `None` when unbalanced.
fn inside(text: &str, open: usize) -> Option<&str> {
    let mut depth = 0usize;
    for (k, b) in code_bytes(text, open) {
        if b == b'(' {
            depth += 1;
        } else if b == b')' {
            depth -= 1;
            if depth == 0 {
                return Some(&text[open + 1..k]);
            }
        }
    }
    None
}

/// Top-level `name = value` argument names of a macro call's arguments.
fn named_arguments(args: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let (mut depth, mut start) = (0i32, 0usize);
    let mut parts = Vec::new();
    for (k, b) in code_bytes(args, 0) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&args[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&args[start..]);
    for part in parts.iter().skip(1) {
        if let Some((name, _)) = part.split_once('=') {
            let name = name.trim();
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                names.insert(name.to_owned());
            }
        }
    }
    names
}

#[test]
fn server_errors_are_built_from_catalogue_messages_not_raw_strings() {
    const VARIANTS: [&str; 10] = [
        "BadRequest",
        "Unprocessable",
        "NotFound",
        "Conflict",
        "Unauthorized",
        "Forbidden",
        "TooManyRequests",
        "PayloadTooLarge",
        "Unavailable",
        "Invalid",
    ];
    let mut offenders = Vec::new();
    for (file, text) in sources(&["server/src"]) {
        let mut calls: Vec<(usize, &str)> = Vec::new();
        for variant in VARIANTS {
            let needle = format!("ApiError::{variant}(");
            calls.extend(
                text.match_indices(&needle)
                    .map(|(i, _)| (i + needle.len() - 1, "ApiError")),
            );
        }
        calls.extend(
            text.match_indices("ApiErrorBody::single(")
                .map(|(i, m)| (i + m.len() - 1, "ApiErrorBody")),
        );
        for (open, what) in calls {
            let Some(args) = inside(&text, open) else {
                continue;
            };
            let args = args.trim();
            let raw = args.starts_with('"')
                || args.starts_with("format!")
                || args.starts_with("vec![format!")
                || args.starts_with("vec![\"")
                || args.contains(".into()")
                || args.starts_with("String::")
                || args.contains("Message::text(")
                || (args.contains(".to_string()") && !args.contains("msg!"));
            if raw {
                let line = text[..open].lines().count();
                offenders.push(format!("{}:{line}: {what}({args})", file.display()));
            }
        }
        if text.contains("Message::text(") || text.contains("Message::from(") {
            offenders.push(format!(
                "{}: untranslated Message::text/from",
                file.display()
            ));
        }
    }
    assert!(
        offenders.is_empty(),
        "errors built from raw strings (add a code to core/src/messages.rs and use msg!):\n{}",
        offenders.join("\n")
    );
}

#[test]
fn every_msg_names_a_catalogue_code_with_its_parameters() {
    let mut problems = Vec::new();
    let mut used = BTreeSet::new();
    for (file, text) in sources(&["server/src", "core/src", "app/src"]) {
        for (i, _) in text.match_indices("msg!(") {
            let open = i + "msg!".len();
            let Some(args) = inside(&text, open) else {
                continue;
            };
            // The macro's own definition and docs.
            let line_start = text[..i].rfind('\n').map_or(0, |k| k + 1);
            if !args.trim_start().starts_with('"')
                || text[line_start..i].trim_start().starts_with("//")
            {
                continue;
            }
            let code: String = args.trim_start()[1..]
                .chars()
                .take_while(|&c| c != '"')
                .collect();
            let line = text[..i].lines().count();
            let Some(entry) = catalogue().find(|e| e.code == code) else {
                problems.push(format!("{}:{line}: unknown code `{code}`", file.display()));
                continue;
            };
            used.insert(code.clone());
            let wanted: BTreeSet<String> = placeholders(entry.en)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let given = named_arguments(args);
            // Parameters may be added after the macro (`.with`, `.with_message`): only a
            // name the template does not use is an error here, and a message with no
            // additions must give all of them.
            let after = &text[open + args.len() + 2..];
            let continued = after.trim_start().starts_with('.');
            let unknown: Vec<&String> = given.difference(&wanted).collect();
            if !unknown.is_empty() {
                problems.push(format!(
                    "{}:{line}: `{code}` has no parameter(s) {unknown:?} (template: {})",
                    file.display(),
                    entry.en
                ));
            }
            if !continued && given != wanted && !file.ends_with("messages.rs") {
                problems.push(format!(
                    "{}:{line}: `{code}` needs parameters {wanted:?}, given {given:?}",
                    file.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn docs_list_every_code_in_both_languages() {
    let mut table = String::from("| Code | English | 中文 |\n|---|---|---|\n");
    for e in catalogue() {
        let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        table.push_str(&format!(
            "| `{}` | {} | {} |\n",
            e.code,
            cell(e.en),
            cell(e.zh)
        ));
    }
    let path = workspace().join("docs/errors.md");
    let doc = std::fs::read_to_string(&path).unwrap_or_default();
    let marker = "<!-- catalogue: generated by `MEMEBOARD_UPDATE_DOCS=1 cargo test -p memeboard-server --test api messages` -->\n";
    let head = doc.split(marker).next().unwrap_or_default();
    let want = format!("{head}{marker}{table}");
    if std::env::var_os("MEMEBOARD_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).expect("write docs/errors.md");
        return;
    }
    assert!(
        doc == want,
        "docs/errors.md is out of date: run MEMEBOARD_UPDATE_DOCS=1 cargo test -p memeboard-server --test api messages"
    );
}

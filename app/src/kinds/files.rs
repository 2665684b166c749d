//! Prediction files as a typed capability of a kind in the browser: the submit page's help,
//! the task's public dev gold, and the file check (with the kind's notes and dev-split
//! preview). A kind whose models submit files implements [`PredictionFiles`] and names itself
//! as its [`UiKind::Files`]; a kind judged by people names [`NoFiles`] and implements nothing.

use super::judging::Texts;
use super::UiKind;
use crate::api::{self, ApiError};
use crate::i18n::StringTable;
use leptos::prelude::*;
use memeboard_core::kinds::TaskKind;
use memeboard_core::predictions::{FileFormat, TaskManifest};
use memeboard_core::tasks::CategoryInfo;
use memeboard_core::with_kind;
use std::fmt;
use std::future::Future;
use std::sync::Arc;

/// The submit page's side of a kind whose models submit prediction files: the kind checks a
/// file in the browser as the server will, so a participant sees every problem (and a dev
/// preview) before uploading.
pub trait PredictionFiles {
    /// The task's public dev gold, as the submit page's preview needs it.
    type DevGold: Send + Sync + 'static;

    /// The submit page's file-format help.
    fn submit_help() -> AnyView;
    /// Loads the dev gold (an empty preview, not an error, when it cannot be loaded).
    fn load_dev_gold(slug: String) -> impl Future<Output = Self::DevGold>;
    /// Checks a prediction file as the server will: its lines on error.
    fn check_file(
        text: &str,
        format: FileFormat,
        manifest: &TaskManifest,
        dev: &Self::DevGold,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>>;
}

/// A kind's prediction-file capability ([`UiKind::Files`]), named where the kind is a
/// concrete type (`with_kind!`): `FilesOf::<K>::submit_help()`.
pub type FilesOf<K> = <K as UiKind>::Files;

/// The absence of prediction files, for kinds judged by people (rating, ranking): the submit
/// page says so instead of showing a format, and any file is refused with that reason, so no
/// judging kind carries stubs of a capability it does not have.
#[derive(Debug, Clone, Copy)]
pub struct NoFiles;

impl PredictionFiles for NoFiles {
    type DevGold = ();

    /// Explains that the task takes no files and where the judged explanations come from.
    fn submit_help() -> AnyView {
        view! { <p data-testid="help-judging">{Texts::text(|t| t.no_files)}</p> }.into_any()
    }

    /// There is no gold, so nothing to load.
    async fn load_dev_gold(_slug: String) {}

    /// Always refused, saying why.
    fn check_file(
        _text: &str,
        _format: FileFormat,
        _manifest: &TaskManifest,
        _dev: &(),
        _categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        Err(vec![crate::i18n::current_lang()
            .table::<Texts>()
            .no_files
            .to_owned()])
    }
}

/// A kind-specific part of the submit page's check of a valid file (notes, dev preview),
/// rendered on demand. Compares by identity, so a check result can live in a `Memo`.
#[derive(Clone)]
pub struct KindPanel(Arc<dyn Fn() -> AnyView + Send + Sync>);

impl KindPanel {
    /// A panel rendered by `render`.
    pub fn new(render: impl Fn() -> AnyView + Send + Sync + 'static) -> Self {
        Self(Arc::new(render))
    }

    /// Renders the panel.
    pub fn render(&self) -> AnyView {
        (self.0)()
    }
}

impl PartialEq for KindPanel {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for KindPanel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("KindPanel")
    }
}

/// A prediction file that passed its kind's validator.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidFile {
    /// Data lines.
    pub lines: usize,
    /// The missing-items warning, as the server words it.
    pub missing: Option<String>,
    /// The kind's notes and dev-split preview.
    pub panel: KindPanel,
}

/// The submit page's file-format help for a task kind (a judging kind's says it takes none).
pub fn submit_help(kind: TaskKind) -> AnyView {
    with_kind!(kind, K => FilesOf::<K>::submit_help())
}

/// A kind's file check, with the task's dev gold captured.
type CheckFn = dyn Fn(&str, FileFormat, &TaskManifest, &[CategoryInfo]) -> Result<ValidFile, Vec<String>>
    + Send
    + Sync;

/// A task's manifest and its kind's file check (with the dev gold it needs).
pub struct TaskChecker {
    /// What a prediction file may contain.
    pub manifest: TaskManifest,
    check: Box<CheckFn>,
}

impl fmt::Debug for TaskChecker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskChecker")
            .field("task", &self.manifest.task)
            .finish_non_exhaustive()
    }
}

impl TaskChecker {
    /// Checks a file against the task (behind its conditions header, if it has one: the
    /// server checks the header's values against the task's conditions).
    pub fn check(
        &self,
        text: &str,
        format: FileFormat,
        categories: &[CategoryInfo],
    ) -> Result<ValidFile, Vec<String>> {
        match memeboard_core::predictions::file_header(text, format) {
            Ok(Some(header)) => (self.check)(&header.rest, format, &self.manifest, categories),
            Ok(None) => (self.check)(text, format, &self.manifest, categories),
            Err(problem) => Err(vec![problem.to_string()]),
        }
    }
}

/// Loads a task's manifest and dev gold, for checking files of its kind.
pub async fn load_checker(slug: String, kind: TaskKind) -> Result<TaskChecker, ApiError> {
    let manifest = api::task_manifest(&slug).await?;
    Ok(with_kind!(kind, K => {
        let dev = FilesOf::<K>::load_dev_gold(slug).await;
        TaskChecker {
            manifest,
            check: Box::new(move |text, format, manifest, categories| {
                FilesOf::<K>::check_file(
                    text, format, manifest, &dev, categories,
                )
            }),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::any::TypeId;

    #[test]
    fn exactly_the_judging_kinds_take_no_files() {
        for kind in TaskKind::ALL {
            let no_files = with_kind!(kind, K => {
                TypeId::of::<FilesOf<K>>() == TypeId::of::<NoFiles>()
            });
            assert_eq!(no_files, kind.is_judging(), "{kind:?}");
        }
    }

    #[test]
    fn no_files_refuses_any_file_saying_why() {
        let manifest = TaskManifest {
            task: "judging".into(),
            items: Vec::new(),
        };
        let refused = NoFiles::check_file("{}", FileFormat::JsonLines, &manifest, &(), &[]);
        assert!(
            matches!(refused, Err(lines) if lines.len() == 1 && lines[0].contains("no prediction files"))
        );
    }
}

//! Links between views of one board: the public / private / whole split and the item subsets.

use crate::api;
use crate::i18n::board::{btr, BoardStrings};
use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;
use memeboard_core::api::BoardSplit;

/// The page URL of a board view: split (public is the default) and subset, when given.
pub(super) fn board_href(slug: &str, split: BoardSplit, subset: Option<&str>) -> String {
    let mut params = Vec::new();
    if split != BoardSplit::Public {
        params.push(format!("split={}", split.as_str()));
    }
    if let Some(subset) = subset {
        params.push(format!("subset={}", api::encode_component(subset)));
    }
    let base = format!("/boards/{}", api::encode_component(slug));
    if params.is_empty() {
        base
    } else {
        format!("{base}?{}", params.join("&"))
    }
}

/// Public / private / whole-split links (plain links: the split lives in the URL; the subset is kept).
#[component]
pub(super) fn SplitToggle(
    slug: String,
    split: BoardSplit,
    #[prop(optional, into)] subset: Option<String>,
) -> impl IntoView {
    let current = move |s: BoardSplit| (s == split).then_some("page");
    let public = board_href(&slug, BoardSplit::Public, subset.as_deref());
    let private = board_href(&slug, BoardSplit::Private, subset.as_deref());
    let whole = board_href(&slug, BoardSplit::Whole, subset.as_deref());
    view! {
        <nav class="segmented" aria-label=btr(|t| t.board_split_label)>
            <a href=public aria-current=current(BoardSplit::Public) data-testid="split-public">
                {btr(|t| t.board_public)}
            </a>
            <a
                href=private
                aria-current=current(BoardSplit::Private)
                data-testid="split-private"
            >
                {btr(|t| t.board_private)}
            </a>
            <a href=whole aria-current=current(BoardSplit::Whole) data-testid="split-whole">
                {btr(|t| t.board_whole)}
            </a>
        </nav>
    }
}

/// A subset's name in `lang` (`main`, `full`; others as sent).
pub(super) fn subset_text(lang: Lang, subset: &str) -> String {
    let t = lang.table::<BoardStrings>();
    match subset {
        "main" => t.subset_main.to_owned(),
        "full" => t.subset_full.to_owned(),
        "cas" => t.subset_cas.to_owned(),
        other => other.to_owned(),
    }
}

/// Links that reload the board on another item subset (`?subset=main`, `full`…), for boards
/// that have more than one.
#[component]
pub(super) fn SubsetSwitch(
    slug: String,
    split: BoardSplit,
    current: String,
    subsets: Vec<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    let links = subsets
        .into_iter()
        .map(|s| {
            let href = board_href(&slug, split, Some(&s));
            let here = (s == current).then_some("page");
            let testid = format!("subset-{s}");
            let data = s.clone();
            view! {
                <a href=href aria-current=here data-testid=testid data-subset=data>
                    {move || subset_text(i18n.lang(), &s)}
                </a>
            }
        })
        .collect_view();
    view! {
        <nav class="segmented subset-switch" aria-label=btr(|t| t.board_subset_label) data-testid="subset-switch">
            {links}
        </nav>
    }
}

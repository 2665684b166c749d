//! Rankings in the browser: 2 to 5 anonymous explanations of one meme or comic, labelled A–E
//! in the rater's shuffled order, each given a rank from 1 (best) — equal ranks are ties.
//!
//! Mouse: click a card's rank button, or drag a card onto a rank slot. Keyboard: focus a card
//! (Tab), press a digit to give it that rank (0 or Backspace clears it), arrow keys move between
//! cards, Enter submits. Every change is announced in a live region ("B: rank 1, tied with A").
//! The ranks are sent per displayed card; the server stores them per canonical explanation.

use super::cards::{question_head, use_acked_sender, SubmitActions};
use super::judging::{
    is_comic, recorded_summary, submit_words, OutputFields, ReferenceBlock, Subject,
};
use super::{NoFiles, QuestionContext, ReviewContext, UiKind};
use crate::components::answer::AnswerSender;
use crate::i18n::{use_i18n, I18n, Lang, StringTable};
use leptos::prelude::*;
use memeboard_core::api::{AnswerInput, ResultsResponse};
use memeboard_core::kinds::ranking::{dense, Input, Ranking, Review, View};

/// Card labels in display order.
const LABELS: [&str; 5] = ["A", "B", "C", "D", "E"];

/// This kind's interface strings.
#[derive(Debug)]
struct Texts {
    /// The kind in words.
    name: &'static str,
    /// Consent page: what the end shows.
    results_note: &'static str,
    /// Above the cards: how to rank (number of cards).
    how: fn(usize) -> String,
    /// Accessible name of the rank slots.
    slots: &'static str,
    /// A slot's heading: "Rank 2".
    rank: fn(u8) -> String,
    /// A card's name: "Explanation B".
    card: fn(&str) -> String,
    /// The rank buttons' group name: "Rank of B".
    rank_of: fn(&str) -> String,
    /// A card's current rank ("rank 2" / "no rank yet").
    card_rank: fn(Option<u8>) -> String,
    /// Announcement after a change: card, rank, tied-with labels.
    announce: fn(&str, Option<u8>, &str) -> String,
    /// Ranks with a gap.
    gap: &'static str,
    /// Not every card ranked.
    incomplete: &'static str,
    /// Review: the rank.
    your_rank: &'static str,
}

static ZH: Texts = Texts {
    name: "人工评判：为多条解释排序",
    results_note: "结束时会显示你保存了多少条排序；排序没有对错之分，因此不显示得分。",
    how: |n| {
        format!("给每条解释一个 1 到 {n} 的名次（1 = 最好；并列时名次相同，名次须连续，如 1、1、2）。键盘：聚焦卡片后按数字键，0 清除，方向键切换，回车提交。")
    },
    slots: "名次",
    rank: |k| format!("第 {k} 名"),
    card: |l| format!("解释 {l}"),
    rank_of: |l| format!("解释 {l} 的名次"),
    card_rank: |r| r.map_or_else(|| "尚未排名".to_owned(), |k| format!("第 {k} 名")),
    announce: |l, r, tied| match r {
        None => format!("解释 {l}：已清除名次"),
        Some(k) if tied.is_empty() => format!("解释 {l}：第 {k} 名"),
        Some(k) => format!("解释 {l}：第 {k} 名，与 {tied} 并列"),
    },
    gap: "名次须连续、不能跳号：并列后下一个名次紧接着排（如 1、1、2）。",
    incomplete: "请为每条解释给出名次。",
    your_rank: "你的名次",
};

static EN: Texts = Texts {
    name: "Human judging: rank explanations",
    results_note: "At the end you see how many rankings were recorded; rankings have no right or wrong answers, so there is no score.",
    how: |n| format!("Give each explanation a rank from 1 to {n} (1 = best; ties share a rank, and ranks follow on without gaps, e.g. 1, 1, 2). Keyboard: focus a card and press a digit, 0 clears, arrows move, Enter submits."),
    slots: "Ranks",
    rank: |k| format!("Rank {k}"),
    card: |l| format!("Explanation {l}"),
    rank_of: |l| format!("Rank of explanation {l}"),
    card_rank: |r| r.map_or_else(|| "no rank yet".to_owned(), |k| format!("rank {k}")),
    announce: |l, r, tied| match r {
        None => format!("Explanation {l}: rank cleared"),
        Some(k) if tied.is_empty() => format!("Explanation {l}: rank {k}"),
        Some(k) => format!("Explanation {l}: rank {k}, tied with {tied}"),
    },
    gap: "Ranks must follow on without gaps: after a tie, the next rank comes straight after (e.g. 1, 1, 2).",
    incomplete: "Give every explanation a rank.",
    your_rank: "Your rank",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// The label of display position `p`.
fn label(p: usize) -> &'static str {
    LABELS.get(p).copied().unwrap_or("?")
}

/// The labels of the other cards holding `rank` ("A, C").
fn tied_with(ranks: &[Option<u8>], p: usize, rank: u8) -> String {
    ranks
        .iter()
        .enumerate()
        .filter(|(q, r)| *q != p && **r == Some(rank))
        .map(|(q, _)| label(q))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ranks to send, when every card has one and they are dense.
fn complete(ranks: &[Option<u8>]) -> Option<Vec<u8>> {
    let all: Option<Vec<u8>> = ranks.iter().copied().collect();
    all.filter(|r| dense(r))
}

impl UiKind for Ranking {
    type Files = NoFiles;

    fn name(lang: Lang) -> &'static str {
        lang.table::<Texts>().name
    }

    fn results_note(lang: Lang, _open_percent: Option<u8>) -> String {
        lang.table::<Texts>().results_note.to_owned()
    }

    fn question(ctx: QuestionContext, view: View) -> AnyView {
        view! { <RankingQuestion ctx=ctx view=view /> }.into_any()
    }

    fn review_card(ctx: ReviewContext, review: Review) -> AnyView {
        view! { <RankingReview ctx=ctx review=review /> }.into_any()
    }

    fn score_summary(results: &ResultsResponse) -> AnyView {
        recorded_summary(results)
    }
}

/// One ranking page.
#[component]
fn RankingQuestion(ctx: QuestionContext, view: View) -> impl IntoView {
    let i18n = use_i18n();
    let View {
        subject,
        reference,
        candidates,
    } = view;
    let (n, comic) = (candidates.len(), is_comic(&subject));
    let max_rank = u8::try_from(n).unwrap_or(5);
    let position = ctx.position;
    let sender = use_acked_sender(&ctx);
    let ranks = RwSignal::new(vec![None::<u8>; n]);
    let announcement = RwSignal::new(String::new());
    let dragging = RwSignal::new(None::<usize>);
    let cards: Vec<NodeRef<leptos::html::Li>> = (0..n).map(|_| NodeRef::new()).collect();
    let cards = StoredValue::new(cards);
    let help_id = format!("rank-help-{position}");

    let set_rank = move |p: usize, rank: Option<u8>| {
        if sender.locked_untracked() {
            return;
        }
        ranks.update(|r| {
            if let Some(slot) = r.get_mut(p) {
                *slot = rank;
            }
        });
        let tied = rank
            .map(|k| ranks.with_untracked(|r| tied_with(r, p, k)))
            .unwrap_or_default();
        announcement.set((i18n.lang_untracked().table::<Texts>().announce)(
            label(p),
            rank,
            &tied,
        ));
    };
    let submit = move || {
        if let Some(r) = ranks.with_untracked(|r| complete(r)) {
            sender.send(AnswerInput::Ranking(Input { ranks: r }));
        }
    };
    let focus_card = move |p: usize| {
        cards.with_value(|c| {
            if let Some(el) = c.get(p).and_then(NodeRef::get) {
                let _ = el.focus();
            }
        });
    };
    let on_key = move |p: usize, ev: leptos::ev::KeyboardEvent| {
        card_key(p, ev, n, max_rank, focus_card, set_rank, submit);
    };

    let slots = rank_slots(max_rank, ranks, dragging, set_rank, i18n);

    let card_views = candidates
        .into_iter()
        .enumerate()
        .map(|(p, output)| {
            let node = cards.with_value(|c| c[p]);
            let l = label(p);
            let rank = move || ranks.with(|r| r.get(p).copied().flatten());
            let buttons = rank_buttons(p, max_rank, rank, sender, set_rank);
            view! {
                <li
                    class="rank-card"
                    class:ranked=move || rank().is_some()
                    data-testid="rank-card"
                    data-label=l
                    data-rank=move || rank().map(|k| k.to_string()).unwrap_or_default()
                    tabindex="0"
                    draggable="true"
                    node_ref=node
                    aria-label=move || {
                        let t = i18n.table::<Texts>();
                        format!("{}, {}", (t.card)(l), (t.card_rank)(rank()))
                    }
                    aria-describedby=help_id.clone()
                    on:keydown=move |ev| on_key(p, ev)
                    on:dragstart=move |ev: leptos::ev::DragEvent| {
                        if let Some(d) = ev.data_transfer() {
                            let _ = d.set_data("text/plain", &p.to_string());
                        }
                        dragging.set(Some(p));
                    }
                    on:dragend=move |_| dragging.set(None)
                >
                    <p class="rank-card-head">
                        <span class="letter" aria-hidden="true">{l}</span>
                        <span class="muted small" data-testid="card-rank">
                            {move || (i18n.table::<Texts>().card_rank)(rank())}
                        </span>
                    </p>
                    <OutputFields output=output comic=comic />
                    <div class="rank-buttons" role="group" aria-label=move || (i18n.table::<Texts>().rank_of)(l)>
                        {buttons}
                    </div>
                </li>
            }
        })
        .collect_view();

    let problem = move || ranks.with(|r| rank_problem(r, i18n.lang()));
    view! {
        <section
            class="card question judging-question"
            data-testid="question"
            data-kind="ranking"
            data-position=position.to_string()
            data-item-id=ctx.item_id.clone()
        >
            {question_head(&ctx)}
            <Subject subject=subject />
            {reference.map(|r| view! { <ReferenceBlock reference=r /> })}
            <p class="muted small" id=help_id.clone()>{move || (i18n.table::<Texts>().how)(n)}</p>
            <ol class="rank-slots" aria-label=Texts::text(|t| t.slots)>
                {slots}
            </ol>
            <ul class="rank-cards">{card_views}</ul>
            <p class="visually-hidden" aria-live="polite" data-testid="rank-announce">
                {move || announcement.get()}
            </p>
            <p class="muted small" data-testid="rank-problem">{problem}</p>
            <SubmitActions
                sender=sender
                submit=Callback::new(move |()| submit())
                testid="ranking-submit"
                incomplete=move || problem().is_some()
                words=submit_words
            />
        </section>
    }
}

/// The keyboard on card `p`: digits rank it (0, Backspace or Delete clear it), arrows move
/// between the cards, Enter on the card submits.
fn card_key(
    p: usize,
    ev: leptos::ev::KeyboardEvent,
    n: usize,
    max_rank: u8,
    focus_card: impl Fn(usize),
    set_rank: impl Fn(usize, Option<u8>),
    submit: impl Fn(),
) {
    let key = ev.key();
    let on_card = ev.target() == ev.current_target();
    match key.as_str() {
        "ArrowDown" | "ArrowRight" => {
            ev.prevent_default();
            focus_card((p + 1) % n.max(1));
        }
        "ArrowUp" | "ArrowLeft" => {
            ev.prevent_default();
            focus_card((p + n.max(1) - 1) % n.max(1));
        }
        "0" | "Backspace" | "Delete" => {
            ev.prevent_default();
            set_rank(p, None);
        }
        "Enter" if on_card => {
            ev.prevent_default();
            submit();
        }
        k => {
            if let Some(d) = k.parse::<u8>().ok().filter(|d| (1..=max_rank).contains(d)) {
                ev.prevent_default();
                set_rank(p, Some(d));
            }
        }
    }
}

/// The rank slots 1..=`max_rank`, each listing the cards it holds; a card dropped on a slot
/// gets its rank.
fn rank_slots(
    max_rank: u8,
    ranks: RwSignal<Vec<Option<u8>>>,
    dragging: RwSignal<Option<usize>>,
    set_rank: impl Fn(usize, Option<u8>) + Copy + Send + Sync + 'static,
    i18n: I18n,
) -> impl IntoView {
    (1..=max_rank)
        .map(|k| {
            let held = move || {
                ranks.with(|r| {
                    r.iter()
                        .enumerate()
                        .filter(|(_, x)| **x == Some(k))
                        .map(|(p, _)| label(p))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            };
            view! {
                <li
                    class="rank-slot"
                    class:drop-ready=move || dragging.get().is_some()
                    data-testid="rank-slot"
                    data-rank=k.to_string()
                    on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                    on:drop=move |ev: leptos::ev::DragEvent| {
                        ev.prevent_default();
                        let from_data = ev
                            .data_transfer()
                            .and_then(|d| d.get_data("text/plain").ok())
                            .and_then(|s| s.parse::<usize>().ok());
                        if let Some(p) = dragging.get_untracked().or(from_data) {
                            set_rank(p, Some(k));
                        }
                        dragging.set(None);
                    }
                >
                    <span class="rank-slot-title">{move || (i18n.table::<Texts>().rank)(k)}</span>
                    <span class="rank-slot-cards" data-testid="slot-cards">{held}</span>
                </li>
            }
        })
        .collect_view()
}

/// Card `p`'s rank buttons 1..=`max_rank`.
fn rank_buttons(
    p: usize,
    max_rank: u8,
    rank: impl Fn() -> Option<u8> + Copy + Send + Sync + 'static,
    sender: AnswerSender,
    set_rank: impl Fn(usize, Option<u8>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    (1..=max_rank)
        .map(|k| {
            view! {
                <button
                    type="button"
                    class="rank-button"
                    class:selected=move || rank() == Some(k)
                    data-testid="rank-button"
                    data-rank=k.to_string()
                    aria-pressed=move || (rank() == Some(k)).to_string()
                    prop:disabled=move || sender.locked()
                    on:click=move |_| set_rank(p, Some(k))
                >
                    {k.to_string()}
                </button>
            }
        })
        .collect_view()
}

/// What keeps the ranks from being sent: a card without a rank, or a gap in the ranks.
fn rank_problem(r: &[Option<u8>], lang: Lang) -> Option<&'static str> {
    let t = lang.table::<Texts>();
    if r.iter().any(Option::is_none) {
        Some(t.incomplete)
    } else if complete(r).is_none() {
        Some(t.gap)
    } else {
        None
    }
}

/// A ranked subject on the results page: the explanations in the rater's order with ranks.
#[component]
fn RankingReview(ctx: ReviewContext, review: Review) -> impl IntoView {
    let category = ctx.category_label();
    let subject = memeboard_core::kinds::rating::subject_name(&review.subject);
    let comic = is_comic(&review.subject);
    let rows = review
        .candidates
        .into_iter()
        .zip(review.ranks)
        .enumerate()
        .map(|(p, (output, rank))| {
            view! {
                <li data-testid="reviewed-candidate" data-rank=rank.to_string()>
                    <strong>{label(p)}</strong>
                    " · "
                    <span class="muted small">{Texts::text(|t| t.your_rank)} ": " {rank.to_string()}</span>
                    <OutputFields output=output comic=comic />
                </li>
            }
        })
        .collect_view();
    view! {
        <li class="card review-item" data-testid="review-item" data-position=ctx.position.to_string()>
            <p class="review-head">
                <strong lang="zh-CN">{subject}</strong>
                " "
                <span class="muted">{category}</span>
            </p>
            <ol class="reviewed-candidates">{rows}</ol>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_needs_every_rank_and_no_gaps() {
        assert_eq!(complete(&[Some(1), Some(1), Some(2)]), Some(vec![1, 1, 2]));
        assert_eq!(complete(&[Some(1), Some(1), Some(3)]), None);
        assert_eq!(complete(&[Some(1), None]), None);
        assert_eq!(tied_with(&[Some(1), Some(2), Some(1)], 0, 1), "C");
    }

    #[test]
    fn announcements_exist_in_both_languages() {
        for lang in [Lang::En, Lang::Zh] {
            let t = lang.table::<Texts>();
            assert!((t.announce)("B", Some(1), "A").contains('A'));
            assert!(!(t.announce)("B", None, "").is_empty());
        }
    }
}

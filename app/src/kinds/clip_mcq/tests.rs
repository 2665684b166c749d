//! Tests of the clip kind: familiarity wire names, figure names, clocks and the dev preview.

use super::player::clock;
use super::*;
use memeboard_core::predictions::ManifestItem;

#[test]
fn familiarity_keys_are_the_wire_names() {
    for f in FAMILIARITY {
        assert_eq!(
            serde_json::to_value(f).expect("serialises"),
            serde_json::Value::from(f.key())
        );
    }
    assert_eq!(
        familiarity_label(Lang::En, Familiarity::Unseen),
        "No, never"
    );
}

#[test]
fn clip_figures_are_translated() {
    assert_eq!(
        metric_name(Lang::En, "sound:speech").as_deref(),
        Some("sound: speech")
    );
    assert_eq!(
        metric_name(Lang::Zh, "sound:speech").as_deref(),
        Some("声音类型：语音")
    );
    assert_eq!(
        metric_name(Lang::En, "sound:sound_effect").as_deref(),
        Some("sound: sound effect")
    );
    assert_eq!(
        metric_name(Lang::En, "lang:zh").as_deref(),
        Some("language: Chinese")
    );
    assert_eq!(
        metric_name(Lang::Zh, "lang:none").as_deref(),
        Some("语言：无（无语言）")
    );
    assert_eq!(
        metric_name(Lang::En, "lang:xx").as_deref(),
        Some("language: xx")
    );
    assert_eq!(metric_name(Lang::En, "sound:bogus"), None);
    assert_eq!(metric_name(Lang::En, "parse rate"), None);
}

#[test]
fn clocks_and_letters() {
    assert_eq!(clock(0.0), "0:00");
    assert_eq!(clock(65.9), "1:05");
    assert_eq!(clock(f64::NAN), "0:00");
    let gold = |l: &str| ClipGold {
        item_id: "c".into(),
        category: "emotion".into(),
        answer_letter: l.into(),
    };
    assert_eq!(gold("B").index(), Some(1));
    assert_eq!(gold(" a ").index(), Some(0));
    assert_eq!(gold("AB").index(), None);
    assert_eq!(gold("2").index(), None);
}

#[test]
fn the_dev_preview_scores_dev_items_only() {
    let items: Vec<ManifestItem> = (0..4)
        .map(|i| ManifestItem {
            id: format!("c{i}"),
            category: "emotion".into(),
            split: if i < 3 { Split::Dev } else { Split::Test },
            options: vec!["x".into(), "y".into(), "z".into()],
        })
        .collect();
    let manifest = TaskManifest {
        task: "t".into(),
        items,
    };
    let dev: Vec<ClipGold> = ["A", "B", "C", "A"]
        .iter()
        .enumerate()
        .map(|(i, l)| ClipGold {
            item_id: format!("c{i}"),
            category: "emotion".into(),
            answer_letter: (*l).into(),
        })
        .collect();
    // Right on c0, wrong on c1, missing c2; c3 is a test item.
    let answers: HashMap<&str, Option<usize>> =
        [("c0", Some(0)), ("c1", Some(0)), ("c3", Some(0))].into();
    let p = dev_preview(&manifest, &dev, &answers, &[]).expect("dev gold");
    assert_eq!(p.items, 3);
    let overall = p.scores[0].estimate.expect("estimate").value;
    assert!((overall - 1.0 / 3.0).abs() < 1e-12);
    assert!(dev_preview(&manifest, &[], &answers, &[]).is_none());
}

/// The quiz fetches the next item's media ahead through the kinds' hook: a clip's file for a
/// clip, nothing for a kind without media.
#[test]
fn the_next_clip_is_fetched_ahead_and_other_kinds_have_nothing_to_fetch() {
    use memeboard_core::kinds::{clip_mcq::MediaKind, text_mcq, PromptView};
    use memeboard_core::tasks::MediaRef;
    let clip = PromptView::ClipMcq(View {
        clip: MediaRef {
            url: "/media/ab12.mp4".into(),
            alt: String::new(),
        },
        media: MediaKind::Video,
        duration_ms: 5_000,
        question: None,
        options: Vec::new(),
    });
    assert_eq!(
        NextMedia::of(&clip),
        Some(NextMedia {
            url: "/media/ab12.mp4".into(),
            media: MediaKind::Video,
        })
    );
    let text = PromptView::TextMcq(text_mcq::View {
        sentence: "_____".into(),
        options: vec!["a".into(), "b".into()],
    });
    assert_eq!(NextMedia::of(&text), None);
}

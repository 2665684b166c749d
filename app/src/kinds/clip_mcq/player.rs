//! The clip's player: the media element and its state (plays, position, errors), the
//! player block with its Play button and progress, and the next item's preloaded clip.

use super::Texts;
use crate::i18n::{use_i18n, StringTable};
use crate::kinds::NextMedia;
use crate::storage;
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::kinds::clip_mcq::MediaKind;
use memeboard_core::tasks::MediaRef;
use wasm_bindgen::JsCast;
use web_sys::HtmlMediaElement;

/// A playback position this close to 0 s counts as the start of the clip.
const START_EPSILON_S: f64 = 0.05;

/// `m:ss` of a playback position in seconds (`0:00` for nonsense values).
pub(super) fn clock(seconds: f64) -> String {
    let s = if seconds.is_finite() && seconds > 0.0 {
        seconds.floor() as u64
    } else {
        0
    };
    format!("{}:{:02}", s / 60, s % 60)
}

/// The state of the clip's media element. `Copy`, so handlers can share it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Player {
    audio: NodeRef<leptos::html::Audio>,
    video: NodeRef<leptos::html::Video>,
    /// Times the clip was started (sent with the answer).
    pub(super) plays: RwSignal<u32>,
    /// The next `play` event is a new start (from the beginning or after the end).
    fresh: StoredValue<bool>,
    playing: RwSignal<bool>,
    /// Played to the end at least once (unlocks the familiarity question).
    pub(super) played_through: RwSignal<bool>,
    /// Position and length in seconds.
    current: RwSignal<f64>,
    duration: RwSignal<f64>,
    failed: RwSignal<bool>,
    /// Where the play count is remembered.
    pub(super) key: StoredValue<String>,
}

impl Player {
    pub(super) fn new(key: String, duration_ms: u32, played_through: bool) -> Self {
        let plays = storage::get(&key).and_then(|v| v.parse().ok()).unwrap_or(0);
        Self {
            audio: NodeRef::new(),
            video: NodeRef::new(),
            plays: RwSignal::new(plays),
            fresh: StoredValue::new(true),
            playing: RwSignal::new(false),
            played_through: RwSignal::new(played_through),
            current: RwSignal::new(0.0),
            duration: RwSignal::new(f64::from(duration_ms) / 1000.0),
            failed: RwSignal::new(false),
            key: StoredValue::new(key),
        }
    }

    /// The media element, whichever kind it is.
    fn element(self) -> Option<HtmlMediaElement> {
        self.audio
            .get_untracked()
            .map(JsCast::unchecked_into)
            .or_else(|| self.video.get_untracked().map(JsCast::unchecked_into))
    }

    /// Counts one start of the clip.
    fn count(self) {
        self.fresh.set_value(false);
        self.plays.update(|n| *n += 1);
        self.key
            .with_value(|k| storage::set(k, &self.plays.get_untracked().to_string()));
    }

    /// Plays the clip from the start (a user gesture: the button), counting it once.
    fn play_from_start(self) {
        let Some(el) = self.element() else {
            return;
        };
        self.failed.set(false);
        let was_playing = !el.paused() && !el.ended();
        el.set_current_time(0.0);
        if was_playing {
            // No `play` event follows a seek while playing: count the restart here.
            self.count();
            return;
        }
        self.fresh.set_value(true);
        match el.play() {
            Ok(promise) => spawn_local(async move {
                if wasm_bindgen_futures::JsFuture::from(promise).await.is_err() {
                    let _ = self.failed.try_set(true);
                }
            }),
            Err(_) => self.failed.set(true),
        }
    }

    /// Asks the browser to fetch the clip again after an error.
    fn reload(self) {
        if let Some(el) = self.element() {
            self.failed.set(false);
            el.load();
        }
    }

    fn on_play(self) {
        self.playing.set(true);
        self.failed.set(false);
        let at_start = self
            .element()
            .is_none_or(|el| el.current_time() < START_EPSILON_S);
        if self.fresh.get_value() || at_start {
            self.count();
        }
    }

    fn on_ended(self) {
        self.playing.set(false);
        self.played_through.set(true);
        self.fresh.set_value(true);
        if let Some(el) = self.element() {
            self.current.set(el.current_time());
        }
    }

    fn on_time(self) {
        if let Some(el) = self.element() {
            self.current.set(el.current_time());
            let d = el.duration();
            if d.is_finite() && d > 0.0 {
                self.duration.set(d);
            }
        }
    }
}

/// The clip's media element (audio or video) with its event handlers; native controls only
/// once `controls` is true.
fn media_element(
    clip: &MediaRef,
    media: MediaKind,
    player: Player,
    controls: Signal<bool>,
    label: impl Fn() -> &'static str + Copy + Send + Sync + 'static,
) -> AnyView {
    let url = clip.url.clone();
    let described = (!clip.alt.is_empty()).then(|| clip.alt.clone());
    match media {
        MediaKind::Audio => view! {
            <audio
                class="clip-media clip-audio"
                src=url
                preload="auto"
                controls=move || controls.get()
                aria-label=label
                title=described
                data-testid="clip-media"
                node_ref=player.audio
                on:play=move |_| player.on_play()
                on:pause=move |_| player.playing.set(false)
                on:ended=move |_| player.on_ended()
                on:timeupdate=move |_| player.on_time()
                on:loadedmetadata=move |_| player.on_time()
                on:error=move |_| player.failed.set(true)
            ></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video
                class="clip-media clip-video"
                src=url
                preload="auto"
                playsinline=true
                controls=move || controls.get()
                aria-label=label
                title=described
                data-testid="clip-media"
                node_ref=player.video
                on:play=move |_| player.on_play()
                on:pause=move |_| player.playing.set(false)
                on:ended=move |_| player.on_ended()
                on:timeupdate=move |_| player.on_time()
                on:loadedmetadata=move |_| player.on_time()
                on:error=move |_| player.failed.set(true)
            ></video>
        }
        .into_any(),
    }
}

/// The next item's clip, fetched while this one is answered (hidden, muted, never played).
pub(super) fn preload_view(next: Option<NextMedia>) -> impl IntoView {
    next.map(|n| match n.media {
        MediaKind::Audio => view! {
            <audio
                class="clip-preload"
                src=n.url
                preload="auto"
                muted=true
                hidden=true
                aria-hidden="true"
                data-testid="clip-preload"
            ></audio>
        }
        .into_any(),
        MediaKind::Video => view! {
            <video
                class="clip-preload"
                src=n.url
                preload="auto"
                muted=true
                hidden=true
                aria-hidden="true"
                data-testid="clip-preload"
            ></video>
        }
        .into_any(),
    })
}

/// The player block: the media element, the Play button, progress and play count, the
/// media error with a reload button, and the note on native controls.
pub(super) fn player_view(
    clip: &MediaRef,
    media: MediaKind,
    player: Player,
    controls: Signal<bool>,
) -> impl IntoView {
    let i18n = use_i18n();
    let label = move || match media {
        MediaKind::Audio => i18n.table::<Texts>().clip_audio,
        MediaKind::Video => i18n.table::<Texts>().clip_video,
    };
    let player_view = media_element(clip, media, player, controls, label);
    let status = move || {
        let t = i18n.table::<Texts>();
        if player.playing.get() {
            t.playing.to_owned()
        } else if player.played_through.get() {
            t.played.to_owned()
        } else {
            String::new()
        }
    };
    view! {
    <div class="clip-player" class:video=media == MediaKind::Video>
        {player_view}
        <div class="clip-controls">
            <button
                type="button"
                class="button secondary"
                data-testid="clip-play"
                on:click=move |_| player.play_from_start()
            >
                {move || {
                    let t = i18n.table::<Texts>();
                    if player.plays.get() == 0 { t.play } else { t.replay }
                }}
            </button>
            <progress
                class="clip-progress"
                data-testid="clip-progress"
                max=move || format!("{:.3}", player.duration.get().max(0.001))
                value=move || format!("{:.3}", player.current.get())
                aria-label=Texts::text(|t| t.progress)
                aria-valuetext=move || {
                    format!("{} / {}", clock(player.current.get()), clock(player.duration.get()))
                }
            ></progress>
            <span class="clip-time muted small" aria-hidden="true">
                {move || {
                    format!("{} / {}", clock(player.current.get()), clock(player.duration.get()))
                }}
            </span>
        </div>
        <p class="muted small clip-status" role="status" aria-live="polite" data-testid="clip-status">
            {status}
            " "
            {move || {
                let n = player.plays.get();
                (n > 0).then(|| (i18n.table::<Texts>().plays)(n))
            }}
        </p>
        <p class="notice error" role="alert" hidden=move || !player.failed.get()>
            {Texts::text(|t| t.media_error)}
            " "
            <button
                type="button"
                class="button secondary"
                data-testid="clip-reload"
                on:click=move |_| player.reload()
            >
                {Texts::text(|t| t.reload_clip)}
            </button>
        </p>
        <p class="muted small" hidden=move || !controls.get()>
            {Texts::text(|t| t.controls_note)}
        </p>
    </div>
    }
}

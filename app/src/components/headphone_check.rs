//! The headphone screening before a clip quiz: the antiphase-tone test of Woods, Siegel,
//! Traer & McDermott (2017), "Headphone screening to facilitate web-based auditory
//! experiments" (Attention, Perception, & Psychophysics 79:2064–2072).
//!
//! Each of six trials plays three tones and the participant picks the quietest. The server
//! draws the check (`POST /api/quizzes/{slug}/headphone-checks`), keeps the tone order of every
//! trial, and serves each trial as one sound (`…/sounds/{k}`; `0` is the calibration tone):
//! the page never knows the right answers, so it cannot score itself. It sends the positions
//! chosen with the session start; the server scores them once and stores the pass (5 of 6).
//! Participants continue either way. The section carries the check's id (`data-check`).

use crate::browser::{focus_when_shown, sleep_ms};
use crate::i18n::{use_i18n, I18n, StringTable};
use leptos::prelude::*;
use leptos::task::spawn_local;
use memeboard_core::api::HeadphoneCheck as CheckResult;
use wasm_bindgen::{JsCast, JsValue};

/// Trials in the test (Woods et al. use six; the server draws six).
pub const TRIALS: u8 = 6;
/// Length of every sound (ms): three 1 s tones with 0.5 s gaps, or the 4 s calibration tone.
const SOUND_MS: i32 = 4000;
/// Extra wait after a sound before the answers open (ms): audio output latency.
const SETTLE_MS: i32 = 150;

/// The URL of sound `k` of check `id` (`0`: calibration).
fn sound_url(id: &str, k: u8) -> String {
    format!(
        "/api/headphone-checks/{}/sounds/{k}",
        crate::api::segment(id)
    )
}

/// Starts playing `url` in a detached audio element; fails when the browser cannot.
async fn play(url: &str) -> Result<(), JsValue> {
    let el: web_sys::HtmlMediaElement = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?
        .create_element("audio")?
        .dyn_into()?;
    el.set_src(url);
    wasm_bindgen_futures::JsFuture::from(el.play()?).await?;
    Ok(())
}

/// The check's interface strings.
#[derive(Debug)]
struct Texts {
    /// Heading.
    title: &'static str,
    /// What the check is and why.
    intro: &'static str,
    /// Calibration instructions.
    calibrate_text: &'static str,
    /// Button: play the calibration tone.
    calibrate: &'static str,
    /// Button: start the trials.
    start: &'static str,
    /// Trial instructions.
    trial_text: &'static str,
    /// "Trial 2 of 6".
    trial: fn(u8, u8) -> String,
    /// Button: play the trial's tones.
    play: &'static str,
    /// Status: tones playing.
    playing: &'static str,
    /// The question.
    which: &'static str,
    /// Answer buttons ("Sound 1").
    sound: fn(usize) -> String,
    /// No sound could be played.
    audio_error: &'static str,
    /// Announcement: answer recorded, next trial.
    recorded: &'static str,
    /// Heading when finished.
    done_title: &'static str,
    /// Text when finished.
    done_text: &'static str,
    /// Button: go on.
    continue_: &'static str,
}

static ZH: Texts = Texts {
    title: "第 2 步（共 3 步）：耳机检测",
    intro: "本任务需要戴耳机作答。下面的简短检测会播放声音：请现在戴上耳机。",
    calibrate_text: "先调节音量：点按下面的按钮播放一个提示音，把音量调到听得清楚又舒适的程度。之后请不要再调整音量。",
    calibrate: "▶ 播放校准音",
    start: "开始检测",
    trial_text: "每一轮会依次播放三个音。请仔细听，然后选出三个音中最轻（最小声）的那一个。每轮只能播放一次。",
    trial: |k, n| format!("第 {k} 轮，共 {n} 轮"),
    play: "▶ 播放三个音",
    playing: "正在播放…",
    which: "哪一个音最轻？",
    sound: |n| format!("第 {n} 个音"),
    audio_error: "你的浏览器无法播放声音。你仍然可以作答并继续。",
    recorded: "已记录。下一轮。",
    done_title: "耳机检测完成",
    done_text: "谢谢！接下来是几个关于你的问题，然后开始答题。",
    continue_: "继续",
};

static EN: Texts = Texts {
    title: "Step 2 of 3: Headphone check",
    intro: "This task needs headphones. The short check below plays sounds: please put your headphones on now.",
    calibrate_text: "First set the volume: press the button below to play a tone, and set your volume so that it is clearly audible and comfortable. Do not change the volume after this.",
    calibrate: "▶ Play the calibration tone",
    start: "Start the check",
    trial_text: "Each round plays three tones, one after the other. Listen carefully, then choose which of the three was the QUIETEST (softest). Each round can be played only once.",
    trial: |k, n| format!("Round {k} of {n}"),
    play: "▶ Play the three tones",
    playing: "Playing…",
    which: "Which tone was the quietest?",
    sound: |n| format!("Tone {n}"),
    audio_error: "Your browser could not play sound. You can still answer and continue.",
    recorded: "Answer recorded. Next round.",
    done_title: "Headphone check complete",
    done_text: "Thank you! A few questions about you come next, then the quiz.",
    continue_: "Continue",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// Where the check stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Setting the volume.
    Calibrate,
    /// Trial `k` (0-based).
    Trial(u8),
    /// All trials answered.
    Done,
}

/// The headphone check: calibration, six trials, then `on_done` with the check's id and the
/// positions chosen (sent whatever they are; the server scores them).
#[component]
pub fn HeadphoneCheck(
    /// The quiz.
    slug: String,
    /// Called with the answers when the participant continues.
    on_done: Callback<CheckResult>,
) -> impl IntoView {
    let i18n = use_i18n();
    // The check drawn by the server (its id); its error, if it could not be drawn.
    let check_id = RwSignal::new(None::<String>);
    let load_error = RwSignal::new(None::<String>);
    spawn_local(async move {
        match crate::api::new_headphone_check(&slug).await {
            Ok(c) => check_id.set(Some(c.id)),
            Err(e) => load_error.set(Some(e.to_string())),
        }
    });
    let answers = StoredValue::new(Vec::<u8>::new());
    let phase = RwSignal::new(Phase::Calibrate);
    let calibrated = RwSignal::new(false);
    let playing = RwSignal::new(false);
    // The current trial's tones have been played (answers open).
    let played = RwSignal::new(false);
    let audio_failed = RwSignal::new(false);
    let live = RwSignal::new(String::new());

    let heading = focus_when_shown::<leptos::html::H2>();
    // Keyboard users land on each new trial's Play button.
    let play_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let (Phase::Trial(_), Some(b)) = (phase.get(), play_button.get()) {
            let _ = b.focus();
        }
    });
    let done_button = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(b) = done_button.get() {
            let _ = b.focus();
        }
    });

    // Plays sound `k` of the check, then runs `after` once it is over (at once when no sound
    // could play).
    let sound = move |k: u8, after: fn(RwSignal<bool>)| {
        let Some(id) = check_id.get_untracked() else {
            return;
        };
        if playing.get_untracked() {
            return;
        }
        playing.set(true);
        spawn_local(async move {
            let ok = play(&sound_url(&id, k)).await.is_ok();
            let _ = audio_failed.try_set(!ok);
            if ok {
                sleep_ms(SOUND_MS + SETTLE_MS).await;
            }
            let _ = playing.try_set(false);
            after(played);
        });
    };
    let calibrate = move |_| {
        calibrated.set(true);
        sound(0, |_| {});
    };
    let play_trial = move |_| {
        let Phase::Trial(k) = phase.get_untracked() else {
            return;
        };
        if played.get_untracked() {
            return;
        }
        sound(k + 1, |played| {
            let _ = played.try_set(true);
        });
    };
    let answer = move |choice: usize| {
        let Phase::Trial(k) = phase.get_untracked() else {
            return;
        };
        if !played.get_untracked() || playing.get_untracked() {
            return;
        }
        answers.update_value(|a| a.push(choice as u8));
        played.set(false);
        let next = k + 1;
        if next >= TRIALS {
            phase.set(Phase::Done);
            live.set(String::new());
        } else {
            phase.set(Phase::Trial(next));
            live.set(i18n.lang_untracked().table::<Texts>().recorded.to_owned());
        }
    };

    view! {
        <section class="card headphone-check" data-testid="headphone-check" data-check=move || check_id.get()>
            <h2 node_ref=heading tabindex="-1">
                {Texts::text(|t| t.title)}
            </h2>
            <p>{Texts::text(|t| t.intro)}</p>
            {move || match phase.get() {
                Phase::Calibrate => {
                    calibrate_view(check_id, phase, calibrated, playing, calibrate).into_any()
                }
                Phase::Trial(k) => {
                    trial_view(k, i18n, played, playing, play_button, play_trial, answer)
                        .into_any()
                }
                Phase::Done => done_view(check_id, answers, done_button, on_done).into_any(),
            }}
            <p class="notice error" role="alert" hidden=move || !audio_failed.get()>
                {Texts::text(|t| t.audio_error)}
            </p>
            <p class="notice error" role="alert" hidden=move || load_error.with(Option::is_none)>
                {move || load_error.get()}
            </p>
            <p class="visually-hidden" role="status" aria-live="polite">
                {move || live.get()}
            </p>
            <p class="muted small" role="status" aria-live="polite" data-testid="hp-status">
                {move || if playing.get() { i18n.table::<Texts>().playing } else { "" }}
            </p>
        </section>
    }
}

/// The calibration step: a tone to set the volume by, then the start of the trials.
fn calibrate_view(
    check_id: RwSignal<Option<String>>,
    phase: RwSignal<Phase>,
    calibrated: RwSignal<bool>,
    playing: RwSignal<bool>,
    calibrate: impl Fn(leptos::ev::MouseEvent) + Copy + 'static,
) -> impl IntoView {
    view! {
        <div data-testid="hp-calibration">
            <p>{Texts::text(|t| t.calibrate_text)}</p>
            <div class="actions">
                <button
                    type="button"
                    class="button secondary"
                    data-testid="hp-calibrate"
                    disabled=move || playing.get() || check_id.with(Option::is_none)
                    on:click=calibrate
                >
                    {Texts::text(|t| t.calibrate)}
                </button>
                <button
                    type="button"
                    class="button primary"
                    data-testid="hp-start"
                    disabled=move || !calibrated.get() || playing.get()
                    on:click=move |_| phase.set(Phase::Trial(0))
                >
                    {Texts::text(|t| t.start)}
                </button>
            </div>
        </div>
    }
}

/// Trial `k` (0-based): play its three tones, then pick the quietest.
fn trial_view(
    k: u8,
    i18n: I18n,
    played: RwSignal<bool>,
    playing: RwSignal<bool>,
    play_button: NodeRef<leptos::html::Button>,
    play_trial: impl Fn(leptos::ev::MouseEvent) + Copy + 'static,
    answer: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let buttons = (1..=3usize)
        .map(|n| {
            view! {
                <button
                    type="button"
                    class="button secondary hp-answer"
                    data-testid="hp-answer"
                    data-choice=n.to_string()
                    disabled=move || !played.get() || playing.get()
                    on:click=move |_| answer(n - 1)
                >
                    {move || (i18n.table::<Texts>().sound)(n)}
                </button>
            }
        })
        .collect_view();
    view! {
        <div
            class="hp-trial"
            data-testid="hp-trial"
            data-trial=(k + 1).to_string()
        >
            <h3>{move || (i18n.table::<Texts>().trial)(k + 1, TRIALS)}</h3>
            <p>{Texts::text(|t| t.trial_text)}</p>
            <div class="actions">
                <button
                    type="button"
                    class="button primary"
                    data-testid="hp-play"
                    node_ref=play_button
                    disabled=move || played.get() || playing.get()
                    on:click=play_trial
                >
                    {move || {
                        if playing.get() { i18n.table::<Texts>().playing } else { i18n.table::<Texts>().play }
                    }}
                </button>
            </div>
            <fieldset class="choice-group hp-answers">
                <legend>{Texts::text(|t| t.which)}</legend>
                <div class="actions">{buttons}</div>
            </fieldset>
        </div>
    }
}

/// The end: continue with the check's id and the positions chosen.
fn done_view(
    check_id: RwSignal<Option<String>>,
    answers: StoredValue<Vec<u8>>,
    done_button: NodeRef<leptos::html::Button>,
    on_done: Callback<CheckResult>,
) -> impl IntoView {
    view! {
        <div data-testid="hp-done">
            <h3>{Texts::text(|t| t.done_title)}</h3>
            <p>{Texts::text(|t| t.done_text)}</p>
            <div class="actions">
                <button
                    type="button"
                    class="button primary"
                    data-testid="hp-continue"
                    node_ref=done_button
                    on:click=move |_| {
                        on_done
                            .run(CheckResult {
                                id: check_id.get_untracked().unwrap_or_default(),
                                answers: answers.get_value(),
                            })
                    }
                >
                    {Texts::text(|t| t.continue_)}
                </button>
            </div>
        </div>
    }
}

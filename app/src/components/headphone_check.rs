//! The headphone screening before a clip quiz: the antiphase-tone test of Woods, Siegel,
//! Traer & McDermott (2017), "Headphone screening to facilitate web-based auditory
//! experiments" (Attention, Perception, & Psychophysics 79:2064–2072).
//!
//! Each of six trials plays three 1 s, 200 Hz pure tones with 0.5 s gaps, in random order:
//! one at the reference level, one 6 dB quieter, and one at the reference level but in
//! antiphase between the left and right channels. Over loudspeakers the antiphase tone
//! partly cancels in the air and sounds quietest; over headphones it does not, so only
//! headphone listeners reliably pick the −6 dB tone as the quietest. A calibration tone at
//! the reference level comes first, to set the volume. Tones are synthesised with the Web
//! Audio API (no files) and start from button clicks (browsers need a user gesture).
//!
//! The page only counts the right answers; the server decides the pass (5 of 6) and stores
//! it, and participants continue either way. With `?e2e_headphones=1` in the page URL the
//! trial element names the quiet tone (`data-quietest`) so browser tests can pass the check.

use crate::browser::sleep_ms;
use crate::i18n::{use_i18n, Lang};
use leptos::prelude::*;
use leptos::task::spawn_local;
use leptos_router::hooks::use_query_map;
use memeboard_core::api::HeadphoneCheck as CheckResult;
use std::cell::RefCell;
use wasm_bindgen::JsValue;
use web_sys::{AudioContext, AudioContextState};

/// Trials in the test (Woods et al. use six; the server expects six).
pub const TRIALS: u8 = 6;
/// Tone frequency (Hz).
const TONE_HZ: f64 = 200.0;
/// Length of each tone (s).
const TONE_S: f64 = 1.0;
/// Silence between tones (s).
const GAP_S: f64 = 0.5;
/// Raised-cosine onset and offset ramps (s), so the tones start and stop without clicks.
const RAMP_S: f64 = 0.1;
/// Amplitude of the reference tone (full scale = 1): loud enough to hear, far from clipping.
const LEVEL: f64 = 0.25;
/// Level of the quiet tone relative to the reference (dB).
const QUIET_DB: f64 = -6.0;
/// Length of the calibration tone (s).
const CALIBRATION_S: f64 = 4.0;
/// Extra wait after a trial's sound before the answers open (ms): audio output latency.
const SETTLE_MS: i32 = 150;

/// One of a trial's three tones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tone {
    /// Reference level, in phase.
    Reference,
    /// 6 dB below the reference, in phase: the right answer.
    Quiet,
    /// Reference level, the right channel inverted.
    Antiphase,
}

/// A trial's tones in play order.
type Trial = [Tone; 3];

/// A trial in random order (Fisher–Yates with the browser's random numbers).
fn random_trial() -> Trial {
    let mut t = [Tone::Reference, Tone::Quiet, Tone::Antiphase];
    for i in (1..t.len()).rev() {
        let j = ((js_sys::Math::random() * (i + 1) as f64) as usize).min(i);
        t.swap(i, j);
    }
    t
}

/// The 0-based position of the quiet tone, the right answer.
fn quietest(trial: &Trial) -> usize {
    trial.iter().position(|t| *t == Tone::Quiet).unwrap_or(0)
}

/// Left and right samples of `tones`, each `tone_s` long with [`GAP_S`] between, at `rate` Hz.
fn render(tones: &[Tone], tone_s: f64, rate: f64) -> (Vec<f32>, Vec<f32>) {
    let tone_len = (tone_s * rate).round() as usize;
    let gap_len = (GAP_S * rate).round() as usize;
    let ramp_len = ((RAMP_S * rate).round() as usize).clamp(1, tone_len / 2 + 1);
    let total = tones.len() * tone_len + tones.len().saturating_sub(1) * gap_len;
    let mut left = vec![0.0f32; total];
    let mut right = vec![0.0f32; total];
    let quiet = 10f64.powf(QUIET_DB / 20.0);
    for (k, tone) in tones.iter().enumerate() {
        let (gain_l, gain_r) = match tone {
            Tone::Reference => (LEVEL, LEVEL),
            Tone::Quiet => (LEVEL * quiet, LEVEL * quiet),
            Tone::Antiphase => (LEVEL, -LEVEL),
        };
        let start = k * (tone_len + gap_len);
        for n in 0..tone_len {
            let edge = n.min(tone_len - 1 - n);
            let envelope = if edge < ramp_len {
                0.5 - 0.5 * (std::f64::consts::PI * edge as f64 / ramp_len as f64).cos()
            } else {
                1.0
            };
            let s = (2.0 * std::f64::consts::PI * TONE_HZ * n as f64 / rate).sin() * envelope;
            left[start + n] = (s * gain_l) as f32;
            right[start + n] = (s * gain_r) as f32;
        }
    }
    (left, right)
}

/// Length in milliseconds of `count` tones of `tone_s` with gaps.
fn sound_ms(count: usize, tone_s: f64) -> i32 {
    let s = count as f64 * tone_s + count.saturating_sub(1) as f64 * GAP_S;
    (s * 1000.0).round() as i32
}

thread_local! {
    /// The page's audio context, made on the first click and kept (browsers limit them).
    static CONTEXT: RefCell<Option<AudioContext>> = const { RefCell::new(None) };
}

/// Plays `tones` (stereo); fails when the browser has no Web Audio.
fn play(tones: &[Tone], tone_s: f64) -> Result<(), JsValue> {
    let ctx = CONTEXT.with(|c| -> Result<AudioContext, JsValue> {
        if let Some(ctx) = c.borrow().as_ref() {
            return Ok(ctx.clone());
        }
        let ctx = AudioContext::new()?;
        *c.borrow_mut() = Some(ctx.clone());
        Ok(ctx)
    })?;
    if ctx.state() == AudioContextState::Suspended {
        let _ = ctx.resume();
    }
    let rate = ctx.sample_rate();
    let (left, right) = render(tones, tone_s, f64::from(rate));
    let len = u32::try_from(left.len()).map_err(|_| JsValue::from_str("sound too long"))?;
    let buffer = ctx.create_buffer(2, len, rate)?;
    buffer.copy_to_channel(&left, 0)?;
    buffer.copy_to_channel(&right, 1)?;
    let source = ctx.create_buffer_source()?;
    source.set_buffer(Some(&buffer));
    source.connect_with_audio_node(&ctx.destination())?;
    source.start()?;
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

fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::Zh => &ZH,
        Lang::En => &EN,
    }
}

/// A string of [`Texts`] that follows the language.
fn tx(pick: fn(&'static Texts) -> &'static str) -> impl Fn() -> &'static str + Copy + Send + Sync {
    let i18n = use_i18n();
    move || pick(texts(i18n.lang()))
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

/// The headphone check: calibration, six trials, then `on_done` with the count right (sent
/// whatever it is).
#[component]
pub fn HeadphoneCheck(
    /// Called with the result when the participant continues.
    on_done: Callback<CheckResult>,
) -> impl IntoView {
    let i18n = use_i18n();
    let e2e = use_query_map().with_untracked(|q| q.get("e2e_headphones").as_deref() == Some("1"));
    let trials = StoredValue::new((0..TRIALS).map(|_| random_trial()).collect::<Vec<Trial>>());
    let phase = RwSignal::new(Phase::Calibrate);
    let calibrated = RwSignal::new(false);
    let playing = RwSignal::new(false);
    // The current trial's tones have been played (answers open).
    let played = RwSignal::new(false);
    let audio_failed = RwSignal::new(false);
    let correct = RwSignal::new(0u8);
    let live = RwSignal::new(String::new());

    let heading = NodeRef::<leptos::html::H2>::new();
    Effect::new(move |_| {
        if let Some(h) = heading.get() {
            let _ = h.focus();
        }
    });
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

    // Plays `tones`, then runs `after` once they are over (also when no sound could play).
    let sound = move |tones: Vec<Tone>, tone_s: f64, after: fn(RwSignal<bool>)| {
        if playing.get_untracked() {
            return;
        }
        let ok = play(&tones, tone_s).is_ok();
        audio_failed.set(!ok);
        if !ok {
            after(played);
            return;
        }
        playing.set(true);
        let ms = sound_ms(tones.len(), tone_s) + SETTLE_MS;
        spawn_local(async move {
            sleep_ms(ms).await;
            let _ = playing.try_set(false);
            after(played);
        });
    };
    let calibrate = move |_| {
        calibrated.set(true);
        sound(vec![Tone::Reference], CALIBRATION_S, |_| {});
    };
    let play_trial = move |_| {
        let Phase::Trial(k) = phase.get_untracked() else {
            return;
        };
        if played.get_untracked() {
            return;
        }
        let Some(trial) = trials.with_value(|t| t.get(usize::from(k)).copied()) else {
            return;
        };
        sound(trial.to_vec(), TONE_S, |played| {
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
        let right = trials.with_value(|t| t.get(usize::from(k)).map(quietest)) == Some(choice);
        if right {
            correct.update(|c| *c += 1);
        }
        played.set(false);
        let next = k + 1;
        if next >= TRIALS {
            phase.set(Phase::Done);
            live.set(String::new());
        } else {
            phase.set(Phase::Trial(next));
            live.set(texts(i18n.lang_untracked()).recorded.to_owned());
        }
    };

    let calibrate_view = move || {
        view! {
            <div data-testid="hp-calibration">
                <p>{tx(|t| t.calibrate_text)}</p>
                <div class="actions">
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="hp-calibrate"
                        disabled=move || playing.get()
                        on:click=calibrate
                    >
                        {tx(|t| t.calibrate)}
                    </button>
                    <button
                        type="button"
                        class="button primary"
                        data-testid="hp-start"
                        disabled=move || !calibrated.get() || playing.get()
                        on:click=move |_| phase.set(Phase::Trial(0))
                    >
                        {tx(|t| t.start)}
                    </button>
                </div>
            </div>
        }
    };
    let trial_view = move |k: u8| {
        let quiet = trials.with_value(|t| t.get(usize::from(k)).map(quietest));
        let marker = quiet.filter(|_| e2e).map(|q| (q + 1).to_string());
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
                        {move || (texts(i18n.lang()).sound)(n)}
                    </button>
                }
            })
            .collect_view();
        view! {
            <div
                class="hp-trial"
                data-testid="hp-trial"
                data-trial=(k + 1).to_string()
                data-quietest=marker
            >
                <h3>{move || (texts(i18n.lang()).trial)(k + 1, TRIALS)}</h3>
                <p>{tx(|t| t.trial_text)}</p>
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
                            if playing.get() { texts(i18n.lang()).playing } else { texts(i18n.lang()).play }
                        }}
                    </button>
                </div>
                <fieldset class="choice-group hp-answers">
                    <legend>{tx(|t| t.which)}</legend>
                    <div class="actions">{buttons}</div>
                </fieldset>
            </div>
        }
    };
    let done_view = move || {
        view! {
            <div data-testid="hp-done">
                <h3>{tx(|t| t.done_title)}</h3>
                <p>{tx(|t| t.done_text)}</p>
                <div class="actions">
                    <button
                        type="button"
                        class="button primary"
                        data-testid="hp-continue"
                        node_ref=done_button
                        on:click=move |_| {
                            on_done
                                .run(CheckResult {
                                    trials: TRIALS,
                                    correct: correct.get_untracked(),
                                })
                        }
                    >
                        {tx(|t| t.continue_)}
                    </button>
                </div>
            </div>
        }
    };

    view! {
        <section class="card headphone-check" data-testid="headphone-check">
            <h2 node_ref=heading tabindex="-1">
                {tx(|t| t.title)}
            </h2>
            <p>{tx(|t| t.intro)}</p>
            {move || match phase.get() {
                Phase::Calibrate => calibrate_view().into_any(),
                Phase::Trial(k) => trial_view(k).into_any(),
                Phase::Done => done_view().into_any(),
            }}
            <p class="notice error" role="alert" hidden=move || !audio_failed.get()>
                {tx(|t| t.audio_error)}
            </p>
            <p class="visually-hidden" role="status" aria-live="polite">
                {move || live.get()}
            </p>
            <p class="muted small" role="status" aria-live="polite" data-testid="hp-status">
                {move || if playing.get() { texts(i18n.lang()).playing } else { "" }}
            </p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peak(samples: &[f32]) -> f32 {
        samples.iter().fold(0.0f32, |m, s| m.max(s.abs()))
    }

    #[test]
    fn a_trial_has_a_quiet_tone_and_an_antiphase_one() {
        let rate = 8000.0;
        let trial = [Tone::Antiphase, Tone::Reference, Tone::Quiet];
        let (l, r) = render(&trial, TONE_S, rate);
        let tone = (TONE_S * rate) as usize;
        let gap = (GAP_S * rate) as usize;
        assert_eq!(l.len(), 3 * tone + 2 * gap);
        assert_eq!(sound_ms(3, TONE_S), 4000);
        let part = |s: &[f32], k: usize| s[k * (tone + gap)..k * (tone + gap) + tone].to_vec();
        // Antiphase: right = -left, same level as the reference.
        let (a_l, a_r) = (part(&l, 0), part(&r, 0));
        assert!(a_l.iter().zip(&a_r).all(|(x, y)| (x + y).abs() < 1e-6));
        let reference = peak(&part(&l, 1));
        assert!((peak(&a_l) - reference).abs() < 1e-3);
        // Quiet: 6 dB down, in phase.
        let (q_l, q_r) = (part(&l, 2), part(&r, 2));
        assert!((peak(&q_l) / reference - 0.501).abs() < 0.01);
        assert_eq!(q_l, q_r);
        // Silent gaps, and ramps that start from silence.
        assert!(l[tone..tone + gap].iter().all(|s| *s == 0.0));
        assert!(l[0].abs() < 1e-6);
        assert_eq!(quietest(&trial), 2);
    }
}

//! The opt-in panel for scoring explanations in the browser: it names the download size (from
//! the model's browser manifest) and loads the model only when the participant asks, with a
//! progress bar, a live status and the backend in words. Once chosen, later pages load the
//! model (from the Cache API) by themselves; "Stop using it" forgets the choice. Nothing here
//! blocks the quiz: the server scores every explanation whether or not the model loads.

use crate::embedder::{self, Backend, ModelState, Offer};
use crate::i18n::{use_i18n, Lang, StringTable};
use leptos::prelude::*;
use leptos::task::spawn_local;

/// The panel's interface strings.
#[derive(Debug)]
struct Texts {
    /// The offer, with the download size in MB.
    offer: fn(&str) -> String,
    /// Why one would: the server scores anyway.
    offer_note: &'static str,
    /// Button: load the model.
    load: &'static str,
    /// Status: downloading.
    loading: &'static str,
    /// Bytes so far: (loaded MB, total MB).
    loaded_of: fn(&str, &str) -> String,
    /// Label of the progress bar.
    progress_label: &'static str,
    /// Status: loaded, with the backend in words.
    ready: fn(&str) -> String,
    /// The WebGPU backend (adapter).
    webgpu: fn(&str) -> String,
    /// The CPU backend, in a participant's words (why WebGPU is not used is a developer's
    /// detail, left out).
    cpu: &'static str,
    /// Button: stop using the model.
    forget: &'static str,
    /// Status: the download failed (reason).
    failed: fn(&str) -> String,
    /// After a failure: the quiz goes on.
    failed_note: &'static str,
    /// Button: try the download again.
    retry: &'static str,
}

static ZH: Texts = Texts {
    offer: |mb| format!("在你的浏览器中即时评分（一次性下载约 {mb} MB，之后可离线使用）"),
    offer_note: "可选：服务器会为每份解释评分，不加载也不影响答题。",
    load: "加载浏览器评分模型",
    loading: "正在下载评分模型……你可以继续答题。",
    loaded_of: |loaded, total| format!("{loaded} / {total} MB"),
    progress_label: "评分模型下载进度",
    ready: |backend| format!("浏览器评分已开启，{backend}"),
    webgpu: |adapter| {
        if adapter.is_empty() {
            "在你的显卡上运行（WebGPU）".to_owned()
        } else {
            format!("在你的显卡上运行（WebGPU：{adapter}）")
        }
    },
    cpu: "在你的处理器上运行",
    forget: "不再使用",
    failed: |e| format!("评分模型加载失败：{e}"),
    failed_note: "答题不受影响：服务器会为你的解释评分。",
    retry: "重试",
};

static EN: Texts = Texts {
    offer: |mb| {
        format!("Score instantly in your browser (downloads {mb} MB once, then works offline)")
    },
    offer_note: "Optional: the server scores every explanation either way.",
    load: "Load the browser model",
    loading: "Downloading the scoring model… You can keep answering.",
    loaded_of: |loaded, total| format!("{loaded} / {total} MB"),
    progress_label: "Scoring model download",
    ready: |backend| format!("Scoring in your browser is on: it {backend}"),
    webgpu: |adapter| {
        if adapter.is_empty() {
            "runs on your graphics card (WebGPU)".to_owned()
        } else {
            format!("runs on your graphics card (WebGPU: {adapter})")
        }
    },
    cpu: "runs on your processor",
    forget: "Stop using it",
    failed: |e| format!("The scoring model could not be loaded: {e}"),
    failed_note: "The quiz goes on: the server scores your explanations.",
    retry: "Retry",
};

impl StringTable for Texts {
    const EN: &'static Self = &EN;
    const ZH: &'static Self = &ZH;
}

/// Megabytes with one decimal below 10 MB, whole ones above ("0.1", "48").
pub fn megabytes(bytes: f64) -> String {
    let mb = bytes / 1e6;
    if mb < 10.0 {
        format!("{:.1}", mb.max(0.1))
    } else {
        format!("{mb:.0}")
    }
}

/// Where the model runs, in a participant's words: "runs on your graphics card (WebGPU: …)"
/// or "runs on your processor" (the browser's reason for not using WebGPU is left out).
pub fn backend_text(lang: Lang, backend: &Backend) -> String {
    let t = lang.table::<Texts>();
    if backend.webgpu {
        (t.webgpu)(&backend.detail)
    } else {
        t.cpu.to_owned()
    }
}

/// Which controls the panel shows (changes of state, not every chunk of a download).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Off,
    Loading,
    Ready,
    Failed,
}

/// `(loaded, total)` bytes for the progress bar: `total` from the download once known, else
/// the manifest's size; `loaded` is `None` (an indeterminate bar) until the download starts.
fn progress_of(state: &ModelState, manifest_bytes: f64) -> (Option<f64>, f64) {
    match state {
        ModelState::Loading(loaded, total) if *total > 0.0 => (Some(*loaded), *total),
        ModelState::Ready(total, _) if *total > 0.0 => (Some(*total), *total),
        _ => (None, manifest_bytes),
    }
}

/// The opt-in panel. Renders nothing while the offer loads or when the server has no browser
/// copy of the model. Loads the model by itself when the participant chose it before.
#[component]
pub fn BrowserModelPanel() -> impl IntoView {
    let i18n = use_i18n();
    let offer = RwSignal::new(None::<Offer>);
    spawn_local(async move {
        // No offer (no browser copy, or the server unreachable): no panel; the quiz goes on.
        if let Ok(Some(o)) = embedder::offer().await {
            if embedder::remembered() {
                embedder::load(&o);
            }
            let _ = offer.try_set(Some(o));
        }
    });
    let state = embedder::state();
    let phase = Memo::new({
        let state = state.clone();
        move |_| match state.get() {
            ModelState::Off => Phase::Off,
            ModelState::Loading(..) => Phase::Loading,
            ModelState::Ready(..) => Phase::Ready,
            ModelState::Failed(_) => Phase::Failed,
        }
    });
    // The live region's text: it changes with the phase (and the language) only, so screen
    // readers hear "downloading", "ready: CPU …" or the error once each.
    let status = Memo::new({
        let state = state.clone();
        move |_| {
            let lang = i18n.lang();
            let t = lang.table::<Texts>();
            match state.get() {
                ModelState::Off => String::new(),
                ModelState::Loading(..) => t.loading.to_owned(),
                ModelState::Ready(_, backend) => (t.ready)(&backend_text(lang, &backend)),
                ModelState::Failed(e) => (t.failed)(&e),
            }
        }
    });
    move || {
        let o = offer.get()?;
        let manifest_bytes = o.bytes as f64;
        let size = megabytes(manifest_bytes);
        let load = move |_| embedder::load(&o);
        let state = state.clone();
        let bar = move || {
            let state = state.clone();
            let progress = Memo::new(move |_| progress_of(&state.get(), manifest_bytes));
            view! {
                <div class="upload-progress">
                    <progress
                        data-testid="browser-model-progress"
                        aria-label=Texts::text(|t| t.progress_label)
                        max=move || progress.get().1.to_string()
                        value=move || progress.get().0.map(|v| v.to_string())
                    ></progress>
                    <span class="muted small" aria-hidden="true">
                        {move || {
                            let (loaded, total) = progress.get();
                            (i18n.table::<Texts>().loaded_of)(
                                &megabytes(loaded.unwrap_or(0.0)),
                                &megabytes(total),
                            )
                        }}
                    </span>
                </div>
            }
        };
        let controls = move || {
            match phase.get() {
                Phase::Off => view! {
                    <p data-testid="browser-model-offer">
                        {let size = size.clone(); move || (i18n.table::<Texts>().offer)(&size)}
                    </p>
                    <p class="muted small">{Texts::text(|t| t.offer_note)}</p>
                    <button type="button" class="button" data-testid="browser-model-load" on:click=load.clone()>
                        {Texts::text(|t| t.load)}
                    </button>
                }
                .into_any(),
                Phase::Loading => bar().into_any(),
                Phase::Ready => view! {
                    {bar()}
                    <button
                        type="button"
                        class="button secondary"
                        data-testid="browser-model-forget"
                        on:click=|_| embedder::forget()
                    >
                        {Texts::text(|t| t.forget)}
                    </button>
                }
                .into_any(),
                Phase::Failed => view! {
                    <p class="muted small">{Texts::text(|t| t.failed_note)}</p>
                    <button type="button" class="button" data-testid="browser-model-retry" on:click=load.clone()>
                        {Texts::text(|t| t.retry)}
                    </button>
                }
                .into_any(),
            }
        };
        Some(view! {
            <section class="browser-model" data-testid="browser-model">
                <p
                    role="status"
                    aria-live="polite"
                    data-testid="browser-model-status"
                    class:error=move || phase.get() == Phase::Failed
                >
                    {move || status.get()}
                </p>
                {controls}
            </section>
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{backend_text, megabytes};
    use crate::embedder::Backend;
    use crate::i18n::Lang;

    #[test]
    fn the_backend_reads_in_a_participants_words() {
        let cpu = Backend {
            webgpu: false,
            detail: "WebGPU: navigator.gpu is undefined".into(),
        };
        assert_eq!(backend_text(Lang::En, &cpu), "runs on your processor");
        assert_eq!(backend_text(Lang::Zh, &cpu), "在你的处理器上运行");
        let gpu = Backend {
            webgpu: true,
            detail: "SwiftShader".into(),
        };
        assert_eq!(
            backend_text(Lang::En, &gpu),
            "runs on your graphics card (WebGPU: SwiftShader)"
        );
    }

    #[test]
    fn sizes_read_as_megabytes() {
        assert_eq!(megabytes(47_915_624.0), "48");
        assert_eq!(megabytes(81_752.0), "0.1");
        assert_eq!(megabytes(2_500_000.0), "2.5");
    }
}

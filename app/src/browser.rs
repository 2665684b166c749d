//! Small browser helpers: a monotonic clock, a timer, random keys, the clipboard, the media
//! check, focus after a re-render and the heading focused when it is shown.

/// Milliseconds from `performance.now()` (0 when unavailable).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

/// Whole milliseconds elapsed since `start` (a [`now_ms`] reading), never negative.
pub fn elapsed_ms(start: f64) -> u64 {
    let ms = (now_ms() - start).round();
    if ms.is_finite() && ms > 0.0 {
        ms as u64
    } else {
        0
    }
}

/// Waits `ms` milliseconds (a `setTimeout` promise; returns at once without a window).
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        } else {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A random 128-bit key in hex, for idempotent answer submission.
pub fn random_key() -> String {
    let mut key = String::with_capacity(32);
    for _ in 0..4 {
        let word = (js_sys::Math::random() * 4_294_967_296.0) as u32;
        key.push_str(&format!("{word:08x}"));
    }
    key
}

/// Copies `text` with the asynchronous clipboard API; false when it is unavailable or refused.
pub async fn copy_to_clipboard(text: &str) -> bool {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return false;
    };
    // `navigator.clipboard` is undefined outside secure contexts: check before calling.
    let available = js_sys::Reflect::get(&navigator, &wasm_bindgen::JsValue::from_str("clipboard"))
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !available {
        return false;
    }
    wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text))
        .await
        .is_ok()
}

/// What this browser lacks to play media of these MIME types: `audio` when it has no way to
/// play sound (no Web Audio), else the first type its media elements cannot play; `None`
/// when it plays them all (or there are none). The quiz page asks before consent.
pub fn media_problem(types: &[String]) -> Option<String> {
    use wasm_bindgen::{JsCast, JsValue};
    if types.is_empty() {
        return None;
    }
    let window = web_sys::window()?;
    let has = |name: &str| js_sys::Reflect::has(&window, &JsValue::from_str(name)) == Ok(true);
    if !has("AudioContext") && !has("webkitAudioContext") {
        return Some("audio".into());
    }
    let probe: web_sys::HtmlMediaElement = window
        .document()?
        .create_element("video")
        .ok()?
        .dyn_into()
        .ok()?;
    types
        .iter()
        .find(|t| probe.can_play_type(t).is_empty())
        .cloned()
}

/// Focuses the first element under `root` (the whole document when `None`) that matches
/// `selector`, if there is one: for focus that has to follow a re-render, where the element
/// that had it is gone and no node reference to its replacement exists.
pub fn focus_selector(root: Option<&web_sys::Element>, selector: &str) {
    use wasm_bindgen::JsCast;
    let found = match root {
        Some(r) => r.query_selector(selector).ok().flatten(),
        None => web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten()),
    };
    if let Some(e) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = e.focus();
    }
}

/// A node reference whose element takes the focus when it is shown: a page's or a step's
/// heading (with `tabindex="-1"`), so that keyboard and screen-reader users start there.
pub fn focus_when_shown<E>() -> leptos::prelude::NodeRef<E>
where
    E: leptos::html::ElementType,
    E::Output: wasm_bindgen::JsCast + Clone + 'static,
{
    use leptos::prelude::{Effect, Get, NodeRef};
    use wasm_bindgen::JsCast;
    let node = NodeRef::<E>::new();
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            let _ = el.unchecked_ref::<web_sys::HtmlElement>().focus();
        }
    });
    node
}

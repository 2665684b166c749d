//! Small browser helpers: a monotonic clock, a timer, random keys and the clipboard.

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

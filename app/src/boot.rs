//! The hand-over from the server's first paint to the app. The shell's `#boot` holds the page's
//! content as the server rendered it (`server/src/first_paint/`); the app used to remove it
//! the moment it mounted and then show its own "Loading…" for one API round trip before the
//! same content (a flash of about 0.6 s on a slow phone). Now the app mounts hidden behind
//! `#boot` (`body.booting`, see `style/main.css`) and takes over when its page has content:
//! when the first `Loading` placeholder (`components::status`) goes, or at once when
//! the page waits for nothing, and in any case after [`BOOT_MAX_MS`].

use std::cell::Cell;
use wasm_bindgen::JsCast;

/// The longest the first paint stays after the app has mounted (ms): a page whose data
/// never arrives shows the app's own state (an error, a retry) after this.
pub const BOOT_MAX_MS: i32 = 8000;

thread_local! {
    /// A page placeholder was shown while the app mounted: the boot waits for it to go.
    static WAITING: Cell<bool> = const { Cell::new(false) };
}

fn body() -> Option<web_sys::HtmlElement> {
    web_sys::window()?.document()?.body()
}

/// How long after mounting the app decides that its page waits for nothing (ms): the router
/// renders the matched page a moment after the mount, placeholder included.
const SETTLE_MS: i32 = 100;

/// Runs `f` after `ms` milliseconds.
fn after(ms: i32, f: fn()) {
    if let Some(window) = web_sys::window() {
        let f = wasm_bindgen::closure::Closure::once_into_js(f);
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), ms);
    }
}

/// Mounts `app` on `<body>` behind the first paint (see the module's documentation).
pub fn mount<F, N>(app: F)
where
    F: FnOnce() -> N + 'static,
    N: leptos::IntoView,
{
    let booting = body().is_some_and(|b| {
        b.query_selector("#boot").ok().flatten().is_some()
            && b.class_list().add_1("booting").is_ok()
    });
    leptos::mount::mount_to_body(app);
    if !booting {
        return;
    }
    // A page that shows a placeholder by then keeps the first paint until it goes.
    after(SETTLE_MS, || {
        if !WAITING.get() {
            take_over();
        }
    });
    after(BOOT_MAX_MS, take_over);
}

/// A page placeholder is on screen: while the first paint is up, it stays until the
/// placeholder goes ([`take_over`] on its cleanup).
pub fn hold() {
    WAITING.set(true);
}

/// Removes the first paint and shows the app (idempotent).
pub fn take_over() {
    let Some(body) = body() else {
        return;
    };
    if let Ok(Some(boot)) = body.query_selector("#boot") {
        boot.remove();
    }
    let _ = body.class_list().remove_1("booting");
}

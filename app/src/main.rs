//! Browser entry point: installs the panic hook (debug builds), mounts [`memeboard_app::App`] on `<body>` and
//! removes the static loading shell that `index.html` paints before the WebAssembly arrives.

fn main() {
    // Debug builds only: the hook's message formatting costs the release bundle size.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(memeboard_app::App);
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
}

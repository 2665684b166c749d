//! Browser entry point: installs the panic hook (debug builds) and mounts [`memeboard_app::App`]
//! on `<body>` behind the page's first paint, which it takes over ([`memeboard_app::boot`]).

fn main() {
    // Debug builds only: the hook's message formatting costs the release bundle size.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    memeboard_app::boot::mount(memeboard_app::App);
}

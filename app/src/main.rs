//! Browser entry point: installs the panic hook and mounts [`memeboard_app::App`] on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(memeboard_app::App);
}

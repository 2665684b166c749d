//! Browser entry point of the studio bundle (`dist/studio/`): the same shell as `main.rs`
//! with [`memeboard_app::StudioApp`], which has the researcher pages too.

fn main() {
    console_error_panic_hook::set_once();
    memeboard_app::boot::mount(memeboard_app::StudioApp);
}

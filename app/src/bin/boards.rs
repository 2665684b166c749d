//! Browser entry point of the boards bundle (`dist/boards-app/`): the same shell as `main.rs`
//! with [`memeboard_app::BoardsApp`], which has the leaderboard and model pages too.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(memeboard_app::BoardsApp);
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
}

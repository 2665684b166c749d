//! Browser entry point of the boards bundle (`dist/boards-app/`): the same shell as `main.rs`
//! with [`memeboard_app::BoardsApp`], which has the leaderboard and model pages too.

fn main() {
    console_error_panic_hook::set_once();
    memeboard_app::boot::mount(memeboard_app::BoardsApp);
}

//! memeboard browser app: crowd human-baseline quizzes for meme-understanding benchmarks.
//!
//! A client-side rendered Leptos app (built with Trunk). All HTTP lives in [`api`]; wire
//! types come from `memeboard-core`. Routes:
//!
//! - `/`: open quizzes ([`pages::home`])
//! - `/quiz/{slug}`: resume, or instructions + consent + survey ([`pages::quiz_intro`])
//! - `/session/{id}`: the questions ([`pages::session`])
//! - `/session/{id}/results`: score, crowd baseline and review ([`pages::results`])
//! - `/boards`: tasks with leaderboards ([`pages::boards`])
//! - `/boards/{slug}`: one leaderboard, public or private ([`pages::board`])
//! - `/submit`: upload predictions, with an in-browser check and dev preview
//!   ([`pages::submit`])
//! - `/account`: author token and own submissions ([`pages::account`])
//! - `/models/{id}`: a model page ([`pages::model`])
//! - `/console`, `/console/{slug}`: an owner's study console ([`pages::console`])
//! - `/console/studies/{slug}`: a study ([`pages::study`])
//!
//! Three nested bundles share this crate ([`bundles`]): [`App`] (quiz pages, `src/main.rs`),
//! [`BoardsApp`] (plus leaderboards and model pages, `src/bin/boards.rs`) and [`StudioApp`]
//! (every page, `src/bin/studio.rs`), so quiz participants never download the board or
//! researcher code, and board readers never download the researcher code.

#![warn(missing_docs)]

pub mod api;
pub mod boot;
pub mod browser;
pub mod bundles;
pub mod components;
pub mod embedder;
pub mod format;
pub mod i18n;
pub mod kinds;
pub mod pages;
pub mod storage;
pub mod study_api;

use bundles::{Bundle, Fallback};
use components::header::{SiteFooter, SiteHeader};
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;
use pages::account::AccountPage;
use pages::board::BoardPage;
use pages::boards::BoardsPage;
use pages::console::ConsolePage;
use pages::home::HomePage;
use pages::model::ModelPage;
use pages::not_found::NotFoundPage;
use pages::quiz_intro::QuizIntroPage;
use pages::results::ResultsPage;
use pages::session::SessionPage;
use pages::submit::SubmitPage;
use pages::tables::PaperTablesPage;

/// The quiz bundle ([`Bundle::Quiz`]): home, quiz, session and results pages. Links to the
/// other pages load them from the server, which sends the bundle that has them.
#[component]
pub fn App() -> impl IntoView {
    i18n::provide_i18n();
    // Study links may open any page: keep their recruitment ids for the whole visit.
    storage::remember_recruitment_from_url();
    // Before the router is created: its click listener must see the prevented default.
    bundles::intercept_foreign_links(Bundle::Quiz);
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to content / 跳到正文"</a>
            <SiteHeader />
            <main id="main" class="wrap" tabindex="-1">
                <Routes fallback=|| view! { <Fallback bundle=Bundle::Quiz /> }>
                    <Route path=path!("/") view=HomePage />
                    <Route path=path!("/quiz/:slug") view=QuizIntroPage />
                    <Route path=path!("/session/:id") view=SessionPage />
                    <Route path=path!("/session/:id/results") view=ResultsPage />
                </Routes>
            </main>
            <SiteFooter />
        </Router>
    }
}

/// The boards bundle ([`Bundle::Boards`]): the quiz pages plus leaderboards and model pages.
#[component]
pub fn BoardsApp() -> impl IntoView {
    i18n::provide_i18n();
    // Study links may open any page: keep their recruitment ids for the whole visit.
    storage::remember_recruitment_from_url();
    // Before the router is created: its click listener must see the prevented default.
    bundles::intercept_foreign_links(Bundle::Boards);
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to content / 跳到正文"</a>
            <SiteHeader />
            <main id="main" class="wrap" tabindex="-1">
                <Routes fallback=|| view! { <Fallback bundle=Bundle::Boards /> }>
                    <Route path=path!("/") view=HomePage />
                    <Route path=path!("/quiz/:slug") view=QuizIntroPage />
                    <Route path=path!("/session/:id") view=SessionPage />
                    <Route path=path!("/session/:id/results") view=ResultsPage />
                    <Route path=path!("/boards") view=BoardsPage />
                    <Route path=path!("/boards/:slug") view=BoardPage />
                    <Route path=path!("/benchmarks/:slug/tables") view=PaperTablesPage />
                    <Route path=path!("/models/:id") view=ModelPage />
                </Routes>
            </main>
            <SiteFooter />
        </Router>
    }
}

/// The studio bundle ([`Bundle::Studio`]): every page, the researcher pages included.
#[component]
pub fn StudioApp() -> impl IntoView {
    i18n::provide_i18n();
    // Study links may open any page: keep their recruitment ids for the whole visit.
    storage::remember_recruitment_from_url();
    view! {
        <Router>
            <a class="skip-link" href="#main">"Skip to content / 跳到正文"</a>
            <SiteHeader />
            <main id="main" class="wrap" tabindex="-1">
                <Routes fallback=|| view! { <NotFoundPage /> }>
                    <Route path=path!("/") view=HomePage />
                    <Route path=path!("/quiz/:slug") view=QuizIntroPage />
                    <Route path=path!("/session/:id") view=SessionPage />
                    <Route path=path!("/session/:id/results") view=ResultsPage />
                    <Route path=path!("/boards") view=BoardsPage />
                    <Route path=path!("/boards/:slug") view=BoardPage />
                    <Route path=path!("/benchmarks/:slug/tables") view=PaperTablesPage />
                    <Route path=path!("/submit") view=SubmitPage />
                    <Route path=path!("/account") view=AccountPage />
                    <Route path=path!("/models/:id") view=ModelPage />
                    <Route path=path!("/console") view=ConsolePage />
                    <Route path=path!("/console/:slug") view=ConsolePage />
                    <Route path=path!("/console/studies/:slug") view=crate::pages::study::StudyPagePage />
                </Routes>
            </main>
            <SiteFooter />
        </Router>
    }
}

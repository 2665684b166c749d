//! Building the application: storage, demo data, router and listener. `main` and the tests
//! both go through [`Application::build`].

pub mod admission;

use crate::config::Settings;
use crate::explain::inference::EmbeddingService;
use crate::routes;
pub use crate::state::AppState;
use crate::storage::Storage;
use anyhow::Context;
use axum::extract::Request;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

/// A built, bound, not-yet-running server.
pub struct Application {
    listener: TcpListener,
    router: Router,
    storage: Storage,
    /// Time a client has to send a request's headers.
    header_read_timeout: std::time::Duration,
    /// Which connections are served (the caps in total and per address).
    admission: admission::Admission,
}

impl Application {
    /// Connects storage (running migrations), loads the demo into an empty database if
    /// configured, builds the router and binds the listener (port 0 = any free port).
    pub async fn build(settings: Settings) -> anyhow::Result<Self> {
        if settings.database.url.trim().is_empty() {
            std::fs::create_dir_all(&settings.data.dir)
                .with_context(|| format!("creating data dir {}", settings.data.dir.display()))?;
        }
        let storage = Storage::connect(&settings.database_url(), settings.database.max_connections)
            .await
            .context("opening the database")?;
        storage.set_crowd_refresh(std::time::Duration::from_secs(
            settings.quiz.crowd_refresh_secs,
        ));
        crate::upgrade::run(&storage, settings.quiz.bootstrap_resamples)
            .await
            .context("upgrading the database")?;
        if settings.data.load_demo {
            crate::demo::load_if_empty(
                &storage,
                settings.quiz.batch_size,
                settings.quiz.explain_batch_size,
                settings
                    .data
                    .load_clip_demo
                    .then_some(settings.data.dir.as_path()),
            )
            .await
            .context("loading the demo benchmark")?;
        }
        if !settings.server.static_dir.join("index.html").exists() {
            tracing::warn!(
                dir = %settings.server.static_dir.display(),
                "front end not built (no index.html): the API works, pages will 404; run scripts/build-web.sh"
            );
        }
        let (model, data_dir) = (settings.model.clone(), settings.data.dir.clone());
        let embeddings =
            tokio::task::spawn_blocking(move || EmbeddingService::load(&model, &data_dir))
                .await
                .context("loading the embedding model")?;
        let listener = TcpListener::bind((settings.server.host.as_str(), settings.server.port))
            .await
            .with_context(|| {
                format!("binding {}:{}", settings.server.host, settings.server.port)
            })?;
        // Explanations stored but not scored yet (model missing or busy, a crash) are scored
        // in the background.
        let scoring_admission = Arc::new(crate::explain::admission::ScoringAdmission::new(
            settings.model.inline_scoring_per_client,
        ));
        tokio::spawn(crate::kinds::explanation::backlog::score_backlog(
            storage.clone(),
            embeddings.clone(),
            scoring_admission.backlog_wake(),
        ));
        // Explanation files scored before identification was the primary score (earlier
        // versions) are scored again from their stored outputs.
        tokio::spawn(crate::upgrade::explanations::rescore_in_background(
            storage.clone(),
            settings.clone(),
            embeddings.clone(),
        ));
        // The demo models' submissions, once the embedding model is loaded (it is, here),
        // through the ordinary upload path.
        if settings.data.load_demo && settings.data.load_demo_submissions {
            let (storage, settings, embeddings) =
                (storage.clone(), settings.clone(), embeddings.clone());
            tokio::spawn(async move {
                if let Err(e) =
                    crate::demo::submissions::load(&storage, &settings, &embeddings).await
                {
                    tracing::warn!(error = %e, "demo submissions not loaded");
                }
            });
        }
        let header_read_timeout =
            std::time::Duration::from_secs(settings.server.header_read_timeout_secs.max(1));
        // Behind a reverse proxy every connection comes from the proxy: no per-address cap.
        let per_address = if settings.leaderboard.client_ip_header.trim().is_empty() {
            settings.server.max_connections_per_address
        } else {
            0
        };
        let admission = admission::Admission::new(settings.server.max_connections, per_address);
        let settings_static_dir = settings.server.static_dir.clone();
        let state = AppState {
            storage: storage.clone(),
            settings: Arc::new(settings),
            embeddings,
            scoring_admission,
            rate_limits: Arc::default(),
            crowd_stats: Arc::default(),
            board_crowd: Arc::default(),
            board_human_rows: Arc::default(),
            item_crowd: Arc::default(),
            board_references: Arc::default(),
            board_familiarity: Arc::default(),
            paper_familiarity: Arc::default(),
            progress: Arc::default(),
            study_tables: Arc::default(),
            rescorings: Default::default(),
            board_human: Arc::default(),
            shells: Arc::new(crate::http::html_shell::Shells::read(&settings_static_dir)),
        };
        // With a crowd refresh interval (crowd figures may lag), each quiz's crowd figures
        // are computed now, so that no request after a restart waits for them.
        if state.storage.crowd_figures_may_lag() {
            tokio::spawn(crate::quiz::warm_crowd_stats(
                state.storage.clone(),
                state.crowd_stats.clone(),
                state.settings.quiz.clone(),
            ));
        }
        let router = build_router(state);
        Ok(Self {
            listener,
            router,
            storage,
            header_read_timeout,
            admission,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map(|a| a.port()).unwrap_or(0)
    }

    /// The router, for in-process tests (`tower::ServiceExt::oneshot`).
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// The storage handle, for tests and CLI commands.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }

    /// Serves until `shutdown` resolves, then drains connections and closes the pool.
    ///
    /// Each connection must send a request's headers within the header-read timeout (also
    /// between requests on a kept-alive connection), and at most `max_connections` are open
    /// at once, at most `max_connections_per_address` from one client (more are closed as
    /// soon as they are accepted; see `admission`), so half-open connections cannot exhaust
    /// file descriptors and one client cannot take every slot.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        use hyper_util::rt::{TokioIo, TokioTimer};
        use tower::Service;
        let addr = self.listener.local_addr()?;
        tracing::info!(%addr, database = self.storage.backend().name(), "memeboard listening on http://{addr}");
        // With the peer address: new author tokens and rate limits count per client address.
        let mut make_service = self
            .router
            .into_make_service_with_connect_info::<std::net::SocketAddr>();
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        // HTTP/1.1 only (as axum's default server here); no upgrades are used.
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(self.header_read_timeout);
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // E.g. out of file descriptors: wait a little instead of spinning.
                        tracing::warn!(error = %e, "accept failed");
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let Some(slot) = self.admission.admit(peer) else {
                drop(stream);
                continue;
            };
            let tower_service = match make_service.call(peer).await {
                Ok(service) => service,
                Err(infallible) => match infallible {},
            };
            let service = hyper_util::service::TowerToHyperService::new(tower_service);
            let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
            tokio::spawn(async move {
                // Errors here are one client's (a reset, a header timeout): nothing to report.
                let _ = connection.await;
                drop(slot);
            });
        }
        drop(self.listener);
        // Let requests in flight finish (bounded), then close the pool.
        if tokio::time::timeout(std::time::Duration::from_secs(30), graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("connections still open after 30 s; shutting down anyway");
        }
        self.storage.close().await;
        tracing::info!("shut down cleanly");
        Ok(())
    }
}

/// Files of the model directory the browser may download (nothing else is served from it).
const BROWSER_MODEL_FILES: [&str; 4] = [
    "browser.json",
    "model.f16.safetensors",
    "tokenizer.json",
    "config.json",
];

/// `GET /model-files/{file}`: the compact browser copy of the embedding model.
async fn model_file(
    axum::extract::State(state): axum::extract::State<AppState>,
    axum::extract::Path(file): axum::extract::Path<String>,
    request: Request,
) -> Response {
    use axum::response::IntoResponse;
    if !BROWSER_MODEL_FILES.contains(&file.as_str()) {
        return crate::error::ApiError::NotFound(memeboard_core::msg!(
            "model.file_not_found",
            file = file
        ))
        .into_response();
    }
    let path = state.settings.model_dir().join(&file);
    match tower::ServiceExt::oneshot(ServeFile::new(path), request).await {
        Ok(mut response) => {
            // Revalidate cheaply (ETag/Last-Modified); the app keeps its own checked copy.
            response.headers_mut().insert(
                CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            );
            response.into_response()
        }
        Err(never) => match never {},
    }
}

/// Client-side routes of the bigger browser bundles (app/src/bundles.rs), by output folder:
/// the leaderboard and model pages are in `dist/boards-app/`, the researcher pages only in
/// `dist/studio/`; every other page is in the quiz bundle (`dist/index.html`). The app's copy
/// of the lists is `memeboard_app::bundles::{BOARDS_PATHS, STUDIO_PATHS}`.
const BUNDLE_ROUTES: [(&str, &[&str]); 2] = [
    (
        "boards-app",
        &[
            "/boards",
            "/boards/{*rest}",
            "/benchmarks/{*rest}",
            "/models",
            "/models/{*rest}",
        ],
    ),
    (
        "studio",
        &["/console", "/console/{*rest}", "/submit", "/account"],
    ),
];

/// The HTML shell of the bundle in `static_dir/folder`, precompressed copies first; the quiz
/// bundle's when that one was not built (it then says that the page is not installed).
fn bundle_shell(static_dir: &std::path::Path, folder: &str) -> ServeFile {
    let index = static_dir.join(folder).join("index.html");
    let shell = if index.is_file() {
        index
    } else {
        static_dir.join("index.html")
    };
    ServeFile::new(shell)
        .precompressed_br()
        .precompressed_gzip()
}

/// The whole router: `/healthz`, `/api/…` and the static front end with SPA fallback (the
/// bigger bundles' shells for [`BUNDLE_ROUTES`], the quiz bundle's for every other path).
pub fn build_router(state: AppState) -> Router {
    let static_dir = state.settings.server.static_dir.clone();
    // Precompressed copies written at build time (scripts/compress-dist.sh) are sent to
    // browsers that accept them: brotli first, then gzip.
    let spa = ServeDir::new(&static_dir)
        .precompressed_br()
        .precompressed_gzip()
        .fallback(
            ServeFile::new(static_dir.join("index.html"))
                .precompressed_br()
                .precompressed_gzip(),
        );
    let security =
        Arc::new(crate::http::security_headers::SecurityHeaders::for_static_dir(&static_dir));
    let mut router = Router::new()
        .route("/healthz", get(routes::healthz))
        .route("/", get(crate::first_paint::home_page))
        .route("/quiz/{slug}", get(crate::first_paint::quiz_page))
        .route("/session/{*rest}", get(crate::first_paint::session_page))
        .route("/model-files/{file}", get(model_file))
        .route("/media/{name}", get(crate::media::serve));
    for (folder, paths) in BUNDLE_ROUTES {
        let shell = bundle_shell(&static_dir, folder);
        for path in paths {
            router = if *path == "/boards/{*rest}" {
                // A board comes with its table (first_paint), in the boards bundle's shell.
                router.route(path, get(crate::first_paint::board_page))
            } else {
                router.route_service(path, shell.clone())
            };
        }
    }
    router
        .nest("/api", routes::api_router(&state))
        .fallback_service(spa)
        .layer(middleware::from_fn(cache_headers))
        .layer(middleware::from_fn(move |request: Request, next: Next| {
            crate::http::security_headers::add(security.clone(), request, next)
        }))
        .layer(TraceLayer::new_for_http())
        .with_state(state)
}

/// Caching: HTML and API responses are always revalidated; Trunk's content-hashed assets are
/// immutable; other static files are cached for an hour.
async fn cache_headers(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let mut response = next.run(request).await;
    if response.headers().contains_key(CACHE_CONTROL) {
        return response;
    }
    let is_html = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/html"));
    let value = if is_html || path.starts_with("/api/") || path == "/healthz" {
        "no-cache"
    } else if is_content_hashed(&path) {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=3600"
    };
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static(value));
    response
}

/// Trunk names build outputs `name-<16 hex>.ext` (e.g. `memeboard-app-1a2b…_bg.wasm`).
fn is_content_hashed(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or("");
    file.split(['-', '_', '.'])
        .any(|part| part.len() == 16 && part.chars().all(|c| c.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn trunk_hashed_names_are_recognised() {
        assert!(super::is_content_hashed(
            "/memeboard-app-4f3c2b1a0d9e8f7a_bg.wasm"
        ));
        assert!(super::is_content_hashed("/main-0123456789abcdef.css"));
        assert!(!super::is_content_hashed("/favicon.svg"));
    }
}

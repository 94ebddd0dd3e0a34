//! Builds the application: storage, routes, middleware, and the listener.
//!
//! `Application::build` binds the listener before serving, so tests can ask for port 0
//! and read the real port back.

use crate::http::error::{AppError, localize_error_responses};
use crate::http::extract::TrustForwardedFor;
use crate::http::security_headers::add_security_headers;
use crate::monitoring::monitor::count_requests;
use crate::platform::channel::{Channel, registry::Registry, sandbox::SandboxChannel};
use crate::platform::config::Config;
use crate::platform::db::{Database, now_millis};
use crate::platform::metrics::RequestMetrics;
use crate::platform::password::PasswordHasher;
use crate::platform::state::AppState;
use crate::{
    app::api_docs, app::demo, app::template_pages, app::web_assets, identity::api_keys, identity::auth,
    identity::step_up, identity::system_info, identity::two_factor, identity::user_centre, identity::users,
    identity::views, merchant_api, money::finance, money::merchant_admin, money::statements, monitoring::audit_log,
    monitoring::monitor, monitoring::operations, notify, orders, orders::quotes, supply::worker,
};
use anyhow::Context;
use axum::{Extension, Router, extract::DefaultBodyLimit, http::Request, middleware};
use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};

/// JSON bodies of this API are small; uploads get their own limits where they exist.
const MAX_JSON_BODY_BYTES: usize = 64 * 1024;

pub struct Application {
    listener: TcpListener,
    port: u16,
    state: AppState,
    demo_key: Option<demo::DemoApiKey>,
}

impl Application {
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        config.validate()?;
        let db = Database::connect(&config.database_url).await?;
        // Never a key that cannot open what the database holds sealed (platform/key_check.rs).
        let secrets = Arc::new(crate::platform::key_check::open_key(&db, &config.resolved_secret_key_path()?).await?);
        let hasher = PasswordHasher::default();
        hasher.warm_up();
        // Before the demo: its order history is placed in the numbers' provinces.
        let segments: Arc<crate::platform::segments::Segments> = Arc::default();
        crate::platform::segments::start(&segments, &db, config.default_segments).await?;
        let demo_key = match config.seed_demo {
            true => demo::seed(&db, &hasher, &secrets, config.demo_orders).await?,
            false => None,
        };
        // Simulated suppliers live as long as the process (`serve --demo` only).
        if config.channel.demo_simulators {
            crate::supply::simulator::demo::start(&db, &secrets).await?;
        }
        let channel: Arc<dyn Channel> =
            Arc::new(SandboxChannel::new(db.pool.clone(), secrets.clone(), &config.channel));
        let listener =
            TcpListener::bind(&config.listen).await.with_context(|| format!("cannot listen on {}", config.listen))?;
        let port = listener.local_addr()?.port();
        let callback_base =
            config.channel.callback_base_url.clone().unwrap_or_else(|| format!("http://127.0.0.1:{port}"));
        let channels = Arc::new(Registry::new(
            channel,
            secrets.clone(),
            crate::supply::setup::client(config.channel.allow_private)?,
            callback_base,
        )?);
        let state = AppState::new(crate::platform::state::Shared {
            db: db.clone(),
            config: Arc::new(config),
            hasher,
            secrets,
            metrics: Arc::new(RequestMetrics::default()),
            live: Arc::new(crate::platform::live::LiveMonitor::rebuilt(&db).await?),
            channels,
            sessions: Arc::default(),
            segments,
            blocklist: Arc::default(),
            ports: Arc::default(),
            windows: Arc::default(),
            risk: Default::default(),
            arrivals: Default::default(),
            placements: Default::default(),
            callbacks: Default::default(),
            recent_keys: Default::default(),
            recent_profiles: Default::default(),
            started_at: now_millis(),
        });
        state.blocklist.reload(&db).await?;
        state.ports.reload(&db).await?;
        state.windows.reload(&db).await?;
        Ok(Self { listener, port, state, demo_key })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The open-API key `--demo` made on this start (none if it was made on an earlier one).
    pub fn demo_key(&self) -> Option<&demo::DemoApiKey> {
        self.demo_key.as_ref()
    }

    /// Serves (and runs the order worker and notification sender) until `shutdown` completes, then finishes the
    /// requests under way and the worker's order in hand.
    pub async fn run_until_stopped(self, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
        let app = routes(self.state.clone());
        let (stop_worker, worker_stop) = tokio::sync::watch::channel(false);
        let sender = match self.state.config.notify.enabled {
            true => Some(notify::deliver::spawn(self.state.clone(), worker_stop.clone())?),
            false => None,
        };
        let balances = self
            .state
            .config
            .worker
            .enabled
            .then(|| crate::supply::health::spawn_balance_reader(self.state.clone(), worker_stop.clone()));
        // The sandbox's reversals go with the worker: a server without one leaves them to others.
        let reversals = self
            .state
            .config
            .worker
            .enabled
            .then(|| crate::supply::sandbox_reversals::spawn(self.state.clone(), worker_stop.clone()));
        let statistics = crate::platform::db::first_statistics::spawn(self.state.db.clone(), worker_stop.clone());
        let security_purge =
            crate::identity::security_history::purge::spawn(self.state.db.pool.clone(), worker_stop.clone());
        let segments =
            crate::platform::segments::follow(self.state.segments.clone(), self.state.db.clone(), worker_stop.clone());
        let worker = self.state.config.worker.enabled.then(|| worker::spawn(self.state.clone(), worker_stop));
        let live = self.state.live.clone();
        // Several servers share one PostgreSQL database: each one's monitor shows them all.
        let sharing = (self.state.db.kind == crate::platform::db::DatabaseKind::Postgres).then(|| {
            crate::platform::live::share::Sharing::start(
                &live,
                self.state.db.clone(),
                self.state.config.database_url.clone(),
            )
        });
        let ticker = crate::platform::live::spawn_ticker(
            live.clone(),
            self.state.db.clone(),
            (self.state.config.low_balance_alert_fen, self.state.config.monitor_alerts.clone()),
            self.state.config.monitor_rebuild,
        );
        let limits = self.state.config.connections.clone();
        crate::platform::connections::serve(self.listener, app, limits, async move {
            shutdown.await;
            let _ = stop_worker.send(true);
            // Open monitor streams end, or the graceful shutdown would wait for them.
            live.stop();
        })
        .await;
        if let Some(worker) = worker {
            let _ = worker.await;
        }
        if let Some(balances) = balances {
            let _ = balances.await;
        }
        if let Some(reversals) = reversals {
            let _ = reversals.await;
        }
        if let Some(sender) = sender {
            let _ = sender.await;
        }
        if let Some(statistics) = statistics {
            let _ = statistics.await;
        }
        if let Some(segments) = segments {
            let _ = segments.await;
        }
        let _ = security_purge.await;
        // After the worker and the requests: the events they handled last reach the others.
        if let Some(sharing) = sharing {
            sharing.finish().await;
        }
        self.state.live.stop();
        let _ = ticker.await;
        self.state.db.close().await;
        Ok(())
    }
}

pub fn routes(state: AppState) -> Router {
    let api = Router::new()
        .merge(auth::router())
        .merge(users::router())
        .merge(crate::identity::staff::router())
        .merge(crate::identity::security_history::api::router())
        .merge(monitor::router())
        .merge(user_centre::router())
        .merge(views::router())
        .merge(two_factor::router())
        .merge(orders::router())
        .merge(quotes::router())
        .merge(finance::router())
        .merge(crate::money::funding::router())
        .merge(system_info::router())
        .merge(api_keys::router())
        .merge(merchant_api::sign_check::router())
        .merge(notify::router())
        .merge(merchant_admin::router())
        .merge(crate::orders::risk_settings::router())
        .merge(crate::supply::callback::router())
        .merge(crate::supply::admin::router())
        .merge(crate::supply::windows::router())
        .merge(crate::supply::worker::review::router())
        .merge(audit_log::router())
        .merge(step_up::router())
        .merge(statements::router())
        .merge(crate::orders::reports::router());
    // The template pages exist only when switched on: otherwise their paths are unknown (404).
    let api = if state.config.template_pages { api.merge(template_pages::router()) } else { api };
    let api = api.layer(DefaultBodyLimit::max(MAX_JSON_BODY_BYTES));
    // Batch files are larger than JSON bodies: their route has its own limit.
    let uploads = orders::batch::upload_router()
        .layer(DefaultBodyLimit::max(orders::batch::MAX_UPLOAD_BYTES))
        .merge(quotes::upload_router().layer(DefaultBodyLimit::max(quotes::import::MAX_IMPORT_BYTES)))
        .merge(orders::segment_admin::upload_router())
        .merge(crate::supply::admin_coverage::upload_router());
    let trust_forwarded_for = TrustForwardedFor(
        state.config.trust_forwarded_for.then(|| std::sync::Arc::new(state.config.trusted_proxies.clone())),
    );
    Router::new()
        .merge(api)
        .merge(uploads)
        .merge(merchant_api::router(&state))
        .merge(web_assets::router())
        .merge(crate::app::guide::router())
        .merge(api_docs::router())
        .merge(operations::router())
        .fallback(|| async { AppError::NotFound })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(middleware::from_fn(crate::http::body_drain::drain_unread_body))
        .layer(middleware::from_fn(localize_error_responses))
        .layer(middleware::from_fn_with_state(state.clone(), count_requests))
        .layer(Extension(trust_forwarded_for))
        .layer(compression())
        .layer(middleware::from_fn(add_security_headers))
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(TraceLayer::new_for_http().make_span_with(|request: &Request<_>| {
            // Path only: query strings and headers (tokens) are never logged.
            let request_id = request
                .headers()
                .get("x-request-id")
                .and_then(|value| value.to_str().ok())
                .unwrap_or("");
            tracing::info_span!("request", id = %request_id, method = %request.method(), path = %request.uri().path())
        })
        .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)))
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .with_state(state)
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM. The signals are taken from the call on, not
/// from the future's first poll: one that arrives while the server starts (the listener
/// logged, its loop not yet running) stops it gracefully instead of killing the process.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        (signal(SignalKind::interrupt()), signal(SignalKind::terminate()))
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |listened: std::io::Result<tokio::signal::unix::Signal>| async move {
                match listened {
                    Ok(mut signal) => {
                        signal.recv().await;
                    }
                    Err(_) => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                _ = wait(interrupt) => {},
                _ = wait(terminate) => {},
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutdown requested: finishing requests under way");
    }
}

/// Answers smaller than this are sent as they are: compressing one costs the server more
/// than the bytes it saves, at most 1 kB on a connection that carries 14 kB before its first
/// acknowledgement anyway (bench/README.md measures a userInfo answer both ways). An order
/// list page of 20 (14 kB) is still compressed.
const COMPRESS_ABOVE_BYTES: u64 = 1024;

/// What is compressed on the way out: answers above [`COMPRESS_ABOVE_BYTES`], except
/// images, gRPC and event streams (as tower-http's default predicate) and downloads
/// ([`not_a_download`]). Page assets come compressed already (`app/web_assets.rs`).
///
/// At each codec's fastest level (brotli 0, gzip 1), not tower-http's default (brotli 4): a
/// page of 20 orders stays well inside a connection's first window either way, and brotli 4
/// took a third of the server's time under a browser's list calls (bench/README.md).
fn compression() -> CompressionLayer<impl Predicate> {
    let predicate = SizeAbove::new(COMPRESS_ABOVE_BYTES)
        .and(NotForContentType::GRPC)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(not_a_download);
    CompressionLayer::new().quality(tower_http::CompressionLevel::Fastest).compress_when(predicate)
}

/// File downloads (exports, batch results, templates) are sent as they are: the streamed
/// ones were cut short by on-the-fly brotli (a client got a file that does not decompress),
/// and xlsx is a zip already. Every other answer over [`COMPRESS_ABOVE_BYTES`] is still
/// compressed, and page assets come compressed already.
fn not_a_download(
    _: axum::http::StatusCode,
    _: axum::http::Version,
    headers: &axum::http::HeaderMap,
    _: &axum::http::Extensions,
) -> bool {
    !headers.contains_key(axum::http::header::CONTENT_DISPOSITION)
}

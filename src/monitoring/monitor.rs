//! The real-time monitor (admin only): `/adminapi/monitor/overview`.

use crate::http::error::{ApiOk, ApiResult};
use crate::identity::session::{AdminUser, count_active_sessions};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::metrics::WINDOW_SECONDS;
use crate::platform::state::AppState;
use axum::{
    Router,
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::Response,
    routing::get,
};
use serde::Serialize;
use utoipa::ToSchema;

/// Counts every request, by route pattern (`unmatched` for the fallback), method and status.
pub async fn count_requests(State(state): State<AppState>, request: Request, next: Next) -> Response {
    state.metrics.record(now_millis() / 1000);
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |path| path.as_str().to_string());
    let method = request.method().as_str().to_string();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
    state.metrics.record_response((route, method, response.status().as_u16()), micros);
    response
}

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/monitor/overview", get(overview)).merge(crate::monitoring::live_stream::router())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MonitorOverview {
    pub version: String,
    pub started_at: String,
    pub uptime_seconds: i64,
    /// `sqlite` or `postgres`.
    pub database_kind: String,
    pub active_sessions: i64,
    pub requests_last_minute: u64,
    /// Average over the last minute.
    pub requests_per_second: f64,
    pub total_requests: u64,
}

/// Live figures of this server process.
#[utoipa::path(
    get, path = "/adminapi/monitor/overview", tag = "monitor",
    responses(
        (status = 200, description = "`data` is a MonitorOverview", body = MonitorOverview),
        (status = 403, description = "40300: administrators only"),
    ),
    security(("token" = []))
)]
pub async fn overview(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<MonitorOverview> {
    let now = now_millis();
    let last_minute = state.metrics.last_minute(now / 1000);
    Ok(ApiOk(MonitorOverview {
        version: env!("CARGO_PKG_VERSION").to_string(),
        started_at: millis_to_rfc3339(state.started_at),
        uptime_seconds: (now - state.started_at) / 1000,
        database_kind: state.db.kind.name().to_string(),
        active_sessions: count_active_sessions(&state).await?,
        requests_last_minute: last_minute,
        // A rate for display only; the counts themselves stay integers.
        requests_per_second: last_minute as f64 / WINDOW_SECONDS as f64,
        total_requests: state.metrics.total(),
    }))
}

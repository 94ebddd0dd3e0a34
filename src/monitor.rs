//! The real-time monitor (admin only): `/adminapi/monitor/overview`.

use crate::auth::session::{AdminUser, count_active_sessions};
use crate::db::{millis_to_rfc3339, now_millis};
use crate::error::{ApiOk, ApiResult};
use crate::state::AppState;
use axum::{
    Router,
    extract::{Request, State},
    middleware::Next,
    response::Response,
    routing::get,
};
use serde::Serialize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use utoipa::ToSchema;

const WINDOW_SECONDS: usize = 60;

/// Counts requests: a total, and one bucket per second for the last minute.
pub struct RequestMetrics {
    total: AtomicU64,
    /// (unix second, count) per slot; a slot is reused when its second has passed.
    buckets: Mutex<[(i64, u64); WINDOW_SECONDS]>,
}

impl Default for RequestMetrics {
    fn default() -> Self {
        Self { total: AtomicU64::new(0), buckets: Mutex::new([(0, 0); WINDOW_SECONDS]) }
    }
}

impl RequestMetrics {
    pub fn record(&self, now_second: i64) {
        self.total.fetch_add(1, Ordering::Relaxed);
        let slot = now_second.rem_euclid(WINDOW_SECONDS as i64) as usize;
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let bucket = &mut buckets[slot];
        if bucket.0 == now_second {
            bucket.1 += 1;
        } else {
            *bucket = (now_second, 1);
        }
    }

    /// Requests in the last minute, including the current second.
    pub fn last_minute(&self, now_second: i64) -> u64 {
        let buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        buckets
            .iter()
            .filter(|(second, _)| now_second - *second < WINDOW_SECONDS as i64 && *second <= now_second)
            .map(|(_, count)| count)
            .sum()
    }

    pub fn total(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }
}

pub async fn count_requests(State(state): State<AppState>, request: Request, next: Next) -> Response {
    state.metrics.record(now_millis() / 1000);
    next.run(request).await
}

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/monitor/overview", get(overview))
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
        (status = 200, description = "`data` is a MonitorOverview"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_forgets_requests_older_than_a_minute() {
        let metrics = RequestMetrics::default();
        metrics.record(1_000);
        metrics.record(1_000);
        metrics.record(1_030);
        assert_eq!(metrics.last_minute(1_030), 3);
        assert_eq!(metrics.last_minute(1_059), 3);
        assert_eq!(metrics.last_minute(1_060), 1);
        // A slot reused one minute later starts again.
        metrics.record(1_060);
        assert_eq!(metrics.last_minute(1_060), 2);
        assert_eq!(metrics.total(), 4);
    }
}

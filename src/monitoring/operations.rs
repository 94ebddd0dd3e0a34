//! Endpoints for load balancers, orchestrators and scrapers: `/healthz` (the process
//! answers), `/readyz` (the database answers and every migration is applied) and
//! `/metrics` (Prometheus text; an administrator's session or the `--metrics-token`).

use crate::http::error::{ApiOk, ApiResult, AppError, ErrorReport, code, error_response};
use crate::i18n::Message;
use crate::identity::session::AdminUser;
use crate::platform::db::now_millis;
use crate::platform::metrics::LATENCY_BUCKETS;
use crate::platform::state::AppState;
use axum::extract::{FromRequestParts, State};
use axum::http::{StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use axum::{Router, routing::get};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::fmt::Write;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz)).route("/metrics", get(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: String,
}

/// The process is up and answering (no database call).
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "`data.status` is `ok`", body = Health)))]
pub async fn healthz() -> ApiResult<Health> {
    Ok(ApiOk(Health { status: "ok".into() }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Readiness {
    pub status: String,
    /// The newest migration applied.
    pub migration: i64,
}

/// Ready for traffic: the database answers, takes writes and holds every migration this
/// build knows.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "`data` is a Readiness", body = Readiness),
        (status = 503, description = "50300: database unreachable, read-only or migrations missing")))]
pub async fn readyz(State(state): State<AppState>) -> Response {
    let expected = state.db.latest_migration();
    let applied: Result<Option<i64>, sqlx::Error> =
        sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success = $1")
            .bind(true)
            .fetch_one(&state.db.pool)
            .await;
    // A standby (or a primary demoted by a failover) answers, but refuses every write.
    let writable = match state.db.kind {
        crate::platform::db::DatabaseKind::Postgres => {
            sqlx::query_scalar::<_, String>("SELECT current_setting('transaction_read_only')")
                .fetch_one(&state.db.pool)
                .await
                .is_ok_and(|read_only| read_only == "off")
        }
        crate::platform::db::DatabaseKind::Sqlite => true,
    };
    match applied {
        Ok(Some(version)) if version >= expected && writable => {
            ApiOk(Readiness { status: "ok".into(), migration: version }).into_response()
        }
        outcome => {
            if let Err(error) = outcome {
                tracing::warn!(error = %error, "readiness: database not answering");
            }
            let report = ErrorReport {
                code: code::NOT_READY,
                message: Message::NotReady,
                fields: Vec::new(),
                retry_after_seconds: None,
            };
            error_response(StatusCode::SERVICE_UNAVAILABLE, report)
        }
    }
}

/// A caller allowed to read the metrics: the scrape token, or an administrator.
pub struct MetricsReader;

/// Compares digests, so that the time taken says nothing about how much of the token matched.
fn same_secret(presented: &str, expected: &str) -> bool {
    let (left, right) = (Sha256::digest(presented.as_bytes()), Sha256::digest(expected.as_bytes()));
    left.iter().zip(right.iter()).fold(0u8, |difference, (a, b)| difference | (a ^ b)) == 0
}

impl FromRequestParts<AppState> for MetricsReader {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(expected) = state.config.metrics_token.as_deref() {
            let bearer = parts
                .headers
                .get(header::AUTHORIZATION)
                .and_then(|value| value.to_str().ok())
                .and_then(|text| text.trim().split_once(' '))
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
                .map(|(_, token)| token.trim());
            if bearer.is_some_and(|token| same_secret(token, expected)) {
                return Ok(MetricsReader);
            }
        }
        AdminUser::from_request_parts(parts, state).await.map(|_| MetricsReader)
    }
}

/// The merchants' notification outbox: what still waits to be delivered, by state, and how
/// long the oldest of it has waited. Reads only the rows still due (the partial index
/// `notifications_due`), never the delivered history.
async fn write_notification_backlog(out: &mut String, state: &AppState, now: i64) -> Result<(), AppError> {
    let (pending, failed, oldest): (i64, i64, Option<i64>) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(CASE WHEN state = 0 THEN 1 ELSE 0 END), 0) AS BIGINT),
                CAST(COALESCE(SUM(CASE WHEN state = 2 THEN 1 ELSE 0 END), 0) AS BIGINT), MIN(created_at)
         FROM notifications WHERE state IN (0, 2)",
    )
    .fetch_one(&state.db.pool)
    .await?;
    let _ = writeln!(
        out,
        "# HELP backoffice_notifications_backlog Order notifications not delivered yet: pending (never tried) \
         or failed (a retry is scheduled)."
    );
    let _ = writeln!(out, "# TYPE backoffice_notifications_backlog gauge");
    let _ = writeln!(out, "backoffice_notifications_backlog{{state=\"pending\"}} {pending}");
    let _ = writeln!(out, "backoffice_notifications_backlog{{state=\"failed\"}} {failed}");
    let age_ms = oldest.map_or(0, |created_at| (now - created_at).max(0));
    let _ = writeln!(
        out,
        "# HELP backoffice_notifications_oldest_pending_seconds Age of the oldest notification not delivered yet \
         (0 when none waits)."
    );
    let _ = writeln!(out, "# TYPE backoffice_notifications_oldest_pending_seconds gauge");
    let _ = writeln!(out, "backoffice_notifications_oldest_pending_seconds {}.{:03}", age_ms / 1000, age_ms % 1000);
    Ok(())
}

const ORDER_STATES: [(i64, &str); 5] =
    [(0, "pending"), (1, "processing"), (2, "success"), (3, "failure"), (4, "manual_review")];

/// Prometheus text format 0.0.4.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text: requests by route and status, latency histogram, \
        orders by state, worker lag, notification backlog, database pool", content(("text/plain"))),
        (status = 401, description = "50008: no administrator session and no valid scrape token"),
        (status = 403, description = "40300: a merchant's session")),
    security(("token" = [])))]
pub async fn metrics(State(state): State<AppState>, _reader: MetricsReader) -> Result<Response, AppError> {
    let mut out = String::with_capacity(8 * 1024);
    let now = now_millis();
    let _ = writeln!(out, "# HELP backoffice_uptime_seconds Seconds since this process started.");
    let _ = writeln!(out, "# TYPE backoffice_uptime_seconds gauge");
    let _ = writeln!(out, "backoffice_uptime_seconds {}", (now - state.started_at) / 1000);
    let _ =
        writeln!(out, "# HELP backoffice_http_requests_total Requests answered, by route pattern, method and status.");
    let _ = writeln!(out, "# TYPE backoffice_http_requests_total counter");
    for ((route, method, status), count) in state.metrics.routes() {
        let route = route.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(
            out,
            "backoffice_http_requests_total{{route=\"{route}\",method=\"{method}\",status=\"{status}\"}} {count}"
        );
    }
    let latency = state.metrics.latency();
    let _ = writeln!(out, "# HELP backoffice_http_request_duration_seconds Time to the response head.");
    let _ = writeln!(out, "# TYPE backoffice_http_request_duration_seconds histogram");
    let mut cumulative = 0;
    for ((bound, _), count) in LATENCY_BUCKETS.iter().zip(latency.buckets) {
        cumulative += count;
        let _ = writeln!(out, "backoffice_http_request_duration_seconds_bucket{{le=\"{bound}\"}} {cumulative}");
    }
    let _ = writeln!(out, "backoffice_http_request_duration_seconds_bucket{{le=\"+Inf\"}} {}", latency.count);
    let _ = writeln!(
        out,
        "backoffice_http_request_duration_seconds_sum {}.{:06}",
        latency.sum_micros / 1_000_000,
        latency.sum_micros % 1_000_000
    );
    let _ = writeln!(out, "backoffice_http_request_duration_seconds_count {}", latency.count);
    // The all-days roll-ups, not the orders: a sum over a few rows per merchant.
    let rows =
        sqlx::query("SELECT status, CAST(SUM(count) AS BIGINT) FROM order_rollups WHERE all_days = 1 GROUP BY status")
            .fetch_all(&state.db.pool)
            .await?;
    let mut by_state = [0i64; 5];
    for row in rows {
        let status: i64 = row.try_get(0)?;
        let count: Option<i64> = row.try_get(1)?;
        if let Some(slot) = usize::try_from(status).ok().and_then(|index| by_state.get_mut(index)) {
            *slot = count.unwrap_or(0);
        }
    }
    let _ = writeln!(out, "# HELP backoffice_orders Orders in the database by state.");
    let _ = writeln!(out, "# TYPE backoffice_orders gauge");
    for (code, name) in ORDER_STATES {
        let _ = writeln!(out, "backoffice_orders{{state=\"{name}\"}} {}", by_state[code as usize]);
    }
    // The worker's queue (index `orders_in_flight`): how long the most overdue order waits.
    let due: Option<i64> =
        sqlx::query_scalar("SELECT MIN(lease_until) FROM orders WHERE status IN (0, 1) AND order_kind IN (1, 2)")
            .fetch_one(&state.db.pool)
            .await?;
    let lag_ms = due.map_or(0, |due| (now - due).max(0));
    let _ = writeln!(
        out,
        "# HELP backoffice_worker_lag_seconds How long the most overdue in-flight order has waited for a worker."
    );
    let _ = writeln!(out, "# TYPE backoffice_worker_lag_seconds gauge");
    let _ = writeln!(out, "backoffice_worker_lag_seconds {}.{:03}", lag_ms / 1000, lag_ms % 1000);
    write_notification_backlog(&mut out, &state, now).await?;
    let (committed, fell_back, locked_again) = state.placements.outcomes().counts();
    let _ = writeln!(
        out,
        "# HELP backoffice_order_groups_total Placement groups (group commit) by outcome: committed, or rolled back \
         and placed order by order."
    );
    let _ = writeln!(out, "# TYPE backoffice_order_groups_total counter");
    let _ = writeln!(out, "backoffice_order_groups_total{{outcome=\"committed\"}} {committed}");
    let _ = writeln!(out, "backoffice_order_groups_total{{outcome=\"fell_back\"}} {fell_back}");
    let _ = writeln!(
        out,
        "# HELP backoffice_order_groups_locked_again_total Placement groups written without the account lock \
         whose account had changed meanwhile, written again under the lock."
    );
    let _ = writeln!(out, "# TYPE backoffice_order_groups_locked_again_total counter");
    let _ = writeln!(out, "backoffice_order_groups_locked_again_total {locked_again}");
    if let Some((active, wal_pages)) = state.db.checkpoints().map(|stats| stats.read()) {
        let _ = writeln!(
            out,
            "# HELP backoffice_sqlite_checkpoints_total Background WAL checkpoints that found new pages to copy."
        );
        let _ = writeln!(out, "# TYPE backoffice_sqlite_checkpoints_total counter");
        let _ = writeln!(out, "backoffice_sqlite_checkpoints_total {active}");
        let _ = writeln!(out, "# HELP backoffice_sqlite_wal_pages Pages in the WAL at the last background checkpoint.");
        let _ = writeln!(out, "# TYPE backoffice_sqlite_wal_pages gauge");
        let _ = writeln!(out, "backoffice_sqlite_wal_pages {wal_pages}");
    }
    let _ = writeln!(out, "# HELP backoffice_db_pool_connections Database connections of this process.");
    let _ = writeln!(out, "# TYPE backoffice_db_pool_connections gauge");
    let (size, idle) = (state.db.pool.size(), state.db.pool.num_idle());
    let _ = writeln!(out, "backoffice_db_pool_connections{{state=\"open\"}} {size}");
    let _ = writeln!(out, "backoffice_db_pool_connections{{state=\"idle\"}} {idle}");
    let _ = writeln!(
        out,
        "backoffice_db_pool_connections{{state=\"max\"}} {}",
        state.db.pool.options().get_max_connections()
    );
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], out).into_response())
}

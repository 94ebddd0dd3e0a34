//! The routing preview (which channels would take an order of a product now, in what
//! order, and why the others are excluded) and the attempts of an order, for
//! administrators only: merchants see results, never channels.

use super::routing::{self, Exclusion};
use crate::db::{millis_to_rfc3339, now_millis};
use crate::error::{ApiOk, ApiResult, AppError};
use crate::extract::JsonBody;
use crate::i18n::ChannelMessage;
use crate::session::AdminUser;
use crate::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PreviewRequest {
    pub product_key: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RouteItem {
    pub channel_id: i64,
    pub code: String,
    pub name: String,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    /// Chance of being chosen first among the candidates of its priority, 0 to 1;
    /// 0 for excluded channels and lower priorities.
    pub first_choice_share: f64,
    /// Null: a candidate. Otherwise why not.
    pub excluded: Option<Exclusion>,
}

/// Which channels would take an order of the product now, best first.
#[utoipa::path(post, path = "/adminapi/admin/channel/routing", tag = "channels", request_body = PreviewRequest,
    responses((status = 200, description = "`data` is a list of RouteItem, candidates first by priority"),
        (status = 400, description = "40000: no such product")),
    security(("token" = [])))]
pub async fn preview(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<PreviewRequest>,
) -> ApiResult<Vec<RouteItem>> {
    let product_id: Option<i64> = sqlx::query_scalar("SELECT id FROM products WHERE product_key = $1")
        .bind(request.product_key.trim())
        .fetch_optional(&state.db.pool)
        .await?;
    let product_id = product_id.ok_or_else(|| AppError::field("product_key", ChannelMessage::ProductUnknown))?;
    let routes = routing::routes(&state.db.pool, product_id, None, &[], now_millis()).await?;
    let top = routes.iter().find(|route| route.excluded.is_none()).map(|route| route.priority);
    let top_weight: i64 = routes
        .iter()
        .filter(|route| route.excluded.is_none() && Some(route.priority) == top)
        .map(|route| route.weight.max(0))
        .sum();
    let mut items: Vec<RouteItem> = routes
        .into_iter()
        .map(|route| {
            let first = route.excluded.is_none() && Some(route.priority) == top;
            RouteItem {
                channel_id: route.channel.id,
                code: route.channel.code,
                name: route.channel.name,
                cost_fen: route.cost_fen,
                priority: route.priority,
                weight: route.weight,
                first_choice_share: match (first, top_weight) {
                    (false, _) => 0.0,
                    (true, 0) => 1.0,
                    (true, total) => route.weight.max(0) as f64 / total as f64,
                },
                excluded: route.excluded,
            }
        })
        .collect();
    // Candidates first (by priority, as read), the excluded after them.
    items.sort_by_key(|item| item.excluded.is_some());
    Ok(ApiOk(items))
}

/// One attempt of an order, as administrators see it in the order detail.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptItem {
    pub attempt_no: i64,
    pub channel_code: String,
    pub channel_name: String,
    pub upstream_order_id: String,
    /// pending, unknown, success or failed.
    pub outcome: String,
    pub cost_fen: i64,
    pub requested_at: String,
    pub latency_ms: Option<i64>,
    /// The channel's last answer (a failure reason code, or its words).
    pub answer: String,
}

/// The attempts of an order, first first.
pub async fn attempts_of(pool: &sqlx::AnyPool, order_id: i64) -> Result<Vec<AttemptItem>, sqlx::Error> {
    type Row = (i64, String, String, String, String, i64, i64, Option<i64>, String);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT a.attempt_no, c.code, c.name, a.upstream_order_id, a.outcome, a.cost_fen, a.requested_at,
             a.latency_ms, a.answer
         FROM order_attempts a JOIN channels c ON c.id = a.channel_id WHERE a.order_id = $1 ORDER BY a.attempt_no",
    )
    .bind(order_id)
    .fetch_all(pool)
    .await?;
    Ok(rows
        .into_iter()
        .map(
            |(
                attempt_no,
                channel_code,
                channel_name,
                upstream_order_id,
                outcome,
                cost_fen,
                requested_at,
                latency_ms,
                answer,
            )| {
                AttemptItem {
                    attempt_no,
                    channel_code,
                    channel_name,
                    upstream_order_id,
                    outcome,
                    cost_fen,
                    requested_at: millis_to_rfc3339(requested_at),
                    latency_ms,
                    answer,
                }
            },
        )
        .collect())
}

//! The routing preview (which channels would take an order of a product now, in what
//! order, and why the others are excluded) and the attempts of an order, for
//! administrators only: merchants see results, never channels.

use crate::channel::routing::{self, Exclusion};
use crate::db::now_millis;
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
        (status = 422, description = "40000: no such product")),
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
    // Any text is a well-formed key; whether the catalogue holds it is beyond the document (422).
    let product_id =
        product_id.ok_or_else(|| AppError::unprocessable("product_key", ChannelMessage::ProductUnknown))?;
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

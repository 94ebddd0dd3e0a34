//! The routing preview (which channels would take an order of a product now, in what
//! order, and why the others are excluded) and the attempts of an order, for
//! administrators only: merchants see results, never channels.

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::ChannelMessage;
use crate::identity::session::AdminUser;
use crate::platform::channel::routing::{self, Exclusion};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PreviewRequest {
    pub product_key: String,
    /// A merchant whose price for the product is set against each channel's cost.
    #[schema(minimum = 1)]
    pub merchant_id: Option<i64>,
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
    /// The merchant's price for the product (with `merchant_id`, when it has a quote).
    pub merchant_price_fen: Option<i64>,
    /// `merchant_price_fen - cost_fen`.
    pub margin_fen: Option<i64>,
    /// The merchant's price is at or below this channel's cost: every order it takes
    /// loses money or earns nothing.
    pub at_or_below_cost: bool,
}

/// Which channels would take an order of the product now, best first.
#[utoipa::path(post, path = "/adminapi/admin/channel/routing", tag = "channels", request_body = PreviewRequest,
    responses((status = 200, description = "`data` is a list of RouteItem, candidates first by priority", body = [RouteItem]),
        (status = 404, description = "40400: no such merchant"), (status = 422, description = "40000: no such product")),
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
    let merchant_price = match request.merchant_id {
        Some(merchant_id) => merchant_price(&state, merchant_id, product_id).await?,
        None => None,
    };
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
                merchant_price_fen: merchant_price,
                margin_fen: merchant_price.map(|price| price - route.cost_fen),
                at_or_below_cost: merchant_price.is_some_and(|price| price <= route.cost_fen),
            }
        })
        .collect();
    // Candidates first (by priority, as read), the excluded after them.
    items.sort_by_key(|item| item.excluded.is_some());
    Ok(ApiOk(items))
}

/// The merchant's price for the product; none without a quote. A mid that names no
/// merchant is 404, like the other calls taking one.
async fn merchant_price(state: &AppState, merchant_id: i64, product_id: i64) -> Result<Option<i64>, AppError> {
    if merchant_id < 1 || !crate::money::finance::merchant_exists(&state.db.pool, merchant_id).await? {
        return Err(AppError::NotFound);
    }
    Ok(sqlx::query_scalar("SELECT price_fen FROM quotes WHERE merchant_id = $1 AND product_id = $2")
        .bind(merchant_id)
        .bind(product_id)
        .fetch_optional(&state.db.pool)
        .await?)
}

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
    /// A province (GB/T 2260, 440000 Guangdong) to preview for: only channels covering it
    /// are candidates, and its numbers' maintenance windows apply. Without it (and without
    /// `account`) coverage is not checked and only windows of the product's whole carrier
    /// and of channels apply.
    #[schema(minimum = 110000, maximum = 820000)]
    pub province: Option<i64>,
    /// A mobile number to preview for, in place of `province`: its segment's province (a
    /// number whose segment is unknown goes to national channels only).
    #[schema(max_length = 32)]
    pub account: Option<String>,
}

/// The maintenance window that excludes a channel now.
#[derive(Debug, Serialize, ToSchema)]
pub struct RouteWindow {
    pub id: i64,
    pub title: String,
    /// When it ends (RFC 3339).
    pub until: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RouteItem {
    pub channel_id: i64,
    pub code: String,
    pub name: String,
    pub cost_fen: i64,
    pub priority: i64,
    pub weight: i64,
    /// GB/T 2260 codes of the provinces it covers for the product; empty: national.
    pub provinces: Vec<u32>,
    /// Chance of being chosen first among the candidates of its priority, 0 to 1;
    /// 0 for excluded channels and lower priorities.
    pub first_choice_share: f64,
    /// Null: a candidate. Otherwise why not.
    pub excluded: Option<Exclusion>,
    /// With `excluded` `window`: the window, named.
    pub window: Option<RouteWindow>,
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
        (status = 403, description = "40300: administrators only"),
        (status = 404, description = "40400: no such merchant"),
        (status = 422, description = "40000: no such product, `province` no province's code, or `account` no mobile number")),
    security(("token" = [])))]
pub async fn preview(
    State(state): State<AppState>,
    _admin: AdminUser,
    JsonBody(request): JsonBody<PreviewRequest>,
) -> ApiResult<Vec<RouteItem>> {
    let product: Option<(i64, i64)> = sqlx::query_as("SELECT id, carrier FROM products WHERE product_key = $1")
        .bind(request.product_key.trim())
        .fetch_optional(&state.db.pool)
        .await?;
    // Any text is a well-formed key; whether the catalogue holds it is beyond the document (422).
    let (product_id, carrier) =
        product.ok_or_else(|| AppError::unprocessable("product_key", ChannelMessage::ProductUnknown))?;
    let merchant_price = match request.merchant_id {
        Some(merchant_id) => merchant_price(&state, merchant_id, product_id).await?,
        None => None,
    };
    let province = asked_province(&state, &request)?;
    let now = now_millis();
    let mut routes = routing::routes(&state.db.pool, product_id, None, &[], now).await?;
    if let Some(province) = province {
        routing::cover(&mut routes, province);
    }
    let schedule = state.windows.current(&state.db).await?;
    let number = crate::domain::Carrier::from_code(carrier).map(|carrier| (carrier, province.flatten()));
    routing::close_windows(&mut routes, &schedule, number, now);
    routes.extend(other_speed_only(&state.db.pool, product_id).await?);
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
                provinces: route.provinces.provinces().to_vec(),
                first_choice_share: match (first, top_weight) {
                    (false, _) => 0.0,
                    (true, 0) => 1.0,
                    (true, total) => route.weight.max(0) as f64 / total as f64,
                },
                excluded: route.excluded,
                window: route.window.map(|closed| RouteWindow {
                    id: closed.window_id,
                    title: closed.title,
                    until: crate::platform::db::millis_to_rfc3339(closed.until),
                }),
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

/// The province asked about: None when neither `province` nor `account` is given (coverage
/// not checked), Some(None) for a number whose segment is unknown (national channels only).
fn asked_province(state: &AppState, request: &PreviewRequest) -> Result<Option<Option<u32>>, AppError> {
    if let Some(code) = request.province {
        let code = u32::try_from(code).ok().filter(|code| crate::domain::Scope::of([*code]).is_some());
        return code
            .map(|code| Some(Some(code)))
            .ok_or_else(|| AppError::unprocessable("province", ChannelMessage::ProvincesInvalid));
    }
    let Some(account) = request.account.as_deref().filter(|account| !account.trim().is_empty()) else {
        return Ok(None);
    };
    let number = crate::domain::PhoneNumber::parse(account)
        .ok_or_else(|| AppError::unprocessable("account", crate::i18n::TradeMessage::AccountInvalid))?;
    Ok(Some(state.segments.region_of(&number).map(|region| region.province_code)))
}

/// Channels that supply the product's carrier, kind and face value at the other speed
/// only (a slow-only supplier for a fast product): named `speed_not_offered`, so the
/// preview says why they are absent. One route per channel.
async fn other_speed_only(pool: &sqlx::AnyPool, product_id: i64) -> Result<Vec<routing::Route>, AppError> {
    let sql = format!(
        "SELECT {}, cp.cost_fen, cp.priority, cp.weight, cp.provinces FROM channel_products cp
         JOIN channels c ON c.id = cp.channel_id JOIN products p ON p.id = cp.product_id
         JOIN products me ON me.id = $1
         WHERE p.carrier = me.carrier AND p.product_kind = me.product_kind AND p.face_value_fen = me.face_value_fen
           AND p.speed <> me.speed
           AND cp.channel_id NOT IN (SELECT channel_id FROM channel_products WHERE product_id = $1)
         ORDER BY c.id, p.id",
        crate::platform::channel::model::CHANNEL_COLUMNS
            .split(", ")
            .map(|column| format!("c.{column}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(product_id).fetch_all(pool).await?;
    let mut routes: Vec<routing::Route> = Vec::new();
    for row in &rows {
        use sqlx::Row;
        let channel = crate::platform::channel::model::ChannelRow::from_row(row)?;
        if routes.iter().any(|route| route.channel.id == channel.id) {
            continue;
        }
        let provinces: String = row.try_get(19)?;
        routes.push(routing::Route {
            channel,
            cost_fen: row.try_get(16)?,
            priority: row.try_get(17)?,
            weight: row.try_get(18)?,
            provinces: crate::domain::Scope::from_stored(&provinces).unwrap_or_default(),
            excluded: Some(Exclusion::SpeedNotOffered),
            window: None,
        });
    }
    Ok(routes)
}

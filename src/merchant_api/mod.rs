//! The merchant open API, `/openapi/v1`: what a merchant's own systems call, signed with
//! an API key (`api_keys`). Not to be confused with `app/api_docs.rs`, which serves the
//! OpenAPI document. docs/merchant-api.md is the developer's guide.
//!
//! Every call passes `guard::check` (signature, timestamp, nonce, merchant state, IP
//! whitelist, rate) and is answered signed.

pub mod card;
pub mod doc;
pub mod guard;
pub mod legacy;
pub mod orders;
pub mod sign_check;
pub mod signature;

use crate::http::error::{ApiOk, ApiResult};
use crate::orders::store;
use crate::platform::state::AppState;
use axum::{
    Extension, Router,
    extract::{DefaultBodyLimit, State},
    middleware,
    routing::{get, post},
};
use guard::{ApiCaller, GuardState};
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

pub fn router(state: &AppState) -> Router<AppState> {
    let guard = Arc::new(GuardState::new(state.config.open_api.rate_limit_per_minute));
    Router::new()
        .route("/openapi/v1/orders", post(orders::place_order))
        .route("/openapi/v1/orders/{merchant_order_id}", get(orders::get_order))
        .route("/openapi/v1/balance", get(balance))
        .route("/openapi/v1/products", get(products))
        .route("/openapi/v1/segments/{phone}", get(segment))
        .route("/openapi/v1/windows", get(windows))
        .layer(middleware::from_fn_with_state(state.clone(), guard::check))
        .layer(Extension(guard))
        .layer(DefaultBodyLimit::max(guard::MAX_BODY_BYTES))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Balance {
    pub balance_fen: i64,
    pub credit_available_fen: i64,
    /// Balance plus available credit: what orders can spend.
    pub spendable_fen: i64,
}

/// The merchant's balance and credit.
#[utoipa::path(get, path = "/openapi/v1/balance", tag = "openapi-v1",
    responses((status = 200, description = "`data` is a Balance", body = Balance)), security(("api_signature" = [])))]
pub async fn balance(State(state): State<AppState>, Extension(caller): Extension<ApiCaller>) -> ApiResult<Balance> {
    let account = crate::money::finance::read_account(&state.db.pool, caller.merchant_id).await?;
    Ok(ApiOk(Balance {
        balance_fen: account.balance_fen,
        credit_available_fen: account.credit_available(),
        spendable_fen: account.spendable(),
    }))
}

/// The province, city and carrier of a number's segment (`NumberSegment`, as the console's
/// lookup answers).
#[utoipa::path(get, path = "/openapi/v1/segments/{phone}", tag = "openapi-v1",
    params(("phone" = String, Path, description = "A mobile number: 11 digits, +86 and spaces allowed (URL-encoded)")),
    responses((status = 200, description = "`data` is a NumberSegment", body = crate::orders::segments::NumberSegment),
        (status = 404, description = "40400 `segment.unknown`: the table has no place for the number's prefix"),
        (status = 422, description = "40000 `segment.phone_invalid`: not a mainland mobile number")),
    security(("api_signature" = [])))]
pub async fn segment(
    State(state): State<AppState>,
    axum::extract::Path(phone): axum::extract::Path<String>,
) -> ApiResult<crate::orders::segments::NumberSegment> {
    crate::http::extract::path_text("phone", &phone)?;
    Ok(ApiOk(crate::orders::segments::lookup(&state, "phone", &phone)?))
}

/// Maintenance windows of the next seven days, by start (`UpcomingWindow`): while a window
/// closes every channel of an order, a fast product is refused (`order.channel.window`,
/// naming the window and its end) and a slow one waits and is sent after it.
#[utoipa::path(get, path = "/openapi/v1/windows", tag = "openapi-v1",
    responses((status = 200, description = "`data` is a list of UpcomingWindow", body = [crate::supply::windows::UpcomingWindow])),
    security(("api_signature" = [])))]
pub async fn windows(State(state): State<AppState>) -> ApiResult<Vec<crate::supply::windows::UpcomingWindow>> {
    let schedule = state.windows.current(&state.db).await?;
    Ok(ApiOk(crate::supply::windows::upcoming_of(&schedule, crate::platform::db::now_millis())))
}

/// `ApiProduct` in the document: the console's `Product` (quotes) has the name.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ApiProduct)]
pub struct Product {
    pub product_key: String,
    pub product_name: String,
    pub carrier: crate::domain::Carrier,
    pub product_kind: crate::domain::ProductKind,
    pub face_value_fen: i64,
    /// The merchant's supply price, fen.
    pub price_fen: i64,
    /// `fast` (快充) or `slow` (慢充): how long an order may take (`deadline_at`).
    pub speed: crate::domain::Speed,
    /// GB/T 2260 codes of the provinces the product is sold in; empty: national. An order
    /// for a number of another province is refused (`order.product.out_of_scope`).
    pub provinces: Vec<u32>,
}

/// The products the merchant has a quote for that is on, with its prices.
#[utoipa::path(get, path = "/openapi/v1/products", tag = "openapi-v1",
    responses((status = 200, description = "`data` is a list of Product", body = [Product])), security(("api_signature" = [])))]
pub async fn products(
    State(state): State<AppState>,
    Extension(caller): Extension<ApiCaller>,
) -> ApiResult<Vec<Product>> {
    let mut products: Vec<Product> = store::all_offers(&state.db.pool, caller.merchant_id)
        .await?
        .into_values()
        .filter_map(|offer| {
            Some(Product {
                price_fen: offer.price_fen?,
                speed: offer.speed,
                provinces: offer.scope.provinces().to_vec(),
                product_key: offer.product_key,
                product_name: offer.product_name,
                carrier: offer.carrier,
                product_kind: offer.product_kind,
                face_value_fen: offer.face_value_fen,
            })
        })
        .collect();
    products.sort_by(|a, b| a.product_key.cmp(&b.product_key));
    Ok(ApiOk(products))
}

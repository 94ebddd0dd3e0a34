//! Orders: `/adminapi/order/*` (lists, detail, add, price lookup, card-secret reveal and
//! encrypted export, export, batches), `/adminapi/admin/order/resolve` (`resolve.rs`) and
//! `/adminapi/admin/order/reverse` (`reverse.rs`).

pub mod add;
pub mod batch;
pub mod blocklist;
pub mod card_export;
pub mod counters;
pub mod export;
mod export_city;
pub mod generate;
pub mod lifecycle;
pub mod model;
pub mod place;
pub mod placement;
mod placing_sql;
pub mod ported_numbers;
pub mod price;
pub mod query;
pub mod quotes;
pub mod report_rollup;
pub mod reports;
pub mod resolve;
pub mod reverse;
pub mod risk;
pub mod risk_settings;
pub mod segment_admin;
pub mod segments;
pub mod store;
mod totals;
mod upload_kind;

use crate::domain::OrderStatus;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::pagination::Paging;
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::{CurrentUser, Role};
use crate::money::finance::log::{AccountRecord, records_for_order};
use crate::platform::audit;
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::{
    Router,
    extract::State,
    http::HeaderMap,
    routing::{get, post},
};
use model::OrderItem;
use query::OrderFilter;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use totals::fetch_page_with_total;
use utoipa::ToSchema;

/// Placing one order, the one entry for a single order (the console's add order and the open
/// API); a batch is placed a range at a time by `batch/`.
pub use place::place;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/order/list", post(list))
        .route("/adminapi/order/detail", post(detail))
        .route("/adminapi/order/add", post(add::add))
        .route("/adminapi/order/price", post(price::price))
        .route("/adminapi/segment/lookup", post(segments::lookup_number))
        .route("/adminapi/order/card/reveal", post(reveal_card))
        .route("/adminapi/order/card/export", post(card_export::export_cards))
        .route("/adminapi/order/export", get(export::export_orders))
        .route("/adminapi/admin/order/resolve", post(resolve::resolve))
        .route("/adminapi/admin/order/resolveMany", post(resolve::resolve_many))
        .route("/adminapi/admin/order/reverse", post(reverse::reverse_order))
        .merge(batch::router())
        .merge(blocklist::router())
        .merge(ported_numbers::router())
        .merge(segment_admin::router())
}

/// A list request: the filters, then where to start.
#[derive(Debug, Deserialize, ToSchema)]
pub struct OrderListRequest {
    #[serde(flatten)]
    pub filter: OrderFilter,
    /// `desc` (newest first, default) or `asc`, by order time.
    #[schema(pattern = r"^\s*(desc|asc)?\s*$")]
    pub sort: Option<String>,
    #[serde(flatten)]
    pub paging: Paging,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderListResponse {
    pub list: Vec<OrderItem>,
    /// Orders matching the filters (all pages).
    pub total: i64,
    /// true: more than `total` match (a time-taken filter counts at most 100,000).
    pub total_capped: bool,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
    pub page: Option<i64>,
    pub page_size: i64,
}

/// List orders of one kind with the list's filters. Merchants see only their own.
#[utoipa::path(post, path = "/adminapi/order/list", tag = "order", request_body = OrderListRequest,
    responses((status = 200, description = "`data` is an OrderListResponse", body = OrderListResponse), (status = 403, description = "40300: another merchant's mid"),
        (status = 422, description = "40000: `cursor` is not one this list gave")),
    security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<OrderListRequest>,
) -> ApiResult<OrderListResponse> {
    let query = request.filter.resolve(&caller, now_millis())?;
    let page = request.paging.checked(request.sort.as_deref())?;
    let (orders, next_cursor, (total, total_capped)) = fetch_page_with_total(&state.db.pool, &query, page).await?;
    let (locale, table) = (Locale::from_headers(&headers), state.segments.table());
    Ok(ApiOk(OrderListResponse {
        list: orders.iter().map(|order| order.to_item().localized(locale).with_english_region(&table)).collect(),
        total,
        total_capped,
        next_cursor,
        page: if page.cursor.is_none() { Some(page.page.unwrap_or(1)) } else { None },
        page_size: page.page_size,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct OrderRef {
    pub order_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TimelineEntry {
    pub status: i64,
    pub status_name: &'static str,
    /// placed, submitted, success, failure, marked success / failed by an administrator,
    /// manual review reason, ...
    pub note: String,
    /// Why, in the words of the person who made the change (an administrator's reason).
    pub detail: String,
    /// The user who made the change; null for the system.
    pub actor_id: Option<i64>,
    /// That user's account name; null for the system.
    pub actor_name: Option<String>,
    pub at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OrderDetail {
    pub order: OrderItem,
    /// Status changes, oldest first.
    pub timeline: Vec<TimelineEntry>,
    /// The account-change records of this order (debit, refund).
    pub account_records: Vec<AccountRecord>,
    /// Administrators only (absent for merchants, who see results, not channels): every
    /// hand-over of the order to a channel, first first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attempts: Option<Vec<crate::platform::channel::attempts::AttemptItem>>,
}

/// Finds an order the caller may see: a merchant's own, or any for an administrator.
/// Another merchant's order is "not found", exactly like one that does not exist.
pub(crate) async fn visible_order(
    state: &AppState,
    caller: &CurrentUser,
    order_id: i64,
) -> Result<model::OrderRow, AppError> {
    let mut connection = state.db.pool.acquire().await?;
    let order = lifecycle::read_order(&mut connection, order_id).await?.ok_or(AppError::NotFound)?;
    if caller.role == Role::User && caller.merchant_id != Some(order.merchant_id) {
        return Err(AppError::NotFound);
    }
    Ok(order)
}

/// One order with its timeline and account-change records.
#[utoipa::path(post, path = "/adminapi/order/detail", tag = "order", request_body = OrderRef,
    responses((status = 200, description = "`data` is an OrderDetail", body = OrderDetail), (status = 404, description = "40400: no such order (or another merchant's)")),
    security(("token" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<OrderRef>,
) -> ApiResult<OrderDetail> {
    let order = visible_order(&state, &caller, request.order_id).await?;
    let events = sqlx::query(
        "SELECT e.status, e.note, e.actor_id, e.created_at, u.username, e.detail
         FROM order_events e LEFT JOIN users u ON u.id = e.actor_id WHERE e.order_id = $1 ORDER BY e.id",
    )
    .bind(order.id)
    .fetch_all(&state.db.pool)
    .await?;
    let placed_by: Option<String> = sqlx::query_scalar("SELECT username FROM users WHERE id = $1")
        .bind(order.created_by.unwrap_or(0))
        .fetch_optional(&state.db.pool)
        .await?;
    // The first entry is the order itself: placing writes no event of its own.
    let mut timeline = vec![TimelineEntry {
        status: OrderStatus::Pending.code(),
        status_name: OrderStatus::Pending.name(),
        note: "placed".to_string(),
        detail: String::new(),
        actor_id: order.created_by,
        actor_name: placed_by,
        at: millis_to_rfc3339(order.created_at),
    }];
    for event in events {
        let status: i64 = event.try_get(0)?;
        timeline.push(TimelineEntry {
            status,
            status_name: OrderStatus::from_code(status).map_or("unknown", OrderStatus::name),
            note: event.try_get(1)?,
            detail: event.try_get(5)?,
            actor_id: event.try_get(2)?,
            actor_name: event.try_get(4)?,
            at: millis_to_rfc3339(event.try_get(3)?),
        });
    }
    let account_records = records_for_order(&state.db.pool, order.id).await?;
    let attempts = match caller.role {
        Role::Admin => Some(crate::platform::channel::attempts::attempts_of(&state.db.pool, order.id).await?),
        Role::User => None,
    };
    let order = order.to_item().localized(Locale::from_headers(&headers)).with_english_region(&state.segments.table());
    Ok(ApiOk(OrderDetail { order, timeline, account_records, attempts }))
}

/// The merchant a call acts for; an administrator's must exist (40400), a merchant's own
/// does.
pub(super) async fn acting_merchant(
    state: &AppState,
    caller: &CurrentUser,
    requested: Option<i64>,
) -> Result<i64, AppError> {
    let merchant_id = caller.acting_merchant(requested)?;
    if caller.role == Role::Admin && !crate::money::finance::merchant_exists(&state.db.pool, merchant_id).await? {
        return Err(AppError::NotFound);
    }
    Ok(merchant_id)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RevealedCard {
    pub card_no: String,
    pub card_secret: String,
}

/// Reveal the card number and password of a successful card-secret order. Only the
/// owning merchant may, and every reveal is written to the audit trail.
#[utoipa::path(post, path = "/adminapi/order/card/reveal", tag = "order", request_body = OrderRef,
    responses((status = 200, description = "`data` is a RevealedCard", body = RevealedCard), (status = 403, description = "40300: not the owning merchant"),
        (status = 409, description = "40900: no card secret on this order")),
    security(("token" = [])))]
pub async fn reveal_card(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<OrderRef>,
) -> ApiResult<RevealedCard> {
    let row = sqlx::query(
        "SELECT merchant_id, order_no, system_order_id, card_no_enc, card_secret_enc FROM orders WHERE id = $1",
    )
    .bind(request.order_id)
    .fetch_optional(&state.db.pool)
    .await?;
    let Some(row) = row else { return Err(AppError::PermissionDenied) };
    let merchant_id: i64 = row.try_get(0)?;
    if caller.role != Role::User || caller.merchant_id != Some(merchant_id) {
        return Err(AppError::PermissionDenied);
    }
    let (Some(card_no), Some(card_secret)) =
        (row.try_get::<Option<String>, _>(3)?, row.try_get::<Option<String>, _>(4)?)
    else {
        return Err(AppError::Conflict(TradeMessage::CardNotDelivered.into()));
    };
    let order_no: String = row.try_get(1)?;
    let context: String = row.try_get(2)?;
    let decrypt = |sealed: &str, purpose: &str| -> Result<String, AppError> {
        let plain = state.secrets.decrypt(sealed, &format!("{purpose}:{context}"))?;
        Ok(String::from_utf8(plain).map_err(anyhow::Error::from)?)
    };
    let revealed =
        RevealedCard { card_no: decrypt(&card_no, "card_no")?, card_secret: decrypt(&card_secret, "card_secret")? };
    audit::record_detail(
        &state.db.pool,
        Some(caller.user_id),
        audit::action::CARD_SECRET_REVEALED,
        &audit::target::order(request.order_id),
        &crate::i18n::audit::AuditDetail::CardRevealed { order_no },
        &address.to_string(),
    )
    .await?;
    Ok(ApiOk(revealed))
}

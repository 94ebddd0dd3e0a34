//! Orders through the open API: placed through the same path as the console's add order
//! (`orders::place`), idempotent by merchant order id, and read back with their result.

use super::card;
use super::guard::ApiCaller;
use crate::domain::PhoneNumber;
use crate::domain::segments::SegmentTable;
use crate::http::error::{ApiOk, ApiResult, AppError, code};
use crate::http::extract::JsonBody;
use crate::http::replay;
use crate::i18n::{Locale, OpenApiMessage, TradeMessage};
use crate::money::finance::ledger::Actor;
use crate::orders::model::{ORDER_COLUMNS, OrderRow};
use crate::orders::place;
use crate::orders::placement::intent::OrderLine;
use crate::orders::placement::intent::PlaceIntent;
use crate::platform::state::AppState;
use axum::{
    Extension,
    extract::{Path, State},
    http::{HeaderMap, StatusCode},
};
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

pub const MAX_NOTIFY_URL_CHARS: usize = 500;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PlaceOrderRequest {
    /// The merchant's own id: required, and the key of idempotency.
    pub merchant_order_id: String,
    pub product_key: String,
    /// The 11-digit mobile number (may be empty for card-secret products).
    #[serde(default)]
    pub account: String,
    /// Where this order's result is notified (http or https, at most 500 characters);
    /// the profile's notify URL when omitted.
    pub notify_url: Option<String>,
    #[serde(default)]
    pub buyback: bool,
}

/// An order as the open API shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiOrder {
    pub merchant_order_id: String,
    pub order_no: String,
    pub system_order_id: String,
    pub product_key: String,
    pub account: String,
    /// 0 pending, 1 processing, 2 success, 3 failure, 4 manual review, 5 reversed (冲正:
    /// a success reversed afterwards, the price refunded)
    pub status: i64,
    pub status_name: &'static str,
    pub face_value_fen: i64,
    pub price_fen: i64,
    pub buyback: bool,
    pub notify_url: Option<String>,
    pub created_at: String,
    /// The supplier's answer is due by then (by the product's speed: fast 30 minutes, slow
    /// 72 hours by default); an order without one by then is checked by a person.
    pub deadline_at: String,
    pub finished_at: Option<String>,
    pub callback_at: Option<String>,
    pub serial_no: Option<String>,
    pub failure_reason: Option<String>,
    pub failure_reason_code: Option<&'static str>,
    /// Card-secret orders: the card number and secret, each base64(nonce ‖ AES-256-GCM
    /// ciphertext ‖ tag) under HKDF-SHA256(the API secret), the order number as associated data.
    pub card_no_encrypted: Option<String>,
    pub card_secret_encrypted: Option<String>,
    /// The number's province (广东) and city (深圳) when it was placed; null when unknown.
    pub province: Option<String>,
    pub city: Option<String>,
    /// The same in English (Guangdong, Shenzhen); the city's Chinese name when the segment
    /// table has no English one; null when unknown.
    pub province_en: Option<String>,
    pub city_en: Option<String>,
    /// When a success was reversed (status 5), RFC 3339; `finished_at` stays the success's time.
    pub reversed_at: Option<String>,
    /// Why it was reversed (the supplier's words or the administrator's reason).
    pub reversal_reason: Option<String>,
}

fn api_order(order: &OrderRow, notify_url: Option<String>, locale: Locale, regions: &SegmentTable) -> ApiOrder {
    let item = order.to_item().localized(locale).with_english_region(regions);
    ApiOrder {
        merchant_order_id: item.merchant_order_id,
        order_no: item.order_no,
        system_order_id: item.system_order_id,
        product_key: item.product_key,
        account: item.account,
        status: item.status,
        status_name: item.status_name,
        face_value_fen: item.face_value_fen,
        price_fen: item.price_fen,
        buyback: item.buyback,
        notify_url,
        created_at: item.created_at,
        deadline_at: item.deadline_at,
        finished_at: item.finished_at,
        callback_at: item.callback_at,
        serial_no: item.serial_no,
        failure_reason: item.failure_reason,
        failure_reason_code: item.failure_reason_code,
        card_no_encrypted: None,
        card_secret_encrypted: None,
        province: item.province,
        city: item.city,
        province_en: item.province_en,
        city_en: item.city_en,
        reversed_at: item.reversed_at,
        reversal_reason: item.reversal_reason,
    }
}

/// An order as found by its merchant order id: the order, its notify URL, its sealed card,
/// the open-API call that placed it (`crate::http::replay`).
type Found = (OrderRow, Option<String>, Option<(String, String)>, Option<String>);

/// The merchant's order with this merchant order id, its notify URL, sealed card and call.
async fn find(state: &AppState, merchant_id: i64, merchant_order_id: &str) -> Result<Option<Found>, AppError> {
    let sql = format!(
        "SELECT {ORDER_COLUMNS}, notify_url, card_secret_enc, api_nonce FROM orders
         WHERE merchant_id = $1 AND merchant_order_id = $2"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(merchant_order_id)
        .fetch_optional(&state.db.pool)
        .await?;
    row.as_ref().map(found).transpose()
}

fn found(row: &sqlx::any::AnyRow) -> Result<Found, AppError> {
    let order = OrderRow::from_row(row)?;
    let card_no: Option<String> = row.try_get("card_no_enc")?;
    let card_secret: Option<String> = row.try_get("card_secret_enc")?;
    Ok((order, row.try_get("notify_url")?, card_no.zip(card_secret), row.try_get("api_nonce")?))
}

/// Whether a stored order is what this request would have placed.
fn same_request(order: &OrderRow, stored_url: Option<&str>, request: &PlaceOrderRequest) -> bool {
    let account = PhoneNumber::stored_form(&request.account);
    order.product_key == crate::domain::product_key_input(&request.product_key)
        && order.account == account
        && (order.buyback != 0) == request.buyback
        && stored_url == request.notify_url.as_deref().map(str::trim).filter(|url| !url.is_empty())
}

fn check_notify_url(notify_url: Option<&str>) -> Result<Option<String>, AppError> {
    let Some(url) = notify_url.map(str::trim).filter(|url| !url.is_empty()) else { return Ok(None) };
    if url.chars().count() > MAX_NOTIFY_URL_CHARS || !crate::identity::user_centre::validation::is_http_url(url) {
        return Err(AppError::field("notify_url", OpenApiMessage::NotifyUrlInvalid { max: MAX_NOTIFY_URL_CHARS }));
    }
    Ok(Some(url.to_string()))
}

/// Answers the order already placed under this merchant order id if the request is the
/// same (nothing charged again), or refuses a different one.
fn replay(
    order: &OrderRow,
    notify_url: Option<String>,
    request: &PlaceOrderRequest,
    locale: Locale,
    regions: &SegmentTable,
) -> ApiResult<ApiOrder> {
    if same_request(order, notify_url.as_deref(), request) {
        Ok(ApiOk(api_order(order, notify_url, locale, regions)))
    } else {
        Err(AppError::Refused {
            status: StatusCode::CONFLICT,
            code: code::API_ORDER_ID_REUSED,
            message: OpenApiMessage::OrderIdReused.into(),
            retry_after_seconds: None,
        })
    }
}

/// Place an order: the same checks, prices and money rules as the console's add order.
/// Sent again with the same merchant order id and body, it answers the same order and
/// charges nothing; with a different body it is refused (40930).
#[utoipa::path(post, path = "/openapi/v1/orders", tag = "openapi-v1", request_body = PlaceOrderRequest,
    responses((status = 200, description = "`data` is an ApiOrder", body = ApiOrder), (status = 400, description = "40000: a field is invalid"),
        (status = 402, description = "40200: insufficient funds"),
        (status = 409, description = "40930: merchant_order_id used with a different request")),
    security(("api_signature" = [])))]
pub async fn place_order(
    State(state): State<AppState>,
    Extension(caller): Extension<ApiCaller>,
    deferred: Option<Extension<replay::Deferred>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PlaceOrderRequest>,
) -> ApiResult<ApiOrder> {
    let locale = Locale::from_headers(&headers);
    let merchant_order_id = request.merchant_order_id.trim();
    if merchant_order_id.is_empty() {
        return Err(AppError::field("merchant_order_id", TradeMessage::MerchantOrderIdInvalid));
    }
    let notify_url = check_notify_url(request.notify_url.as_deref())?;
    // Never a destination inside our network (http/notify_guard.rs): refused when given, and
    // again by the sender against the address it resolves to.
    if let Some(url) = &notify_url {
        // The open API answers every refused field with 400 (docs/merchant-api.md).
        crate::http::notify_guard::check_url_field(&state, "notify_url", url).map_err(|error| match error {
            AppError::Unprocessable(fields) => AppError::Validation(fields),
            other => other,
        })?;
    }
    // No read of our own in front of placing: the group commit's first read finds a nonce
    // used before (refused) and a merchant order id placed before (a conflict, answered below
    // from the order that has it), in the same hop as the account lock (`orders::placement::run`).
    let intent = PlaceIntent {
        merchant_id: caller.merchant_id,
        line: OrderLine {
            account: request.account.clone(),
            product_key: crate::domain::product_key_input(&request.product_key),
            merchant_order_id: Some(merchant_order_id.to_string()),
            allow_ported: false,
            ported_from: None,
        },
        behalf: false,
        buyback: request.buyback,
        remark: String::new(),
        notify_url: notify_url.clone(),
        nonce: deferred.as_ref().map(|Extension(deferred)| deferred.nonce.clone()),
        region: None,
        closed: None,
        single_flight: false,
    };
    let called = intent.nonce.as_ref().map(replay::NonceUse::stored);
    let actor = Actor { id: None, name: format!("api:{}", caller.key_id) };
    match place(&state, actor, intent).await {
        Ok(order) => {
            if let Some(Extension(deferred)) = &deferred {
                deferred.mark_written();
            }
            Ok(ApiOk(api_order(&order, notify_url, locale, &state.segments.table())))
        }
        // An order has this merchant order id (placed before, or by a parallel call that
        // committed first). Placed by this very call: a replay. Otherwise answer as its
        // retry, or refuse a different request.
        Err(AppError::Conflict(_)) => match find(&state, caller.merchant_id, merchant_order_id).await? {
            Some((_, _, _, Some(call))) if Some(call.as_str()) == called.as_deref() => Err(replay::refused()),
            Some((order, stored_url, _, _)) => replay(&order, stored_url, &request, locale, &state.segments.table()),
            None => Err(AppError::Conflict(TradeMessage::MerchantOrderIdDuplicate.into())),
        },
        Err(error) => Err(error),
    }
}

/// One order by the merchant's order id, with its result. Card-secret orders carry the
/// card number and secret encrypted to the calling key (see `ApiOrder`).
#[utoipa::path(get, path = "/openapi/v1/orders/{merchant_order_id}", tag = "openapi-v1",
    params(("merchant_order_id" = String, Path, description = "The merchant's order id")),
    responses((status = 200, description = "`data` is an ApiOrder", body = ApiOrder), (status = 404, description = "40400: no such order")),
    security(("api_signature" = [])))]
pub async fn get_order(
    State(state): State<AppState>,
    Extension(caller): Extension<ApiCaller>,
    headers: HeaderMap,
    Path(merchant_order_id): Path<String>,
) -> ApiResult<ApiOrder> {
    crate::http::extract::path_text("merchant_order_id", &merchant_order_id)?;
    let (order, notify_url, card, _) =
        find(&state, caller.merchant_id, &merchant_order_id).await?.ok_or(AppError::NotFound)?;
    let mut answer = api_order(&order, notify_url, Locale::from_headers(&headers), &state.segments.table());
    if let Some((card_no, card_secret)) = card {
        let reseal = |sealed: &str, purpose: &str| -> Result<String, AppError> {
            let plain = state.secrets.decrypt(sealed, &format!("{purpose}:{}", order.system_order_id))?;
            let plain = String::from_utf8(plain).map_err(anyhow::Error::from)?;
            Ok(card::seal(&caller.secret, &order.order_no, &plain)?)
        };
        answer.card_no_encrypted = Some(reseal(&card_no, "card_no")?);
        answer.card_secret_encrypted = Some(reseal(&card_secret, "card_secret")?);
    }
    Ok(ApiOk(answer))
}

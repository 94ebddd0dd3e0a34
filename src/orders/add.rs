//! `/adminapi/order/add`: one order placed from the console, safe to send twice.
//!
//! A person's double click, or a retry after a lost answer, must not place a second order.
//! The order's merchant order id is what makes placement happen at most once (it is unique
//! per merchant, checked inside the placing transaction), so both ways of asking for a
//! repeat end there:
//! - a repeated merchant order id whose order exists answers that order when the request
//!   is the same one (nothing charged again), as the open API does, and is refused (40900)
//!   when it asks for something else;
//! - an `Idempotency-Key` without a merchant order id stands for one: the order gets an id
//!   derived from the user and the key, so the repeat meets the first order by that id.
//!   The key itself is claimed (`crate::http::idempotency`) to refuse its reuse for another body.

use super::model::{ORDER_COLUMNS, OrderItem, OrderRow};
use super::place;
use super::placement::intent::OrderLine;
use super::placement::intent::PlaceIntent;
use crate::domain::{OrderKind, PhoneNumber};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::IdempotentJson;
use crate::http::idempotency::{IdempotencyKeyHeader, IdempotentRequest};
use crate::identity::session::CurrentUser;
use crate::money::finance::ledger::Actor;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct AddOrderRequest {
    /// The recharge account: an 11-digit mainland mobile number (optional for card-secret products).
    pub account: Option<String>,
    #[schema(value_type = String, required = true, pattern = r"\S")]
    pub product_key: Option<String>,
    /// The merchant's own id, unique per merchant; generated when omitted.
    #[schema(pattern = r"^\s*([A-Za-z0-9._-]{1,64})?\s*$")]
    pub merchant_order_id: Option<String>,
    /// An on-behalf (manual) top-up for a third party, fulfilled by a person.
    #[serde(default)]
    pub behalf: bool,
    /// A buyback order (回购单).
    #[serde(default)]
    pub buyback: bool,
    /// The merchant confirms the number was ported to the product's carrier.
    #[serde(default)]
    pub allow_ported: bool,
    /// Free text, e.g. the third party's name for an on-behalf order (at most 200 characters).
    pub remark: Option<String>,
    /// Administrators only: the merchant to order for.
    pub merchant_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AddOrderResponse {
    pub order: OrderItem,
    /// The supply price charged, fen.
    pub price_fen: i64,
}

/// Place one order: checks the quote, charges balance then credit, writes the order and
/// its account-change records in one transaction. Sent again (a double click, a retry)
/// with the same merchant order id or the same `Idempotency-Key` and the same body, it
/// answers the order already placed and charges nothing.
#[utoipa::path(post, path = "/adminapi/order/add", tag = "order", request_body = AddOrderRequest,
    responses((status = 200, description = "`data` is an AddOrderResponse (a repeated merchant order id or `Idempotency-Key` with the same body: the order placed the first time)", body = AddOrderResponse),
        (status = 400, description = "40000: a field is invalid"),
        (status = 402, description = "40200: insufficient funds"), (status = 404, description = "40400: an administrator named no such merchant"),
        (status = 409, description = "40900: merchant order id used already, for another order"),
        (status = 422, description = "40000: no such product or quote, a number from no allocated segment or of another carrier, an account the product needs, or an administrator gave no `merchant_id`; 42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn add(
    State(state): State<AppState>,
    caller: CurrentUser,
    IdempotentJson(request, idempotency): IdempotentJson<AddOrderRequest>,
) -> ApiResult<AddOrderResponse> {
    let merchant_id = super::acting_merchant(&state, &caller, request.merchant_id).await?;
    let explicit_id = request.merchant_order_id.as_deref().map(str::trim).filter(|id| !id.is_empty());
    let merchant_order_id = match (&idempotency, explicit_id) {
        (_, Some(id)) => Some(id.to_string()),
        (Some(key), None) => Some(derived_merchant_order_id(caller.user_id, key)),
        (None, None) => None,
    };
    // The claim refuses the key's reuse for another body. A first call that placed nothing
    // (refused, or cut short) leaves a claim that a retry with the same body passes and
    // is evaluated afresh: what places the order once is the merchant order id.
    if let Some(key) = &idempotency {
        key.claim_alone(&state.db, caller.user_id).await?;
    }
    let intent = PlaceIntent {
        merchant_id,
        line: OrderLine {
            account: request.account.unwrap_or_default(),
            product_key: crate::domain::product_key_input(&request.product_key.unwrap_or_default()),
            merchant_order_id: merchant_order_id.clone(),
            allow_ported: request.allow_ported,
            ported_from: None,
        },
        behalf: request.behalf,
        buyback: request.buyback,
        remark: request.remark.unwrap_or_default().trim().chars().take(200).collect(),
        notify_url: None,
        nonce: None,
        region: None,
        closed: None,
        single_flight: false,
    };
    match place(&state, Actor::user(caller.user_id, &caller.username), intent.clone()).await {
        Ok(placed) => Ok(ApiOk(answer(&placed))),
        Err(AppError::Conflict(message)) if merchant_order_id.is_some() => {
            let id = merchant_order_id.as_deref().unwrap_or_default();
            match find(&state, merchant_id, id).await? {
                Some(order) if same_request(&order, &intent) => Ok(ApiOk(answer(&order))),
                _ => Err(AppError::Conflict(message)),
            }
        }
        Err(error) => Err(error),
    }
}

fn answer(order: &OrderRow) -> AddOrderResponse {
    AddOrderResponse { price_fen: order.price_fen, order: order.to_item() }
}

/// The merchant order id an `Idempotency-Key` stands for: the same for the same user and
/// key, in the characters a merchant order id allows, and apart from the generated ones
/// (`M` and digits) by its first letter.
fn derived_merchant_order_id(user_id: i64, key: &IdempotentRequest) -> String {
    let digest = Sha256::digest(format!("{user_id}\n{}", key.key()).as_bytes());
    format!("K{}", &hex::encode(digest)[..32])
}

async fn find(state: &AppState, merchant_id: i64, merchant_order_id: &str) -> Result<Option<OrderRow>, AppError> {
    let sql = format!("SELECT {ORDER_COLUMNS} FROM orders WHERE merchant_id = $1 AND merchant_order_id = $2");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(merchant_order_id)
        .fetch_optional(&state.db.pool)
        .await?;
    Ok(row.as_ref().map(OrderRow::from_row).transpose()?)
}

/// Whether a stored order is what this intent would have placed: the same product, number
/// (in any spelling the parser reads), kind, buyback flag and remark.
fn same_request(order: &OrderRow, intent: &PlaceIntent) -> bool {
    let account = PhoneNumber::stored_form(&intent.line.account);
    let behalf = order.order_kind == OrderKind::Behalf.code();
    order.product_key.eq_ignore_ascii_case(intent.line.product_key.trim())
        && order.account == account
        && behalf == intent.behalf
        && (order.buyback != 0) == intent.buyback
        && order.remark == intent.remark
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(text: &str) -> IdempotentRequest {
        IdempotentRequest::parse(Some(text.as_bytes()), "/adminapi/order/add", &json!({})).unwrap().unwrap()
    }

    #[test]
    fn a_key_stands_for_one_valid_merchant_order_id_per_user() {
        let first = derived_merchant_order_id(7, &key("k-1"));
        assert_eq!(first, derived_merchant_order_id(7, &key("k-1")));
        assert_ne!(first, derived_merchant_order_id(8, &key("k-1")));
        assert_ne!(first, derived_merchant_order_id(7, &key("k-2")));
        assert!(crate::domain::MerchantOrderId::parse(&first).is_some(), "{first}");
        assert!(first.starts_with('K'));
    }
}

//! `/adminapi/admin/order/resolve`: an administrator finishes an order by hand. What they
//! decide stays on the order's timeline with their name and reason, so a success must
//! carry the serial number that proves it and a failure says why the merchant was refunded.

use super::lifecycle::{self, Outcome, Reporter};
use super::model::OrderItem;
use super::visible_order;
use crate::audit;
use crate::error::{ApiOk, ApiResult, AppError};
use crate::extract::{ClientAddress, IdempotentJson};
use crate::finance::ledger::Actor;
use crate::i18n::{FailureReason, Locale, TradeMessage};
use crate::idempotency::{Claim, IdempotencyKeyHeader, Replayable};
use crate::session::AdminUser;
use crate::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveRequest {
    pub order_id: i64,
    /// `success` or `failure` (failure refunds the price to the merchant).
    pub result: String,
    /// Required for `success`: the carrier's or supplier's serial number proving the top-up.
    pub serial_no: Option<String>,
    /// Why: for a failure it becomes the order's failure reason; for a success, an optional
    /// note. Both go on the timeline with the administrator's name (at most 200 characters).
    pub reason: Option<String>,
}

fn trimmed(value: Option<String>) -> Option<String> {
    value.map(|text| text.trim().chars().take(200).collect::<String>()).filter(|text| !text.is_empty())
}

/// Administrators: finish an on-behalf order awaiting a person, or an order in manual
/// review, as succeeded (with a serial number) or failed (refunded). A failure refunds
/// once; a second call changes nothing.
#[utoipa::path(post, path = "/adminapi/admin/order/resolve", tag = "admin", request_body = ResolveRequest,
    responses((status = 200, description = "`data` is the OrderItem after the change (with a repeated `Idempotency-Key`: the first call's answer)"),
        (status = 400, description = "40000: serial_no missing for a success, or result invalid"),
        (status = 409, description = "40900: the order is not awaiting a person"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn resolve(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    IdempotentJson(request, idempotency): IdempotentJson<ResolveRequest>,
) -> ApiResult<Replayable<OrderItem>> {
    let locale = Locale::from_headers(&headers);
    let reason = trimmed(request.reason);
    let outcome = match request.result.as_str() {
        "success" => {
            let Some(serial_no) = trimmed(request.serial_no) else {
                return Err(AppError::field("serial_no", TradeMessage::SerialRequired));
            };
            Outcome::Success { serial_no: Some(serial_no), card: None }
        }
        "failure" => Outcome::Failure {
            reason: reason.clone().unwrap_or_else(|| FailureReason::MarkedByAdministrator.code().to_string()),
        },
        _ => return Err(AppError::field("result", TradeMessage::InvalidChoice { allowed: "success, failure" })),
    };
    visible_order(&state, &admin, request.order_id).await?;
    let detail = reason.unwrap_or_default();
    let actor = Actor::user(admin.user_id, &admin.username);
    let key = idempotency.as_ref().map(|request| (request, admin.user_id));
    match lifecycle::finish_claiming(&state, request.order_id, outcome, Reporter::Admin, actor, &detail, key).await? {
        Ok(true) => {}
        Ok(false) => return Err(AppError::Conflict(TradeMessage::OrderNotResolvable.into())),
        Err(Claim::Mismatch) => return Err(AppError::IdempotencyKeyReused),
        Err(Claim::Replay(Some(answer))) => return Ok(ApiOk(Replayable::Replayed(answer))),
        // The first call committed and has not stored its answer yet: the order as it is.
        Err(Claim::Replay(None) | Claim::Fresh) => {
            let order = visible_order(&state, &admin, request.order_id).await?;
            return Ok(ApiOk(Replayable::Fresh(order.to_item().localized(locale))));
        }
    }
    let detail = format!("order {} marked {}", request.order_id, request.result);
    audit::record(&state.db.pool, Some(admin.user_id), audit::action::ORDER_RESOLVED, &detail, &address.to_string())
        .await?;
    let item = visible_order(&state, &admin, request.order_id).await?.to_item().localized(locale);
    if let Some(request) = &idempotency {
        request.store_answer(&mut *state.db.pool.acquire().await?, admin.user_id, &item).await?;
    }
    Ok(ApiOk(Replayable::Fresh(item)))
}

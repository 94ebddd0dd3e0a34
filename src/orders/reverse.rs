//! `/adminapi/admin/order/reverse`: an administrator reverses (冲正) a successful order by
//! hand, e.g. when the carrier confirms a top-up was taken back but the supplier never
//! said so. The same path as a supplier's report (`lifecycle::reverse`): the merchant is
//! refunded once through the ledger, told by `order.reversed` and in the message center,
//! and the audit row names the administrator and the reason, all in one transaction.
//! It moves money, so it asks the step-up code of an administrator with two-factor on.

use super::lifecycle::reverse::{self, MAX_REASON_CHARS, ReversedBy};
use super::model::OrderItem;
use super::visible_order;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::AdminUser;
use crate::money::finance::ledger::Actor;
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ReverseRequest {
    pub order_id: i64,
    /// Why (required, 1 to 200 characters after trimming): kept on the order, shown to the
    /// merchant and sent in the `order.reversed` callback.
    #[schema(min_length = 1, max_length = 200)]
    pub reason: String,
}

/// Administrators: reverse a successful order (status 2 → 5) and refund its price once.
/// A second call (or a call after the supplier reversed it) is refused and changes nothing.
#[utoipa::path(post, path = "/adminapi/admin/order/reverse", tag = "admin", request_body = ReverseRequest,
    responses((status = 200, description = "`data` is the OrderItem after the reversal", body = OrderItem),
        (status = 400, description = "40000: the reason is missing or longer than 200 characters (`order.reversal.reason_invalid`)"),
        (status = 403, description = "40300: not an administrator; 40340: two-factor is on and no step-up code confirmed in the last 5 minutes"),
        (status = 404, description = "40400: no such order"),
        (status = 409, description = "40900: the order is not successful (`order.not_reversible`), e.g. reversed already")),
    security(("token" = [])))]
pub async fn reverse_order(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<ReverseRequest>,
) -> ApiResult<OrderItem> {
    let locale = Locale::from_headers(&headers);
    let reason = request.reason.trim();
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(AppError::field("reason", TradeMessage::ReversalReasonInvalid { max: MAX_REASON_CHARS }));
    }
    // A refund: a step-up when two-factor is on, as for resolving.
    crate::identity::step_up::require(&state, &admin).await?;
    visible_order(&state, &admin, request.order_id).await?;
    let by = ReversedBy::Admin { actor: Actor::user(admin.user_id, &admin.username), address: address.to_string() };
    if !reverse::reverse(&state, request.order_id, reason, by).await? {
        return Err(AppError::Conflict(TradeMessage::OrderNotReversible.into()));
    }
    Ok(ApiOk(visible_order(&state, &admin, request.order_id).await?.to_item().localized(locale)))
}

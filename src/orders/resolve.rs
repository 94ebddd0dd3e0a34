//! `/adminapi/admin/order/resolve`: an administrator finishes an order by hand. What they
//! decide stays on the order's timeline with their name and reason, so a success must
//! carry the serial number that proves it and a failure says why the merchant was refunded.
//! `/adminapi/admin/order/resolveMany` (the manual review queue) takes the same decision for
//! several orders through the same path ([`decide`]), one transaction per order.
//! A card-secret order is bought for its card, which only its supplier delivers: a person
//! can mark it failed (refunded), never successful without the card.

use super::lifecycle::{self, Outcome, Reporter};
use super::model::OrderItem;
use super::visible_order;
use crate::domain::OrderKind;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, IdempotentJson};
use crate::http::idempotency::{Claim, IdempotencyKeyHeader, IdempotentRequest, Replayable};
use crate::i18n::{FailureReason, Locale, TradeMessage};
use crate::identity::session::{AdminUser, CurrentUser};
use crate::money::finance::ledger::Actor;
use crate::platform::audit;
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveRequest {
    pub order_id: i64,
    /// `success` or `failure` (failure refunds the price to the merchant).
    #[schema(pattern = "^(success|failure)$")]
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

/// What an administrator decided for one order, checked: the outcome and the reason for
/// the timeline.
struct Decision {
    outcome: Outcome,
    detail: String,
}

impl Decision {
    fn parse(result: &str, serial_no: Option<String>, reason: Option<String>) -> Result<Self, AppError> {
        let reason = trimmed(reason);
        let outcome = match result {
            "success" => {
                let Some(serial_no) = trimmed(serial_no) else {
                    return Err(AppError::field("serial_no", TradeMessage::SerialRequired));
                };
                Outcome::Success { serial_no: Some(serial_no), card: None }
            }
            "failure" => Outcome::Failure {
                reason: reason.clone().unwrap_or_else(|| FailureReason::MarkedByAdministrator.code().to_string()),
            },
            _ => return Err(AppError::field("result", TradeMessage::InvalidChoice { allowed: "success, failure" })),
        };
        Ok(Self { outcome, detail: reason.unwrap_or_default() })
    }
}

/// Finishes one order as decided (a failure refunds once) and audits the decision; the
/// one path of both the single and the many-order call. `Ok(Ok(false))`: the order was not
/// awaiting a person, nothing changed.
async fn decide(
    state: &AppState,
    admin: &CurrentUser,
    address: &str,
    order_id: i64,
    decision: Decision,
    key: Option<(&IdempotentRequest, i64)>,
) -> Result<Result<bool, Claim>, AppError> {
    let result = match &decision.outcome {
        Outcome::Success { .. } => "success",
        Outcome::Failure { .. } => "failure",
    };
    if matches!(decision.outcome, Outcome::Success { card: None, .. }) && is_card_order(state, order_id).await? {
        return Err(AppError::Conflict(TradeMessage::CardOrderNeedsCard.into()));
    }
    let actor = Actor::user(admin.user_id, &admin.username);
    let finished =
        lifecycle::finish_claiming(state, order_id, decision.outcome, Reporter::Admin, actor, &decision.detail, key)
            .await?;
    if finished == Ok(true) {
        let order_no: String = sqlx::query_scalar("SELECT order_no FROM orders WHERE id = $1")
            .bind(order_id)
            .fetch_one(&state.db.pool)
            .await?;
        let detail = crate::i18n::audit::AuditDetail::OrderResolved { order_no, success: result == "success" };
        let target = audit::target::order(order_id);
        let action = audit::action::ORDER_RESOLVED;
        audit::record_detail(&state.db.pool, Some(admin.user_id), action, &target, &detail, address).await?;
    }
    Ok(finished)
}

async fn is_card_order(state: &AppState, order_id: i64) -> Result<bool, sqlx::Error> {
    let kind: Option<i64> = sqlx::query_scalar("SELECT order_kind FROM orders WHERE id = $1")
        .bind(order_id)
        .fetch_optional(&state.db.pool)
        .await?;
    Ok(kind == Some(OrderKind::Card.code()))
}

/// Administrators: finish an on-behalf order awaiting a person, or an order in manual
/// review, as succeeded (with a serial number) or failed (refunded). A failure refunds
/// once; a second call changes nothing.
#[utoipa::path(post, path = "/adminapi/admin/order/resolve", tag = "admin", request_body = ResolveRequest,
    responses((status = 200, description = "`data` is the OrderItem after the change (with a repeated `Idempotency-Key`: the first call's answer)", body = OrderItem),
        (status = 400, description = "40000: serial_no missing for a success, or result invalid"),
        (status = 404, description = "40400: no such order"),
        (status = 409, description = "40900: the order is not awaiting a person, or is a card-secret order marked success (only its supplier's card makes it one)"),
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
    let decision = Decision::parse(&request.result, request.serial_no, request.reason)?;
    // Resolving moves money (a failure refunds): a step-up when two-factor is on.
    crate::identity::step_up::require(&state, &admin).await?;
    visible_order(&state, &admin, request.order_id).await?;
    let key = idempotency.as_ref().map(|request| (request, admin.user_id));
    match decide(&state, &admin, &address.to_string(), request.order_id, decision, key).await? {
        Ok(true) => {}
        Ok(false) => return Err(AppError::Conflict(TradeMessage::OrderNotResolvable.into())),
        Err(Claim::Mismatch) => return Err(AppError::IdempotencyKeyReused),
        Err(Claim::Replay(Some(answer))) => return Ok(ApiOk(Replayable::Replayed(answer))),
        // The first call committed and has not stored its answer yet: the order as it is.
        Err(Claim::Replay(None) | Claim::Fresh) => {
            let order = visible_order(&state, &admin, request.order_id).await?;
            return Ok(ApiOk(Replayable::Fresh(
                order.to_item().localized(locale).with_english_region(&state.segments.table()),
            )));
        }
    }
    let item = visible_order(&state, &admin, request.order_id)
        .await?
        .to_item()
        .localized(locale)
        .with_english_region(&state.segments.table());
    if let Some(request) = &idempotency {
        request.store_answer(&mut *state.db.pool.acquire().await?, admin.user_id, &item).await?;
    }
    Ok(ApiOk(Replayable::Fresh(item)))
}

/// The most orders one resolveMany call decides.
pub const MAX_RESOLVE_MANY: usize = 100;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveManyItem {
    pub order_id: i64,
    /// Required for `success`: this order's own serial number.
    pub serial_no: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResolveManyRequest {
    /// `success` or `failure` (failure refunds each order's price to its merchant).
    #[schema(pattern = "^(success|failure)$")]
    pub result: String,
    /// The reason, for every order of the call (at most 200 characters).
    pub reason: Option<String>,
    /// 1 to 100 orders.
    #[schema(min_items = 1, max_items = 100)]
    pub items: Vec<ResolveManyItem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResolveRefusal {
    pub order_id: i64,
    /// Why this order was not changed, in the request's language.
    pub msg: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ResolveManyResponse {
    /// Orders finished by this call.
    pub resolved: Vec<i64>,
    /// Orders left as they were, with the reason (already finished, unknown, no serial number,
    /// a card-secret order marked success).
    pub refused: Vec<ResolveRefusal>,
}

/// Administrators: finish several orders awaiting a person with one decision, each in its
/// own transaction through the same path as `resolve`. Retrying is safe: an order already
/// finished is refused (`order.not_resolvable`) and nothing moves twice.
///
/// With an `Idempotency-Key` a retry also answers what the first call answered. The key is
/// claimed first (on its own: the orders are decided in one transaction each), and each
/// order's decision claims a part of it in that order's transaction. A retry after a
/// complete call replays the stored answer; a retry after a call cut short (or one running
/// at the same time) decides again, and an order a part of the key already decided counts
/// as resolved: the same answer, nothing moved twice.
#[utoipa::path(post, path = "/adminapi/admin/order/resolveMany", tag = "admin", request_body = ResolveManyRequest,
    responses((status = 200, description = "`data` is a ResolveManyResponse (with a repeated `Idempotency-Key`: the first call's answer)", body = ResolveManyResponse),
        (status = 400, description = "40000: result invalid, or no items or more than 100"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn resolve_many(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    IdempotentJson(request, idempotency): IdempotentJson<ResolveManyRequest>,
) -> ApiResult<Replayable<ResolveManyResponse>> {
    let locale = Locale::from_headers(&headers);
    if request.items.is_empty() || request.items.len() > MAX_RESOLVE_MANY {
        return Err(AppError::field("items", TradeMessage::BatchTooLarge { max: MAX_RESOLVE_MANY }));
    }
    if !matches!(request.result.as_str(), "success" | "failure") {
        return Err(AppError::field("result", TradeMessage::InvalidChoice { allowed: "success, failure" }));
    }
    crate::identity::step_up::require(&state, &admin).await?;
    if let Some(key) = &idempotency {
        match key.claim(&mut *state.db.pool.acquire().await?, admin.user_id).await? {
            Claim::Mismatch => return Err(AppError::IdempotencyKeyReused),
            Claim::Replay(Some(answer)) => return Ok(ApiOk(Replayable::Replayed(answer))),
            Claim::Fresh | Claim::Replay(None) => {}
        }
    }
    let address = address.to_string();
    let mut answer = ResolveManyResponse { resolved: Vec::new(), refused: Vec::new() };
    for item in request.items {
        let refused = |message: crate::i18n::Message| ResolveRefusal {
            order_id: item.order_id,
            msg: message.text(locale).into_owned(),
        };
        let decision = match Decision::parse(&request.result, item.serial_no.clone(), request.reason.clone()) {
            Ok(decision) => decision,
            Err(AppError::Validation(fields)) => {
                answer.refused.push(refused(fields[0].message.clone()));
                continue;
            }
            Err(other) => return Err(other),
        };
        let part = idempotency.as_ref().map(|key| key.part(&format!("order:{}", item.order_id)));
        let key = part.as_ref().map(|part| (part, admin.user_id));
        let decided = match decide(&state, &admin, &address, item.order_id, decision, key).await {
            // A card-secret order marked success: refused, as in `resolve`.
            Err(AppError::Conflict(message)) => {
                answer.refused.push(refused(message));
                continue;
            }
            decided => decided?,
        };
        match decided {
            // Decided now, or by an earlier try of this very call.
            Ok(true) | Err(Claim::Replay(_)) => answer.resolved.push(item.order_id),
            _ => answer.refused.push(refused(TradeMessage::OrderNotResolvable.into())),
        }
    }
    if let Some(key) = &idempotency {
        key.store_answer(&mut *state.db.pool.acquire().await?, admin.user_id, &answer).await?;
    }
    Ok(ApiOk(Replayable::Fresh(answer)))
}

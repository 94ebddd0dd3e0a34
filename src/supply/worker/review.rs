//! The manual review queue's two actions that go to the channels, for administrators:
//!
//! - `/adminapi/admin/order/querySupplier`: asks the supplier of the order's open attempt
//!   where it stands, through the worker's own look at an attempt ([`requery`]), and the
//!   answer settles the order as it would for the worker: a success succeeds it, a
//!   definite failure sends it on to the next channel (or refunds it when none is left),
//!   anything else leaves it in review, with the supplier's answer in words.
//! - `/adminapi/admin/order/sendToChannel`: hands an order in review that has no open
//!   attempt to a channel now (the worker's routing, or the administrator's choice among
//!   its candidates), then submits it as the worker does ([`submit`]).
//!
//! They live with the worker because they are its steps, taken on a person's request;
//! both are audited and take an `Idempotency-Key`.

use super::{Claimed, Step, drive, release, requery, submit};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, IdempotentJson};
use crate::http::idempotency::{Claim, IdempotencyKeyHeader, IdempotentRequest, Replayable};
use crate::i18n::audit::AuditDetail;
use crate::i18n::{ChannelMessage, Locale, Message};
use crate::identity::session::{AdminUser, CurrentUser};
use crate::money::finance::ledger::Actor;
use crate::orders::lifecycle::reopen::{self, NewAttempt, Refusal};
use crate::orders::model::OrderItem;
use crate::orders::visible_order;
use crate::platform::audit;
use crate::platform::channel::attempts::{self, Attempt};
use crate::platform::channel::routing;
use crate::platform::config::millis;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use crate::supply::health;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::Row;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/admin/order/querySupplier", post(query_supplier))
        .route("/adminapi/admin/order/sendToChannel", post(send_to_channel))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct QuerySupplierRequest {
    pub order_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QuerySupplierAnswer {
    /// The order after the answer was applied.
    pub order: OrderItem,
    /// The queried attempt's outcome now: `success`, `failed`, `pending` or `unknown`.
    pub outcome: String,
    /// What the supplier answered, in the request's language.
    pub answer: String,
    /// The supplier's own words (a failure reason code, its status, or the error), as recorded.
    pub detail: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SendToChannelRequest {
    pub order_id: i64,
    /// One of the product's channels that can take the order now (the routing preview's
    /// candidates, less those this order already failed at); absent: routed as the worker routes.
    pub channel_id: Option<i64>,
}

/// The owner name of an administrator's call on the leases of orders and attempts.
fn owner_of(admin: &CurrentUser) -> String {
    format!("admin-{}-{}", admin.user_id, uuid::Uuid::new_v4().simple())
}

fn conflict(message: ChannelMessage) -> AppError {
    AppError::Conflict(message.into())
}

/// The order as the worker drives it, if it is one the worker drives (direct or card).
async fn load(state: &AppState, order_id: i64) -> Result<Option<Claimed>, sqlx::Error> {
    let sql = format!("SELECT {} FROM orders WHERE id = $1 AND order_kind IN (1, 2)", super::CLAIMED_COLUMNS);
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(order_id).fetch_optional(&state.db.pool).await?;
    row.as_ref().map(Claimed::from_row).transpose()
}

/// The order in review, as the worker drives it; 40900 otherwise.
async fn in_review(state: &AppState, admin: &CurrentUser, order_id: i64) -> Result<Claimed, AppError> {
    let order = visible_order(state, admin, order_id).await?;
    if order.status() != crate::domain::OrderStatus::ManualReview {
        return Err(conflict(ChannelMessage::OrderNotInReview));
    }
    load(state, order_id).await?.ok_or_else(|| conflict(ChannelMessage::OrderNotInReview))
}

/// An attempt as read again after its answer was applied.
async fn reread(state: &AppState, attempt_id: i64) -> Result<(String, String), sqlx::Error> {
    let row = sqlx::query("SELECT outcome, answer FROM order_attempts WHERE id = $1")
        .bind(attempt_id)
        .fetch_one(&state.db.pool)
        .await?;
    Ok((row.try_get(0)?, row.try_get(1)?))
}

/// The supplier's answer in words, from what the worker recorded on the attempt.
fn in_words(answer: &str) -> ChannelMessage {
    match answer {
        "success" => ChannelMessage::SupplierSucceeded,
        "failed" => ChannelMessage::SupplierFailed,
        "not_received" => ChannelMessage::SupplierNotReceived,
        "processing" => ChannelMessage::SupplierProcessing,
        _ => ChannelMessage::SupplierNoAnswer,
    }
}

/// The supplier's answer as one word, for the administrator's reply and the audit trail.
fn answer_of(outcome: &str, detail: &str) -> &'static str {
    match outcome {
        attempts::SUCCESS => "success",
        attempts::FAILED => "failed",
        attempts::PENDING if detail == "NotReceived" => "not_received",
        attempts::PENDING => "processing",
        _ => "no_answer",
    }
}

/// Administrators: ask the supplier of an order in review where its open attempt stands,
/// and settle the order from the answer as the worker would.
#[utoipa::path(post, path = "/adminapi/admin/order/querySupplier", tag = "admin", request_body = QuerySupplierRequest,
    responses((status = 200, description = "`data` is a QuerySupplierAnswer (with a repeated `Idempotency-Key`: the first call's answer)", body = QuerySupplierAnswer),
        (status = 404, description = "40400: no such order"),
        (status = 409, description = "40900: the order is not in manual review (`order.review.not_in_review`), has no attempt awaiting an answer (`order.query.no_open_attempt`), or is being asked about already (`order.query.busy`)"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn query_supplier(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    IdempotentJson(request, idempotency): IdempotentJson<QuerySupplierRequest>,
) -> ApiResult<Replayable<QuerySupplierAnswer>> {
    let locale = Locale::from_headers(&headers);
    let order_id = request.order_id;
    if let Some(key) = &idempotency {
        match earlier(&state, &admin, key).await? {
            Some(Some(answer)) => return Ok(ApiOk(Replayable::Replayed(answer))),
            // The first call is still asking: it answers; this one must not ask again.
            Some(None) => return Err(conflict(ChannelMessage::QueryBusy)),
            None => {}
        }
    }
    let claimed = in_review(&state, &admin, order_id).await?;
    let pool = &state.db.pool;
    let attempt = attempts::latest(pool, order_id).await?.filter(Attempt::unresolved);
    let attempt = attempt.ok_or_else(|| conflict(ChannelMessage::NoOpenAttempt))?;
    if let Some(key) = &idempotency {
        let mut transaction = state.db.begin_write().await?;
        let claim = key.claim(&mut transaction, admin.user_id).await?;
        transaction.commit().await?;
        if claim != Claim::Fresh {
            return Err(conflict(ChannelMessage::QueryBusy));
        }
    }
    let owner = owner_of(&admin);
    let lease_until = now_millis() + millis(state.config.worker.lease);
    if !attempts::claim(pool, attempt.id, &owner, lease_until).await? {
        return Err(conflict(ChannelMessage::QueryBusy));
    }
    let step = requery(&state, &claimed, &attempt, claimed.deadline_at).await.map_err(AppError::Internal)?;
    if let Step::Next = step {
        // A definite failure: nothing was topped up there, so the order goes on as the
        // worker would take it on: the next channel, or the refund when none is left.
        let actor = Actor::user(admin.user_id, &admin.username);
        let moved = reopen::reopen(
            &state,
            order_id,
            (&actor, reopen::note::FAILED_ON_QUERY),
            (&owner, lease_until),
            None,
            None,
        )
        .await?;
        if let Ok(reopened) = moved {
            let claimed = Claimed {
                status: crate::domain::OrderStatus::Processing,
                deadline_at: reopened.deadline_at,
                ..claimed
            };
            drive(&state, &owner, &claimed).await.map_err(AppError::Internal)?;
        }
    }
    let (outcome, detail) = reread(&state, attempt.id).await?;
    let word = answer_of(&outcome, &detail);
    let answer = Message::from(in_words(word)).text(locale).into_owned();
    let target = audit::target::order(order_id);
    let note = AuditDetail::SupplierQueried { attempt_no: attempt.attempt_no, answer: word.to_string() };
    audit::record_detail(
        pool,
        Some(admin.user_id),
        audit::action::ORDER_SUPPLIER_QUERIED,
        &target,
        &note,
        &address.to_string(),
    )
    .await?;
    let order = visible_order(&state, &admin, order_id)
        .await?
        .to_item()
        .localized(locale)
        .with_english_region(&state.segments.table());
    let reply = QuerySupplierAnswer { order, outcome, answer, detail };
    if let Some(key) = &idempotency {
        key.store_answer(&mut *pool.acquire().await?, admin.user_id, &reply).await?;
    }
    Ok(ApiOk(Replayable::Fresh(reply)))
}

/// Administrators: hand an order in review that no channel may still top up (never sent,
/// or every attempt definitely failed) to a channel now. Refused while an attempt is open.
#[utoipa::path(post, path = "/adminapi/admin/order/sendToChannel", tag = "admin", request_body = SendToChannelRequest,
    responses((status = 200, description = "`data` is the OrderItem after the hand-over (with a repeated `Idempotency-Key`: the first call's answer)", body = OrderItem),
        (status = 404, description = "40400: no such order"),
        (status = 409, description = "40900: the order is not in manual review (`order.review.not_in_review`), an attempt may still top it up (`order.send.attempt_open`), no channel can take it (`order.send.no_channel`), or the chosen one cannot (`order.send.channel_not_candidate`)"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn send_to_channel(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    IdempotentJson(request, idempotency): IdempotentJson<SendToChannelRequest>,
) -> ApiResult<Replayable<OrderItem>> {
    let locale = Locale::from_headers(&headers);
    let order_id = request.order_id;
    // A repeated call (whose first one moved the order): its answer, not a refusal.
    if let Some(key) = &idempotency
        && let Some(answer) = earlier(&state, &admin, key).await?
    {
        return replayed(&state, &admin, answer, order_id, locale).await;
    }
    let claimed = in_review(&state, &admin, order_id).await?;
    let pool = &state.db.pool;
    if attempts::has_open(&mut *pool.acquire().await?, order_id).await? {
        return Err(conflict(ChannelMessage::AttemptOpen));
    }
    let failed = attempts::failed_channels(pool, order_id).await?;
    let mut routes = routing::routes(pool, claimed.product_id, Some(order_id), &failed, now_millis()).await?;
    // A channel that does not cover the number's province is no candidate here either.
    routing::cover(&mut routes, super::number_of(&state, &claimed.order.account).and_then(|(_, province)| province));
    let route = match request.channel_id {
        Some(channel_id) => routes
            .iter()
            .find(|route| route.channel.id == channel_id && route.excluded.is_none())
            .ok_or_else(|| conflict(ChannelMessage::ChannelNotCandidate))?,
        None => routing::choose(&routes, rand::random::<f64>()).ok_or_else(|| conflict(ChannelMessage::NoChannel))?,
    };
    let probe = route.channel.probing(now_millis());
    if probe && !health::claim_probe(pool, route.channel.id, order_id).await? {
        return Err(conflict(ChannelMessage::ChannelNotCandidate));
    }
    let owner = owner_of(&admin);
    let lease_until = now_millis() + millis(state.config.worker.lease);
    let actor = Actor::user(admin.user_id, &admin.username);
    let new = NewAttempt { channel_id: route.channel.id, cost_fen: route.cost_fen, probe };
    let key = idempotency.as_ref().map(|request| (request, admin.user_id));
    let note = (&actor, reopen::note::SENT_BY_ADMIN);
    let reopened = match reopen::reopen(&state, order_id, note, (&owner, lease_until), Some(new), key).await? {
        Ok(reopened) => reopened,
        Err(Refusal::AttemptOpen) => return Err(conflict(ChannelMessage::AttemptOpen)),
        Err(Refusal::NotInReview) => return Err(conflict(ChannelMessage::OrderNotInReview)),
        Err(Refusal::Key(Claim::Mismatch)) => return Err(AppError::IdempotencyKeyReused),
        Err(Refusal::Key(Claim::Replay(answer))) => return replayed(&state, &admin, answer, order_id, locale).await,
        Err(Refusal::Key(Claim::Fresh)) => unreachable!("a fresh claim is not a refusal"),
    };
    let Some(attempt) = reopened.attempt else {
        return Err(AppError::Internal(anyhow::anyhow!("order {order_id} reopened without its attempt")));
    };
    let detail =
        AuditDetail::SentToChannel { attempt_no: attempt.attempt_no, channel_code: route.channel.code.clone() };
    let target = audit::target::order(order_id);
    audit::record_detail(
        pool,
        Some(admin.user_id),
        audit::action::ORDER_SENT_TO_CHANNEL,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    let claimed =
        Claimed { status: crate::domain::OrderStatus::Processing, deadline_at: reopened.deadline_at, ..claimed };
    let step = submit(&state, &claimed, &attempt, &route.channel, reopened.deadline_at).await;
    match step.map_err(AppError::Internal)? {
        // It failed there at once: the worker routes it on at its next look.
        Step::Next => release(&state, order_id).await.map_err(AppError::Internal)?,
        Step::Done => {}
    }
    let item = visible_order(&state, &admin, order_id)
        .await?
        .to_item()
        .localized(locale)
        .with_english_region(&state.segments.table());
    if let Some(request) = &idempotency {
        request.store_answer(&mut *pool.acquire().await?, admin.user_id, &item).await?;
    }
    Ok(ApiOk(Replayable::Fresh(item)))
}

/// What an earlier call under the same key left, looked up without keeping a claim:
/// `None` when the key is new; 42200 when it was used for another request.
async fn earlier(
    state: &AppState,
    admin: &CurrentUser,
    key: &IdempotentRequest,
) -> Result<Option<Option<Value>>, AppError> {
    // Claimed in a transaction that is never committed: a look, not a claim.
    let mut transaction = state.db.begin_write().await?;
    match key.claim(&mut transaction, admin.user_id).await? {
        Claim::Fresh => Ok(None),
        Claim::Mismatch => Err(AppError::IdempotencyKeyReused),
        Claim::Replay(answer) => Ok(Some(answer)),
    }
}

/// A repeated send: the first call's answer if stored, else (the first call still under
/// way) the order as it is.
async fn replayed(
    state: &AppState,
    admin: &CurrentUser,
    answer: Option<Value>,
    order_id: i64,
    locale: Locale,
) -> ApiResult<Replayable<OrderItem>> {
    match answer {
        Some(answer) => Ok(ApiOk(Replayable::Replayed(answer))),
        None => {
            let order = visible_order(state, admin, order_id).await?;
            Ok(ApiOk(Replayable::Fresh(order.to_item().localized(locale).with_english_region(&state.segments.table()))))
        }
    }
}

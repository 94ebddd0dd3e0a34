//! `POST /channel/callback/{channel_code}`: a supplier reports a result.
//!
//! The adapter checks the signature over the raw body; then the answer is applied like
//! the worker applies a query's answer, and just as idempotently: the attempt records a
//! final outcome once (`WHERE outcome IN ('pending', 'unknown')`), the order moves once
//! (`WHERE status = old`). Orders already in manual review are settled too: a late
//! success or definite failure is the answer a person would otherwise have to find.
//! A card order's "success" without its card is no result (platform/channel/deliverable.rs): it
//! is recorded as an unknown answer and settles nothing.
//! A reversal (冲正) of the attempt that fulfilled a successful order reverses the order and
//! refunds it once (`lifecycle::reverse`); of an attempt not settled as a success it is a
//! definite failure there, like `Failed`.

use super::health;
use super::settle;
use crate::domain::{OrderKind, OrderStatus};
use crate::http::error::{ApiOk, ApiResult, AppError, code};
use crate::i18n::ChannelMessage;
use crate::money::finance::ledger::Actor;
use crate::orders::lifecycle::{self, Outcome, Reporter};
use crate::platform::channel::attempts::{self, Attempt};
use crate::platform::channel::settling::{Settled, Success};
use crate::platform::channel::{CallbackError, ChannelStatus, deliverable, model};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::{Router, routing::post};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/channel/callback/{channel_code}", post(callback))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CallbackAnswer {
    /// Whether this callback changed the order (false for a duplicate or a late one).
    pub changed: bool,
}

/// A supplier's result callback. The body is the channel protocol's (docs/channels.md),
/// signed over the raw bytes; answered with the usual envelope.
#[utoipa::path(post, path = "/channel/callback/{channel_code}", tag = "channels",
    params(("channel_code" = String, Path, description = "The channel's code")),
    request_body(content = String, content_type = "application/json", description = "The protocol's result, signed in `X-Signature`"),
    responses(
        (status = 200, description = "`data` is a CallbackAnswer", body = CallbackAnswer),
        (status = 400, description = "40000: the result is malformed, or names no order of ours"),
        (status = 401, description = "40134: the signature does not match"),
        (status = 404, description = "40400: no such channel, or its protocol has no callbacks"),
    ))]
pub async fn callback(
    State(state): State<AppState>,
    Path(channel_code): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<CallbackAnswer> {
    crate::http::extract::path_text("channel_code", &channel_code)?;
    let pool = &state.db.pool;
    let channel = model::by_code(pool, &channel_code).await?.ok_or(AppError::NotFound)?;
    let adapter = state.channels.adapter(&channel)?;
    let report = adapter.verify_callback(&headers, &body).map_err(|error| match error {
        CallbackError::BadSignature => AppError::Refused {
            status: StatusCode::UNAUTHORIZED,
            code: code::API_SIGNATURE_WRONG,
            message: ChannelMessage::CallbackSignatureWrong.into(),
            retry_after_seconds: None,
        },
        CallbackError::Unsupported => AppError::NotFound,
        CallbackError::Malformed(_) => AppError::field("body", ChannelMessage::CallbackMalformed),
    })?;
    let attempt = attempts::by_upstream(pool, channel.id, &report.upstream_order_id)
        .await?
        .ok_or_else(|| AppError::field("upstream_order_id", ChannelMessage::CallbackOrderUnknown))?;
    let changed = settle(&state, &attempt, report.status).await?;
    Ok(ApiOk(CallbackAnswer { changed }))
}

/// Applies a channel's final answer about an attempt to the attempt and its order.
pub async fn settle(state: &AppState, attempt: &Attempt, status: ChannelStatus) -> anyhow::Result<bool> {
    let pool = &state.db.pool;
    // Only a success without a card needs the order's kind: one read, for those alone.
    if status.undelivered(true) && status.undelivered(is_card_order(pool, attempt.order_id).await?) {
        // The worker asks the channel at its next look; past the deadline a person decides.
        let reason = deliverable::undelivered_reason();
        if attempts::record(pool, attempt, attempts::UNKNOWN, reason, None).await? {
            health::unknown(state, attempt.channel_id).await?;
        }
        return Ok(false);
    }
    let status = match status {
        ChannelStatus::Reversed { reason } if attempt.outcome == attempts::SUCCESS && !attempt.probe => {
            return reverse(state, attempt, &reason).await;
        }
        ChannelStatus::Reversed { reason } => ChannelStatus::Failed { reason },
        other => other,
    };
    match status {
        // Settled together with the other callbacks waiting (settle.rs); a repeated one
        // for a settled order is answered from a read, without queueing for a write.
        ChannelStatus::Succeeded { serial_no, card } if !attempt.probe => {
            if attempt.outcome == attempts::SUCCESS {
                let status: Option<i64> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
                    .bind(attempt.order_id)
                    .fetch_optional(pool)
                    .await?;
                let open = status.and_then(OrderStatus::from_code);
                if !matches!(open, Some(OrderStatus::Processing | OrderStatus::ManualReview)) {
                    return Ok(false);
                }
            }
            let success = Success { attempt: attempt.clone(), serial_no, card };
            let settled = settle::settle_callback(state, success).await?;
            Ok(settled == Settled::Changed)
        }
        ChannelStatus::Succeeded { serial_no, card } => {
            if !health::record_success(state, attempt, &serial_no).await? {
                return Ok(false);
            }
            let outcome = Outcome::Success { serial_no: Some(serial_no), card };
            let fulfilled_by = (attempt.channel_id, attempt.cost_fen);
            Ok(lifecycle::finish_by_channel(state, attempt.order_id, outcome, fulfilled_by).await?)
        }
        ChannelStatus::Failed { reason } => {
            let recorded = attempts::record(pool, attempt, attempts::FAILED, &reason, None).await?;
            if recorded {
                health::resolved(state, attempt, false).await?;
                super::worker::learn_port(state, attempt, &reason).await?;
            }
            let status: Option<i64> = sqlx::query_scalar("SELECT status FROM orders WHERE id = $1")
                .bind(attempt.order_id)
                .fetch_optional(pool)
                .await?;
            match status.and_then(OrderStatus::from_code) {
                // Past its deadline: nothing was topped up there, and a person has not
                // decided yet, so the refund is safe and settles it; but only if this is
                // the order's live attempt. A failure repeated by a channel the order had
                // already left (a duplicate or slow callback) says nothing about the
                // channel that holds it now, which may still top it up.
                Some(OrderStatus::ManualReview) if is_latest(pool, attempt).await? => {
                    let outcome = Outcome::Failure { reason };
                    Ok(lifecycle::finish(state, attempt.order_id, outcome, Reporter::Channel, Actor::system()).await?)
                }
                // In flight: the worker routes it to the next channel at its next look.
                Some(OrderStatus::Processing) if recorded => {
                    sqlx::query(
                        "UPDATE orders SET lease_until = $1 WHERE id = $2 AND status = 1 AND lease_owner IS NULL",
                    )
                    .bind(now_millis())
                    .bind(attempt.order_id)
                    .execute(pool)
                    .await?;
                    Ok(true)
                }
                _ => Ok(false),
            }
        }
        ChannelStatus::Pending | ChannelStatus::NotReceived | ChannelStatus::Reversed { .. } => Ok(false),
    }
}

/// The supplier reversed a success it had reported: the order is reversed if this attempt
/// is what made it successful (its last one) and it still is; a repeat changes nothing.
async fn reverse(state: &AppState, attempt: &Attempt, reason: &str) -> anyhow::Result<bool> {
    if !is_latest(&state.db.pool, attempt).await? {
        return Ok(false);
    }
    let reason = if reason.trim().is_empty() { REVERSED_WITHOUT_REASON } else { reason };
    Ok(lifecycle::reverse::reverse(state, attempt.order_id, reason, lifecycle::reverse::ReversedBy::Supplier).await?)
}

/// The reason kept when a supplier reverses without saying why.
pub const REVERSED_WITHOUT_REASON: &str = "reversed by the supplier";

async fn is_card_order(pool: &sqlx::AnyPool, order_id: i64) -> Result<bool, sqlx::Error> {
    let kind: Option<i64> =
        sqlx::query_scalar("SELECT order_kind FROM orders WHERE id = $1").bind(order_id).fetch_optional(pool).await?;
    Ok(kind == Some(OrderKind::Card.code()))
}

/// Whether `attempt` is its order's last one (the worker opens a new attempt only after
/// the one before it definitely failed).
async fn is_latest(pool: &sqlx::AnyPool, attempt: &Attempt) -> Result<bool, sqlx::Error> {
    Ok(attempts::latest(pool, attempt.order_id).await?.is_some_and(|latest| latest.id == attempt.id))
}

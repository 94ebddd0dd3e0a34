//! The administrators' side: approve a pending request (a top-up through the ledger in the
//! approval's transaction, opened like every money call: step-up, `Idempotency-Key`) or
//! reject it with a reason. Both change only a pending request, so a second decision, a
//! replay without its key or a race with the merchant's withdrawal credits nothing.

use super::{APPROVED, FundingItem, MAX_REASON, PENDING, REJECTED, read_item};
use crate::domain::yuan;
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, IdempotentJson, JsonBody};
use crate::http::idempotency::{IdempotencyKeyHeader, Replayable};
use crate::i18n::audit::AuditDetail;
use crate::i18n::notices::Notice;
use crate::i18n::{FundingMessage, Message};
use crate::identity::session::AdminUser;
use crate::money::finance::admin::{Opened, open_money_call};
use crate::money::finance::alerts;
use crate::money::finance::ledger::{Actor, Ledger};
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct FundingApproval {
    pub id: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct FundingRejection {
    pub id: i64,
    /// Why, for the merchant: 1 to 200 characters.
    #[schema(pattern = r"\S")]
    pub reason: String,
}

/// The refusal of a decision on a request that is not pending (409) or not there (404).
async fn not_pending(state: &AppState, id: i64) -> AppError {
    match sqlx::query_scalar::<_, i64>("SELECT id FROM funding_requests WHERE id = $1")
        .bind(id)
        .fetch_optional(&state.db.pool)
        .await
    {
        Ok(Some(_)) => AppError::Conflict(FundingMessage::NotPending.into()),
        Ok(None) => AppError::NotFound,
        Err(error) => error.into(),
    }
}

/// Administrators: approve a pending request: its amount is added to the merchant's balance
/// (a top-up in the account log whose remark names the request and the transfer), the
/// request links to that record, the merchant's users are told. Two-factor step-up applies;
/// with an `Idempotency-Key` a repeated call answers the first one's result.
#[utoipa::path(post, path = "/adminapi/admin/funding/approve", tag = "funding", request_body = FundingApproval,
    responses((status = 200, description = "`data` is the approved FundingItem (with a repeated `Idempotency-Key`: the first call's answer, nothing moved)", body = FundingItem),
        (status = 403, description = "40300: not an administrator; 40340: confirm with a two-factor code first (step-up)"),
        (status = 404, description = "40400: no such request"),
        (status = 409, description = "40900: decided or withdrawn already (`funding.not_pending`); nothing credited"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn approve(
    State(state): State<AppState>,
    admin: AdminUser,
    ClientAddress(address): ClientAddress,
    IdempotentJson(request, idempotency): IdempotentJson<FundingApproval>,
) -> ApiResult<Replayable<FundingItem>> {
    let merchant_id: Option<i64> = sqlx::query_scalar("SELECT merchant_id FROM funding_requests WHERE id = $1")
        .bind(request.id)
        .fetch_optional(&state.db.pool)
        .await?;
    let merchant_id = merchant_id.ok_or(AppError::NotFound)?;
    let mut transaction = match open_money_call(&state, &admin, merchant_id, idempotency.as_ref()).await? {
        Opened::Fresh(transaction) => transaction,
        Opened::Replayed(answer) => return Ok(ApiOk(Replayable::Replayed(answer))),
    };
    let (user_id, now) = (admin.0.user_id, now_millis());
    // The state change guards the money: only the call that moves the request out of
    // pending credits it; any other finds no row and its transaction (key claim included)
    // rolls back.
    let decided: Option<(i64, String)> = sqlx::query_as(
        "UPDATE funding_requests SET status = $1, decided_by = $2, decided_at = $3, updated_at = $3
         WHERE id = $4 AND status = $5 RETURNING amount_fen, bank_reference",
    )
    .bind(APPROVED)
    .bind(user_id)
    .bind(now)
    .bind(request.id)
    .bind(PENDING)
    .fetch_optional(&mut *transaction)
    .await?;
    let Some((amount_fen, bank_reference)) = decided else {
        drop(transaction);
        return Err(not_pending(&state, request.id).await);
    };
    let remark = crate::i18n::funding::ledger_remark(request.id, &bank_reference);
    let mut ledger = Ledger::open(&mut transaction, merchant_id, Actor::user(user_id, &admin.0.username)).await?;
    ledger.top_up(amount_fen, &remark);
    ledger.flush(&mut transaction).await?;
    // The record just written: the account stays locked until the commit, and the remark
    // names this request, which is approved once.
    let log_id: i64 = sqlx::query_scalar(
        "SELECT id FROM account_log WHERE merchant_id = $1 AND change_type = 3 AND remark = $2 ORDER BY id DESC LIMIT 1",
    )
    .bind(merchant_id)
    .bind(&remark)
    .fetch_one(&mut *transaction)
    .await?;
    sqlx::query("UPDATE funding_requests SET ledger_log_id = $1 WHERE id = $2")
        .bind(log_id)
        .bind(request.id)
        .execute(&mut *transaction)
        .await?;
    let reference = bank_reference.clone();
    let detail = AuditDetail::FundingRequest {
        request_id: request.id,
        step: "approved".into(),
        amount_fen,
        bank_reference,
        reason: None,
    };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(user_id),
        action::FUNDING_APPROVED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    let notice = Notice::FundingApprovedDetail { id: request.id, amount: yuan(amount_fen), reference };
    alerts::funding_decided(&mut transaction, merchant_id, true, notice).await?;
    let item = read_item(&mut *transaction, request.id).await?.ok_or(AppError::NotFound)?;
    if let Some(key) = &idempotency {
        key.store_answer(&mut transaction, user_id, &item).await?;
    }
    transaction.commit().await?;
    Ok(ApiOk(Replayable::Fresh(item)))
}

/// Administrators: reject a pending request with a reason the merchant's users are told.
#[utoipa::path(post, path = "/adminapi/admin/funding/reject", tag = "funding", request_body = FundingRejection,
    responses((status = 200, description = "`data` is the rejected FundingItem", body = FundingItem),
        (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such request"),
        (status = 409, description = "40900: decided or withdrawn already (`funding.not_pending`)"),
        (status = 422, description = "40000 on `reason`: blank or longer than 200 characters (`funding.reason.required`)")),
    security(("token" = [])))]
pub async fn reject(
    State(state): State<AppState>,
    admin: AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<FundingRejection>,
) -> ApiResult<FundingItem> {
    let reason = request.reason.trim().to_string();
    if reason.contains('\0') {
        return Err(AppError::field("reason", Message::NulCharacter));
    }
    if reason.is_empty() || reason.chars().count() > MAX_REASON {
        return Err(AppError::unprocessable("reason", FundingMessage::ReasonRequired { max: MAX_REASON }));
    }
    let (user_id, now) = (admin.0.user_id, now_millis());
    let mut transaction = state.db.begin_write().await?;
    let decided: Option<(i64, i64, String)> = sqlx::query_as(
        "UPDATE funding_requests SET status = $1, reason = $2, decided_by = $3, decided_at = $4, updated_at = $4
         WHERE id = $5 AND status = $6 RETURNING merchant_id, amount_fen, bank_reference",
    )
    .bind(REJECTED)
    .bind(&reason)
    .bind(user_id)
    .bind(now)
    .bind(request.id)
    .bind(PENDING)
    .fetch_optional(&mut *transaction)
    .await?;
    let Some((merchant_id, amount_fen, bank_reference)) = decided else {
        drop(transaction);
        return Err(not_pending(&state, request.id).await);
    };
    let notice = Notice::FundingRejectedDetail {
        id: request.id,
        amount: yuan(amount_fen),
        reference: bank_reference.clone(),
        reason: reason.clone(),
    };
    let detail = AuditDetail::FundingRequest {
        request_id: request.id,
        step: "rejected".into(),
        amount_fen,
        bank_reference,
        reason: Some(reason),
    };
    let target = audit::target::merchant(merchant_id);
    audit::record_detail(
        &mut *transaction,
        Some(user_id),
        action::FUNDING_REJECTED,
        &target,
        &detail,
        &address.to_string(),
    )
    .await?;
    alerts::funding_decided(&mut transaction, merchant_id, false, notice).await?;
    transaction.commit().await?;
    super::answer(&state, request.id).await
}

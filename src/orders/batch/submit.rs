//! Submitting a previewed batch (its lines are placed by `place`), and the batch list.

use super::place::{Placing, place_waiting};
use super::summary::{BatchSummary, COLUMNS, batch_of, summaries_sql, summary};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{IdempotentJson, JsonBody};
use crate::http::idempotency::{Claim, IdempotencyKeyHeader};
use crate::http::pagination::PageNumber;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::money::finance::ledger::Actor;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct SubmitRequest {
    pub batch_id: i64,
}

/// Place the valid lines of a previewed batch as orders. A submitted batch is refused
/// (40900 `batch.submitted`), except for a repeat of the submit that placed it, with its
/// `Idempotency-Key`: that answers the summary again and places nothing (a double click, a
/// lost answer). Used again for another batch the key is refused, as on every money call.
#[utoipa::path(post, path = "/adminapi/order/batch/submit", tag = "order", request_body = SubmitRequest,
    responses((status = 200, description = "`data` is a BatchSummary", body = BatchSummary),
        (status = 404, description = "40400: no such batch (`batch.not_found`: discarded, expired, or never yours)"),
        (status = 409, description = "40900: the preview has expired (`batch.expired`), or the batch was submitted already (`batch.submitted`)"),
        (status = 422, description = "42200: the `Idempotency-Key` was used for a different request")),
    params(IdempotencyKeyHeader), security(("token" = [])))]
pub async fn submit(
    State(state): State<AppState>,
    caller: CurrentUser,
    IdempotentJson(request, idempotency): IdempotentJson<SubmitRequest>,
) -> ApiResult<BatchSummary> {
    let batch = batch_of(&state, &caller, request.batch_id).await?;
    // The batch's own state makes a repeated submit place nothing; the key tells a repeat of
    // the submit that placed the batch (answered again) from a new one (refused), and its
    // reuse for another batch is refused, as on the other money calls.
    let repeat = match &idempotency {
        Some(key) => {
            let mut transaction = state.db.begin_write().await?;
            let claim = key.claim(&mut transaction, caller.user_id).await?;
            transaction.commit().await?;
            match claim {
                Claim::Mismatch => return Err(AppError::IdempotencyKeyReused),
                Claim::Replay(_) => true,
                Claim::Fresh => false,
            }
        }
        None => false,
    };
    if batch.status == 1 {
        return if repeat { Ok(ApiOk(batch)) } else { Err(AppError::Conflict(TradeMessage::BatchSubmitted.into())) };
    }
    crate::money::finance::ensure_merchant_enabled(&state.db.pool, batch.merchant_id).await?;
    let created_at: i64 = sqlx::query_scalar("SELECT created_at FROM order_batches WHERE id = $1")
        .bind(batch.batch_id)
        .fetch_one(&state.db.pool)
        .await?;
    super::lifecycle::check_not_expired(&state, batch.batch_id, batch.status, created_at).await?;
    let actor = Actor::user(caller.user_id, &caller.username);
    let balance_before = crate::money::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    let placing =
        Placing { batch_id: batch.batch_id, merchant_id: batch.merchant_id, total_fen: batch.total_fen, actor };
    place_waiting(&state, &placing).await?;
    let balance_after = crate::money::finance::ledger::balance_of(&state.db.pool, batch.merchant_id).await?;
    crate::money::finance::alerts::low_balance_after_debit(&state, batch.merchant_id, balance_before, balance_after)
        .await;
    // Every valid line is now placed or refused (place_waiting finished each range, whole),
    // so the placed are the valid less the refused: counting the batch's orders instead read
    // each of them (100,000 on PostgreSQL: 20-60 ms of a 3 s submit).
    sqlx::query(
        "UPDATE order_batches SET status = 1, submitted_at = COALESCE(submitted_at, $2),
         placed_rows = valid_rows - refused.count, failed_rows = refused.count
         FROM (SELECT COUNT(*) AS count FROM order_batch_rows WHERE batch_id = $1 AND outcome = 3) AS refused
         WHERE id = $1",
    )
    .bind(batch.batch_id)
    .bind(now_millis())
    .execute(&state.db.pool)
    .await?;
    // Orders that finished while the submit was still placing others found the batch not
    // yet submitted: if they were the last, the batch is finished now.
    let mut transaction = state.db.begin_write().await?;
    super::notice::tell_if_finished(&mut transaction, batch.batch_id).await?;
    transaction.commit().await?;
    Ok(ApiOk(batch_of(&state, &caller, batch.batch_id).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BatchListRequest {
    /// Administrators: one merchant (omit for all). Merchants: omit.
    pub merchant_id: Option<i64>,
    #[serde(flatten)]
    pub paging: PageNumber,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchListResponse {
    pub list: Vec<BatchSummary>,
    pub total: i64,
}

/// Batches, newest first, with their counts and their orders' outcomes (one statement a page).
#[utoipa::path(post, path = "/adminapi/order/batch/list", tag = "order", request_body = BatchListRequest,
    responses((status = 200, description = "`data` is a BatchListResponse", body = BatchListResponse)), security(("token" = [])))]
pub async fn list(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<BatchListRequest>,
) -> ApiResult<BatchListResponse> {
    let scope = caller.scope(request.merchant_id)?;
    let page = request.paging.checked()?;
    let filter = "WHERE ($1 = 0 OR merchant_id = $1)";
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM order_batches {filter}")))
        .bind(scope.unwrap_or(0))
        .fetch_one(&state.db.pool)
        .await?;
    let sql = summaries_sql(&format!("{COLUMNS} {filter} ORDER BY id DESC LIMIT $2 OFFSET $3"));
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(scope.unwrap_or(0))
        .bind(page.page_size)
        .bind(page.offset())
        .fetch_all(&state.db.pool)
        .await?;
    let list = rows.iter().map(summary).collect::<Result<Vec<_>, _>>()?;
    Ok(ApiOk(BatchListResponse { list, total }))
}

//! What happens to a batch besides preview and submit: a preview nobody submits expires
//! after a day (removed at the next preview), the merchant can discard one at once, and a
//! preview warns about lines without a merchant order id whose account and product were
//! ordered within the day (pasted twice, they would be placed twice).

use super::summary::{PREVIEW_LIFETIME_MS, batch_of};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::JsonBody;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::platform::db::now_millis;
use crate::platform::sql::{Bind, bind_all};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::collections::HashMap;
use utoipa::ToSchema;

/// Lines without a merchant order id are compared with orders this recent.
const RECENT_MS: i64 = 24 * 60 * 60 * 1000;

/// A batch none of whose lines was placed (an order names it, its range is placed) or
/// refused yet.
const UNTOUCHED: &str = "NOT EXISTS (SELECT 1 FROM orders o WHERE o.batch_id = b.id)
     AND NOT EXISTS (SELECT 1 FROM order_batch_ranges g WHERE g.batch_id = b.id AND g.placed = 1)
     AND NOT EXISTS (SELECT 1 FROM order_batch_rows r WHERE r.batch_id = b.id AND r.outcome IN (2, 3))";

/// Whether no line of the batch was placed or refused yet (a submit interrupted half-way
/// leaves placed lines: that batch is finished by submitting again, never removed).
async fn untouched(state: &AppState, batch_id: i64) -> Result<bool, sqlx::Error> {
    let sql = format!("SELECT COUNT(*) FROM order_batches b WHERE b.id = $1 AND {UNTOUCHED}");
    let untouched: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(batch_id).fetch_one(&state.db.pool).await?;
    Ok(untouched == 1)
}

async fn remove(state: &AppState, batch_ids: &[i64]) -> Result<(), sqlx::Error> {
    let mut transaction = state.db.begin_write().await?;
    for batch_id in batch_ids {
        for sql in [
            "DELETE FROM order_batch_rows WHERE batch_id = $1",
            "DELETE FROM order_batch_ranges WHERE batch_id = $1",
            "DELETE FROM order_batches WHERE id = $1 AND status = 0",
        ] {
            sqlx::query(sql).bind(batch_id).execute(&mut *transaction).await?;
        }
    }
    transaction.commit().await
}

/// Removes the merchant's expired previews (untouched ones only).
pub async fn remove_expired(state: &AppState, merchant_id: i64) -> Result<(), sqlx::Error> {
    let sql = format!(
        "SELECT b.id FROM order_batches b WHERE b.merchant_id = $1 AND b.status = 0 AND b.created_at < $2
         AND {UNTOUCHED} LIMIT 100"
    );
    let expired: Vec<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(merchant_id)
        .bind(now_millis() - PREVIEW_LIFETIME_MS)
        .fetch_all(&state.db.pool)
        .await?;
    if !expired.is_empty() {
        remove(state, &expired).await?;
    }
    Ok(())
}

/// Refuses to submit a preview that has expired (and was not half-submitted).
pub async fn check_not_expired(state: &AppState, batch_id: i64, status: i64, created_at: i64) -> Result<(), AppError> {
    if status == 0 && created_at + PREVIEW_LIFETIME_MS < now_millis() && untouched(state, batch_id).await? {
        return Err(AppError::Conflict(TradeMessage::BatchExpired.into()));
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DiscardRequest {
    pub batch_id: i64,
}

/// Discard a previewed batch: it and its lines are removed. A submitted batch (or one
/// whose submit placed lines already) is kept: 40900 `batch.not_discardable`.
#[utoipa::path(post, path = "/adminapi/order/batch/discard", tag = "order", request_body = DiscardRequest,
    responses((status = 200, description = "`data` is null"), (status = 404, description = "40400: no such batch"),
        (status = 409, description = "40900: submitted already")),
    security(("token" = [])))]
pub async fn discard(
    State(state): State<AppState>,
    caller: CurrentUser,
    JsonBody(request): JsonBody<DiscardRequest>,
) -> ApiResult<()> {
    let batch = batch_of(&state, &caller, request.batch_id).await?;
    if batch.status != 0 || !untouched(&state, batch.batch_id).await? {
        return Err(AppError::Conflict(TradeMessage::BatchNotDiscardable.into()));
    }
    remove(&state, &[batch.batch_id]).await?;
    Ok(ApiOk(()))
}

/// A valid line without a merchant order id whose account and product were ordered lately,
/// or were on an earlier line of the same file without an id (a list pasted twice).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RecentDuplicate {
    pub line_no: i64,
    pub account: String,
    pub product_key: String,
    /// The latest such order placed within the day (null: none, the line repeats the file).
    pub order_no: Option<String>,
    pub ordered_at: Option<String>,
    /// The first line of this file with the same account and product (null: none).
    pub repeats_line_no: Option<i64>,
}

/// The latest order (number, time) per (account, product key) among `accounts`, placed
/// by the merchant within the last day.
pub async fn recent_orders(
    state: &AppState,
    merchant_id: i64,
    accounts: &[String],
) -> Result<HashMap<(String, String), (String, i64)>, sqlx::Error> {
    let mut latest: HashMap<(String, String), (String, i64)> = HashMap::new();
    let since = now_millis() - RECENT_MS;
    for chunk in accounts.chunks(1_000) {
        let placeholders = (0..chunk.len()).map(|index| format!("${}", index + 3)).collect::<Vec<_>>().join(", ");
        let sql = format!(
            "SELECT account, product_key, order_no, created_at FROM orders
             WHERE merchant_id = $1 AND created_at >= $2 AND account IN ({placeholders})"
        );
        let mut binds = vec![Bind::Int(merchant_id), Bind::Int(since)];
        binds.extend(chunk.iter().cloned().map(Bind::Text));
        for row in bind_all(sqlx::query(sqlx::AssertSqlSafe(sql)), binds).fetch_all(&state.db.pool).await? {
            let key = (row.try_get::<String, _>(0)?, row.try_get::<String, _>(1)?);
            let (order_no, created_at): (String, i64) = (row.try_get(2)?, row.try_get(3)?);
            if latest.get(&key).is_none_or(|(_, at)| *at < created_at) {
                latest.insert(key, (order_no, created_at));
            }
        }
    }
    Ok(latest)
}

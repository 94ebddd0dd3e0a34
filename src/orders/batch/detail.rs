//! A stored preview read back by its batch id: the same answer the preview gave (totals,
//! invalid lines with their reasons, the lines repeating a recent order or an earlier line),
//! with the batch's state, so a person who left the page (or reloaded it) can reopen the
//! preview from the batch list and submit it.

use super::summary::{BatchSummary, batch_of};
use super::{Flagged, PREVIEW_ERRORS, PreviewResponse, outcome, preview_error};
use crate::http::error::{ApiOk, ApiResult};
use crate::http::extract::JsonBody;
use crate::i18n::{Locale, TradeMessage};
use crate::identity::session::CurrentUser;
use crate::money::finance::read_account;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct DetailRequest {
    pub batch_id: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchDetail {
    /// The batch as the list shows it: its state (0 previewed, 1 submitted), counts and the
    /// outcomes of its orders.
    pub batch: BatchSummary,
    /// The preview as it was answered; `spendable_fen` is the balance plus available credit
    /// now. `expires_at` in the past: the preview can no longer be submitted.
    pub preview: PreviewResponse,
}

/// Read a batch's preview back (the caller's own batch; administrators any). Answered for a
/// submitted batch too, whose `batch.status` is 1: submitting it again is refused.
#[utoipa::path(post, path = "/adminapi/order/batch/detail", tag = "order", request_body = DetailRequest,
    responses((status = 200, description = "`data` is a BatchDetail", body = BatchDetail),
        (status = 404, description = "40400: no such batch (`batch.not_found`: discarded, expired, or never yours)")),
    security(("token" = [])))]
pub async fn detail(
    State(state): State<AppState>,
    caller: CurrentUser,
    headers: HeaderMap,
    JsonBody(request): JsonBody<DetailRequest>,
) -> ApiResult<BatchDetail> {
    let locale = Locale::from_headers(&headers);
    let batch = batch_of(&state, &caller, request.batch_id).await?;
    let (created_at, flagged): (i64, Option<String>) =
        sqlx::query_as("SELECT created_at, duplicates FROM order_batches WHERE id = $1")
            .bind(batch.batch_id)
            .fetch_one(&state.db.pool)
            .await?;
    // Batches previewed before the warnings were stored have none to show.
    let flagged: Flagged = flagged.as_deref().and_then(|text| serde_json::from_str(text).ok()).unwrap_or_default();
    let rows = sqlx::query(
        "SELECT line_no, account, product_key, merchant_order_id, reason FROM order_batch_rows
         WHERE batch_id = $1 AND outcome = $2 ORDER BY line_no LIMIT $3",
    )
    .bind(batch.batch_id)
    .bind(outcome::INVALID)
    .bind(PREVIEW_ERRORS as i64)
    .fetch_all(&state.db.pool)
    .await?;
    let mut errors = Vec::with_capacity(rows.len());
    for row in &rows {
        let stored: String = row.try_get(4)?;
        let key = stored.split('|').next().unwrap_or_default().to_string();
        let (account, product_key, merchant_order_id): (String, String, String) =
            (row.try_get(1)?, row.try_get(2)?, row.try_get(3)?);
        let line = (row.try_get(0)?, account.as_str(), product_key.as_str(), merchant_order_id.as_str());
        errors.push(preview_error(line, key, TradeMessage::from_stored(&stored), locale));
    }
    let spendable_fen = read_account(&state.db.pool, batch.merchant_id).await?.spendable();
    let preview = PreviewResponse {
        batch_id: batch.batch_id,
        total_rows: batch.total_rows,
        valid_rows: batch.valid_rows,
        invalid_rows: batch.invalid_rows,
        total_fen: batch.total_fen,
        spendable_fen,
        errors,
        recent_duplicates: flagged.lines,
        recent_duplicate_rows: flagged.rows,
        expires_at: millis_to_rfc3339(created_at + super::summary::PREVIEW_LIFETIME_MS),
    };
    Ok(ApiOk(BatchDetail { batch, preview }))
}

//! A batch as its owner sees it: its counts by outcome, read with the batch in one statement,
//! and when an unsubmitted preview expires.

use crate::http::error::AppError;
use crate::i18n::TradeMessage;
use crate::identity::session::CurrentUser;
use crate::platform::db::millis_to_rfc3339;
use crate::platform::state::AppState;
use serde::Serialize;
use sqlx::Row;
use utoipa::ToSchema;

/// A preview not submitted within this long expires.
pub const PREVIEW_LIFETIME_MS: i64 = 24 * 60 * 60 * 1000;

/// When a batch in `status` created at `created_at` expires: only an unsubmitted preview does.
pub fn expires_at(status: i64, created_at: i64) -> Option<String> {
    (status == 0).then(|| millis_to_rfc3339(created_at + PREVIEW_LIFETIME_MS))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BatchSummary {
    pub batch_id: i64,
    pub merchant_id: i64,
    pub file_name: String,
    /// 0 previewed (not submitted), 1 submitted
    pub status: i64,
    pub total_rows: i64,
    pub valid_rows: i64,
    pub invalid_rows: i64,
    /// Lines placed as orders (the batch's orders, counted as of this answer).
    pub placed_rows: i64,
    /// Valid at preview, refused at submit (funds, quote switched off, id used meanwhile).
    pub failed_rows: i64,
    /// Lines not placed for a reason: invalid at preview plus refused at submit.
    pub refused_rows: i64,
    /// Of the placed orders: succeeded, failed, and still in progress (pending, with a
    /// channel or in manual review), as of this answer.
    pub succeeded_orders: i64,
    pub failed_orders: i64,
    pub in_progress_orders: i64,
    /// What the valid lines cost at preview, fen.
    pub total_fen: i64,
    pub created_at: String,
    pub submitted_at: Option<String>,
    /// A preview not submitted by then is removed (null once submitted).
    pub expires_at: Option<String>,
}

/// Batches chosen by `page` (a query of `order_batches` naming the columns below), each with
/// its orders counted by outcome in the same statement: one statement for a whole page,
/// whose count reads the batch index, which carries the status (migration 0026).
pub(super) fn summaries_sql(page: &str) -> String {
    format!(
        "WITH page AS ({page})
         SELECT p.id, p.merchant_id, p.file_name, p.status, p.total_rows, p.valid_rows, p.failed_rows, p.total_fen,
                p.created_at, p.submitted_at, COALESCE(o.placed, 0), COALESCE(o.succeeded, 0), COALESCE(o.failed, 0)
         FROM page p LEFT JOIN (
             SELECT batch_id, COUNT(*) AS placed, COUNT(CASE WHEN status = 2 THEN 1 END) AS succeeded,
                    COUNT(CASE WHEN status = 3 THEN 1 END) AS failed
             FROM orders WHERE batch_id IN (SELECT id FROM page) GROUP BY batch_id
         ) o ON o.batch_id = p.id
         ORDER BY p.id DESC"
    )
}

pub(super) const COLUMNS: &str =
    "SELECT id, merchant_id, file_name, status, total_rows, valid_rows, failed_rows, total_fen, created_at, submitted_at
     FROM order_batches";

pub(super) fn summary(row: &sqlx::any::AnyRow) -> Result<BatchSummary, sqlx::Error> {
    let total: i64 = row.try_get(4)?;
    let valid: i64 = row.try_get(5)?;
    let failed: i64 = row.try_get(6)?;
    let (status, created_at): (i64, i64) = (row.try_get(3)?, row.try_get(8)?);
    let (placed, succeeded, failed_orders): (i64, i64, i64) = (row.try_get(10)?, row.try_get(11)?, row.try_get(12)?);
    Ok(BatchSummary {
        batch_id: row.try_get(0)?,
        merchant_id: row.try_get(1)?,
        file_name: row.try_get(2)?,
        status,
        total_rows: total,
        valid_rows: valid,
        invalid_rows: total - valid,
        placed_rows: placed,
        failed_rows: failed,
        refused_rows: total - valid + failed,
        succeeded_orders: succeeded,
        failed_orders,
        in_progress_orders: placed - succeeded - failed_orders,
        total_fen: row.try_get(7)?,
        created_at: millis_to_rfc3339(created_at),
        submitted_at: row.try_get::<Option<i64>, _>(9)?.map(millis_to_rfc3339),
        expires_at: expires_at(status, created_at),
    })
}

/// A batch the caller may see; another merchant's is "not found".
pub async fn batch_of(state: &AppState, caller: &CurrentUser, batch_id: i64) -> Result<BatchSummary, AppError> {
    let sql = summaries_sql(&format!("{COLUMNS} WHERE id = $1"));
    let row = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(batch_id).fetch_optional(&state.db.pool).await?;
    // Discarded, expired and removed, or another merchant's: the same answer, which says
    // what may have happened without telling another merchant's batch from none.
    let gone = || AppError::Refused {
        status: axum::http::StatusCode::NOT_FOUND,
        code: crate::http::error::code::NOT_FOUND,
        message: TradeMessage::BatchNotFound.into(),
        retry_after_seconds: None,
    };
    let batch = row.as_ref().map(summary).transpose()?.ok_or_else(gone)?;
    if caller.scope(Some(batch.merchant_id)).is_err() {
        return Err(gone());
    }
    Ok(batch)
}

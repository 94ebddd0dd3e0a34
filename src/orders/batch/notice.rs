//! A batch is finished when it was submitted and every one of its orders reached a final
//! state (succeeded, or failed and refunded): its merchant then gets one notice with the
//! counts, written in the transaction that finished the last order (or, when the orders
//! finished before the submit did, in the submit's).

use crate::i18n::notices::Notice;
use crate::identity::user_centre::inbox::{Extras, Notification, notify_merchant_with};
use sqlx::AnyConnection;

/// The console's batch page.
const BATCH_PAGE: &str = "/order/allAddList";

/// Tells the merchant if batch `batch_id` is now finished. The batch's row is locked first,
/// so of two last orders finishing at once the second sees the first (and PostgreSQL's
/// next statement reads what committed meanwhile); the key writes one notice whatever runs twice.
pub async fn tell_if_finished(connection: &mut AnyConnection, batch_id: i64) -> Result<(), sqlx::Error> {
    let submitted = sqlx::query("UPDATE order_batches SET submitted_at = submitted_at WHERE id = $1 AND status = 1")
        .bind(batch_id)
        .execute(&mut *connection)
        .await?;
    if submitted.rows_affected() == 0 {
        return Ok(());
    }
    let unfinished: Option<i64> =
        sqlx::query_scalar("SELECT id FROM orders WHERE batch_id = $1 AND status IN (0, 1, 4) LIMIT 1")
            .bind(batch_id)
            .fetch_optional(&mut *connection)
            .await?;
    if unfinished.is_some() {
        return Ok(());
    }
    let (merchant_id, file_name, refused): (i64, String, i64) =
        sqlx::query_as("SELECT merchant_id, file_name, failed_rows FROM order_batches WHERE id = $1")
            .bind(batch_id)
            .fetch_one(&mut *connection)
            .await?;
    let (succeeded, failed): (Option<i64>, Option<i64>) = sqlx::query_as(
        "SELECT SUM(CASE WHEN status = 2 THEN 1 ELSE 0 END), SUM(CASE WHEN status = 3 THEN 1 ELSE 0 END)
         FROM orders WHERE batch_id = $1",
    )
    .bind(batch_id)
    .fetch_one(&mut *connection)
    .await?;
    let (succeeded, failed) = (succeeded.unwrap_or(0), failed.unwrap_or(0));
    let detail = Notice::BatchFinishedDetail { batch_id, file_name, succeeded, failed, refused };
    let (title, sub_title, content) = (Notice::BatchFinished.stored(), Notice::Batches.stored(), detail.stored());
    let level = if failed + refused == 0 { 1 } else { 2 };
    let notification = Notification::notice(&title, &sub_title, &content, level);
    let key = format!("batch_finished:{batch_id}");
    notify_merchant_with(connection, merchant_id, notification, Extras::new(BATCH_PAGE, Some(&key))).await
}

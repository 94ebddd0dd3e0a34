//! Writing notifications: an `order.finished` event goes into the outbox in the same
//! transaction that finished the order, so an order is never finished without its
//! notification nor notified without being finished, whatever crashes when.
//!
//! The destination is fixed when the row is written: the order's own notify URL, else
//! the profile notify URL of the merchant's first user that has one. With neither there
//! is nobody to tell and no row is written.

use crate::i18n::{Locale, failure_text};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use serde_json::json;
use sqlx::{AnyConnection, Row};

pub const ORDER_FINISHED: &str = "order.finished";
/// A success reversed afterwards (冲正): the order's status is `reversed`, its price refunded.
pub const ORDER_REVERSED: &str = "order.reversed";
pub const TEST_EVENT: &str = "test";

/// States of a notification, as stored.
pub mod state {
    pub const PENDING: i64 = 0;
    pub const DELIVERED: i64 = 1;
    pub const FAILED: i64 = 2;
    pub const EXHAUSTED: i64 = 3;
    pub const NAMES: [(i64, &str); 4] =
        [(PENDING, "pending"), (DELIVERED, "delivered"), (FAILED, "failed"), (EXHAUSTED, "exhausted")];

    pub fn name(code: i64) -> &'static str {
        NAMES.iter().find(|(value, _)| *value == code).map_or("pending", |(_, name)| name)
    }

    pub fn parse(text: &str) -> Option<i64> {
        NAMES.iter().find(|(_, name)| *name == text).map(|(value, _)| *value)
    }
}

/// A new event id: the body's `event_id` and the `webhook-id` header, the same on every
/// attempt, so a merchant can ignore a repeat.
pub fn new_event_id() -> String {
    format!("msg_{}", uuid::Uuid::now_v7().simple())
}

/// Writes the `order.finished` notification of an order that was just finished, inside
/// the caller's transaction. Returns whether a row was written (false: no notify URL).
pub async fn enqueue_order_finished(connection: &mut AnyConnection, order_id: i64) -> Result<bool, sqlx::Error> {
    enqueue_order_event(connection, order_id, ORDER_FINISHED).await
}

/// Writes the `order.reversed` notification of an order that was just reversed, inside
/// the caller's transaction: the `order.finished` body with the status `reversed`, the
/// reversal's time and reason.
pub async fn enqueue_order_reversed(connection: &mut AnyConnection, order_id: i64) -> Result<bool, sqlx::Error> {
    enqueue_order_event(connection, order_id, ORDER_REVERSED).await
}

async fn enqueue_order_event(connection: &mut AnyConnection, order_id: i64, event: &str) -> Result<bool, sqlx::Error> {
    let row = sqlx::query(
        "SELECT o.merchant_id, o.merchant_order_id, o.order_no, o.status, o.face_value_fen, o.price_fen, o.serial_no,
                o.finished_at, o.failure_reason,
                COALESCE(NULLIF(o.notify_url, ''),
                         (SELECT u.notify_url FROM users u WHERE u.merchant_id = o.merchant_id AND u.notify_url <> ''
                          ORDER BY u.id LIMIT 1)),
                o.reversed_at, o.reversal_reason
         FROM orders o WHERE o.id = $1",
    )
    .bind(order_id)
    .fetch_one(&mut *connection)
    .await?;
    let Some(url): Option<String> = row.try_get(9)? else { return Ok(false) };
    let status: i64 = row.try_get(3)?;
    let failure: Option<String> = row.try_get(8)?;
    let finished_at: Option<i64> = row.try_get(7)?;
    let event_id = new_event_id();
    let status_name = crate::domain::OrderStatus::from_code(status).map_or("failure", |known| known.name());
    let mut data = json!({
        "merchant_order_id": row.try_get::<String, _>(1)?,
        "order_no": row.try_get::<String, _>(2)?,
        "status": status_name,
        "face_value_fen": row.try_get::<i64, _>(4)?,
        "price_fen": row.try_get::<i64, _>(5)?,
        "serial_no": row.try_get::<Option<String>, _>(6)?,
        "finished_at": finished_at.map(millis_to_rfc3339),
        "failure_reason": failure.map(|stored| failure_text(&stored, Locale::EnUs)),
    });
    if event == ORDER_REVERSED {
        data["reversed_at"] = json!(row.try_get::<Option<i64>, _>(10)?.map(millis_to_rfc3339));
        data["reversal_reason"] = json!(row.try_get::<Option<String>, _>(11)?);
    }
    let body = json!({ "event_id": event_id, "type": event, "data": data });
    insert(&mut *connection, row.try_get(0)?, Some(order_id), event, &event_id, &url, &body.to_string()).await?;
    Ok(true)
}

/// Inserts a pending notification, due at once. Returns its id.
pub async fn insert(
    connection: &mut AnyConnection,
    merchant_id: i64,
    order_id: Option<i64>,
    event_type: &str,
    event_id: &str,
    url: &str,
    body: &str,
) -> Result<i64, sqlx::Error> {
    let now = now_millis();
    sqlx::query_scalar(
        "INSERT INTO notifications (event_id, merchant_id, order_id, event_type, url, body, state, attempts,
                                    next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, 0, $7, $7) RETURNING id",
    )
    .bind(event_id)
    .bind(merchant_id)
    .bind(order_id)
    .bind(event_type)
    .bind(url)
    .bind(body)
    .bind(now)
    .fetch_one(&mut *connection)
    .await
}

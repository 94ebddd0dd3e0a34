//! The audit trail: who did what, when and from where. Append-only.

use crate::db::now_millis;
use sqlx::AnyPool;

pub mod action {
    pub const LOGIN: &str = "login";
    pub const LOGIN_FAILED: &str = "login_failed";
    pub const LOGIN_THROTTLED: &str = "login_throttled";
    pub const LOGOUT: &str = "logout";
    pub const USER_CREATED: &str = "user_created";
    pub const CARD_SECRET_REVEALED: &str = "card_secret_revealed";
    pub const ORDER_RESOLVED: &str = "order_resolved";
}

/// Writes one event. `detail` is free text for people and must never hold a secret.
pub async fn record(
    pool: &AnyPool,
    user_id: Option<i64>,
    action: &str,
    detail: &str,
    client_address: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_events (user_id, action, detail, client_address, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(user_id)
    .bind(action)
    .bind(detail)
    .bind(client_address)
    .bind(now_millis())
    .execute(pool)
    .await?;
    Ok(())
}

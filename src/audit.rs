//! The audit trail: who did what, when and from where. Append-only.

use crate::db::now_millis;
use sqlx::AnyPool;

pub mod action {
    pub const LOGIN: &str = "login";
    pub const LOGIN_FAILED: &str = "login_failed";
    pub const LOGIN_THROTTLED: &str = "login_throttled";
    pub const LOGOUT: &str = "logout";
    pub const USER_CREATED: &str = "user_created";
    pub const PROFILE_CHANGED: &str = "profile_changed";
    pub const INTEGRATION_CHANGED: &str = "integration_changed";
    pub const PASSWORD_CHANGED: &str = "password_changed";
    pub const SECURITY_QUESTION_CHANGED: &str = "security_question_changed";
    pub const SECURITY_EMAIL_CHANGED: &str = "security_email_changed";
    pub const SECURITY_PHONE_CHANGED: &str = "security_phone_changed";
    pub const AVATAR_CHANGED: &str = "avatar_changed";
    pub const CERTIFICATION_SUBMITTED: &str = "certification_submitted";
    /// A business licence image attached to a certification under review.
    pub const CERTIFICATION_LICENCE_UPLOADED: &str = "certification_licence_uploaded";
    pub const CERTIFICATION_WITHDRAWN: &str = "certification_withdrawn";
    pub const CERTIFICATION_APPROVED: &str = "certification_approved";
    pub const CERTIFICATION_REJECTED: &str = "certification_rejected";
    /// The password was right; the sign-in waits for a two-factor code.
    pub const LOGIN_PENDING_TWO_FACTOR: &str = "login_pending_two_factor";
    pub const TWO_FACTOR_ENABLED: &str = "two_factor_enabled";
    pub const TWO_FACTOR_DISABLED: &str = "two_factor_disabled";
    /// An administrator turned off another user's two-factor; `detail` names the user.
    pub const TWO_FACTOR_RESET: &str = "two_factor_reset";
    pub const BACKUP_CODES_REGENERATED: &str = "backup_codes_regenerated";
    /// A backup code was spent; `detail` says on what (login, disable, regenerate).
    pub const BACKUP_CODE_USED: &str = "backup_code_used";
    /// A wrong two-factor code; `detail` says on what.
    pub const TWO_FACTOR_FAILED: &str = "two_factor_failed";
    /// A two-factor code refused unchecked because the user's codes are locked.
    pub const TWO_FACTOR_THROTTLED: &str = "two_factor_throttled";
    pub const CARD_SECRET_REVEALED: &str = "card_secret_revealed";
    pub const ORDER_RESOLVED: &str = "order_resolved";
    /// A quote created or changed; `detail` has the price and status before and after.
    pub const QUOTE_SAVED: &str = "quote_saved";
    /// A bulk rule applied to a merchant's quotes; `detail` has the rule and how many changed.
    pub const QUOTES_REPRICED: &str = "quotes_repriced";
    /// A price list imported for a merchant; `detail` has how many quotes changed.
    pub const QUOTES_IMPORTED: &str = "quotes_imported";
    /// The product catalogue: `target` is `product:<id>`, `detail` the fields before and after.
    pub const PRODUCT_CREATED: &str = "product_created";
    pub const PRODUCT_UPDATED: &str = "product_updated";
    pub const PRODUCT_DELETED: &str = "product_deleted";
    /// An open-API key created or revoked; `detail` names the key (never its secret).
    pub const API_KEY_CREATED: &str = "api_key_created";
    pub const API_KEY_REVOKED: &str = "api_key_revoked";
    /// An administrator switched a key's legacy MD5 signing on or off.
    pub const API_KEY_LEGACY_ON: &str = "api_key_legacy_on";
    pub const API_KEY_LEGACY_OFF: &str = "api_key_legacy_off";
    /// A merchant's webhook signing secret replaced (the secret is never in the detail).
    pub const WEBHOOK_SECRET_ROTATED: &str = "webhook_secret_rotated";
    /// Notifications sent again by hand; `detail` says which or how many.
    pub const NOTIFICATION_RESENT: &str = "notification_resent";
    /// A correct password for a user of a disabled merchant: no session was opened.
    pub const LOGIN_REFUSED_DISABLED: &str = "login_refused_disabled";
    pub const MERCHANT_CREATED: &str = "merchant_created";
    /// A merchant renamed; `detail` has the name before and after.
    pub const MERCHANT_UPDATED: &str = "merchant_updated";
    pub const MERCHANT_DISABLED: &str = "merchant_disabled";
    pub const MERCHANT_ENABLED: &str = "merchant_enabled";
    /// Another user added to an existing merchant.
    pub const MERCHANT_USER_ADDED: &str = "merchant_user_added";
    /// An administrator gave a user a temporary password (to be changed at next sign-in).
    pub const PASSWORD_RESET: &str = "password_reset";
}

/// What an audit row acted on, written `kind:id` so the audit page can filter by it.
pub mod target {
    pub fn merchant(merchant_id: i64) -> String {
        format!("merchant:{merchant_id}")
    }
    pub fn user(user_id: i64) -> String {
        format!("user:{user_id}")
    }
    pub fn order(order_id: i64) -> String {
        format!("order:{order_id}")
    }
}

/// Writes one event. `detail` is free text for people and must never hold a secret.
pub async fn record(
    pool: &AnyPool,
    user_id: Option<i64>,
    action: &str,
    detail: &str,
    client_address: &str,
) -> Result<(), sqlx::Error> {
    record_on(pool, user_id, action, "", detail, client_address).await
}

/// Writes one event about `target` (see [`target`]), on a pool or inside a transaction.
pub async fn record_on<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    executor: E,
    user_id: Option<i64>,
    action: &str,
    target: &str,
    detail: &str,
    client_address: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_events (user_id, action, target, detail, client_address, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(user_id)
    .bind(action)
    .bind(target)
    .bind(detail)
    .bind(client_address)
    .bind(now_millis())
    .execute(executor)
    .await?;
    Ok(())
}

//! The audit trail: who did what, when and from where. Append-only.

use crate::platform::db::now_millis;

pub mod action {
    /// Declares the action codes and [`ALL`], the list the audit page filters by.
    macro_rules! actions {
        ($($(#[$doc:meta])* $name:ident = $code:literal;)*) => {
            $($(#[$doc])* pub const $name: &str = $code;)*
            /// Every action code, in declaration order.
            pub const ALL: &[&str] = &[$($code),*];
        };
    }

    actions! {
        LOGIN = "login";
        LOGIN_FAILED = "login_failed";
        LOGIN_THROTTLED = "login_throttled";
        LOGOUT = "logout";
        USER_CREATED = "user_created";
        PROFILE_CHANGED = "profile_changed";
        INTEGRATION_CHANGED = "integration_changed";
        PASSWORD_CHANGED = "password_changed";
        SECURITY_QUESTION_CHANGED = "security_question_changed";
        SECURITY_EMAIL_CHANGED = "security_email_changed";
        SECURITY_PHONE_CHANGED = "security_phone_changed";
        AVATAR_CHANGED = "avatar_changed";
        CERTIFICATION_SUBMITTED = "certification_submitted";
        CERTIFICATION_WITHDRAWN = "certification_withdrawn";
        CERTIFICATION_APPROVED = "certification_approved";
        CERTIFICATION_REJECTED = "certification_rejected";
        /// The password was right; the sign-in waits for a two-factor code.
        LOGIN_PENDING_TWO_FACTOR = "login_pending_two_factor";
        TWO_FACTOR_ENABLED = "two_factor_enabled";
        TWO_FACTOR_DISABLED = "two_factor_disabled";
        /// An administrator turned off another user's two-factor; `detail` names the user.
        TWO_FACTOR_RESET = "two_factor_reset";
        BACKUP_CODES_REGENERATED = "backup_codes_regenerated";
        /// A backup code was spent; `detail` says on what (login, disable, regenerate).
        BACKUP_CODE_USED = "backup_code_used";
        /// A wrong two-factor code; `detail` says on what.
        TWO_FACTOR_FAILED = "two_factor_failed";
        /// A two-factor code refused unchecked because the user's codes are locked.
        TWO_FACTOR_THROTTLED = "two_factor_throttled";
        CARD_SECRET_REVEALED = "card_secret_revealed";
        /// Card secrets exported in an encrypted file; `detail` has how many orders and
        /// which selection or filter (never a secret, never the file's password).
        CARD_SECRETS_EXPORTED = "card_secrets_exported";
        ORDER_RESOLVED = "order_resolved";
        /// A successful order reversed (冲正) and refunded, by an administrator or on its
        /// supplier's report; `detail` has the order and the reason.
        ORDER_REVERSED = "order_reversed";
        /// An administrator asked an order's supplier where it stands; `detail` has the answer.
        ORDER_SUPPLIER_QUERIED = "order_supplier_queried";
        /// An administrator sent an order in review to a channel; `detail` names the channel.
        ORDER_SENT_TO_CHANNEL = "order_sent_to_channel";
        /// A quote created or changed; `detail` has the price and status before and after.
        QUOTE_SAVED = "quote_saved";
        /// An open-API key created or revoked; `detail` names the key (never its secret).
        API_KEY_CREATED = "api_key_created";
        API_KEY_REVOKED = "api_key_revoked";
        /// A merchant's webhook signing secret replaced (the secret is never in the detail).
        WEBHOOK_SECRET_ROTATED = "webhook_secret_rotated";
        /// Notifications sent again by hand; `detail` says which or how many.
        NOTIFICATION_RESENT = "notification_resent";
        /// A correct password for a user of a disabled merchant: no session was opened.
        LOGIN_REFUSED_DISABLED = "login_refused_disabled";
        MERCHANT_CREATED = "merchant_created";
        /// A merchant renamed; `detail` has the name before and after.
        MERCHANT_UPDATED = "merchant_updated";
        MERCHANT_DISABLED = "merchant_disabled";
        MERCHANT_ENABLED = "merchant_enabled";
        /// Another user added to an existing merchant.
        MERCHANT_USER_ADDED = "merchant_user_added";
        /// An administrator gave a user a temporary password (to be changed at next sign-in).
        PASSWORD_RESET = "password_reset";
        /// Money: an administrator's top-up, credit limit, repayment or adjustment of a
        /// merchant's account; `detail` has the amount and the remark.
        MONEY_TOP_UP = "money_top_up";
        MONEY_CREDIT_LIMIT = "money_credit_limit";
        MONEY_REPAYMENT = "money_repayment";
        MONEY_ADJUSTMENT = "money_adjustment";
        /// An administrator confirmed money actions with a fresh two-factor code (step-up).
        STEP_UP_CONFIRMED = "step_up_confirmed";
        /// The server's key file was replaced by `backoffice rotate-key` (target `server`).
        SERVER_KEY_ROTATED = "server_key_rotated";
        /// A bulk rule applied to a merchant's quotes; `detail` has the rule and how many changed.
        QUOTES_REPRICED = "quotes_repriced";
        /// A price list imported for a merchant; `detail` has how many quotes changed.
        QUOTES_IMPORTED = "quotes_imported";
        /// The product catalogue: `target` is `product:<id>`, `detail` the fields before and after.
        PRODUCT_CREATED = "product_created";
        PRODUCT_UPDATED = "product_updated";
        PRODUCT_DELETED = "product_deleted";
        /// An administrator switched a key's legacy MD5 signing on or off.
        API_KEY_LEGACY_ON = "api_key_legacy_on";
        API_KEY_LEGACY_OFF = "api_key_legacy_off";
        /// A merchant uploaded its business licence image.
        CERTIFICATION_LICENCE_UPLOADED = "certification_licence_uploaded";
        /// An upstream channel created or edited (never its secret), switched on or off, or
        /// its products' costs, priorities and weights saved.
        CHANNEL_SAVED = "channel_saved";
        CHANNEL_ENABLED = "channel_enabled";
        CHANNEL_PRODUCTS_SAVED = "channel_products_saved";
        /// A merchant's funding request (target `merchant:<id>`): filed or withdrawn by
        /// the merchant, approved (its top-up) or rejected by an administrator.
        FUNDING_FILED = "funding_filed";
        FUNDING_WITHDRAWN = "funding_withdrawn";
        FUNDING_APPROVED = "funding_approved";
        FUNDING_REJECTED = "funding_rejected";
        /// The blocklist: a number or prefix barred, a bar lifted, a list imported
        /// (`target` `blocklist:<pattern>`, or `blocklist` for an import).
        NUMBER_BLOCKED = "number_blocked";
        NUMBER_UNBLOCKED = "number_unblocked";
        NUMBERS_IMPORTED = "numbers_imported";
        /// A wrong ported-number record (携号转网) removed, with the administrator's reason
        /// (`target` `port:<number>`).
        NUMBER_PORT_REMOVED = "number_port_removed";
        /// The number-segment table replaced by an uploaded file (target `segments`).
        SEGMENTS_APPLIED = "segments_applied";
        /// A maintenance window created, changed or deleted (`target` `window:<id>`; `detail`
        /// its title, scope and times).
        WINDOW_CREATED = "window_created";
        WINDOW_UPDATED = "window_updated";
        WINDOW_DELETED = "window_deleted";
        /// A merchant's risk controls saved (target `merchant:<id>`; `detail` every setting).
        RISK_LIMITS_SAVED = "risk_limits_saved";
        /// A merchant's owner ran its staff (target `user:<id>`, or `merchant:<id>` for
        /// the two-factor requirement): a user added with a role, its role changed, disabled,
        /// enabled, removed; two-factor required of every user or not.
        STAFF_ADDED = "staff_added";
        STAFF_ROLE_CHANGED = "staff_role_changed";
        STAFF_DISABLED = "staff_disabled";
        STAFF_ENABLED = "staff_enabled";
        STAFF_REMOVED = "staff_removed";
        STAFF_TWO_FACTOR_REQUIRED = "staff_two_factor_required";
    }
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
    pub fn channel(channel_id: i64) -> String {
        format!("channel:{channel_id}")
    }
    /// The server itself (its key file).
    pub const SERVER: &str = "server";
}

/// Writes one event about the actor's own account (target `user:<actor>`; none without an
/// actor). Events about anything else go through [`record_on`] with their target.
/// `detail` is free text for people and must never hold a secret. On a pool, or inside the
/// transaction of the change it records.
pub async fn record<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    executor: E,
    user_id: Option<i64>,
    action: &str,
    detail: &str,
    client_address: &str,
) -> Result<(), sqlx::Error> {
    let target = user_id.map(target::user).unwrap_or_default();
    record_on(executor, user_id, action, &target, detail, client_address).await
}

/// Writes one event about `target` whose details are data, rendered in the reader's
/// language when the log is read (`AuditDetail`); on a pool or inside a transaction.
pub async fn record_detail<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    executor: E,
    user_id: Option<i64>,
    action: &str,
    target: &str,
    detail: &crate::i18n::audit::AuditDetail,
    client_address: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_events (user_id, action, target, detail, params, client_address, created_at)
         VALUES ($1, $2, $3, '', $4, $5, $6)",
    )
    .bind(user_id)
    .bind(action)
    .bind(target)
    .bind(detail.to_json())
    .bind(client_address)
    .bind(now_millis())
    .execute(executor)
    .await?;
    Ok(())
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

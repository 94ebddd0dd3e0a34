//! One change to a user of a merchant's staff (a role, disable, enable, remove), applied
//! in one transaction under the merchant's row lock so that the last-owner rule holds when
//! two owners change each other at once; audited and told to the security history.

use crate::http::error::AppError;
use crate::i18n::AdminMessage;
use crate::i18n::audit::AuditDetail;
use crate::i18n::security::SecurityDetail;
use crate::identity::permissions::MerchantRole;
use crate::identity::security_history as history;
use crate::identity::session::{CurrentUser, revoke_reason};
use crate::identity::users::repository::stored_role;
use crate::platform::audit;
use crate::platform::db::now_millis;
use crate::platform::state::AppState;
use sqlx::Row;

pub(super) fn role_code(role: MerchantRole) -> String {
    role.as_str().to_string()
}

/// What a change does to one of the merchant's users.
#[derive(Clone, Copy)]
pub(super) enum Change {
    Role(MerchantRole),
    Disable,
    Enable,
    Remove,
}

/// Applies a change to a user of the caller's merchant in one transaction: the merchant's
/// row is locked first, so two owners changing each other at once cannot both pass the
/// last-owner check.
pub(super) async fn change(
    state: &AppState,
    caller: &CurrentUser,
    address: &str,
    merchant_id: i64,
    user_id: i64,
    change: Change,
) -> Result<(), AppError> {
    let mut transaction = state.db.begin_write().await?;
    let locked = sqlx::query("UPDATE merchants SET require_two_factor = require_two_factor WHERE id = $1")
        .bind(merchant_id)
        .execute(&mut *transaction)
        .await?
        .rows_affected();
    if locked == 0 {
        return Err(AppError::NotFound);
    }
    let row = sqlx::query(
        "SELECT username, merchant_role, disabled_at FROM users
         WHERE id = $1 AND merchant_id = $2 AND role = 'user' AND removed_at IS NULL",
    )
    .bind(user_id)
    .bind(merchant_id)
    .fetch_optional(&mut *transaction)
    .await?
    .ok_or(AppError::NotFound)?;
    let username: String = row.try_get("username")?;
    let role = stored_role(&row)?;
    let enabled = row.try_get::<Option<i64>, _>("disabled_at")?.is_none();
    // Whether the change takes away an enabled owner.
    let loses_owner = role == MerchantRole::Owner
        && enabled
        && match change {
            Change::Role(new) => new != MerchantRole::Owner,
            Change::Disable | Change::Remove => true,
            Change::Enable => false,
        };
    if loses_owner {
        let other_owners: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM users WHERE merchant_id = $1 AND id <> $2 AND role = 'user'
             AND merchant_role = 'owner' AND disabled_at IS NULL AND removed_at IS NULL",
        )
        .bind(merchant_id)
        .bind(user_id)
        .fetch_one(&mut *transaction)
        .await?;
        if other_owners == 0 {
            return Err(AppError::Conflict(AdminMessage::LastOwner.into()));
        }
    }
    let now = now_millis();
    use history::kind;
    let (action, kind, detail_change, from, new_role) = match change {
        Change::Role(new) => {
            (audit::action::STAFF_ROLE_CHANGED, kind::STAFF_ROLE_CHANGED, "role", Some(role_code(role)), new)
        }
        Change::Disable => (audit::action::STAFF_DISABLED, kind::STAFF_DISABLED, "disabled", None, role),
        Change::Enable => (audit::action::STAFF_ENABLED, kind::STAFF_ENABLED, "enabled", None, role),
        Change::Remove => (audit::action::STAFF_REMOVED, kind::STAFF_REMOVED, "removed", None, role),
    };
    let update = match change {
        Change::Role(new) => {
            sqlx::query("UPDATE users SET merchant_role = $1 WHERE id = $2").bind(new.as_str()).bind(user_id)
        }
        Change::Disable => sqlx::query("UPDATE users SET disabled_at = COALESCE(disabled_at, $1) WHERE id = $2")
            .bind(now)
            .bind(user_id),
        Change::Enable => sqlx::query("UPDATE users SET disabled_at = NULL WHERE id = $1").bind(user_id),
        Change::Remove => sqlx::query("UPDATE users SET removed_at = $1 WHERE id = $2").bind(now).bind(user_id),
    };
    update.execute(&mut *transaction).await?;
    if matches!(change, Change::Disable | Change::Remove) {
        sqlx::query(
            "UPDATE sessions SET revoked_at = $1, revoked_reason = $2 WHERE user_id = $3 AND revoked_at IS NULL",
        )
        .bind(now)
        .bind(revoke_reason::USER_DISABLED)
        .bind(user_id)
        .execute(&mut *transaction)
        .await?;
    }
    let history_detail =
        SecurityDetail::Staff { username: username.clone(), role: role_code(new_role), from: from.clone() };
    let detail = AuditDetail::Staff { username, change: detail_change.into(), from, role: role_code(new_role) };
    let target = audit::target::user(user_id);
    audit::record_detail(&mut *transaction, Some(caller.user_id), action, &target, &detail, address).await?;
    let event = history::Event::by(caller, kind, history_detail, address).in_merchant(merchant_id);
    history::record(&mut *transaction, &event).await?;
    transaction.commit().await?;
    // The new role, or the end of the user's sessions, holds from the next call on.
    state.sessions.forget_all();
    Ok(())
}

//! Administrators reset another user's two-factor (a lost phone): `reset2FA`.
//!
//! An administrator with two-factor on confirms with their own code, so a stolen
//! administrator session alone cannot strip others' protection. The reset is audited
//! and the user is told in the message center.

use super::verification::CodeCheck;
use super::{backup_codes, store};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::Message;
use crate::i18n::audit::AuditDetail;
use crate::identity::session::AdminUser;
use crate::platform::audit::{self, action};
use crate::platform::state::AppState;
use axum::extract::State;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Deserialize, ToSchema)]
pub struct ResetRequest {
    /// The user whose two-factor is turned off.
    pub user_id: i64,
    /// The administrator's own code (authenticator or backup); required when the
    /// administrator has two-factor on.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "123456")]
    pub code: Option<Value>,
}

/// Administrators: turn off another user's two-factor (authenticator, backup codes and
/// any unfinished setup). The user signs in with the password alone and may set it up again.
#[utoipa::path(
    post, path = "/adminapi/admin/user/reset2FA", tag = "admin",
    request_body = ResetRequest,
    responses(
        (status = 200, description = "Two-factor of the user is off; `data` is null"),
        (status = 401, description = "40110: the administrator's own code is wrong or missing"),
        (status = 403, description = "40300: not an administrator"),
        (status = 404, description = "40400: no such user"),
        (status = 409, description = "40900: the user does not have two-factor on"),
        (status = 429, description = "42900: too many wrong codes of the administrator"),
    ),
    security(("token" = []))
)]
pub async fn reset(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(client_address): ClientAddress,
    JsonBody(request): JsonBody<ResetRequest>,
) -> ApiResult<()> {
    let pool = &state.db.pool;
    let username: Option<String> = sqlx::query_scalar("SELECT username FROM users WHERE id = $1")
        .bind(request.user_id)
        .fetch_optional(pool)
        .await?;
    let Some(username) = username else { return Err(AppError::NotFound) };
    if store::enabled_at(pool, request.user_id).await?.is_none() {
        return Err(AppError::Conflict(Message::TwoFactorNotEnabled));
    }
    let address = client_address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: admin.user_id,
        client_address: &address,
        purpose: "reset_other",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    // The administrator's own code, spent in the transaction that does the reset.
    let (mut transaction, confirmed) = if store::enabled_at(pool, admin.user_id).await?.is_some() {
        let when_off = AppError::Conflict(Message::TwoFactorNotEnabled);
        (check.confirm_enabled(request.code.as_ref(), when_off).await?, true)
    } else {
        (state.db.begin_write().await?, false)
    };
    store::delete_enabled(&mut transaction, request.user_id).await?;
    backup_codes::delete_all(&mut transaction, request.user_id).await?;
    store::delete_setups(&mut transaction, request.user_id).await?;
    // The audit record and the user's notice commit with the reset: neither is lost to a
    // failure after the commit, nor written for a reset that did not commit.
    let detail = AuditDetail::TwoFactorReset { user_id: request.user_id, username: username.to_string() };
    let target = audit::target::user(request.user_id);
    audit::record_detail(&mut *transaction, Some(admin.user_id), action::TWO_FACTOR_RESET, &target, &detail, &address)
        .await?;
    {
        use crate::identity::security_history::{self as history, Whose, kind};
        let detail = crate::i18n::security::SecurityDetail::OfUser { username: username.to_string() };
        let mut event = history::Event::by(&admin, kind::TWO_FACTOR_RESET, detail, &address);
        event.whose = Whose::UserOf(request.user_id);
        history::record(&mut *transaction, &event).await?;
    }
    tell_user(&mut transaction, request.user_id, &admin.username).await?;
    transaction.commit().await?;
    if confirmed {
        check.succeeded().await?;
    }
    Ok(ApiOk(()))
}

async fn tell_user(connection: &mut sqlx::AnyConnection, user_id: i64, administrator: &str) -> Result<(), AppError> {
    use crate::i18n::notices::Notice;
    use crate::identity::user_centre::inbox::{Notification, notify};
    let content = Notice::TwoFactorResetDetail { administrator: administrator.to_string() }.stored();
    let (title, sub_title) = (Notice::TwoFactorResetByAdministrator.stored(), Notice::AccountSecurity.stored());
    let notification = Notification::notice(&title, &sub_title, &content, 3);
    notify(connection, user_id, notification).await?;
    Ok(())
}

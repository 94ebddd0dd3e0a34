//! The signed-in user's own password: `/adminapi/merchant/changePassword`, and the checks
//! and writes the profile form's password change (`profile.rs`) shares with it.

use super::inbox::{MessageKind, Notification, notify};
use crate::http::error::{ApiOk, ApiResult, AppError, FieldError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::Message;
use crate::i18n::UserCentreMessage as Text;
use crate::i18n::notices::Notice;
use crate::identity::session::CurrentUser;
use crate::platform::audit::{self, action};
use crate::platform::db::now_millis;
use crate::platform::password::NewPassword;
use crate::platform::state::AppState;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A password change that passed its rules, not yet checked against the stored hash.
pub(super) struct PasswordChange {
    current: String,
    new: NewPassword,
}

pub(super) fn parse_password_change(
    new: Option<String>,
    current: Option<String>,
    new_field: &str,
) -> Result<Option<PasswordChange>, Vec<FieldError>> {
    let new = new.unwrap_or_default();
    if new.is_empty() {
        return Ok(None);
    }
    let mut errors = Vec::new();
    let parsed = NewPassword::parse(&new).map_err(|message| errors.push(FieldError::new(new_field, message))).ok();
    let current = current.unwrap_or_default();
    if current.is_empty() {
        errors.push(FieldError::new("current_password", Message::UserCentre(Text::CurrentPasswordRequired)));
    } else if current == new {
        errors.push(FieldError::new(new_field, Message::UserCentre(Text::NewPasswordSameAsOld)));
    }
    match parsed {
        Some(new) if errors.is_empty() => Ok(Some(PasswordChange { current, new })),
        _ => Err(errors),
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    #[serde(default)]
    pub current_password: Option<String>,
    #[serde(default)]
    pub new_password: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PasswordChanged {
    /// False when the new password was blank (no change).
    pub changed: bool,
    /// How many other sessions of the user were ended.
    pub other_sessions_ended: u64,
}

/// Changes the password. Every other session of the user ends; this one stays.
#[utoipa::path(post, path = "/adminapi/merchant/changePassword", tag = "merchant", request_body = ChangePasswordRequest,
    responses((status = 200, description = "`data` is PasswordChanged", body = PasswordChanged), (status = 400, description = "40000: a field is missing or the new password too weak"),
        (status = 403, description = "40300: `current_password` is not the current password"), (status = 429, description = "42900: too many wrong current passwords")),
    security(("token" = [])))]
pub async fn change_password(
    State(state): State<AppState>,
    caller: CurrentUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<ChangePasswordRequest>,
) -> ApiResult<PasswordChanged> {
    let change = parse_password_change(request.new_password, request.current_password, "new_password")
        .map_err(AppError::Validation)?;
    let Some(change) = change else {
        return Ok(ApiOk(PasswordChanged { changed: false, other_sessions_ended: 0 }));
    };
    let hash = verify_and_hash(&state, &caller, &change).await?;
    let now = now_millis();
    let mut transaction = state.db.pool.begin().await?;
    let ended = store_password(&mut transaction, &caller, &hash, now).await?;
    record_password_change(&mut transaction, &caller, &address.to_string(), now).await?;
    transaction.commit().await?;
    // The user's other sessions ended in the committed transaction: none may be served from
    // the session cache any more.
    state.sessions.forget_all();
    Ok(ApiOk(PasswordChanged { changed: true, other_sessions_ended: ended }))
}

pub(super) async fn verify_and_hash(
    state: &AppState,
    caller: &CurrentUser,
    change: &PasswordChange,
) -> Result<String, AppError> {
    let (pool, policy) = (&state.db.pool, &state.config.throttle);
    if !crate::identity::throttle::verify_current_password(pool, policy, &state.hasher, caller.user_id, &change.current)
        .await?
    {
        return Err(AppError::forbidden_on("current_password", Message::UserCentre(Text::CurrentPasswordWrong)));
    }
    Ok(state.hasher.hash(&change.new).await?)
}

/// Stores the new hash and ends the user's other sessions; returns how many ended.
pub(super) async fn store_password(
    transaction: &mut sqlx::Transaction<'_, sqlx::Any>,
    caller: &CurrentUser,
    hash: &str,
    now: i64,
) -> Result<u64, AppError> {
    // Choosing one's own password ends a temporary one's restrictions.
    sqlx::query(
        "UPDATE users SET password_hash = $1, password_changed_at = $2, must_change_password = 0 WHERE id = $3",
    )
    .bind(hash)
    .bind(now)
    .bind(caller.user_id)
    .execute(&mut **transaction)
    .await?;
    let ended = sqlx::query(
        "UPDATE sessions SET revoked_at = $1, revoked_reason = 'password_changed'
         WHERE user_id = $2 AND id <> $3 AND revoked_at IS NULL",
    )
    .bind(now)
    .bind(caller.user_id)
    .bind(caller.session_id)
    .execute(&mut **transaction)
    .await?;
    Ok(ended.rows_affected())
}

/// The audit record and the user's notice of a password change, written in the change's
/// transaction: neither is lost to a failure after the commit, nor written for a change
/// that did not commit.
pub(super) async fn record_password_change(
    transaction: &mut sqlx::Transaction<'_, sqlx::Any>,
    caller: &CurrentUser,
    address: &str,
    now: i64,
) -> Result<(), AppError> {
    audit::record(&mut **transaction, Some(caller.user_id), action::PASSWORD_CHANGED, "", address).await?;
    {
        use crate::identity::security_history::{self as history, kind};
        let detail = crate::i18n::security::SecurityDetail::None;
        history::record(&mut **transaction, &history::Event::by(caller, kind::PASSWORD_CHANGED, detail, address))
            .await?;
    }
    notify(
        &mut **transaction,
        caller.user_id,
        Notification {
            kind: MessageKind::Notice,
            title: &Notice::PasswordChanged.stored(),
            sub_title: &Notice::OtherSessionsSignedOut.stored(),
            content: &Notice::PasswordChangedAt {
                time: crate::domain::beijing_time(now),
                address: address.to_string(),
            }
            .stored(),
            message_type: 2,
        },
    )
    .await?;
    Ok(())
}

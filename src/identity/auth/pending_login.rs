//! The second step of a sign-in with two-factor on: `POST /adminapi/login/verify2FA`.
//!
//! A right password then yields no session but a `pending_token`: good for this one
//! call only (it is not a session token, so every other endpoint answers 50008 for
//! it), for a few minutes, once, and only while the password stays the same. The
//! server keeps only its SHA-256, like a session token's.

use super::{LoginResponse, open_session};
use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::Message;
use crate::identity::session::token::{is_well_formed, new_token, token_hash};
use crate::identity::session::{Account, duration_millis};
use crate::identity::two_factor::verification::CodeCheck;
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::{extract::State, http::HeaderMap};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::{AnyConnection, Row};
use utoipa::ToSchema;

/// What `login` answers when the account has two-factor on.
#[derive(Debug, Serialize, ToSchema)]
pub struct PendingLoginResponse {
    /// Always true here: send `pending_token` and a code to verify2FA.
    pub need_2fa: bool,
    pub pending_token: String,
    /// When `pending_token` stops working (RFC 3339).
    pub expires_at: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct VerifyTwoFactorRequest {
    #[serde(default)]
    #[schema(value_type = String)]
    pub pending_token: Option<Value>,
    /// A 6-digit authenticator code or an 8-digit backup code.
    #[serde(default)]
    #[schema(value_type = String, example = "123456")]
    pub code: Option<Value>,
}

/// Opens a pending sign-in for a user whose password was just verified, with its audit
/// record in the same transaction.
pub async fn create(state: &AppState, user_id: i64, client_address: &str) -> Result<PendingLoginResponse, AppError> {
    let now = now_millis();
    let expires_at = now.saturating_add(duration_millis(state.config.two_factor.pending_login_lifetime));
    let token = new_token();
    let mut transaction = state.db.begin_write().await?;
    // Spent and expired handles of this user are of no further use: keep the table small.
    sqlx::query("DELETE FROM pending_logins WHERE user_id = $1 AND (used_at IS NOT NULL OR expires_at <= $2)")
        .bind(user_id)
        .bind(now)
        .execute(&mut *transaction)
        .await?;
    sqlx::query(
        "INSERT INTO pending_logins (token_hash, user_id, password_changed_at, created_at, expires_at, client_address)
         SELECT $1, id, password_changed_at, $2, $3, $4 FROM users WHERE id = $5",
    )
    .bind(token_hash(&token))
    .bind(now)
    .bind(expires_at)
    .bind(client_address)
    .bind(user_id)
    .execute(&mut *transaction)
    .await?;
    audit::record(&mut *transaction, Some(user_id), action::LOGIN_PENDING_TWO_FACTOR, "", client_address).await?;
    transaction.commit().await?;
    Ok(PendingLoginResponse { need_2fa: true, pending_token: token, expires_at: millis_to_rfc3339(expires_at) })
}

/// A pending sign-in that may still be completed.
struct PendingLogin {
    id: i64,
    account: Account,
}

/// A handle that is unused, unexpired, and was issued under the current password.
async fn find(state: &AppState, token: &str) -> Result<Option<PendingLogin>, AppError> {
    let row = sqlx::query(
        "SELECT p.id, p.user_id, u.username, u.role, u.merchant_id
         FROM pending_logins p JOIN users u ON u.id = p.user_id
         WHERE p.token_hash = $1 AND p.used_at IS NULL AND p.expires_at > $2
           AND p.password_changed_at = u.password_changed_at",
    )
    .bind(token_hash(token))
    .bind(now_millis())
    .fetch_optional(&state.db.pool)
    .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(PendingLogin { id: row.try_get("id")?, account: Account::from_row(&row)? }))
}

/// Uses the pending sign-in up, checking again that it is still valid. The conditions
/// are on the updated row itself, so PostgreSQL re-checks them after waiting for a
/// parallel request: of several, exactly one gets true.
async fn take(connection: &mut AnyConnection, id: i64) -> Result<bool, sqlx::Error> {
    let result = sqlx::query(
        "UPDATE pending_logins SET used_at = $2
         WHERE id = $1 AND used_at IS NULL AND expires_at > $2
           AND password_changed_at = (SELECT u.password_changed_at FROM users u WHERE u.id = pending_logins.user_id)",
    )
    .bind(id)
    .bind(now_millis())
    .execute(connection)
    .await?;
    Ok(result.rows_affected() == 1)
}

/// Completes a sign-in with two-factor on: the `pending_token` from login and a code.
/// Answers what an ordinary sign-in answers.
#[utoipa::path(
    post, path = "/adminapi/login/verify2FA", tag = "login",
    request_body = VerifyTwoFactorRequest,
    responses(
        (status = 200, description = "Signed in: `data` is a LoginResponse", body = LoginResponse),
        (status = 401, description = "40110: the code is wrong (any kind); 40120: the pending_token is unknown, \
            expired, used, or from before a password change"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`"),
    )
)]
pub async fn verify_two_factor(
    State(state): State<AppState>,
    ClientAddress(client_address): ClientAddress,
    headers: HeaderMap,
    JsonBody(request): JsonBody<VerifyTwoFactorRequest>,
) -> ApiResult<LoginResponse> {
    let token = match request.pending_token {
        Some(Value::String(token)) if is_well_formed(&token) => token,
        _ => return Err(AppError::PendingLoginInvalid),
    };
    let pending = find(&state, &token).await?.ok_or(AppError::PendingLoginInvalid)?;
    let address = client_address.to_string();
    let user_agent = crate::identity::security_history::agent_of(&headers).to_string();
    let check = CodeCheck {
        state: &state,
        user_id: pending.account.user_id,
        client_address: &address,
        purpose: "login",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: Some(&user_agent),
    };
    // Two-factor turned off since the password step: that sign-in is void, start over.
    let mut transaction = check.confirm_enabled(request.code.as_ref(), AppError::PendingLoginInvalid).await?;
    if !take(&mut transaction, pending.id).await? {
        transaction.rollback().await?;
        return Err(AppError::PendingLoginInvalid);
    }
    transaction.commit().await?;
    check.succeeded().await?;
    open_session(&state, pending.account, &address, &headers, true).await.map(ApiOk)
}

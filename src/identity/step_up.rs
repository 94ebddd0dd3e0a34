//! Step-up for money: an administrator with two-factor on confirms money-moving actions
//! (top-up, credit limit, repayment, adjustment, resolve, refund) with a fresh code. The
//! confirmation belongs to the session that gave it (`sessions.step_up_until`) and lasts
//! `two_factor.step_up_lifetime` (5 minutes), so repeated actions need one code; another
//! session, or the same one later, must confirm again. The code is checked through
//! `two_factor::verification`, the one path of every code check (same throttle, same
//! replay rule). Administrators without two-factor are not asked.

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::i18n::Message;
use crate::identity::session::{AdminUser, CurrentUser};
use crate::identity::two_factor::{CodeRequest, store, verification::CodeCheck};
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::{Router, extract::State, routing::post};
use serde::Serialize;
use utoipa::ToSchema;

pub fn router() -> Router<AppState> {
    Router::new().route("/adminapi/admin/stepUp/confirm", post(confirm))
}

/// Refuses a money action of an administrator with two-factor on whose session has no
/// confirmation in force (`AppError::StepUpRequired`); passes everyone else.
pub async fn require(state: &AppState, caller: &CurrentUser) -> Result<(), AppError> {
    let pool = &state.db.pool;
    if store::enabled_at(pool, caller.user_id).await?.is_none() {
        return Ok(());
    }
    let until: Option<i64> = sqlx::query_scalar("SELECT step_up_until FROM sessions WHERE id = $1")
        .bind(caller.session_id)
        .fetch_optional(pool)
        .await?;
    match until {
        Some(until) if until > now_millis() => Ok(()),
        _ => Err(AppError::StepUpRequired),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StepUpResponse {
    /// Money actions of this session need no code until then (RFC 3339).
    pub valid_until: String,
}

/// Administrators with two-factor on: confirm money actions with a code (authenticator or
/// backup) for this session, for the next 5 minutes.
#[utoipa::path(post, path = "/adminapi/admin/stepUp/confirm", tag = "admin", request_body = CodeRequest,
    responses((status = 200, description = "`data` is a StepUpResponse", body = StepUpResponse),
        (status = 401, description = "40110: the code is wrong, malformed or already used"),
        (status = 403, description = "40300: not an administrator"),
        (status = 409, description = "40900: two-factor is not on (nothing to confirm)"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`")),
    security(("token" = [])))]
pub async fn confirm(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ClientAddress(address): ClientAddress,
    JsonBody(request): JsonBody<CodeRequest>,
) -> ApiResult<StepUpResponse> {
    let address = address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: admin.user_id,
        client_address: &address,
        purpose: "step_up",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    let not_enabled = AppError::Conflict(Message::TwoFactorNotEnabled);
    let mut transaction = check.confirm_enabled(request.code.as_ref(), not_enabled).await?;
    let lifetime = i64::try_from(state.config.two_factor.step_up_lifetime.as_millis()).unwrap_or(i64::MAX);
    let until = now_millis().saturating_add(lifetime);
    sqlx::query("UPDATE sessions SET step_up_until = $1 WHERE id = $2")
        .bind(until)
        .bind(admin.session_id)
        .execute(&mut *transaction)
        .await?;
    audit::record(&mut *transaction, Some(admin.user_id), action::STEP_UP_CONFIRMED, "", &address).await?;
    transaction.commit().await?;
    check.succeeded().await?;
    Ok(ApiOk(StepUpResponse { valid_until: millis_to_rfc3339(until) }))
}

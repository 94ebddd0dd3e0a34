//! Two-factor authentication with an authenticator app: `/adminapi/google-auth/*`.
//!
//! Setup hands out a fresh secret (as text and as a QR code drawn here), the backup
//! codes and a `temp_key`: a handle to the pending secret, which stays on the server.
//! Enable proves the authenticator works with one code and turns two-factor on; from
//! then on the secret is never shown again. Disable and regenerate need a code too.
//! Sign-in with two-factor on is in `auth::pending_login`.

pub mod admin_reset;
pub mod backup_codes;
pub mod qr;
pub mod store;
pub mod totp;
pub mod verification;

use crate::http::error::{ApiOk, ApiResult, AppError};
use crate::http::extract::{ClientAddress, JsonBody};
use crate::http::security_headers::no_store;
use crate::i18n::{Message, UserCentreMessage};
use crate::identity::session::token::{is_well_formed, new_token, token_hash};
use crate::identity::session::{CurrentUser, duration_millis};
use crate::platform::audit::{self, action};
use crate::platform::db::{millis_to_rfc3339, now_millis};
use crate::platform::state::AppState;
use axum::{
    Router,
    extract::State,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use verification::{AcceptedCode, CodeCheck, CodeTarget};

/// The service name authenticator apps show next to the account.
pub const ISSUER: &str = "backoffice";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/adminapi/google-auth/setup2FA", get(setup))
        .route("/adminapi/google-auth/enable2FA", post(enable))
        .route("/adminapi/google-auth/disable2FA", post(disable))
        .route("/adminapi/google-auth/regenerateBackupCodes", post(regenerate_backup_codes))
        .route("/adminapi/google-auth/get2FAStatus", get(status))
        .route("/adminapi/admin/user/reset2FA", post(admin_reset::reset))
        .layer(no_store())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SetupResponse {
    /// The secret in base32, for typing into the app by hand.
    pub secret: String,
    /// The `otpauth://` URI as a QR code: an SVG `data:` URL drawn by this server.
    pub qr_code_url: String,
    /// The backup codes that enabling with this setup will put in force.
    pub backup_codes: Vec<String>,
    /// Handle to this setup for enable2FA: once, by this user, before `expires_at`.
    pub temp_key: String,
    pub expires_at: String,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EnableRequest {
    /// The 6-digit code the app shows now.
    #[serde(default)]
    #[schema(value_type = String, example = "123456")]
    pub code: Option<Value>,
    #[serde(default)]
    #[schema(value_type = String)]
    pub temp_key: Option<Value>,
    /// The current password: a session alone must not be enough to bind an authenticator.
    #[serde(default)]
    #[schema(value_type = String, required = true, min_length = 1)]
    pub password: Option<String>,
}

/// A code confirming an operation: 6 digits from the app or an 8-digit backup code.
#[derive(Debug, Deserialize, ToSchema)]
pub struct CodeRequest {
    #[serde(default)]
    #[schema(value_type = String, example = "123456")]
    pub code: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BackupCodesResponse {
    /// Ten 8-digit codes, each good once. Shown only now.
    pub backup_codes: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct StatusResponse {
    pub enabled: bool,
    /// When two-factor was turned on (RFC 3339); null when off.
    pub enabled_at: Option<String>,
    /// Backup codes not used yet.
    pub backup_codes_count: i64,
}

/// Starts a setup: a new secret, its QR code and backup codes. A newer setup replaces
/// an unfinished one. Refused while two-factor is on: the secret in force is never shown.
#[utoipa::path(
    get, path = "/adminapi/google-auth/setup2FA", tag = "google-auth",
    responses(
        (status = 200, description = "`data` is a SetupResponse; `Cache-Control: no-store`", body = SetupResponse),
        (status = 409, description = "40900: two-factor is already on"),
        (status = 500, description = "50000: 'Initialization failed' or 'QR code generation failed'"),
    ),
    security(("token" = []))
)]
pub async fn setup(State(state): State<AppState>, user: CurrentUser) -> ApiResult<SetupResponse> {
    start_setup(&state, &user).await.map(ApiOk).map_err(|error| error.internal_as(Message::TwoFactorSetupFailed))
}

async fn start_setup(state: &AppState, user: &CurrentUser) -> Result<SetupResponse, AppError> {
    let pool = &state.db.pool;
    if store::enabled_at(pool, user.user_id).await?.is_some() {
        return Err(AppError::Conflict(Message::TwoFactorAlreadyEnabled));
    }
    let secret = totp::new_secret();
    let qr_code_url = qr::data_url(&totp::provisioning_uri(ISSUER, &user.username, &secret))
        .map_err(|cause| AppError::OperationFailed { message: Message::TwoFactorQrCodeFailed, cause })?;
    let temp_key = new_token();
    let now = now_millis();
    let expires_at = now.saturating_add(duration_millis(state.config.two_factor.setup_lifetime));
    store::save_setup(pool, &state.secrets, user.user_id, &token_hash(&temp_key), &secret, now, expires_at).await?;
    Ok(SetupResponse {
        secret: totp::encode_secret(&secret),
        qr_code_url,
        backup_codes: backup_codes::derive(&state.secrets, temp_key.as_bytes()),
        temp_key,
        expires_at: millis_to_rfc3339(expires_at),
    })
}

/// Turns two-factor on with the current code of the setup's secret. Answers the backup
/// codes the setup showed, now in force.
#[utoipa::path(
    post, path = "/adminapi/google-auth/enable2FA", tag = "google-auth",
    request_body = EnableRequest,
    responses(
        (status = 200, description = "`data` is a BackupCodesResponse", body = BackupCodesResponse),
        (status = 400, description = "40000: `password` missing"),
        (status = 403, description = "40300: `password` is not the current password"),
        (status = 401, description = "40110: 'Verification code is incorrect, please try again' (any wrong code)"),
        (status = 409, description = "40900: already on, or the temp_key is expired, used, replaced or not yours"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`"),
    ),
    security(("token" = []))
)]
pub async fn enable(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddress(client_address): ClientAddress,
    JsonBody(request): JsonBody<EnableRequest>,
) -> ApiResult<BackupCodesResponse> {
    let pool = &state.db.pool;
    let setup_gone = || AppError::Conflict(Message::TwoFactorSetupExpired);
    if store::enabled_at(pool, user.user_id).await?.is_some() {
        return Err(AppError::Conflict(Message::TwoFactorAlreadyEnabled));
    }
    // Whoever holds a stolen session must not bind their own authenticator: the
    // password first (throttled like sign-in), before any code is looked at.
    let password = request.password.unwrap_or_default();
    if password.is_empty() {
        return Err(AppError::field("password", Message::UserCentre(UserCentreMessage::CurrentPasswordRequired)));
    }
    let policy = &state.config.throttle;
    if !crate::identity::throttle::verify_current_password(pool, policy, &state.hasher, user.user_id, &password).await?
    {
        return Err(AppError::forbidden_on("password", Message::UserCentre(UserCentreMessage::CurrentPasswordWrong)));
    }
    let temp_key = match request.temp_key {
        Some(Value::String(key)) if is_well_formed(&key) => key,
        _ => return Err(setup_gone()),
    };
    let key_hash = token_hash(&temp_key);
    let secret =
        store::find_setup(pool, &state.secrets, user.user_id, &key_hash, now_millis()).await?.ok_or_else(setup_gone)?;
    let address = client_address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: user.user_id,
        client_address: &address,
        purpose: "enable",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    // The pending secret has no used steps yet; taking the setup below makes its
    // code single-use, and the step is carried over so the code cannot sign in later.
    let target = CodeTarget { secret: &secret, last_used_step: -1, accepts_backup_codes: false };
    let accepted = check.accept(&target, request.code.as_ref()).await?;
    let AcceptedCode::Step(used_step) = accepted else {
        return Err(AppError::TwoFactorCodeWrong(Message::TwoFactorCodeWrong));
    };
    let codes = backup_codes::derive(&state.secrets, temp_key.as_bytes());
    let now = now_millis();
    let mut transaction = state.db.begin_write().await?;
    if !store::take_setup(&mut transaction, user.user_id, &key_hash, now).await? {
        transaction.rollback().await?;
        return Err(setup_gone());
    }
    if !store::insert_enabled(&mut transaction, &state.secrets, user.user_id, &secret, used_step, now).await? {
        transaction.rollback().await?;
        return Err(AppError::Conflict(Message::TwoFactorAlreadyEnabled));
    }
    backup_codes::replace(&mut transaction, &state.secrets, user.user_id, &codes, now).await?;
    record(&mut transaction, &user, SecurityEvent::Enabled, &address).await?;
    transaction.commit().await?;
    // A merchant requiring two-factor lets this user in at once (`CurrentUser`).
    state.sessions.forget_all();
    check.succeeded().await?;
    Ok(ApiOk(BackupCodesResponse { backup_codes: codes }))
}

/// Turns two-factor off, confirmed by an authenticator or backup code.
#[utoipa::path(
    post, path = "/adminapi/google-auth/disable2FA", tag = "google-auth",
    request_body = CodeRequest,
    responses(
        (status = 200, description = "Two-factor is off; `data` is null"),
        (status = 401, description = "40110: '验证码错误，请重试' (any wrong code)"),
        (status = 409, description = "40900: two-factor is not on"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`"),
    ),
    security(("token" = []))
)]
pub async fn disable(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddress(client_address): ClientAddress,
    JsonBody(request): JsonBody<CodeRequest>,
) -> ApiResult<()> {
    let address = client_address.to_string();
    let check = CodeCheck {
        state: &state,
        user_id: user.user_id,
        client_address: &address,
        purpose: "disable",
        wrong: Message::TwoFactorCodeWrong,
        sign_in_agent: None,
    };
    let not_enabled = AppError::Conflict(Message::TwoFactorNotEnabled);
    let mut transaction = check.confirm_enabled(request.code.as_ref(), not_enabled).await?;
    store::delete_enabled(&mut transaction, user.user_id).await?;
    backup_codes::delete_all(&mut transaction, user.user_id).await?;
    store::delete_setups(&mut transaction, user.user_id).await?;
    record(&mut transaction, &user, SecurityEvent::Disabled, &address).await?;
    transaction.commit().await?;
    state.sessions.forget_all();
    check.succeeded().await?;
    Ok(ApiOk(()))
}

/// Replaces all backup codes (used or not) with a new set, confirmed by a code.
#[utoipa::path(
    post, path = "/adminapi/google-auth/regenerateBackupCodes", tag = "google-auth",
    request_body = CodeRequest,
    responses(
        (status = 200, description = "`data` is a BackupCodesResponse", body = BackupCodesResponse),
        (status = 401, description = "40110: '重新生成备用验证码失败' (any wrong code)"),
        (status = 409, description = "40900: two-factor is not on"),
        (status = 429, description = "42900: too many wrong codes; `data.retry_after_seconds`"),
    ),
    security(("token" = []))
)]
pub async fn regenerate_backup_codes(
    State(state): State<AppState>,
    user: CurrentUser,
    ClientAddress(client_address): ClientAddress,
    JsonBody(request): JsonBody<CodeRequest>,
) -> ApiResult<BackupCodesResponse> {
    regenerate(&state, &user, &client_address.to_string(), request)
        .await
        .map(ApiOk)
        .map_err(|error| error.internal_as(Message::BackupCodesRegenerateFailed))
}

async fn regenerate(
    state: &AppState,
    user: &CurrentUser,
    address: &str,
    request: CodeRequest,
) -> Result<BackupCodesResponse, AppError> {
    let check = CodeCheck {
        state,
        user_id: user.user_id,
        client_address: address,
        purpose: "regenerate",
        wrong: Message::BackupCodesRegenerateFailed,
        sign_in_agent: None,
    };
    let not_enabled = AppError::Conflict(Message::TwoFactorNotEnabled);
    let mut transaction = check.confirm_enabled(request.code.as_ref(), not_enabled).await?;
    let codes = backup_codes::random(&state.secrets);
    backup_codes::replace(&mut transaction, &state.secrets, user.user_id, &codes, now_millis()).await?;
    record(&mut transaction, user, SecurityEvent::BackupCodesRegenerated, address).await?;
    transaction.commit().await?;
    check.succeeded().await?;
    Ok(BackupCodesResponse { backup_codes: codes })
}

/// Whether two-factor is on, since when, and how many backup codes are left.
#[utoipa::path(
    get, path = "/adminapi/google-auth/get2FAStatus", tag = "google-auth",
    responses(
        (status = 200, description = "`data` is a StatusResponse", body = StatusResponse),
        (status = 500, description = "50000: 'Failed to get two-factor authentication status'"),
    ),
    security(("token" = []))
)]
pub async fn status(State(state): State<AppState>, user: CurrentUser) -> ApiResult<StatusResponse> {
    read_status(&state, user.user_id)
        .await
        .map(ApiOk)
        .map_err(|error| error.internal_as(Message::TwoFactorStatusFailed))
}

async fn read_status(state: &AppState, user_id: i64) -> Result<StatusResponse, AppError> {
    let pool = &state.db.pool;
    let enabled_at = store::enabled_at(pool, user_id).await?;
    let backup_codes_count = match enabled_at {
        Some(_) => backup_codes::count_unused(pool, user_id).await?,
        None => 0,
    };
    Ok(StatusResponse {
        enabled: enabled_at.is_some(),
        enabled_at: enabled_at.map(millis_to_rfc3339),
        backup_codes_count,
    })
}

/// Changes to two-factor authentication that the user hears about in the message center.
enum SecurityEvent {
    Enabled,
    Disabled,
    BackupCodesRegenerated,
}

/// The change's audit record and the user's notice, written in its transaction: neither is
/// lost to a failure after the commit, nor written for a change that did not commit.
async fn record(
    connection: &mut sqlx::AnyConnection,
    user: &CurrentUser,
    event: SecurityEvent,
    address: &str,
) -> Result<(), AppError> {
    use crate::i18n::notices::Notice;
    use crate::identity::security_history::{self as history, kind};
    use crate::identity::user_centre::inbox::{MessageKind, Notification, notify};
    let user_id = user.user_id;
    let (title, message_type, event_action, history_kind) = match event {
        SecurityEvent::Enabled => (Notice::TwoFactorEnabled, 1, action::TWO_FACTOR_ENABLED, kind::TWO_FACTOR_ENABLED),
        // Turning protection off is the change an attacker would make: flag it.
        SecurityEvent::Disabled => {
            (Notice::TwoFactorDisabled, 3, action::TWO_FACTOR_DISABLED, kind::TWO_FACTOR_DISABLED)
        }
        SecurityEvent::BackupCodesRegenerated => {
            (Notice::BackupCodesRegenerated, 2, action::BACKUP_CODES_REGENERATED, kind::BACKUP_CODES_REGENERATED)
        }
    };
    audit::record(&mut *connection, Some(user_id), event_action, "", address).await?;
    let detail = crate::i18n::security::SecurityDetail::None;
    history::record(&mut *connection, &history::Event::by(user, history_kind, detail, address)).await?;
    let content = Notice::SecurityChangeFrom { address: address.to_string() }.stored();
    notify(
        connection,
        user_id,
        Notification {
            kind: MessageKind::Notice,
            title: &title.stored(),
            sub_title: &Notice::AccountSecurity.stored(),
            content: &content,
            message_type,
        },
    )
    .await?;
    Ok(())
}
